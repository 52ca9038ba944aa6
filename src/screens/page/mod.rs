//! A page read at full width: line, half-page and page scrolling, `/` search with `n`/`N`,
//! `t` for a table of contents (at the section being read), and links: `tab` moves between
//! them, `enter` follows one, `ctrl-o`/`H` and `ctrl-i`/`L` go back and forward through the
//! pages read.

pub mod follow;
mod history;
mod view;

pub use history::Visit;

use crate::screens::change_requests::create::InSpace;
use crate::screens::look::Look;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::ContentSource;
use crate::api::models::Space;
use crate::screens::ScreenState;
use crate::screens::page_doc::{doc_key, parse_unless_cached};
use crate::screens::route::Route;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::input::{InputOutcome, LineInput};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::page_tree::PageNode;
use crate::ui::reader::Reader;
use crate::vocabulary::links::LinkList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, DocKey, Loadable};

/// Lines are easier to read when they are not as wide as a wide terminal.
pub const MAX_TEXT_WIDTH: u16 = 100;

/// Where the text goes inside the body: a margin on each side, at most `MAX_TEXT_WIDTH` wide,
/// a title row on top and a status row below.
pub fn text_area(body: Rect) -> Rect {
    let width = body.width.saturating_sub(2).min(MAX_TEXT_WIDTH);
    let x = body.x + (body.width.saturating_sub(width)) / 2;
    let height = body.height.saturating_sub(2);
    Rect::new(x, body.y + 1, width, height)
}

#[derive(Debug)]
pub struct PageScreen {
    pub space: Space,
    pub page: PageNode,
    pub document: Loadable<DocKey>,
    pub reader: Reader,
    pub search_input: Option<LineInput>,
    /// The table of contents while it is open: which heading is selected.
    pub contents: Option<Selection>,
    /// What `P` says: main content has no PDF of its own in this API.
    pub change_requests: InSpace,
    /// The section to scroll to once the whole page is laid out (opened from a search hit).
    pub section: Option<SectionTarget>,
    /// The pages read before this one (newest last) and after it, when gone back.
    pub history: history::History,
    /// What following a link said: where it went, or why it could not.
    pub link_status: Option<String>,
    /// The space the reader was opened in: a page of another one, reached by a link, names
    /// its space in the breadcrumb.
    pub opened_in: String,
}

/// A section of a page, by its heading's title and its anchor (`install#linux` → `linux`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionTarget {
    pub title: String,
    pub anchor: Option<String>,
}

/// The anchor a heading gets: lower-case words joined by `-`, as the platform writes them.
pub fn anchor_of(heading: &str) -> String {
    let mut anchor = String::new();
    for character in heading.trim().chars().flat_map(char::to_lowercase) {
        if character.is_alphanumeric() {
            anchor.push(character);
        } else if !anchor.is_empty() && !anchor.ends_with('-') {
            anchor.push('-');
        }
    }
    anchor.trim_end_matches('-').to_string()
}

impl PageScreen {
    pub fn new(space: Space, page: PageNode, known: Option<DocKey>) -> PageScreen {
        let opened_in = space.id.clone();
        PageScreen {
            space,
            page,
            document: known.map_or(Loadable::NotAsked, Loadable::Loaded),
            reader: Reader::default(),
            search_input: None,
            contents: None,
            change_requests: InSpace::default(),
            section: None,
            history: history::History::default(),
            link_status: None,
            opened_in,
        }
    }

    /// Opens at a section: the reader scrolls to its heading once the page is laid out.
    pub fn at_section(mut self, section: Option<SectionTarget>) -> PageScreen {
        self.section = section;
        self
    }

