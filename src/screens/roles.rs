//! Who the server says the user is, in the words every screen uses for a role, and how a
//! refused write is told with it. The change-request list, the new change request's prompt,
//! the review and the site screens all say it the same way.

use crate::api::ApiError;
use crate::api::models::MemberRole;

/// Where a person stands, for sentences like "you are at edit level": the role by the name
/// the rest of the UI gives it (the members' role column, the access level pickers, "edit or
/// above"), never a noun of its own ("editor"). One vocabulary for every screen that names
/// your role; short, as it goes into one-line refusals.
pub fn role_noun(role: Option<&MemberRole>) -> String {
    match role {
        Some(role) => format!("at {role} level"),
        None => "a guest".into(),
    }
}

/// Who the space's permissions say the user is ("at read level").
pub fn space_role(space: &crate::api::models::Space) -> String {
    let p = &space.permissions;
    role_noun(Some(&role_from_permissions(
        p.admin, p.merge, p.edit, p.review, p.comment,
    )))
}

/// True when a write may or may not have reached the server (no answer came back).
pub fn outcome_unknown(error: &ApiError) -> bool {
    error.outcome_unknown()
}

/// The error text to show for a refused write; `role` is who the server says you are.
pub fn refused(what: &str, error: &ApiError, role: Option<&str>) -> String {
    if outcome_unknown(error) {
        format!(
            "{what}: no answer from the server, so it may or may not have been stored. \
             Reloading — check before sending again (your text is kept)."
        )
    } else if error.status() == Some(403) {
        let you_are = role.map(|r| format!("you are {r}; ")).unwrap_or_default();
        format!(
            "{what}: the server says your role may not do this ({you_are}{})",
            error.user_message()
        )
    } else {
        format!(
            "{what} failed: {} — nothing was lost, try again",
            error.user_message()
        )
    }
}

/// The role a set of permissions amounts to, named as a person ("reader", "reviewer"): the
/// server reports what you may do, not your role's name. Editors may merge, so `merge` says
/// no more than `edit` does (a locked space gives editors merge without edit).
pub fn role_from_permissions(
    admin: bool,
    merge: bool,
    edit: bool,
    review: bool,
    comment: bool,
) -> MemberRole {
    if admin {
        MemberRole::Admin
    } else if merge || edit {
        MemberRole::Edit
    } else if review {
        MemberRole::Review
    } else if comment {
        MemberRole::Comment
    } else {
        MemberRole::Read
    }
}
