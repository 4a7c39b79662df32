//! Ostle's class tables by canonical rank as a saved format: `query`, `play` and `serve`
//! answer from them ([`super::explore`]); `stats`, `check`, `puzzles` and `positions` report
//! on them here.

use super::explore::{is_class_file, is_tables_dir};
use super::puzzles::Puzzle;
use super::tables::ClassTables;
use super::{Solution, class_file, classes};
use crate::counts::human;
use crate::error::{Error, Result};
use crate::games::ostle::Variant;
use crate::solved::puzzles::puzzle_text;
use crate::solved::report::{Report, line};
use crate::solved::{CheckAsk, Filter, Format, Games, Listed, PositionsAsk, Solved};
use std::path::Path;

/// What the counts of class tables are, said under their heading.
const CENSUS_STATES: &str = "the census's non-trivial states, each once up to symmetry: not the states of checkmate \
     positions, which the census counts apart";

/// Ostle's class tables by canonical rank, a saved format of the game's own.
pub struct TablesFormat;

impl Format for TablesFormat {
    fn name(&self) -> &'static str {
        "Ostle class tables"
    }

    fn recognises(&self, path: &Path) -> bool {
        is_tables_dir(path)
    }

    fn is_member(&self, path: &Path) -> bool {
        path.is_file() && is_class_file(path)
    }

    fn open(&self, path: &Path, _: &'static Games) -> Result<Box<dyn Solved>> {
        Ok(Box::new(Solution::open_dir(path)?))
    }

    /// Per kind of state, boards, states and bytes.
    fn stats(&self, path: &Path, _: &'static Games) -> Result<Box<dyn Report>> {
        let t = Solution::open_dir(path)?;
        let v = t.variant.clone();
        let mut rows = Vec::new();
        for c in classes(&v) {
            let file = class_file(path, &c);
            if !file.exists() {
                continue;
            }
            let bytes = std::fs::metadata(&file).map_err(|error| Error::Io { path: file.clone(), error })?.len();
            let tables = ClassTables::open(&file, Some(&v))?;
            for k in &tables.kinds {
                rows.push(KindRow {
                    class: c.name.clone(),
                    kind: k.kind.to_string(),
                    boards: k.dir.boards(),
                    states: k.states(),
                    class_file_bytes: bytes,
                });
            }
        }
        Ok(Box::new(TablesStats { variant: v, rows }))
    }

    /// States drawn at random (every state if there are no more), each checked by the plain
    /// rules against its moves' values; every class file's checksum (on opening); with
    /// `against`, the values compared with a DFA solution's.
    fn check(&self, path: &Path, ask: &CheckAsk, games: &'static Games) -> Result<Box<dyn Report>> {
        let t = Solution::open_dir(path)?;
        let checked = t.check_sample(ask.sample as u64, ask.seed)?;
        let compared = match ask.against {
            Some(file) => Some(compare(&t, file, ask.sample, ask.seed, games)?),
            None => None,
        };
        Ok(Box::new(TablesChecked { checked, seed: ask.seed, compared }))
    }

    fn puzzles(&self, path: &Path, filter: &Filter, limit: usize) -> Result<Box<dyn Report>> {
        let t = Solution::open_dir(path)?;
        if filter.sacrifice {
            let found = t.sacrifice_puzzles(filter, limit)?;
            return Ok(Box::new(SacrificePuzzles { plain: filter.plain, found }));
        }
        Ok(Box::new(TablesPuzzles(t.puzzles(filter, limit))))
    }

    fn positions(&self, path: &Path, ask: &PositionsAsk) -> Result<Listed> {
        if ask.side.is_some() {
            return Err(Error::NotApplicable(
                "--side: a state of Ostle class tables has the same value whichever side is to move".into(),
            ));
        }
        let tables = Solution::open_dir(path)?;
        let listing = tables.positions(ask.kind, ask.distance, ask.pick)?;
        Ok(Listed { solved: Box::new(tables), listing, unit: "states up to symmetry", counted: Some(CENSUS_STATES) })
    }
}

/// The tables `t` against the DFA solution in `file`: a solution of the same variant, or of the
/// variant with fewer pieces (whose game is the tables' classes with that many pieces).
fn compare(
    t: &Solution,
    file: &Path,
    sample: usize,
    seed: u64,
    games: &'static Games,
) -> Result<super::compare::Comparison> {
    let (_, dfa) = crate::solved::Solution::load(file, games)?;
    let v = &t.variant;
    let same_game = |d: &Variant| {
        d.width == v.width && d.height == v.height && d.lose_at == v.lose_at && d.rule == v.rule && d.pieces <= v.pieces
    };
    match dfa.params.fields::<Variant>("ostle")? {
        Some(d) if same_game(&d) => {}
        _ => {
            return Err(Error::Mismatch(format!(
                "{} solves {}, not ostle {}x{} k{} t{} {} or a smaller-piece variant of it with the same losing \
                 count and reading",
                file.display(),
                games.build(&dfa.params).map_or_else(|_| "another game".to_string(), |g| g.name()),
                v.width,
                v.height,
                v.pieces,
                v.lose_at,
                v.rule.name()
            )));
        }
    }
    t.compare_with_dfa(&dfa, sample as u64, seed)
}