    /// Scrolls to the section asked for, once the whole page is parsed and laid out; a
    /// section whose heading is not found leaves the page at its top.
    fn scroll_to_section(&mut self, ctx: &Ctx) {
        self.restore_position(ctx);
        let Some(target) = &self.section else { return };
        let Some(key) = &self.reader.key else { return };
        let Some(cached) = ctx.docs.get(key).filter(|cached| cached.is_complete()) else {
            return;
        };
        let Some(layout) = self.reader.layout.as_ref() else {
            return;
        };
        let wanted_title = target.title.trim().to_lowercase();
        let index = cached.doc.headings().iter().position(|heading| {
            target.anchor.as_deref() == Some(anchor_of(&heading.text).as_str())
                || heading.text.trim().to_lowercase() == wanted_title
        });
        let row = index.and_then(|index| layout.heading_rows.get(index).copied());
        self.section = None;
        if let Some(row) = row {
            let (_, height) = Self::text_size(ctx);
            self.reader.scroll_to(row, height);
        }
    }

    fn text_size(ctx: &Ctx) -> (u16, usize) {
        let (width, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
        let area = text_area(Rect::new(0, 0, width, height));
        (area.width, area.height as usize)
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.document.start(request);
        Cmd::Api {
            request,
            call: ApiCall::GetPageMarkdown {
                space: self.space.id.clone(),
                page: self.page.id.clone(),
            },
        }
    }

    /// The links written on this page, or what links to it.
    fn links_of_page(&self, action: Action) -> Step {
        let (id, title) = (self.page.id.clone(), self.page.title.clone());
        let list = if action == Action::Backlinks {
            LinkList::PageBacklinks { id, title }
        } else {
            LinkList::Page { id, title }
        };
        let source = ContentSource::Space(self.space.id.clone());
        Step::open(Route::Links {
            source,
            space: self.space.clone(),
            list,
        })
    }

    fn on_contents_key(&mut self, action: Action, ctx: &mut Ctx) {
        let headings = self
            .reader
            .key
            .as_ref()
            .and_then(|key| ctx.docs.get(key))
            .map(|cached| cached.doc.headings().len())
            .unwrap_or(0);
        let (_, height) = Self::text_size(ctx);
        let Some(selection) = self.contents.as_mut() else {
            return;
        };
        match action {
            Action::Down => selection.move_by(1, headings),
            Action::Up => selection.move_by(-1, headings),
            Action::Top => selection.top(),
            Action::Bottom => selection.bottom(headings),
            Action::Open => {
                let index = selection.selected;
                self.contents = None;
                let row = self
                    .reader
                    .layout
                    .as_ref()
                    .and_then(|layout| layout.heading_rows.get(index).copied());
                if let Some(row) = row {
                    self.reader.scroll_to(row, height);
                }
            }
            Action::Back | Action::TableOfContents | Action::Quit => self.contents = None,
            _ => {}
        }
    }
}

impl ScreenState for PageScreen {
    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        let link = self
            .link_status
            .as_deref()
            .map(crate::ui::notice::Notice::info);
        let notice = self.change_requests.notice.clone();
        link.into_iter().chain(notice).collect()
    }

    fn on_browser_failed(&mut self, url: &str) {
        if self.link_status.as_deref() == Some(history::opening_text(url).as_str()) {
            self.link_status = None;
        }
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let (width, _) = Self::text_size(ctx);
        let Some(key) = self.document.value().cloned() else {
            return self.load(ctx);
        };
        if ctx
            .docs
            .get(&key)
            .is_some_and(|cached| cached.is_complete())
        {
            self.reader.show(key, ctx.docs, width);
            self.scroll_to_section(ctx);
            return Cmd::None;
        }
        // Previewed only: its start shows at once, and the markdown fetched for the preview
        // is parsed whole, without fetching it again.
        match ctx.docs.source(&key) {
            Some(markdown) => {
                self.reader.show(key.clone(), ctx.docs, width);
                Cmd::ParseMarkdown { key, markdown }
            }
            None => self.load(ctx),
        }
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        // `r` renders the page again too, not only fetches it: forget the parsed copy so
        // the answer is parsed and highlighted afresh even when the page did not change.
        if let Some(key) = self.document.value() {
            ctx.docs.forget(key);
        }
        self.load(ctx)
    }

