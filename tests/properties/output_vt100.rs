//! What quire writes to the terminal, checked by a terminal: each frame's bytes go into a
//! `vt100` parser and the parsed screen (characters, colours, attributes) must be the frame
//! quire meant to draw — after scrolls up and down by a line and by a page, with wide
//! characters, hyperlinks and colours in the scrolled lines, and after random scrolls and edits.

use proptest::prelude::*;
use quire::output::{Output, OutputOptions};
use ratatui::buffer::{Buffer, CellDiffOption, CellWidth};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

const LINK: Style = Style::new().fg(Color::DarkGray);

/// A page of every kind of line the reader shows.
fn document() -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for n in 0..120 {
        let line = match n % 9 {
            0 => Line::from(vec![
                Span::styled(
                    format!("Heading {n}"),
                    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
                ),
                Span::raw(" and some text"),
            ]),
            1 => Line::from(format!(
                "Plain paragraph text number {n} that runs along the row"
            )),
            2 => Line::from(vec![
                Span::raw("see "),
                Span::styled(format!("⟨https://docs.example/page/{n}⟩"), LINK),
                Span::raw(" for more"),
            ]),
            3 => Line::from(vec![
                Span::styled("日本語のテキスト", Style::new().fg(Color::Indexed(208))),
                Span::raw(format!(" 你好 {n} ")),
                Span::styled("🚀 launch 👍", Style::new().fg(Color::Rgb(10, 200, 30))),
            ]),
            4 => Line::from(Span::styled(
                format!("    let value_{n} = compute(\"code\");   "),
                Style::new()
                    .fg(Color::Rgb(200, 120, 40))
                    .bg(Color::Indexed(236)),
            )),
            5 => Line::from(vec![
                Span::styled("italic", Style::new().add_modifier(Modifier::ITALIC)),
                Span::raw(" "),
                Span::styled(
                    "underlined",
                    Style::new()
                        .add_modifier(Modifier::UNDERLINED)
                        .fg(Color::LightBlue),
                ),
                Span::raw(" "),
                Span::styled(format!("dim {n}"), Style::new().add_modifier(Modifier::DIM)),
            ]),
            6 => Line::from(""),
            7 => Line::from(vec![
                Span::raw("│ "),
                Span::styled(
                    format!("quoted {n}"),
                    Style::new().fg(Color::Yellow).bg(Color::Blue),
                ),
                Span::styled("   ", Style::new().bg(Color::Blue)),
            ]),
            _ => Line::from(format!("{n:>3}. a list item")),
        };
        lines.push(line);
    }
    lines
}

