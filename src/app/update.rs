//! `update`: one message applied to the model. Keys become actions for the top screen (or the
//! overlay, the palette), answers go to the screen that waits for them.

use ratatui::crossterm::event::{KeyEvent, KeyEventKind};

use super::overlay::on_overlay_key;
use super::palette_keys::on_palette_key;
use super::{
    Action, AnswerKind, ApiResponse, Cmd, DocHandle, DocKey, KeyContext, Model, Msg, Overlay,
    RequestId, Size, Step, keymap, mouse, palette,
};
use crate::api::RetryNotice;
use crate::screens::Screen;
use crate::screens::step::Ctx;
use crate::ui::notice::{self, Notice};

/// Applies one message. Returns what the runtime should do next.
pub fn update(model: &mut Model, msg: Msg) -> Cmd {
    update_noting_change(model, msg).cmd
}

/// What one message did: the command to carry out, and whether the screen may now look
/// different. Only a message known to have changed nothing says it need not be drawn (a
/// timer no screen set, gone off after its screen stopped waiting for it); any other may
/// have, and is drawn: a missed frame leaves the screen wrong, an extra one only costs time.
#[derive(Debug)]
pub struct Updated {
    pub cmd: Cmd,
    pub redraw: bool,
}

/// [`update`], telling the loop whether a frame is needed.
pub fn update_noting_change(model: &mut Model, msg: Msg) -> Updated {
    let cmd = match msg {
        Msg::Key(key) => on_key(model, key),
        Msg::Paste(text) => on_paste(model, &text),
        Msg::Resize { width, height } => on_resize(model, Size { width, height }),
        Msg::Tick => {
            model.spinner_frame = model.spinner_frame.wrapping_add(1);
            Cmd::None
        }
        Msg::Resumed => Cmd::None,
        Msg::Focus(focused) => on_focus(model, focused),
        Msg::BrowserFailed { url, reason } => {
            for screen in model.screens.iter_mut() {
                screen.on_browser_failed(&url);
            }
            // Over SSH there is often no browser to open: a web address still reaches the user
            // through the clipboard. Anything else was refused on purpose and is not copied.
            if url.starts_with("https://") || url.starts_with("http://") {
                model.toast = Some(Notice::error(format!(
                    "Could not open a browser ({reason}); the address is copied instead \
                     (where the terminal allows): {url}"
                )));
                Cmd::CopyToClipboard(url)
            } else {
                model.toast = Some(Notice::error(format!("Not opened: {reason}")));
                Cmd::None
            }
        }
        Msg::Api { request, response } => on_api(model, request, response),
        Msg::FromCache {
            request,
            response,
            as_of,
            revalidating,
        } => super::offline::on_cached(model, request, response, as_of, revalidating),
        Msg::Reachable(reachable) => super::offline::on_reachable(model, reachable),
        Msg::CannotReach {
            why,
            nothing_to_show,
        } => super::offline::on_cannot_reach(model, why, nothing_to_show),
        Msg::OutboxWaiting(waiting) => super::outbox::on_waiting(model, waiting),
        Msg::OutboxChangedElsewhere(waiting) => super::outbox::on_changed_elsewhere(model, waiting),
        Msg::Retry(notice) => {
            on_retry_notice(model, notice);
            Cmd::None
        }
        Msg::Lack(lack) => {
            model.lacking.learn(lack);
            Cmd::None
        }
        Msg::MarkdownParsed {
            key,
            doc,
            highlighted,
        } => on_markdown(model, key, doc, highlighted),
        Msg::Timer(id) => match on_timer(model, id) {
            Some(cmd) => cmd,
            // A stale timer: no screen waits for it any more, and none changed.
            None => {
                return Updated {
                    cmd: Cmd::None,
                    redraw: false,
                };
            }
        },
        Msg::DraftsLoaded { prefix, drafts } => {
            let (mut ctx, screens) = ctx(model);
            match screens.last_mut() {
                Some(screen) => screen.on_drafts(&prefix, &drafts, &mut ctx),
                None => Cmd::None,
            }
        }
        Msg::DraftSaved { key, failure } => on_draft_saved(model, key, failure),
        Msg::EditedExternally { key, text } => {
            let (mut ctx, screens) = ctx(model);
            match screens.last_mut() {
                Some(screen) => screen.on_external_edit(&key, text, &mut ctx),
                None => Cmd::None,
            }
        }
        Msg::Mouse { event, at } => mouse::on_mouse(model, event, at),
        Msg::SignedInAs(user) => {
            model.signed_in_as = who_for_header(&user);
            Cmd::None
        }
    };
    finish(model, cmd)
}

/// Notes the requests `cmd` sends and the messages now shown.
fn finish(model: &mut Model, cmd: Cmd) -> Updated {
    model.track(&cmd);
    model.note_messages();
    Updated { cmd, redraw: true }
}

