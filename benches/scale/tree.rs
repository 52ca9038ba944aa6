//! See main.rs.

pub fn run() {
    println!("tree: not measured yet");
}
