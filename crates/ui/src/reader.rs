//! A scrollable view of a laid-out markdown document, with in-page search. Shared by the page
//! reader and the space view's preview.

use std::sync::{Arc, Weak};

use std::cell::RefCell;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::keymap::Action;
use crate::markdown::docs::DocKey;
use crate::markdown::docs::{DocCache, ParseRank};
use crate::markdown::{DocLink, LinkSpot, MarkdownDoc, PageLayout, TextMatch};
use crate::theme::Theme;

#[derive(Debug, Clone, Default)]
pub struct Reader {
    pub key: Option<DocKey>,
    pub layout: Option<Arc<PageLayout>>,
    /// The parse that `layout` was made from, to notice a new one (a highlighted copy, or a
    /// page rendered again after `r`). Weak: only its identity is needed, and a strong handle
    /// kept a replaced parse of a big page (megabytes) alive as long as the reader lived.
    laid_out: Option<Weak<MarkdownDoc>>,
    /// How good the laid-out parse is (a preview, plain, highlighted), so a better one of
    /// the same page replaces it and a worse one never does.
    laid_out_rank: ParseRank,
    /// Lay out only this many rows: a preview, which never scrolls, costs one screenful
    /// however long the page.
    pub row_limit: Option<usize>,
    /// The limit `layout` was made with.
    laid_out_limit: Option<usize>,
    pub scroll: usize,
    pub query: String,
    pub matches: Vec<TextMatch>,
    pub current_match: Option<usize>,
    /// The page's links and where they were laid out, in reading order.
    pub links: Vec<DocLink>,
    pub link_spots: Vec<LinkSpot>,
    /// The link `tab` moved to (an index into `link_spots`).
    pub focused_link: Option<usize>,
    /// The cells of the last draw, drawn again while nothing they are made from changed.
    drawn: RefCell<DrawnCells>,
}

impl Reader {
    /// Shows the document for `key` if it is parsed; otherwise remembers the key and waits.
    pub fn show(&mut self, key: DocKey, docs: &DocCache, width: u16) {
        if self.key.as_ref() != Some(&key) {
            self.key = Some(key);
            self.layout = None;
            self.laid_out = None;
            self.laid_out_rank = ParseRank::default();
            self.scroll = 0;
            self.matches.clear();
            self.current_match = None;
            self.links.clear();
            self.link_spots.clear();
            self.focused_link = None;
        }
        self.refresh_layout(docs, width);
    }

    /// Lays the document out again when the width changed or a new parse arrived (never
    /// trading a whole page for a preview, or a highlighted layout for a plain one).
    pub fn refresh_layout(&mut self, docs: &DocCache, width: u16) {
        let Some(key) = &self.key else { return };
        let Some(cached) = docs.get(key) else { return };
        let width = width.max(1);
        let same_parse = self
            .laid_out
            .as_ref()
            .is_some_and(|doc| std::ptr::eq(doc.as_ptr(), Arc::as_ptr(&cached.doc)));
        let better_parse = !same_parse && cached.rank() >= self.laid_out_rank;
        let stale = match &self.layout {
            None => true,
            Some(layout) => {
                layout.width != width || better_parse || self.laid_out_limit != self.row_limit
            }
        };
        if stale {
            let anchor = self.scroll_fraction();
            let old_width = self.layout.as_ref().map(|layout| layout.width);
            self.layout = Some(Arc::new(match self.row_limit {
                Some(rows) => cached.doc.page_layout_first(width, rows),
                None => cached.doc.page_layout(width),
            }));
            self.laid_out_limit = self.row_limit;
            self.laid_out = Some(Arc::downgrade(&cached.doc));
            self.laid_out_rank = cached.rank();
            // At the same width the rows above the top one are the same (colours arrived, or
            // the rest of a page read from its start): the exact line is kept. A new width keeps
            // the same fraction of the page (the epsilon: 2/49 × 49 is 1.99…, a line up).
            if anchor > 0.0 && old_width != Some(width) {
                self.scroll = (anchor * self.line_count() as f64 + 1e-9) as usize;
            }
            self.run_search();
            self.locate_links(&cached.doc);
        }
    }

    /// Finds the page's links in the new layout, keeping the focus on the same link.
    fn locate_links(&mut self, doc: &MarkdownDoc) {
        let focused = self.focused_spot().map(|spot| spot.link);
        self.links = doc.links().to_vec();
        self.link_spots = match &self.layout {
            Some(layout) => doc.link_spots(layout),
            None => Vec::new(),
        };
        self.focused_link =
            focused.and_then(|link| self.link_spots.iter().position(|spot| spot.link == link));
    }

