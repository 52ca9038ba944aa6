//! The comments tab's author filter: `a` reads who commented (the change request's commenters
//! list), a picker offers them with how many threads each wrote in, and the tab then shows
//! only the threads the chosen person started or replied to.

use ratatui::crossterm::event::KeyEvent;

use super::{Overlay, ReviewScreen, threads};
use crate::api::ApiError;
use crate::api::models::Member;
use crate::screens::step::Ctx;
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::ui::sanitize::sanitize;
use crate::vocabulary::change_requests::ChangeRequestsCall;
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// The one person whose threads the comments tab shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorFilter {
    pub user: String,
    /// Their display name, sanitized, for the tab bar and the empty message.
    pub name: String,
}

/// The picker's value for "everyone": no user id is empty.
const EVERYONE: &str = "";

impl ReviewScreen {
    /// `a`: asks who commented; the picker opens when they are known.
    pub(super) fn ask_for_commenters(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.commenters_request = Some(request);
        self.notice("Reading who commented…", false);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::ListCommenters(self.target.clone())),
        }
    }

    /// The commenters came: the picker opens, unless something else is open by now.
    pub(super) fn on_commenters(
        &mut self,
        request: RequestId,
        result: &Result<crate::api::WholeList<Member>, ApiError>,
    ) -> bool {
        if self.commenters_request != Some(request) {
            return false;
        }
        self.commenters_request = None;
        self.notice = None;
        match result {
            Err(error) => {
                self.notice(self.refused("Reading who commented", error), true);
            }
            Ok(_) if self.overlay.is_some() => {}
            Ok(members) => {
                let current = self.author_filter.as_ref().map(|a| a.user.as_str());
                let title =
                    crate::ui::status::picker_title(" Threads by ", members.stopped_after_pages());
                let picker = Picker::new(&title, self.author_options(&members.items), ())
                    .at(current.or(Some(EVERYONE)));
                self.overlay = Some(Overlay::Authors(picker));
            }
        }
        true
    }

    /// "Everyone", then each commenter with the threads they wrote in.
    fn author_options(&self, members: &[Member]) -> Vec<PickOption> {
        let everyone = PickOption {
            value: EVERYONE.into(),
            label: "Everyone".into(),
            detail: crate::ui::time::plural(self.threads().len(), "thread", "threads"),
        };
        let people = members.iter().map(|member| {
            let written = self
                .threads()
                .iter()
                .filter(|thread| threads::written_in_by(thread, &member.user.id))
                .count();
            PickOption {
                value: member.user.id.clone(),
                label: sanitize(&member.user.display_name).into_owned(),
                detail: crate::ui::time::plural(written, "thread", "threads"),
            }
        });
        std::iter::once(everyone).chain(people).collect()
    }

    /// A key in the open picker; the choice filters the tab, the selection stays on the same
    /// thread when it is still shown.
    pub(super) fn on_author_picker_key(&mut self, mut picker: Picker<()>, key: &KeyEvent) {
        match picker.handle_key(key) {
            PickOutcome::Pending => self.overlay = Some(Overlay::Authors(picker)),
            PickOutcome::Cancelled => {}
            PickOutcome::Picked(values) => {
                let row = self.selected_row();
                self.author_filter = values
                    .first()
                    .filter(|user| user.as_str() != EVERYONE)
                    .and_then(|user| {
                        let option = picker.options.iter().find(|o| &o.value == user)?;
                        Some(AuthorFilter {
                            user: user.clone(),
                            name: option.label.clone(),
                        })
                    });
                let rows = self.rows();
                self.comment_selection.selected = threads::position_after_change(&rows, row);
                self.comment_selection.clamp(rows.len());
            }
        }
    }
}
