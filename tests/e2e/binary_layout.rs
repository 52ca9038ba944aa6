//! The functions a session runs come first in the binary's code: build.rs hands the linker
//! `build/hot-functions.txt`, so a session keeps a few of the code's 64 KB windows resident
//! instead of most of them.

use std::collections::HashSet;

use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};

const HOT_FUNCTIONS: &str = include_str!("../../build/hot-functions.txt");

#[test]
fn the_functions_a_session_runs_come_first_in_the_code() {
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
        "only {} of the {} listed functions are in this binary: the list is stale for this rustc \
         or these dependencies (build/hot-functions.sh writes it again)",
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

/// Where the C library loads them (glibc 2.36 on), the binary's relative relocations are packed:
/// the table every process reads at start is kilobytes instead of 1.6 MB.
#[test]
fn relative_relocations_are_packed_where_the_c_library_loads_them() {
    let glibc = std::process::Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .unwrap();
    let glibc = String::from_utf8_lossy(&glibc.stdout);
    let version = glibc.trim().strip_prefix("glibc ").unwrap_or("0.0");
    let mut numbers = version
        .split('.')
        .map(|part| part.parse::<u32>().unwrap_or(0));
    if (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) < (2, 36) {
        eprintln!("glibc {version} does not load packed relocations: the binary keeps its table");
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
