//! See main.rs.

pub fn run() {
    println!("page: not measured yet");
}
