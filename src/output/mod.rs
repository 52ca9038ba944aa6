//! What quire writes to the terminal. ratatui renders each frame into a buffer as usual; this
//! module compares it with what the terminal shows and sends the difference in few bytes:
//! a band of rows that moved is scrolled by the terminal (scroll region + scroll up/down), the
//! rest goes out with the cheapest cursor moves, erase-to-end-of-line for blank tails and only
//! the colour changes needed. That is what keeps quire usable over a slow SSH link.
//!
//! [`TerminalOutput`] is the ratatui backend for the real terminal; the loop hands it every
//! finished frame through [`Present`]. Test backends keep ratatui's own diffing.

mod encode;
pub mod scroll;

use std::io::{self, Write};

use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Size};
use ratatui::style::Color;

use encode::{TerminalState, Writer};

/// Choices about the terminal's abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputOptions {
    /// Scroll moved rows with a scroll region. Off for `TERM=dumb` and with
    /// `QUIRE_NO_SCROLL_REGIONS` set (for a terminal that gets them wrong).
    pub scroll_regions: bool,
    /// Write colours. Off when `NO_COLOR` is set (https://no-color.org): then only bold,
    /// underline, reverse and dim reach the terminal, whatever the theme or the code
    /// highlighting asked for.
    pub colours: bool,
}

impl Default for OutputOptions {
    fn default() -> Self {
        OutputOptions {
            scroll_regions: true,
            colours: true,
        }
    }
}

/// Whether the user asked for no colour: `NO_COLOR` set to anything but the empty string.
pub fn no_color_requested() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty())
}

impl OutputOptions {
    pub fn from_env() -> OutputOptions {
        OutputOptions {
            colours: !no_color_requested(),
            ..OutputOptions::for_terminal(
                &std::env::var("TERM").unwrap_or_default(),
                std::env::var_os("QUIRE_NO_SCROLL_REGIONS").is_some(),
            )
        }
    }

    /// The options for a terminal named `term`, with scroll regions turned off by the user or
    /// not.
    pub fn for_terminal(term: &str, no_scroll_regions: bool) -> OutputOptions {
        OutputOptions {
            scroll_regions: term != "dumb" && !no_scroll_regions,
            ..OutputOptions::default()
        }
    }
}

/// Turns frames into terminal bytes, remembering what the terminal shows.
#[derive(Debug, Default)]
pub struct Output {
    options: OutputOptions,
    /// What the terminal shows; `None` when unknown (first frame, after a clear or a resize):
    /// then the next frame clears the screen and sends everything.
    shown: Option<Buffer>,
    /// The [`scroll::row_hashes`] of `shown`, when known: empty until a frame was sent with
    /// scroll regions on, and after the screen was forgotten.
    shown_rows: Vec<u64>,
    terminal: TerminalState,
}

impl Output {
    pub fn new(options: OutputOptions) -> Output {
        Output {
            options,
            ..Output::default()
        }
    }

    /// The screen holds something else now (another program ran, or it was cleared): the
    /// next frame is sent whole.
    pub fn forget(&mut self) {
        self.shown = None;
        self.shown_rows.clear();
        self.terminal = TerminalState::default();
    }

    /// Appends to `out` the bytes that turn the screen into `frame`, with the cursor shown at
    /// `cursor` or hidden. Nothing is appended when the screen already shows it.
    pub fn encode(&mut self, frame: &Buffer, cursor: Option<Position>, out: &mut Vec<u8>) {
        let colourless;
        let frame = if self.options.colours {
            frame
        } else {
            colourless = without_colours(frame);
            &colourless
        };
        let area = frame.area;
        let mut writer = Writer {
            out,
            state: &mut self.terminal,
            width: area.width,
            height: area.height,
        };
        let shown = match &mut self.shown {
            Some(shown) if shown.area == area => shown,
            unknown => {
                writer.clear_screen();
                self.shown_rows.clear();
                unknown.insert(Buffer::empty(area))
            }
        };
        // Once this frame is sent the screen shows it: its row hashes are the screen's next
        // time, and only the new frame's rows are hashed each time.
        let mut next_rows = Vec::new();
        if self.options.scroll_regions {
            next_rows = scroll::row_hashes(frame);
            if self.shown_rows.len() != next_rows.len() {
                self.shown_rows = scroll::row_hashes(shown);
            }
            if let Some(found) =
                scroll::find_by_rows(frame, &self.shown_rows, &next_rows, writer.state.band)
            {
                writer.scroll(found.top, found.bottom, found.shift);
                scroll::apply(shown, found);
            }
        }
        let width = usize::from(area.width).max(1);
        for (y, (shown_row, new_row)) in shown
            .content
            .chunks_mut(width)
            .zip(frame.content.chunks(width))
            .enumerate()
        {
            // Most rows of a frame are as the screen shows them: equal cells need no bytes,
            // and comparing them is far cheaper than working out each row's glyphs.
            if !rows_look_equal(shown_row, new_row) {
                writer.row(y as u16, shown_row, new_row);
                shown_row.clone_from_slice(new_row);
            }
        }
        self.shown_rows = next_rows;
        writer.close_link();
        writer.place_cursor(cursor.map(|position| {
            (
                position.x.saturating_sub(area.x),
                position.y.saturating_sub(area.y),
            )
        }));
    }
}

