//! Turning the cells that changed into as few bytes as the terminal needs: the cheapest cursor
//! move (or writing the unchanged cells in between when that is shorter), erase-to-end-of-line
//! for blank tails, and only the colour and attribute changes between one cell and the next.

use std::io::Write as _;

use ratatui::buffer::{Cell, CellDiffOption, CellWidth};
use ratatui::style::{Color, Modifier};

use super::moves::{csi_count, move_sequence, vertical_moves_safe};

/// Modifiers that show on a blank cell; the others (bold, italic, …) only change letters.
pub(super) const VISIBLE_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::SLOW_BLINK)
    .union(Modifier::RAPID_BLINK)
    .union(Modifier::CROSSED_OUT);

/// Gaps of unchanged cells longer than this are always skipped with a cursor move: writing them
/// can never be shorter than the longest move (`ESC[999;999H` is 10 bytes).
const LONGEST_GAP_WORTH_WRITING: u16 = 10;

/// Closes an OSC 8 hyperlink.
const LINK_CLOSE: &[u8] = b"\x1b]8;;\x1b\\";

/// The colours and attributes the terminal writes new text with (its SGR state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pen {
    fg: Color,
    bg: Color,
    underline: Color,
    modifier: Modifier,
}

impl Pen {
    pub(super) const DEFAULT: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        underline: Color::Reset,
        modifier: Modifier::empty(),
    };

    fn of(cell: &Cell) -> Pen {
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            underline: cell.underline_color,
            modifier: cell.modifier,
        }
    }

    /// This pen with what would show on erased cells taken off: erasing (EL, ED, SU) fills with
    /// the current background, and on some terminals with reverse or underline too.
    fn for_erasing(self) -> Pen {
        Pen {
            bg: Color::Reset,
            modifier: self.modifier - VISIBLE_ON_BLANK,
            ..self
        }
    }

    fn erases_clean(self) -> bool {
        self == self.for_erasing()
    }
}

/// What we know of the terminal between frames. `None` means unknown: the next use sends the
/// full sequence instead of a relative one.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct TerminalState {
    pub(super) pen: Option<Pen>,
    /// Where the next character lands. Unknown after writing the last column (the terminal
    /// waits to wrap) and after setting a scroll region.
    pub(super) cursor: Option<(u16, u16)>,
    /// The scroll region left set on the terminal, rows `top..bottom`; `None` for the whole
    /// screen. Kept between frames: the next scroll of the same band then costs only `ESC[S`.
    /// Known whenever the screen is: forgetting the screen also sends `ESC[r` with the clear.
    pub(super) band: Option<(u16, u16)>,
    pub(super) cursor_visible: Option<bool>,
    /// A hyperlink was opened and not closed: text written now would join it.
    pub(super) link_open: bool,
}

/// One character on screen: where it starts and how many columns it covers.
#[derive(Debug, Clone, Copy)]
pub(super) struct Glyph {
    pub(super) x: u16,
    pub(super) width: u16,
    /// The symbol can't be written as it is (no width, or it would not fit in the row): a
    /// blank stands in for it, as the terminal would show nothing there either.
    blank_instead: bool,
}

/// The characters of one row, each starting where the previous one ends.
pub(super) fn glyphs(row: &[Cell]) -> Vec<Glyph> {
    let mut glyphs = Vec::with_capacity(row.len());
    let mut x = 0u16;
    while let Some(glyph) = glyph_at(row, x) {
        glyphs.push(glyph);
        x += glyph.width;
    }
    glyphs
}

/// The character of `row` that starts at column `x`; `None` past the row's end.
fn glyph_at(row: &[Cell], x: u16) -> Option<Glyph> {
    let width = u16::try_from(row.len()).unwrap_or(u16::MAX);
    let cell = row.get(usize::from(x)).filter(|_| x < width)?;
    let columns = match cell.diff_option {
        CellDiffOption::ForcedWidth(forced) => forced.get(),
        _ => symbol_width(cell.symbol()),
    };
    let fits = columns > 0 && columns <= width - x;
    Some(Glyph {
        x,
        width: if fits { columns } else { 1 },
        blank_instead: !fits,
    })
}

