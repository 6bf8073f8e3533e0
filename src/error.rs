//! One error type for everything a user can get wrong: it prints as one line that names the
//! problem and what was expected, and the command line turns it into exit status 2.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keep it to one line whatever the source said.
        let one_line: Vec<&str> = self.0.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        f.write_str(&one_line.join(" "))
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// `fail!("...")` returns early with an [`Error`] built like `format!`.
#[macro_export]
macro_rules! fail {
    ($($arg:tt)*) => { return Err($crate::error::Error(format!($($arg)*))) };
}

/// Builds an [`Error`] like `format!`.
#[macro_export]
macro_rules! error {
    ($($arg:tt)*) => { $crate::error::Error(format!($($arg)*)) };
}
