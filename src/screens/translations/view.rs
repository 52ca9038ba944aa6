use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::{Modal, TranslationsTab};
use crate::api::language_name;
use crate::api::models::{Translation, TranslationStatus};
use crate::screens::look::Look;
use crate::ui::composer::Composer;
use crate::ui::hit::Canvas;
use crate::ui::notice::Notice;
use crate::ui::sanitize::sanitize;
use crate::ui::table::{self, Column};
use crate::ui::theme::Theme;
use crate::ui::{status, text, time};

/// Below this width the details pane goes under the list instead of beside it.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;

/// The list on the left (or top), details on the right (or bottom), a notice row at the
/// bottom when there is one.
pub fn split(area: Rect, notice: bool) -> (Rect, Rect, Option<Rect>) {
    let (body, notice_area) = if notice && area.height >= 3 {
        let [body, row] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
        (body, Some(row))
    } else {
        (area, None)
    };
    let [list, details] = if body.width >= SIDE_BY_SIDE_MIN_WIDTH {
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(body)
    };
    (list, details, notice_area)
}

/// A details pane's box: a border on the side facing the list.
pub fn details_block<'a>(area: Rect, theme: &Theme) -> Block<'a> {
    let borders = if area.x > 0 {
        Borders::LEFT
    } else {
        Borders::TOP
    };
    Block::default()
        .borders(borders)
        .border_style(theme.style("border"))
}

/// A value too long for a "Label  value" line (an address, a message): its label on one
/// line, then the value wrapped to `width`, long words broken, sanitized.
pub fn long_field(label: &str, value: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(Span::styled(
        label.to_string(),
        theme.style("muted"),
    ))];
    lines.extend(
        text::wrap(value, width as usize)
            .into_iter()
            .map(|line| Line::from(Span::styled(line, theme.style("text")))),
    );
    lines
}

/// "Label        value" for a details pane; the value is sanitized.
pub fn field(label: &str, value: &str, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{label:<13}"), theme.style("muted")),
        Span::styled(sanitize(value).into_owned(), theme.style("text")),
    ])
}

pub fn draw_notice(
    notice: Option<&Notice>,
    busy: bool,
    frame: &mut Frame,
    area: Rect,
    look: &Look,
) {
    let theme = look.theme;
    let (text, style) = match notice {
        Some(notice) => (notice.text.clone(), notice.style(theme)),
        None if busy => ("Sending…".to_string(), theme.style("muted")),
        None => return,
    };
    let line = crate::ui::notice::span(&text, area.width, style, look);
    frame.render_widget(Paragraph::new(line), area);
}

