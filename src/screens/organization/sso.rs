//! The organization's Single sign-on tab (issue 11: SAML providers, SSO login infos).

use super::pane::NotYet;
use crate::api::models::Organization;

pub type SsoTab = NotYet;

pub fn new(_organization: &Organization) -> SsoTab {
    NotYet {
        what: "Single sign-on providers",
    }
}
