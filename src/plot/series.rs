//! A run record as the charts read it: one panel per phase of the run, one series per set
//! and side to move, with labels a reader understands.

use crate::record::{CsvRow, SetName};

/// One line of a chart: a set of one side, step by step.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend text, e.g. `new wins, first to move`.
    pub label: String,
    /// The second player's sets are drawn dashed.
    pub second_side: bool,
    /// (step, positions if known, DFA states).
    pub points: Vec<(u32, Option<f64>, f64)>,
}

/// The steps of one phase of the run.
#[derive(Clone, Debug)]
pub struct PhaseSeries {
    /// `Backward`, `Forward`, `Backup`, `Classes` (a sweep's class universes) or `Class values`
    /// (a solve by class jobs, summed by pieces on the board), as recorded.
    pub phase: String,
    /// What the phase is, for the panel's caption.
    pub caption: &'static str,
    /// What its steps are, for the x axis.
    pub step_name: &'static str,
    /// Its series, in order of first appearance.
    pub series: Vec<Series>,
    /// In a solve by classes, each class and the x of its first step: the classes' steps are
    /// laid one after another, lowest class first, since each class's steps restart at 0.
    pub classes: Vec<(String, u32)>,
    /// The x after the last step so far.
    end: u32,
}

/// The readable name of a recorded set (a backward `loss` set is the lost end positions).
fn set_label(phase: &str, set: SetName) -> &'static str {
    match set {
        SetName::Reachable => "reachable",
        SetName::Universe => "all positions",
        SetName::Loss if phase == "Backward" => "lost at the end",
        SetName::Loss => "losses",
        SetName::Win => "wins",
        // The backup records the positions each ply values first, which the retrograde
        // phase's "new wins" would otherwise share a legend entry with.
        SetName::NewWin if phase == "Backup" => "wins first valued at the ply",
        SetName::NewLoss if phase == "Backup" => "losses first valued at the ply",
        SetName::NewWin => "new wins",
        SetName::NewLoss => "new losses",
        SetName::ReachedDecided => "reached and decided",
    }
}

/// The run's phases in the order they ran, each with its series.
pub fn phases(rows: &[CsvRow]) -> Vec<PhaseSeries> {
    let mut out: Vec<PhaseSeries> = Vec::new();
    for r in rows {
        let at = match out.iter().position(|p| p.phase == r.phase) {
            Some(i) => i,
            None => {
                let (caption, step_name) = match r.phase.as_str() {
                    "Backward" => ("backward (retrograde iterations)", "iteration"),
                    "Forward" => ("forward (positions reachable at each ply)", "ply"),
                    "Backup" => ("backup (values through the plies)", "ply"),
                    "Classes" => ("class universes (positions reachable, by discs on the board)", "discs"),
                    "Class values" => ("values by classes (positions valued, by pieces on the board)", "pieces"),
                    _ => ("other steps", "step"),
                };
                out.push(PhaseSeries {
                    phase: r.phase.clone(),
                    caption,
                    step_name,
                    series: Vec::new(),
                    classes: Vec::new(),
                    end: 0,
                });
                out.len() - 1
            }
        };
        let label = format!("{}, {} to move", set_label(&r.phase, r.set), r.side);
        let phase = &mut out[at];
        if let Some(class) = &r.class
            && phase.classes.last().is_none_or(|(c, _)| c != class)
        {
            phase.classes.push((class.clone(), phase.end));
        }
        let x = phase.classes.last().map_or(0, |c| c.1) + r.step;
        phase.end = phase.end.max(x + 1);
        let series = match phase.series.iter().position(|s| s.label == label) {
            Some(i) => &mut phase.series[i],
            None => {
                phase.series.push(Series { label, second_side: r.side == "second", points: Vec::new() });
                phase.series.last_mut().expect("just pushed")
            }
        };
        series.points.push((x, r.positions.map(|p| p as f64), r.states as f64));
    }
    out
}

/// The kind of solve the record shows, for the title.
pub fn mode(phases: &[PhaseSeries]) -> &'static str {
    let has = |name: &str| phases.iter().any(|p| p.phase == name);
    match (has("Backward"), has("Forward"), has("Backup")) {
        (_, true, true) => "meet in the middle",
        // A meet in the middle stopped in its backward phase records the same steps.
        (true, false, false) => "retrograde iterations",
        (_, true, false) => "forward plies",
        _ if has("Classes") => "class universes",
        _ if has("Class values") => "solve by classes",
        _ => "run",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Fixed3;

    fn row(phase: &str, step: u32, side: &str, set: SetName, positions: u128) -> CsvRow {
        CsvRow {
            game: "breakthrough 3x4".into(),
            phase: phase.into(),
            step,
            side: side.into(),
            set,
            positions: Some(positions),
            states: 10,
            bytes: 100,
            positions_per_byte: Some(Fixed3(positions as f64 / 100.0)),
            elapsed_s: Fixed3(0.0),
            peak_rss_bytes: None,
            class: None,
            program: None,
        }
    }

    /// A solve by class jobs is one panel with pieces on the x axis, a series per value and
    /// side, and a title that says what it is.
    #[test]
    fn class_values_are_drawn_by_pieces_on_the_board() {
        let rows = [
            row("Class values", 2, "first", SetName::Win, 5),
            row("Class values", 2, "first", SetName::Loss, 7),
            row("Class values", 3, "first", SetName::Win, 40),
            row("Class values", 3, "second", SetName::Loss, 9),
        ];
        let phases = phases(&rows);
        assert_eq!(phases.len(), 1);
        assert_eq!(phases[0].step_name, "pieces");
        assert!(phases[0].caption.contains("by pieces on the board"), "{}", phases[0].caption);
        let labels: Vec<&str> = phases[0].series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["wins, first to move", "losses, first to move", "losses, second to move"]);
        assert_eq!(phases[0].series[0].points, [(2, Some(5.0), 10.0), (3, Some(40.0), 10.0)]);
        assert_eq!(mode(&phases), "solve by classes");
    }
}
