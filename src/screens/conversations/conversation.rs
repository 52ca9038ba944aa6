//! A conversation as a chat transcript: its metadata (source, dates, address, attributes), the
//! issue it was opened from when there is one, then each message with its role and its body
//! rendered as markdown. Scrolls like a page.

use ratatui::layout::Rect;

use super::scroll::Scroll;
use crate::api::models::{ConversationDetail, ConversationIssue};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::vocabulary::conversations::{ConversationsCall, ConversationsResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

#[derive(Debug)]
pub struct ConversationScreen {
    pub organization: String,
    pub id: String,
    /// The issue this conversation was opened from.
    pub issue: Option<ConversationIssue>,
    pub detail: Loadable<ConversationDetail>,
    pub scroll: Scroll,
    /// The issue read alone by `r`, so its title and summary are the server's now.
    issue_read: Option<RequestId>,
}

impl ConversationScreen {
    pub fn new(
        organization: &str,
        id: &str,
        issue: Option<ConversationIssue>,
    ) -> ConversationScreen {
        ConversationScreen {
            organization: organization.to_string(),
            id: id.to_string(),
            issue,
            detail: Loadable::NotAsked,
            scroll: Scroll::default(),
            issue_read: None,
        }
    }

    /// The issue this conversation was opened from, read alone.
    fn read_issue(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(issue) = &self.issue else {
            return Cmd::None;
        };
        let request = ctx.requests.issue();
        self.issue_read = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::Conversations(ConversationsCall::Issue {
                organization: self.organization.clone(),
                id: issue.id.clone(),
            }),
        }
    }
}

impl ScreenState for ConversationScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.detail.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Conversations(ConversationsCall::Conversation {
                organization: self.organization.clone(),
                id: self.id.clone(),
            }),
        }
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        let conversation = self.enter(ctx);
        Cmd::batch([conversation, self.read_issue(ctx)])
    }

    fn title(&self) -> String {
        match self.detail.value() {
            Some(detail) => format!("Conversation · {}", detail.conversation.subject),
            None => "Conversation".to_string(),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Reader]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Down, "scroll"),
            (Action::PageDown, "page"),
            (Action::OpenInBrowser, "open source"),
            (Action::Refresh, "refresh"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let page = ctx.size.height.saturating_sub(4).max(1) as isize;
        self.scroll.on_action(action, page).then(Step::default)
    }

    fn on_response(&mut self, (request, response): Answered, _ctx: &mut Ctx) -> Option<Step> {
        if let ApiResponse::Conversations(ConversationsResponse::Issue(result)) = response {
            if self.issue_read != Some(request) {
                return None;
            }
            self.issue_read = None;
            // An issue that cannot be read keeps what the list said.
            if let Ok(found) = result {
                self.issue = Some(found.issue.clone());
            }
            return Some(Step::default());
        }
        let ApiResponse::Conversations(ConversationsResponse::Conversation(result)) = response
        else {
            return None;
        };
        self.detail
            .settle(request, result.clone())
            .then(Step::default)
    }

    fn link(&self) -> Option<String> {
        let detail = self.detail.value()?;
        detail
            .metadata
            .url
            .clone()
            .or_else(|| detail.conversation.urls.source.clone())
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::view::draw_conversation(self, frame, area, look);
    }
}
