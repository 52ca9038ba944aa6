//! The outbox: writes queued while quire could not reach the server, grouped by change
//! request, with what changed there meanwhile. Nothing leaves without this look and a yes:
//! `s` sends the marked writes (`space` marks) or the selected one, `S` all of them, `d` drops
//! one, `e` edits a write's text. Each goes through `send_queued`, so a write whose answer was
//! lost is read back first and never sent twice.

mod view;

use std::collections::BTreeSet;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use crate::api::outbox::{Queued, Target};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::composer::{Composer, ComposerOutcome};
use crate::ui::confirm::{Confirm, ConfirmOutcome};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::{self, Notice};
use crate::vocabulary::command::ApiCall;
use crate::vocabulary::outbox::{Listing, OutboxCall, OutboxResponse, SendOutcome};
use crate::vocabulary::{ApiResponse, Cmd, RequestId};

#[derive(Debug, Default)]
pub struct OutboxScreen {
    /// The queued writes with what changed meanwhile; writes grouped by change request (the
    /// order rows are drawn in).
    pub listing: Listing,
    pub loaded: bool,
    pub selection: Selection,
    /// Writes marked with `space`, sent together by `s`.
    pub marked: BTreeSet<i64>,
    /// The change request (and thread) the screen was opened from: a write on that thread,
    /// else the change request's first write, is selected.
    pub opened_from: Option<OpenedFrom>,
    pub notice: Option<Notice>,
    /// The list asked last: a newer one supersedes it.
    pub listing_request: Option<RequestId>,
    /// An edit or drop under way. Its own slot, so a list asked meanwhile (the server came
    /// back, a refresh) does not take its answer and leave the composer open.
    pub changing: Option<RequestId>,
    /// A send under way: no other send, edit or drop until it is answered.
    pub sending: Option<RequestId>,
    pub modal: Option<Modal>,
    /// Started with `--offline`: nothing can be sent in this run, which is said up front and
    /// strikes the send keys through.
    pub offline_by_flag: bool,
}

/// Why nothing is sent from the Outbox of a run started with `--offline`.
pub const NOTHING_SENT_BY_FLAG: &str =
    "Offline by --offline: nothing is sent until you start quire without it.";

#[derive(Debug)]
pub enum Modal {
    Confirm(Confirm, Confirmed),
    Edit {
        id: i64,
        composer: Box<Composer>,
        /// The text as queued: esc leaves at once while it is unchanged.
        original: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    Send(Vec<i64>),
    Drop(i64),
}

/// Where the Outbox was opened from: a change request's screen, with the thread selected there.
#[derive(Debug, Clone)]
pub struct OpenedFrom {
    pub target: Target,
    /// The selected thread's first comment id, on the comments tab.
    pub thread: Option<String>,
}

impl OpenedFrom {
    /// The write to select first: one on the thread, else the change request's first one.
    fn position(&self, writes: &[Queued]) -> Option<usize> {
        let on_thread = |queued: &Queued| {
            queued.target == self.target
                && self.thread.as_deref().is_some_and(|thread| {
                    queued
                        .write
                        .place()
                        .is_some_and(|(comment, _)| comment == thread)
                })
        };
        writes
            .iter()
            .position(on_thread)
            .or_else(|| writes.iter().position(|q| q.target == self.target))
    }
}

impl OutboxScreen {
    /// Opened from a change request's screen: its writes come first into view.
    pub fn from(opened_from: Option<OpenedFrom>) -> OutboxScreen {
        OutboxScreen {
            opened_from,
            ..OutboxScreen::default()
        }
    }

    pub fn writes(&self) -> &[Queued] {
        &self.listing.writes
    }

    /// Asks for `call`. Sends, edits and drops, and lists each have a slot of their own, so
    /// one asked meanwhile does not take another's answer.
    fn call(&mut self, call: OutboxCall, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        let slot = match call {
            OutboxCall::Send { .. } | OutboxCall::SendAll => &mut self.sending,
            OutboxCall::Edit { .. } | OutboxCall::Drop { .. } => &mut self.changing,
            OutboxCall::List => &mut self.listing_request,
        };
        *slot = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::Outbox(call),
        }
    }

    fn selected(&self) -> Option<&Queued> {
        self.writes().get(self.selection.selected)
    }

