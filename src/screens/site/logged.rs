//! What a site write looks like in the action log, with its inverse where one exists.

use super::SiteScreen;
use crate::vocabulary::ApiCall;
use crate::vocabulary::action_log::{PendingEntry, Undo};
use crate::vocabulary::sites::{SitesCall, SitesResponse};

/// The log entry of `call`, sent from `screen`; None for calls not worth logging.
pub(super) fn entry(screen: &SiteScreen, call: &SitesCall) -> Option<PendingEntry> {
    let place = format!("site {}", screen.site.title);
    let link_name = |id: &str| {
        screen
            .links()
            .iter()
            .find(|l| l.id == id)
            .and_then(|l| l.name.clone())
            .unwrap_or_else(|| id.to_string())
    };
    let (what, undo) = match call {
        SitesCall::UpdateShareLink {
            organization,
            site,
            link,
            active: Some(active),
            name: None,
        } => {
            let name = link_name(link);
            let inverse = ApiCall::Sites(SitesCall::UpdateShareLink {
                organization: organization.clone(),
                site: site.clone(),
                link: link.clone(),
                active: Some(!active),
                name: None,
            });
            if *active {
                (
                    format!("Activated share link “{name}”"),
                    Undo::inverse(inverse, "Deactivates the link again"),
                )
            } else {
                (
                    format!("Deactivated share link “{name}”"),
                    Undo::inverse(
                        inverse,
                        "Re-activates the link: its URL opens the site again",
                    ),
                )
            }
        }
        SitesCall::Publish { organization, site } => (
            "Published the site".to_string(),
            Undo::inverse(
                ApiCall::Sites(SitesCall::Unpublish {
                    organization: organization.clone(),
                    site: site.clone(),
                }),
                "Unpublishes it",
            ),
        ),
        SitesCall::Unpublish { organization, site } => (
            "Unpublished the site".to_string(),
            Undo::inverse(
                ApiCall::Sites(SitesCall::Publish {
                    organization: organization.clone(),
                    site: site.clone(),
                }),
                "Publishes it again",
            ),
        ),
        SitesCall::CreateShareLink { name, .. } => (
            format!("Created share link “{name}”"),
            Undo::impossible("a created link stays; delete it on the share links tab (d)"),
        ),
        SitesCall::DeleteShareLink { link, .. } => (
            format!("Deleted share link “{}”", link_name(link)),
            Undo::impossible("a deleted share link cannot be brought back"),
        ),
        _ => return None,
    };
    Some(PendingEntry::new(what, place, undo))
}

/// True when the answer says the write went through.
pub(super) fn accepted(response: &SitesResponse) -> bool {
    match response {
        SitesResponse::ShareLink(result) => result.is_ok(),
        SitesResponse::Site(result) => result.is_ok(),
        SitesResponse::Published(result) => result.is_ok(),
        SitesResponse::Done(result) => result.is_ok(),
        _ => false,
    }
}