/// The reader as quire draws it: a title row, the page from `offset`, a status row; `edits`
/// change single cells on top.
fn reader_frame(
    width: u16,
    height: u16,
    document: &[Line<'static>],
    offset: usize,
    edits: &[(u16, u16, char)],
) -> Buffer {
    let area = Rect::new(0, 0, width, height);
    let mut buffer = Buffer::empty(area);
    let title = Style::new()
        .fg(Color::White)
        .bg(Color::Blue)
        .add_modifier(Modifier::BOLD);
    buffer.set_style(Rect::new(0, 0, width, 1), title);
    buffer.set_string(1, 0, "Quickstart  /quickstart", title);
    let body = Rect::new(0, 1, width, height - 2);
    let visible: Vec<Line> = document
        .iter()
        .skip(offset)
        .take(usize::from(body.height))
        .cloned()
        .collect();
    Paragraph::new(visible.clone()).render(body, &mut buffer);
    quire::ui::hyperlink::apply(&mut buffer, body, &visible, LINK);
    let status = Style::new().add_modifier(Modifier::REVERSED);
    buffer.set_style(Rect::new(0, height - 1, width, 1), status);
    buffer.set_string(
        0,
        height - 1,
        format!(" line {offset} of {} ", document.len()),
        status,
    );
    for &(x, y, c) in edits {
        if let Some(cell) = buffer.cell_mut((x % width, y % height)) {
            // Only over plain cells, as a widget would write (never half a wide character).
            if cell.symbol().cell_width() == 1 && cell.diff_option == CellDiffOption::None {
                cell.set_char(c).set_fg(Color::Magenta);
            }
        }
    }
    buffer
}

fn vt100_colour(colour: Color) -> vt100::Color {
    match colour {
        Color::Reset => vt100::Color::Default,
        Color::Black => vt100::Color::Idx(0),
        Color::Red => vt100::Color::Idx(1),
        Color::Green => vt100::Color::Idx(2),
        Color::Yellow => vt100::Color::Idx(3),
        Color::Blue => vt100::Color::Idx(4),
        Color::Magenta => vt100::Color::Idx(5),
        Color::Cyan => vt100::Color::Idx(6),
        Color::Gray => vt100::Color::Idx(7),
        Color::DarkGray => vt100::Color::Idx(8),
        Color::LightRed => vt100::Color::Idx(9),
        Color::LightGreen => vt100::Color::Idx(10),
        Color::LightYellow => vt100::Color::Idx(11),
        Color::LightBlue => vt100::Color::Idx(12),
        Color::LightMagenta => vt100::Color::Idx(13),
        Color::LightCyan => vt100::Color::Idx(14),
        Color::White => vt100::Color::Idx(15),
        Color::Indexed(index) => vt100::Color::Idx(index),
        Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
    }
}

/// The text a cell shows: its symbol without the OSC 8 sequences riding in it.
fn shown_text(symbol: &str) -> String {
    let mut text = String::new();
    let mut rest = symbol;
    while let Some(start) = rest.find("\u{1b}]8;") {
        text.push_str(&rest[..start]);
        let after = &rest[start..];
        rest = after.find("\u{1b}\\").map_or("", |end| &after[end + 2..]);
    }
    text.push_str(rest);
    text
}

/// Panics, naming the first difference, unless the parsed screen shows `frame`.
fn assert_screen_shows(screen: &vt100::Screen, frame: &Buffer, context: &str) {
    let width = frame.area.width;
    for y in 0..frame.area.height {
        let mut x = 0;
        while x < width {
            let cell = &frame[(x, y)];
            let columns = match cell.diff_option {
                CellDiffOption::ForcedWidth(forced) => forced.get(),
                _ => cell.symbol().cell_width().max(1),
            };
            let parsed = screen.cell(y, x).expect("a cell on screen");
            let expected = shown_text(cell.symbol());
            // An erased cell holds nothing, a written blank a space: both show a blank.
            let text = match parsed.contents() {
                "" => " ",
                text => text,
            };
            let where_ = format!("{context}: row {y} column {x}");
            assert_eq!(text, expected, "{where_}: text");
            assert_eq!(
                parsed.bgcolor(),
                vt100_colour(cell.bg),
                "{where_}: background"
            );
            let blank = expected == " ";
            let reversed = cell.modifier.contains(Modifier::REVERSED);
            let underlined = cell.modifier.contains(Modifier::UNDERLINED);
            assert_eq!(parsed.inverse(), reversed, "{where_}: reverse");
            if !blank || reversed || underlined {
                assert_eq!(parsed.underline(), underlined, "{where_}: underline");
                assert_eq!(parsed.fgcolor(), vt100_colour(cell.fg), "{where_}: colour");
            }
            if !blank {
                let modifier = cell.modifier;
                assert_eq!(parsed.bold(), modifier.contains(Modifier::BOLD), "{where_}");
                assert_eq!(parsed.dim(), modifier.contains(Modifier::DIM), "{where_}");
                assert_eq!(
                    parsed.italic(),
                    modifier.contains(Modifier::ITALIC),
                    "{where_}"
                );
                assert_eq!(parsed.is_wide(), columns == 2, "{where_}: width");
            }
            x += columns;
        }
    }
}

/// A terminal fed only by quire's output, and the bytes each frame cost.
struct Terminal {
    output: Output,
    parser: vt100::Parser,
    bytes: Vec<u8>,
}

impl Terminal {
    fn new(width: u16, height: u16) -> Terminal {
        Terminal {
            output: Output::new(OutputOptions::default()),
            parser: vt100::Parser::new(height, width, 0),
            bytes: Vec::new(),
        }
    }

    /// Sends `frame` and checks the screen; returns the bytes it took.
    fn show(&mut self, frame: &Buffer, context: &str) -> usize {
        self.bytes.clear();
        self.output.encode(frame, None, &mut self.bytes);
        self.parser.process(&self.bytes);
        assert_screen_shows(self.parser.screen(), frame, context);
        self.bytes.len()
    }

    /// Whether the last frame set a scroll region (`ESC[top;bottomr`).
    fn set_a_region(&self) -> bool {
        let text = String::from_utf8_lossy(&self.bytes);
        text.split("\u{1b}[").any(|sequence| {
            sequence.split_once('r').is_some_and(|(numbers, _)| {
                numbers.contains(';') && numbers.chars().all(|c| c.is_ascii_digit() || c == ';')
            })
        })
    }

    /// The screen's rows without trailing blanks (erased and written blanks look alike).
    fn rows(&self) -> Vec<String> {
        let screen = self.parser.screen();
        screen
            .rows(0, screen.size().1)
            .map(|row| row.trim_end().to_string())
            .collect()
    }

    fn sent(&self, sequence: &str) -> bool {
        self.bytes
            .windows(sequence.len())
            .any(|window| window == sequence.as_bytes())
    }
}

/// Scrolls the reader through `offsets` and checks every frame; when `scroll` is given (e.g.
/// `ESC[S`, up by one) the body is scrolled by the terminal and costs less than a full redraw.
fn scroll_through(width: u16, height: u16, offsets: &[usize], scroll: Option<&str>) {
    let document = document();
    let mut terminal = Terminal::new(width, height);
    terminal.show(
        &reader_frame(width, height, &document, offsets[0], &[]),
        "first",
    );
    let full = {
        let mut fresh = Terminal::new(width, height);
        fresh.show(
            &reader_frame(width, height, &document, offsets[1], &[]),
            "fresh",
        )
    };
    let mut region_set = false;
    for &offset in &offsets[1..] {
        let frame = reader_frame(width, height, &document, offset, &[]);
        let bytes = terminal.show(&frame, &format!("{width}x{height} at line {offset}"));
        region_set |= terminal.set_a_region();
        let Some(scroll) = scroll else {
            continue;
        };
        // The first scroll sets the region; the next ones of the same band keep it.
        assert!(
            terminal.sent(scroll) && region_set,
            "scrolled with {scroll:?}: {:?}",
            String::from_utf8_lossy(&terminal.bytes)
        );
        assert!(bytes < full, "{bytes} bytes, a full redraw is {full}");
    }
}

#[test]
fn scrolling_down_one_line_at_a_time_draws_the_frame() {
    scroll_through(80, 24, &(0..30).collect::<Vec<_>>(), Some("\u{1b}[S"));
    scroll_through(200, 50, &(0..30).collect::<Vec<_>>(), Some("\u{1b}[S"));
}

#[test]
fn scrolling_up_one_line_at_a_time_draws_the_frame() {
    scroll_through(80, 24, &(0..30).rev().collect::<Vec<_>>(), Some("\u{1b}[T"));
}

#[test]
fn paging_down_and_up_draws_the_frame() {
    // Half a page is scrolled by the terminal; a whole page (less the one line the reader
    // keeps) leaves too little on screen for a region to pay, and is drawn plainly.
    scroll_through(80, 24, &[0, 11, 22, 33, 44], Some("\u{1b}[11S"));
    scroll_through(80, 24, &[44, 33, 22, 11, 0], Some("\u{1b}[11T"));
    scroll_through(80, 24, &[0, 21, 42, 63, 84, 63, 42, 21, 0], None);
    scroll_through(200, 50, &[0, 47, 94, 47, 0], None);
}

#[test]
fn one_line_scroll_sends_little_more_than_the_new_line() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    terminal.show(&reader_frame(80, 24, &document, 0, &[]), "first");
    // Line 22 comes in at the bottom: "  1 plain paragraph…" is line 19 + 3.
    let bytes = terminal.show(&reader_frame(80, 24, &document, 1, &[]), "one line");
    assert!(
        bytes < 130,
        "{bytes} bytes: {:?}",
        String::from_utf8_lossy(&terminal.bytes)
    );
}

