//! Lines made of segments (tab labels with counts, position counters, summaries) fitted into
//! a width. A segment is shown whole, in one of its deliberate shorter forms, or not at all:
//! it is never cut, so a number or a word is never left half drawn ("3/18" for "3/1800").

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::text;

/// One piece of a line: its forms, longest first, and how much it matters.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Each form (its spans, drawn over the segment's style) with the priority of the step
    /// that shrinks the segment into it (the first form's is unused).
    forms: Vec<(Vec<Span<'static>>, u8)>,
    /// Of the step that leaves the segment out. Lower stays longer: of all the steps that
    /// can be taken, the one with the highest number is taken first.
    priority: u8,
    style: Style,
    /// Drawn before the segment when the one shown before it is of its group.
    separator: &'static str,
    /// Segments of one group ("change 1/4 · page 1/4") are joined by their separator; a
    /// segment after one of another group is set apart by a space.
    group: u8,
}

impl Segment {
    pub fn new(text: impl Into<String>, priority: u8) -> Segment {
        Segment {
            forms: vec![(vec![Span::raw(text.into())], priority)],
            priority,
            style: Style::default(),
            separator: " ",
            group: 0,
        }
    }

    /// A shorter form, used when the longer ones do not fit (add them longest first).
    pub fn or(self, shorter: impl Into<String>) -> Segment {
        let priority = self.priority;
        self.or_at(shorter, priority)
    }

    /// A shorter form taken at another priority than the segment's: an inactive tab can
    /// shrink to its number early yet be left out late.
    pub fn or_at(mut self, shorter: impl Into<String>, priority: u8) -> Segment {
        self.forms.push((vec![Span::raw(shorter.into())], priority));
        self
    }

    /// A segment of differently styled pieces ("published: " muted, "all" lit).
    pub fn spans(spans: Vec<Span<'static>>, priority: u8) -> Segment {
        let mut segment = Segment::new("", priority);
        segment.forms[0].0 = spans;
        segment
    }

    /// A shorter form of styled pieces.
    pub fn or_spans(mut self, shorter: Vec<Span<'static>>) -> Segment {
        self.forms.push((shorter, self.priority));
        self
    }

    /// The text of a form, all its pieces together.
    fn form(&self, form: usize) -> String {
        self.forms[form]
            .0
            .iter()
            .map(|span| span.content.as_ref())
            .collect()
    }

    pub fn styled(mut self, style: Style) -> Segment {
        self.style = style;
        self
    }

    /// What stands between this segment and the one of its group shown before it (a space
    /// unless told).
    pub fn after(mut self, separator: &'static str) -> Segment {
        self.separator = separator;
        self
    }

    pub fn in_group(mut self, group: u8) -> Segment {
        self.group = group;
        self
    }
}

/// Between segments of different groups.
const GROUP_GAP: &str = " ";

/// A segment as drawn: which one, in which form, where it starts on the line.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Its index among the segments given.
    pub index: usize,
    /// The form shown, whole.
    pub text: String,
    /// Cells from the line's start to the form's first cell.
    pub x: usize,
    /// The form's pieces, each styled over the segment's style.
    pub spans: Vec<Span<'static>>,
}

impl Placed {
    pub fn width(&self) -> usize {
        text::width(&self.text)
    }
}

/// Which form each segment shows in `width` cells (None: left out). Steps are taken least
/// important first: a segment shrinks one form at a time, then goes (ties: a segment that can
/// still shrink before one that would go, the least shrunk, then the rightmost). Whatever
/// room that frees is then handed back, most important step first.
pub fn fit(segments: &[Segment], width: usize) -> Vec<Placed> {
    let mut chosen: Vec<Option<usize>> = segments
        .iter()
        .map(|segment| (!segment.forms.is_empty()).then_some(0))
        .collect();
    while used(segments, &chosen) > width {
        let Some(victim) = next_to_give_way(segments, &chosen) else {
            break;
        };
        chosen[victim] = chosen[victim]
            .map(|form| form + 1)
            .filter(|form| *form < segments[victim].forms.len());
    }
    hand_back_room(segments, &mut chosen, width);
    place(segments, &chosen)
}

/// The segments fitted into `width` as one line.
pub fn line(segments: &[Segment], width: usize) -> Line<'static> {
    to_line(segments, &fit(segments, width))
}

