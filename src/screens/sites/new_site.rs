//! What a new site is made with, asked after its title: its plan (`type`), who can read it
//! (`visibility`), then the organization's spaces it starts with (read when asked for; space
//! marks, enter creates, with none marked the site starts empty). Each step's picker carries
//! the site as chosen so far.

use crate::api::NewSite;
use crate::api::models::{SiteType, SiteVisibility, Space};
use crate::screens::step::Ctx;
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, Picker};
use crate::ui::sanitize::sanitize;
use crate::vocabulary::sites::{SitesCall, SitesResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

use super::site_ops::SitesModal;
use super::{SitesTab, audience};

/// The step a new site's picker answers, with the site as chosen so far.
#[derive(Debug, Clone, PartialEq)]
pub enum NewSiteStep {
    Type(NewSite),
    Visibility(NewSite),
    Spaces(NewSite),
}

/// The plans offered for a new site: the legacy and sponsored ones are had, not chosen.
const TYPES: [(SiteType, &str); 3] = [
    (SiteType::Basic, "what a site gets when no plan is named"),
    (SiteType::Premium, "the premium plan"),
    (SiteType::Ultimate, "the ultimate plan"),
];

const VISIBILITIES: [SiteVisibility; 4] = [
    SiteVisibility::Public,
    SiteVisibility::Unlisted,
    SiteVisibility::ShareLink,
    SiteVisibility::VisitorAuth,
];

fn option(value: &str, detail: &str) -> PickOption {
    PickOption {
        value: value.to_string(),
        label: value.to_string(),
        detail: detail.to_string(),
    }
}

impl SitesTab {
    /// After the title: the plan picker.
    pub(super) fn ask_for_type(&mut self, title: String) {
        let options = TYPES
            .iter()
            .map(|(kind, detail)| option(kind.as_str(), detail))
            .collect();
        let site = NewSite {
            title,
            ..NewSite::default()
        };
        let picker = Picker::new("The new site's plan", options, NewSiteStep::Type(site));
        self.modal = Some(SitesModal::NewSite(picker));
    }

    /// A step's pick: the next step, or the site created. `picked` holds one value, or the
    /// spaces marked.
    pub(super) fn on_new_site_pick(
        &mut self,
        step: NewSiteStep,
        picked: Vec<String>,
        ctx: &mut Ctx,
    ) -> Cmd {
        let first = picked.first().map(String::as_str).unwrap_or_default();
        match step {
            NewSiteStep::Type(mut site) => {
                site.site_type = Some(SiteType::from(first));
                let options = VISIBILITIES
                    .iter()
                    .map(|visibility| option(visibility.as_str(), &audience(Some(visibility))))
                    .collect();
                let step = NewSiteStep::Visibility(site);
                let picker = Picker::new("Who can read the new site", options, step);
                self.modal = Some(SitesModal::NewSite(picker));
                Cmd::None
            }
            NewSiteStep::Visibility(mut site) => {
                site.visibility = Some(SiteVisibility::from(first));
                self.load_spaces_for(site, ctx)
            }
            NewSiteStep::Spaces(mut site) => {
                site.spaces = picked;
                self.create(site, ctx)
            }
        }
    }

    fn load_spaces_for(&mut self, site: NewSite, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.notice = Some(Notice::info("Loading the organization's spaces…"));
        self.spaces_for = Some((request, site));
        Cmd::Api {
            request,
            call: ApiCall::Sites(SitesCall::OrganizationSpaces {
                organization: self.organization.clone(),
            }),
        }
    }

    /// The spaces came: the picker of those the site starts with. `false` when `request` is
    /// not the one asked for.
    pub(super) fn on_spaces_answer(
        &mut self,
        request: RequestId,
        response: &SitesResponse,
    ) -> bool {
        let SitesResponse::Spaces(result) = response else {
            return false;
        };
        if self.spaces_for.as_ref().map(|(id, _)| *id) != Some(request) {
            return false;
        }
        let Some((_, site)) = self.spaces_for.take() else {
            return false;
        };
        match result {
            Ok(spaces) => {
                self.notice = None;
                self.modal = Some(SitesModal::NewSite(spaces_picker(&spaces.items, site)));
            }
            Err(error) => {
                self.notice = Some(Notice::error(format!(
                    "The organization's spaces did not load, so the site was not created: {}",
                    error.user_message()
                )));
            }
        }
        true
    }
}

fn spaces_picker(spaces: &[Space], site: NewSite) -> Picker<NewSiteStep> {
    let options = spaces
        .iter()
        .map(|space| PickOption {
            value: space.id.clone(),
            label: sanitize(&space.title).into_owned(),
            detail: format!("space {}", sanitize(&space.id)),
        })
        .collect();
    let title =
        "Spaces the site starts with (space marks, enter creates; the first is the default)";
    Picker::new(title, options, NewSiteStep::Spaces(site)).multiple()
}
