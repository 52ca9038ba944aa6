//! `quire --version`, `quire completions SHELL` and `quire man`, run as the built binary.

use std::process::Command;

fn run_quire(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(args)
        .env_remove("GITBOOK_TOKEN")
        .env_remove("GITBOOK_API_URL")
        .output()
        .expect("run quire");
    assert!(output.status.success(), "quire {args:?} failed: {output:?}");
    String::from_utf8(output.stdout).expect("utf-8 output")
}

#[test]
fn version_prints_the_crate_version() {
    let printed = run_quire(&["--version"]);
    assert_eq!(
        printed.trim(),
        format!("quire {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn completions_for_each_shell_know_the_subcommands_and_flags() {
    for shell in ["bash", "zsh", "fish"] {
        let script = run_quire(&["completions", shell]);
        assert!(script.contains("sandbox"), "{shell} script lacks `sandbox`");
        assert!(script.contains("demo"), "{shell} script lacks `--demo`");
        assert!(
            script.contains("completions"),
            "{shell} script lacks itself"
        );
    }
    // Each script is the right shell's: bash registers with `complete -F`, zsh starts with
    // `#compdef`, fish calls `complete -c`.
    assert!(run_quire(&["completions", "bash"]).contains("complete -F"));
    assert!(run_quire(&["completions", "zsh"]).starts_with("#compdef quire"));
    assert!(run_quire(&["completions", "fish"]).contains("complete -c quire"));
}

#[test]
fn man_prints_a_roff_page_naming_the_program() {
    let page = run_quire(&["man"]);
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq"),
        "no roff header: {page:.80}"
    );
    assert!(page.contains(".TH quire 1"), "no title header: {page:.200}");
    assert!(page.contains("quire"), "the page does not name quire");
    assert!(
        page.contains("\\-\\-demo"),
        "the page lacks the --demo flag"
    );
}

#[test]
fn man_documents_every_subcommand_its_options_and_the_exit_statuses() {
    let page = run_quire(&["man"]);
    for heading in [
        ".SS \"quire cr list\"",
        ".SS \"quire cr comment\"",
        ".SS \"quire auth login\"",
        ".SS \"quire search\"",
        ".SH \"EXIT STATUS\"",
    ] {
        assert!(page.contains(heading), "the page lacks {heading}");
    }
    for flag in [
        "\\-\\-reviewer",
        "\\-\\-jq",
        "\\-\\-body\\-file",
        "\\-\\-with\\-token",
    ] {
        assert!(page.contains(flag), "the page lacks {flag}");
    }
    // One page is installed: it must not send the reader to pages that do not exist.
    assert!(
        !page.contains("quire\\-cr(1)"),
        "a reference to a missing page"
    );
    assert_eq!(page.matches(".ds Aq").count(), 2, "one preamble (.ie/.el)");
}

#[test]
fn every_change_request_subcommand_says_what_its_number_is() {
    for subcommand in ["view", "diff", "comment", "review", "merge", "update"] {
        let help = run_quire(&["cr", subcommand, "--help"]);
        assert!(
            help.contains("<NUMBER>  The change request's number"),
            "cr {subcommand} --help: {help}"
        );
    }
}
