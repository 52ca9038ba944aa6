//! Following links from the reader, and the history of pages read (a browser's, or vim's
//! jump list): following a link remembers the page and the position left; going back
//! restores both; following a new link after going back forgets what was ahead.

use std::collections::HashMap;

use super::follow::{self, LinkTarget, PageReference};
use super::{PageScreen, SectionTarget, anchor_of};
use crate::api::models::Space;
use crate::screens::step::{Ctx, Step};
use crate::ui::page_tree::{PageNode, build_page_tree};
use crate::ui::reader::Reader;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::reader_links::{ReaderCall, ReaderResponse};
use crate::vocabulary::{ApiCall, Cmd, DocKey, Loadable, RequestId};

/// The most pages the history keeps each way.
const MAX_VISITS: usize = 100;

/// A page as it was left: which page and how far down.
#[derive(Debug, Clone, PartialEq)]
pub struct Visit {
    pub space: Space,
    pub page: PageNode,
    pub document: Option<DocKey>,
    pub scroll: usize,
}

/// A space's pages, flattened, once a link needed them.
#[derive(Debug, Clone)]
struct SpacePages {
    space: Space,
    pages: Vec<PageNode>,
}

/// A link waiting for its space's pages.
#[derive(Debug, Clone)]
struct PendingLink {
    request: RequestId,
    reference: PageReference,
    anchor: Option<String>,
    shown: String,
}

#[derive(Debug, Default)]
pub struct History {
    pub back: Vec<Visit>,
    pub forward: Vec<Visit>,
    spaces: HashMap<String, SpacePages>,
    pending: Option<PendingLink>,
    /// Where to scroll once the page shown is laid out (a page gone back to).
    pending_scroll: Option<usize>,
}

impl History {
    fn push_back(&mut self, visit: Visit) {
        self.back.push(visit);
        if self.back.len() > MAX_VISITS {
            self.back.remove(0);
        }
    }
}

/// A link's destination as the status line shows it: sanitized, and short.
fn shown(destination: &str) -> String {
    crate::ui::text::truncate(&sanitize(destination), 60)
}

impl PageScreen {
    fn visit(&self) -> Visit {
        Visit {
            space: self.space.clone(),
            page: self.page.clone(),
            document: self.document.value().cloned(),
            scroll: self.reader.scroll,
        }
    }

    /// `enter` on the focused link.
    pub(super) fn follow_focused_link(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(link) = self.reader.focused_link().cloned() else {
            self.link_status = Some("No link chosen: tab moves to the next one.".to_string());
            return Cmd::None;
        };
        let page_url = self.page.app_link();
        let app_url = page_url.as_deref().or(self.space.urls.app.as_deref());
        let target = follow::parse(
            &link.destination,
            self.page.path.as_deref(),
            &self.space.id,
            follow::app_base(app_url).as_deref(),
        );
        let destination = shown(&link.destination);
        match target {
            LinkTarget::Anchor(anchor) => {
                self.jump_to_anchor(&anchor, ctx);
                Cmd::None
            }
            LinkTarget::Outside(address) => self.open_outside(&address),
            LinkTarget::Unknown(reason) => {
                self.link_status = Some(format!("Cannot follow {destination}: {reason}."));
                Cmd::None
            }
            LinkTarget::Page {
                space,
                reference,
                anchor,
            } => {
                let space = space.unwrap_or_else(|| self.space.id.clone());
                if self.history.spaces.contains_key(&space) {
                    return self.open_found(&space, &reference, anchor, &destination, ctx);
                }
                let request = ctx.requests.issue();
                self.history.pending = Some(PendingLink {
                    request,
                    reference,
                    anchor,
                    shown: destination.clone(),
                });
                self.link_status = Some(format!("Looking up {destination}…"));
                Cmd::Api {
                    request,
                    call: ApiCall::Reader(ReaderCall::SpacePages { space }),
                }
            }
        }
    }

    /// An address quire does not show: the browser opens it (where there is none, the
    /// runtime copies it instead and says so); other schemes (`mailto:`) are copied.
    fn open_outside(&mut self, address: &str) -> Cmd {
        let shown = shown(address);
        if address.starts_with("https://") || address.starts_with("http://") {
            self.link_status = Some(opening_text(address));
            Cmd::OpenInBrowser(address.to_string())
        } else {
            self.link_status = Some(format!("Copied {shown}"));
            Cmd::CopyToClipboard(address.to_string())
        }
    }

    /// Scrolls to the heading whose anchor is `anchor`, remembering where the view was.
    fn jump_to_anchor(&mut self, anchor: &str, ctx: &Ctx) {
        let row = self.heading_row(anchor, ctx);
        let Some(row) = row else {
            self.link_status = Some(format!("No heading #{} on this page.", shown(anchor)));
            return;
        };
        let visit = self.visit();
        self.history.push_back(visit);
        self.history.forward.clear();
        let (_, height) = Self::text_size(ctx);
        self.reader.scroll_to(row, height);
        self.link_status = Some(format!("#{}", shown(anchor)));
    }

    fn heading_row(&self, anchor: &str, ctx: &Ctx) -> Option<usize> {
        let key = self.reader.key.as_ref()?;
        let cached = ctx.docs.get(key)?;
        let wanted = anchor.to_lowercase();
        let index = cached
            .doc
            .headings()
            .iter()
            .position(|heading| anchor_of(&heading.text) == wanted)?;
        self.reader
            .layout
            .as_ref()?
            .heading_rows
            .get(index)
            .copied()
    }