/// Whether a row the screen shows needs nothing sent to become `new`: every cell the same
/// (underline colour included, which `Cell`'s equality may leave out) and none forced out.
fn rows_look_equal(shown: &[Cell], new: &[Cell]) -> bool {
    shown.iter().zip(new).all(|(shown, new)| {
        shown == new
            && shown.underline_color == new.underline_color
            && new.diff_option != ratatui::buffer::CellDiffOption::AlwaysUpdate
    })
}

/// `frame` with every foreground, background and underline colour set back to the terminal's
/// own; attributes (bold, reverse, …) stay.
fn without_colours(frame: &Buffer) -> Buffer {
    let mut colourless = frame.clone();
    for cell in &mut colourless.content {
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
        cell.underline_color = Color::Reset;
    }
    colourless
}

/// A backend that sends whole frames itself, after ratatui rendered them.
pub trait Present {
    /// Called with every finished frame. Backends that leave the drawing to ratatui's own
    /// diff (test backends) do nothing.
    fn present(&mut self, _frame: &Buffer) -> io::Result<()> {
        Ok(())
    }

    /// Whether `present` wants frames (copying one is not free).
    fn presents_frames(&self) -> bool {
        false
    }

    /// A buffer to copy the next finished frame into, given back with [`Present::keep_spare`]
    /// once presented: a frame is the size of the screen, and allocating a new one every frame
    /// cost more than drawing it on a wide terminal (the allocator hands such blocks back to
    /// the system and faults them in again).
    fn take_spare(&mut self) -> Buffer {
        Buffer::default()
    }

    fn keep_spare(&mut self, _spare: Buffer) {}
}

/// Makes `copy` the same as `frame`, reusing `copy`'s cells.
pub fn copy_frame(copy: &mut Buffer, frame: &Buffer) {
    copy.area = frame.area;
    copy.content.clone_from(&frame.content);
}

impl Present for TestBackend {}

/// The real terminal: a ratatui backend whose cell drawing is ours ([`Output`]). ratatui's
/// cursor requests are noted and carried out with the frame; ratatui's "clear" makes the next
/// frame a full one. Size questions go to the terminal, unless a fixed size was given (benchmarks,
/// tests).
pub struct TerminalOutput<W: Write> {
    writer: W,
    output: Output,
    fixed_size: Option<Size>,
    cursor_shown: bool,
    cursor_position: Position,
    bytes: Vec<u8>,
    spare: Buffer,
}

impl<W: Write> TerminalOutput<W> {
    pub fn new(writer: W, options: OutputOptions) -> TerminalOutput<W> {
        TerminalOutput {
            writer,
            output: Output::new(options),
            fixed_size: None,
            cursor_shown: false,
            cursor_position: Position::ORIGIN,
            bytes: Vec::new(),
            spare: Buffer::default(),
        }
    }

    /// A terminal of a known size that is never asked for it: for measuring and tests.
    pub fn with_size(writer: W, options: OutputOptions, size: Size) -> TerminalOutput<W> {
        TerminalOutput {
            fixed_size: Some(size),
            ..TerminalOutput::new(writer, options)
        }
    }

    pub fn writer(&self) -> &W {
        &self.writer
    }

    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.writer
    }
}

impl<W: Write> Present for TerminalOutput<W> {
    fn present(&mut self, frame: &Buffer) -> io::Result<()> {
        self.bytes.clear();
        let cursor = self.cursor_shown.then_some(self.cursor_position);
        self.output.encode(frame, cursor, &mut self.bytes);
        if self.bytes.is_empty() {
            return Ok(());
        }
        // One write per frame: over SSH each write can become a packet.
        self.writer.write_all(&self.bytes)?;
        self.writer.flush()
    }

