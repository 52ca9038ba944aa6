//! The review's tab line: the four tabs with their counts, then where you are in the shown
//! tab ("change 1/4 · page 1/4", "unresolved 3/18 · showing all"). Fitted as segments, so a
//! count is drawn whole, in a shorter form, or not at all, never cut.

use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

use super::super::{ReviewScreen, ReviewTab};
use crate::ui::hit::Canvas;
use crate::ui::segments::{self, Segment};
use crate::ui::theme::Theme;

/// What gives way first has the highest number: the context of where you are, then its
/// long form, then the other tabs' counts once they are short, where you are, the other
/// tabs' long names (down to three letters), the active tab's "· 3 new", the active tab's
/// long name, then the other tabs themselves; the active tab stays longest. No tab is ever a
/// bare number: it keeps a name, however short, for as long as it is shown.
const ACTIVE_TAB: u8 = 0;
const OTHER_TAB: u8 = 1;
const ACTIVE_NAME: u8 = 2;
const ACTIVE_NEWS: u8 = 3;
const OTHER_TAB_NAME: u8 = 4;
const POSITION_GONE: u8 = 5;
const OTHER_TAB_COUNT: u8 = 6;
const POSITION: u8 = 7;
const CONTEXT: u8 = 8;
/// The tabs are one group, the position text another (joined by " · ").
const TABS: u8 = 0;
const WHERE: u8 = 1;

pub(super) fn draw_tabs(screen: &ReviewScreen, frame: &mut Canvas, area: Rect, theme: &Theme) {
    let mut line = tab_segments(screen, theme);
    let tabs = line.len();
    line.extend(position_segments(screen, theme));
    let placed = segments::fit(&line, usize::from(area.width));
    let active = ReviewTab::ALL
        .iter()
        .position(|tab| *tab == screen.tab)
        .unwrap_or(0);
    for piece in placed.iter().filter(|piece| piece.index < tabs) {
        let offset = u16::try_from(piece.x).unwrap_or(u16::MAX);
        let bar = Rect {
            x: area.x.saturating_add(offset),
            width: area.width.saturating_sub(offset),
            ..area
        };
        // A tab takes its label and the gap after it.
        let cells = [piece.width() + 1];
        frame
            .hits
            .record_tabs(bar, piece.index, &cells, (active, ReviewTab::ALL.len()));
    }
    frame.render_widget(Paragraph::new(segments::to_line(&line, &placed)), area);
}

/// " 3 Comments (12) · 3 new ", then " 3 Comments (12) ", then "3 Cmt (12) " and "3 Cmt ".
/// The short forms of an inactive tab have no padding before them: it has no background,
/// and the room buys a name at 40 columns.
fn tab_segments(screen: &ReviewScreen, theme: &Theme) -> Vec<Segment> {
    let counts = screen.bundle.value().map(|b| {
        [
            None,
            Some(screen.pages.len()),
            Some(b.threads.len()),
            Some(b.reviews.iter().filter(|r| !r.outdated).count()),
        ]
    });
    ReviewTab::ALL
        .iter()
        .enumerate()
        .map(|(index, tab)| {
            let key = index + 1;
            let count = counts
                .and_then(|c| c[index])
                .map(|count| format!(" ({count})"))
                .unwrap_or_default();
            let new = match screen.new_thread_count() {
                new if *tab == ReviewTab::Comments && counts.is_some() && new > 0 => {
                    format!(" · {new} new")
                }
                _ => String::new(),
            };
            let (label, short) = (tab.label(), tab.short_label());
            let active = *tab == screen.tab;
            let gone = if active { ACTIVE_TAB } else { OTHER_TAB };
            let mut segment = Segment::new(format!(" {key} {label}{count}{new} "), gone);
            let long = format!(" {key} {label}{count} ");
            if active {
                if !new.is_empty() {
                    segment = segment.or_at(long, ACTIVE_NEWS);
                }
                segment
                    .or_at(format!(" {key} {short}{count} "), ACTIVE_NAME)
                    .styled(theme.style("tab_active"))
                    .in_group(TABS)
            } else {
                if !new.is_empty() {
                    segment = segment.or_at(long, OTHER_TAB_NAME);
                }
                segment
                    .or_at(format!("{key} {short}{count} "), OTHER_TAB_NAME)
                    .or_at(format!("{key} {short} "), OTHER_TAB_COUNT)
                    .styled(theme.style("tab_inactive"))
                    .in_group(TABS)
            }
        })
        .collect()
}

/// Where you are in the shown tab, each counter with its shorter form.
fn position_segments(screen: &ReviewScreen, theme: &Theme) -> Vec<Segment> {
    let muted = theme.style("muted");
    let segment = |text: String, priority: u8| {
        Segment::new(text, priority)
            .styled(muted)
            .after(" · ")
            .in_group(WHERE)
    };
    let mut line = Vec::new();
    match screen.tab {
        ReviewTab::Changes => {
            if screen.since_label().is_some() {
                let ago = screen.last_review_ago();
                line.push(
                    segment(format!("since last visit{ago}"), CONTEXT).or("since last visit"),
                );
                if screen.since_against_main() {
                    line.push(segment("not opened then: vs main".into(), CONTEXT).or("vs main"));
                }
            }
            line.extend(counters(screen).into_iter().map(|counter| {
                let (long, short) = counter;
                segment(long, POSITION_GONE).or_at(short, POSITION)
            }));
        }
        ReviewTab::Comments => {
            // The author first: the filter that hides the most is seen at 80 columns.
            if let Some(author) = &screen.author_filter {
                line.push(segment(
                    format!("by {}", crate::ui::sanitize::sanitize(&author.name)),
                    POSITION,
                ));
            }
            if let Some((at, of)) = super::super::actions::triage_counter(screen) {
                line.push(
                    segment(format!("unresolved {at}/{of}"), POSITION_GONE)
                        .or_at(format!("{at}/{of}"), POSITION),
                );
            }
            line.push(segment(
                format!("showing {}", screen.thread_filter.label()),
                CONTEXT,
            ));
        }
        ReviewTab::Reviews | ReviewTab::Overview => {}
    }
    line
}

/// The search's match, or the change and the page: each as a long and a short form.
fn counters(screen: &ReviewScreen) -> Vec<(String, String)> {
    if let Some((at, of)) = screen.search_counter() {
        let short = if of == 0 {
            "no match".to_string()
        } else {
            format!("match {at}/{of}")
        };
        return vec![(screen.search_label((at, of)), short)];
    }
    let mut counters = Vec::new();
    if let Some((at, of)) = screen.hunk_counter() {
        counters.push((format!("change {at}/{of}"), format!("{at}/{of}")));
    }
    if let Some((at, of)) = screen.page_counter() {
        counters.push((format!("page {at}/{of}"), format!("p{at}/{of}")));
    }
    counters
}