    fn title(&self) -> String {
        if self.space.id == self.opened_in {
            self.page.title.clone()
        } else {
            format!("{} › {}", self.space.title, self.page.title)
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        // The table of contents is a list: `enter` jumps, the rest moves as in the reader.
        if self.contents.is_some() {
            &[KeyContext::List, KeyContext::Reader]
        } else {
            &[KeyContext::ReaderLinks, KeyContext::Reader]
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::PageDown, "page"),
            (Action::Search, "search"),
            (Action::NextMatch, "next"),
            (Action::TableOfContents, "contents"),
            (Action::NextLink, "links"),
            (Action::FollowLink, "follow"),
            (Action::HistoryBack, "history"),
            (Action::CopyLink, "copy link"),
            (Action::Pdf, "PDF"),
            (Action::LinksReport, "link list"),
            (Action::Backlinks, "backlinks"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        if let Some(step) = self.change_requests.on_raw_key(key, ctx) {
            return Some(step);
        }
        let input = self.search_input.as_mut()?;
        let (_, height) = Self::text_size(ctx);
        match input.handle_key(key) {
            InputOutcome::Submitted => {
                let query = input.text.clone();
                self.search_input = None;
                self.reader.search(&query, height);
            }
            InputOutcome::Cancelled => self.search_input = None,
            _ => {}
        }
        Some(Step::default())
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(input) = self.search_input.as_mut() {
            input.insert_str(text);
        }
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if self.contents.is_some() {
            self.on_contents_key(action, ctx);
            return Some(Step::default());
        }
        if action == Action::Pdf {
            return self.change_requests.on_action(action, &self.space);
        }
        // What the last link said gives way to whatever is done next.
        self.link_status = None;
        let (_, height) = Self::text_size(ctx);
        if self.reader.scroll_for(action, height) {
            return Some(Step::default());
        }
        match action {
            Action::Search => self.search_input = Some(LineInput::default()),
            Action::NextMatch => self.reader.step_match(true, height),
            Action::PreviousMatch => self.reader.step_match(false, height),
            Action::TableOfContents => {
                if self.reader.is_ready() {
                    // at the section being read, not the first one.
                    let mut selection = Selection::default();
                    selection.selected = self.reader.current_heading().unwrap_or(0);
                    self.contents = Some(selection);
                }
            }
            Action::Back if !self.reader.query.is_empty() => self.reader.search("", height),
            Action::LinksReport | Action::Backlinks => return Some(self.links_of_page(action)),
            Action::NextLink | Action::PreviousLink => {
                if !self.reader.step_link(action == Action::NextLink, height) {
                    self.link_status = Some("No more links this way.".to_string());
                }
            }
            Action::FollowLink => return Some(Step::cmd(self.follow_focused_link(ctx))),
            Action::HistoryBack => return Some(Step::cmd(self.go_back(ctx))),
            Action::HistoryForward => return Some(Step::cmd(self.go_forward(ctx))),
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_resize(&mut self, ctx: &mut Ctx) {
        let (width, _) = Self::text_size(ctx);
        self.reader.refresh_layout(ctx.docs, width);
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let ApiResponse::Reader(answer) = response {
            return self.on_space_pages(request, answer, ctx);
        }
        let ApiResponse::PageMarkdown(result) = response else {
            return None;
        };
        if self.document.waiting_for() != Some(request) {
            return None;
        }
        if ctx.answer.is_provisional() && self.document.value().is_some() {
            return None;
        }
        let page = match result {
            Ok(page) => page,
            Err(error) => {
                self.document
                    .settle_as(request, Err(error.clone()), ctx.answer);
                return Some(Step::default());
            }
        };
        let key = doc_key(&self.space.id, page);
        self.document
            .settle_as(request, Ok(key.clone()), ctx.answer);
        let (width, _) = Self::text_size(ctx);
        self.reader.show(key.clone(), ctx.docs, width);
        self.scroll_to_section(ctx);
        Some(Step::cmd(parse_unless_cached(&key, page, ctx)))
    }

    fn on_document(&mut self, key: &DocKey, ctx: &mut Ctx) {
        if self.reader.key.as_ref() == Some(key) {
            let (width, _) = Self::text_size(ctx);
            self.reader.refresh_layout(ctx.docs, width);
            self.scroll_to_section(ctx);
        }
    }

    fn link(&self) -> Option<String> {
        self.page.app_link()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
