//! Who may change a site and who can read it: the role every change needs, the user's own
//! role (asked for once), and a visibility in words. Read by the Sites tab, the site screen
//! and the access view alike, so it sits apart from each.

use crate::api::models::{MemberRole, SiteVisibility};
use crate::screens::step::Ctx;
use crate::vocabulary::sites::{SitesCall, SitesResponse};
use crate::vocabulary::{ApiCall, Cmd, RequestId};

/// Who can reach a published site with this visibility, in words for a confirmation.
pub fn audience(visibility: Option<&SiteVisibility>) -> String {
    match visibility {
        Some(SiteVisibility::Public) => "anyone, indexed by search engines".into(),
        Some(SiteVisibility::Unlisted) => "anyone with the link, not indexed".into(),
        Some(SiteVisibility::ShareLink) => "people with a share link".into(),
        Some(SiteVisibility::VisitorAuth) => {
            "visitors authenticated by your identity provider".into()
        }
        Some(SiteVisibility::Other(other)) => format!("visitors allowed by “{other}”"),
        None => "the visitors its visibility allows".into(),
    }
}

/// The role every change to a site needs (sites are administered content).
pub const ROLE_TO_CHANGE_SITES: &str = "admin";

/// The user's own role in an organization, asked for once the first time a refusal has to
/// name it, so that it says who they are as well as what is needed.
#[derive(Debug, Default)]
pub struct MyRole {
    /// `None` until the answer came; `Some(None)`: a guest.
    pub known: Option<Option<MemberRole>>,
    request: Option<RequestId>,
}

impl MyRole {
    /// The request for the role, unless it is known or already asked for.
    pub fn ask(&mut self, organization: &str, ctx: &mut Ctx) -> Cmd {
        if self.known.is_some() || self.request.is_some() {
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.request = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::Sites(SitesCall::MyRole {
                organization: organization.to_string(),
            }),
        }
    }

    /// Takes the answer to [`MyRole::ask`]; false when `request` is another one. A failed
    /// answer leaves the role unknown: refusals then name only the role needed.
    pub fn answered(&mut self, request: RequestId, response: &SitesResponse) -> bool {
        if self.request != Some(request) {
            return false;
        }
        self.request = None;
        if let SitesResponse::MyRole(Ok(role)) = response {
            self.known = Some(role.clone());
        }
        true
    }

    /// Why a change is refused, naming the role needed and, once known, the user's own:
    /// "you are at edit level; admin is needed to change this site".
    pub fn refusal(&self, what: &str) -> String {
        let needed = format!("{ROLE_TO_CHANGE_SITES} is needed to {what}");
        match &self.known {
            Some(role) => format!(
                "you are {}; {needed}",
                crate::screens::role_noun(role.as_ref())
            ),
            None => needed,
        }
    }
}