    fn focused_spot(&self) -> Option<&LinkSpot> {
        self.link_spots.get(self.focused_link?)
    }

    /// The focused link as written on the page.
    pub fn focused_link(&self) -> Option<&DocLink> {
        self.links.get(self.focused_spot()?.link)
    }

    /// Moves the focus to the next (or previous) link: among those on screen, else the first
    /// one below (or above) the screen, which is scrolled into view. False when there is none.
    pub fn step_link(&mut self, forward: bool, height: usize) -> bool {
        let height = height.max(1);
        let on_screen = |spot: &LinkSpot| (self.scroll..self.scroll + height).contains(&spot.row());
        let focused_on_screen = self.focused_spot().is_some_and(on_screen);
        let count = self.link_spots.len();
        let next = match (self.focused_link.filter(|_| focused_on_screen), forward) {
            (Some(index), true) => (index + 1 < count).then_some(index + 1),
            (Some(index), false) => index.checked_sub(1),
            (None, true) => self
                .link_spots
                .iter()
                .position(|spot| spot.row() >= self.scroll),
            (None, false) => self
                .link_spots
                .iter()
                .rposition(|spot| spot.row() < self.scroll + height),
        };
        let Some(next) = next else { return false };
        self.focused_link = Some(next);
        let row = self.link_spots[next].row();
        if row < self.scroll || row >= self.scroll + height {
            self.scroll_to(row.saturating_sub(height / 3), height);
        }
        true
    }

    /// The last heading at or above the top line: the section being read.
    pub fn current_heading(&self) -> Option<usize> {
        let layout = self.layout.as_ref()?;
        layout
            .heading_rows
            .iter()
            .rposition(|row| *row <= self.scroll)
    }

    fn highlight_focused_link(&self, buffer: &mut Buffer, area: Rect, theme: &Theme) {
        let Some(spot) = self.focused_spot() else {
            return;
        };
        for (row, start, end) in &spot.pieces {
            if *row < self.scroll || *row >= self.scroll + area.height as usize {
                continue;
            }
            let y = area.y + (row - self.scroll) as u16;
            let x = area.x.saturating_add(*start);
            let rect = Rect::new(x, y, end.saturating_sub(*start), 1).intersection(area);
            buffer.set_style(rect, theme.style("selection"));
        }
    }

    pub fn is_ready(&self) -> bool {
        self.layout.is_some()
    }

    pub fn line_count(&self) -> usize {
        self.layout.as_ref().map_or(0, |layout| layout.len())
    }

    fn scroll_fraction(&self) -> f64 {
        match self.line_count() {
            0 => 0.0,
            count => self.scroll as f64 / count as f64,
        }
    }

    pub fn max_scroll(&self, height: usize) -> usize {
        self.line_count().saturating_sub(height.max(1))
    }

    /// Scrolls for a motion key (line, half page, page keeping one line, top, bottom) in a
    /// view `height` rows tall; false for any other action.
    pub fn scroll_for(&mut self, action: Action, height: usize) -> bool {
        let page = height.max(1) as isize;
        match action {
            Action::Down => self.scroll_by(1, height),
            Action::Up => self.scroll_by(-1, height),
            Action::HalfPageDown => self.scroll_by(page / 2, height),
            Action::HalfPageUp => self.scroll_by(-page / 2, height),
            Action::PageDown => self.scroll_by(page - 1, height),
            Action::PageUp => self.scroll_by(-(page - 1), height),
            Action::Top => self.scroll_to(0, height),
            Action::Bottom => self.scroll_to(usize::MAX, height),
            _ => return false,
        }
        true
    }

    pub fn scroll_by(&mut self, delta: isize, height: usize) {
        let target = self.scroll as isize + delta;
        self.scroll = target.clamp(0, self.max_scroll(height) as isize) as usize;
    }

    pub fn scroll_to(&mut self, row: usize, height: usize) {
        self.scroll = row.min(self.max_scroll(height));
    }

    pub fn search(&mut self, query: &str, height: usize) {
        self.query = query.to_string();
        self.run_search();
        // Jump to the first match at or below the current position.
        self.current_match =
            self.matches
                .iter()
                .position(|m| m.row >= self.scroll)
                .or(if self.matches.is_empty() {
                    None
                } else {
                    Some(0)
                });
        self.reveal_current(height);
    }

