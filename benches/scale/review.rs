//! See main.rs.

pub fn run() {
    println!("review: not measured yet");
}
