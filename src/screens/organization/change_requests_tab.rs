//! The organization's change-request inbox as one of its tabs: the list of
//! `screens/change_requests` with the tab bar's keys, read when the tab is first shown.

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::screens::ScreenState;
use crate::screens::change_requests::ChangeRequestList;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::notice::Notice;
use crate::vocabulary::change_requests::ChangeRequestScope;
use crate::vocabulary::{Cmd, RequestId};

/// The list's keys the tab leaves out of its footer: a new change request and the next
/// status are for a space's list, and `esc` does not leave a tab.
const OWN_SCREEN: [Action; 3] = [Action::NewChangeRequest, Action::CycleStatus, Action::Back];

#[derive(Debug)]
pub struct ChangeRequestsTab {
    pub list: ChangeRequestList,
    /// The list is read the first time the tab shows; its watch keeps it fresh after.
    entered: bool,
}

impl ChangeRequestsTab {
    pub fn new(organization: &crate::api::models::Organization) -> ChangeRequestsTab {
        let scope = ChangeRequestScope::Organization(organization.id.clone());
        ChangeRequestsTab {
            list: ChangeRequestList::new(scope, organization.title.clone()),
            entered: false,
        }
    }
}

impl ScreenState for ChangeRequestsTab {
    fn title(&self) -> String {
        self.list.title()
    }

    fn messages(&self) -> Vec<Notice> {
        self.list.messages()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if std::mem::replace(&mut self.entered, true) {
            return Cmd::None;
        }
        self.list.enter(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list.load(ctx)
    }

    fn resumed(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list.load(ctx)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[
            KeyContext::Tabs,
            KeyContext::ChangeRequests,
            KeyContext::List,
        ]
    }

    /// The list's own keys but those of a screen of its own, with the tab bar's before `?`.
    fn hints(&self) -> Vec<(Action, &'static str)> {
        let mut hints: Vec<_> = self
            .list
            .hints()
            .into_iter()
            .filter(|(action, _)| !OWN_SCREEN.contains(action))
            .collect();
        hints.insert(hints.len().saturating_sub(1), (Action::NextTab, "tab"));
        hints
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        self.list.on_raw_key(key, ctx)
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> Cmd {
        self.list.on_paste(text, ctx)
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        self.list.on_action(action, ctx)
    }

    fn on_response(&mut self, answered: Answered, ctx: &mut Ctx) -> Option<Step> {
        self.list.on_response(answered, ctx)
    }

    fn on_timer(&mut self, id: RequestId, ctx: &mut Ctx) -> Option<Step> {
        self.list.on_timer(id, ctx)
    }

    fn hasten_watch(&mut self, ctx: &mut Ctx) -> Cmd {
        self.list.hasten_watch(ctx)
    }

    fn watchable(&self) -> Option<crate::screens::Watchable> {
        self.list.watchable()
    }

    fn link(&self) -> Option<String> {
        self.list.link()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        self.list.draw(frame, area, look);
    }
}
