use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::{FilesScreen, human_size};
use crate::api::models::File;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::theme::Theme;

pub(super) fn draw(screen: &FilesScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let empty = || {
        screen
            .files
            .items
            .is_empty()
            .then(|| "No files.".to_string())
    };
    if list_pane::draw_unlisted(frame, area, look, (&screen.files, "files"), empty) {
        return;
    }
    let files = &screen.files.items;
    let rows: Vec<[String; 4]> = files
        .iter()
        .map(|file| {
            [
                file.name.clone(),
                file.content_type.clone().unwrap_or_default(),
                file.size.map(human_size).unwrap_or_default(),
                dimensions(file),
            ]
        })
        .collect();
    let table = Table::new(&COLUMNS, &rows, &screen.selection).unreadable(&screen.files.unreadable);
    list_pane::draw_table(frame, area, look, table, screen.selection.selected);
    if let Some(details) = &screen.details {
        draw_details(frame, area, details.value(), theme);
    }
}

/// "2400×1350", or nothing for a file that is not an image.
fn dimensions(file: &File) -> String {
    file.dimensions
        .map(|size| format!("{}×{}", size.width.max(0.0), size.height.max(0.0)))
        .unwrap_or_default()
}

/// Name, type, size and dimensions: the name takes the room, the size stays longest.
const COLUMNS: [Column; 4] = [
    Column::cut("Name", 20, 0).flex(),
    Column::cut("Type", 10, 2),
    Column::whole("Size", 1),
    Column::whole("Dimensions", 3),
];

fn draw_details(frame: &mut Canvas, area: Rect, file: Option<&File>, theme: &Theme) {
    let Some(file) = file else { return };
    let width = area.width.saturating_sub(4).min(76);
    let height = 9.min(area.height);
    let popup = Rect::new(
        area.x + (area.width.saturating_sub(width)) / 2,
        area.y + (area.height.saturating_sub(height)) / 2,
        width,
        height,
    );
    let field = |label: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{label:<11}"), theme.style("muted")),
            Span::styled(sanitize(&value).into_owned(), theme.style("text")),
        ])
    };
    let size = file
        .size
        .map(|bytes| format!("{} ({bytes} bytes)", human_size(bytes)))
        .unwrap_or_default();
    let lines = vec![
        field("Name", file.name.clone()),
        field("Type", file.content_type.clone().unwrap_or_default()),
        field("Size", size),
        field("Dimensions", dimensions(file)),
        field("Address", file.download_url.clone().unwrap_or_default()),
        field(
            "Git path",
            file.git
                .as_ref()
                .and_then(|git| git.path.clone())
                .unwrap_or_default(),
        ),
        Line::from(Span::styled(
            "y copies the address · o opens it · b what links here",
            theme.style("muted"),
        )),
    ];
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(" File ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}
