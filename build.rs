//! Links the binary so that a session keeps few of its pages resident.
//!
//! **The functions a session runs come first in the binary's code.** The kernel maps a
//! program's code 64 KB at a time around each page it touches, and a session touches a few
//! functions in most of those windows: quire kept ~20 MB of its ~27 MB of code resident while it
//! ran ~5 MB of it. `build/hot-functions.txt` names the functions a session runs (written by
//! `build/hot-functions.sh` from callgrind); the linker puts them first, so they share a few
//! windows. A name the binary does not have (another rustc, another dependency version) is
//! passed over: a stale list costs only the gain.
//!
//! **Relative relocations are packed** (`-z pack-relative-relocs`, RELR): a position-independent
//! binary's table of addresses to adjust at load was 1.6 MB, read in full by every quire process
//! at each start and kept resident; packed, it is 27 KB. Such a binary needs glibc 2.36 or later
//! where it runs, so it is only packed where a program linked so runs on the building machine,
//! and `QUIRE_PACK_RELOCATIONS=off` leaves the table as it was, for a binary shipped to older
//! systems.
//!
//! Both only where the linker takes the options: a tiny program is linked with them first, with
//! the same rustc, flags and linker (rustc's own lld takes them; GNU ld does not know the
//! ordering). `QUIRE_LINK_LAYOUT=off` builds without either, to measure the difference. What was
//! done is told to the tests (`QUIRE_LINKED_HOT_FUNCTIONS_FIRST`, `QUIRE_LINKED_PACKED_RELOCATIONS`).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const HOT_FUNCTIONS: &str = "build/hot-functions.txt";

/// What decides whether the linker takes the options: a change to any re-runs this script.
const LINKER_SETTINGS: &[&str] = &[
    "QUIRE_LINK_LAYOUT",
    "QUIRE_PACK_RELOCATIONS",
    "RUSTFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_BUILD_RUSTFLAGS",
    "RUSTC_LINKER",
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER",
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS",
];

fn main() {
    println!("cargo:rerun-if-changed={HOT_FUNCTIONS}");
    println!("cargo:rerun-if-changed=build.rs");
    for setting in LINKER_SETTINGS {
        println!("cargo:rerun-if-env-changed={setting}");
    }
    if env::var("QUIRE_LINK_LAYOUT").is_ok_and(|value| value == "off") {
        return;
    }
    let manifest_dir = env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let list = Path::new(&manifest_dir).join(HOT_FUNCTIONS);
    // `-Wl,` splits its argument at commas.
    if !list.is_file() || list.to_string_lossy().contains(',') {
        return;
    }
    let ordering = [
        format!("-Wl,--symbol-ordering-file={}", list.display()),
        "-Wl,--no-warn-symbol-ordering".to_string(),
    ];
    if !Probe::links_with(&ordering).is_some_and(|probe| probe.linked) {
        return;
    }
    link_the_binary_with(&ordering);
    println!("cargo:rustc-env=QUIRE_LINKED_HOT_FUNCTIONS_FIRST=1");

    // Packing is asked of a linker that took the ordering only: an older GNU ld links a program
    // with an unknown `-z` option after a warning, unpacked, and the probe could not tell.
    let packing = "-Wl,-z,pack-relative-relocs".to_string();
    let asked_not_to_pack = env::var("QUIRE_PACK_RELOCATIONS").is_ok_and(|value| value == "off");
    if !asked_not_to_pack
        && Probe::links_with(std::slice::from_ref(&packing)).is_some_and(|probe| probe.runs())
    {
        link_the_binary_with(&[packing]);
        println!("cargo:rustc-env=QUIRE_LINKED_PACKED_RELOCATIONS=1");
    }
}

fn link_the_binary_with(arguments: &[String]) {
    for argument in arguments {
        println!("cargo:rustc-link-arg-bin=quire={argument}");
    }
}

/// An empty program linked as the binary will be, with some linker arguments more.
struct Probe {
    program: PathBuf,
    linked: bool,
}

impl Probe {
    fn links_with(arguments: &[String]) -> Option<Probe> {
        let out_dir = PathBuf::from(env::var_os("OUT_DIR")?);
        let source = out_dir.join("link_probe.rs");
        std::fs::write(&source, "fn main() {}\n").ok()?;
        let program = out_dir.join("link_probe");
        let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let mut command = Command::new(rustc);
        command
            .arg(&source)
            .arg("-o")
            .arg(&program)
            .arg("--crate-type=bin");
        if let Ok(target) = env::var("TARGET") {
            command.arg("--target").arg(target);
        }
        if let Some(linker) = env::var_os("RUSTC_LINKER") {
            command
                .arg("-C")
                .arg(format!("linker={}", linker.to_string_lossy()));
        }
        let rustflags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
        command.args(rustflags.split('\u{1f}').filter(|flag| !flag.is_empty()));
        for argument in arguments {
            command.arg("-C").arg(format!("link-arg={argument}"));
        }
        let linked = command.output().is_ok_and(|output| output.status.success());
        Some(Probe { program, linked })
    }

    /// Linked, and it starts on this machine (which needs the machine to be the target).
    fn runs(&self) -> bool {
        let native = env::var("HOST").ok() == env::var("TARGET").ok();
        native
            && self.linked
            && Command::new(&self.program)
                .status()
                .is_ok_and(|s| s.success())
    }
}
