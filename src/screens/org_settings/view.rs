//! Drawing the Settings tab: the form, the agent instructions rendered, and the popup above.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::form::{Field, rules_summary};
use super::{SettingsModal, SettingsTab};
use crate::app::Model;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize;
use crate::ui::text;
use crate::ui::theme::Theme;

const LABEL: usize = 15;

pub fn draw(tab: &SettingsTab, frame: &mut Frame, area: Rect, model: &Model) {
    let theme = &model.theme;
    let form_rows = form_lines(tab, area.width, theme).0.len() as u16;
    let [notice_area, form_area, instructions_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(form_rows.min(area.height.saturating_sub(1))),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_notice(tab, frame, notice_area, theme);
    let (lines, cursor) = form_lines(tab, form_area.width, theme);
    frame.render_widget(Paragraph::new(lines), form_area);
    if let Some((column, row)) = cursor {
        let x = form_area.x + (LABEL + 2) as u16 + column as u16;
        let y = form_area.y + row as u16;
        if x < form_area.right() && y < form_area.bottom() {
            frame.set_cursor_position(Position::new(x, y));
        }
    }
    draw_instructions(tab, frame, instructions_area, theme);
    draw_modal(tab, frame, area, theme);
}

fn draw_notice(tab: &SettingsTab, frame: &mut Frame, area: Rect, theme: &Theme) {
    let line = match &tab.notice {
        Some(notice) => Line::from(Span::styled(
            sanitize(&notice.text).into_owned(),
            notice.style(theme),
        )),
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

fn shown_value(tab: &SettingsTab, field: Field) -> String {
    let values = &tab.form.values;
    match field {
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
    }
}

/// The form's lines, and where the cursor stands (column in the value, row) while typing.
fn form_lines<'a>(
    tab: &SettingsTab,
    width: u16,
    theme: &Theme,
) -> (Vec<Line<'a>>, Option<(usize, usize)>) {
    let form = &tab.form;
    let value_width = (width as usize).saturating_sub(LABEL + 2).max(1);
    let mut lines = Vec::new();
    let mut cursor = None;
    for (index, field) in Field::ALL.into_iter().enumerate() {
        let selected = index == form.selection.selected;
        let editing = selected && form.editing.is_some();
        let value = shown_value(tab, field);
        let shown = if editing {
            let skip = text::width(&value).saturating_sub(value_width.saturating_sub(1));
            value.chars().skip(skip).collect::<String>()
        } else {
            text::truncate(&value, value_width)
        };
        if editing {
            cursor = Some((text::width(&shown), lines.len()));
        }
        let marker = if selected { "› " } else { "  " };
        let changed = if form.is_changed(field) { "*" } else { "" };
        let style = if selected {
            theme.style("selection")
        } else {
            theme.style("text")
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{marker}{:<LABEL$}", format!("{}{changed}", field.label())),
                theme.style("muted"),
            ),
            Span::styled(sanitize(&shown).into_owned(), style),
        ]));
        let error = form
            .error(field)
            .filter(|_| form.is_changed(field) || editing)
            .or_else(|| {
                form.server_error
                    .as_ref()
                    .filter(|(about, _)| *about == Some(field))
                    .map(|(_, message)| message.clone())
            });
        if let Some(error) = error {
            lines.push(Line::from(Span::styled(
                format!("{:w$}✗ {}", "", sanitize(&error), w = LABEL + 2),
                theme.style("error"),
            )));
        }
    }
    (lines, cursor)
}

fn draw_instructions(tab: &SettingsTab, frame: &mut Frame, area: Rect, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let mut lines = vec![Line::from("")];
    let mut heading = vec![Span::styled("Agent instructions", theme.style("heading2"))];
    if let Some(instructions) = tab.instructions.value()
        && let Some(at) = instructions.updated_at.as_deref()
    {
        heading.push(Span::styled(
            format!("  updated {}", crate::ui::time::ago_now(at)),
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

fn draw_modal(tab: &SettingsTab, frame: &mut Frame, area: Rect, theme: &Theme) {
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
            SettingsModal::ConfirmRevoke { confirm, .. } | SettingsModal::ConfirmLeave(confirm),
        ) => confirm.draw(frame, area, theme),
        None => {}
    }
}
