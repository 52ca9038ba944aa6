use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{Field, GitForm, GitScreen};
use crate::api::{GitDirection, mask_credentials};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::input::LineInput;
use crate::ui::layout::centered;
use crate::ui::picker::popup_block;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

pub fn draw(screen: &GitScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [body, notice_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    draw_details(screen, frame, body, look);
    draw_notice(screen, frame, notice_area, look);
    if let Some(form) = &screen.form {
        draw_form(form, frame, area, theme);
    }
    if let Some((confirm, _)) = &screen.confirm {
        confirm.draw(frame, area, theme);
    }
}

fn draw_details(screen: &GitScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(details) = screen.details.value() else {
        match screen.details.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "git sync"),
        }
        return;
    };
    let emoji = text::emoji(screen.space.emoji.as_deref()).unwrap_or_else(|| "📄".into());
    let mut lines = vec![
        Line::from(Span::styled(
            format!("{emoji} {} — git sync", sanitize(&screen.space.title)),
            theme.style("title"),
        )),
        Line::from(""),
    ];
    let Some(info) = &details.info else {
        lines.push(Line::from(Span::styled(
            "No git provider set up on this space.",
            theme.style("text"),
        )));
        lines.push(Line::from(Span::styled(
            "i imports a branch of a repository into it; e exports it to one.",
            theme.style("muted"),
        )));
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        return;
    };
    let field = |label: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{label:<13}"), theme.style("muted")),
            Span::styled(sanitize(&value).into_owned(), theme.style("text")),
        ])
    };
    let unknown = || "—".to_string();
    lines.push(field(
        "Repository",
        info.repo_name.clone().unwrap_or_else(unknown),
    ));
    let mut provider = info.installation_provider.clone().unwrap_or_else(unknown);
    if provider == "github-legacy" {
        provider.push_str(" (legacy installation: d removes it)");
    }
    lines.push(field("Provider", provider));
    if let Some(status) = &info.installation_status {
        lines.push(field("Installation", status.clone()));
    }
    lines.push(field("Branch", screen.branch().unwrap_or_else(unknown)));
    lines.push(field(
        "Last sync",
        info.updated_at.as_deref().map_or_else(unknown, last_sync),
    ));
    if let Some(operation) = &info.operation {
        let direction = operation.direction.clone().unwrap_or_else(unknown);
        let state = operation.state.clone().unwrap_or_else(unknown);
        let mut value = format!("{direction}, {state}");
        if let Some(error) = &operation.error {
            value.push_str(&format!(": {error}"));
        }
        lines.push(field("Last run", value));
    }
    if let Some(url) = &info.url {
        lines.push(field("Address", mask_credentials(url)));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
    if let Some(error) = screen.details.error() {
        let _ = status::reload_failed(frame, area, look, error);
    }
}

/// "2024-05-02 14:03" from an ISO timestamp.
fn last_sync(timestamp: &str) -> String {
    let clean = sanitize(timestamp);
    match (clean.get(..10), clean.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time}"),
        _ => clean.into_owned(),
    }
}