    /// The page tree of a link's space arrived: open the page it names.
    pub(super) fn on_space_pages(
        &mut self,
        request: RequestId,
        answer: &ReaderResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let ReaderResponse::SpacePages(result) = answer;
        if self.history.pending.as_ref().map(|pending| pending.request) != Some(request) {
            return None;
        }
        let pending = self.history.pending.take()?;
        let (space, pages) = match result {
            Ok(found) => found,
            Err(error) => {
                self.link_status = Some(format!(
                    "Cannot open {}: {}",
                    pending.shown,
                    sanitize(&error.to_string())
                ));
                return Some(Step::default());
            }
        };
        let tree = build_page_tree(pages);
        let pages = tree.nodes().map(|(_, node)| node.item.clone()).collect();
        self.history.spaces.insert(
            space.id.clone(),
            SpacePages {
                space: space.clone(),
                pages,
            },
        );
        let cmd = self.open_found(
            &space.id,
            &pending.reference,
            pending.anchor,
            &pending.shown,
            ctx,
        );
        Some(Step::cmd(cmd))
    }

    /// Opens the page `reference` names in a space whose pages are known.
    fn open_found(
        &mut self,
        space: &str,
        reference: &PageReference,
        anchor: Option<String>,
        destination: &str,
        ctx: &mut Ctx,
    ) -> Cmd {
        let Some(known) = self.history.spaces.get(space) else {
            return Cmd::None;
        };
        let Some(page) = follow::find_page(&known.pages, reference).cloned() else {
            self.link_status = Some(format!(
                "No page {destination} in {}.",
                sanitize(&known.space.title)
            ));
            return Cmd::None;
        };
        let space = known.space.clone();
        if !page.has_body() {
            return match page.link_target.clone() {
                Some(address) => self.open_outside(&address),
                None => {
                    self.link_status = Some(format!(
                        "{} is a group of pages, with nothing to read.",
                        sanitize(&page.title)
                    ));
                    Cmd::None
                }
            };
        }
        if page.id == self.page.id && space.id == self.space.id {
            if let Some(anchor) = anchor {
                self.jump_to_anchor(&anchor, ctx);
            }
            return Cmd::None;
        }
        let visit = self.visit();
        self.history.push_back(visit);
        self.history.forward.clear();
        let title = sanitize(&page.title).into_owned();
        let section = anchor.map(|anchor| SectionTarget {
            title: String::new(),
            anchor: Some(anchor),
        });
        let cmd = self.show_visit(
            Visit {
                space,
                page,
                document: None,
                scroll: 0,
            },
            section,
            ctx,
        );
        self.link_status = Some(format!("Opened {title}"));
        cmd
    }

    /// Reads another page in this screen, at `visit.scroll` or at `section`.
    fn show_visit(&mut self, visit: Visit, section: Option<SectionTarget>, ctx: &mut Ctx) -> Cmd {
        use crate::screens::ScreenState;
        let same_page = visit.page.id == self.page.id && visit.space.id == self.space.id;
        if same_page && self.reader.is_ready() {
            let (_, height) = Self::text_size(ctx);
            self.reader.scroll_to(visit.scroll, height);
            return Cmd::None;
        }
        let known = visit
            .document
            .clone()
            .filter(|key| ctx.docs.get(key).is_some() || ctx.docs.source(key).is_some());
        self.space = visit.space;
        self.page = visit.page;
        self.document = known.map_or(Loadable::NotAsked, Loadable::Loaded);
        self.reader = Reader::default();
        self.search_input = None;
        self.contents = None;
        self.section = section;
        self.history.pending = None;
        self.history.pending_scroll = (visit.scroll > 0).then_some(visit.scroll);
        self.enter(ctx)
    }

    /// Once the page is laid out whole, scrolls to where it was left.
    pub(super) fn restore_position(&mut self, ctx: &Ctx) {
        let Some(scroll) = self.history.pending_scroll else {
            return;
        };
        let complete = self
            .reader
            .key
            .as_ref()
            .and_then(|key| ctx.docs.get(key))
            .is_some_and(|cached| cached.is_complete());
        if !complete || !self.reader.is_ready() {
            return;
        }
        self.history.pending_scroll = None;
        let (_, height) = Self::text_size(ctx);
        self.reader.scroll_to(scroll, height);
    }

    /// `ctrl-o` / `H`: the page read before, where it was left.
    pub(super) fn go_back(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(visit) = self.history.back.pop() else {
            self.link_status = Some("Nothing before this page.".to_string());
            return Cmd::None;
        };
        let here = self.visit();
        self.history.forward.push(here);
        self.show_visit(visit, None, ctx)
    }

    /// `ctrl-i` / `L`: forward again, after going back.
    pub(super) fn go_forward(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(visit) = self.history.forward.pop() else {
            self.link_status = Some("Nothing ahead: follow a link first.".to_string());
            return Cmd::None;
        };
        let here = self.visit();
        self.history.push_back(here);
        self.show_visit(visit, None, ctx)
    }
}

/// What the status line says while `address` is handed to the browser; taken down when the
/// browser could not be opened (the footer then says why).
pub(super) fn opening_text(address: &str) -> String {
    format!("Opening {} in the browser", shown(address))
}