    /// Asks before sending `ids`: what goes, and to how many change requests.
    fn ask_to_send(&mut self, ids: Vec<i64>) {
        if ids.is_empty() {
            let why = if self.writes().is_empty() {
                "Nothing to send: the outbox is empty."
            } else {
                "Nothing sent: the outcome of what waits is unknown; s on a write sends it again."
            };
            self.notice = Some(Notice::info(why));
            return;
        }
        let chosen: Vec<&Queued> = self
            .writes()
            .iter()
            .filter(|queued| ids.contains(&queued.id))
            .collect();
        let places: BTreeSet<&Target> = chosen.iter().map(|queued| &queued.target).collect();
        let writes = crate::ui::time::plural(chosen.len(), "write", "writes");
        let question = match places.len() {
            1 => format!(
                "Send {writes} to {}?",
                self.heading(places.first().copied())
            ),
            n => format!("Send {writes} to {n} change requests?"),
        };
        let unsure = chosen.iter().filter(|queued| queued.attempted).count();
        let mut consequence = chosen
            .iter()
            .take(5)
            .map(|queued| format!("◷ {}", view::summary(queued)))
            .collect::<Vec<_>>();
        if chosen.len() > 5 {
            consequence.push(format!("… and {} more", chosen.len() - 5));
        }
        if unsure > 0 {
            consequence.push(format!(
                "{unsure} may have arrived already: read back first, sent only if missing."
            ));
        }
        self.modal = Some(Modal::Confirm(
            Confirm::new(question, consequence.join("\n"), "send"),
            Confirmed::Send(ids),
        ));
    }

    fn ask_to_drop(&mut self) {
        let Some(queued) = self.selected() else {
            return;
        };
        let confirm = Confirm::new(
            format!("Drop this {}?", queued.write.describe()),
            format!(
                "◷ {}\nIt is taken out of the outbox and never sent.",
                view::summary(queued)
            ),
            "drop",
        );
        self.modal = Some(Modal::Confirm(confirm, Confirmed::Drop(queued.id)));
    }

    fn start_editing(&mut self) {
        let Some(queued) = self.selected() else {
            return;
        };
        if queued.attempted {
            self.notice = Some(Notice::error(
                "This write may have arrived already, so it is sent as it was: drop it or send it.",
            ));
            return;
        }
        let Some(text) = queued.write.markdown().map(str::to_owned).or_else(|| {
            matches!(queued.write, crate::api::outbox::Write::Review { .. }).then(String::new)
        }) else {
            self.notice = Some(Notice::info(format!(
                "A {} has no text to edit: drop it instead.",
                queued.write.describe()
            )));
            return;
        };
        let mut composer = Composer::new(
            format!("Edit the queued {}", queued.write.describe()),
            &text,
        );
        composer.short_titles = vec!["Edit".to_string()];
        composer.allow_blank = matches!(queued.write, crate::api::outbox::Write::Review { .. });
        composer.note = Some("Still queued: it is sent from here after a look.".to_string());
        composer.short_note = Some("Still queued.".to_string());
        composer.keys_hint =
            Some("ctrl-s save · ctrl-p preview · ctrl-e $EDITOR · esc leave it as it was".into());
        self.modal = Some(Modal::Edit {
            id: queued.id,
            composer: Box::new(composer),
            original: text,
        });
    }

    /// "#12 Fix the install steps in Getting Started": the change request's title (as the
    /// server says now, else as its writes remember it) and its space's; ids where not known.
    pub fn heading(&self, target: Option<&Target>) -> String {
        let Some(target) = target else {
            return String::new();
        };
        let remembered = |pick: fn(&Queued) -> Option<&String>| {
            self.writes()
                .iter()
                .filter(|queued| queued.target == *target)
                .find_map(pick)
                .cloned()
        };
        let news = self.listing.change_requests.get(target);
        let title = news
            .and_then(|news| news.title.clone())
            .or_else(|| remembered(|queued| queued.about.change_request_title.as_ref()))
            .unwrap_or_else(|| format!("change request {}", target.change_request));
        let space = news
            .and_then(|news| news.space_title.clone())
            .or_else(|| remembered(|queued| queued.about.space_title.as_ref()))
            .unwrap_or_else(|| format!("space {}", target.space));
        format!("{title} in {space}")
    }