fn on_key(model: &mut Model, key: KeyEvent) -> Cmd {
    if key.kind == KeyEventKind::Release {
        return Cmd::None;
    }
    notice::on_key(&mut model.toast);
    if model.palette.is_some() {
        return on_palette_key(model, &key);
    }
    if let Some(overlay) = model.overlay.clone() {
        return on_overlay_key(model, key, overlay);
    }
    // The messages popup comes before any screen's keys, so a message can be read whole
    // while a text input or a popup that cut it is open.
    if model.keymap.action_for(&[KeyContext::Global], &key) == Some(Action::ShowMessage) {
        return on_global_action(model, Action::ShowMessage);
    }
    // A screen with a text input open sees raw keys first.
    let keymap = model.keymap.clone();
    let (mut screen_ctx, screens) = ctx(model);
    let Some(screen) = screens.last_mut() else {
        return Cmd::None;
    };
    if let Some(step) = screen.on_raw_key(&key, &mut screen_ctx) {
        return model.apply_step(step);
    }
    let mut contexts = screen.key_contexts().to_vec();
    contexts.push(KeyContext::Global);
    let action = match model.pending_prefix.take() {
        Some(first) => keymap.sequence_action(&contexts, first, &key).or_else(|| {
            keymap
                .action_for(&contexts, &key)
                .filter(|a| *a != Action::Back)
        }),
        None if keymap.starts_sequence(&contexts, &key) => {
            model.pending_prefix = Some(keymap::KeyCombo::from_event(&key));
            return Cmd::None;
        }
        None => keymap.action_for(&contexts, &key),
    };
    let Some(action) = action else {
        return Cmd::None;
    };
    run_action(model, action)
}

/// Does what a key bound to `action` does on the screen on top: the palette and the mouse
/// come here too, so they act exactly like the keys.
pub(crate) fn run_action(model: &mut Model, action: Action) -> Cmd {
    // While a read waits to be retried, `r` cuts the wait short instead of sending it again.
    // A wait can also belong to a read no screen tracks (the header's `GET /user`): when
    // nothing tracked is under way, the screen's own load has ended (failed) and `r` must
    // reload it too, or it would only hurry a read the user is not looking at.
    if action == Action::Refresh && !model.retry_waits.is_empty() {
        if !model.in_flight.is_empty() {
            return Cmd::RetryNow;
        }
        let refresh = on_global_action(model, Action::Refresh);
        return Cmd::Batch(vec![Cmd::RetryNow, refresh]);
    }
    // Offline, `r` also has the server asked again now, not at the end of the current wait.
    if action == Action::Refresh && model.offline.offline {
        let refresh = on_global_action(model, Action::Refresh);
        return Cmd::batch([Cmd::RetryNow, refresh]);
    }
    // A key needing what this server lacks says so instead of sending a request bound to fail.
    if let Some(reason) = model.lacking_reason(action) {
        model.toast = Some(Notice::error(reason));
        return Cmd::None;
    }
    // `esc` dismisses an error in the footer before it means "back".
    if action == Action::Back && notice::dismiss_error(&mut model.toast) {
        return Cmd::None;
    }
    let (mut screen_ctx, screens) = ctx(model);
    let Some(screen) = screens.last_mut() else {
        return Cmd::None;
    };
    if let Some(step) = screen.on_action(action, &mut screen_ctx) {
        return model.apply_step(step);
    }
    on_global_action(model, action)
}

fn on_retry_notice(model: &mut Model, notice: RetryNotice) {
    match notice {
        RetryNotice::Waiting { endpoint, delay } => {
            // Kept as a deadline, so the footer counts down as the spinner redraws it.
            model
                .retry_waits
                .push((endpoint, std::time::Instant::now() + delay));
        }
        RetryNotice::Resumed { endpoint } => {
            if let Some(at) = model
                .retry_waits
                .iter()
                .position(|(waiting, _)| *waiting == endpoint)
            {
                model.retry_waits.remove(at);
            }
        }
    }
}

