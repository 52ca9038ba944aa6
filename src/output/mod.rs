//! What quire writes to the terminal. ratatui renders each frame into a buffer as usual; this
//! module compares it with what the terminal shows and sends the difference in few bytes:
//! a band of rows that moved is scrolled by the terminal (scroll region + scroll up/down), the
//! rest goes out with the cheapest cursor moves, erase-to-end-of-line for blank tails and only
//! the colour changes needed. That is what keeps quire usable over a slow SSH link.
//!
//! [`TerminalOutput`] is the ratatui backend for the real terminal; the loop hands it every
//! finished frame through [`Present`]. Test backends keep ratatui's own diffing.

mod encode;
mod moves;
pub mod scroll;

use std::io::{self, Write};
use std::ops::Range;

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
        self.encode_cells(frame, out);
        self.encode_cursor(cursor, out);
    }

    /// The cells of [`Output::encode`]: what turns the screen into `frame` but the cursor.
    pub fn encode_cells(&mut self, frame: &Buffer, out: &mut Vec<u8>) {
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
        // Most rows of a frame are as the screen shows them: equal cells need no bytes, and
        // comparing them is far cheaper than hashing a row or working out its glyphs. Each
        // row is compared once (and again only when a scroll moved what the screen shows),
        // for the columns from its first to its last changed cell.
        let mut changes: Vec<Option<Range<usize>>> = rows(shown)
            .zip(rows(frame))
            .map(|(shown_row, new_row)| changed_span(shown_row, new_row))
            .collect();
        // Once this frame is sent the screen shows it: its row hashes are the screen's next
        // time, worked out from the screen's and the changed columns alone.
        let mut next_rows = Vec::new();
        if self.options.scroll_regions {
            if self.shown_rows.len() != usize::from(area.height) {
                self.shown_rows = scroll::row_hashes(shown);
            }
            next_rows = rows(shown)
                .zip(rows(frame))
                .zip(&changes)
                .zip(&self.shown_rows)
                .map(
                    |(((shown_row, new_row), change), &shown_hash)| match change {
                        None => shown_hash,
                        Some(span) => scroll::rehash(
                            shown_hash,
                            &shown_row[span.clone()],
                            &new_row[span.clone()],
                            span.start,
                        ),
                    },
                )
                .collect();
            if let Some(found) =
                scroll::find_by_rows(frame, &self.shown_rows, &next_rows, writer.state.band)
            {
                writer.scroll(found.top, found.bottom, found.shift);
                scroll::apply(shown, found);
                let band = usize::from(found.top)..usize::from(found.bottom);
                for ((change, shown_row), new_row) in changes
                    .iter_mut()
                    .zip(rows(shown))
                    .zip(rows(frame))
                    .take(band.end)
                    .skip(band.start)
                {
                    *change = changed_span(shown_row, new_row);
                }
            }
        }
        let width = usize::from(area.width).max(1);
        for (y, ((shown_row, new_row), change)) in shown
            .content
            .chunks_mut(width)
            .zip(frame.content.chunks(width))
            .zip(changes)
            .enumerate()
        {
            if let Some(span) = change {
                // The cells after the last that changed look the same already.
                let changed_up_to = writer.row(y as u16, shown_row, new_row, span.end - 1);
                shown_row[..changed_up_to].clone_from_slice(&new_row[..changed_up_to]);
            }
        }
        self.shown_rows = next_rows;
        writer.close_link();
    }

    /// The cursor of [`Output::encode`], after [`Output::encode_cells`]: shown at `cursor`
    /// (on the screen's last frame) or hidden.
    pub fn encode_cursor(&mut self, cursor: Option<Position>, out: &mut Vec<u8>) {
        let area = self
            .shown
            .as_ref()
            .map(|shown| shown.area)
            .unwrap_or_default();
        let mut writer = Writer {
            out,
            state: &mut self.terminal,
            width: area.width,
            height: area.height,
        };
        writer.place_cursor(cursor.map(|position| {
            (
                position.x.saturating_sub(area.x),
                position.y.saturating_sub(area.y),
            )
        }));
    }
}

/// The columns of a row from the first to the last cell that needs sending to turn what the
/// screen shows into `new`; `None` when none does.
fn changed_span(shown: &[Cell], new: &[Cell]) -> Option<Range<usize>> {
    let unchanged = |(shown, new): (&Cell, &Cell)| encode::cell_unchanged(shown, new);
    let first = shown.iter().zip(new).position(|pair| !unchanged(pair))?;
    let after_first = shown[first..]
        .iter()
        .zip(&new[first..])
        .rposition(|pair| !unchanged(pair))
        .unwrap_or(0);
    Some(first..first + after_first + 1)
}