    fn run_search(&mut self) {
        self.matches = match (&self.layout, self.query.is_empty()) {
            (Some(layout), false) => layout.find(&self.query),
            _ => Vec::new(),
        };
        if self
            .current_match
            .is_some_and(|index| index >= self.matches.len())
        {
            self.current_match = None;
        }
    }

    /// Moves to the next (or previous) match, wrapping around.
    pub fn step_match(&mut self, forward: bool, height: usize) {
        let count = self.matches.len();
        if count == 0 {
            return;
        }
        self.current_match = Some(match (self.current_match, forward) {
            (None, _) => 0,
            (Some(index), true) => (index + 1) % count,
            (Some(index), false) => (index + count - 1) % count,
        });
        self.reveal_current(height);
    }

    fn reveal_current(&mut self, height: usize) {
        if let Some(found) = self.current_match.and_then(|i| self.matches.get(i)) {
            let row = found.row;
            if row < self.scroll || row >= self.scroll + height.max(1) {
                self.scroll_to(row.saturating_sub(height / 3), height);
            }
        }
    }

    /// Where the view is, as vim's ruler says it: "All" when the whole page fits, "Top" while
    /// the first line shows, "Bot" once the last one does, otherwise how far the top line is
    /// between the two ends. `None` until the page is laid out.
    pub fn position(&self, height: usize) -> Option<String> {
        let total = self.line_count();
        if total == 0 {
            return None;
        }
        let above = self.scroll.min(total);
        let below = total.saturating_sub(above + height.max(1));
        Some(match (above, below) {
            (0, 0) => "All".to_string(),
            (0, _) => "Top".to_string(),
            (_, 0) => "Bot".to_string(),
            _ => format!("{}%", above * 100 / (above + below)),
        })
    }

    /// "3/11" for the footer while searching.
    pub fn match_status(&self) -> Option<String> {
        if self.query.is_empty() {
            return None;
        }
        Some(match self.current_match {
            Some(index) => format!("/{}  {}/{}", self.query, index + 1, self.matches.len()),
            None => format!("/{}  no matches", self.query),
        })
    }

    /// Draws the rows at the scroll position into `area`, which is blank. The cells are kept:
    /// a reader drawn again as it was (the preview beside a tree, on every key that moves the
    /// tree) copies them instead of making its lines and laying them out again.
    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let Some(layout) = &self.layout else { return };
        let hyperlinks = crate::hyperlink::supported();
        let buffer = frame.buffer_mut();
        let Ok(mut drawn) = self.drawn.try_borrow_mut() else {
            self.render(layout, buffer, area, theme, hyperlinks);
            return;
        };
        if buffer.area.intersection(area) != area {
            // Partly off the frame: drawn clipped, and nothing kept.
            *drawn = DrawnCells::default();
            self.render(layout, buffer, area, theme, hyperlinks);
            return;
        }
        let from = DrawnFrom::new(self, layout, area, theme, hyperlinks);
        if drawn.from.as_ref() != Some(&from) {
            drawn.cells.resize(area);
            drawn.cells.reset();
            self.render(layout, &mut drawn.cells, area, theme, hyperlinks);
            drawn.from = Some(from);
        }
        drawn.copy_to(buffer);
    }

    fn render(
        &self,
        layout: &PageLayout,
        buffer: &mut Buffer,
        area: Rect,
        theme: &Theme,
        hyperlinks: bool,
    ) {
        let height = area.height as usize;
        let start = self.scroll.min(layout.len());
        let end = (start + height).min(layout.len());
        let visible: Vec<Line> = layout.lines(start..end);
        Paragraph::new(visible.clone()).render(area, buffer);
        self.highlight_matches(buffer, area, start..end, theme);
        self.highlight_focused_link(buffer, area, theme);
        if hyperlinks {
            let target = theme.style("link_target");
            crate::hyperlink::apply(buffer, area, &visible, target);
        }
    }

    fn highlight_matches(
        &self,
        buffer: &mut Buffer,
        area: Rect,
        rows: std::ops::Range<usize>,
        theme: &Theme,
    ) {
        for (index, found) in self.matches.iter().enumerate() {
            if !rows.contains(&found.row) {
                continue;
            }
            let y = area.y + (found.row - rows.start) as u16;
            let x = area.x.saturating_add(found.start);
            let width = found.end.saturating_sub(found.start);
            let rect = Rect::new(x, y, width, 1).intersection(area);
            let style = if Some(index) == self.current_match {
                theme.style("selection")
            } else {
                theme.style("match")
            };
            buffer.set_style(rect, style);
        }
    }
}

