//! Printing to stdout without panicking: `println!` panics when stdout is a closed pipe
//! (`dfasolve stats FILE | head -1`); `say!` returns the error instead, and the binary ends
//! quietly on a broken pipe, as `cat` does.

/// `println!` to stdout, returning an `io::Error` (as `anyhow::Error`) from the enclosing
/// function instead of panicking.
macro_rules! say {
    () => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock())?
    }};
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `print!` to stdout, as [`say!`] without the newline.
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        write!(out, $($arg)*)?;
        out.flush()?
    }};
}

pub(crate) use {say, say_raw};

/// Whether `error` (or anything in its chain) is a write to a closed pipe: the reader went
/// away, nothing is wrong with the run.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Context for an error about one file: `VERB PATH: error`, unless the error already names
/// the path (the library's file errors do), so that no message says the path twice.
pub(super) trait AboutFile<T> {
    /// This result, its error told about `path`.
    fn about_file(self, verb: &str, path: &std::path::Path) -> anyhow::Result<T>;
}

impl<T, E: Into<anyhow::Error>> AboutFile<T> for Result<T, E> {
    fn about_file(self, verb: &str, path: &std::path::Path) -> anyhow::Result<T> {
        self.map_err(|e| {
            let e = e.into();
            let shown = path.display().to_string();
            // A refusal says what to ask instead; it is not about reading the file.
            let refusal = matches!(e.downcast_ref::<crate::Error>(), Some(crate::Error::NotApplicable(_)));
            if refusal || format!("{e:#}").contains(&shown) { e } else { e.context(format!("{verb} {shown}")) }
        })
    }
}
