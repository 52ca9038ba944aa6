//! The compiled grammars of the common languages fit in a bound: the shipped syntax set's
//! rewritten regexes (atomic tails) take them from ~86 MB to ~60 MB, TypeScript's alone from
//! ~46 MB to ~25 MB; sharing every piece of a pattern that compiles to the same regex as another
//! (the fancy-regex kept in `vendor/`) takes them to ~28 MB.

// A failed unwrap in a test is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting the bytes held. This file is one test, alone in its
/// process, so the count is the grammars'.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only the count is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// With two-face's regexes as they were (ASCII classes only) the common grammars held ~86 MB
/// compiled; with the atomic tails ~60 MB; with the pieces of patterns that compile to the same
/// regex sharing it (the fancy-regex kept in `vendor/`) ~28 MB.
const BOUND: isize = 32_000_000;

#[test]
fn the_common_grammars_compile_within_the_bound() {
    quire_ui::markdown::warm_syntax_set();
    let before = HELD.load(Ordering::Relaxed);
    quire_ui::markdown::warm_common_grammars();
    let held = HELD.load(Ordering::Relaxed) - before;
    assert!(held < BOUND, "the common grammars hold {held} bytes");
}