/// A table: its header, then its rows sized by their content, the selected one highlighted,
/// scrolled to keep it in view.
pub fn draw_rows(
    columns: &[Column],
    rows: Vec<Vec<String>>,
    selected: &crate::ui::list::Selection,
    frame: &mut Frame,
    [header, area]: [Rect; 2],
    theme: &Theme,
) {
    let sizing = table::size(columns, &rows, area.width);
    frame.render_widget(
        Paragraph::new(sizing.header_line(columns, theme.style("table_header"))),
        header,
    );
    let range = selected.visible_range(rows.len(), area.height as usize);
    let lines: Vec<Line> = rows[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, cells)| {
            let style = selected.style(range.start + offset, theme);
            sizing.line(cells, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// The status stays whole; the translated space takes the room the result leaves.
const COLUMNS: [Column; 3] = [
    Column::whole("Status", 1),
    Column::cut("Space (from → to)", 16, 0).flex(),
    Column::cut("Result space", 10, 2),
];

fn status_label(status: &TranslationStatus) -> String {
    match status {
        TranslationStatus::Pending => "○ pending".to_string(),
        TranslationStatus::Running => "◐ running".to_string(),
        TranslationStatus::Completed => "● completed".to_string(),
        TranslationStatus::Other(other) if other.is_empty() => "?".to_string(),
        TranslationStatus::Other(other) => other.clone(),
    }
}

/// Milliseconds as "1 min 5 s", "850 ms".
pub fn duration(milliseconds: u64) -> String {
    let seconds = milliseconds / 1000;
    match seconds {
        0 => format!("{milliseconds} ms"),
        1..=59 => format!("{seconds} s"),
        60..=3599 => format!("{} min {} s", seconds / 60, seconds % 60),
        _ => format!("{} h {} min", seconds / 3600, seconds % 3600 / 60),
    }
}

pub fn draw(tab: &TranslationsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let (list_area, details_area, notice_area) =
        split(area, tab.notice.is_some() || tab.is_sending());
    if let Some(row) = notice_area {
        draw_notice(tab.notice.as_ref(), tab.is_sending(), frame, row, look);
    }
    if tab.list.value().is_none() {
        match tab.list.error() {
            Some(error) => status::error(frame, list_area, look, error),
            None => status::loading(frame, list_area, look, "translations"),
        }
    } else if tab.translations().is_empty() {
        status::empty(
            frame,
            list_area,
            look,
            "No translations yet. n translates a space into another language.",
        );
    } else {
        draw_list(tab, frame, list_area, theme);
        if let Some(translation) = tab.selected() {
            draw_details(tab, translation, frame, details_area, theme, look.now());
        }
    }
    draw_modal(tab, frame, area, theme);
}

fn draw_list(tab: &TranslationsTab, frame: &mut Frame, area: Rect, theme: &Theme) {
    let [header, rows_area, note] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(u16::from(tab.list.value().is_some_and(|list| {
            list.unreadable > 0 || list.stopped_after_pages.is_some()
        }))),
    ])
    .areas(area);
    let rows = tab
        .translations()
        .iter()
        .map(|translation| {
            let source = translation
                .source
                .space
                .as_deref()
                .map_or_else(|| "?".to_string(), |space| tab.space_name(space));
            let source_language = translation.source.language.clone().unwrap_or_default();
            let result = translation
                .result
                .as_ref()
                .and_then(|result| result.space.as_deref())
                .map_or_else(|| "—".to_string(), |space| tab.space_name(space));
            vec![
                status_label(&translation.status),
                format!(
                    "{} ({} → {})",
                    sanitize(&source),
                    sanitize(&source_language),
                    sanitize(&translation.language)
                ),
                sanitize(&result).into_owned(),
            ]
        })
        .collect();
    draw_rows(
        &COLUMNS,
        rows,
        &tab.selection,
        frame,
        [header, rows_area],
        theme,
    );
    if let Some(list) = tab.list.value() {
        let unread = (list.unreadable > 0)
            .then(|| format!("{} translations could not be read", list.unreadable));
        let stopped = list
            .stopped_after_pages
            .map(crate::ui::status::stopped_after);
        let words: Vec<String> = unread.into_iter().chain(stopped).collect();
        frame.render_widget(
            Paragraph::new(Span::styled(words.join(" · "), theme.style("warning"))),
            note,
        );
    }
}

fn draw_details(
    tab: &TranslationsTab,
    translation: &Translation,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) {
    let block = details_block(area, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let source = translation
        .source
        .space
        .as_deref()
        .map_or_else(|| "—".to_string(), |space| tab.space_name(space));
    let source_language = translation
        .source
        .language
        .as_deref()
        .map_or("—", language_name);
    let result = translation
        .result
        .as_ref()
        .and_then(|result| result.space.as_deref())
        .map_or_else(
            || "none yet (made by the first run)".to_string(),
            |space| tab.space_name(space),
        );
    let stats = &translation.stats;
    let updated = translation
        .updated_at
        .as_deref()
        .map_or_else(|| "—".to_string(), |at| time::ago_or_raw(at, now));
    let mut lines = vec![
        Line::from(Span::styled(
            sanitize(&tab.describe(translation)).into_owned(),
            theme.style("title"),
        )),
        field("Status", &status_label(&translation.status), theme),
        field("Source", &format!("{source} ({source_language})"), theme),
        field("Into", language_name(&translation.language), theme),
        field("Result", &result, theme),
        field("Updated", &updated, theme),
        Line::from(""),
        field("Runs", &stats.runs.to_string(), theme),
        field(
            "Words",
            &format!("{} (last run {})", stats.total_words, stats.latest_words),
            theme,
        ),
        field(
            "Pages",
            &format!("{} (last run {})", stats.total_pages, stats.latest_pages),
            theme,
        ),
        field(
            "Duration",
            &format!(
                "{} (last run {})",
                duration(stats.total_duration),
                duration(stats.latest_run_duration)
            ),
            theme,
        ),
        Line::from(""),
        Line::from(Span::styled("Instructions", theme.style("muted"))),
    ];
    let instructions = translation
        .instructions
        .as_ref()
        .map(crate::ui::document::display_markdown)
        .unwrap_or_default();
    if instructions.trim().is_empty() {
        lines.push(Line::from(Span::styled(
            "none (e writes some)",
            theme.style("muted"),
        )));
    } else {
        // Drawn as markdown, as the reader would: the escapes that keep `[docs]` or `a*b*c`
        // literal in markdown are not shown.
        let doc = crate::ui::markdown::MarkdownDoc::parse(&instructions, theme);
        lines.extend(doc.layout(inner.width).lines);
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn draw_modal(tab: &TranslationsTab, frame: &mut Canvas, area: Rect, theme: &Theme) {
    match &tab.modal {
        Some(Modal::Language(picker))
        | Some(Modal::SourceSpace(picker))
        | Some(Modal::SourceLanguage(picker)) => {
            crate::ui::picker::draw(picker, frame, area, theme)
        }
        Some(Modal::Composer { composer, .. }) => {
            let rows = Composer::rows_in(area.height);
            let composer_area = Rect::new(area.x, area.y + area.height - rows, area.width, rows);
            frame.render_widget(Clear, composer_area);
            composer.draw(frame, composer_area, theme);
        }
        Some(Modal::ConfirmDelete(confirm, _)) => confirm.draw(frame, area, theme),
        None => {}
    }
}
