//! The binary through an outage: a page read before opens with the server out of reach, the
//! header says "offline · as of …", and a restart with `--offline` shows the organizations
//! read in the earlier session without trying the network. A path that alone fails is no
//! outage: its error stays on screen until `r`.

use std::time::Duration;

use crate::common::outage_sandbox::OutageSandbox;
use crate::common::pty::PtyApp;
use quire::sandbox::{FaultRule, Faults, Outage};

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn a_page_read_before_opens_during_an_outage_and_offline_shows_the_organizations() {
    let server = OutageSandbox::start();
    let args = server.args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut app = PtyApp::spawn(&args, 80, 24);
    app.open_demo_quickstart(WAIT);
    // Back to the organizations, then the same way again with the server out of reach.
    app.send("\x1b");
    app.wait_for("BASICS", WAIT);
    app.send("\x1b");
    app.wait_for("(esc clears)", WAIT);
    app.send("\x1b");
    app.wait_for("Engineering", WAIT);
    app.send("\x1b");
    app.wait_for("Lumen OSS", WAIT);
    server.outage(Outage::Refuse);
    app.open_demo_quickstart(WAIT);
    app.wait_for("offline · as of", WAIT);
    assert!(
        app.screen().contains("This quickstart takes you"),
        "{}",
        app.screen()
    );
    let home = app.take_home();
    app.send("q");
    app.wait_exit(WAIT).expect("quire quits");

    // Started while the server is out of reach, the header still names the user, from the
    // cache.
    let mut app = PtyApp::spawn_in_home(home, &args, 80, 24, &[]);
    app.wait_for("Lumen OSS", WAIT);
    app.wait_for("Amara Okafor", WAIT);
    let home = app.take_home();
    app.send("q");
    app.wait_exit(WAIT).expect("quire quits");

    let mut offline_args = args.clone();
    offline_args.push("--offline");
    let mut app = PtyApp::spawn_in_home(home, &offline_args, 80, 24, &[]);
    app.wait_for("Acme Robotics", WAIT);
    app.wait_for("offline", WAIT);
    app.wait_for("Lumen OSS", WAIT);
    // Lumen was never opened: under --offline it will not load by itself, and says so.
    app.send("j\r");
    app.wait_for("start quire without --offline to load it", WAIT);
    assert!(
        !app.screen().contains("when the server is back"),
        "{}",
        app.screen()
    );
    let info = quire_in(app.home(), &[&args[..], &["cache", "info"]].concat());
    assert!(info.contains("Answers kept: "), "{info}");
    assert!(!info.contains("Answers kept: 0\n"), "{info}");
    assert!(info.contains("at most 200.0 MB"), "{info}");
    let home = app.take_home();
    drop(app);
    let home = home.path();
    let cleared = quire_in(home, &[&args[..], &["cache", "clear"]].concat());
    assert!(cleared.contains("Cleared the cache"), "{cleared}");
    let info = quire_in(home, &[&args[..], &["cache", "info"]].concat());
    assert!(info.contains("Answers kept: 0\n"), "{info}");
    server.shutdown();
}

/// What `quire ARGS` prints, run with `home` as its HOME.
fn quire_in(home: &std::path::Path, args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .output()
        .expect("quire runs");
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn a_path_whose_connections_are_reset_ends_in_an_error_that_r_retries_not_offline() {
    let server = OutageSandbox::start();
    let reset_three_times = FaultRule::parse("GET /orgs=resetx3").expect("a fault rule");
    server.sandbox.set_faults(Faults {
        rules: vec![reset_three_times],
        ..Faults::default()
    });
    let args = server.args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut app = PtyApp::spawn(&args, 100, 24);
    app.wait_for("r to retry", WAIT);
    let organization_reads = || server.sandbox.requests("GET", "/orgs");
    assert_eq!(organization_reads(), 3, "{}", app.screen());
    // The fault is used up: a read sent without a key would now load the list. Longer than the
    // background check's first waits, none goes out. That nothing happens over time is what
    // is tested: a byte on the terminal or a request at the server ends this watch at once,
    // and only its length can end it otherwise.
    app.events()
        .follow(server.runtime.handle(), server.sandbox.activity());
    let changed = crate::common::wait::wait_until(Duration::from_secs(2), app.events(), || {
        let screen = app.screen();
        !screen.contains("r to retry") || screen.contains("offline") || organization_reads() != 3
    });
    assert!(!changed, "{}", app.screen());
    assert_eq!(organization_reads(), 3, "{}", app.screen());
    app.send("r");
    app.wait_for("Acme Robotics", WAIT);
    assert_eq!(organization_reads(), 4);
    server.shutdown();
}

#[test]
fn a_wrong_address_on_a_first_start_is_named_with_its_cause() {
    let unused = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = format!("http://{}", unused.local_addr().expect("its address"));
    drop(unused);
    let app = PtyApp::spawn(&["--api-url", &address, "--token", "demo-admin"], 80, 24);
    app.wait_for(&format!("Cannot reach {address}: connection refused"), WAIT);
}
