//! The organization's Trash tab: deleted spaces with the days left to restore them, `u`
//! restores one.
//!
//! Where the list comes from: the API has no "list deleted spaces" operation (neither the seed
//! nor the service's description has one, and the space listing takes no filter for it). What
//! quire can know is (1) spaces whose `deletedAt` is set in the organization's space listing
//! (the sandbox lists deleted spaces that way until they are purged) and (2) spaces deleted
//! in this session, remembered here. Against a service that lists no deleted spaces the tab
//! shows only the second kind, and says so when it is empty.
//!
//! A pane of the organization screen like its other tabs; the organization hands it the
//! listing it comes from and the restore's answer (the listing is read again after one). Its
//! drawing is in [`view`].

pub mod view;

use chrono::{DateTime, Utc};

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::api::ApiError;
use crate::api::error::server_message;
use crate::api::models::Space;
use crate::screens::ScreenState;
use crate::screens::list_pane::Listing;
use crate::screens::look::Look;
use crate::screens::organization::pane::notice_modal_esc;
use crate::screens::step::{Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::vocabulary::action_log::{ActionLog, PendingEntry, Undo};
use crate::vocabulary::spaces::{SpacesCall, SpacesResponse};
use crate::vocabulary::{ApiCall, Cmd, Loadable, RequestId};

/// Days a deleted space can be restored.
pub const RETENTION_DAYS: i64 = 7;

/// The tab's keys in the footer.
const HINTS: [(Action, &str); 5] = [
    (Action::Restore, "restore"),
    (Action::NextTab, "tab"),
    (Action::Refresh, "refresh"),
    (Action::Back, "back"),
    (Action::Help, "keys"),
];

#[derive(Debug, Default)]
pub struct Trash {
    /// Deleted spaces found in the organization's listing.
    listed: Vec<Space>,
    /// Spaces deleted here, in this session, newest first.
    deleted_here: Vec<Space>,
    pub selection: Selection,
    pub notice: Option<Notice>,
    /// The restore in flight: its request and the space.
    restoring: Option<(RequestId, Space)>,
    /// Whether the organization's listing was read once, and what its last reading failed
    /// with: the tab says "loading" or the error until then, and a failed refresh after.
    listed_once: bool,
    listing_error: Option<ApiError>,
}

impl Trash {
    /// Follows the organization's listing as it is read.
    pub fn follow_listing<T>(&mut self, listing: &Loadable<T>) {
        self.listed_once = listing.value().is_some();
        self.listing_error = listing.error().cloned();
    }

    /// Keeps the deleted spaces of a fresh listing (they leave the tree). A space deleted here
    /// that the listing shows active again was restored (from the action log, or elsewhere)
    /// and leaves the trash.
    pub fn take_listed(&mut self, spaces: &[Space]) {
        self.listed = spaces
            .iter()
            .filter(|space| space.deleted_at.is_some())
            .cloned()
            .collect();
        self.deleted_here.retain(|deleted| {
            !spaces
                .iter()
                .any(|space| space.id == deleted.id && space.deleted_at.is_none())
        });
        let len = self.entries().len();
        self.selection.clamp(len);
    }

    /// A space this session deleted; dated now when the server did not say.
    pub fn remember_deleted(&mut self, mut space: Space) {
        if space.deleted_at.is_none() {
            space.deleted_at = Some(Utc::now().to_rfc3339());
        }
        self.deleted_here.retain(|known| known.id != space.id);
        self.deleted_here.insert(0, space);
    }

    fn forget(&mut self, id: &str) {
        self.listed.retain(|space| space.id != id);
        self.deleted_here.retain(|space| space.id != id);
        let len = self.entries().len();
        self.selection.clamp(len);
    }

    /// Every deleted space once: this session's first, then the listing's.
    pub fn entries(&self) -> Vec<&Space> {
        let mut entries: Vec<&Space> = self.deleted_here.iter().collect();
        for space in &self.listed {
            if !entries.iter().any(|known| known.id == space.id) {
                entries.push(space);
            }
        }
        entries
    }

    pub fn selected(&self) -> Option<&Space> {
        self.entries().get(self.selection.selected).copied()
    }

    pub fn is_restoring(&self) -> bool {
        self.restoring.is_some()
    }
}

/// Whole days left before a space deleted at `deleted_at` is purged, rounded up (a space
/// deleted two days ago has 5 days left); 0 once the time is up; `None` for an unreadable date.
pub fn days_left(deleted_at: &str, now: DateTime<Utc>) -> Option<i64> {
    let deleted = DateTime::parse_from_rfc3339(deleted_at).ok()?;
    let left = chrono::Duration::days(RETENTION_DAYS) - (now - deleted.with_timezone(&Utc));
    let seconds = left.num_seconds();
    Some(if seconds <= 0 {
        0
    } else {
        (seconds + 86_399) / 86_400
    })
}

/// "5 days left", "1 day left", "purge due".
pub fn days_left_text(space: &Space, now: DateTime<Utc>) -> String {
    match space
        .deleted_at
        .as_deref()
        .and_then(|at| days_left(at, now))
    {
        Some(0) => "restore period over".to_string(),
        Some(1) => "1 day left".to_string(),
        Some(days) => format!("{days} days left"),
        None => "deleted".to_string(),
    }
}

/// "today", "1 day ago", "3 days ago": relative, so the tab reads the same any day.
pub fn deleted_ago_text(space: &Space, now: DateTime<Utc>) -> String {
    let deleted = space
        .deleted_at
        .as_deref()
        .and_then(|at| DateTime::parse_from_rfc3339(at).ok());
    match deleted.map(|at| (now - at.with_timezone(&Utc)).num_days()) {
        None => String::new(),
        Some(days) if days <= 0 => "today".to_string(),
        Some(1) => "1 day ago".to_string(),
        Some(days) => format!("{days} days ago"),
    }
}

impl Listing for Trash {
    fn loaded_once(&self) -> bool {
        self.listed_once
    }

    fn error(&self) -> Option<&ApiError> {
        self.listing_error.as_ref()
    }
}

impl ScreenState for Trash {
    fn title(&self) -> String {
        "Trash".to_string()
    }

    fn messages(&self) -> Vec<Notice> {
        self.notice.iter().cloned().collect()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Tabs, KeyContext::Trash, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        HINTS.to_vec()
    }

    fn disabled_actions(&self) -> Vec<Action> {
        match self.selected() {
            Some(space) if space.permissions.admin => Vec::new(),
            _ => vec![Action::Restore],
        }
    }

    fn on_raw_key(&mut self, key: &KeyEvent, _ctx: &mut Ctx) -> Option<Step> {
        notice_modal_esc(self, key, |s| &mut s.notice, |_| None)
            .break_value()
            .flatten()
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        // Deleted spaces are few: the tab has no filter, and `/` does nothing here.
        if action == Action::Filter {
            return Some(Step::default());
        }
        self.on_list_action(action, ctx)
    }

    fn link(&self) -> Option<String> {
        self.selected()?.urls.app.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

impl Trash {
    fn on_list_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.entries().len();
        let page = ctx.size.height.saturating_sub(5).max(1) as isize;
        if crate::screens::step::move_selection(&mut self.selection, action, len, page) {
            return Some(Step::default());
        }
        if action != Action::Restore {
            return None;
        }
        let Some(space) = self.selected().cloned() else {
            self.notice = Some(Notice::info("nothing to restore: the trash is empty"));
            return Some(Step::default());
        };
        if !space.permissions.admin {
            self.notice = Some(Notice::info(format!(
                "only an admin of the space “{}” may restore it",
                space.title
            )));
            return Some(Step::default());
        }
        if self.is_restoring() {
            self.notice = Some(Notice::info("still restoring…"));
            return Some(Step::default());
        }
        let request = ctx.requests.issue();
        let call = SpacesCall::Restore {
            space: space.id.clone(),
        };
        self.restoring = Some((request, space));
        Some(Step::cmd(Cmd::Api {
            request,
            call: ApiCall::Spaces(call),
        }))
    }

    /// The answer to a restore; `None` when it is not the one in flight. `Some(true)` when the
    /// space is back (restored now, or found restored already), so the organization's listing
    /// (and the Spaces tree) is read again. A restore is logged like every write.
    pub fn on_response(
        &mut self,
        request: RequestId,
        response: &SpacesResponse,
        log: &mut ActionLog,
    ) -> Option<bool> {
        let (waiting, space) = self.restoring.clone()?;
        if waiting != request {
            return None;
        }
        self.restoring = None;
        let reload = match response {
            SpacesResponse::Space(Ok(restored)) => {
                self.forget(&space.id);
                self.notice = Some(Notice::info(format!(
                    "Restored “{}”: it is back in the Spaces tab",
                    restored.title
                )));
                log.record(logged_restore(&space));
                true
            }
            SpacesResponse::NotDeleted(active) => {
                self.forget(&space.id);
                self.notice = Some(Notice::info(format!(
                    "Nothing to restore: “{}” is not deleted (restored already)",
                    active.title
                )));
                true
            }
            SpacesResponse::Space(Err(error)) => {
                self.notice = Some(Notice::error(format!(
                    "Could not restore “{}”: {}",
                    space.title,
                    server_message(error)
                )));
                false
            }
            _ => false,
        };
        Some(reload)
    }
}

/// A restore as the action log shows it: taken back by deleting the space again (it goes back
/// to the trash for another 7 days).
fn logged_restore(space: &Space) -> PendingEntry {
    let title = crate::ui::sanitize::sanitize(&space.title).into_owned();
    PendingEntry::new(
        format!("Restored the space “{title}” from the trash"),
        "organization spaces",
        Undo::inverse(
            ApiCall::Spaces(SpacesCall::Delete {
                space: space.id.clone(),
            }),
            format!("Deletes “{title}” again: it goes back to the trash"),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_left_round_up_and_stop_at_zero() {
        let now = DateTime::parse_from_rfc3339("2024-05-10T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(days_left("2024-05-08T12:00:00Z", now), Some(5));
        assert_eq!(days_left("2024-05-08T11:59:00Z", now), Some(5));
        assert_eq!(days_left("2024-05-04T11:00:00Z", now), Some(1));
        assert_eq!(days_left("2024-05-03T12:00:00Z", now), Some(0));
        assert_eq!(days_left("2024-04-01T00:00:00Z", now), Some(0));
        assert_eq!(days_left("yesterday", now), None);
    }
}
