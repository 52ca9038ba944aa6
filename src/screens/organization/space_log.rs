//! The Spaces tab's writes as the action log shows them: a deletion is undone by restoring the
//! space (the server keeps it 7 days), a copy by deleting it; a settings change names what
//! changed and is changed back with the same key.

use crate::api::models::Space;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::ApiCall;
use crate::vocabulary::action_log::{PendingEntry, Undo};
use crate::vocabulary::spaces::SpacesCall;

const PLACE: &str = "organization spaces";

pub(super) fn delete(space: &Space) -> PendingEntry {
    let title = sanitize(&space.title).into_owned();
    PendingEntry::new(
        format!("Deleted the space “{title}”"),
        PLACE,
        Undo::inverse(
            ApiCall::Spaces(SpacesCall::Restore {
                space: space.id.clone(),
            }),
            format!("Restores “{title}” from the trash"),
        ),
    )
}

/// `said` is what the tab said once it was done ("“Handbook” locked: all edits are locked").
pub(super) fn update(said: &str) -> PendingEntry {
    PendingEntry::new(
        sanitize(said).into_owned(),
        PLACE,
        Undo::impossible("change it back on the Spaces tab with the same key"),
    )
}

pub(super) fn duplicate(title: &str, copy: &Space) -> PendingEntry {
    let copy_title = sanitize(&copy.title).into_owned();
    PendingEntry::new(
        format!("Duplicated “{}” as “{copy_title}”", sanitize(title)),
        PLACE,
        Undo::inverse(
            ApiCall::Spaces(SpacesCall::Delete {
                space: copy.id.clone(),
            }),
            format!("Deletes the copy “{copy_title}”: it goes to the trash"),
        ),
    )
}