/// The cells the reader drew last, and what they were drawn from.
#[derive(Debug, Clone, Default)]
struct DrawnCells {
    from: Option<DrawnFrom>,
    cells: Buffer,
}

impl DrawnCells {
    fn copy_to(&self, buffer: &mut Buffer) {
        let area = self.cells.area;
        let width = usize::from(area.width);
        if width == 0 {
            return;
        }
        for (row, cells) in self.cells.content.chunks(width).enumerate() {
            let start = buffer.index_of(area.x, area.y + row as u16);
            buffer.content[start..start + width].clone_from_slice(cells);
        }
    }
}

/// Everything a reader's cells are made from, but the page's own rows (the same layout draws
/// the same rows): when all of it is as it was, so are the cells.
#[derive(Debug, Clone)]
struct DrawnFrom {
    layout: Weak<PageLayout>,
    area: Rect,
    scroll: usize,
    query: String,
    matches: usize,
    current_match: Option<usize>,
    focused_link: Option<usize>,
    styles: [Style; 3],
    hyperlinks: bool,
}

impl DrawnFrom {
    fn new(
        reader: &Reader,
        layout: &Arc<PageLayout>,
        area: Rect,
        theme: &Theme,
        hyperlinks: bool,
    ) -> DrawnFrom {
        DrawnFrom {
            layout: Arc::downgrade(layout),
            area,
            scroll: reader.scroll,
            query: reader.query.clone(),
            matches: reader.matches.len(),
            current_match: reader.current_match,
            focused_link: reader.focused_link,
            styles: [
                theme.style("selection"),
                theme.style("match"),
                theme.style("link_target"),
            ],
            hyperlinks,
        }
    }
}

