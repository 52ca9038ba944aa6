//! Bytes quire writes to the terminal per scroll; see README "Performance".

fn main() {
    println!("ssh: not measured yet");
}
