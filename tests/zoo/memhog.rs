//! Zoo bot: after the first TICK, allocates memory without limit (64 MiB at a time, kept).
use std::io::BufRead;

fn main() {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if line.starts_with("TICK") {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                // Zeroed memory is mapped lazily: the address space runs out at once.
                hoard.push(vec![0u8; 64 << 20]);
            }
        }
    }
}
