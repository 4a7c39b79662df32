//! What a command on a saved solution reports, in both the forms it can print.

/// A command's answer: its JSON object (`--json`) and its text for a person.
pub trait Report {
    /// The JSON object, one line.
    fn json(&self) -> serde_json::Value;

    /// The text, lines ending in newlines.
    fn text(&self) -> String;
}

/// Appends one line to `out` (a `String`): `line!(out, "...", args)`.
macro_rules! line {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}
pub(crate) use line;
