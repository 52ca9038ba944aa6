//! The whole of what the sandbox serves: the shared records of `model.rs` and each area's
//! own state. That state lives in a file of its area that holds no handlers (`state.rs`,
//! `model.rs`, or a `mod.rs` whose handlers are in `routes.rs`), so that holding it here ties
//! the world to no area's handlers, which all import the world.

use std::collections::HashMap;

use crate::model::{Collection, Membership, Organization, RETENTION_DAYS, Role, Space, User};

/// Everything the sandbox serves, one field per area; the server holds it behind
/// `Arc<RwLock<World>>`.
#[derive(Clone, Debug, Default)]
pub struct World {
    pub organizations: Vec<Organization>,
    pub users: Vec<User>,
    pub memberships: Vec<Membership>,
    pub collections: Vec<Collection>,
    pub spaces: Vec<Space>,
    /// Bearer token → user id.
    pub tokens: HashMap<String, String>,
    /// Published sites with their structure, share links and adaptive schema.
    pub sites: crate::sites::model::Sites,
    pub change_requests: crate::change_requests::model::ChangeRequests,
    pub conversations: crate::conversations::Conversations,
    /// Roles on collections apart from the organization role (the `permissions` they give).
    pub content_access: crate::collections::state::ContentAccess,
    /// Git sync state per space (import/export operations, legacy installations).
    pub git: crate::git::state::GitStates,
    /// Teams of every organization with their members (seats).
    pub teams: crate::teams::state::Teams,
    /// SAML providers (sso/).
    pub sso: crate::sso::state::SsoState,
    /// Default content, merge rules, invite links, agent instructions (org_settings/).
    pub org_settings: crate::org_settings::state::OrgSettings,
    /// Translations of spaces (translations/mod.rs).
    pub translations: crate::translations::state::Translations,
    /// OpenAPI specs and their versions (openapi/mod.rs).
    pub openapi: crate::openapi::state::Specs,
    pub integrations: crate::integrations::Integrations,
    /// Content templates a space's content can be given (templates.rs); none can be listed.
    pub templates: Vec<crate::model::Template>,
    /// Days the sandbox's clock runs ahead of the real one (a test knob), so a test can see a
    /// deleted space pass its 7 days of retention.
    pub clock_shift_days: i64,
    /// The time the sandbox goes by, shared with [`crate::Sandbox::clock`].
    pub clock: crate::clock::Clock,
}

impl World {
    pub fn organization(&self, id: &str) -> Option<&Organization> {
        self.organizations
            .iter()
            .find(|organization| organization.id == id)
    }

    pub fn user(&self, id: &str) -> Option<&User> {
        self.users.iter().find(|user| user.id == id)
    }

    pub fn collection(&self, id: &str) -> Option<&Collection> {
        self.collections
            .iter()
            .find(|collection| collection.id == id)
    }

    /// A space by id; a deleted space past its retention is purged and found no more.
    pub fn space(&self, id: &str) -> Option<&Space> {
        self.spaces
            .iter()
            .find(|space| space.id == id && !self.is_purged(space))
    }

    /// The sandbox's "now": its clock moved by [`World::clock_shift_days`].
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now() + chrono::Duration::days(self.clock_shift_days)
    }

    /// True for a space deleted more than [`RETENTION_DAYS`] ago: permanently removed.
    pub fn is_purged(&self, space: &Space) -> bool {
        space
            .deleted_at
            .as_deref()
            .and_then(|deleted| chrono::DateTime::parse_from_rfc3339(deleted).ok())
            .is_some_and(|deleted| {
                self.now() - deleted.with_timezone(&chrono::Utc)
                    > chrono::Duration::days(RETENTION_DAYS)
            })
    }

    /// The membership of a user in an organization, if any.
    pub fn membership(&self, organization: &str, user: &str) -> Option<&Membership> {
        self.memberships
            .iter()
            .find(|membership| membership.organization == organization && membership.user == user)
    }

    /// The role a user holds in an organization, or `None` when they are not a member.
    pub fn role_in(&self, organization: &str, user: &str) -> Option<Role> {
        self.membership(organization, user)
            .and_then(|membership| membership.role)
    }
}
