//! Moving about: the tabs, the changes tab's pages and diff, the `/` query, the triage loop
//! over unresolved threads.

use ratatui::crossterm::event::KeyEvent;

use super::composer::open_composer;
use crate::screens::change_requests::review::threads::{self, Row};
use crate::screens::change_requests::review::{ReviewScreen, ReviewTab};
use crate::screens::step::{Ctx, Step};
use crate::ui::keymap::Action;
use crate::ui::list::Selection;
use crate::vocabulary::Cmd;

pub(super) fn switch_tab(screen: &mut ReviewScreen, tab: ReviewTab, _ctx: &mut Ctx) -> Cmd {
    screen.tab = tab;
    Cmd::None
}

pub(super) fn on_changes_action(
    screen: &mut ReviewScreen,
    action: Action,
    ctx: &mut Ctx,
) -> Option<Step> {
    let height = screen.diff_height(ctx);
    let len = screen.pages.len();
    if screen.rendered && screen.reader.scroll_for(action, height) {
        return Some(Step::cmd(Cmd::None));
    }
    match action {
        Action::Down => screen.move_cursor_by_lines(1, height),
        Action::Up => screen.move_cursor_by_lines(-1, height),
        Action::Top => screen.cursor_to_end(false, height),
        Action::Bottom => screen.cursor_to_end(true, height),
        Action::NextPage => screen.page_selection.move_by(1, len),
        Action::PreviousPage => screen.page_selection.move_by(-1, len),
        Action::HalfPageDown => screen.scroll_diff(height as isize / 2, height),
        Action::HalfPageUp => screen.scroll_diff(-(height as isize) / 2, height),
        Action::PageDown => screen.scroll_diff(height as isize - 1, height),
        Action::PageUp => screen.scroll_diff(-(height as isize - 1), height),
        Action::NextHunk | Action::PreviousHunk => {
            let forward = action == Action::NextHunk;
            if screen.diff_search.text.is_empty() {
                return Some(Step::cmd(screen.step_hunk(forward, ctx)));
            }
            screen.step_search(forward, ctx);
        }
        Action::ToggleRendered => screen.rendered = !screen.rendered,
        Action::ToggleSideBySide => {
            let width = crate::screens::change_requests::review::changes::diff_area(ctx).width;
            if width < crate::ui::diff::SIDE_BY_SIDE_MIN_WIDTH {
                // The layout would not change, so say why instead of flipping a hidden flag.
                screen.notice(
                    format!(
                        "{} {} columns for the diff and it has {width}: widen the terminal.",
                        crate::screens::change_requests::review::changes::SIDE_BY_SIDE_REFUSAL,
                        crate::ui::diff::SIDE_BY_SIDE_MIN_WIDTH
                    ),
                    false,
                );
            } else {
                screen.side_by_side = !screen.side_by_side;
                screen.relayout(ctx);
            }
        }
        Action::NewComment => {
            let target = screen.comment_target_here(ctx);
            if !screen.open_cell_picker(&target) {
                open_composer(screen, target);
            }
        }
        Action::ShowThreadHere => screen.show_thread_of_diff(ctx),
        Action::SinceLastReview => return Some(Step::cmd(screen.toggle_since(ctx))),
        _ => return None,
    }
    Some(Step::cmd(screen.follow_page(ctx, false)))
}

/// After the shown rows changed: the row that was selected, else the nearest thread.
pub(super) fn keep_selected_row(screen: &mut ReviewScreen, previous: Option<Row>) {
    let rows = screen.rows();
    screen.comment_selection.selected = threads::position_after_change(&rows, previous);
    screen.comment_selection.clamp(rows.len());
}

pub(super) fn clear_query(screen: &mut ReviewScreen) {
    let row = screen.selected_row();
    screen.query_mut().clear();
    keep_selected_row(screen, row);
}

/// A key typed into the `/` query: the threads filter or the diff follows at once.
pub(super) fn on_query_key(screen: &mut ReviewScreen, key: &KeyEvent, ctx: &mut Ctx) {
    let row = screen.selected_row();
    screen.query_mut().handle_key(key);
    follow_query(screen, row, ctx);
}

/// A paste into the query changes it like typing does.
pub(crate) fn paste_into_query(screen: &mut ReviewScreen, text: &str, ctx: &mut Ctx) {
    let row = screen.selected_row();
    screen.query_mut().paste(text);
    follow_query(screen, row, ctx);
}

/// After the query changed: keep the thread in view, or jump to the first match in the diff.
fn follow_query(screen: &mut ReviewScreen, row: Option<Row>, ctx: &mut Ctx) {
    match screen.tab {
        ReviewTab::Comments => keep_selected_row(screen, row),
        ReviewTab::Changes => screen.search_from_view(ctx),
        ReviewTab::Reviews | ReviewTab::Overview => {}
    }
}

pub(super) fn step(selection: &mut Selection, delta: isize, len: usize) -> Cmd {
    selection.move_by(delta, len);
    Cmd::None
}

/// The triage loop: the next (or previous) unresolved thread after the selection, wrapping.
pub(super) fn jump_to_unresolved(screen: &mut ReviewScreen, forward: bool) {
    if screen.thread_filter == crate::screens::change_requests::review::ThreadFilter::Resolved {
        screen.thread_filter = crate::screens::change_requests::review::ThreadFilter::All;
    }
    let rows = screen.rows();
    let current = rows
        .get(screen.comment_selection.selected)
        .map_or(0, |r| r.thread);
    let open = threads::unresolved(screen.threads());
    if open.is_empty() {
        screen.notice("No unresolved threads left. 🎉", false);
        return;
    }
    let target = if forward {
        open.iter().find(|t| **t > current).or(open.first())
    } else {
        open.iter().rev().find(|t| **t < current).or(open.last())
    };
    if let Some(thread) = target
        && let Some(position) = rows
            .iter()
            .position(|r| r.thread == *thread && r.reply.is_none())
    {
        screen.comment_selection.selected = position;
    }
}

/// (3, 11): where the selected thread stands among the unresolved ones, counted from 1.
pub(crate) fn triage_counter(screen: &ReviewScreen) -> Option<(usize, usize)> {
    let open = threads::unresolved(screen.threads());
    let row = screen.selected_row()?;
    let position = open.iter().position(|t| *t == row.thread)?;
    Some((position + 1, open.len()))
}
