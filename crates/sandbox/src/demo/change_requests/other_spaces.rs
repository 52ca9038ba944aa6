//! The demo change requests of other spaces ("Platform Runbooks", "Lumen Documentation"), for
//! the organization-wide list.

use super::builders::{change_request, comments, new_page, rewrite, thread};
use super::{AMARA, KWAME, PRIYA, ids};
use crate::change_requests::model::{ChangeRequest, PageEdit, RequestedReviewer, Status};
use crate::demo::{ids as demo, timestamp};
use crate::model::Page;

pub(super) fn failover_drill(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 698;
    let mut change_request = change_request(
        ids::CR_RUNBOOK,
        1,
        "spc-platform-runbooks",
        "Add a failover drill checklist",
        "We drill failover every quarter; this writes down what we actually do.",
        KWAME,
        day,
    );
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![rewrite(
        main,
        "pg-rb-failover",
        &[(
            "## Decide",
            "## Drill\n\nOnce per quarter, on a Tuesday morning:\n\n- [ ] Announce in `#platform` \
             15 minutes before\n- [ ] Fail over to the replica with the commands below\n- [ ] Check \
             lag and 5xx rate for 10 minutes\n- [ ] Fail back and file the drill report\n\n## Decide",
        )],
    )];
    change_request.comments = comments(
        "rb1",
        &change_request,
        day,
        &[thread(
            AMARA,
            Some("pg-rb-failover"),
            45,
            "Please add who is allowed to start a drill.",
        )],
    );
    change_request
}

pub(super) fn lumen_reranker(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 702;
    let mut change_request = change_request(
        ids::CR_LUMEN_OPEN,
        1,
        demo::SPACE_LUMEN_DOCS,
        "Explain reranker memory use",
        "Users keep running out of memory with the large reranker on small VMs.",
        "usr-ben-carter",
        day,
    );
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![rewrite(
        main,
        "pg-lu-config",
        &[(
            "| `ranking.reranker` | `\"small\"` | `\"large\"` needs 300 MB of RAM |",
            "| `ranking.reranker` | `\"small\"` | `\"small\"` needs 60 MB of RAM, `\"large\"` 300 MB; \
             use `\"off\"` on machines with less than 512 MB |",
        )],
    )];
    change_request.comments = comments(
        "lu1",
        &change_request,
        day,
        &[thread(
            "usr-yuki-sato",
            Some("pg-lu-config"),
            30,
            "Are those numbers per index or per process?",
        )],
    );
    // A review waits for the demo reviewer in each organization, so Home gathers both.
    change_request.requested_reviewers = vec![RequestedReviewer {
        user: PRIYA.to_string(),
        requested_by: "usr-ben-carter".to_string(),
        created_at: timestamp(day, 11),
        revision: change_request.revision.clone(),
    }];
    change_request
}

pub(super) fn lumen_windows(main: &[Page], main_revision: &str) -> ChangeRequest {
    let day = 706;
    let mut change_request = change_request(
        ids::CR_LUMEN_DRAFT,
        2,
        demo::SPACE_LUMEN_DOCS,
        "Install on Windows",
        "Draft: winget package and PATH notes.",
        "usr-rustam-aliyev",
        day,
    );
    change_request.status = Status::Draft;
    change_request.base_revision = main_revision.to_string();
    change_request.base_pages = main.to_vec();
    change_request.edits = vec![PageEdit::Create {
        page: Box::new(new_page(
            "pg-lu-install-windows",
            "Install on Windows",
            "# Install on Windows\n\n```powershell\nwinget install LumenOSS.Lumen\n```\n\nRestart \
             the terminal so that `lumen` is on the `PATH`.\n",
            day,
        )),
        parent: Some("pg-lu-introduction".to_string()),
        index: 2,
    }];
    change_request
}