#[test]
fn nothing_changed_sends_nothing() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    let frame = reader_frame(80, 24, &document, 3, &[]);
    terminal.show(&frame, "first");
    assert_eq!(terminal.show(&frame, "again"), 0);
}

#[test]
fn without_scroll_regions_no_region_is_set_and_the_screen_is_right() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    terminal.output = Output::new(OutputOptions {
        scroll_regions: false,
        ..OutputOptions::default()
    });
    for offset in [0, 1, 2, 22, 21] {
        terminal.show(&reader_frame(80, 24, &document, offset, &[]), "plain");
        assert!(!terminal.set_a_region(), "no scroll region");
    }
}

/// A tree on the left that moves, beside a page (wide characters, colours) that stays: the
/// screen shows each frame, and none of the page is sent again.
#[test]
fn a_split_pane_whose_left_side_moves_sends_nothing_of_the_right_side() {
    let document = document();
    let mut terminal = Terminal::new(100, 24);
    let split = |selected: u16| {
        let mut frame = reader_frame(100, 24, &document, 3, &[]);
        for y in 1..23 {
            let style = if y == selected {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            frame.set_string(0, y, format!(" page {y:02} of the tree │"), style);
        }
        frame
    };
    terminal.show(&split(1), "first");
    for selected in 2..23 {
        terminal.show(&split(selected), &format!("row {selected} selected"));
        let sent = String::from_utf8_lossy(&terminal.bytes).to_string();
        for page_text in ["launch", "日本語", "你好", "and some text"] {
            assert!(
                !sent.contains(page_text),
                "{page_text:?} sent again: {sent:?}"
            );
        }
    }
}

/// A tree scrolling a row at a time beside a preview whose page ends halfway down: its rows
/// change only on the left, are compared and hashed only there, and the rows below the page
/// are still scrolled by the terminal; the screen shows every frame, the page's included.
#[test]
fn a_tree_scrolling_beside_a_short_page_scrolls_the_rows_below_it() {
    let (width, height) = (120, 30);
    let page = [
        "Limits",
        "======",
        "",
        "Text of the page",
        "日本語 and 你好",
        "the end",
    ];
    let frame = |top: usize| {
        let mut frame = Buffer::empty(Rect::new(0, 0, width, height));
        frame.set_string(
            0,
            0,
            "Home › Space",
            Style::new().add_modifier(Modifier::REVERSED),
        );
        for y in 1..height - 1 {
            let page_number = top + usize::from(y);
            let style = if y == 5 {
                Style::new().bg(Color::Cyan)
            } else {
                Style::new()
            };
            frame.set_string(0, y, format!("  ▸ page {page_number:04}"), style);
            frame.set_string(40, y, "│", Style::new().fg(Color::DarkGray));
        }
        for (y, text) in (1..).zip(page) {
            frame.set_string(42, y, text, Style::new().fg(Color::Yellow));
        }
        frame.set_string(0, height - 1, "j down  k up", Style::new());
        frame
    };
    let mut terminal = Terminal::new(width, height);
    terminal.show(&frame(0), "first");
    let mut scrolled = 0;
    for top in 1..20 {
        terminal.show(&frame(top), &format!("tree from page {top}"));
        scrolled += usize::from(terminal.sent("\u{1b}[S"));
        assert!(
            !terminal.sent("Text of the page"),
            "the page was sent again"
        );
    }
    assert_eq!(scrolled, 19, "every move scrolled the rows below the page");
    let mut fresh = Terminal::new(width, height);
    fresh.show(&frame(19), "fresh");
    assert_eq!(fresh.rows(), terminal.rows());
}

#[test]
fn a_split_pane_that_scrolls_one_side_is_drawn_without_a_region() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    let split = |offset: usize| {
        let mut frame = reader_frame(80, 24, &document, offset, &[]);
        // A tree on the left that stays put.
        for y in 1..23 {
            frame.set_string(0, y, format!("tree row {y:02} │"), Style::new());
        }
        frame
    };
    terminal.show(&split(0), "first");
    terminal.show(&split(1), "right side scrolled");
    assert!(!terminal.set_a_region(), "no scroll region");
}