/// The columns `symbol` takes: most are one printable ASCII byte, one column, known without
/// asking Unicode's tables.
#[inline(always)]
fn symbol_width(symbol: &str) -> u16 {
    match symbol.as_bytes() {
        [byte] if (b' '..=b'~').contains(byte) => 1,
        _ => symbol.cell_width(),
    }
}

/// Whether a cell the screen shows needs nothing sent to become `new`: the same in every way
/// (underline colour included, which `Cell`'s equality may leave out) and not forced out.
///
/// Field by field, the cheap ones first: every cell of a changed row's unchanged part is
/// compared on every frame, and `Cell`'s own equality, a call that compares the symbols first
/// through `memcmp`, was most of that.
#[inline(always)]
pub(super) fn cell_unchanged(shown: &Cell, new: &Cell) -> bool {
    #[allow(deprecated)]
    let same_skip = shown.skip == new.skip;
    shown.fg == new.fg
        && shown.bg == new.bg
        && shown.modifier == new.modifier
        && shown.underline_color == new.underline_color
        && shown.diff_option == new.diff_option
        && new.diff_option != CellDiffOption::AlwaysUpdate
        && same_skip
        && same_symbol(shown.symbol(), new.symbol())
}

/// Whether two symbols are the same, compared in place: they are a byte or a few.
fn same_symbol(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(a, b)| a == b)
}

/// The first column at or after `from` where a character starts in both rows (or the rows'
/// end). From there on, rows whose cells are unchanged line up character for character.
fn common_glyph_start(shown: &[Cell], new: &[Cell], from: usize) -> usize {
    let (mut at_shown, mut at_new) = (0u16, 0u16);
    loop {
        if at_shown == at_new && usize::from(at_new) >= from {
            return usize::from(at_new);
        }
        let (row, at) = if at_new <= at_shown {
            (new, &mut at_new)
        } else {
            (shown, &mut at_shown)
        };
        match glyph_at(row, *at) {
            Some(glyph) => *at += glyph.width,
            None => return new.len(),
        }
    }
}

/// Whether two cells look the same on screen. A blank shows only its background (and the few
/// attributes visible on a blank), so its foreground and boldness don't count.
pub(super) fn looks_same(a: &Cell, b: &Cell) -> bool {
    if a.diff_option != b.diff_option || a.symbol() != b.symbol() || a.bg != b.bg {
        return false;
    }
    let blank = a.symbol() == " "
        && !a.modifier.intersects(VISIBLE_ON_BLANK)
        && !b.modifier.intersects(VISIBLE_ON_BLANK);
    blank || (a.fg == b.fg && a.modifier == b.modifier && a.underline_color == b.underline_color)
}

/// A blank that erasing to the end of the line reproduces exactly.
fn is_plain_blank(cell: &Cell) -> bool {
    cell.symbol() == " "
        && cell.bg == Color::Reset
        && !cell.modifier.intersects(VISIBLE_ON_BLANK)
        && cell.diff_option == CellDiffOption::None
}

/// Writes escape sequences and cells into `out`, keeping `state` in step with the terminal.
pub(super) struct Writer<'a> {
    pub(super) out: &'a mut Vec<u8>,
    pub(super) state: &'a mut TerminalState,
    /// Columns and rows of the terminal.
    pub(super) width: u16,
    pub(super) height: u16,
}

