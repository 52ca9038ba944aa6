use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::tab::{Modal, OpenApiTab};
use super::{ContentScreen, VersionsScreen, content};
use crate::api::models::{OpenApiSpec, ProcessingState};
use crate::screens::list_pane::{self, details_block, field, long_field};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::{status, text, time};

fn state_label(state: &ProcessingState) -> String {
    match state {
        ProcessingState::Pending => "○ pending".to_string(),
        ProcessingState::Progress => "◐ progress".to_string(),
        ProcessingState::Complete => "● complete".to_string(),
        ProcessingState::Other(other) if other.is_empty() => "?".to_string(),
        ProcessingState::Other(other) => other.clone(),
    }
}

fn visibility_label(spec: &OpenApiSpec) -> &'static str {
    match &spec.visibility {
        Some(_) if spec.is_public() => "public",
        Some(_) => "private",
        None => "—",
    }
}

/// The error count for the list: "—" or "⚠ 2".
fn errors_cell(spec: &OpenApiSpec) -> String {
    match spec.error_count() {
        0 => "—".to_string(),
        count => format!("⚠ {count}"),
    }
}

fn errors_label(spec: &OpenApiSpec) -> String {
    match spec.error_count() {
        1 => "1 error".to_string(),
        count => format!("{count} errors"),
    }
}