impl PartialEq for DrawnFrom {
    fn eq(&self, other: &DrawnFrom) -> bool {
        // A weak handle keeps its allocation, so another layout cannot take its address.
        Weak::ptr_eq(&self.layout, &other.layout)
            && self.area == other.area
            && self.scroll == other.scroll
            && self.query == other.query
            && self.matches == other.matches
            && self.current_match == other.current_match
            && self.focused_link == other.focused_link
            && self.styles == other.styles
            && self.hyperlinks == other.hyperlinks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader_with_lines(count: usize) -> Reader {
        let lines: Vec<Line> = (0..count)
            .map(|row| Line::from(format!("row {row}")))
            .collect();
        Reader {
            layout: Some(Arc::new(PageLayout::from_lines(&lines, 20))),
            ..Reader::default()
        }
    }

    #[test]
    fn a_reader_lets_a_replaced_parse_go_once_it_lays_out_the_new_one() {
        let theme = crate::theme::Theme::default();
        let key = DocKey {
            space: "space".into(),
            page: "page".into(),
            version: "1".into(),
        };
        let plain = Arc::new(MarkdownDoc::parse("# Title\n\nSome text.", &theme));
        let mut docs = DocCache::default();
        docs.insert(key.clone(), Arc::clone(&plain), false);
        let mut reader = Reader::default();
        reader.show(key.clone(), &docs, 40);
        assert!(reader.is_ready());
        let coloured = Arc::new(MarkdownDoc::parse("# Title\n\nSome text.", &theme));
        docs.insert(key, coloured, true);
        // Until then its layout draws from the plain parse (a screen below the top one may
        // not lay out again for a while; the coloured copy shares the plain parse's text, runs
        // and blocks, so both cost barely more than one).
        reader.refresh_layout(&docs, 40);
        assert!(reader.is_ready());
        assert_eq!(Arc::strong_count(&plain), 1);
    }

    /// Colours arriving (the same rows laid out again) never move the reader: it kept the
    /// fraction of the page and truncated it, so 2 of 49 rows came back as 1.
    #[test]
    fn a_coloured_parse_keeps_the_exact_line() {
        let theme = crate::theme::Theme::default();
        for paragraphs in 1..30 {
            let text: String = (0..paragraphs).map(|n| format!("Line {n}.\n\n")).collect();
            let key = DocKey {
                space: "space".into(),
                page: format!("page {paragraphs}"),
                version: "1".into(),
            };
            let mut docs = DocCache::default();
            docs.insert(
                key.clone(),
                Arc::new(MarkdownDoc::parse(&text, &theme)),
                false,
            );
            let mut reader = Reader::default();
            reader.show(key.clone(), &docs, 40);
            for line in 0..reader.line_count() {
                reader.scroll = line;
                let coloured = Arc::new(MarkdownDoc::parse(&text, &theme));
                docs.insert(key.clone(), coloured, true);
                reader.refresh_layout(&docs, 40);
                assert_eq!(reader.scroll, line, "{paragraphs} paragraphs");
                docs.forget(&key);
                docs.insert(
                    key.clone(),
                    Arc::new(MarkdownDoc::parse(&text, &theme)),
                    false,
                );
                reader.laid_out_rank = ParseRank::default();
            }
        }
    }

    #[test]
    fn position_tells_where_the_top_line_is() {
        let mut reader = reader_with_lines(100);
        let height = 20;
        assert_eq!(reader.position(height).as_deref(), Some("Top"));
        reader.scroll_by(40, height);
        assert_eq!(reader.position(height).as_deref(), Some("50%"));
        reader.scroll_by(1, height);
        assert_eq!(reader.position(height).as_deref(), Some("51%"));
        reader.scroll_to(usize::MAX, height);
        assert_eq!(reader.position(height).as_deref(), Some("Bot"));
    }

    #[test]
    fn a_page_that_fits_is_all_shown_and_an_empty_one_has_no_position() {
        assert_eq!(reader_with_lines(5).position(20).as_deref(), Some("All"));
        assert_eq!(reader_with_lines(0).position(20), None);
        assert_eq!(Reader::default().position(20), None);
    }

    fn doc_key(page: &str) -> DocKey {
        DocKey {
            space: "space".into(),
            page: page.into(),
            version: "1".into(),
        }
    }

    fn drawn(reader: &Reader, area: Rect) -> Buffer {
        let theme = crate::theme::Theme::default();
        let backend = ratatui::backend::TestBackend::new(50, 14);
        let mut terminal = ratatui::Terminal::new(backend).expect("terminal");
        terminal
            .draw(|frame| reader.draw(frame, area, &theme))
            .expect("drawn");
        terminal.backend().buffer().clone()
    }

    /// A reader drawn again shows what a reader drawn for the first time would, whatever
    /// changed in between: the scroll, the search, the focused link, the page, the area.
    #[test]
    fn a_reader_drawn_again_shows_what_a_fresh_one_would() {
        let theme = crate::theme::Theme::default();
        let text: String = (0..30)
            .map(|n| format!("Line {n} links to [the site](https://example.com/{n}).\n\n"))
            .collect();
        let mut docs = DocCache::default();
        for page in ["first", "second"] {
            let markdown = format!("# The {page} page\n\n{text}");
            let doc = Arc::new(MarkdownDoc::parse(&markdown, &theme));
            docs.insert(doc_key(page), doc, false);
        }
        let mut reader = Reader::default();
        reader.show(doc_key("first"), &docs, 40);
        let mut area = Rect::new(2, 1, 40, 10);
        let mut last = drawn(&reader, area);
        type Change<'a> = &'a dyn Fn(&mut Reader, &mut Rect);
        let changes: [Change; 8] = [
            &|_, _| {},
            &|reader, _| reader.scroll_by(3, 10),
            &|reader, _| reader.search("line 1", 10),
            &|reader, _| reader.step_match(true, 10),
            &|reader, _| {
                reader.step_link(true, 10);
            },
            &|_, area| *area = Rect::new(0, 2, 40, 12),
            &|reader, _| reader.show(doc_key("second"), &docs, 40),
            &|reader, _| reader.refresh_layout(&docs, 12),
        ];
        for (step, change) in changes.iter().enumerate() {
            change(&mut reader, &mut area);
            let again = drawn(&reader, area);
            let fresh = Reader {
                drawn: RefCell::default(),
                ..reader.clone()
            };
            assert_eq!(again, drawn(&fresh, area), "after change {step}");
            assert_eq!(step == 0, again == last, "change {step} shows");
            last = again;
        }
    }

    /// Drawn again unchanged, the kept cells are copied: the rows are not made again.
    #[test]
    fn a_reader_drawn_again_unchanged_copies_its_cells() {
        let mut reader = reader_with_lines(30);
        let area = Rect::new(0, 0, 20, 10);
        drawn(&reader, area);
        reader.drawn.borrow_mut().cells[(0, 0)].set_symbol("#");
        assert_eq!(drawn(&reader, area)[(0, 0)].symbol(), "#");
        reader.scroll_by(1, 10);
        assert_eq!(drawn(&reader, area)[(0, 0)].symbol(), "r");
    }
}