#[test]
fn a_resize_or_a_forgotten_screen_redraws_everything() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    terminal.show(&reader_frame(80, 24, &document, 0, &[]), "first");
    // Someone else wrote on the screen (an editor ran); quire forgets and redraws.
    terminal.parser.process(b"\x1b[2J\x1b[5;5Hjunk\x1b[41m");
    terminal.output.forget();
    terminal.show(&reader_frame(80, 24, &document, 0, &[]), "after forget");
    terminal.parser.screen_mut().set_size(30, 100);
    terminal.show(&reader_frame(100, 30, &document, 4, &[]), "resized");
}

/// The scroll region stays set between frames: the next one-line scroll of the same band is
/// only `ESC[S` (no region set again, none reset), and the screen stays right.
#[test]
fn the_scroll_region_stays_set_while_the_same_band_scrolls() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    terminal.show(&reader_frame(80, 24, &document, 0, &[]), "first");
    terminal.show(&reader_frame(80, 24, &document, 1, &[]), "first scroll");
    assert!(terminal.set_a_region(), "the first scroll sets the region");
    for offset in (2..12).chain((3..11).rev()) {
        terminal.show(
            &reader_frame(80, 24, &document, offset, &[]),
            &format!("line {offset}"),
        );
        assert!(
            !terminal.set_a_region() && !terminal.sent("\u{1b}[r"),
            "the region is kept: {:?}",
            String::from_utf8_lossy(&terminal.bytes)
        );
    }
}

