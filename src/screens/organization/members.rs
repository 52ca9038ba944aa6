//! The Members tab's server filters: which role is shown and how the list is sorted. Pure
//! helpers, so the cycles are easy to read and to test.

use crate::api::{MemberFilter, MemberRole, MemberRoleFilter, MemberSortKey, SortOrder};

/// The role filter's cycle: every role, then guests, then everyone again.
const ROLE_CYCLE: [MemberRoleFilter; 7] = [
    MemberRoleFilter::Role(MemberRole::Admin),
    MemberRoleFilter::Role(MemberRole::Create),
    MemberRoleFilter::Role(MemberRole::Edit),
    MemberRoleFilter::Role(MemberRole::Review),
    MemberRoleFilter::Role(MemberRole::Comment),
    MemberRoleFilter::Role(MemberRole::Read),
    MemberRoleFilter::Guest,
];

/// The role after `current`; `None` (everyone) after the last.
pub fn next_role(current: Option<&MemberRoleFilter>) -> Option<MemberRoleFilter> {
    let Some(current) = current else {
        return Some(ROLE_CYCLE[0].clone());
    };
    let position = ROLE_CYCLE.iter().position(|role| role == current)?;
    ROLE_CYCLE.get(position + 1).cloned()
}

/// Joined newest first (the server's default), joined oldest first, last seen most recent
/// first, last seen longest ago first, then back to the default (nothing sent).
pub fn cycle_sort(filter: &mut MemberFilter) {
    use MemberSortKey::{JoinedAt, LastSeenAt};
    use SortOrder::{Ascending, Descending};
    let next = match (&filter.sort, &filter.order) {
        (None | Some(JoinedAt), None | Some(Descending)) => Some((JoinedAt, Ascending)),
        (None | Some(JoinedAt), Some(Ascending)) => Some((LastSeenAt, Descending)),
        (Some(LastSeenAt), None | Some(Descending)) => Some((LastSeenAt, Ascending)),
        _ => None,
    };
    (filter.sort, filter.order) =
        next.map_or((None, None), |(sort, order)| (Some(sort), Some(order)));
}

/// "joined, newest first" and the like, for the line above the list.
pub fn sort_label(filter: &MemberFilter) -> &'static str {
    let last_seen = filter.sort == Some(MemberSortKey::LastSeenAt);
    let ascending = filter.order == Some(SortOrder::Ascending);
    match (last_seen, ascending) {
        (false, false) => "joined, newest first",
        (false, true) => "joined, oldest first",
        (true, false) => "last seen, most recent first",
        (true, true) => "last seen, longest ago first",
    }
}

/// The filters in force, for the line above the list: `role admin · search "ada" · sort …`.
pub fn summary(filter: &MemberFilter) -> String {
    let mut parts = Vec::new();
    match &filter.role {
        Some(role) => parts.push(format!("role {role}")),
        None => parts.push("every role".to_string()),
    }
    if let Some(search) = &filter.search {
        parts.push(format!("search \"{search}\""));
    }
    parts.push(format!("sort: {}", sort_label(filter)));
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_cycle_through_guest_back_to_everyone() {
        let mut role = None;
        let mut seen = Vec::new();
        for _ in 0..8 {
            role = next_role(role.as_ref());
            seen.push(
                role.as_ref()
                    .map_or("all", |role| role.as_str())
                    .to_string(),
            );
        }
        assert_eq!(
            seen,
            [
                "admin", "create", "edit", "review", "comment", "read", "guest", "all"
            ]
        );
    }

    #[test]
    fn sort_cycles_through_four_orders_and_back_to_the_default() {
        let mut filter = MemberFilter::default();
        let mut labels = Vec::new();
        for _ in 0..4 {
            cycle_sort(&mut filter);
            labels.push(sort_label(&filter));
        }
        assert_eq!(
            labels,
            [
                "joined, oldest first",
                "last seen, most recent first",
                "last seen, longest ago first",
                "joined, newest first"
            ]
        );
        assert_eq!(filter, MemberFilter::default());
    }
}
