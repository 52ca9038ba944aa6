use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::form::{Field, visibility_explanation};
use super::{GroupRow, Modal, SiteScreen, SiteTab, save_key};
use crate::api::models::{SiteStructureItem, SiteVisibility};
use crate::screens::look::Look;
use crate::ui::form::{FormStyle, Marks, Messages, ShowChecks, ValueFit, place_cursor};
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

pub(super) fn draw(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    if area.height < 3 {
        draw_tabs(screen, frame, area, theme);
        return;
    }
    let [tabs_area, summary_area, body, notice_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_tabs(screen, frame, tabs_area, theme);
    draw_summary(screen, frame, summary_area, theme);
    match screen.tab {
        SiteTab::Settings => draw_settings(screen, frame, body, look),
        SiteTab::ShareLinks => draw_share_links(screen, frame, body, look),
        SiteTab::SectionGroups => draw_groups(screen, frame, body, look),
        SiteTab::Structure => draw_structure(screen, frame, body, look),
        SiteTab::Adaptive => draw_adaptive(screen, frame, body, look),
    }
    draw_notice(screen, frame, notice_area, look);
    match &screen.modal {
        Some(Modal::Confirm { confirm, .. }) => confirm.draw(frame, area, theme),
        Some(Modal::Prompt(prompt)) => crate::ui::prompt::draw(prompt, frame, area, theme),
        Some(Modal::Picker(picker)) => crate::ui::picker::draw(picker, frame, area, theme),
        Some(Modal::Composer(editor)) => editor.with(|composer| composer.draw(frame, body, theme)),
        None => {}
    }
}

fn draw_tabs(screen: &SiteScreen, frame: &mut Canvas, area: Rect, theme: &Theme) {
    let mut spans = Vec::new();
    for tab in SiteTab::ALL {
        let style = if tab == screen.tab {
            theme.style("tab_active")
        } else {
            theme.style("tab_inactive")
        };
        spans.push(Span::styled(format!(" {} ", tab.label()), style));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_summary(screen: &SiteScreen, frame: &mut Canvas, area: Rect, theme: &Theme) {
    let site = &screen.site;
    let visibility = site
        .visibility
        .as_ref()
        .map_or("?".to_string(), |v| v.to_string());
    let (published, style) = if site.published {
        ("published", theme.style("success"))
    } else {
        ("not published", theme.style("warning"))
    };
    let mut spans = vec![
        Span::styled(format!(" {} ", sanitize(&visibility)), theme.style("badge")),
        Span::raw(" "),
        Span::styled(published, style),
    ];
    if let Some(url) = &site.urls.published {
        spans.push(Span::styled(
            format!("  {}", sanitize(url)),
            theme.style("link"),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_notice(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let line = if let Some(notice) = &screen.notice {
        crate::ui::notice::row(notice, area.width, look)
    } else if screen.pending.is_some() {
        Line::from(Span::styled("Sending…", theme.style("muted")))
    } else if let Some(reason) = screen.read_only_reason() {
        Line::from(Span::styled(
            sanitize(&reason).into_owned(),
            theme.style("warning"),
        ))
    } else {
        Line::from("")
    };
    frame.render_widget(Paragraph::new(line), area);
}

// ----- Settings -----

fn field_value(screen: &SiteScreen, field: Field) -> (String, bool) {
    let form = &screen.form;
    let values = &form.values;
    let placeholder = |text: &str| (text.to_string(), true);
    match field {
        Field::Title | Field::Basename | Field::Proxy => {
            let value = form.text_of(field).to_string();
            let typing_here = form.editing.is_some() && form.selected_field() == Some(field);
            if value.is_empty() && !typing_here {
                placeholder(if field == Field::Proxy {
                    "(none)"
                } else {
                    "(not set)"
                })
            } else {
                (value, false)
            }
        }
        Field::Visibility => (
            values
                .visibility
                .as_ref()
                .map_or("(unknown)".into(), |v| v.to_string()),
            false,
        ),
        Field::AdaptiveContent => (
            if values.adaptive_content { "on" } else { "off" }.into(),
            false,
        ),
        Field::AgentsContext => (
            values
                .agents_context
                .as_ref()
                .map_or("(unknown)".into(), |v| v.to_string()),
            false,
        ),
        Field::DefaultSection => match (&form.choices, &values.default_section) {
            (None, _) => placeholder("loading…"),
            (Some(choices), Some(id)) => {
                (choices.section_title(id).unwrap_or(id).to_string(), false)
            }
            (Some(_), None) => placeholder("(none)"),
        },
        Field::DefaultSpace => {
            let Some(choices) = &form.choices else {
                return placeholder("loading…");
            };
            let allowed = choices.spaces_in(values.default_section.as_deref());
            match &values.default_space {
                Some(id) if allowed.iter().any(|space| &space.id == id) => {
                    (choices.space_title(id).unwrap_or_else(|| id.clone()), false)
                }
                _ if form.is_changed(Field::DefaultSection) => {
                    placeholder("(the section's own default)")
                }
                Some(id) => (id.clone(), false),
                None => placeholder("(none)"),
            }
        }
    }
}

fn field_help(screen: &SiteScreen, field: Field) -> String {
    match field {
        Field::Title => "2 to 128 characters.".into(),
        Field::Basename => {
            "The path the site is served under: 1 to 100 lowercase letters, digits, - and /."
                .into()
        }
        Field::Proxy => {
            "Serve the site under your own domain: host and path like example.com/docs; empty removes it."
                .into()
        }
        Field::Visibility => {
            let visibility = screen
                .form
                .values
                .visibility
                .clone()
                .unwrap_or(SiteVisibility::Other(String::new()));
            format!(
                "{} enter picks another.",
                visibility_explanation(&visibility)
            )
        }
        Field::AdaptiveContent => {
            "Pages and sections shown per visitor from their claims. enter toggles.".into()
        }
        Field::AgentsContext => "Whether AI agents may read the site. enter toggles.".into(),
        Field::DefaultSection => "The section visitors land on. enter picks.".into(),
        Field::DefaultSpace => "The site space visitors land on. enter picks.".into(),
    }
}

fn draw_settings(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let (theme, keymap) = (look.theme, look.keymap);
    let form = &screen.form;
    let read_only = screen.read_only_reason().is_some();
    let look = FormStyle {
        marks: Marks::Changed,
        label_width: if area.width < 50 { 10 } else { 18 },
        value: ValueFit::Whole,
        messages: Messages::Inline,
        checks: ShowChecks::Always,
        server_prefix: Some("server: "),
        scroll: false,
    };
    let drawn = form.lines(&look, area.width, theme, |field, row| {
        let (value, placeholder) = field_value(screen, field);
        let style = if row.editing {
            theme.style("text").underlined()
        } else if read_only {
            theme.style("disabled")
        } else if placeholder {
            theme.style("hidden")
        } else if row.changed {
            theme.style("accent")
        } else {
            theme.style("text")
        };
        (value, style)
    });
    let mut lines = drawn.lines;
    lines.push(Line::from(""));
    if let Some(field) = form.selected_field() {
        let help = if form.editing.is_some() {
            "enter keeps · esc puts the old value back".to_string()
        } else {
            field_help(screen, field)
        };
        lines.push(Line::from(Span::styled(help, theme.style("muted"))));
    }
    if let Some((_, message)) = &form.server_error {
        lines.push(Line::from(Span::styled(
            format!("The server refused the save: {}", sanitize(message)),
            theme.style("error"),
        )));
    }
    let changed = form.changed_fields();
    if !changed.is_empty() {
        let names: Vec<&str> = changed.iter().map(|field| field.wire_name()).collect();
        lines.push(Line::from(Span::styled(
            format!("Unsaved: {} — {} saves", names.join(", "), save_key(keymap)),
            theme.style("warning"),
        )));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
    place_cursor(frame, area, drawn.cursor);
}

// ----- Share links -----

/// A site's share links: the name and the URL share the room; the state stays longest.
const SHARE_LINK_COLUMNS: [Column; 4] = [
    Column::cut("Name", 12, 0),
    Column::whole("Active", 1),
    Column::whole("Created", 2),
    Column::cut("URL", 12, 3).flex(),
];

fn draw_share_links(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(listed) = screen.share_links.value() else {
        match screen.share_links.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "share links"),
        }
        return;
    };
    let links = &listed.items;
    let note = match &screen.site.visibility {
        Some(SiteVisibility::ShareLink) => None,
        Some(other) => Some(format!(
            "Visibility is {}: share links only matter while it is share-link.",
            sanitize(other.as_str())
        )),
        None => None,
    };
    let stopped = listed.stopped_after_pages().map(status::stopped_after);
    let notes = u16::from(note.is_some()) + u16::from(stopped.is_some());
    let [note_area, table_area, detail_area] = Layout::vertical([
        Constraint::Length(notes),
        Constraint::Min(0),
        Constraint::Length(3),
    ])
    .areas(area);
    let note_lines: Vec<Line> = stopped
        .map(|text| Line::from(Span::styled(text, theme.style("warning"))))
        .into_iter()
        .chain(note.map(|text| Line::from(Span::styled(text, theme.style("muted")))))
        .collect();
    frame.render_widget(Paragraph::new(note_lines), note_area);
    if links.is_empty() {
        status::empty(
            frame,
            table_area,
            look,
            "No share links yet. n creates one.",
        );
        return;
    }
    let rows: Vec<[String; 4]> = links
        .iter()
        .map(|link| {
            [
                link.name.clone().unwrap_or_else(|| link.id.clone()),
                if link.active.unwrap_or(true) {
                    "active"
                } else {
                    "off"
                }
                .to_string(),
                link.created_at
                    .as_deref()
                    .map(|at| crate::ui::time::relative(at, look.now()))
                    .unwrap_or_default(),
                link.urls.published.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let inactive = |index: usize| {
        links
            .get(index)
            .is_some_and(|link| !link.active.unwrap_or(true))
    };
    Table::new(&SHARE_LINK_COLUMNS, &rows, &screen.link_selection)
        .muted(&inactive)
        .draw(frame, table_area, theme);
    if let Some(link) = screen.selected_link() {
        let url = link
            .urls
            .published
            .as_deref()
            .map_or("(no URL)".to_string(), |url| sanitize(url).into_owned());
        let detail = vec![
            Line::from(Span::styled("URL (y copies):", theme.style("muted"))),
            Line::from(Span::styled(url, theme.style("link"))),
        ];
        frame.render_widget(
            Paragraph::new(detail).wrap(Wrap { trim: false }),
            detail_area,
        );
    }
}

// ----- Section groups -----

fn draw_groups(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let Some(listed) = screen.groups.value() else {
        match screen.groups.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "section groups"),
        }
        return;
    };
    let area = match listed.stopped_after_pages() {
        Some(pages) => {
            let [note_area, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
            frame.render_widget(
                Paragraph::new(Span::styled(
                    status::stopped_after(pages),
                    theme.style("warning"),
                )),
                note_area,
            );
            rest
        }
        None => area,
    };
    let rows = screen.group_rows();
    if rows.is_empty() {
        status::empty(
            frame,
            area,
            look,
            "No section groups. n creates one from sections.",
        );
        return;
    }
    let range = screen
        .group_selection
        .visible_range(rows.len(), area.height as usize);
    let lines: Vec<Line> = rows[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, row)| {
            let selected = range.start + offset == screen.group_selection.selected;
            group_line(row, selected, area.width, theme)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

fn group_line(row: &GroupRow, selected: bool, width: u16, theme: &Theme) -> Line<'static> {
    let base = |normal: Style| {
        if selected {
            theme.style("selection")
        } else {
            normal
        }
    };
    match row {
        GroupRow::Group {
            title, icon, depth, ..
        } => {
            let indent = "  ".repeat((*depth).min(10));
            let mut spans = vec![
                Span::styled(format!("{indent}▾ "), theme.style("muted")),
                Span::styled(
                    text::truncate(&sanitize(title), width as usize / 2 + 4),
                    base(theme.style("title")),
                ),
            ];
            if let Some(icon) = icon {
                spans.push(Span::styled(
                    format!("  icon: {}", sanitize(icon)),
                    theme.style("muted"),
                ));
            }
            Line::from(spans)
        }
        GroupRow::Section { title, depth, .. } => {
            let indent = "  ".repeat((*depth).min(10));
            Line::from(vec![
                Span::styled(format!("{indent}• "), theme.style("muted")),
                Span::styled(sanitize(title).into_owned(), base(theme.style("text"))),
            ])
        }
    }
}

// ----- Structure -----

/// One row of the published tree.
pub(super) struct StructureRow {
    pub depth: usize,
    pub kind: &'static str,
    pub title: String,
    pub detail: String,
    pub default: bool,
}

pub(super) fn structure_rows(screen: &SiteScreen) -> Vec<StructureRow> {
    let mut rows = Vec::new();
    if let Some(published) = screen.structure.value() {
        for item in &published.structure.structure {
            push_item(item, 0, &mut rows);
        }
    }
    rows
}

fn push_item(item: &SiteStructureItem, depth: usize, rows: &mut Vec<StructureRow>) {
    if depth > 24 {
        return;
    }
    match item {
        SiteStructureItem::Section(section) => {
            rows.push(StructureRow {
                depth,
                kind: "section",
                title: section.title.clone(),
                detail: section
                    .path
                    .as_deref()
                    .map(|path| format!("/{path}"))
                    .unwrap_or_default(),
                default: section.default == Some(true),
            });
            for space in &section.site_spaces {
                push_item(
                    &SiteStructureItem::Space(Box::new(space.clone())),
                    depth + 1,
                    rows,
                );
            }
        }
        SiteStructureItem::Group(group) => {
            rows.push(StructureRow {
                depth,
                kind: "group",
                title: group.title.clone(),
                detail: String::new(),
                default: false,
            });
            for child in &group.children {
                push_item(child, depth + 1, rows);
            }
        }
        SiteStructureItem::Space(space) => {
            let title = if space.title.is_empty() {
                space
                    .space
                    .as_ref()
                    .map(|inner| inner.title.clone())
                    .unwrap_or_default()
            } else {
                space.title.clone()
            };
            rows.push(StructureRow {
                depth,
                kind: "space",
                title,
                detail: space
                    .path
                    .as_deref()
                    .map(|path| format!("/{path}"))
                    .unwrap_or_default(),
                default: space.default == Some(true),
            });
        }
        SiteStructureItem::ExternalLink(link) => rows.push(StructureRow {
            depth,
            kind: "link",
            title: link.title.clone(),
            detail: link.url.clone().unwrap_or_default(),
            default: false,
        }),
        SiteStructureItem::Other(value) => rows.push(StructureRow {
            depth,
            kind: "?",
            title: value
                .get("title")
                .and_then(|title| title.as_str())
                .unwrap_or("(unknown entry)")
                .to_string(),
            detail: String::new(),
            default: false,
        }),
    }
}

fn draw_structure(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    if screen.structure.value().is_none() {
        match screen.structure.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "the published structure"),
        }
        return;
    }
    let rows = structure_rows(screen);
    if rows.is_empty() {
        status::empty(frame, area, look, "The site has no content yet.");
        return;
    }
    let range = screen
        .structure_selection
        .visible_range(rows.len(), area.height as usize);
    let lines: Vec<Line> = rows[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, row)| {
            let selected = range.start + offset == screen.structure_selection.selected;
            let icon = match row.kind {
                "section" => "§ ",
                "group" => "▾ ",
                "space" => "▫ ",
                "link" => "↗ ",
                _ => "? ",
            };
            let style = if selected {
                theme.style("selection")
            } else if row.kind == "group" {
                theme.style("title")
            } else {
                theme.style("text")
            };
            let mut spans = vec![
                Span::styled(
                    format!("{}{icon}", "  ".repeat(row.depth.min(10))),
                    theme.style("muted"),
                ),
                Span::styled(sanitize(&row.title).into_owned(), style),
            ];
            if !row.detail.is_empty() {
                spans.push(Span::styled(
                    format!("  {}", sanitize(&row.detail)),
                    theme.style("muted"),
                ));
            }
            if row.default {
                spans.push(Span::styled("  ★ default", theme.style("accent")));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

// ----- Adaptive -----

fn draw_adaptive(screen: &SiteScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    if let Some(reason) = screen.adaptive_view_reason() {
        status::empty(frame, area, look, &reason);
        return;
    }
    let Some(data) = screen.adaptive.value() else {
        match screen.adaptive.error() {
            Some(error) => status::error(frame, area, look, error),
            None => status::loading(frame, area, look, "the adaptive schema"),
        }
        return;
    };
    let enabled = screen
        .site
        .adaptive_content
        .is_some_and(|adaptive| adaptive.enabled);
    let mut lines = vec![Line::from(vec![
        Span::styled("Adaptive content: ", theme.style("muted")),
        Span::styled(if enabled { "on" } else { "off" }, theme.style("accent")),
    ])];
    match &data.schema {
        Some(schema) => {
            let updated = schema
                .updated_at
                .as_deref()
                .map(|at| format!(" (updated {})", text::date(at)))
                .unwrap_or_default();
            lines.push(Line::from(Span::styled(
                format!("Visitor schema{updated} — e edits it as JSON"),
                theme.style("title"),
            )));
            let pretty = serde_json::to_string_pretty(&schema.json_schema).unwrap_or_default();
            for line in pretty.lines() {
                lines.push(Line::from(Span::styled(
                    sanitize(line).into_owned(),
                    theme.style("inline_code"),
                )));
            }
        }
        None => lines.push(Line::from(Span::styled(
            "No visitor schema yet — e writes one.",
            theme.style("muted"),
        ))),
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "Template conditions",
        theme.style("title"),
    )));
    if data.conditions.is_empty() {
        lines.push(Line::from(Span::styled("(none)", theme.style("muted"))));
    }
    for condition in &data.conditions {
        lines.push(Line::from(vec![
            Span::styled(
                format!("{}  ", sanitize(&condition.description)),
                theme.style("text"),
            ),
            Span::styled(
                sanitize(&condition.condition).into_owned(),
                theme.style("inline_code"),
            ),
        ]));
    }
    let max_scroll = (lines.len() as u16).saturating_sub(area.height);
    frame.render_widget(
        Paragraph::new(lines).scroll((screen.adaptive_scroll.min(max_scroll), 0)),
        area,
    );
}