impl Writer<'_> {
    /// Forgets whatever the screen showed: default colours, no scroll region, all blank.
    pub(super) fn clear_screen(&mut self) {
        self.close_link();
        self.out.extend_from_slice(b"\x1b[m\x1b[r\x1b[H\x1b[2J");
        self.state.pen = Some(Pen::DEFAULT);
        self.state.cursor = Some((0, 0));
        self.state.band = None;
    }

    /// Scrolls rows `top..bottom` by `shift` rows: up (content moves up) when positive. The
    /// rows that come in are blank with the default background.
    ///
    /// The region stays set afterwards: drawing outside it is unaffected (cursor positioning
    /// is absolute, origin mode stays off), only line feeds at its bottom margin and relative
    /// moves out of it behave differently, and `move_sequence` avoids those. Whoever hands the
    /// terminal to someone else resets it (`terminal::restore`).
    pub(super) fn scroll(&mut self, top: u16, bottom: u16, shift: i32) {
        self.close_link();
        self.make_pen_erase_clean();
        self.set_band(top, bottom);
        let count = u16::try_from(shift.unsigned_abs()).unwrap_or(u16::MAX);
        let direction = if shift > 0 { 'S' } else { 'T' };
        csi_count(self.out, count, direction);
        // SU and SD leave the cursor where it was.
    }

    /// Makes rows `top..bottom` the scroll region, unless they already are.
    fn set_band(&mut self, top: u16, bottom: u16) {
        let band = (top > 0 || bottom < self.height).then_some((top, bottom));
        if self.state.band == band {
            return;
        }
        match band {
            Some((top, bottom)) => {
                let _ = write!(self.out, "\x1b[{};{}r", top + 1, bottom);
            }
            None => self.out.extend_from_slice(b"\x1b[r"),
        }
        self.state.band = band;
        // Setting the region homes the cursor on most terminals, but not on all.
        self.state.cursor = None;
    }

    /// Sends the cells of row `y` that differ from what the terminal shows (`shown`), the
    /// last of them in column `last_changed`; the column up to which they may differ. Nothing
    /// past the last changed character is looked at but whether it is blank: on a wide
    /// terminal a pane that did not change costs nothing.
    pub(super) fn row(
        &mut self,
        y: u16,
        shown: &[Cell],
        new: &[Cell],
        last_changed: usize,
    ) -> usize {
        let end = common_glyph_start(shown, new, last_changed + 1);
        let rest_is_blank = new[end..].iter().all(is_plain_blank);
        let (shown, new) = (&shown[..end], &new[..end]);
        let glyphs = glyphs(new);
        let shown_starts = glyph_starts(shown);
        let dirty: Vec<bool> = glyphs
            .iter()
            .map(|glyph| {
                let index = usize::from(glyph.x);
                let cell = &new[index];
                match cell.diff_option {
                    CellDiffOption::Skip => false,
                    CellDiffOption::AlwaysUpdate => true,
                    _ => !(shown_starts[index] && looks_same(&shown[index], cell)),
                }
            })
            .collect();
        // Where the row's blank tail starts (erasing to the end of the line draws it); none
        // when something shows after the changed part.
        let tail = if rest_is_blank {
            glyphs
                .iter()
                .rposition(|glyph| !is_plain_blank(&new[usize::from(glyph.x)]))
                .map_or(0, |last| last + 1)
        } else {
            glyphs.len()
        };
        let dirty_in_tail = dirty[tail..].iter().filter(|&&d| d).count();
        // One changed blank is cheaper written; more are cheaper erased.
        let erase_from = (dirty_in_tail >= 2)
            .then(|| (tail..glyphs.len()).find(|&i| dirty[i]))
            .flatten();
        let written_up_to = if erase_from.is_some() {
            tail
        } else {
            glyphs.len()
        };
        for (index, _) in dirty[..written_up_to]
            .iter()
            .enumerate()
            .filter(|(_, dirty)| **dirty)
        {
            self.print_at(y, index, &glyphs, new);
        }
        if let Some(index) = erase_from {
            self.go_to(glyphs[index].x, y);
            self.erase_to_end_of_line();
        }
        end
    }

    /// Leaves the cursor where the frame wants it, shown or hidden, as the frame asks.
    pub(super) fn place_cursor(&mut self, position: Option<(u16, u16)>) {
        match position {
            Some((x, y)) => {
                self.go_to(x, y);
                if self.state.cursor_visible != Some(true) {
                    self.out.extend_from_slice(b"\x1b[?25h");
                    self.state.cursor_visible = Some(true);
                }
            }
            None => {
                if self.state.cursor_visible != Some(false) {
                    self.out.extend_from_slice(b"\x1b[?25l");
                    self.state.cursor_visible = Some(false);
                }
            }
        }
    }

    pub(super) fn close_link(&mut self) {
        if self.state.link_open {
            self.out.extend_from_slice(LINK_CLOSE);
            self.state.link_open = false;
        }
    }

    fn erase_to_end_of_line(&mut self) {
        self.close_link();
        self.make_pen_erase_clean();
        self.out.extend_from_slice(b"\x1b[K");
    }

    fn make_pen_erase_clean(&mut self) {
        match self.state.pen {
            Some(pen) if pen.erases_clean() => {}
            Some(pen) => self.set_pen(pen.for_erasing()),
            None => self.set_pen(Pen::DEFAULT),
        }
    }

    /// Writes glyph `target` of row `y`, getting there by the shortest of: a cursor move,
    /// writing the unchanged glyphs between the cursor and the target, or a new line and
    /// writing the glyphs from the row's start (a row's margin is often a single blank). The
    /// target's own colour change counts: a gap written in the target's colours can be
    /// cheaper than a move followed by that change.
    fn print_at(&mut self, y: u16, target: usize, glyphs: &[Glyph], row: &[Cell]) {
        let glyph = glyphs[target];
        let cell = &row[usize::from(glyph.x)];
        let x = glyph.x;
        if self.state.cursor == Some((x, y)) {
            return self.print(cell, glyph);
        }
        // The ways of writing the gap before the target, when one may be shorter than a move:
        // tried first, so that a target with none (most) is written without trials.
        let mut fills = Vec::new();
        if let Some((cursor_x, cursor_y)) = self.state.cursor {
            if cursor_y == y && cursor_x < x {
                fills.extend(self.trial_fill(cursor_x, target, glyphs, row, |_| {}));
            }
            if cursor_y + 1 == y && vertical_moves_safe(self.state.band, cursor_y, y) {
                fills.extend(self.trial_fill(0, target, glyphs, row, |writer| {
                    writer.close_link();
                    writer.out.extend_from_slice(b"\r\n");
                    writer.state.cursor = Some((0, y));
                }));
            }
        }
        if fills.is_empty() {
            self.go_to(x, y);
            return self.print(cell, glyph);
        }
        let mut best = self.trial(|writer| {
            writer.go_to(x, y);
            writer.print(cell, glyph);
        });
        for fill in fills {
            if fill.0.len() <= best.0.len() {
                best = fill;
            }
        }
        let (bytes, state) = best;
        self.out.extend_from_slice(&bytes);
        *self.state = state;
    }

    /// What `action` would write, and the state after it, without writing it.
    fn trial(&self, action: impl FnOnce(&mut Writer)) -> (Vec<u8>, TerminalState) {
        let mut bytes = Vec::new();
        let mut state = *self.state;
        action(&mut Writer {
            out: &mut bytes,
            state: &mut state,
            width: self.width,
            height: self.height,
        });
        (bytes, state)
    }

    /// `prefix`, then the glyphs from column `from` up to and with glyph `target`; `None`
    /// when that is certainly longer than a move, or a glyph there can't be written.
    fn trial_fill(
        &self,
        from: u16,
        target: usize,
        glyphs: &[Glyph],
        row: &[Cell],
        prefix: impl FnOnce(&mut Writer),
    ) -> Option<(Vec<u8>, TerminalState)> {
        if glyphs[target].x - from > LONGEST_GAP_WORTH_WRITING {
            return None;
        }
        let first = glyphs.binary_search_by_key(&from, |glyph| glyph.x).ok()?;
        let gap = &glyphs[first..target];
        if gap.iter().any(|glyph| {
            let cell = &row[usize::from(glyph.x)];
            cell.diff_option == CellDiffOption::Skip
                || (!glyph.blank_instead && width_is_uncertain(cell.symbol()))
        }) {
            return None;
        }
        Some(self.trial(|writer| {
            prefix(writer);
            for glyph in &glyphs[first..=target] {
                writer.print(&row[usize::from(glyph.x)], *glyph);
            }
        }))
    }

    /// Moves the cursor with the shortest sequence.
    pub(super) fn go_to(&mut self, x: u16, y: u16) {
        if self.state.cursor == Some((x, y)) {
            return;
        }
        // Text written after a jump would otherwise join the open hyperlink.
        self.close_link();
        let from = self
            .state
            .cursor
            .filter(|&(_, from_y)| vertical_moves_safe(self.state.band, from_y, y));
        move_sequence(self.out, from, x, y);
        self.state.cursor = Some((x, y));
    }

    fn print(&mut self, cell: &Cell, glyph: Glyph) {
        self.set_pen(Pen::of(cell));
        let symbol = cell.symbol();
        let uncertain = !glyph.blank_instead && width_is_uncertain(symbol);
        if uncertain
            && glyph.width == 2
            && let Some((x, y)) = self.state.cursor
        {
            // Blank both cells first: a terminal that draws the cluster one cell wide then
            // leaves a blank beside it, not a character of the previous screen.
            self.out.extend_from_slice(b"  ");
            move_sequence(self.out, None, x, y);
        }
        if glyph.blank_instead {
            self.out.push(b' ');
        } else {
            self.out.extend_from_slice(symbol.as_bytes());
            // Most symbols are one byte: the search for a link is for the few with an escape.
            if symbol.len() > 1
                && let Some(start) = symbol.rfind("\x1b]8;")
            {
                // `ESC]8;;ESC\` closes; anything with an address between opens.
                self.state.link_open = !symbol[start..].starts_with("\x1b]8;;\x1b\\");
            }
        }
        if uncertain {
            // Terminals disagree on the width of some clusters (an emoji with a variation
            // selector is 2 cells here and 1 in tmux): the next write moves absolutely.
            self.state.cursor = None;
            return;
        }
        self.state.cursor = self.state.cursor.and_then(|(x, y)| {
            let next = x + glyph.width;
            // At the last column the terminal waits to wrap; where the cursor is then differs
            // between terminals, so the next move is absolute.
            (next < self.width).then_some((next, y))
        });
    }

    fn set_pen(&mut self, target: Pen) {
        if self.state.pen == Some(target) {
            return;
        }
        let mut from_reset = String::from("0");
        push_pen_params(&mut from_reset, Pen::DEFAULT, target);
        let params = match self.state.pen {
            Some(current) => {
                let mut changes = String::new();
                push_pen_params(&mut changes, current, target);
                if changes.len() < from_reset.len() {
                    changes
                } else {
                    from_reset
                }
            }
            None => from_reset,
        };
        if params == "0" {
            self.out.extend_from_slice(b"\x1b[m");
        } else {
            let _ = write!(self.out, "\x1b[{params}m");
        }
        self.state.pen = Some(target);
    }
}