    fn presents_frames(&self) -> bool {
        true
    }

    fn take_spare(&mut self) -> Buffer {
        std::mem::take(&mut self.spare)
    }

    fn keep_spare(&mut self, spare: Buffer) {
        self.spare = spare;
    }
}

impl<W: Write> Backend for TerminalOutput<W> {
    type Error = io::Error;

    /// ratatui's own diff is ignored: `present` sends the frame.
    fn draw<'a, I>(&mut self, _content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        Ok(())
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.cursor_shown = false;
        Ok(())
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.cursor_shown = true;
        Ok(())
    }

    /// Never asks the terminal: its answer would arrive as input, where quire's own reader can
    /// swallow it.
    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(self.cursor_position)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.cursor_position = position.into();
        Ok(())
    }

    fn clear(&mut self) -> io::Result<()> {
        self.output.forget();
        Ok(())
    }

    /// Every clear becomes a full redraw with the next frame (ratatui asks only for whole
    /// screens in full-screen mode).
    fn clear_region(&mut self, _clear_type: ClearType) -> io::Result<()> {
        self.output.forget();
        Ok(())
    }

    fn size(&self) -> io::Result<Size> {
        match self.fixed_size {
            Some(size) => Ok(size),
            None => {
                let (width, height) = ratatui::crossterm::terminal::size()?;
                Ok(Size { width, height })
            }
        }
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        match self.fixed_size {
            Some(columns_rows) => Ok(WindowSize {
                columns_rows,
                pixels: Size::default(),
            }),
            None => {
                let size = ratatui::crossterm::terminal::window_size()?;
                Ok(WindowSize {
                    columns_rows: Size {
                        width: size.columns,
                        height: size.rows,
                    },
                    pixels: Size {
                        width: size.width,
                        height: size.height,
                    },
                })
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scroll_regions_are_off_for_a_dumb_terminal_or_when_asked() {
        assert!(OutputOptions::for_terminal("xterm-256color", false).scroll_regions);
        assert!(OutputOptions::for_terminal("screen", false).scroll_regions);
        assert!(!OutputOptions::for_terminal("dumb", false).scroll_regions);
        assert!(!OutputOptions::for_terminal("xterm-256color", true).scroll_regions);
    }

    /// Without colours a frame keeps its attributes and loses every colour.
    #[test]
    fn without_colours_only_attributes_are_written() {
        use ratatui::style::Style;
        let mut frame = Buffer::empty(ratatui::layout::Rect::new(0, 0, 10, 1));
        frame.set_string(0, 0, "pick", Style::new().fg(Color::Black).bg(Color::Cyan));
        frame.set_string(5, 0, "bold", Style::new().fg(Color::Red).bold().reversed());
        let encode = |colours| {
            let mut output = Output::new(OutputOptions {
                colours,
                ..OutputOptions::default()
            });
            let mut bytes = Vec::new();
            output.encode(&frame, None, &mut bytes);
            String::from_utf8(bytes).unwrap()
        };
        let coloured = encode(true);
        assert!(
            coloured.contains("46m") && coloured.contains("31m"),
            "{coloured:?}"
        );
        let plain = encode(false);
        assert_eq!(
            plain,
            "\x1b[m\x1b[r\x1b[H\x1b[2Jpick \x1b[1;7mbold\x1b[?25l"
        );
    }

    /// ratatui's clear (a resize, or after `$EDITOR`) makes the next frame a full one: the
    /// screen is cleared and every cell sent, whatever was shown before.
    #[test]
    fn a_clear_makes_the_next_frame_whole() {
        let mut backend =
            TerminalOutput::with_size(Vec::new(), OutputOptions::default(), Size::new(10, 2));
        let frame = Buffer::with_lines(["hello", "world"]);
        backend.present(&frame).unwrap();
        let first = backend.writer().len();
        backend.present(&frame).unwrap();
        assert_eq!(
            backend.writer().len(),
            first,
            "an unchanged frame sends nothing"
        );
        backend.clear_region(ClearType::All).unwrap();
        backend.present(&frame).unwrap();
        let again = String::from_utf8_lossy(&backend.writer()[first..]).to_string();
        assert!(
            again.contains("\x1b[2J") && again.contains("hello"),
            "{again:?}"
        );
    }
}
