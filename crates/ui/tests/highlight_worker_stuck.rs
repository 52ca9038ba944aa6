//! A highlight worker that stops answering (a regex backtracking for minutes) is killed, the
//! block stays plain and the page is shown without waiting longer than the block's budget.

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::time::Duration;

use quire_ui::markdown::{MarkdownDoc, RenderOptions, highlight_worker};
use quire_ui::theme::Theme;

#[test]
fn a_worker_that_does_not_answer_is_killed_and_the_code_stays_plain() {
    // Stands in for a worker stuck on one line: it reads nothing and never answers.
    let directory = tempfile::tempdir().expect("temp dir");
    let program = directory.path().join("stuck-worker");
    let mut script = std::fs::File::create(&program).expect("script");
    writeln!(script, "#!/bin/sh\nexec sleep 600").expect("write script");
    drop(script);
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    highlight_worker::use_worker_program(program);

    let theme = Theme::default();
    let doc = MarkdownDoc::parse("```rust\nfn main() {}\n```\n", &theme);
    let options = RenderOptions::default();
    let worker = {
        highlight_worker::start_worker_early();
        highlight_worker::worker_process_id().expect("the worker started")
    };
    // Coloured on a thread of its own, so the test waits for the page with a deadline.
    let (done, page) = std::sync::mpsc::channel();
    let colouring = (doc.clone(), theme.clone(), options);
    std::thread::spawn(move || {
        let (doc, theme, options) = colouring;
        let _ = done.send(doc.highlighted(&theme, &options));
    });

    // The first block of a language has 10 budgets, and the wait is 20 of those. Only a wait
    // for the stuck worker itself (600 s) misses this deadline: the grace is for a busy machine.
    let longest = options.highlight_budget * 10 * 20 + Duration::from_secs(30);
    let coloured = page
        .recv_timeout(longest)
        .expect("the page came back without waiting for the stuck worker");
    assert_eq!(coloured.layout(80).lines.len(), doc.layout(80).lines.len());
    assert!(
        std::fs::read_to_string(format!("/proc/{worker}/stat"))
            .map_or(true, |stat| stat.contains(") Z")),
        "the stuck worker was killed"
    );
    assert_eq!(highlight_worker::worker_process_id(), None);
}