struct TablesStats {
    variant: Variant,
    rows: Vec<KindRow>,
}

/// One kind of state of one class file, in `stats`.
#[derive(serde::Serialize)]
struct KindRow {
    class: String,
    kind: String,
    boards: u64,
    states: u64,
    class_file_bytes: u64,
}

/// `stats --json` of class tables.
#[derive(serde::Serialize)]
struct TablesStatsJson<'a> {
    program: &'static str,
    rule: &'a str,
    kinds: &'a [KindRow],
}

/// `check --json` of class tables.
#[derive(serde::Serialize)]
struct TablesCheckedJson<'a> {
    program: &'static str,
    checked_states: u64,
    seed: u64,
    passed: bool,
    compared_with_dfa: &'a Option<super::compare::Comparison>,
}

/// `puzzles --json` of class tables: the wins of one length.
#[derive(serde::Serialize)]
struct TablesPuzzlesJson<'a, P: serde::Serialize, C: serde::Serialize> {
    program: &'static str,
    states_with_the_value: u64,
    examined: u64,
    complete: bool,
    passing: &'a C,
    puzzles: &'a [P],
}

/// `puzzles --sacrifice --json` of class tables.
#[derive(serde::Serialize)]
struct SacrificePuzzlesJson<'a, P: serde::Serialize, C: serde::Serialize> {
    program: &'static str,
    passing: &'a C,
    puzzles: &'a [P],
}

impl Report for TablesStats {
    fn json(&self) -> serde_json::Value {
        crate::solved::report::to_json(&TablesStatsJson {
            program: crate::PROGRAM_VERSION,
            rule: &self.variant.rule.name(),
            kinds: &self.rows,
        })
    }

    fn text(&self) -> String {
        let v = &self.variant;
        let mut out = String::new();
        line!(
            out,
            "ostle {}x{} k{} t{} ({} reading), tables by canonical rank:",
            v.width,
            v.height,
            v.pieces,
            v.lose_at,
            v.rule.name()
        );
        line!(out, "{:>6} {:>6} {:>14} {:>16} {:>16}", "class", "kind", "boards", "states", "file bytes");
        for r in &self.rows {
            line!(out, "{:>6} {:>6} {:>14} {:>16} {:>16}", r.class, r.kind, r.boards, r.states, r.class_file_bytes);
        }
        out
    }
}

struct TablesChecked {
    checked: u64,
    seed: u64,
    compared: Option<super::compare::Comparison>,
}

impl Report for TablesChecked {
    fn json(&self) -> serde_json::Value {
        crate::solved::report::to_json(&TablesCheckedJson {
            program: crate::PROGRAM_VERSION,
            checked_states: self.checked,
            seed: self.seed,
            passed: true,
            compared_with_dfa: &self.compared,
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        line!(
            out,
            "check passed: {} states drawn at random follow from their moves by the plain rules; checksums intact",
            self.checked
        );
        if let Some(c) = &self.compared {
            line!(
                out,
                "the DFA solution agrees: {} states of the tables ({} of them not in its universe) and {} of the DFA \
                 solution have the same value on both sides",
                c.from_tables,
                c.not_in_dfa,
                c.from_dfa
            );
        }
        out
    }
}

struct TablesPuzzles(super::puzzles::Found);

impl Report for TablesPuzzles {
    fn json(&self) -> serde_json::Value {
        let found = &self.0;
        crate::solved::report::to_json(&TablesPuzzlesJson {
            program: crate::PROGRAM_VERSION,
            states_with_the_value: found.with_value,
            examined: found.examined,
            complete: found.examined == found.with_value,
            passing: &found.passing,
            puzzles: &found.puzzles,
        })
    }

    fn text(&self) -> String {
        let found = &self.0;
        let mut out = String::new();
        line!(
            out,
            "{} states up to symmetry win in {}; {} of them examined{}, {} pass the filter; {} shown",
            human(Some(found.with_value.into())),
            crate::counts::counted(found.plies, "ply", "plies"),
            human(Some(found.examined.into())),
            if found.examined == found.with_value {
                " (all)"
            } else {
                " (the first in table order: the rest were not)"
            },
            human(Some(found.passing.into())),
            found.puzzles.len()
        );
        out.push_str(&puzzles_text(&found.puzzles));
        out
    }
}

struct SacrificePuzzles {
    plain: bool,
    found: super::puzzles::SacrificesFound,
}

impl Report for SacrificePuzzles {
    fn json(&self) -> serde_json::Value {
        crate::solved::report::to_json(&SacrificePuzzlesJson {
            program: crate::PROGRAM_VERSION,
            passing: &self.found.passing,
            puzzles: &self.found.puzzles,
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        let what = if self.plain { "positions (states without a forbidden move)" } else { "states" };
        line!(
            out,
            "{} {what} up to symmetry ({} raw) win by sacrifices only; {} of them shown",
            self.found.passing.classes,
            self.found.passing.raw,
            self.found.puzzles.len()
        );
        out.push_str(&puzzles_text(&self.found.puzzles));
        out
    }
}

fn puzzles_text(puzzles: &[Puzzle]) -> String {
    puzzles.iter().map(|p| puzzle_text(&p.position, Some(p.plies), &p.winning_moves, &p.line)).collect()
}
