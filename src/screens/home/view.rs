//! Home drawn: the sections as tabs with their counts, a line of what is known of the one
//! shown (loading, from the cache, what failed), and its rows fitted to the width.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{HomeScreen, key_of};
use crate::api::home::HomeRow;
use crate::screens::list_pane;
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::list::Table;
use crate::ui::sanitize::sanitize;
use crate::ui::table::Column;
use crate::ui::{status, text};
use crate::vocabulary::home::SectionState;

pub(super) fn draw(screen: &HomeScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let [tabs, note, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_tabs(screen, frame, tabs, look);
    draw_note(screen, frame, note, look);
    draw_rows(screen, frame, body, look);
}

/// ` Review requested from me (2)  Mine, open (3) … `: the section shown stands out; when they
/// do not all fit, the others shrink to their first word and count, then the gaps between
/// them go, then the one shown shrinks too.
fn draw_tabs(screen: &HomeScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let sections = &screen.board.sections;
    let full = |section: &SectionState| format!(" {}{} ", section.query.title, count(section));
    let short = |section: &SectionState| {
        let first_word = section.query.title.split_whitespace().next().unwrap_or("");
        format!(" {}{} ", first_word.trim_end_matches(','), count(section))
    };
    // (the shown one shortened too, a gap between tabs)
    let fittings = [(false, true), (false, false), (true, false)];
    let labels_for = |(shorten_active, _): (bool, bool)| -> Vec<String> {
        sections
            .iter()
            .enumerate()
            .map(|(index, section)| {
                if index == screen.tab && !shorten_active {
                    full(section)
                } else {
                    short(section)
                }
            })
            .collect()
    };
    let all_full: Vec<String> = sections.iter().map(full).collect();
    let width = |labels: &[String], gap: bool| -> usize {
        labels
            .iter()
            .map(|label| text::width(label) + usize::from(gap))
            .sum()
    };
    let (labels, gap) = if width(&all_full, true) <= usize::from(area.width) {
        (all_full, true)
    } else {
        fittings
            .iter()
            .map(|fitting| (labels_for(*fitting), fitting.1))
            .find(|(labels, gap)| width(labels, *gap) <= usize::from(area.width))
            .unwrap_or_else(|| (labels_for((true, false)), false))
    };
    // Still too wide (a narrow terminal): the tabs before the shown one give way, so that
    // the section shown is always named.
    let mut first = 0;
    while first < screen.tab
        && width(
            &labels[first..=screen.tab.min(labels.len().saturating_sub(1))],
            gap,
        ) > usize::from(area.width)
    {
        first += 1;
    }
    let mut spans = Vec::new();
    for (index, label) in labels.iter().enumerate().skip(first) {
        let style = if index == screen.tab {
            "tab_active"
        } else {
            "tab_inactive"
        };
        spans.push(Span::styled(
            sanitize(label).into_owned(),
            theme.style(style),
        ));
        if gap {
            spans.push(Span::raw(" "));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// `(3)` once the section's first answers are in; `(3+)` while organizations are still to
/// answer; nothing before.
fn count(section: &SectionState) -> String {
    match section.waiting {
        None => String::new(),
        Some(0) => format!(" ({})", section.rows.len()),
        Some(_) if section.rows.is_empty() => " (…)".to_string(),
        Some(_) => format!(" ({}+)", section.rows.len()),
    }
}

fn draw_note(screen: &HomeScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let section = screen.board.sections.get(screen.tab);
    let (words, style) = if let Some(error) = &screen.board.failed {
        (status::reload_failed_text(error), "error")
    } else if let Some((organization, problem)) = section.and_then(|s| s.problems.first()) {
        let place = organization
            .as_ref()
            .map(|organization| format!("{}: ", organization.title))
            .unwrap_or_default();
        (format!("{place}{problem}"), "error")
    } else if let Some(ping) = &screen.pings.last {
        (format!("● {ping}"), "info")
    } else if screen.from_cache {
        ("from the cache; asking the server…".to_string(), "muted")
    } else {
        (section.map(describe).unwrap_or_default(), "muted")
    };
    let line = Span::styled(sanitize(&words).into_owned(), theme.style(style));
    frame.render_widget(Paragraph::new(line), area);
}

/// What the section asks, in words: "open · review requested from you · newest update first".
fn describe(section: &SectionState) -> String {
    let query = &section.query;
    let mut parts = Vec::new();
    let statuses: Vec<String> = query.statuses.iter().map(ToString::to_string).collect();
    parts.push(match (query.marked, statuses.is_empty()) {
        (true, true) => "marked with W (W again unmarks) · any status".to_string(),
        (true, false) => format!("marked with W · {}", statuses.join(", ")),
        (false, true) => "open".to_string(),
        (false, false) => statuses.join(", "),
    });
    let person = |person: &crate::api::home::Person| match person {
        crate::api::home::Person::Me => "you".to_string(),
        crate::api::home::Person::User(id) => id.clone(),
    };
    if let Some(reviewer) = &query.requested_reviewer {
        parts.push(format!("review requested from {}", person(reviewer)));
    }
    if let Some(creator) = &query.creator {
        parts.push(format!("by {}", person(creator)));
    }
    if let Some(contributor) = &query.contributor {
        parts.push(format!("with {} contributing", person(contributor)));
    }
    if query.review.is_some() || query.mergeable {
        parts.push("approved, you may merge".to_string());
    }
    if !query.organizations.is_empty() {
        parts.push(format!("in {}", query.organizations.join(", ")));
    }
    parts.join(" · ")
}

fn draw_rows(screen: &HomeScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let Some(section) = screen.board.sections.get(screen.tab) else {
        return;
    };
    if screen.board.failed.is_some() && section.rows.is_empty() {
        return;
    }
    if section.rows.is_empty() {
        if screen.is_loading() || !section.is_complete() {
            status::loading(frame, area, look, "change requests");
        } else {
            status::empty(frame, area, look, "Nothing here: all caught up.");
        }
        return;
    }
    let now = look.now();
    let cells: Vec<[String; 9]> = section
        .rows
        .iter()
        .map(|row| cells(row, screen.new.contains(&key_of(row)), now))
        .collect();
    let selection = screen.selection();
    let table = Table::new(&COLUMNS, &cells, selection);
    list_pane::draw_table(frame, area, look, table, selection.selected);
}

fn cells(row: &HomeRow, new: bool, now: chrono::DateTime<chrono::Utc>) -> [String; 9] {
    [
        if new { "● new" } else { "" }.to_string(),
        row.organization.title.clone(),
        row.space.title.clone(),
        row.number.map(|n| format!("#{n}")).unwrap_or_default(),
        row.subject.clone(),
        row.author
            .as_ref()
            .map(|author| author.display_name.clone())
            .unwrap_or_default(),
        row.status
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
        row.review
            .map(|review| review.as_str().replace('-', " "))
            .unwrap_or_default(),
        row.updated_at
            .as_deref()
            .map(|at| crate::ui::time::relative(at, now))
            .unwrap_or_default(),
    ]
}

/// The subject takes the room the others leave; the mark, number and age stay whole; the
/// organization and the author go first when the width runs out.
const COLUMNS: [Column; 9] = [
    Column::whole("", 0),
    Column::cut("Organization", 6, 6),
    Column::cut("Space", 8, 3),
    Column::whole("#", 1),
    Column::cut("Subject", 24, 0).flex(),
    Column::cut("Author", 6, 5),
    Column::whole("Status", 4),
    Column::whole("Review", 2),
    Column::whole("Updated", 1),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::home::SectionQuery;

    #[test]
    fn a_section_counts_once_its_first_answers_are_in() {
        let mut section = crate::vocabulary::home::HomeBoard::new(vec![SectionQuery::open("x")])
            .sections
            .remove(0);
        assert_eq!(count(&section), "");
        section.waiting = Some(2);
        assert_eq!(count(&section), " (…)");
        section.waiting = Some(0);
        assert_eq!(count(&section), " (0)");
    }
}
