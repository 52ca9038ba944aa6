//! Drawing the organization's Clusters tab: the clusters (or conversations) list, the selected
//! cluster's details with its weekly pulse as a sparkline, the notice line and the ingest
//! prompt.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline, Wrap};

use super::tab::{ClustersTab, ClustersView};
use crate::api::models::IssuesCluster;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::markdown::MarkdownDoc;
use crate::ui::sanitize::sanitize;
use crate::ui::segments::{self, Segment};
use crate::ui::table::Column;
use crate::ui::theme::Theme;

/// The clusters (no header row): the label takes the room, the issue count stays whole.
const CLUSTER_COLUMNS: [Column; 2] = [Column::cut("", 8, 0).flex(), Column::whole("", 1)];

/// A cluster's conversations: the subject takes the room, the age stays whole, the source
/// is cut first.
const CONVERSATION_COLUMNS: [Column; 3] = [
    Column::cut("", 12, 0).flex(),
    Column::cut("", 8, 2),
    Column::whole("", 1),
];

pub fn draw(tab: &ClustersTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let [body, notice_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    match tab.view {
        ClustersView::Clusters => draw_clusters(tab, frame, body, look),
        ClustersView::Conversations => draw_conversations(tab, frame, body, look),
    }
    if let Some(notice) = &tab.notice {
        let line = crate::ui::notice::row(notice, notice_area.width, look);
        frame.render_widget(Paragraph::new(line), notice_area);
    }
    if let Some(prompt) = &tab.ingest {
        crate::ui::prompt::draw(prompt, frame, area, look.theme);
    }
}

/// A glyph for the cluster icons the service names; a bullet for the others.
pub fn icon(name: Option<&str>) -> &'static str {
    match name.unwrap_or("") {
        "key" => "🔑",
        "cpu" => "🔧",
        "server" => "💻",
        "receipt" => "🧾",
        "repeat" => "🔁",
        _ => "•",
    }
}