/// With the region set (rows 1..23), drawing outside it is right: a change on the region's
/// bottom margin followed by one on the row below (a line feed there would scroll the region
/// instead of moving down), and changes above it and back inside.
#[test]
fn drawing_outside_a_kept_region_lands_where_it_should() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    terminal.show(&reader_frame(80, 24, &document, 0, &[]), "first");
    terminal.show(&reader_frame(80, 24, &document, 1, &[]), "scrolled");
    let margin_then_below = [(3, 22, '#'), (2, 23, '#')];
    terminal.show(
        &reader_frame(80, 24, &document, 1, &margin_then_below),
        "bottom margin, then the status row",
    );
    let everywhere = [
        (3, 22, '#'),
        (2, 23, '#'),
        (5, 0, 'x'),
        (6, 1, 'x'),
        (0, 23, 'x'),
    ];
    terminal.show(
        &reader_frame(80, 24, &document, 1, &everywhere),
        "title, region and status",
    );
    terminal.show(&reader_frame(80, 24, &document, 2, &[]), "scrolled again");
    terminal.show(
        &reader_frame(
            80,
            24,
            &document,
            2,
            &[(1, 21, '#'), (79, 22, '#'), (0, 23, '#')],
        ),
        "the last column of the bottom margin, then the status row",
    );
}

/// A resize, or a repaint from scratch (after `$EDITOR` or a suspend: `forget`), while a
/// region is kept: the region is reset with the clear, the screen is right, and the next
/// scroll sets the region again.
#[test]
fn a_resize_or_a_repaint_resets_a_kept_region() {
    let document = document();
    let mut terminal = Terminal::new(80, 24);
    terminal.show(&reader_frame(80, 24, &document, 0, &[]), "first");
    terminal.show(&reader_frame(80, 24, &document, 1, &[]), "scrolled");
    // Someone else used the screen, its own way (an editor with a region of its own).
    terminal.parser.process(b"\x1b[5;9r\x1b[2J\x1b[5;5Hjunk");
    terminal.output.forget();
    terminal.show(&reader_frame(80, 24, &document, 1, &[]), "repainted");
    assert!(terminal.sent("\u{1b}[r"), "the region is reset");
    terminal.show(
        &reader_frame(80, 24, &document, 2, &[]),
        "scrolled after a repaint",
    );
    assert!(terminal.set_a_region(), "the region is set again");
    terminal.parser.screen_mut().set_size(30, 100);
    terminal.show(&reader_frame(100, 30, &document, 2, &[]), "resized");
    assert!(terminal.sent("\u{1b}[r"), "the region is reset");
    terminal.show(
        &reader_frame(100, 30, &document, 3, &[]),
        "scrolled after a resize",
    );
    assert!(terminal.set_a_region(), "the region of the new size is set");
    terminal.show(&reader_frame(100, 30, &document, 4, &[]), "scrolled again");
    assert!(!terminal.set_a_region(), "and kept");
}

#[derive(Debug, Clone)]
enum Step {
    Scroll(i32),
    Edit(u16, u16, char),
    Resize(u16, u16),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => prop_oneof![Just(1), Just(-1), Just(20), Just(-20), -30i32..30].prop_map(Step::Scroll),
        3 => (0u16..200, 0u16..60, prop::sample::select(vec!['x', '#', 'é', ' ']))
            .prop_map(|(x, y, c)| Step::Edit(x, y, c)),
        1 => (20u16..120, 5u16..40).prop_map(|(w, h)| Step::Resize(w, h)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// After 100 random scrolls, edits and resizes the screen equals the frame, and a fresh
    /// redraw of that frame gives the same screen.
    #[test]
    fn random_scrolls_and_edits_keep_the_screen_right(steps in prop::collection::vec(step(), 100)) {
        let document = document();
        let (mut width, mut height) = (80u16, 24u16);
        let mut terminal = Terminal::new(width, height);
        let mut offset: usize = 10;
        let mut edits: Vec<(u16, u16, char)> = Vec::new();
        for (n, step) in steps.iter().enumerate() {
            match *step {
                Step::Scroll(lines) => {
                    offset = (offset as i64 + i64::from(lines)).clamp(0, 100) as usize;
                    edits.clear();
                }
                Step::Edit(x, y, c) => edits.push((x, y, c)),
                Step::Resize(w, h) => {
                    width = w;
                    height = h;
                    terminal.parser.screen_mut().set_size(h, w);
                }
            }
            let frame = reader_frame(width, height, &document, offset, &edits);
            terminal.show(&frame, &format!("step {n} ({step:?})"));
        }
        let mut fresh = Terminal::new(width, height);
        let frame = reader_frame(width, height, &document, offset, &edits);
        fresh.show(&frame, "fresh");
        prop_assert_eq!(fresh.rows(), terminal.rows());
    }
}
