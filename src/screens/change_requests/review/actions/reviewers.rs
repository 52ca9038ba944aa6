//! The reviews tab's keys: asking someone to review, or no longer asking them.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::navigation::step;
use crate::screens::change_requests::review::{Confirmation, Overlay, PendingWrite, ReviewScreen};
use crate::screens::step::{Ctx, Step};
use crate::ui::input::{Filter, InputOutcome};
use crate::ui::keymap::Action;
use crate::ui::list::Selection;
use crate::vocabulary::change_requests::ChangeRequestsCall;
use crate::vocabulary::{ApiCall, Cmd, Loadable};

pub(super) fn on_overview_action(
    screen: &mut ReviewScreen,
    action: Action,
    ctx: &mut Ctx,
) -> Option<Step> {
    let len = screen.requested().len();
    let cmd = match action {
        Action::Down => step(&mut screen.reviewer_selection, 1, len),
        Action::Up => step(&mut screen.reviewer_selection, -1, len),
        Action::AddReviewer => {
            let organization = screen
                .bundle
                .value()
                .and_then(|b| b.space.as_ref())
                .and_then(|s| s.organization.clone())?;
            let request = ctx.requests.issue();
            let mut members = Loadable::NotAsked;
            members.start(request);
            screen.overlay = Some(Overlay::Reviewers {
                members,
                filter: Filter::default(),
                selection: Selection::default(),
            });
            Cmd::Api {
                request,
                call: ApiCall::ChangeRequests(ChangeRequestsCall::ListMembers { organization }),
            }
        }
        Action::RemoveReviewer => {
            let reviewer = screen.requested().get(screen.reviewer_selection.selected)?;
            let user = reviewer.user.as_ref()?;
            screen.overlay = Some(Overlay::Confirm(Confirmation::RemoveReviewer {
                user: user.id.clone(),
                name: user.display_name.clone(),
            }));
            Cmd::None
        }
        _ => return None,
    };
    Some(Step::cmd(cmd))
}

pub(super) fn on_reviewer_picker_key(
    screen: &mut ReviewScreen,
    members: Loadable<crate::api::WholeList<crate::api::models::Member>>,
    filter: &mut Filter,
    selection: &mut Selection,
    key: &KeyEvent,
    ctx: &mut Ctx,
) -> Cmd {
    let candidates: Vec<(String, String)> = members
        .value()
        .map(|members| {
            members
                .items
                .iter()
                .filter(|m| {
                    filter.matches(&format!(
                        "{} {}",
                        m.user.display_name,
                        m.user.email.as_deref().unwrap_or("")
                    ))
                })
                .map(|m| (m.user.id.clone(), m.user.display_name.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut close = false;
    let cmd = match key.code {
        KeyCode::Down => {
            selection.move_by(1, candidates.len());
            Cmd::None
        }
        KeyCode::Up => {
            selection.move_by(-1, candidates.len());
            Cmd::None
        }
        KeyCode::Enter => {
            close = true;
            match candidates.get(selection.selected) {
                Some((user, name)) => {
                    screen.notice(format!("Asking {name} to review…"), false);
                    let call = ChangeRequestsCall::RequestReviewers {
                        target: screen.target.clone(),
                        users: vec![user.clone()],
                    };
                    screen.send(ctx, call, PendingWrite::Reviewers)
                }
                None => Cmd::None,
            }
        }
        KeyCode::Esc => {
            close = true;
            Cmd::None
        }
        _ => {
            if filter.input.is_none() {
                filter.open();
            }
            if filter.handle_key(key) == Some(InputOutcome::Cancelled) {
                close = true;
            }
            selection.top();
            Cmd::None
        }
    };
    if !close {
        screen.overlay = Some(Overlay::Reviewers {
            members,
            filter: filter.clone(),
            selection: selection.clone(),
        });
    }
    cmd
}
