//! What the server lets this user do here (the change request's permissions, else the
//! space's), the role that amounts to, and the words for a refused write.

use super::ReviewScreen;
use crate::api::ApiError;
use crate::screens::roles::{outcome_unknown, refused, role_from_permissions};

impl ReviewScreen {
    // Permissions: the change request's own when the server sends them, else the space's.

    pub fn can_comment(&self) -> bool {
        self.permission(|p| p.comment, |s| s.comment)
    }

    pub fn can_review(&self) -> bool {
        self.permission(|p| p.review, |s| s.review)
    }

    pub fn can_merge(&self) -> bool {
        self.permission(|p| p.merge, |s| s.merge)
    }

    pub fn can_edit(&self) -> bool {
        self.permission(|p| p.edit, |s| s.edit)
    }

    /// Who the server says you are here: the space's permissions (which include admin),
    /// else the change request's.
    pub fn role(&self) -> Option<String> {
        let bundle = self.bundle.value()?;
        if let Some(space) = &bundle.space {
            let p = &space.permissions;
            return Some(crate::screens::roles::role_noun(Some(
                &role_from_permissions(p.admin, p.merge, p.edit, p.review, p.comment),
            )));
        }
        let p = bundle.change_request.permissions.as_ref()?;
        Some(crate::screens::roles::role_noun(Some(
            &role_from_permissions(false, p.merge, p.edit, p.review, p.comment),
        )))
    }

    /// The error text for a refused write, with the role you have.
    pub(super) fn refused(&self, what: &str, error: &ApiError) -> String {
        refused(what, error, self.role().as_deref())
    }

    fn permission(
        &self,
        from_change_request: impl Fn(&crate::api::models::ChangeRequestPermissions) -> bool,
        from_space: impl Fn(&crate::api::models::SpacePermissions) -> bool,
    ) -> bool {
        let Some(bundle) = self.bundle.value() else {
            return false;
        };
        if let Some(permissions) = &bundle.change_request.permissions {
            return from_change_request(permissions);
        }
        bundle
            .space
            .as_ref()
            .is_some_and(|space| from_space(&space.permissions))
    }
}

/// The error text for a refused post whose text is a draft: when the draft could not be
/// written to disk (`unsaved` says why), it says so instead of promising that nothing was lost.
pub(super) fn refused_draft(
    what: &str,
    error: &ApiError,
    role: Option<&str>,
    unsaved: Option<&str>,
) -> String {
    let Some(reason) = unsaved else {
        return refused(what, error, role);
    };
    // The unsaved draft comes first: it is what the user must act on before leaving.
    let not_kept =
        format!("the draft could not be saved: {reason}; the text is in the composer only");
    if outcome_unknown(error) {
        format!(
            "{what}: no answer from the server — {not_kept}. It may or may not have been \
             stored: reloading, check before sending again."
        )
    } else {
        format!("{what} failed — {not_kept}. {}", error.user_message())
    }
}
