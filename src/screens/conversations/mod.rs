//! Deeper views of the Clusters tab: a cluster's issues (`enter` on a cluster) and a
//! conversation's transcript with its metadata (`enter` on an issue or a conversation). The
//! organization's Clusters tab itself is [`tab`], drawn by [`tab_view`].

pub mod conversation;
pub mod scroll;
pub mod tab;
pub mod tab_view;
mod view;

use ratatui::layout::Rect;

pub use conversation::ConversationScreen;
pub use tab::ClustersTab;

use crate::api::IssueFilter;
use crate::api::models::{IssueWithConversation, IssuesCluster};
use crate::screens::change_requests::ChangeRequestList;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::{Screen, ScreenState};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::change_requests::ChangeRequestScope;
use crate::vocabulary::conversations::{ConversationsCall, ConversationsResponse};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd};

/// The organization's change requests linked to `cluster`: the change-request list with its
/// cluster filter set.
pub fn change_requests_of(
    organization: &str,
    organization_title: &str,
    cluster: &IssuesCluster,
) -> Step {
    let mut list = ChangeRequestList::new(
        ChangeRequestScope::Organization(organization.to_string()),
        organization_title,
    );
    list.cluster = Some((cluster.id.clone(), cluster.label.clone()));
    Step::push(Screen::ChangeRequests(list))
}

/// A cluster's issues, each with its conversation's subject.
#[derive(Debug)]
pub struct ClusterIssuesScreen {
    pub organization: String,
    pub organization_title: String,
    pub cluster: IssuesCluster,
    pub issues: PagedList<IssueWithConversation>,
    pub selection: Selection,
}

impl ClusterIssuesScreen {
    pub fn new(
        organization: &str,
        organization_title: &str,
        cluster: IssuesCluster,
    ) -> ClusterIssuesScreen {
        ClusterIssuesScreen {
            organization: organization.to_string(),
            organization_title: organization_title.to_string(),
            cluster,
            issues: PagedList::default(),
            selection: Selection::default(),
        }
    }

    pub fn selected(&self) -> Option<&IssueWithConversation> {
        self.issues.items.get(self.selection.selected)
    }

    fn call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Conversations(ConversationsCall::Issues {
            organization: self.organization.clone(),
            filter: IssueFilter {
                cluster: Some(self.cluster.id.clone()),
                conversation: None,
            },
            page,
        })
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        self.issues.load_first(ctx.requests, self.call(None))
    }

    fn more(&mut self, ctx: &mut Ctx) -> Cmd {
        self.issues
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| next.ask(|page| self.call(page)))
    }
}

impl ScreenState for ClusterIssuesScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn title(&self) -> String {
        format!("Issues · {}", self.cluster.label)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::ClusterIssues, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "conversation"),
            (Action::ClusterChangeRequests, "change requests"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let page = ctx.size.height.saturating_sub(8).max(1) as isize;
        let len = self.issues.items.len();
        if crate::screens::step::move_selection(&mut self.selection, action, len, page) {
            return Some(Step::cmd(self.more(ctx)));
        }
        match action {
            Action::Open => {
                let Some(item) = self.selected() else {
                    return Some(Step::default());
                };
                let screen = ConversationScreen::new(
                    &self.organization,
                    &item.conversation.id,
                    Some(item.issue.clone()),
                );
                Some(Step::push(Screen::Conversation(Box::new(screen))))
            }
            Action::ClusterChangeRequests => Some(change_requests_of(
                &self.organization,
                &self.organization_title,
                &self.cluster,
            )),
            _ => None,
        }
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Conversations(ConversationsResponse::Issues(result)) = response else {
            return None;
        };
        if !self.issues.settle(request, result.clone()) {
            return None;
        }
        self.selection.clamp(self.issues.items.len());
        Some(Step::cmd(self.more(ctx)))
    }

    fn link(&self) -> Option<String> {
        self.cluster.urls.app.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw_issues(self, frame, area, look);
    }
}
