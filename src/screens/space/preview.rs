//! The preview beside the tree: what it fetches and parses for the selected page, when (once the
//! selection rests), and its focus, zoom and scrolling.

use std::sync::Arc;
use std::time::Duration;

use ratatui::layout::Rect;

use super::SpaceScreen;
use crate::api::models::Page;
use crate::screens::page_doc::parse_unless_cached;
use crate::screens::step::{Ctx, Step};
use crate::ui::keymap::Action;
use crate::ui::markdown::preview_source;
use crate::ui::reader::Reader;
use crate::vocabulary::{ApiCall, Cmd, DocKey, Loadable};

/// Pages longer than this are previewed from their start only: far more than a screenful of
/// markdown, and a small fraction of a big page's parse.
pub const PREVIEW_BYTES: usize = 16 * 1024;

/// How long the selection must rest on a page before its preview is fetched, so holding `j`
/// through a tree fetches only the page it stops on.
pub const PREVIEW_DELAY: Duration = Duration::from_millis(150);

/// Asks for what the preview of a fetched page needs: nothing when it is parsed already, the
/// whole page when it is short, else the parse of its start, keeping the markdown so reading
/// the page does not fetch it again.
pub(super) fn parse_for_preview(key: &DocKey, page: &Page, ctx: &mut Ctx) -> Cmd {
    let markdown = page.markdown.as_deref().unwrap_or_default();
    let Some(start) = preview_source(markdown, PREVIEW_BYTES) else {
        return parse_unless_cached(key, page, ctx);
    };
    if ctx.docs.get(key).is_some() {
        return Cmd::None;
    }
    ctx.docs.keep_source(key.clone(), Arc::from(markdown));
    Cmd::ParsePreview {
        key: key.clone(),
        markdown: Arc::from(start),
    }
}

/// Tree on the left, preview on the right; the preview disappears on narrow terminals.
pub fn split(area: Rect) -> (Rect, Option<Rect>) {
    if area.width < 60 {
        return (area, None);
    }
    let tree_width = (u32::from(area.width) * 35 / 100).clamp(24, 48) as u16;
    let tree = Rect::new(area.x, area.y, tree_width, area.height);
    let preview = Rect::new(
        area.x + tree_width + 1,
        area.y,
        area.width - tree_width - 1,
        area.height,
    );
    (tree, Some(preview))
}

impl SpaceScreen {
    /// Where the tree and the preview go: side by side, or the focused one alone when zoomed
    /// (and the preview alone when focused on a terminal too narrow for both).
    pub fn panes(&self, area: Rect) -> (Option<Rect>, Option<Rect>) {
        let (tree, preview) = split(area);
        match (self.zoomed, self.preview_focused) {
            (true, true) => (None, Some(area)),
            (true, false) => (Some(area), None),
            (false, true) if preview.is_none() => (None, Some(area)),
            _ => (Some(tree), preview),
        }
    }

