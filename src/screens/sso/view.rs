//! Drawing the SSO tab: the providers, the selected one's details (with the service's
//! addresses and their copy keys), the sign-in options, and the form or question above them.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::certificate::{one_line, text_summary};
use super::form::{FormField, FormPopup, ProviderForm};
use super::{SsoModal, SsoTab, role_name};
use crate::api::models::SamlProvider;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::form::{
    FormFields, FormStyle, Marks, Messages, Row, ShowChecks, ValueFit, place_cursor,
};
use crate::ui::hit::Canvas;
use crate::ui::layout::centered;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// The width of the labels in the details and the form.
const LABEL: usize = 15;

pub(super) fn draw(tab: &SsoTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [notice_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_notice(tab, frame, notice_area, look);
    if !list_pane::draw_unlisted(frame, body, look, (&tab.overview, "SAML providers"), || {
        None
    }) {
        draw_body(tab, frame, body, look);
    }
    match &tab.modal {
        Some(SsoModal::Form(form)) => draw_form(tab, form, frame, area, theme),
        Some(SsoModal::ConfirmDelete { confirm, .. }) => confirm.draw(frame, area, theme),
        None => {}
    }
}

fn draw_notice(tab: &SsoTab, frame: &mut Frame, area: Rect, look: &Look) {
    let theme = look.theme;
    let stopped = tab
        .overview
        .value()
        .and_then(|overview| overview.providers_stopped_after_pages);
    let line = match (&tab.notice, stopped) {
        (Some(notice), _) => crate::ui::notice::row(notice, area.width, look),
        (None, Some(pages)) => Line::from(crate::ui::notice::span(
            &format!("SAML providers: {}", status::stopped_after(pages)),
            area.width,
            theme.style("warning"),
            look,
        )),
        (None, None) if !tab.admin => Line::from(Span::styled(
            "Read only: only organization admins change single sign-on.",
            theme.style("muted"),
        )),
        (None, None) => Line::from(""),
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_body(tab: &SsoTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let providers = tab.providers();
    if providers.is_empty() {
        let [empty, logins] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(area);
        status::empty(
            frame,
            empty,
            look,
            "No SAML providers yet: n adds one (admins only).",
        );
        draw_logins(tab, frame, logins, theme);
        return;
    }
    let list_height = (providers.len() as u16 + 2).min(area.height / 3).max(3);
    let [list, details] =
        Layout::vertical([Constraint::Length(list_height), Constraint::Min(0)]).areas(area);
    draw_list(tab, frame, list, look);
    draw_details(tab, frame, details, theme);
}

/// The label takes the room; narrow terminals keep its status longest.
const COLUMNS: [Column; 4] = [
    Column::cut("Label", 12, 0).flex(),
    Column::whole("Status", 1),
    Column::whole("Role", 2),
    Column::cut("Default team", 12, 3),
];

fn draw_list(tab: &SsoTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(look.theme.style("border"))
        .title(format!(" SAML providers ({}) ", tab.providers().len()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let rows: Vec<[String; 4]> = tab
        .providers()
        .iter()
        .map(|provider| provider_cells(tab, provider))
        .collect();
    let table = Table::new(&COLUMNS, &rows, &tab.selection);
    list_pane::draw_table(frame, inner, look, table, tab.selection.selected);
}

fn provider_cells(tab: &SsoTab, provider: &SamlProvider) -> [String; 4] {
    let team = provider
        .default_team
        .as_ref()
        .map(|team| {
            if team.title.is_empty() {
                tab.team_title(&team.id)
            } else {
                team.title.clone()
            }
        })
        .unwrap_or_else(|| "—".to_string());
    [
        sanitize(&provider.label).into_owned(),
        provider.status.clone().unwrap_or_default(),
        role_name(provider.default_role.as_ref()),
        sanitize(&team).into_owned(),
    ]
}

fn fact<'a>(label: &str, value: String, theme: &Theme, style: Style) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{label:<LABEL$}"), theme.style("muted")),
        Span::styled(sanitize(&value).into_owned(), style),
    ])
}

fn certificate_line(certificate: Option<&str>) -> (String, bool) {
    match certificate.map(str::trim).filter(|text| !text.is_empty()) {
        None => ("none".to_string(), false),
        Some(text) => match super::certificate::inspect(text) {
            Ok(facts) => {
                let expired = facts.is_expired(chrono::Utc::now());
                let when = if expired { "expired" } else { "expires" };
                (
                    format!("{when} {} · {}", facts.expiry_date(), facts.subject),
                    expired,
                )
            }
            Err(reason) => (format!("unreadable ({reason})"), true),
        },
    }
}

fn draw_details(tab: &SsoTab, frame: &mut Frame, area: Rect, theme: &Theme) {
    let Some(provider) = tab.selected() else {
        return;
    };
    let text_style = theme.style("text");
    let or_none = |value: &Option<String>| {
        value
            .clone()
            .filter(|value| !value.is_empty())
            .unwrap_or_else(|| "—".to_string())
    };
    let (certificate, bad) = certificate_line(provider.certificate.as_deref());
    let certificate_style = if bad {
        theme.style("error")
    } else {
        text_style
    };
    let mut lines = vec![
        Line::from(""),
        Line::from(Span::styled(
            sanitize(&provider.label).into_owned(),
            theme.style("heading2"),
        )),
        fact("Entity ID", or_none(&provider.entity_id), theme, text_style),
        fact("SSO URL", or_none(&provider.sso_url), theme, text_style),
        fact("Certificate", certificate, theme, certificate_style),
        Line::from(Span::styled(
            "The identity provider needs (a / u / i copies):",
            theme.style("muted"),
        )),
        fact(
            "a ACS URL",
            or_none(&provider.service.acs_url),
            theme,
            text_style,
        ),
        fact(
            "u Start URL",
            or_none(&provider.service.start_url),
            theme,
            text_style,
        ),
        fact(
            "i Entity ID",
            or_none(&provider.service.entity_id),
            theme,
            text_style,
        ),
    ];
    lines.push(Line::from(""));
    lines.extend(login_lines(tab, theme));
    // Addresses are read and typed into an identity provider: they wrap rather than being cut.
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

fn login_lines<'a>(tab: &SsoTab, theme: &Theme) -> Vec<Line<'a>> {
    let logins = tab
        .overview
        .value()
        .map_or(&[][..], |overview| overview.logins.as_slice());
    let mut lines = vec![Line::from(Span::styled(
        format!("SSO sign-in options ({})", logins.len()),
        theme.style("heading2"),
    ))];
    if logins.is_empty() {
        lines.push(Line::from(Span::styled(
            "None: no provider is active yet.",
            theme.style("muted"),
        )));
    }
    for login in logins {
        lines.push(fact(
            &text::truncate(&sanitize(&login.label), LABEL - 1),
            login.start_url.clone().unwrap_or_default(),
            theme,
            theme.style("text"),
        ));
    }
    lines
}

fn draw_logins(tab: &SsoTab, frame: &mut Frame, area: Rect, theme: &Theme) {
    frame.render_widget(Paragraph::new(login_lines(tab, theme)), area);
}

/// The value of a field as shown in the form, and its style.
fn shown_value(
    tab: &SsoTab,
    form: &ProviderForm,
    field: FormField,
    row: Row,
    theme: &Theme,
) -> (String, Style) {
    let value = match field {
        FormField::DefaultTeam => form
            .values
            .default_team
            .as_deref()
            .map_or_else(|| "none".to_string(), |id| tab.team_title(id)),
        FormField::DefaultRole => role_name(form.values.default_role.as_ref()),
        FormField::Certificate if row.editing => one_line(form.text_of(field)),
        FormField::Certificate => match form.certificate() {
            None => "none (paste it, or f loads a file)".to_string(),
            Some(Ok(facts)) => facts.summary(),
            Some(Err(_)) => text_summary(form.text_of(field)),
        },
        _ => form.text_of(field).to_string(),
    };
    let style = if row.selected {
        theme.style("selection")
    } else {
        theme.style("text")
    };
    (value, style)
}

/// Labels 14 wide, the selected field marked `›`, a field's complaint on a line under it; the
/// server's refusal goes on the status line under the fields.
const FORM_LOOK: FormStyle = FormStyle {
    marks: Marks::Cursor,
    label_width: LABEL - 1,
    value: ValueFit::Cut { margin: 1 },
    messages: Messages::Below { indent: LABEL },
    checks: ShowChecks::CountedOrTyping,
    server_prefix: None,
    scroll: false,
};

fn draw_form(tab: &SsoTab, form: &ProviderForm, frame: &mut Canvas, area: Rect, theme: &Theme) {
    let errors = FormField::ALL
        .iter()
        .filter(|field| form.error(**field).is_some())
        .count() as u16;
    // Six fields, their errors, a blank line, the status line (which may wrap) and the border.
    frame.hits.modal();
    let popup = centered(area, 78, 6 + errors + 2 + 2 + 1);
    frame.render_widget(Clear, popup);
    let title = if form.is_new() {
        " New SAML provider ".to_string()
    } else {
        format!(
            " Edit “{}” ",
            text::truncate(&sanitize(&form.original.label), 40)
        )
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style("border_focused"))
        .title(title);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let drawn = form.lines(&FORM_LOOK, inner.width, theme, |field, row| {
        shown_value(tab, form, field, row, theme)
    });
    let mut lines = drawn.lines;
    lines.push(Line::from(""));
    if let Some((_, message)) = &form.server_error {
        lines.push(Line::from(Span::styled(
            sanitize(message).into_owned(),
            theme.style("error"),
        )));
    } else if form.saving {
        lines.push(Line::from(Span::styled("Saving…", theme.style("muted"))));
    } else {
        lines.push(Line::from(Span::styled(
            "enter edits · s saves · f loads a certificate file · esc closes",
            theme.style("muted"),
        )));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    place_cursor(frame, inner, drawn.cursor);
    match &form.popup {
        Some(FormPopup::Team(picker) | FormPopup::Role(picker)) => {
            crate::ui::picker::draw(picker, frame, area, theme)
        }
        Some(FormPopup::TeamId(prompt) | FormPopup::CertificatePath(prompt)) => {
            crate::ui::prompt::draw(prompt, frame, area, theme)
        }
        Some(FormPopup::Discard(confirm)) => confirm.draw(frame, area, theme),
        None => {}
    }
}