fn draw_clusters(tab: &ClustersTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let filtered = tab.status.map(|status| {
        format!(
            "No {} issues clusters: S shows another status.",
            status.as_str()
        )
    });
    let empty = filtered
        .as_deref()
        .unwrap_or("No issues clusters yet: they appear once conversations are ingested (i).");
    if list_pane::draw_if_empty(frame, area, look, (&tab.clusters, "issues clusters"), empty) {
        return;
    }
    let [header, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let direction = if tab.order.ascending {
        "oldest first"
    } else {
        "newest first"
    };
    let count = tab
        .clusters
        .total
        .unwrap_or(tab.clusters.items.len() as u64);
    // "4 clusters · by last updated, newest first": the count stays, the order shortens to
    // its key, then goes; nothing is cut.
    let sort = tab.order.sort.label();
    let status = tab
        .status
        .map(|status| format!("{} ", status.as_str()))
        .unwrap_or_default();
    let noun = if count == 1 { "cluster" } else { "clusters" };
    let muted = theme.style("muted");
    let line = [
        Segment::new(format!("{count} {status}{noun}"), 0).styled(muted),
        Segment::new(format!("by {sort}, {direction}"), 1)
            .or(format!("by {sort}"))
            .styled(muted)
            .after(" · "),
    ];
    frame.render_widget(
        Paragraph::new(segments::line(&line, usize::from(header.width))),
        header,
    );
    let (list_area, details_area) = if rest.width >= 60 {
        let [list, details] =
            Layout::horizontal([Constraint::Percentage(42), Constraint::Min(0)]).areas(rest);
        (list, details)
    } else {
        let rows = (tab.clusters.items.len() as u16)
            .min(rest.height / 2)
            .max(1);
        let [list, details] =
            Layout::vertical([Constraint::Length(rows), Constraint::Min(0)]).areas(rest);
        (list, details)
    };
    let rows: Vec<[String; 2]> = tab
        .clusters
        .items
        .iter()
        .map(|cluster| {
            let label = format!("{} {}", icon(cluster.icon.as_deref()), cluster.label);
            let issues = cluster
                .stats
                .issues
                .map(|issues| format!("{issues:>5}"))
                .unwrap_or_default();
            [label, issues]
        })
        .collect();
    Table::new(&CLUSTER_COLUMNS, &rows, &tab.cluster_selection)
        .without_header()
        .draw(frame, list_area, theme);
    if let Some(cluster) = tab.selected_cluster() {
        let inner = Rect {
            x: details_area.x.saturating_add(1).min(details_area.right()),
            width: details_area.width.saturating_sub(1),
            ..details_area
        };
        draw_details(cluster, frame, inner, theme, look.now());
    }
}

fn count(value: Option<u64>) -> String {
    value.map_or_else(|| "—".to_string(), |value| value.to_string())
}

fn draw_details(
    cluster: &IssuesCluster,
    frame: &mut Canvas,
    area: Rect,
    theme: &Theme,
    now: chrono::DateTime<chrono::Utc>,
) {
    if area.height == 0 || area.width < 4 {
        return;
    }
    let stats = &cluster.stats;
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "{} {}",
            icon(cluster.icon.as_deref()),
            sanitize(&cluster.label)
        ),
        theme.style("title"),
    ))];
    // The summary is markdown (`**403**`, `fleet:write` in code).
    if let Some(summary) = cluster.summary.as_deref().filter(|s| !s.trim().is_empty()) {
        lines.extend(MarkdownDoc::parse(summary, theme).layout(area.width).lines);
    }
    lines.extend([
        Line::from(vec![
            Span::styled("Issues ", theme.style("muted")),
            Span::styled(count(stats.issues), theme.style("text")),
            Span::styled(" · Conversations ", theme.style("muted")),
            Span::styled(count(stats.conversations), theme.style("text")),
        ]),
        Line::from(vec![
            Span::styled("Tasks ", theme.style("muted")),
            Span::styled(
                format!(
                    "{} backlog · {} started · {} done · {} cancelled",
                    count(stats.tasks_backlog),
                    count(stats.tasks_started),
                    count(stats.tasks_completed),
                    count(stats.tasks_cancelled),
                ),
                theme.style("text"),
            ),
        ]),
    ]);
    let sources: Vec<String> = cluster
        .sources
        .iter()
        .map(|(name, count)| format!("{} {count}", sanitize(name)))
        .collect();
    lines.push(Line::from(vec![
        Span::styled("Sources ", theme.style("muted")),
        Span::styled(
            if sources.is_empty() {
                "—".to_string()
            } else {
                sources.join(" · ")
            },
            theme.style("text"),
        ),
    ]));
    if let Some(updated) = &cluster.updated_at {
        lines.push(Line::from(vec![
            Span::styled("Updated ", theme.style("muted")),
            Span::styled(crate::ui::time::exactly(updated, now), theme.style("text")),
        ]));
    }
    let pulse_label = format!(
        "Weekly pulse, {} weeks (max {})",
        cluster.weekly_pulse.len(),
        cluster.weekly_pulse.iter().max().copied().unwrap_or(0)
    );
    lines.push(Line::from(Span::styled(pulse_label, theme.style("muted"))));
    // The text first, the pulse right under it when there are rows enough for both.
    let width = area.width.max(1) as usize;
    let text_rows: usize = lines
        .iter()
        .map(|line| line.width().max(1).div_ceil(width))
        .sum();
    let pulse_rows = match area.height {
        0..=5 => 0,
        6..=9 => 1,
        _ => 3,
    };
    let text_height = (text_rows as u16).min(area.height.saturating_sub(pulse_rows));
    let [text_area, pulse_area, _] = Layout::vertical([
        Constraint::Length(text_height),
        Constraint::Length(pulse_rows),
        Constraint::Min(0),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), text_area);
    if pulse_rows > 0 && !cluster.weekly_pulse.is_empty() {
        // One column per week, spread out when there is room so the weeks read apart.
        let spread = (pulse_area.width as usize / cluster.weekly_pulse.len().max(1)).clamp(1, 3);
        let data: Vec<u64> = cluster
            .weekly_pulse
            .iter()
            .flat_map(|week| std::iter::repeat_n(*week, spread))
            .collect();
        frame.render_widget(
            Sparkline::default()
                .data(&data)
                .style(theme.style("accent")),
            pulse_area,
        );
    }
}

fn draw_conversations(tab: &ClustersTab, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [header, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let source = tab
        .source
        .as_deref()
        .map_or_else(|| "all".to_string(), |source| sanitize(source).into_owned());
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(
            format!("Conversations · source: {source} (f changes it)"),
            theme.style("muted"),
        ))),
        header,
    );
    let items = &tab.conversations.items;
    let list = (&tab.conversations, "conversations");
    if list_pane::draw_if_empty(frame, rows_area, look, list, "No conversations here.") {
        return;
    }
    let rows: Vec<[String; 3]> = items
        .iter()
        .map(|conversation| {
            [
                conversation.subject.clone(),
                conversation.source.clone().unwrap_or_default(),
                conversation
                    .created_at
                    .as_deref()
                    .map(|at| crate::ui::time::relative(at, look.now()))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    Table::new(&CONVERSATION_COLUMNS, &rows, &tab.conversation_selection)
        .without_header()
        .draw(frame, rows_area, theme);
}
