//! What the app does when the outbox changes: the header's count, a send when the server is
//! back, the answer to its own send. The outbox's calls and answers are in
//! `vocabulary::outbox`.

use crate::app::{ApiCall, ApiResponse, Cmd, Model, RequestId};
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::notice::Notice;
use crate::vocabulary::outbox::{OutboxCall, OutboxResponse, SendWhenBack, sent_notice};

/// The outbox was counted. The first count of a session says what an earlier one left (or,
/// with `outbox_send = "auto"` and the server in reach, sends it).
pub(super) fn on_waiting(model: &mut Model, waiting: usize) -> Cmd {
    model.outbox.waiting = waiting;
    if model.outbox.told_at_start {
        return Cmd::None;
    }
    model.outbox.told_at_start = true;
    if waiting == 0 || model.offline.offline {
        return Cmd::None;
    }
    if model.outbox.send_when_back == SendWhenBack::Auto {
        model.outbox.send_once_reachable = true;
        return Cmd::None;
    }
    waiting_for_a_look(model)
}

/// Another quire on this account changed the outbox: the count follows, and so does the screen
/// that shows the writes (the Outbox, or a review with writes pending), read again in place.
pub(super) fn on_changed_elsewhere(model: &mut Model, waiting: usize) -> Cmd {
    model.outbox.waiting = waiting;
    let shows_writes = match model.top() {
        crate::screens::Screen::Outbox(_) => true,
        crate::screens::Screen::Review(review) => !review.queued.is_empty(),
        _ => false,
    };
    if shows_writes {
        return super::update::run_action(model, Action::Refresh);
    }
    Cmd::None
}

/// The server answers again: what waits is sent (`outbox_send = "auto"`) or announced.
pub(super) fn on_back_online(model: &mut Model) -> Cmd {
    model.outbox.send_once_reachable = false;
    if model.outbox.waiting == 0 {
        return Cmd::None;
    }
    waiting_for_a_look(model)
}

/// The server answered: writes an earlier run left go now, with `outbox_send = "auto"`.
pub(super) fn on_reachable(model: &mut Model) -> Cmd {
    if !model.outbox.send_once_reachable {
        return Cmd::None;
    }
    on_back_online(model)
}

fn waiting_for_a_look(model: &mut Model) -> Cmd {
    let waiting = model.outbox.waiting;
    if model.outbox.send_when_back == SendWhenBack::Auto {
        if model.outbox.own_request.is_some() {
            return Cmd::None;
        }
        let request = model.requests.issue();
        model.outbox.own_request = Some(request);
        model.toast = Some(Notice::info(format!(
            "Sending {} from the outbox…",
            crate::ui::time::plural(waiting, "queued write", "queued writes")
        )));
        return Cmd::Api {
            request,
            call: ApiCall::Outbox(OutboxCall::SendAll),
        };
    }
    if matches!(model.top(), crate::screens::Screen::Outbox(_)) {
        return Cmd::None;
    }
    let key = model
        .keymap
        .label(&[KeyContext::Global], Action::OutboxView)
        .unwrap_or_else(|| "the palette's Outbox".to_string());
    let writes = crate::ui::time::plural(waiting, "write waits", "writes wait");
    model.toast = Some(Notice::info(format!(
        "{writes} in the outbox: {key} to look and send."
    )));
    Cmd::None
}

/// The answer to the app's own send, if `request` is it: the footer says what went, and the
/// screen on top is read again so what was pending shows as sent.
pub(super) fn own_answer(
    model: &mut Model,
    request: RequestId,
    response: &ApiResponse,
) -> Option<Cmd> {
    if model.outbox.own_request != Some(request) {
        return None;
    }
    model.outbox.own_request = None;
    let ApiResponse::Outbox(OutboxResponse::Sent(outcomes)) = response else {
        return Some(Cmd::None);
    };
    let refreshed = super::update::run_action(model, Action::Refresh);
    model.toast = Some(sent_notice(outcomes));
    Some(refreshed)
}
