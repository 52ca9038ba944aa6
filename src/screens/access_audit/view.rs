use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{AccessAudit, AccessRow};
use crate::screens::look::Look;
use crate::screens::sites::role::audience;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::{status, text, titled};

pub(super) fn draw(screen: &AccessAudit, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let more = vec![Span::styled(
        format!(" — sites of {}", sanitize(&screen.organization_title)),
        theme.style("muted"),
    )];
    let Some(areas) = titled::split(frame, area, look, "Who can reach what", more) else {
        return;
    };
    let (body, notice_area) = (areas.body, areas.notice);
    let Some(sites) = screen.data.value().map(|listing| &listing.sites) else {
        match screen.data.error() {
            Some(error) => status::error(frame, body, look, error),
            None => status::loading(frame, body, look, "sites and share links"),
        }
        return;
    };
    if sites.is_empty() {
        status::empty(frame, body, look, "This organization has no sites.");
        return;
    }
    let rows = screen.rows();
    let range = screen
        .selection
        .visible_range(rows.len(), body.height as usize);
    let title_width = (body.width / 3).clamp(8, 32) as usize;
    let lines: Vec<Line> = rows[range.clone()]
        .iter()
        .enumerate()
        .filter_map(|(offset, row)| {
            let selected = range.start + offset == screen.selection.selected;
            let style = |name: &str| {
                if selected {
                    theme.style("selection")
                } else {
                    theme.style(name)
                }
            };
            Some(match row {
                AccessRow::Site { index } => {
                    let access = sites.get(*index)?;
                    let site = &access.site;
                    let visibility = site
                        .visibility
                        .as_ref()
                        .map_or("?".to_string(), |v| v.to_string());
                    let reach = if site.published {
                        audience(site.visibility.as_ref())
                    } else {
                        "nobody (not published)".to_string()
                    };
                    let revoked = access
                        .share_links
                        .iter()
                        .filter(|link| link.active == Some(false))
                        .count();
                    let mut spans = vec![
                        Span::styled(
                            text::fit(&sanitize(&site.title), title_width),
                            style("title"),
                        ),
                        Span::styled(
                            format!(" {} ", text::fit(&sanitize(&visibility), 12)),
                            theme.style("badge"),
                        ),
                        Span::styled(format!(" {}", sanitize(&reach)), theme.style("text")),
                    ];
                    if revoked > 0 {
                        spans.push(Span::styled(
                            format!("  ({revoked} revoked)"),
                            theme.style("muted"),
                        ));
                    }
                    Line::from(spans)
                }
                AccessRow::Link { site, link } => {
                    let link = sites.get(*site)?.share_links.get(*link)?;
                    let name = link.name.clone().unwrap_or_else(|| link.id.clone());
                    let created = link
                        .created_at
                        .as_deref()
                        .map(|at| crate::ui::time::relative(at, look.now()))
                        .unwrap_or_default();
                    let url = link.urls.published.clone().unwrap_or_default();
                    Line::from(vec![
                        Span::styled("  ↳ link ", theme.style("muted")),
                        Span::styled(
                            text::fit(&sanitize(&name), title_width.saturating_sub(6).max(4)),
                            style("text"),
                        ),
                        Span::styled(format!(" {created} "), theme.style("muted")),
                        Span::styled(sanitize(&url).into_owned(), theme.style("link")),
                    ])
                }
            })
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
    let notice = match (&screen.notice, &screen.pending) {
        (Some(notice), _) => {
            crate::ui::notice::span(&notice.text, notice_area.width, notice.style(theme), look)
        }
        (None, Some(_)) => Span::styled("Revoking…", theme.style("muted")),
        (None, None) => match screen.stop_note() {
            Some(note) => {
                crate::ui::notice::span(&note, notice_area.width, theme.style("warning"), look)
            }
            None => Span::raw(""),
        },
    };
    frame.render_widget(Paragraph::new(Line::from(notice)), notice_area);
    if let Some(revocation) = &screen.asking {
        revocation.confirm.draw(frame, area, theme);
    }
}