    fn listed(&mut self, listing: Listing) {
        let mut listing = listing;
        // Stable: within a change request, oldest first as the outbox lists them.
        listing.writes.sort_by(|a, b| a.target.cmp(&b.target));
        let first_load = !self.loaded;
        self.listing = listing;
        self.loaded = true;
        let ids: BTreeSet<i64> = self.writes().iter().map(|queued| queued.id).collect();
        self.marked.retain(|id| ids.contains(id));
        if first_load
            && let Some(opened_from) = &self.opened_from
            && let Some(index) = opened_from.position(self.writes())
        {
            self.selection.selected = index;
        }
        self.selection.clamp(self.writes().len());
    }

    fn after_send(&mut self, outcomes: &[(i64, SendOutcome)], ctx: &mut Ctx) -> Cmd {
        self.notice = Some(crate::vocabulary::outbox::sent_notice(outcomes));
        self.call(OutboxCall::List, ctx)
    }

    fn on_confirm_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Cmd {
        let Some(Modal::Confirm(confirm, then)) = self.modal.take() else {
            return Cmd::None;
        };
        match confirm.handle_key(key) {
            ConfirmOutcome::Confirmed => match then {
                Confirmed::Send(ids) => {
                    self.notice = Some(Notice::info("Sending…"));
                    self.marked.clear();
                    self.call(OutboxCall::Send { ids }, ctx)
                }
                Confirmed::Drop(id) => self.call(OutboxCall::Drop { id }, ctx),
            },
            ConfirmOutcome::Cancelled => Cmd::None,
            ConfirmOutcome::Ignored => {
                self.modal = Some(Modal::Confirm(confirm, then));
                Cmd::None
            }
        }
    }

    fn on_edit_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Cmd {
        let Some(Modal::Edit {
            id,
            mut composer,
            original,
        }) = self.modal.take()
        else {
            return Cmd::None;
        };
        let unchanged = composer.text() == original && !composer.asking_to_discard;
        let outcome = match key.code {
            KeyCode::Esc if unchanged => ComposerOutcome::Discarded,
            _ => composer.handle_key(key),
        };
        let mut cmd = Cmd::None;
        match outcome {
            ComposerOutcome::Submit => {
                let markdown = composer.text();
                cmd = self.call(OutboxCall::Edit { id, markdown }, ctx);
            }
            ComposerOutcome::Discarded => {
                self.notice = Some(Notice::info("Not changed: the write waits as it was."));
                return Cmd::None;
            }
            ComposerOutcome::OpenEditor => {
                cmd = Cmd::EditExternally {
                    key: edit_key(id),
                    text: composer.text(),
                };
            }
            // "Keep it" after esc: go on editing; the write waits as it was meanwhile.
            ComposerOutcome::Closed | ComposerOutcome::Edited | ComposerOutcome::Ignored => {}
        }
        self.modal = Some(Modal::Edit {
            id,
            composer,
            original,
        });
        cmd
    }

    fn on_outbox_response(&mut self, response: &OutboxResponse, ctx: &mut Ctx) -> Cmd {
        match response {
            OutboxResponse::Listed(Ok(listing)) => {
                self.listed(listing.clone());
                Cmd::None
            }
            OutboxResponse::Listed(Err(why)) => {
                self.loaded = true;
                self.notice = Some(Notice::error(why.clone()));
                Cmd::None
            }
            OutboxResponse::Sent(outcomes) => self.after_send(outcomes, ctx),
            OutboxResponse::Dropped(Ok(true)) => {
                self.notice = Some(Notice::info("Dropped, not sent."));
                self.call(OutboxCall::List, ctx)
            }
            OutboxResponse::Dropped(Ok(false)) => {
                self.notice = Some(Notice::info("Not there any more: it was sent meanwhile."));
                self.call(OutboxCall::List, ctx)
            }
            OutboxResponse::Edited(Ok(())) => {
                self.modal = None;
                self.notice = Some(Notice::info("Edited; still queued."));
                self.call(OutboxCall::List, ctx)
            }
            OutboxResponse::Edited(Err(why)) => {
                if let Some(Modal::Edit { composer, .. }) = &mut self.modal {
                    composer.error = Some(why.clone());
                } else {
                    self.notice = Some(Notice::error(why.clone()));
                }
                Cmd::None
            }
            OutboxResponse::Dropped(Err(why)) => {
                self.notice = Some(Notice::error(why.clone()));
                Cmd::None
            }
        }
    }
}