/// Actions no screen claimed.
fn on_global_action(model: &mut Model, action: Action) -> Cmd {
    match action {
        Action::Quit => {
            let unsaved: Vec<String> = model
                .screens
                .iter()
                .filter_map(Screen::unsaved_work)
                .collect();
            if unsaved.is_empty() {
                model.quit = true;
                Cmd::Quit
            } else {
                model.overlay = Some(Overlay::ConfirmQuit { unsaved });
                Cmd::None
            }
        }
        Action::ShowMessage => {
            model.overlay = Some(Overlay::Messages { scroll: 0 });
            Cmd::None
        }
        Action::Help => {
            model.overlay = Some(Overlay::Help {
                scroll: 0,
                filter: crate::ui::input::Filter::default(),
            });
            Cmd::None
        }
        // One rule for every screen: going back from unsaved work asks first (the screen's own
        // `esc`, closing a field or a popup, comes before this and never asks).
        Action::Back => match model.top().unsaved_work() {
            Some(unsaved) if model.screens.len() > 1 => {
                model.overlay = Some(Overlay::ConfirmLeave {
                    unsaved: vec![unsaved],
                });
                Cmd::None
            }
            _ => model.pop(),
        },
        Action::Suspend => Cmd::Suspend,
        Action::GoHome => go_home(model),
        Action::ToggleWatch => super::watch_marks::toggle(model),
        Action::ActionLogView => {
            if matches!(model.top(), Screen::ActionLog(_)) {
                return Cmd::None;
            }
            let screen = Screen::ActionLog(crate::screens::action_log::ActionLogScreen::default());
            model.apply_step(Step::push(screen))
        }
        Action::OutboxView => {
            if matches!(model.top(), Screen::Outbox(_)) {
                return Cmd::None;
            }
            let from = match model.top() {
                Screen::Review(review) => Some(crate::screens::outbox::OpenedFrom {
                    target: crate::api::outbox::Target::new(
                        &review.target.space,
                        &review.target.change_request,
                    ),
                    thread: review.selected_thread_on_comments().map(str::to_string),
                }),
                _ => None,
            };
            let mut outbox = crate::screens::outbox::OutboxScreen::from(from);
            outbox.offline_by_flag = model.offline.by_flag;
            let screen = Screen::Outbox(outbox);
            model.apply_step(Step::push(screen))
        }
        Action::Refresh => {
            let (mut ctx, screens) = ctx(model);
            match screens.last_mut() {
                Some(screen) => screen.refresh(&mut ctx),
                None => Cmd::None,
            }
        }
        Action::CopyLink => match model.top().link() {
            Some(link) => {
                model.toast = Some(Notice::info(format!("Copied {link}")));
                Cmd::CopyToClipboard(link)
            }
            None => {
                model.toast = Some(Notice::info("Nothing to copy here"));
                Cmd::None
            }
        },
        Action::OpenInBrowser => match model.top().link() {
            Some(link) => {
                model.toast = Some(Notice::info(format!("Opening {link}")));
                Cmd::OpenInBrowser(link)
            }
            None => {
                model.toast = Some(Notice::info("Nothing to open here"));
                Cmd::None
            }
        },
        Action::CommandPalette => {
            model.overlay = None;
            model.palette = Some(palette::Palette::open(model));
            Cmd::None
        }
        _ => Cmd::None,
    }
}

fn on_paste(model: &mut Model, text: &str) -> Cmd {
    if let Some(palette) = model.palette.as_mut() {
        // One line: a pasted line break must not run anything.
        let line: String = text.chars().filter(|c| !c.is_control()).collect();
        palette.input.insert_str(&line);
        palette.refilter(&model.palette_history);
        return Cmd::None;
    }
    if let Some(Overlay::Help { filter, .. }) = model.overlay.as_mut() {
        filter.paste(text);
        return Cmd::None;
    }
    let (mut ctx, screens) = ctx(model);
    match screens.last_mut() {
        Some(screen) => screen.on_paste(text, &mut ctx),
        None => Cmd::None,
    }
}

fn on_resize(model: &mut Model, size: Size) -> Cmd {
    model.size = size;
    let (mut ctx, screens) = ctx(model);
    for screen in screens.iter_mut() {
        screen.on_resize(&mut ctx);
    }
    Cmd::None
}

pub(super) fn on_api(model: &mut Model, request: RequestId, response: ApiResponse) -> Cmd {
    model.in_flight.remove(&request);
    model.offline.answered(request);
    if let Some(cmd) = super::outbox::own_answer(model, request, &response) {
        return cmd;
    }
    if let Some(cmd) = super::watch_marks::own_answer(model, request, &response) {
        return cmd;
    }
    let write = model.action_log.answered(request);
    let recorded_before = model.action_log.recorded();
    let cmd = answer_to_screens(model, request, &response);
    if let Some(write) = write {
        model.action_log.settle(write, &response, recorded_before);
    }
    cmd
}

fn answer_to_screens(model: &mut Model, request: RequestId, response: &ApiResponse) -> Cmd {
    answer_to_the_screen_waiting(model, request, response, AnswerKind::Final).unwrap_or_else(|| {
        tracing::debug!(?request, "dropped a stale response");
        Cmd::None
    })
}

