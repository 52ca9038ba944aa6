use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{Modal, TranslationsTab};
use crate::api::language_name;
use crate::api::models::TranslationStatus;
use crate::screens::list_pane::{self, details_block, field};
use crate::screens::look::Look;
use crate::ui::composer::Composer;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::status;
use crate::ui::table::Column;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::time;

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
    let empty = tab
        .translations()
        .is_empty()
        .then(|| "No translations yet. n translates a space into another language.".to_string());
    list_pane::draw_with_details(
        frame,
        area,
        look,
        (&tab.list, "translations", empty),
        (tab.notice.as_ref(), tab.is_sending()),
        |frame, [list_area, details_area]| {
            draw_list(tab, frame, list_area, look);
            draw_details(tab, frame, details_area, look);
        },
    );
    draw_modal(tab, frame, area, theme);
}

fn draw_list(tab: &TranslationsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let rows: Vec<Vec<String>> = tab
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
    let mut table = Table::new(&COLUMNS, &rows, &tab.selection);
    if let Some(list) = tab.list.value() {
        let unread = (list.unreadable > 0)
            .then(|| format!("{} translations could not be read", list.unreadable));
        let stopped = list.stopped_after_pages.map(status::stopped_after);
        let words: Vec<String> = unread.into_iter().chain(stopped).collect();
        if !words.is_empty() {
            let style = look.theme.style("warning");
            table = table.footer(Line::from(Span::styled(words.join(" · "), style)));
        }
    }
    list_pane::draw_table(frame, area, look, table, tab.selection.selected);
}

/// The selected translation's details.
fn draw_details(tab: &TranslationsTab, frame: &mut Frame, area: Rect, look: &Look) {
    let Some(translation) = tab.selected() else {
        return;
    };
    let (theme, now) = (look.theme, look.now());
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
    let mut lines = vec![Line::from(Span::styled(
        sanitize(&tab.describe(translation)).into_owned(),
        theme.style("title"),
    ))];
    let width = inner.width as usize;
    let words = format!("{} (last run {})", stats.total_words, stats.latest_words);
    let pages = format!("{} (last run {})", stats.total_pages, stats.latest_pages);
    let took = format!(
        "{} (last run {})",
        duration(stats.total_duration),
        duration(stats.latest_run_duration)
    );
    let fields = [
        Some(("Status", status_label(&translation.status))),
        Some(("Source", format!("{source} ({source_language})"))),
        Some(("Into", language_name(&translation.language).to_string())),
        Some(("Result", result)),
        Some(("Updated", updated)),
        None,
        Some(("Runs", stats.runs.to_string())),
        Some(("Words", words)),
        Some(("Pages", pages)),
        Some(("Duration", took)),
    ];
    for field in fields {
        match field {
            Some((label, value)) => lines.extend(fitted_field(label, &value, width, theme)),
            None => lines.push(Line::from("")),
        }
    }
    lines.extend([
        Line::from(""),
        Line::from(Span::styled("Instructions", theme.style("muted"))),
    ]);
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

/// A label and its value on one line where they fit; else the label above and the value
/// below it, cut with `…` if it is still too wide: a value is never broken in its middle.
fn fitted_field(label: &str, value: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let value = sanitize(value).into_owned();
    if LABEL_WIDTH + text::width(&value) <= width {
        return vec![field(label, &value, theme)];
    }
    vec![
        Line::from(Span::styled(label.to_string(), theme.style("muted"))),
        Line::from(Span::styled(
            format!("  {}", text::truncate(&value, width.saturating_sub(2))),
            theme.style("text"),
        )),
    ]
}

/// The room [`field`] gives a label, its value starting after it.
const LABEL_WIDTH: usize = 13;

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