    /// `tab` / `ctrl-w`, `z`, and the preview's own keys while it has the focus.
    pub(super) fn on_pane_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        match action {
            Action::FocusPane => {
                self.preview_focused = !self.preview_focused;
                return Some(Step::cmd(self.relayout_preview(ctx)));
            }
            Action::ZoomPane => {
                self.zoomed = !self.zoomed;
                return Some(Step::cmd(self.relayout_preview(ctx)));
            }
            Action::PreviewWheelDown | Action::PreviewWheelUp => {
                return Some(self.wheel_preview(action == Action::PreviewWheelDown, ctx));
            }
            _ => {}
        }
        if !self.preview_focused {
            return None;
        }
        let height = Self::preview_rows(ctx);
        if self.reader.scroll_for(action, height) {
            return Some(Step::default());
        }
        if action != Action::Back {
            return None;
        }
        self.preview_focused = false;
        Some(Step::cmd(self.relayout_preview(ctx)))
    }

    /// The wheel over the preview scrolls it, three lines a notch: the preview takes the focus
    /// first (only a focused preview is laid out whole, so it can scroll), as a click would.
    fn wheel_preview(&mut self, down: bool, ctx: &mut Ctx) -> Step {
        const WHEEL_LINES: isize = 3;
        let cmd = if self.preview_focused {
            Cmd::None
        } else {
            self.preview_focused = true;
            self.relayout_preview(ctx)
        };
        let lines = if down { WHEEL_LINES } else { -WHEEL_LINES };
        let before = self.reader.scroll as isize;
        self.reader.scroll_by(lines, Self::preview_rows(ctx));
        // A page previewed from its start is parsed whole first: what the short layout could
        // not scroll yet is scrolled once the whole page is laid out.
        self.wheel_pending = lines - (self.reader.scroll as isize - before);
        Step::cmd(cmd)
    }

    /// The preview's width and how much of it is laid out follow the focus and the zoom: a
    /// focused preview scrolls, so the whole page is laid out (and parsed, when only its start
    /// was).
    fn relayout_preview(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(width) = self.preview_width_now(ctx) else {
            return Cmd::None;
        };
        self.reader.row_limit = if self.preview_focused {
            None
        } else {
            self.reader.scroll = 0;
            Some(Self::preview_rows(ctx))
        };
        self.reader.refresh_layout(ctx.docs, width);
        let Some(key) = self.reader.key.clone() else {
            return Cmd::None;
        };
        let partial = ctx
            .docs
            .get(&key)
            .is_some_and(|cached| !cached.is_complete());
        match ctx.docs.source(&key) {
            Some(markdown) if self.preview_focused && partial => {
                Cmd::ParseMarkdown { key, markdown }
            }
            _ => Cmd::None,
        }
    }

    pub(super) fn preview_width_now(&self, ctx: &Ctx) -> Option<u16> {
        let (width, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
        self.panes(Rect::new(0, 0, width, height))
            .1
            .map(|r| r.width)
    }

    /// Rows the preview shows: the body below its two-row title.
    pub(super) fn preview_rows(ctx: &Ctx) -> usize {
        let (_, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
        usize::from(height.saturating_sub(2))
    }

    /// Shows a page in the preview, laid out only as far as the preview shows it.
    pub(super) fn show_preview(&mut self, key: DocKey, ctx: &Ctx, width: u16) {
        self.reader.row_limit = (!self.preview_focused).then(|| Self::preview_rows(ctx));
        self.reader.show(key, ctx.docs, width);
    }

    /// Loads the preview of the selected page when it changed: at once (the first page of a
    /// space, a refresh), or after [`PREVIEW_DELAY`] when the selection moved.
    pub(super) fn follow_selection(&mut self, ctx: &mut Ctx, force: bool) -> Cmd {
        self.preview_selection(ctx, force, false)
    }

    /// Like [`follow_selection`](Self::follow_selection), waiting for the selection to rest.
    pub(super) fn follow_moving_selection(&mut self, ctx: &mut Ctx) -> Cmd {
        self.preview_selection(ctx, false, true)
    }

    fn preview_selection(&mut self, ctx: &mut Ctx, force: bool, debounce: bool) -> Cmd {
        let Some(width) = self.preview_width_now(ctx) else {
            return Cmd::None;
        };
        let Some(page) = self.selected_page().cloned() else {
            return Cmd::None;
        };
        if !force && self.preview_page.as_deref() == Some(page.id.as_str()) {
            return Cmd::None;
        }
        self.preview_page = Some(page.id.clone());
        // A selection moving on leaves its last rest timer stale: it need not go off.
        let stale_timer = Cmd::cancel_timer(&mut self.preview_timer);
        if !page.has_body() {
            self.preview = Loadable::NotAsked;
            self.reader = Reader::default();
            return stale_timer;
        }
        if !force && let Some(key) = self.known.get(&page.id).cloned() {
            self.show_preview(key.clone(), ctx, width);
            self.preview = Loadable::Loaded(key);
            return stale_timer;
        }
        if debounce {
            let id = ctx.requests.issue();
            let timer = Cmd::restart_timer(&mut self.preview_timer, id, PREVIEW_DELAY);
            return Cmd::batch([stale_timer, timer]);
        }
        Cmd::batch([stale_timer, self.fetch_preview(&page.id, ctx)])
    }

    pub(super) fn fetch_preview(&mut self, page: &str, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.preview.start(request);
        Cmd::Api {
            request,
            call: ApiCall::GetPageMarkdown {
                space: self.space.id.clone(),
                page: page.to_string(),
            },
        }
    }

    /// Another screen opens on top: a preview still waiting for the selection to rest is not
    /// fetched behind it, but when this screen shows again.
    pub(super) fn cancel_pending_preview(&mut self) {
        if self.preview_timer.take().is_some() {
            self.preview_page = None;
        }
    }
}