/// The key an edit in `$EDITOR` comes back under.
fn edit_key(id: i64) -> String {
    format!("outbox-edit-{id}")
}

impl ScreenState for OutboxScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.call(OutboxCall::List, ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.call(OutboxCall::List, ctx)
    }

    fn messages(&self) -> Vec<Notice> {
        self.notice.iter().cloned().collect()
    }

    fn title(&self) -> String {
        "Outbox".to_string()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Outbox, KeyContext::Browse]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::OutboxSend, "send"),
            (Action::OutboxSendAll, "send all"),
            (Action::Mark, "mark"),
            (Action::OutboxEdit, "edit"),
            (Action::OutboxDrop, "drop"),
            (Action::Back, "back"),
        ]
    }

    fn unsaved_work(&self) -> Option<String> {
        matches!(self.modal, Some(Modal::Edit { .. })).then(|| "an edit of a queued write".into())
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.offline_by_flag {
            vec![Action::OutboxSend, Action::OutboxSendAll]
        } else {
            Vec::new()
        }
    }

    fn disabled_reason(
        &self,
        action: Action,
        _now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        (self.disabled_actions().contains(&action)).then(|| NOTHING_SENT_BY_FLAG.to_string())
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        match &self.modal {
            Some(Modal::Confirm(..)) => Some(Step::cmd(self.on_confirm_key(key, ctx))),
            Some(Modal::Edit { .. }) => Some(Step::cmd(self.on_edit_key(key, ctx))),
            None => {
                notice::on_key(&mut self.notice);
                None
            }
        }
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(Modal::Edit { composer, .. }) = &mut self.modal {
            composer.insert_str(text);
        }
        Cmd::None
    }

    fn on_external_edit(&mut self, key: &str, text: String, _ctx: &mut Ctx) -> Cmd {
        if let Some(Modal::Edit { id, composer, .. }) = &mut self.modal
            && edit_key(*id) == key
        {
            composer.set_text(&text);
        }
        Cmd::None
    }

    fn on_action(&mut self, action: Action, _ctx: &mut Ctx) -> Option<Step> {
        let len = self.writes().len();
        if crate::screens::step::move_selection(&mut self.selection, action, len, 10) {
            return Some(Step::default());
        }
        let changes = matches!(
            action,
            Action::OutboxSend | Action::OutboxSendAll | Action::OutboxDrop | Action::OutboxEdit
        );
        if changes && self.sending.is_some() {
            self.notice = Some(Notice::info("Still sending: wait for it to finish."));
            return Some(Step::default());
        }
        let sends = matches!(action, Action::OutboxSend | Action::OutboxSendAll);
        if sends && self.offline_by_flag {
            self.notice = Some(Notice::info(NOTHING_SENT_BY_FLAG));
            return Some(Step::default());
        }
        match action {
            Action::OutboxSend => {
                let ids: Vec<i64> = if self.marked.is_empty() {
                    self.selected().map(|write| write.id).into_iter().collect()
                } else {
                    self.marked.iter().copied().collect()
                };
                self.ask_to_send(ids);
            }
            Action::OutboxSendAll => {
                // A write whose outcome is unknown waits for `s` on it: sending everything
                // must not post it a second time without that choice.
                let ids = self
                    .writes()
                    .iter()
                    .filter(|write| !write.held)
                    .map(|write| write.id)
                    .collect();
                self.ask_to_send(ids);
            }
            Action::Mark => {
                let id = self.selected()?.id;
                if !self.marked.remove(&id) {
                    self.marked.insert(id);
                }
                self.selection.selected = (self.selection.selected + 1).min(len.saturating_sub(1));
            }
            Action::OutboxDrop => self.ask_to_drop(),
            Action::OutboxEdit => self.start_editing(),
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let slots = [
            &mut self.sending,
            &mut self.changing,
            &mut self.listing_request,
        ];
        let slot = slots.into_iter().find(|slot| **slot == Some(request))?;
        *slot = None;
        let ApiResponse::Outbox(response) = response else {
            return None;
        };
        Some(Step::cmd(self.on_outbox_response(response, ctx)))
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}
