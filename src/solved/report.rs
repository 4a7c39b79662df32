//! What a command on a saved solution reports, in both the forms it can print.

/// A command's answer: its JSON object (`--json`) and its text for a person.
pub trait Report {
    /// The JSON object, one line.
    fn json(&self) -> serde_json::Value;

    /// The text, lines ending in newlines.
    fn text(&self) -> String;
}

/// `value` as a JSON value: reports are typed, and printed as one object with sorted keys.
/// A report of the program's own types always converts (its map keys are strings).
pub fn to_json(value: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("a report's fields convert to JSON")
}

/// What every `check --json` report opens with: the check passed, on how many positions,
/// drawn how.
#[derive(serde::Serialize)]
pub struct CheckPassed<'a> {
    /// The program that checked.
    pub program: &'static str,
    /// The game.
    pub game: &'a str,
    /// Always `true`: a check that fails is an error, not a report.
    pub passed: bool,
    /// Positions checked.
    #[serde(serialize_with = "crate::counts::serialize")]
    pub checked: u128,
    /// Positions drawn per part (a class, a threshold) where it holds more.
    pub sample: usize,
    /// The seed they were drawn with.
    pub seed: u64,
}

impl<'a> CheckPassed<'a> {
    /// A check of `game` that passed on `checked` positions drawn `sample` a part with `seed`.
    pub fn new(game: &'a str, checked: u128, sample: usize, seed: u64) -> CheckPassed<'a> {
        CheckPassed { program: crate::PROGRAM_VERSION, game, passed: true, checked, sample, seed }
    }
}

/// Appends one line to `out` (a `String`): `line!(out, "...", args)`.
macro_rules! line {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}
pub(crate) use line;
