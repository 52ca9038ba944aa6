//! Lines made of segments (tab labels with counts, position counters, summaries) fitted into
//! a width. A segment is shown whole, in one of its deliberate shorter forms, or not at all:
//! it is never cut, so a number or a word is never left half drawn ("3/18" for "3/1800").

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::ui::text;

/// One piece of a line: its forms, longest first, and how much it matters.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    forms: Vec<String>,
    /// Lower stays longer: the highest priority number shrinks (then goes) first.
    priority: u8,
    style: Style,
    /// Drawn before the segment when another is shown before it.
    separator: &'static str,
}

impl Segment {
    pub fn new(text: impl Into<String>, priority: u8) -> Segment {
        Segment {
            forms: vec![text.into()],
            priority,
            style: Style::default(),
            separator: " ",
        }
    }

    /// A shorter form, used when the longer ones do not fit (add them longest first).
    pub fn or(mut self, shorter: impl Into<String>) -> Segment {
        self.forms.push(shorter.into());
        self
    }

    pub fn styled(mut self, style: Style) -> Segment {
        self.style = style;
        self
    }

    /// What stands between this segment and the one shown before it (a space unless told).
    pub fn after(mut self, separator: &'static str) -> Segment {
        self.separator = separator;
        self
    }
}

/// A segment as drawn: which one, in which form, where it starts on the line.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Its index among the segments given.
    pub index: usize,
    /// The form shown, whole.
    pub text: String,
    /// Cells from the line's start to the form's first cell.
    pub x: usize,
    pub style: Style,
}

impl Placed {
    pub fn width(&self) -> usize {
        text::width(&self.text)
    }
}

/// Which form each segment shows in `width` cells (None: left out). The least important
/// segment gives way first, one form at a time (ties: the least shrunk, then the rightmost);
/// whatever room that frees is then handed back, most important first.
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
    for (order, piece) in placed.iter().enumerate() {
        if order > 0 {
            spans.push(Span::raw(segments[piece.index].separator));
        }
        spans.push(Span::styled(piece.text.clone(), piece.style));
    }
    Line::from(spans)
}

fn used(segments: &[Segment], chosen: &[Option<usize>]) -> usize {
    let mut total = 0;
    let mut first = true;
    for (segment, form) in segments.iter().zip(chosen) {
        let Some(form) = form else { continue };
        if !first {
            total += text::width(segment.separator);
        }
        first = false;
        total += text::width(&segment.forms[*form]);
    }
    total
}

/// The shown segment that gives way next: the least important; among equals one that can
/// still shrink before one that would go, the least shrunk so far (so "change 1/4 · page
/// 1/4" becomes "1/4 · p1/4" before either goes), then the rightmost.
fn next_to_give_way(segments: &[Segment], chosen: &[Option<usize>]) -> Option<usize> {
    chosen
        .iter()
        .enumerate()
        .filter_map(|(index, form)| form.map(|form| (index, form)))
        .max_by_key(|(index, form)| {
            let can_shrink = form + 1 < segments[*index].forms.len();
            (
                segments[*index].priority,
                can_shrink,
                usize::MAX - form,
                *index,
            )
        })
        .map(|(index, _)| index)
}

/// Lets segments take longer forms again, most important first (ties: leftmost), while the
/// line still fits: a segment that shrank early may have room once another went.
fn hand_back_room(segments: &[Segment], chosen: &mut [Option<usize>], width: usize) {
    let mut order: Vec<usize> = (0..segments.len()).collect();
    order.sort_by_key(|index| (segments[*index].priority, *index));
    for index in order {
        let longest_first = 0..chosen[index].unwrap_or(segments[index].forms.len());
        for form in longest_first {
            let before = chosen[index];
            chosen[index] = Some(form);
            if used(segments, chosen) <= width {
                break;
            }
            chosen[index] = before;
        }
    }
}

fn place(segments: &[Segment], chosen: &[Option<usize>]) -> Vec<Placed> {
    let mut placed = Vec::new();
    let mut x = 0;
    for (index, (segment, form)) in segments.iter().zip(chosen).enumerate() {
        let Some(form) = form else { continue };
        if !placed.is_empty() {
            x += text::width(segment.separator);
        }
        let text = segment.forms[*form].clone();
        let cells = text::width(&text);
        placed.push(Placed {
            index,
            text,
            x,
            style: segment.style,
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
            Segment::new("change 1/4", 3).or("1/4"),
            Segment::new("page 1/4", 3).or("p1/4").after(" · "),
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
            .flat_map(|segment| segment.forms.iter())
            .flat_map(|form| numbers(form))
            .collect();
        for width in 0..=200 {
            let placed = fit(&segments, width);
            let drawn = to_line(&segments, &placed).to_string();
            assert!(text::width(&drawn) <= width, "{width}: {drawn}");
            for piece in &placed {
                assert!(
                    segments[piece.index].forms.contains(&piece.text),
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