/// Placed segments as one line, separators unstyled between them.
pub fn to_line(segments: &[Segment], placed: &[Placed]) -> Line<'static> {
    let mut spans = Vec::new();
    let mut previous = None;
    for piece in placed {
        if let Some(previous) = previous {
            spans.push(Span::raw(gap(segments, previous, piece.index)));
        }
        spans.extend(piece.spans.iter().cloned());
        previous = Some(piece.index);
    }
    Line::from(spans)
}

/// What stands between two shown segments.
fn gap(segments: &[Segment], previous: usize, next: usize) -> &'static str {
    if segments[previous].group == segments[next].group {
        segments[next].separator
    } else {
        GROUP_GAP
    }
}

fn used(segments: &[Segment], chosen: &[Option<usize>]) -> usize {
    let mut total = 0;
    let mut previous = None;
    for (index, (segment, form)) in segments.iter().zip(chosen).enumerate() {
        let Some(form) = form else { continue };
        if let Some(previous) = previous {
            total += text::width(gap(segments, previous, index));
        }
        previous = Some(index);
        total += text::width(&segment.form(*form));
    }
    total
}

/// The shown segment that gives way next: the one whose next step is the least important;
/// among equals one that can still shrink before one that would go, the least shrunk so far
/// (so "change 1/4 · page 1/4" becomes "1/4 · p1/4" before either goes), then the rightmost.
fn next_to_give_way(segments: &[Segment], chosen: &[Option<usize>]) -> Option<usize> {
    chosen
        .iter()
        .enumerate()
        .filter_map(|(index, form)| form.map(|form| (index, form)))
        .max_by_key(|(index, form)| {
            let segment = &segments[*index];
            let shrinks_to = segment.forms.get(form + 1);
            (
                shrinks_to.map_or(segment.priority, |(_, priority)| *priority),
                shrinks_to.is_some(),
                usize::MAX - form,
                *index,
            )
        })
        .map(|(index, _)| index)
}

/// Undoes steps while the line still fits, one at a time, the most important step first
/// (ties: leftmost): a segment that shrank early may have room once another went.
fn hand_back_room(segments: &[Segment], chosen: &mut [Option<usize>], width: usize) {
    loop {
        let mut undos: Vec<(u8, usize, Option<usize>)> = segments
            .iter()
            .enumerate()
            .filter_map(|(index, segment)| match chosen[index] {
                Some(0) => None,
                Some(form) => Some((segment.forms[form].1, index, Some(form - 1))),
                None => Some((
                    segment.priority,
                    index,
                    Some(segment.forms.len().checked_sub(1)?),
                )),
            })
            .collect();
        undos.sort_by_key(|(priority, index, _)| (*priority, *index));
        let undone = undos.into_iter().any(|(_, index, form)| {
            let before = chosen[index];
            chosen[index] = form;
            if used(segments, chosen) <= width {
                return true;
            }
            chosen[index] = before;
            false
        });
        if !undone {
            return;
        }
    }
}

