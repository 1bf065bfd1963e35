//! Zoo bot: after the first TICK, allocates memory without limit (64 MiB at a time, kept and
//! written, as a program's data is: zeroed memory never written is address space only).
use std::io::BufRead;

fn main() {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if line.starts_with("TICK") {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1u8; 64 << 20]);
            }
        }
    }
}
