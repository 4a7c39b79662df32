//! Charts of a run record (the CSV written by `--csv`), drawn as one SVG with plotters: for
//! each phase of the run (backward iterations, forward plies, backup) the positions and the
//! DFA states of every set per step on log axes, and the compression chart of the paper, DFA
//! states against positions on log–log axes with the fitted exponent (`states ≈ c·positions^x`).

mod draw;
mod fit;
mod series;

pub use fit::{PowerFit, fit_power};

use crate::error::{Error, Result};
use crate::record::read_csv;
use std::path::Path;

/// The charts of one run record.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Charts {
    /// The SVG document.
    #[serde(skip)]
    pub svg: String,
    /// Its title (game and kind of solve).
    pub title: String,
    /// The legend entry of every series drawn per step, by phase.
    pub series: Vec<String>,
    /// The fitted compression law, over every recorded set with at least 2 positions.
    pub fit: Option<PowerFit>,
    /// Why the fit is not drawn as the run's law ([`PowerFit::weakness`]), if it is not.
    pub fit_not_drawn: Option<String>,
    /// Recorded steps read.
    pub steps: usize,
}

/// How a chart dfasolve drew begins: an XML comment before the `<svg>` element.
pub const SVG_MARK: &str = "<!-- drawn by dfasolve";

/// Draw the charts of the run record at `csv`; `source` names it in the subtitle.
///
/// # Errors
/// [`Error::Io`] or [`Error::Corrupt`] (naming the line) if the file is not a run record.
pub fn plot_record(csv: &Path, source: &str) -> Result<Charts> {
    let rows = read_csv(csv)?;
    let phases = series::phases(&rows);
    let game = rows.first().map_or("run", |r| r.game.as_str());
    let title = format!("{game}: {}", series::mode(&phases));
    let pairs: Vec<(f64, f64)> = rows.iter().filter_map(|r| r.positions.map(|p| (p as f64, r.states as f64))).collect();
    let fit = fit_power(&pairs);
    let fit_not_drawn = match &fit {
        None => Some("too few sets of different sizes to fit".to_string()),
        Some(f) => f.weakness(),
    };
    let law = match (&fit, &fit_not_drawn) {
        (Some(f), None) => format!("{} of the {} sets with 2 or more positions", draw::fit_text(f), pairs.len()),
        (_, Some(why)) => format!("compression law not drawn: {why}"),
        (None, None) => unreachable!("no fit is always a reason"),
    };
    let subtitle = format!(
        "{source}: {} steps; solid lines: first player to move, dashed: second player to move; {law}",
        rows.len()
    );
    let drawn = fit.filter(|_| fit_not_drawn.is_none());
    let svg = draw::svg(&draw::Picture { title: &title, subtitle: &subtitle, phases: &phases, fit: drawn })
        .map_err(|e| Error::Corrupt { path: csv.to_path_buf(), what: format!("the chart could not be drawn: {e}") })?;
    // Named as ours, so that a later `plot --out` may replace it (`cli::outputs`).
    let svg = format!("{SVG_MARK} -->\n{svg}");
    let series = phases.iter().flat_map(|p| p.series.iter().map(|s| s.label.clone())).collect();
    Ok(Charts { svg, title, series, fit, fit_not_drawn, steps: rows.len() })
}
