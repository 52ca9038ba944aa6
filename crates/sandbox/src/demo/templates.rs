//! The demo's content templates: the ids `POST /spaces/{space}/content/template` accepts (the
//! API cannot list them, so a user types one).

use super::{document, ids};
use crate::model::Template;
use crate::world::World;

const HOW_TO: &str = "# How to …\n\nOne sentence on what the reader will have done.\n\n\
## Before you start\n\n- What they need installed\n- The role they need\n\n## Steps\n\n\
1. The first step\n2. The next one\n\n## Check it worked\n\nWhat they should see.\n";

const RELEASE_NOTES: &str = "# Release notes\n\n![Screenshot]({{screenshot}})\n\n\
## New\n\n- …\n\n## Fixed\n\n- …\n\n## Upgrading\n\nNothing to do.\n";

pub(super) fn populate(world: &mut World) {
    world.templates = vec![
        Template {
            id: ids::TEMPLATE_HOW_TO.to_string(),
            pages: vec![document("tpl-page-how-to", "How-to guide", HOW_TO)],
        },
        Template {
            id: ids::TEMPLATE_RELEASE_NOTES.to_string(),
            pages: vec![document(
                "tpl-page-release-notes",
                "Release notes",
                RELEASE_NOTES,
            )],
        },
    ];
}
