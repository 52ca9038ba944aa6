use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{PublishedFilter, SitesTab, site_address};
use crate::api::models::Site;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::segments::{self, Segment};
use crate::ui::table::Column;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// The list, a notice row under it while there is one, and what is open above them.
pub fn draw(tab: &SitesTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let list_area = match &tab.notice {
        Some(notice) if area.height > 1 => {
            let [list_area, notice_area] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
            let line = crate::ui::notice::row(notice, notice_area.width, look);
            frame.render_widget(Paragraph::new(line), notice_area);
            list_area
        }
        _ => area,
    };
    draw_list(tab, frame, list_area, look);
    super::site_ops::draw_modal(tab, frame, area, theme);
}

fn draw_list(tab: &SitesTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let area = crate::ui::list::filter_row(frame, area, &tab.filter, theme);
    if area.height == 0 {
        return;
    }
    let [summary_area, area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let summary = summary(tab, theme);
    frame.render_widget(
        Paragraph::new(segments::line(&summary, usize::from(summary_area.width))),
        summary_area,
    );

    let sites = tab.visible();
    let empty = || {
        sites.is_empty().then(|| {
            if !tab.filter.text.is_empty() {
                status::no_matches(&tab.filter.text)
            } else if tab.published != PublishedFilter::All {
                "No site matches the published filter — p cycles it.".to_string()
            } else {
                "This organization has no sites.".to_string()
            }
        })
    };
    if list_pane::draw_unlisted(frame, area, look, (&tab.list, "sites"), empty) {
        return;
    }
    let rows: Vec<[String; 6]> = sites.iter().map(|site| cells(site)).collect();
    let table = Table::new(&COLUMNS, &rows, &tab.selection).footer(paging_line(tab, theme));
    list_pane::draw_table(frame, area, look, table, tab.selection.selected);
}

/// Under the list: a page loading, a page that failed, or more to scroll to.
fn paging_line(tab: &SitesTab, theme: &Theme) -> Line<'static> {
    let more = if tab.list.is_loading() {
        Span::styled("loading…", theme.style("muted"))
    } else if let Some(error) = &tab.list.error {
        Span::styled(
            crate::ui::sanitize::sanitize(&format!("{} — r to retry", error.user_message()))
                .into_owned(),
            theme.style("error"),
        )
    } else if tab.list.has_more() {
        Span::styled("more below — scroll to load", theme.style("muted"))
    } else {
        Span::raw("")
    };
    Line::from(more)
}

/// "4 sites  published: all  title ∋ docs": the count stays longest, the typed title
/// shortens first; nothing is cut.
fn summary(tab: &SitesTab, theme: &Theme) -> Vec<Segment> {
    let count = tab.list.total.unwrap_or(tab.list.items.len() as u64);
    let count = crate::ui::time::plural(i64::try_from(count).unwrap_or(i64::MAX), "site", "sites");
    let label = |text: &str| Span::styled(text.to_string(), theme.style("muted"));
    let value = |text: String| Span::styled(text, theme.style("accent"));
    let mut line = vec![
        Segment::spans(vec![Span::styled(count, theme.style("title"))], 0),
        Segment::spans(
            vec![
                label("published: "),
                value(tab.published.label().to_string()),
            ],
            1,
        )
        .after("  "),
    ];
    if let Some(title) = &tab.server_title {
        let title = crate::ui::sanitize::sanitize(title);
        line.push(
            Segment::spans(vec![label("title ∋ "), value(title.to_string())], 2)
                .or_spans(vec![label("title ∋ "), value(text::truncate(&title, 12))])
                .after("  "),
        );
    }
    line
}

/// The cells of one row; `text::columns` sanitizes them.
fn cells(site: &Site) -> [String; 6] {
    [
        site.title.clone(),
        site.site_type
            .as_ref()
            .map(|kind| kind.to_string())
            .unwrap_or_default(),
        site.visibility
            .as_ref()
            .map(|visibility| visibility.to_string())
            .unwrap_or_default(),
        if site.published { "yes" } else { "no" }.to_string(),
        site.site_spaces
            .map(|count| count.to_string())
            .unwrap_or_default(),
        site_address(site),
    ]
}

/// The title takes the room the others leave; narrow terminals keep the title, visibility
/// and published columns.
const COLUMNS: [Column; 6] = [
    Column::cut("Site", 20, 0).flex(),
    Column::whole("Type", 3),
    Column::whole("Visibility", 1),
    Column::whole("Pub", 2),
    Column::whole("Spaces", 4),
    Column::cut("Address", 12, 5),
];
