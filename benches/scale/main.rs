//! How quire's cost grows with the size of the data, on the big demo (`quire sandbox --big`):
//! per-key CPU on the 10,000-page tree, memory of a rendered 1 MB page, memory of keeping the
//! tree's 7 MB answer in the cache, and the review load of the 2,000-thread change request over
//! a sandbox 100 ms away.
//!
//! Run with `cargo bench --bench scale`; one section only with `cargo bench --bench scale -- tree`
//! (or `page`, `cache`, `review`).

// A failed unwrap in a test or a benchmark is a failure said with its line: allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Helpers shared by the test modules are `pub` for the modules, not for any user.
#![allow(unreachable_pub)]

mod cache;
mod page;
mod review;
mod tree;
mod tree_frames;

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|argument| !argument.starts_with('-'))
        .collect();
    let runs = |section: &str| wanted.is_empty() || wanted.iter().any(|w| w == section);
    if runs("tree") {
        tree::run();
        tree_frames::run();
    }
    if runs("page") {
        page::run();
    }
    if runs("cache") {
        cache::run();
    }
    if runs("review") {
        review::run();
    }
}