/// Which columns of `row` start a character (the others are covered by a wide one).
pub(super) fn glyph_starts(row: &[Cell]) -> Vec<bool> {
    let mut starts = vec![false; row.len()];
    let mut x = 0u16;
    while let Some(glyph) = glyph_at(row, x) {
        starts[usize::from(x)] = true;
        x += glyph.width;
    }
    starts
}

/// Appends the SGR parameters (`;`-separated) that turn pen `from` into pen `to`.
fn push_pen_params(params: &mut String, from: Pen, to: Pen) {
    let push = |params: &mut String, value: &str| {
        if !params.is_empty() {
            params.push(';');
        }
        params.push_str(value);
    };
    let removed = from.modifier - to.modifier;
    let mut kept = from.modifier;
    for (flags, off) in [
        (Modifier::BOLD | Modifier::DIM, "22"),
        (Modifier::ITALIC, "23"),
        (Modifier::UNDERLINED, "24"),
        (Modifier::SLOW_BLINK | Modifier::RAPID_BLINK, "25"),
        (Modifier::REVERSED, "27"),
        (Modifier::HIDDEN, "28"),
        (Modifier::CROSSED_OUT, "29"),
    ] {
        if removed.intersects(flags) {
            push(params, off);
            kept -= flags;
        }
    }
    let added = to.modifier - kept;
    for (flag, on) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if added.contains(flag) {
            push(params, on);
        }
    }
    if from.fg != to.fg {
        push(params, &colour_param(to.fg, Layer::Foreground));
    }
    if from.bg != to.bg {
        push(params, &colour_param(to.bg, Layer::Background));
    }
    if from.underline != to.underline {
        push(params, &colour_param(to.underline, Layer::Underline));
    }
}