pub fn draw_tab(tab: &OpenApiTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let empty = tab.list().is_empty().then(|| {
        "No OpenAPI specs yet. n adds one from the address of its JSON or YAML.".to_string()
    });
    list_pane::draw_with_details(
        frame,
        area,
        look,
        (&tab.specs, "OpenAPI specs", empty),
        (tab.notice.as_ref(), tab.is_sending()),
        |frame, [list_area, details_area]| {
            draw_specs(tab, frame, list_area, look);
            if let Some(spec) = tab.selected() {
                draw_spec_details(spec, frame, details_area, theme, look.now());
            }
        },
    );
    match &tab.modal {
        Some(Modal::Prompt(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
        Some(Modal::Confirm(confirm, _)) => confirm.draw(frame, area, theme),
        None => {}
    }
}

/// The slug takes the room; narrow terminals keep its state and errors.
const SPEC_COLUMNS: [Column; 5] = [
    Column::cut("Slug", 8, 0).flex(),
    Column::whole("Access", 3),
    Column::whole("State", 1),
    Column::whole("Processed", 4),
    Column::whole("Errors", 2),
];

/// A spec's versions: the id takes the room, the age stays whole.
const VERSION_COLUMNS: [Column; 3] = [
    Column::cut("Version", 8, 0).flex(),
    Column::whole("", 2),
    Column::whole("Created", 1),
];

fn draw_specs(tab: &OpenApiTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let (theme, now) = (look.theme, look.now());
    let stopped = tab
        .specs
        .value()
        .and_then(|listed| listed.stopped_after_pages());
    let [note, table_area] = Layout::vertical([
        Constraint::Length(u16::from(stopped.is_some())),
        Constraint::Min(0),
    ])
    .areas(area);
    if let Some(pages) = stopped {
        frame.render_widget(
            Paragraph::new(Span::styled(
                status::stopped_after(pages),
                theme.style("warning"),
            )),
            note,
        );
    }
    let rows: Vec<Vec<String>> = tab
        .list()
        .iter()
        .map(|spec| {
            vec![
                sanitize(&spec.slug).into_owned(),
                visibility_label(spec).to_string(),
                state_label(&spec.processing_state),
                spec.last_processed_at
                    .as_deref()
                    .map_or_else(|| "never".to_string(), |at| time::ago_or_raw(at, now)),
                errors_cell(spec),
            ]
        })
        .collect();
    let table = Table::new(&SPEC_COLUMNS, &rows, &tab.selection);
    list_pane::draw_table(frame, table_area, look, table, tab.selection.selected);
}

fn draw_spec_details(
    spec: &OpenApiSpec,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) {
    let block = details_block(area, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let processed = spec.last_processed_at.as_deref().map_or_else(
        || "never".to_string(),
        |at| {
            let absolute = time::absolute(at).unwrap_or_default();
            format!("{} ({absolute})", time::ago_or_raw(at, now))
        },
    );
    let dash = || "—".to_string();
    let mut lines = vec![
        Line::from(Span::styled(
            sanitize(&spec.slug).into_owned(),
            theme.style("title"),
        )),
        field("Access", visibility_label(spec), theme),
        field("State", &state_label(&spec.processing_state), theme),
        field("Processed", &processed, theme),
        field(
            "Latest",
            &spec.last_version.clone().unwrap_or_else(dash),
            theme,
        ),
    ];
    let width = inner.width;
    let source = spec.source_url.clone().unwrap_or_else(dash);
    lines.extend(long_field("Source", &source, width, theme));
    if let Some(published) = &spec.urls.published {
        lines.extend(long_field("Published", published, width, theme));
    }
    lines.push(Line::from(""));
    let count = spec.error_count();
    if count == 0 {
        lines.push(Line::from(Span::styled(
            "No processing errors.",
            theme.style("muted"),
        )));
    } else {
        let code = spec
            .last_process_error_code
            .as_deref()
            .map(|code| format!(" ({})", sanitize(code)))
            .unwrap_or_default();
        lines.push(Line::from(Span::styled(
            format!("{}{code}", errors_label(spec)),
            theme.style("error"),
        )));
        for error in &spec.last_processed_errors {
            let wrapped = text::wrap(&error.message, width.saturating_sub(2) as usize);
            for (index, line) in wrapped.into_iter().enumerate() {
                let bullet = if index == 0 { "• " } else { "  " };
                lines.push(Line::from(Span::styled(
                    format!("{bullet}{line}"),
                    theme.style("text"),
                )));
            }
        }
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

pub fn draw_versions(screen: &VersionsScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let empty = || {
        let sentence = "No versions yet: the spec has not been processed successfully.";
        screen.list().is_empty().then(|| sentence.to_string())
    };
    if list_pane::draw_unlisted(frame, area, look, (&screen.versions, "versions"), empty) {
        return;
    }
    let [title, table_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(Span::styled(
            text::truncate(
                &format!(
                    "{} — {} versions, newest first{}",
                    sanitize(&screen.spec.slug),
                    screen.list().len(),
                    screen
                        .versions
                        .value()
                        .and_then(|listed| listed.stopped_after_pages())
                        .map(|pages| format!(" — {}", status::stopped_after(pages)))
                        .unwrap_or_default()
                ),
                area.width as usize,
            ),
            theme.style("title"),
        )),
        title,
    );
    let now = look.now();
    let rows: Vec<Vec<String>> = screen
        .list()
        .iter()
        .enumerate()
        .map(|(index, version)| {
            vec![
                sanitize(&version.id).into_owned(),
                if screen.is_latest(index) {
                    "★ latest"
                } else {
                    ""
                }
                .to_string(),
                version
                    .created_at
                    .as_deref()
                    .map_or_else(String::new, |at| time::ago_or_raw(at, now)),
            ]
        })
        .collect();
    let table = Table::new(&VERSION_COLUMNS, &rows, &screen.selection);
    list_pane::draw_table(frame, table_area, look, table, screen.selection.selected);
}

pub fn draw_content(screen: &ContentScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    if screen.content.value().is_none() {
        match screen.content.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "the version's files"),
        }
        return;
    }
    if screen.files.is_empty() {
        status::empty(frame, area, look, "This version holds no files.");
        return;
    }
    let (tree_width, _) = content::view_split(area.width);
    let side_by_side = area.width >= 60;
    if side_by_side {
        let [tree_area, _gap, text_area] = Layout::horizontal([
            Constraint::Length(tree_width),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(area);
        draw_file_tree(screen, frame, tree_area, theme);
        draw_file(screen, frame, text_area, look);
    } else if screen.reading {
        draw_file(screen, frame, area, look);
    } else {
        draw_file_tree(screen, frame, area, theme);
    }
}

fn draw_file_tree(screen: &ContentScreen, frame: &mut Frame, area: Rect, theme: &Theme) {
    let rows = screen.rows.rows();
    let range = screen
        .selection
        .visible_range(rows.len(), area.height as usize);
    let lines: Vec<Line> = rows[range.clone()]
        .iter()
        .enumerate()
        .filter_map(|(offset, row)| {
            let node = screen.tree.item(row.node)?;
            let marker = match (node.file, row.expanded) {
                (Some(_), _) => "  ",
                (None, true) => "▾ ",
                (None, false) => "▸ ",
            };
            let icon = if node.file.is_some() { "" } else { "📁 " };
            let label = format!(
                "{}{marker}{icon}{}",
                "  ".repeat(row.depth),
                sanitize(&node.name)
            );
            let selected = range.start + offset == screen.selection.selected;
            let style = match (selected, screen.reading) {
                (true, false) => theme.style("selection"),
                (true, true) => theme.style("title"),
                _ => theme.style("text"),
            };
            Some(Line::from(Span::styled(
                text::fit(&label, area.width as usize),
                style,
            )))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_file(screen: &ContentScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(file) = screen.shown.and_then(|index| screen.files.get(index)) else {
        status::empty(frame, area, look, "enter opens a file.");
        return;
    };
    let [title, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let style = if screen.reading {
        theme.style("title")
    } else {
        theme.style("muted")
    };
    frame.render_widget(
        Paragraph::new(Span::styled(
            text::truncate(&sanitize(&file.path), area.width as usize),
            style,
        )),
        title,
    );
    if screen.reader.is_ready() {
        screen.reader.draw(frame, body, theme);
    } else {
        status::loading(frame, body, look, "the file");
    }
}
