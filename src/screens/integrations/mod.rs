//! One integration's details (`enter` in the Integrations tab): title, verified mark, owner,
//! target and categories; the summary rendered as markdown; scopes explained in words; blocks,
//! content sources, configuration schemas and external links. Scrolls like a page. The
//! organization's Integrations tab, the catalogue it is opened from, is [`tab`].

pub mod filters;
pub mod publish;
pub mod tab;
pub mod tab_view;
mod view;

pub use tab::IntegrationsTab;

use ratatui::layout::Rect;

use crate::api::models::Integration;
use crate::screens::ScreenState;
use crate::screens::conversations::scroll::Scroll;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::vocabulary::integrations::{IntegrationsCall, IntegrationsResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable};

#[derive(Debug)]
pub struct IntegrationScreen {
    pub name: String,
    pub integration: Loadable<Box<Integration>>,
    pub scroll: Scroll,
}

impl IntegrationScreen {
    pub fn new(name: &str) -> IntegrationScreen {
        IntegrationScreen {
            name: name.to_string(),
            integration: Loadable::NotAsked,
            scroll: Scroll::default(),
        }
    }
}

impl ScreenState for IntegrationScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.integration.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Integrations(IntegrationsCall::Details {
                name: self.name.clone(),
            }),
        }
    }

    fn title(&self) -> String {
        match self.integration.value() {
            Some(integration) => format!("Integration · {}", integration.title),
            None => format!("Integration · {}", self.name),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Reader]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Down, "scroll"),
            (Action::PageDown, "page"),
            (Action::OpenInBrowser, "open"),
            (Action::CopyLink, "copy link"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let page = ctx.size.height.saturating_sub(4).max(1) as isize;
        self.scroll.on_action(action, page).then(Step::default)
    }

    fn on_response(&mut self, (request, response): Answered, _ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Integrations(IntegrationsResponse::Details(result)) = response else {
            return None;
        };
        self.integration
            .settle(request, result.clone())
            .then(Step::default)
    }

    fn link(&self) -> Option<String> {
        self.integration.value()?.urls.app.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        let Some(integration) = self.integration.value() else {
            match self.integration.error() {
                Some(error) => crate::ui::status::error(frame, area, look, error),
                None => crate::ui::status::loading(frame, area, look, "the integration"),
            }
            return;
        };
        let lines = view::detail_lines(integration, area.width, look.theme);
        let shown = self.scroll.visible(lines, area.height);
        frame.render_widget(ratatui::widgets::Paragraph::new(shown), area);
    }
}
