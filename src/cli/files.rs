//! The subcommands that read saved files: `query`, `stats`, `check`, `export`, `import`.

use super::ExportArgs;
use super::output::{AboutFile, say};
use crate::counts::human;
use crate::dfa::Dfa;
use crate::dfa::file::Bundle;
use crate::error::Error;
use crate::games::GAMES;
use crate::solved::Report;
use crate::solved::explore::{self, Solved};
use anyhow::{Result, anyhow, bail};
use std::path::Path;

/// The answer for the position `text`: its JSON object and its text.
pub(super) fn answer(solved: &dyn Solved, text: &str, limit: Option<usize>) -> Result<(serde_json::Value, String)> {
    let look = solved.look(text)?;
    let line = explore::best_line(solved, &look)?;
    Ok((look.to_json(&solved.game(), limit, &line), look.to_text(limit, &line)))
}

/// `dfasolve query`: the value and the ranked moves of `position`, or with none, of every
/// position read from standard input, one per line (the solution loaded once; with `json`,
/// one object per line, a bad line answered by `{"position", "error"}`).
pub(super) fn query(path: &Path, position: Option<&str>, json: bool, limit: Option<usize>) -> Result<()> {
    use std::io::BufRead;
    let solved = crate::solved::open(path, &GAMES).about_file("loading", path)?;
    let solved = solved.as_ref();
    let Some(text) = position else {
        let mut failed = 0usize;
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| anyhow!("reading standard input: {e}"))?;
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            match answer(solved, text, limit) {
                Ok((object, shown)) => {
                    if json {
                        say!("{object}");
                    } else {
                        say!("{shown}");
                    }
                }
                Err(e) => {
                    failed += 1;
                    if json {
                        say!(
                            "{}",
                            crate::solved::report::to_json(&PositionError { position: text, error: e.to_string() })
                        );
                    } else {
                        eprintln!("{text}: {e}");
                    }
                }
            }
        }
        if failed > 0 {
            bail!("{failed} of the positions read could not be answered");
        }
        return Ok(());
    };
    let (object, shown) = answer(solved, text, limit)?;
    if json {
        say!("{object}");
    } else {
        super::output::say_raw!("{shown}");
    }
    Ok(())
}

/// `dfasolve stats`: sizes and compression of every set in a file or directory.
pub(super) fn stats(path: &Path, json: bool) -> Result<()> {
    print_report(crate::solved::stats(path, &GAMES).about_file("loading", path)?.as_ref(), json)
}

/// `dfasolve check`: every value class of a solution against the explicit rules only.
pub(super) fn check(path: &Path, sample: usize, seed: u64, against: Option<&Path>, json: bool) -> Result<()> {
    let ask = crate::solved::CheckAsk { sample, seed, against };
    let report = crate::solved::check(path, &ask, &GAMES).map_err(|e| match e {
        Error::Verification(why) => anyhow!("check failed: {why}"),
        other => anyhow::Error::from(other),
    });
    print_report(report.about_file("loading", path)?.as_ref(), json)
}

/// A command's report: its JSON object on one line, or its text.
pub(super) fn print_report(report: &dyn Report, json: bool) -> Result<()> {
    if json {
        say!("{}", report.json());
    } else {
        super::output::say_raw!("{}", report.text());
    }
    Ok(())
}

/// `dfasolve export`: one set of a file as a DFA1 exchange file.
pub(super) fn export(args: &ExportArgs) -> Result<()> {
    let ExportArgs { file, set, out, .. } = args;
    let bundle = Bundle::load(file).about_file("loading", file)?;
    let Some(dfa) = bundle.get(set) else {
        let names: Vec<&str> = bundle.entries.iter().map(|(n, _)| n.as_str()).collect();
        bail!("{} has no set named {set:?} (it has: {})", file.display(), names.join(", "));
    };
    dfa.save_dfa1(out).about_file("writing", out)?;
    say!("wrote {} ({} states, {} positions)", out.display(), dfa.nontrivial_state_count(), human(dfa.checked_count()));
    Ok(())
}

/// `dfasolve import`: a DFA1 exchange file into a one-set dfasolve file.
pub(super) fn import(dfa1: &Path, out: &Path) -> Result<()> {
    let dfa = Dfa::load_dfa1(dfa1).about_file("loading", dfa1)?;
    let meta = serde_json::to_string(&ImportMeta { kind: "dfa1-import", source: dfa1 })?;
    say!(
        "read {} ({} states after minimisation, {} positions)",
        dfa1.display(),
        dfa.nontrivial_state_count(),
        human(dfa.checked_count())
    );
    Bundle { meta, entries: vec![("imported".into(), dfa)] }.save(out).about_file("writing", out)
}

/// A position `query` or the browser could not answer, as JSON.
#[derive(serde::Serialize)]
pub(super) struct PositionError<'a> {
    pub(super) position: &'a str,
    pub(super) error: String,
}

/// The metadata of a DFA imported from the dfa1 format.
#[derive(serde::Serialize)]
struct ImportMeta<'a> {
    kind: &'static str,
    source: &'a Path,
}
