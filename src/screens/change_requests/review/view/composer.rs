//! The composer of a reply or an edit, drawn under the comment it answers.

use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph};

use super::comments::row_lines;
use crate::screens::change_requests::review::layout::HEADER_ROWS;
use crate::screens::change_requests::review::threads::Row;
use crate::screens::change_requests::review::{ComposeTarget, ReviewScreen};
use crate::screens::look::Look;
use crate::ui::composer::Composer;
use crate::ui::hit::Canvas;

/// The fewest rows the composer needs: borders, a few lines of text, its key line.
const COMPOSER_MIN_ROWS: u16 = 6;

/// The comment a reply answers (or an edit changes), to keep in sight above the composer.
pub(super) fn context_row(screen: &ReviewScreen, target: &ComposeTarget) -> Option<Row> {
    let threads = screen.threads();
    let thread_of = |id: &str| threads.iter().position(|t| t.comment.id == id);
    match target {
        ComposeTarget::Reply { comment } => {
            let thread = thread_of(comment)?;
            // The reply the user was on when pressing reply, else the thread's comment.
            Some(
                screen
                    .selected_row()
                    .filter(|row| row.thread == thread)
                    .unwrap_or(Row {
                        thread,
                        reply: None,
                    }),
            )
        }
        ComposeTarget::Edit { comment, reply } => {
            let thread = thread_of(comment)?;
            let reply = match reply {
                Some(id) => Some(threads[thread].replies.iter().position(|r| r.id == *id)?),
                None => None,
            };
            Some(Row { thread, reply })
        }
        ComposeTarget::NewComment { .. }
        | ComposeTarget::Review { .. }
        | ComposeTarget::Description
        | ComposeTarget::BlockComment { .. } => None,
    }
}

/// The composer at the bottom with the comment it answers shown whole above it (and the rest
/// of its thread when there is room): under the header when it fits, else over it (the comment
/// matters more than the header).
pub(super) fn draw_composer_under(
    screen: &ReviewScreen,
    row: Row,
    composer: &Composer,
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
) {
    let theme = look.theme;
    let Some(thread) = screen.threads().get(row.thread) else {
        composer.draw(frame, area, theme);
        return;
    };
    let width = area.width as usize;
    let mut lines = row_lines(screen, thread, row, width, true, (theme, look.now()));
    let wanted = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let comment_rows = wanted.min(area.height.saturating_sub(COMPOSER_MIN_ROWS));
    let composer_area = Rect::new(
        area.x,
        area.y + comment_rows,
        area.width,
        area.height - comment_rows,
    );
    let context_rows = area.height - Composer::rows_in(composer_area.height);
    let (top, context_rows) = if context_rows >= HEADER_ROWS + comment_rows {
        (area.y + HEADER_ROWS, context_rows - HEADER_ROWS)
    } else {
        (area.y, context_rows)
    };
    // The replies after it fill what is left above the composer.
    let first_reply = row.reply.map_or(0, |reply| reply + 1);
    for reply in first_reply..thread.replies.len() {
        if lines.len() >= usize::from(context_rows) {
            break;
        }
        let next = Row {
            thread: row.thread,
            reply: Some(reply),
        };
        lines.extend(row_lines(
            screen,
            thread,
            next,
            width,
            false,
            (theme, look.now()),
        ));
    }
    let context_area = Rect::new(area.x, top, area.width, context_rows);
    frame.render_widget(Clear, context_area);
    frame.render_widget(Paragraph::new(lines), context_area);
    composer.draw(frame, composer_area, theme);
}

/// The composer of a comment on a diff block, drawn so the block stays in sight: under the
/// block where it is on screen with room below it, else with the block's rows drawn right
/// above a composer shrunk to make room for them (over the header on a short terminal).
pub(super) fn draw_composer_by_block(
    screen: &ReviewScreen,
    composer: &Composer,
    frame: &mut Canvas,
    area: Rect,
    look: &Look,
) {
    let (Some(rows), Some(view)) = (screen.comment_block_rows(), screen.diff_view.as_ref()) else {
        composer.draw(frame, area, look.theme);
        return;
    };
    let body = Rect::new(
        area.x,
        area.y + HEADER_ROWS.min(area.height),
        area.width,
        area.height.saturating_sub(HEADER_ROWS),
    );
    let diff = super::changes::diff_area_of(screen, body);
    let usual = Composer::rows_in(area.height);
    let shown = screen.diff_scroll..screen.diff_scroll + usize::from(diff.height);
    if shown.contains(&rows.start) && rows.end <= shown.end {
        let block_end = diff.y + u16::try_from(rows.end - screen.diff_scroll).unwrap_or(u16::MAX);
        let below = area.bottom().saturating_sub(block_end);
        if below >= COMPOSER_MIN_ROWS {
            let height = below.min(usual);
            let popup = Rect::new(area.x, area.bottom() - height, area.width, height);
            composer.draw_filling(frame, popup, look.theme);
            return;
        }
    }
    let wanted = u16::try_from(rows.len()).unwrap_or(u16::MAX);
    let height = usual
        .min(body.height.saturating_sub(wanted))
        .max(COMPOSER_MIN_ROWS)
        .min(area.height);
    let top = area.bottom() - height;
    let context_rows = wanted.min(top - area.y);
    // Over the diff's own columns, the page list beside it stays; over the header, the
    // whole row.
    let context = if top - context_rows >= diff.y {
        Rect::new(diff.x, top - context_rows, diff.width, context_rows)
    } else {
        Rect::new(area.x, top - context_rows, area.width, context_rows)
    };
    frame.render_widget(Clear, context);
    let lines: Vec<_> = view.lines[rows]
        .iter()
        .take(usize::from(context_rows))
        .cloned()
        .collect();
    frame.render_widget(
        Paragraph::new(lines),
        Rect::new(diff.x, context.y, diff.width, context.height),
    );
    composer.draw_filling(
        frame,
        Rect::new(area.x, top, area.width, height),
        look.theme,
    );
}