/// The rows of `buffer`, top to bottom.
fn rows(buffer: &Buffer) -> std::slice::Chunks<'_, Cell> {
    buffer.content.chunks(usize::from(buffer.area.width).max(1))
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
    /// Its encoder, lent for one frame; `None` for backends that leave the drawing to
    /// ratatui's own diff (test backends). ratatui keeps the finished frame to itself until its
    /// `draw` returns: the lent encoder reads it then, where it lies, and
    /// [`Present::present`] takes it back. (A copy of the frame cost a tenth of a key's work
    /// on a wide terminal.)
    fn lend_encoder(&mut self) -> Option<Encoder> {
        None
    }

    /// Sends what `encoder` made of the frame, with the cursor where ratatui left it.
    fn present(&mut self, _encoder: Encoder) -> io::Result<()> {
        Ok(())
    }

    /// The terminal was resized, or given away and taken back: the size it last gave is stale.
    fn size_may_have_changed(&mut self) {}
}

/// A `Present`ing backend's encoder and its bytes, lent while a frame is drawn.
pub struct Encoder {
    output: Output,
    bytes: Vec<u8>,
}

impl Encoder {
    fn encode_cells(&mut self, frame: &Buffer) {
        self.bytes.clear();
        self.output.encode_cells(frame, &mut self.bytes);
    }
}

/// Draws a frame with `render` and, on a backend that `Present`s frames, sends it: ratatui's
/// draw, then the frame's cells encoded as it left them, then its cursor. What `render` returns
/// is handed back.
pub fn draw_frame<B: Backend + Present, T>(
    terminal: &mut ratatui::Terminal<B>,
    render: impl FnOnce(&mut ratatui::Frame) -> T,
) -> io::Result<T> {
    let failed = |error: B::Error| io::Error::other(error.to_string());
    // A resize clears the screen, which the backend's encoder must hear of: done before it is
    // lent, so ratatui's draw finds nothing to resize.
    terminal.autoresize().map_err(failed)?;
    let encoder = terminal.backend_mut().lend_encoder();
    let mut rendered = None;
    let completed = terminal
        .draw(|frame| rendered = Some(render(frame)))
        .map_err(failed)?;
    if let Some(mut encoder) = encoder {
        encoder.encode_cells(completed.buffer);
        terminal.backend_mut().present(encoder)?;
    }
    rendered.ok_or_else(|| io::Error::other("ratatui drew no frame"))
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
    /// The size the terminal last gave: ratatui asks before every frame, and asking the
    /// terminal costs opening `/dev/tty` each time. Forgotten when it may have changed.
    known_size: std::cell::Cell<Option<Size>>,
    cursor_shown: bool,
    cursor_position: Position,
    bytes: Vec<u8>,
}

impl<W: Write> TerminalOutput<W> {
    pub fn new(writer: W, options: OutputOptions) -> TerminalOutput<W> {
        TerminalOutput {
            writer,
            output: Output::new(options),
            fixed_size: None,
            known_size: std::cell::Cell::new(None),
            cursor_shown: false,
            cursor_position: Position::ORIGIN,
            bytes: Vec::new(),
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
    fn size_may_have_changed(&mut self) {
        self.known_size.set(None);
    }

    fn lend_encoder(&mut self) -> Option<Encoder> {
        Some(Encoder {
            output: std::mem::take(&mut self.output),
            bytes: std::mem::take(&mut self.bytes),
        })
    }

    fn present(&mut self, encoder: Encoder) -> io::Result<()> {
        let Encoder { output, bytes } = encoder;
        self.output = output;
        self.bytes = bytes;
        let cursor = self.cursor_shown.then_some(self.cursor_position);
        self.output.encode_cursor(cursor, &mut self.bytes);
        if self.bytes.is_empty() {
            return Ok(());
        }
        // One write per frame: over SSH each write can become a packet.
        self.writer.write_all(&self.bytes)?;
        self.writer.flush()
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
        if let Some(size) = self.fixed_size.or(self.known_size.get()) {
            return Ok(size);
        }
        let (width, height) = ratatui::crossterm::terminal::size()?;
        let size = Size { width, height };
        self.known_size.set(Some(size));
        Ok(size)
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

    /// A frame sent as `draw_frame` sends it.
    fn send(backend: &mut TerminalOutput<Vec<u8>>, frame: &Buffer) {
        let mut encoder = backend.lend_encoder().unwrap();
        encoder.encode_cells(frame);
        backend.present(encoder).unwrap();
    }

    /// ratatui's clear (a resize, or after `$EDITOR`) makes the next frame a full one: the
    /// screen is cleared and every cell sent, whatever was shown before.
    #[test]
    fn a_clear_makes_the_next_frame_whole() {
        let mut backend =
            TerminalOutput::with_size(Vec::new(), OutputOptions::default(), Size::new(10, 2));
        let frame = Buffer::with_lines(["hello", "world"]);
        send(&mut backend, &frame);
        let first = backend.writer().len();
        send(&mut backend, &frame);
        assert_eq!(
            backend.writer().len(),
            first,
            "an unchanged frame sends nothing"
        );
        backend.clear_region(ClearType::All).unwrap();
        send(&mut backend, &frame);
        let again = String::from_utf8_lossy(&backend.writer()[first..]).to_string();
        assert!(
            again.contains("\x1b[2J") && again.contains("hello"),
            "{again:?}"
        );
    }
}
