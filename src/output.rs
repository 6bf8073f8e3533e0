//! Lines on stdout that survive a reader going away: `smokebox scenes | head -1` closes the pipe
//! after one line, and `println!` would then panic with "failed printing to stdout".

use std::io::Write;

/// The reader of stdout has gone (a closed pipe): nothing more can be shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Closed;

/// Writes `text` and a newline to stdout, flushed so a reader sees each line as it comes.
pub fn line(text: &str) -> Result<(), Closed> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").and_then(|_| out.flush()).map_err(|_| Closed)
}