#[derive(Clone, Copy)]
enum Layer {
    Foreground,
    Background,
    Underline,
}

/// The SGR parameter for `colour` on `layer`: the short 30–37/90–97 forms for the 16 named
/// colours (as terminals and themes know them), `5;n` for the 256-colour table, `2;r;g;b`.
fn colour_param(colour: Color, layer: Layer) -> String {
    let (reset, extended, base) = match layer {
        Layer::Foreground => (39, 38, 30),
        Layer::Background => (49, 48, 40),
        Layer::Underline => (59, 58, 0),
    };
    let named = match colour {
        Color::Reset => return reset.to_string(),
        Color::Rgb(r, g, b) => return format!("{extended};2;{r};{g};{b}"),
        Color::Indexed(index) => return format!("{extended};5;{index}"),
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
    };
    match layer {
        // Underline colour has no short form.
        Layer::Underline => format!("{extended};5;{named}"),
        _ if named < 8 => (base + named).to_string(),
        _ => (base + 60 + named - 8).to_string(),
    }
}

/// Whether terminals may give `symbol` another width than ours: a cluster of several
/// characters (emoji with a variation selector or joiner, combining marks). Cells carrying an
/// OSC 8 hyperlink have their width forced and are not counted.
fn width_is_uncertain(symbol: &str) -> bool {
    // Most symbols are one character: asked first, that settles them without a scan.
    symbol.chars().nth(1).is_some() && !symbol.contains('\x1b')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tmux draws "🏛️" (an emoji with a variation selector) one cell wide where we count two:
    /// what follows it on the row must not be placed by counting from it, but by an absolute
    /// move to where it belongs.
    #[test]
    fn what_follows_a_cluster_of_uncertain_width_is_placed_by_an_absolute_move() {
        use ratatui::buffer::Buffer;
        use ratatui::layout::Rect;
        use ratatui::style::Style;

        let mut frame = Buffer::empty(Rect::new(0, 0, 40, 1));
        frame.set_string(0, 0, "🏛\u{fe0f} Architecture › Decisions", Style::default());
        let mut output = super::super::Output::new(super::super::OutputOptions::for_terminal(
            "xterm-256color",
            false,
        ));
        let mut out = Vec::new();
        output.encode(&frame, None, &mut out);
        let text = String::from_utf8(out).unwrap();
        let after_emoji = text.split('\u{fe0f}').nth(1).unwrap_or_default();
        assert!(
            after_emoji.starts_with("\x1b[1;4H"),
            "the cell after the emoji is reached by an absolute move: {text:?}"
        );
        assert!(
            text.contains("  \x1b[H🏛"),
            "both cells are blanked before the emoji: {text:?}"
        );
    }

    #[test]
    fn pen_changes_send_only_the_difference() {
        let bold_red = Pen {
            fg: Color::Red,
            modifier: Modifier::BOLD,
            ..Pen::DEFAULT
        };
        let mut params = String::new();
        push_pen_params(&mut params, Pen::DEFAULT, bold_red);
        assert_eq!(params, "1;31");
        let mut params = String::new();
        push_pen_params(
            &mut params,
            bold_red,
            Pen {
                modifier: Modifier::DIM,
                ..bold_red
            },
        );
        assert_eq!(params, "22;2");
        assert_eq!(
            colour_param(Color::Indexed(200), Layer::Background),
            "48;5;200"
        );
        assert_eq!(colour_param(Color::LightCyan, Layer::Foreground), "96");
    }
}
