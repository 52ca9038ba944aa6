//! Drawing the Settings tab: the form, the agent instructions rendered, and the popup above.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::form::{Field, rules_summary};
use super::{SettingsModal, SettingsTab};
use crate::screens::look::Look;
use crate::ui::form::{FormLines, FormStyle, Marks, Messages, Row, ShowChecks, ValueFit};
use crate::ui::hit::Canvas;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::theme::Theme;

/// Labels 15 wide, the selected field marked `›`, a field's message on a line under it.
const LOOK: FormStyle = FormStyle {
    marks: Marks::Cursor,
    label_width: 15,
    value: ValueFit::Cut { margin: 0 },
    messages: Messages::Below { indent: 17 },
    checks: ShowChecks::CountedOrTyping,
    server_prefix: Some(""),
    scroll: false,
};

pub(super) fn draw(tab: &SettingsTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let form_rows = form_lines(tab, area.width, theme).lines.len() as u16;
    let [notice_area, form_area, instructions_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(form_rows.min(area.height.saturating_sub(1))),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_notice(tab, frame, notice_area, look);
    crate::ui::form::draw(
        &tab.form.form,
        frame,
        form_area,
        theme,
        &LOOK,
        |field, row| shown_value(tab, field, row, theme),
    );
    draw_instructions(tab, frame, instructions_area, theme, look.now());
    draw_modal(tab, frame, area, theme);
}

fn draw_notice(tab: &SettingsTab, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let line = match &tab.notice {
        Some(notice) => crate::ui::notice::row(notice, area.width, look),
        None if !tab.is_admin() => Line::from(Span::styled(
            "Read only: only organization admins change these settings.",
            theme.style("muted"),
        )),
        None => Line::from(""),
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn on_off(value: bool) -> String {
    if value { "on" } else { "off" }.to_string()
}

/// A field's value as shown, and its style.
fn shown_value(tab: &SettingsTab, field: Field, row: Row, theme: &Theme) -> (String, Style) {
    let values = &tab.form.values;
    let style = if row.selected {
        theme.style("selection")
    } else {
        theme.style("text")
    };
    let value = match field {
        Field::DefaultRole => crate::screens::sso::role_name(values.default_role.as_ref()),
        Field::DefaultContent => values
            .default_content
            .as_deref()
            .map_or_else(|| "none".to_string(), |id| tab.site_title(id)),
        Field::Sso => on_off(values.sso),
        Field::Ai => on_off(values.ai),
        Field::InviteLinks => on_off(values.invite_links),
        Field::MergeRules => rules_summary(&values.merge_rules),
        Field::EmailDomains if tab.form.editing.is_none() && values.email_domains.is_empty() => {
            "none (nobody joins by email domain)".to_string()
        }
        _ => tab.form.text_of(field).to_string(),
    };
    (value, style)
}

/// The form's lines, and where the cursor stands while typing.
fn form_lines(tab: &SettingsTab, width: u16, theme: &Theme) -> FormLines {
    tab.form.lines(&LOOK, width, theme, |field, row| {
        shown_value(tab, field, row, theme)
    })
}

fn draw_instructions(
    tab: &SettingsTab,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) {
    if area.height == 0 {
        return;
    }
    let mut lines = vec![Line::from("")];
    let mut heading = vec![Span::styled("Agent instructions", theme.style("heading2"))];
    if let Some(instructions) = tab.instructions.value()
        && let Some(at) = instructions.updated_at.as_deref()
    {
        heading.push(Span::styled(
            format!("  updated {}", crate::ui::time::relative(at, now)),
            theme.style("muted"),
        ));
    }
    if tab.draft.is_some() {
        heading.push(Span::styled(
            "  · unsaved draft (D opens it)",
            theme.style("warning"),
        ));
    }
    lines.push(Line::from(heading));
    match (tab.instructions_markdown(), tab.instructions.error()) {
        (Some(markdown), _) if markdown.trim().is_empty() => lines.push(Line::from(Span::styled(
            "None yet: D writes them.",
            theme.style("muted"),
        ))),
        (Some(markdown), _) => {
            let doc = MarkdownDoc::parse(&markdown, theme);
            let rows = (area.height as usize).saturating_sub(lines.len());
            let rendered = doc.layout(area.width).lines;
            let cut = rendered.len() > rows;
            lines.extend(
                rendered
                    .into_iter()
                    .take(rows.saturating_sub(usize::from(cut))),
            );
            if cut {
                lines.push(Line::from(Span::styled(
                    "… D opens them all",
                    theme.style("muted"),
                )));
            }
        }
        (None, Some(error)) => lines.push(Line::from(Span::styled(
            crate::ui::status::reload_failed_text(error),
            theme.style("error"),
        ))),
        (None, None) => lines.push(Line::from(Span::styled("Loading…", theme.style("muted")))),
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_modal(tab: &SettingsTab, frame: &mut Canvas, area: Rect, theme: &Theme) {
    match &tab.modal {
        Some(
            SettingsModal::Role(picker)
            | SettingsModal::Site(picker)
            | SettingsModal::MergeRules(picker),
        ) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(SettingsModal::Instructions { composer, .. }) => composer.draw(frame, area, theme),
        Some(SettingsModal::RevokePrompt(prompt)) => {
            crate::ui::prompt::draw(prompt, frame, area, theme)
        }
        Some(
            SettingsModal::ConfirmRevoke { confirm, .. }
            | SettingsModal::ConfirmLeave(confirm)
            | SettingsModal::ConfirmPublicDomains(confirm),
        ) => confirm.draw(frame, area, theme),
        None => {}
    }
}
