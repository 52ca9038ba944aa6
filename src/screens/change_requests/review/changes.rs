//! The changes tab: which pages changed, and the diff (or rendered version) of the selected one.

use std::sync::Arc;

use ratatui::layout::Rect;

use super::ReviewScreen;
use crate::api::models::SemanticChangeType;
use crate::screens::step::Ctx;
use crate::ui::diff;
use crate::vocabulary::change_requests::{ChangeRequestsCall, ReviewBundle};
use crate::vocabulary::{ApiCall, Cmd, DocKey};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Created,
    Edited,
    Deleted,
    Moved,
}

impl ChangeKind {
    pub fn marker(self) -> &'static str {
        match self {
            ChangeKind::Created => "+",
            ChangeKind::Edited => "~",
            ChangeKind::Deleted => "-",
            ChangeKind::Moved => "→",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ChangeKind::Created => "created",
            ChangeKind::Edited => "edited",
            ChangeKind::Deleted => "deleted",
            ChangeKind::Moved => "moved",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChangedPageRow {
    pub page: String,
    pub title: String,
    pub path: Option<String>,
    pub kinds: Vec<ChangeKind>,
}

impl ChangedPageRow {
    pub fn exists_on_main(&self) -> bool {
        !self.kinds.contains(&ChangeKind::Created)
    }

    pub fn exists_in_change_request(&self) -> bool {
        !self.kinds.contains(&ChangeKind::Deleted)
    }
}

/// One row per changed page (a page edited and moved shows both marks), in the server's order.
pub(super) fn changed_pages(bundle: &ReviewBundle) -> Vec<ChangedPageRow> {
    let mut rows: Vec<ChangedPageRow> = Vec::new();
    let Ok(changes) = &bundle.changes else {
        return rows;
    };
    for change in &changes.changes {
        let kind = match change.change_type {
            SemanticChangeType::PageCreated => ChangeKind::Created,
            SemanticChangeType::PageEdited => ChangeKind::Edited,
            SemanticChangeType::PageDeleted => ChangeKind::Deleted,
            SemanticChangeType::PageMoved => ChangeKind::Moved,
            _ => continue,
        };
        let Some(page) = &change.page else { continue };
        match rows.iter_mut().find(|row| row.page == page.id) {
            Some(row) => {
                if !row.kinds.contains(&kind) {
                    row.kinds.push(kind);
                }
            }
            None => rows.push(ChangedPageRow {
                page: page.id.clone(),
                title: page.title.clone(),
                path: page.path.clone(),
                kinds: vec![kind],
            }),
        }
    }
    rows
}

/// The right-hand pane of the changes tab, for a terminal of the current size.
pub(super) fn diff_area(ctx: &Ctx) -> Rect {
    let (width, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
    split(Rect::new(
        0,
        0,
        width,
        height.saturating_sub(super::layout::HEADER_ROWS),
    ))
    .1
}

/// How the refusal of side by side on a narrow terminal starts, so a resize can clear it.
pub(super) const SIDE_BY_SIDE_REFUSAL: &str = "Side by side needs";

/// Below this width the page list folds to one row above the diff (the selected page, `J`/`K`
/// to step): a list beside the diff would leave the diff too few columns to read.
pub(crate) const FOLDED_LIST_BELOW: u16 = 60;

/// Pages on the left, the diff on the right; narrow terminals give the list a third; below
/// [`FOLDED_LIST_BELOW`] columns the list is one row above the diff.
pub(super) fn split(area: Rect) -> (Rect, Rect) {
    if area.width < FOLDED_LIST_BELOW {
        let list = Rect::new(area.x, area.y, area.width, area.height.min(1));
        let diff = Rect::new(
            area.x,
            area.y + list.height,
            area.width,
            area.height - list.height,
        );
        return (list, diff);
    }
    let list_width = (area.width / 4).clamp(18.min(area.width), 36);
    let list = Rect::new(area.x, area.y, list_width, area.height);
    let rest = area.width.saturating_sub(list_width + 1);
    let diff = Rect::new(area.x + list_width + 1, area.y, rest, area.height);
    (list, diff)
}

/// Whether the page list is folded to one row at this width.
pub(super) fn list_folded(area: Rect) -> bool {
    area.width < FOLDED_LIST_BELOW
}

impl ReviewScreen {
    pub fn selected_page(&self) -> Option<&ChangedPageRow> {
        self.pages.get(self.page_selection.selected)
    }

    /// Loads both sides of the selected page when the selection changed (or `force`).
    pub fn follow_page(&mut self, ctx: &mut Ctx, force: bool) -> Cmd {
        let Some(page) = self.selected_page().cloned() else {
            return Cmd::None;
        };
        if !force && self.sides_page.as_deref() == Some(page.page.as_str()) {
            return Cmd::None;
        }
        self.sides_page = Some(page.page.clone());
        self.page_diff = None;
        self.diff_view = None;
        self.diff_scroll = 0;
        self.diff_cursor = 0;
        self.current_hunk = None;
        self.search_match = 0;
        self.reader = Default::default();
        let request = ctx.requests.issue();
        self.sides.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::LoadPageDiff {
                target: self.target.clone(),
                page: page.page.clone(),
                main: page.exists_on_main(),
                change_request: page.exists_in_change_request(),
            }),
        }
    }

    pub fn on_sides(&mut self, ctx: &mut Ctx) -> Cmd {
        // While `L` is on, a page seen at the last review is diffed against what was seen.
        let page = self.sides_page.clone().unwrap_or_default();
        let since_base = self.since_base(&page).map(str::to_string);
        let Some(sides) = self.sides.value() else {
            return Cmd::None;
        };
        let old = since_base.as_deref().unwrap_or(&sides.main);
        self.page_diff = Some(super::diff_rows::page_diff(
            &page,
            old,
            &sides.change_request,
            &sides.block_keys,
        ));
        self.diff_threads.placement =
            super::diff_threads::Placement::new(&sides.change_request, &sides.block_keys);
        for (node, words) in self.diff_threads.placement.keyed_words() {
            self.diff_threads
                .block_words
                .insert((page.clone(), node.to_string()), words.to_string());
        }
        for (node, table) in &sides.tables {
            self.diff_threads
                .tables
                .insert((page.clone(), node.clone()), table.clone());
        }
        let markdown: Arc<str> = Arc::from(sides.change_request.as_str());
        let key = DocKey {
            space: self.target.space.clone(),
            page: format!(
                "{}@{}",
                self.sides_page.clone().unwrap_or_default(),
                self.target.change_request
            ),
            version: format!("len:{}:{}", markdown.len(), fingerprint(&markdown)),
        };
        self.relayout(ctx);
        self.land_on_hunk(ctx);
        self.land_on_thread(ctx);
        let width = diff_area(ctx).width;
        self.reader.show(key.clone(), ctx.docs, width);
        if ctx.docs.get(&key).is_some() {
            Cmd::None
        } else {
            Cmd::ParseMarkdown { key, markdown }
        }
    }

    /// Lays the diff out for the current width; the cursor stays on the line it was on.
    pub fn relayout(&mut self, ctx: &mut Ctx) {
        let area = diff_area(ctx);
        let was_on = self
            .diff_view
            .as_ref()
            .and_then(|view| view.origin(self.diff_cursor))
            .map(|origin| (origin.old_line, origin.new_line));
        if let Some(page_diff) = &self.page_diff {
            // The gutter of thread markers takes the first columns.
            let width = area.width.saturating_sub(super::diff_threads::MARK_WIDTH);
            self.diff_view = Some(diff::render(page_diff, width, self.side_by_side, ctx.theme));
            self.decorate_diff(ctx.theme);
        }
        if let (Some(view), Some((old_line, new_line))) = (&self.diff_view, was_on)
            && (old_line.is_some() || new_line.is_some())
        {
            let same_line = |origin: &diff::DiffRowOrigin| {
                (new_line.is_some() && origin.new_line == new_line)
                    || (old_line.is_some() && origin.old_line == old_line)
            };
            if let Some(row) = view.origins.iter().position(same_line) {
                let moved = row as isize - self.diff_cursor as isize;
                self.diff_cursor = row;
                self.diff_scroll = self.diff_scroll.saturating_add_signed(moved);
            }
        }
        self.reader.refresh_layout(ctx.docs, area.width);
    }

    pub fn diff_lines(&self) -> usize {
        if self.rendered {
            self.reader.line_count()
        } else {
            self.diff_view.as_ref().map_or(0, |v| v.lines.len())
        }
    }

    /// Diff rows on screen: the search row, while shown, takes one.
    pub fn diff_height(&self, ctx: &Ctx) -> usize {
        let search_row = u16::from(self.diff_search.is_shown());
        diff_area(ctx).height.saturating_sub(search_row).max(1) as usize
    }

    /// Scrolls by `delta` rows; the diff's cursor moves as far.
    pub fn scroll_diff(&mut self, delta: isize, height: usize) {
        self.current_hunk = None;
        if self.rendered {
            self.reader.scroll_by(delta, height);
            return;
        }
        let max = self.diff_lines().saturating_sub(height.max(1)) as isize;
        self.diff_scroll = (self.diff_scroll as isize + delta).clamp(0, max.max(0)) as usize;
        self.carry_cursor(delta, height);
    }

    /// `n`/`N`: the next (previous) hunk of the page; past the last (first) one, the first
    /// (last) hunk of the next (previous) changed page.
    pub fn step_hunk(&mut self, forward: bool, ctx: &mut Ctx) -> Cmd {
        let change_rows = self
            .diff_view
            .as_ref()
            .map(|view| view.change_rows())
            .unwrap_or_default();
        let cursor = self.diff_cursor;
        let target = match (self.current_hunk, forward) {
            (Some(current), true) => Some(current + 1).filter(|next| *next < change_rows.len()),
            (Some(current), false) => current.checked_sub(1),
            (None, true) => change_rows.iter().position(|row| *row > cursor),
            (None, false) => change_rows.iter().rposition(|row| *row < cursor),
        };
        if let Some(index) = target {
            self.go_to_hunk(index, ctx);
            return Cmd::None;
        }
        let (landing, delta) = if forward {
            (HunkLanding::First, 1)
        } else {
            (HunkLanding::Last, -1)
        };
        let selected = self.page_selection.selected;
        let next_page = selected
            .checked_add_signed(delta)
            .filter(|p| *p < self.pages.len());
        let Some(next_page) = next_page else {
            let text = if forward {
                "That was the last change of the last page."
            } else {
                "That was the first change of the first page."
            };
            self.notice(text, false);
            return Cmd::None;
        };
        self.page_selection.selected = next_page;
        self.hunk_landing = Some(landing);
        self.follow_page(ctx, false)
    }

    /// The cursor on the hunk's first changed line, its header in view above it when both
    /// fit.
    fn go_to_hunk(&mut self, index: usize, ctx: &Ctx) {
        let Some(view) = &self.diff_view else { return };
        let (Some(header), Some(change)) = (
            view.hunk_rows.get(index).copied(),
            view.change_rows().get(index).copied(),
        ) else {
            return;
        };
        let height = self.diff_height(ctx);
        let max = view.lines.len().saturating_sub(height);
        self.diff_scroll = header.min(max);
        self.place_cursor(change, height);
        self.current_hunk = Some(index);
    }

    /// Once the page `n`/`N` moved to has its diff: its first (or last) hunk.
    fn land_on_hunk(&mut self, ctx: &Ctx) {
        let Some(landing) = self.hunk_landing.take() else {
            return;
        };
        let count = self.diff_view.as_ref().map_or(0, |v| v.hunk_rows.len());
        if count == 0 {
            return;
        }
        let index = match landing {
            HunkLanding::First => 0,
            HunkLanding::Last => count - 1,
        };
        self.go_to_hunk(index, ctx);
    }

    /// "change 2/5 · page 1/4": the hunk the cursor is in and the page among the changed
    /// pages.
    pub fn hunk_position(&self) -> Option<String> {
        let (at, of) = self.page_counter()?;
        let page = format!("page {at}/{of}");
        match self.hunk_counter() {
            Some((at, of)) => Some(format!("change {at}/{of} · {page}")),
            None => Some(page),
        }
    }

    /// The page shown among the changed pages, counted from 1, while a diff is shown.
    pub fn page_counter(&self) -> Option<(usize, usize)> {
        self.diff_view.as_ref()?;
        Some((self.page_selection.selected + 1, self.pages.len()))
    }

    /// The change (hunk) the cursor is in among the page's, counted from 1, when it has any.
    pub fn hunk_counter(&self) -> Option<(usize, usize)> {
        let view = self.diff_view.as_ref()?;
        if view.hunk_rows.is_empty() {
            return None;
        }
        let current = self
            .current_hunk
            .or_else(|| view.hunk_of(self.diff_cursor))
            .unwrap_or(0);
        Some((current + 1, view.hunk_rows.len()))
    }

    /// Rows of the diff that contain the `/` search, in order.
    pub fn search_rows(&self) -> Vec<usize> {
        let query = self.diff_search.text.to_lowercase();
        let Some(view) = &self.diff_view else {
            return Vec::new();
        };
        if query.is_empty() {
            return Vec::new();
        }
        view.lines
            .iter()
            .enumerate()
            .filter(|(_, line)| line_text(line).to_lowercase().contains(&query))
            .map(|(row, _)| row)
            .collect()
    }

    /// While typing: the first match from the top of the view on.
    pub fn search_from_view(&mut self, ctx: &Ctx) {
        let rows = self.search_rows();
        self.search_match = rows
            .iter()
            .position(|row| *row >= self.diff_scroll)
            .unwrap_or(0);
        self.show_search_match(&rows, ctx);
    }

    /// `n`/`N` with a search in force: the next (previous) match, wrapping.
    pub fn step_search(&mut self, forward: bool, ctx: &Ctx) {
        let rows = self.search_rows();
        if rows.is_empty() {
            return;
        }
        self.search_match = if forward {
            (self.search_match + 1) % rows.len()
        } else {
            (self.search_match + rows.len() - 1) % rows.len()
        };
        self.show_search_match(&rows, ctx);
    }

    fn show_search_match(&mut self, rows: &[usize], ctx: &Ctx) {
        let Some(row) = rows.get(self.search_match).copied() else {
            return;
        };
        let height = self.diff_height(ctx);
        // A little context above the match.
        let max = self.diff_lines().saturating_sub(height);
        self.diff_scroll = row.saturating_sub(2).min(max);
        self.place_cursor(row, height);
        self.current_hunk = None;
    }

    /// "match 2/5" or "No matches for 'x' — esc clears" for the tab line.
    pub fn search_position(&self) -> Option<String> {
        self.search_counter()
            .map(|counter| self.search_label(counter))
    }

    /// The search's place in words, from [`Self::search_counter`].
    pub fn search_label(&self, (at, of): (usize, usize)) -> String {
        if of == 0 {
            return crate::ui::status::no_matches(&self.diff_search.text);
        }
        format!(
            "match {at}/{of} for '{}'",
            crate::ui::sanitize::sanitize(&self.diff_search.text)
        )
    }

    /// The match the `/` search is on among its matches, counted from 1 ((0, 0) when none),
    /// while a search is typed.
    pub fn search_counter(&self) -> Option<(usize, usize)> {
        if self.diff_search.text.is_empty() {
            return None;
        }
        let rows = self.search_rows();
        if rows.is_empty() {
            return Some((0, 0));
        }
        Some((self.search_match.min(rows.len() - 1) + 1, rows.len()))
    }
}

/// Where `n`/`N` lands on a page it moved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HunkLanding {
    First,
    Last,
}

fn line_text(line: &ratatui::text::Line) -> String {
    line.spans
        .iter()
        .map(|span| span.content.as_ref())
        .collect()
}

/// A cheap content fingerprint, so an edited page is parsed again.
fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}