/// `~`: back to Home, the bottom of the stack, from anywhere; where quire did not start there
/// (the organization list of a test, say) Home opens on top. Leaving unsaved work asks first,
/// as `esc` does.
fn go_home(model: &mut Model) -> Cmd {
    if matches!(model.top(), Screen::Home(_)) {
        return Cmd::None;
    }
    let home_at = model
        .screens
        .iter()
        .position(|screen| matches!(screen, Screen::Home(_)));
    let Some(home_at) = home_at else {
        let home = crate::screens::home::HomeScreen::new(model.home_sections.clone());
        return model.apply_step(Step::push(Screen::Home(Box::new(home))));
    };
    let unsaved: Vec<String> = model.screens[home_at + 1..]
        .iter()
        .filter_map(|screen| screen.unsaved_work())
        .collect();
    if !unsaved.is_empty() {
        model.overlay = Some(Overlay::ConfirmLeave { unsaved });
        return Cmd::None;
    }
    let mut cmd = Cmd::None;
    while model.screens.len() > home_at + 1 {
        cmd = Cmd::batch([cmd, model.pop()]);
    }
    cmd
}

/// Gives the answer to whichever screen on the stack waits for it; None when none took it.
pub(super) fn answer_to_the_screen_waiting(
    model: &mut Model,
    request: RequestId,
    response: &ApiResponse,
    kind: AnswerKind,
) -> Option<Cmd> {
    let (mut ctx, screens) = ctx(model);
    ctx.answer = kind;
    // Results go to whichever screen on the stack waits for them; the others are stale.
    for index in (0..screens.len()).rev() {
        if let Some(step) = screens[index].on_response((request, response), &mut ctx) {
            return Some(if index + 1 == screens.len() {
                model.apply_step(step)
            } else {
                step.cmd
            });
        }
    }
    None
}

/// A timer goes to whichever screen on the stack set it; the others' are stale.
/// Watching slows down while the terminal is out of focus; back in focus, every screen's
/// pending refresh is brought forward to the focused interval.
fn on_focus(model: &mut Model, focused: bool) -> Cmd {
    model.watch.set_focused(focused);
    if !focused {
        return Cmd::None;
    }
    let (mut ctx, screens) = ctx(model);
    let hastened: Vec<Cmd> = screens
        .iter_mut()
        .map(|screen| screen.hasten_watch(&mut ctx))
        .collect();
    Cmd::batch(hastened)
}

/// The timer `id` gone off, for the screen that set it; `None` when no screen waits for it
/// (a later key set another), and then nothing changed.
fn on_timer(model: &mut Model, id: RequestId) -> Option<Cmd> {
    let (mut ctx, screens) = ctx(model);
    for index in (0..screens.len()).rev() {
        if let Some(step) = screens[index].on_timer(id, &mut ctx) {
            return Some(if index + 1 == screens.len() {
                model.apply_step(step)
            } else {
                step.cmd
            });
        }
    }
    None
}

/// The name the header shows for a user: the display name, else the email's part before `@`,
/// sanitized; `None` when the server gave neither.
fn who_for_header(user: &crate::api::models::User) -> Option<String> {
    let name = user.display_name.trim();
    let name = if name.is_empty() {
        let email = user.email.as_deref().unwrap_or("");
        email.split('@').next().unwrap_or("").trim()
    } else {
        name
    };
    let name = crate::ui::sanitize::sanitize(name).trim().to_string();
    (!name.is_empty()).then_some(name)
}

fn on_markdown(model: &mut Model, key: DocKey, doc: DocHandle, highlighted: bool) -> Cmd {
    model.parses_in_flight = model.parses_in_flight.saturating_sub(1);
    model.docs.insert(key.clone(), doc.0.clone(), highlighted);
    let (mut ctx, screens) = ctx(model);
    for screen in screens.iter_mut() {
        screen.on_document(&key, &mut ctx);
    }
    if highlighted {
        Cmd::None
    } else {
        Cmd::HighlightMarkdown { key, doc }
    }
}

/// How a draft's save went. A draft's first failure is said at once, since its words now live
/// on screen alone; a screen that would promise the draft is kept says why it is not.
fn on_draft_saved(model: &mut Model, key: String, failure: Option<String>) -> Cmd {
    match failure {
        None => {
            model.unsaved_drafts.remove(&key);
        }
        Some(reason) => {
            if !model.unsaved_drafts.contains_key(&key) {
                model.toast = Some(Notice::error(format!(
                    "The draft could not be saved: {reason}"
                )));
            }
            model.unsaved_drafts.insert(key, reason);
        }
    }
    Cmd::None
}

pub(crate) fn ctx(model: &mut Model) -> (Ctx<'_>, &mut Vec<Screen>) {
    (
        Ctx {
            requests: &mut model.requests,
            size: model.size,
            docs: &mut model.docs,
            theme: &model.theme,
            keymap: &model.keymap,
            reviews: &mut model.reviews,
            action_log: &mut model.action_log,
            watch: &mut model.watch,
            unsaved_drafts: &model.unsaved_drafts,
            answer: AnswerKind::Final,
            clock: model.environment.clock,
        },
        &mut model.screens,
    )
}
