//! A spec's versions (enter on the OpenAPI tab): newest first, the latest marked; enter opens
//! a version's files ([`content::ContentScreen`]). The organization's OpenAPI tab itself is
//! [`tab`]; its drawing is in [`view`].

pub mod content;
pub mod tab;
pub mod view;

pub use tab::OpenApiTab;

use ratatui::layout::Rect;

pub use content::ContentScreen;

use crate::api::models::{OpenApiSpec, OpenApiVersion, Organization};
use crate::api::{VersionRef, WholeList};
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::screens::{Screen, ScreenState};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::openapi::{OpenApiCall, OpenApiResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

#[derive(Debug)]
pub struct VersionsScreen {
    pub organization: String,
    pub spec: OpenApiSpec,
    pub versions: Loadable<WholeList<OpenApiVersion>>,
    pub selection: Selection,
    /// The spec read alone by `r`, so the latest version's mark follows a new processing.
    spec_read: Option<RequestId>,
}

impl VersionsScreen {
    pub fn new(organization: &Organization, spec: OpenApiSpec) -> VersionsScreen {
        VersionsScreen {
            organization: organization.id.clone(),
            spec,
            versions: Loadable::NotAsked,
            selection: Selection::default(),
            spec_read: None,
        }
    }

    pub fn list(&self) -> &[OpenApiVersion] {
        self.versions
            .value()
            .map_or(&[], |listed| listed.items.as_slice())
    }

    /// True for the spec's latest version (its `lastVersion`, else the first listed).
    pub fn is_latest(&self, index: usize) -> bool {
        let Some(version) = self.list().get(index) else {
            return false;
        };
        match &self.spec.last_version {
            Some(latest) => *latest == version.id,
            None => index == 0,
        }
    }

    /// The spec itself, read alone (not the organization's whole list).
    fn read_spec(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.spec_read = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::OpenApi(OpenApiCall::Spec {
                organization: self.organization.clone(),
                slug: self.spec.slug.clone(),
            }),
        }
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.versions.start(request);
        Cmd::Api {
            request,
            call: ApiCall::OpenApi(OpenApiCall::Versions {
                organization: self.organization.clone(),
                slug: self.spec.slug.clone(),
            }),
        }
    }
}

impl ScreenState for VersionsScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        Cmd::batch([self.read_spec(ctx), self.load(ctx)])
    }

    fn title(&self) -> String {
        format!("{} versions", self.spec.slug)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::SpecVersions, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "files"),
            (Action::Refresh, "refresh"),
            (Action::CopyLink, "copy address"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.list().len();
        let page = ctx.size.height.saturating_sub(5).max(1) as isize;
        if crate::screens::step::move_selection(&mut self.selection, action, len, page) {
            return Some(Step::default());
        }
        if action != Action::Open {
            return None;
        }
        let index = self.selection.selected;
        let version = self.list().get(index)?.clone();
        let reference = if self.is_latest(index) {
            VersionRef::Latest
        } else {
            VersionRef::Id(version.id.clone())
        };
        Some(Step::push(Screen::SpecContent(Box::new(
            ContentScreen::new(&self.organization, &self.spec.slug, version, reference),
        ))))
    }

    fn on_response(&mut self, (request, response): Answered, _ctx: &mut Ctx) -> Option<Step> {
        if let ApiResponse::OpenApi(OpenApiResponse::Spec(result)) = response {
            if self.spec_read != Some(request) {
                return None;
            }
            self.spec_read = None;
            // A spec that cannot be read keeps what the list said; the versions tell the rest.
            if let Ok(spec) = result {
                self.spec = spec.clone();
            }
            return Some(Step::default());
        }
        let ApiResponse::OpenApi(OpenApiResponse::Versions(result)) = response else {
            return None;
        };
        if !self.versions.settle(request, result.clone()) {
            return None;
        }
        self.selection.clamp(self.list().len());
        Some(Step::default())
    }

    fn link(&self) -> Option<String> {
        self.list().get(self.selection.selected)?.url.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw_versions(self, frame, area, look);
    }
}
