//! Links the binary so that a session keeps few of its pages resident.
//!
//! **The functions a session runs come first in the binary's code.**
//! The kernel maps a program's code 64 KB at a time around each page it touches, and a session
//! touches a few functions in most of those windows: quire kept ~20 MB of its ~27 MB of code
//! resident while it used ~4 MB of it. `build/hot-functions.txt` names the functions a session
//! runs (written by `build/hot-functions.sh` from callgrind); the linker puts them first, so they
//! share a few windows. A name the binary does not have (another rustc, another dependency
//! version) is passed over: a stale list costs only the gain.
//!
//! **Relative relocations are packed** (`-z pack-relative-relocs`, RELR): a position-independent
//! binary's table of addresses to adjust at load was 1.6 MB, read in full by every quire process
//! at each start and kept resident; packed, it is 27 KB. The C library loads such a binary from
//! glibc 2.36 on, so only where the building machine has one (the binary runs where it is built).
//!
//! Both only where rustc links with its own lld (x86_64 Linux since rustc 1.90) and nothing chose
//! another linker: another linker may not know the options. `QUIRE_LINK_LAYOUT=off` builds the
//! binary without either, to measure the difference.

use std::env;
use std::path::Path;
use std::process::Command;

const HOT_FUNCTIONS: &str = "build/hot-functions.txt";

fn main() {
    println!("cargo:rerun-if-changed={HOT_FUNCTIONS}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=QUIRE_LINK_LAYOUT");
    let manifest_dir = env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let list = Path::new(&manifest_dir).join(HOT_FUNCTIONS);
    if !linked_by_rustcs_lld() {
        return;
    }
    // `-Wl,` splits its argument at commas.
    if list.is_file() && !list.to_string_lossy().contains(',') {
        let list = list.display();
        println!("cargo:rustc-link-arg-bin=quire=-Wl,--symbol-ordering-file={list}");
        println!("cargo:rustc-link-arg-bin=quire=-Wl,--no-warn-symbol-ordering");
    }
    if glibc_loads_packed_relocations() {
        println!("cargo:rustc-link-arg-bin=quire=-Wl,-z,pack-relative-relocs");
    }
}

fn linked_by_rustcs_lld() -> bool {
    let asked_off = env::var("QUIRE_LINK_LAYOUT").is_ok_and(|value| value == "off");
    // rustc links with its own lld on x86_64 Linux only; elsewhere the system's linker may not
    // know the option.
    let default_lld_target = env::var("TARGET").is_ok_and(|t| t == "x86_64-unknown-linux-gnu");
    // A linker chosen in cargo's configuration, or RUSTFLAGS that say how to link.
    let linker_chosen = env::var_os("RUSTC_LINKER").is_some()
        || env::var("CARGO_ENCODED_RUSTFLAGS").is_ok_and(|flags| flags.contains("link"));
    !asked_off && default_lld_target && !linker_chosen && rustc_links_with_lld()
}

/// glibc 2.36 and later load a binary with packed relative relocations (DT_RELR).
fn glibc_loads_packed_relocations() -> bool {
    let Ok(output) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    // "glibc 2.36"
    let text = String::from_utf8_lossy(&output.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else {
        return false;
    };
    major_minor(version) >= (2, 36)
}

/// rustc 1.90 and later link x86_64 Linux programs with the lld they ship.
fn rustc_links_with_lld() -> bool {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(output) = Command::new(rustc).arg("-vV").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let Some(release) = text.lines().find_map(|line| line.strip_prefix("release: ")) else {
        return false;
    };
    major_minor(release) >= (1, 90)
}

/// "1.95.0" or "1.96.0-nightly" → (1, 95); "2.36" → (2, 36).
fn major_minor(version: &str) -> (u32, u32) {
    let mut numbers = version
        .split(['.', '-'])
        .map(|part| part.parse::<u32>().unwrap_or(0));
    (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0))
}
