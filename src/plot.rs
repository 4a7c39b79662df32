//! SVG charts of a run record (the CSV written by `--csv`): positions and DFA states per step
//! on a log scale, and positions per byte. Plain SVG text, no plotting dependency: the charts
//! are simple line plots and the output should stay diff-friendly in `results/`.

use crate::error::Result;
use crate::record::{CsvRow, read_csv};
use std::fmt::Write;
use std::path::Path;

/// One line of a run record, as the charts read it.
struct Row {
    phase: String,
    step: f64,
    side: String,
    set: String,
    positions: Option<f64>,
    states: f64,
    per_byte: Option<f64>,
}

impl From<CsvRow> for Row {
    fn from(r: CsvRow) -> Row {
        Row {
            phase: r.phase,
            step: f64::from(r.step),
            side: r.side,
            set: r.set,
            positions: r.positions.map(|p| p as f64),
            states: r.states as f64,
            per_byte: r.positions_per_byte.map(|p| p.0),
        }
    }
}

const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

/// One panel: series of (x, y) points, y on a log scale.
fn panel(svg: &mut String, top: f64, title: &str, series: &[(String, Vec<(f64, f64)>)]) {
    let (left, width, height) = (70.0, 760.0, 260.0);
    let pts: Vec<(f64, f64)> = series.iter().flat_map(|s| s.1.iter().copied()).filter(|p| p.1 > 0.0).collect();
    let _ = write!(svg, r#"<text x="{left}" y="{}" font-size="15" font-weight="bold">{title}</text>"#, top - 8.0);
    let _ =
        write!(svg, r##"<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#888"/>"##);
    if pts.is_empty() {
        return;
    }
    let xmax = pts.iter().map(|p| p.0).fold(1.0, f64::max);
    let ymin = pts.iter().map(|p| p.1.log10()).fold(f64::INFINITY, f64::min).floor();
    let ymax = pts.iter().map(|p| p.1.log10()).fold(f64::NEG_INFINITY, f64::max).ceil().max(ymin + 1.0);
    let sx = |x: f64| left + x / xmax * width;
    let sy = |y: f64| top + height - (y.log10() - ymin) / (ymax - ymin) * height;
    let mut e = ymin;
    while e <= ymax {
        let y = top + height - (e - ymin) / (ymax - ymin) * height;
        let _ = write!(
            svg,
            r##"<line x1="{left}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#eee"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end">1e{e}</text>"##,
            left + width,
            left - 5.0,
            y + 4.0
        );
        e += 1.0;
    }
    for k in 0..=5 {
        let x = xmax * k as f64 / 5.0;
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{}" font-size="11" text-anchor="middle">{:.0}</text>"#,
            sx(x),
            top + height + 14.0,
            x
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">step (ply or iteration)</text>"#,
        left + width / 2.0,
        top + height + 30.0
    );
    for (k, (name, points)) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let path: Vec<String> =
            points.iter().filter(|p| p.1 > 0.0).map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y))).collect();
        if path.is_empty() {
            continue;
        }
        if path.len() == 1 {
            let (x, y) = path[0].split_once(',').expect("x,y");
            let _ = write!(svg, r##"<circle cx="{x}" cy="{y}" r="3" fill="{color}"/>"##);
        }
        let _ =
            write!(svg, r##"<polyline fill="none" stroke="{color}" stroke-width="1.8" points="{}"/>"##, path.join(" "));
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="11" fill="{color}">{name}</text>"##,
            left + width + 8.0,
            top + 14.0 + 14.0 * k as f64
        );
    }
}

/// Draw the charts of the run record at `csv` into an SVG document.
///
/// # Errors
/// [`crate::Error::Io`] or [`crate::Error::Corrupt`] if the file is not a run record.
pub fn plot_record(csv: &Path, title: &str) -> Result<String> {
    let rows: Vec<Row> = read_csv(csv)?.into_iter().map(Row::from).collect();
    let mut keys: Vec<String> = Vec::new();
    for r in &rows {
        let k = format!("{} {} {}", r.phase.to_lowercase(), r.set, r.side);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let series = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<(String, Vec<(f64, f64)>)> {
        keys.iter()
            .map(|k| {
                let pts = rows
                    .iter()
                    .filter(|r| &format!("{} {} {}", r.phase.to_lowercase(), r.set, r.side) == k)
                    .filter_map(|r| f(r).map(|y| (r.step, y)))
                    .collect();
                (k.clone(), pts)
            })
            .collect()
    };
    let mut svg = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>"#,
    );
    let _ = write!(svg, r#"<text x="70" y="28" font-size="18">{title}</text>"#);
    panel(&mut svg, 70.0, "positions per step (log scale)", &series(&|r| r.positions));
    panel(&mut svg, 390.0, "DFA states per step (log scale)", &series(&|r| Some(r.states)));
    panel(&mut svg, 710.0, "positions per byte (log scale)", &series(&|r| r.per_byte));
    svg.push_str("</svg>\n");
    Ok(svg)
}
