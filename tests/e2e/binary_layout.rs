//! The functions a session runs come first in the binary's code: build.rs hands the linker
//! `build/hot-functions.txt`, so a session keeps a few of the code's 64 KB windows resident
//! instead of most of them; and its relative relocations are packed. build.rs does either only
//! where the linker takes it, and tells these tests what it did.

use std::collections::HashSet;

use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};

const HOT_FUNCTIONS: &str = include_str!("../../build/hot-functions.txt");

#[test]
fn the_functions_a_session_runs_come_first_in_the_code() {
    if option_env!("QUIRE_LINKED_HOT_FUNCTIONS_FIRST").is_none() {
        assert!(
            !layout_expected(),
            "build.rs did not hand the linker the list, on x86_64 Linux where rustc's own lld \
             takes it (with another linker, build with QUIRE_LINK_LAYOUT=off)"
        );
        return;
    }
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_quire")).unwrap();
    let binary = object::File::parse(&*bytes).unwrap();
    let text = binary.section_by_name(".text").unwrap().index();
    let listed: HashSet<&str> = HOT_FUNCTIONS
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();

    let mut functions: Vec<(u64, bool)> = binary
        .symbols()
        .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.section_index() == Some(text))
        .filter(|symbol| symbol.size() > 0)
        .map(|symbol| {
            (
                symbol.address(),
                symbol.name().is_ok_and(|name| listed.contains(name)),
            )
        })
        .collect();
    functions.sort_unstable();

    let listed_addresses: HashSet<u64> = functions
        .iter()
        .filter(|(_, is_listed)| *is_listed)
        .map(|(address, _)| *address)
        .collect();
    assert!(
        listed_addresses.len() >= 100,
        "only {} of the {} listed functions are in this binary, too few to tell their order",
        listed_addresses.len(),
        listed.len()
    );
    let last_listed = listed_addresses.iter().max().copied().unwrap_or_default();
    // A function the list does not name, placed among the listed ones (another name of the
    // same code, at a listed address, is the same function).
    let strays: Vec<u64> = functions
        .iter()
        .filter(|(address, is_listed)| {
            !is_listed && *address < last_listed && !listed_addresses.contains(address)
        })
        .map(|(address, _)| *address)
        .collect();
    assert!(
        strays.is_empty(),
        "{} unlisted functions lie among the {} listed ones, the first at {:#x}: the linker did \
         not lay the list out first",
        strays.len(),
        listed_addresses.len(),
        strays.first().copied().unwrap_or_default()
    );
}

/// The binary's relative relocations are packed where build.rs found a program linked so runs:
/// the table every process reads at start is kilobytes instead of 1.6 MB.
#[test]
fn relative_relocations_are_packed() {
    if option_env!("QUIRE_LINKED_PACKED_RELOCATIONS").is_none() {
        let expected = layout_expected()
            && option_env!("QUIRE_PACK_RELOCATIONS") != Some("off")
            && glibc_loads_packed_relocations();
        assert!(
            !expected,
            "build.rs did not pack the relocations, with glibc 2.36 or later here"
        );
        return;
    }
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_quire")).unwrap();
    let binary = object::File::parse(&*bytes).unwrap();
    let section_size = |name| {
        binary
            .section_by_name(name)
            .map_or(0, |section| section.size())
    };
    assert!(
        section_size(".relr.dyn") > 0,
        "no packed relocations (.relr.dyn)"
    );
    assert!(
        section_size(".rela.dyn") < 64 * 1024,
        "the relocation table is {} bytes",
        section_size(".rela.dyn")
    );
}

/// Where build.rs lays the binary out unless asked not to: x86_64 Linux, where rustc links with
/// its own lld (a rustc built to link with the system's GNU ld does not, and is told to set
/// QUIRE_LINK_LAYOUT=off).
fn layout_expected() -> bool {
    cfg!(all(
        target_arch = "x86_64",
        target_os = "linux",
        target_env = "gnu"
    )) && option_env!("QUIRE_LINK_LAYOUT") != Some("off")
}

/// glibc 2.36 and later load a binary with packed relative relocations ("glibc 2.36").
fn glibc_loads_packed_relocations() -> bool {
    let Ok(output) = std::process::Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
    else {
        return false;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let version = text.trim().strip_prefix("glibc ").unwrap_or("0.0");
    let mut numbers = version
        .split('.')
        .map(|part| part.parse::<u32>().unwrap_or(0));
    (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (2, 36)
}