fn draw_notice(screen: &GitScreen, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let line = match &screen.notice {
        Some(notice) => {
            crate::ui::notice::span(&notice.text, area.width, notice.style(theme), look)
        }
        None if screen.is_sending() => Span::styled("Sending…", theme.style("muted")),
        None => Span::raw(""),
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// What a field shows: the address masked, switches as [x] / [ ].
fn shown_value(form: &GitForm, field: Field) -> String {
    let switch = |on: bool| if on { "[x]" } else { "[ ]" }.to_string();
    match field {
        Field::Url => mask_credentials(&form.url.text),
        Field::Branch => form.branch.text.clone(),
        Field::Directory => form.directory.text.clone(),
        Field::Message => form.message.text.clone(),
        Field::Force => switch(form.force),
        Field::Standalone => switch(form.standalone),
        Field::TreeUrl => form.tree_url.text.clone(),
        Field::CommitUrl => form.commit_url.text.clone(),
        Field::Host => form.host.unwrap_or("not said").to_string(),
    }
}

fn field_help(field: Field) -> &'static str {
    match field {
        Field::Url => "https://host/owner/repo; user:password@ is sent, never shown",
        Field::Branch => "the branch name; quire sends refs/heads/<branch>",
        Field::Directory => "where in the repository the content lives; empty for its root",
        Field::Message => "the commit's message",
        Field::Force => "space: overwrite even when the other side changed",
        Field::Standalone => "space: make a revision without changing the content",
        Field::TreeUrl => "prefix of links to its files: https://github.com/o/r/blob/main",
        Field::CommitUrl => "prefix of links to its commits: https://github.com/o/r/commit",
        Field::Host => "space: github, gitlab or not said (sent with the address)",
    }
}

/// The input of a text field, `None` for a switch.
fn input_of(form: &GitForm, field: Field) -> Option<&LineInput> {
    match field {
        Field::Url => Some(&form.url),
        Field::Branch => Some(&form.branch),
        Field::Directory => Some(&form.directory),
        Field::Message => Some(&form.message),
        Field::TreeUrl => Some(&form.tree_url),
        Field::CommitUrl => Some(&form.commit_url),
        Field::Force | Field::Standalone | Field::Host => None,
    }
}

/// The first field shown when only `rows` fit: the focused one stays in view.
fn first_shown(focus: usize, count: usize, rows: usize) -> usize {
    if rows == 0 || count <= rows {
        return 0;
    }
    focus.saturating_sub(rows - 1).min(count - rows)
}

fn draw_form(form: &GitForm, frame: &mut Canvas, area: Rect, theme: &Theme) {
    if area.width < 10 || area.height < 5 {
        return;
    }
    let fields = form.fields();
    let height = fields.len() as u16 + 5;
    frame.hits.modal();
    let popup = centered(area, 70, height);
    frame.render_widget(Clear, popup);
    let title = match form.direction {
        GitDirection::Import => "Import from git",
        GitDirection::Export => "Export to git",
    };
    let block = popup_block(title, theme);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    // Below the fields: a blank line, the status and the keys; a short terminal scrolls the
    // fields, keeping the focused one in view.
    let label_width = 16usize;
    let value_width = (inner.width as usize).saturating_sub(label_width);
    let rows = (inner.height as usize).saturating_sub(3).max(1);
    let first = first_shown(form.focus, fields.len(), rows);
    let mut lines = Vec::new();
    for (index, field) in fields.iter().enumerate().skip(first).take(rows) {
        let focused = index == form.focus;
        let style = if focused {
            theme.style("selection")
        } else {
            theme.style("text")
        };
        let value = sanitize(&shown_value(form, *field)).into_owned();
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:<label_width$}", field.label()),
                theme.style("muted"),
            ),
            Span::styled(text::truncate(&value, value_width), style),
        ]));
    }
    lines.push(Line::from(""));
    let status = match form.problem() {
        Some(problem) => Span::styled(format!("✗ {problem}"), theme.style("warning")),
        None => Span::styled(field_help(form.focused()), theme.style("muted")),
    };
    lines.push(Line::from(status));
    lines.push(Line::from(Span::styled(
        "tab next field · enter confirm · esc cancel",
        theme.style("muted"),
    )));
    frame.render_widget(Paragraph::new(lines), inner);
    let cursor_field = form.focused();
    if let Some(input) = input_of(form, cursor_field) {
        let before: String = input.text.chars().take(input.cursor_column()).collect();
        let shown = if cursor_field == Field::Url {
            mask_credentials(&before)
        } else {
            before
        };
        let x = inner.x as usize + label_width + text::width(&shown);
        let y = inner.y + form.focus.saturating_sub(first) as u16;
        if x < inner.right() as usize && y < inner.bottom() {
            frame.set_cursor_position(Position::new(x as u16, y));
        }
    }
}