fn place(segments: &[Segment], chosen: &[Option<usize>]) -> Vec<Placed> {
    let mut placed: Vec<Placed> = Vec::new();
    let mut x = 0;
    for (index, (segment, form)) in segments.iter().zip(chosen).enumerate() {
        let Some(form) = form else { continue };
        if let Some(previous) = placed.last() {
            x += text::width(gap(segments, previous.index, index));
        }
        let text = segment.form(*form);
        let cells = text::width(&text);
        let spans = segment.forms[*form]
            .0
            .iter()
            .map(|span| Span::styled(span.content.clone(), segment.style.patch(span.style)))
            .collect();
        placed.push(Placed {
            index,
            text,
            x,
            spans,
        });
        x += cells;
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(segments: &[Segment], width: usize) -> String {
        line(segments, width).to_string()
    }

    fn review_line() -> Vec<Segment> {
        vec![
            Segment::new(" 1 Overview ", 2).or(" 1 "),
            Segment::new(" 2 Changes (4) ", 0).or(" 2 (4) "),
            Segment::new(" 3 Comments (1800) · 3 new ", 2)
                .or(" 3 Comments (1800) ")
                .or(" 3 (1800) "),
            Segment::new(" 4 Reviews (1) ", 2).or(" 4 (1) "),
            Segment::new("change 1/4", 3).or("1/4").in_group(1),
            Segment::new("page 1/4", 3)
                .or("p1/4")
                .after(" · ")
                .in_group(1),
        ]
    }

    #[test]
    fn everything_shows_whole_when_it_fits() {
        let segments = review_line();
        assert_eq!(
            shown(&segments, 200),
            " 1 Overview   2 Changes (4)   3 Comments (1800) · 3 new   4 Reviews (1)  change 1/4 · page 1/4"
        );
    }

    #[test]
    fn counters_take_their_short_forms_together_before_one_goes() {
        let segments = vec![
            Segment::new("change 1/4", 0).or("1/4"),
            Segment::new("page 1/4", 0).or("p1/4").after(" · "),
        ];
        assert_eq!(shown(&segments, 21), "change 1/4 · page 1/4");
        assert_eq!(shown(&segments, 20), "change 1/4 · p1/4");
        // Once "change" has shrunk, the page's long form fits again: it is handed back.
        assert_eq!(shown(&segments, 16), "1/4 · page 1/4");
        assert_eq!(shown(&segments, 13), "1/4 · p1/4");
        assert_eq!(shown(&segments, 9), "1/4");
        assert_eq!(shown(&segments, 2), "");
    }

    #[test]
    fn the_most_important_segment_keeps_its_long_form_longest() {
        let segments = review_line();
        let narrow = shown(&segments, 40);
        assert!(narrow.contains(" 2 Changes (4) "), "{narrow}");
        assert!(!narrow.contains("change"), "{narrow}");
        assert!(text::width(&narrow) <= 40);
    }

    #[test]
    fn a_step_can_come_earlier_than_leaving_the_segment_out() {
        // Other tabs shrink to their number before the active one loses its note, and go
        // only after it has.
        let segments = vec![
            Segment::new(" 1 Overview ", 1).or_at(" 1 ", 3),
            Segment::new(" 3 Comments (27) · 1 new ", 0)
                .or_at(" 3 Comments (27) ", 2)
                .or(" 3 (27) "),
            Segment::new(" 4 Reviews (1) ", 1).or_at(" 4 (1) ", 3),
        ];
        assert_eq!(
            shown(&segments, 40),
            " 1   3 Comments (27) · 1 new   4 (1) "
        );
        assert_eq!(shown(&segments, 30), " 1   3 Comments (27)   4 (1) ");
        assert_eq!(shown(&segments, 26), " 1   3 Comments (27) ");
    }

    #[test]
    fn room_freed_later_is_handed_back() {
        // The long tail went first; once the middle shrank, the tail's short form fits again.
        let segments = vec![
            Segment::new("aaaa", 0),
            Segment::new("bbbbbbbb", 1).or("b"),
            Segment::new("cccccc", 2).or("c"),
        ];
        assert_eq!(shown(&segments, 8), "aaaa b c");
    }

    #[test]
    fn a_group_is_joined_by_its_separator_and_set_apart_by_a_space() {
        let segments = vec![
            Segment::new("tab", 0),
            Segment::new("since", 2).in_group(1),
            Segment::new("1/4", 1).after(" · ").in_group(1),
        ];
        assert_eq!(shown(&segments, 20), "tab since · 1/4");
        assert_eq!(shown(&segments, 10), "tab 1/4");
    }

    #[test]
    fn positions_count_the_separators() {
        let segments = vec![Segment::new("ab", 0), Segment::new("cd", 0).after(" · ")];
        let placed = fit(&segments, 10);
        assert_eq!(placed[1].x, 5);
        assert_eq!(placed[1].width(), 2);
    }

    /// Every number drawn is one that was given, whole: nothing is cut inside a number.
    #[test]
    fn at_every_width_numbers_are_whole_and_the_line_fits() {
        let segments = review_line();
        let numbers = |text: &str| -> Vec<String> {
            text.split(|c: char| !c.is_ascii_digit())
                .filter(|part| !part.is_empty())
                .map(str::to_string)
                .collect()
        };
        let known: Vec<String> = segments
            .iter()
            .flat_map(|segment| (0..segment.forms.len()).map(|form| segment.form(form)))
            .flat_map(|form| numbers(&form))
            .collect();
        for width in 0..=200 {
            let placed = fit(&segments, width);
            let drawn = to_line(&segments, &placed).to_string();
            assert!(text::width(&drawn) <= width, "{width}: {drawn}");
            for piece in &placed {
                assert!(
                    (0..segments[piece.index].forms.len())
                        .any(|form| segments[piece.index].form(form) == piece.text),
                    "{width}: {} is not one of its forms",
                    piece.text
                );
            }
            for number in numbers(&drawn) {
                assert!(known.contains(&number), "{width}: {number} in {drawn}");
            }
        }
    }
}
