//! Drawing the charts with plotters into one SVG document: a title, then for each phase of
//! the run its positions and its DFA states per step (log axes, one legend entry per series),
//! then the compression chart (DFA states against positions, log–log, with the fitted law).

use super::fit::PowerFit;
use super::series::PhaseSeries;
use plotters::coord::Shift;
use plotters::prelude::*;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// A line to draw: legend label, dashed (second side), points.
type Line = (String, bool, Vec<(f64, f64)>);
type DrawResult<T> = Result<T, String>;

/// Colours far apart for the series of a panel; the second side's lines are dashed.
const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

const WIDTH: u32 = 1200;
const TITLE_HEIGHT: u32 = 70;
const PANEL_HEIGHT: u32 = 330;
const COMPRESSION_HEIGHT: u32 = 520;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A count on a log axis: powers of ten as `1e6`, the rest plainly.
fn log_label(v: &f64) -> String {
    let e = v.log10();
    if (e - e.round()).abs() < 1e-9 { format!("1e{}", e.round()) } else { format!("{v:.0}") }
}

/// The log range covering `values`, widened to at least one decade.
fn log_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values.filter(|v| *v > 0.0).fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() || hi <= 0.0 {
        return None;
    }
    let lo = 10f64.powf(lo.log10().floor());
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 10.0);
    Some((lo, hi))
}

/// Everything one SVG document holds.
pub struct Picture<'a> {
    pub title: &'a str,
    pub subtitle: &'a str,
    pub phases: &'a [PhaseSeries],
    pub fit: Option<PowerFit>,
}

/// The SVG text of `picture`.
pub fn svg(picture: &Picture) -> DrawResult<String> {
    let panels = u32::try_from(picture.phases.len()).unwrap_or(1).max(1);
    let height = TITLE_HEIGHT + 2 * PANEL_HEIGHT + COMPRESSION_HEIGHT;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, rest) = root.split_vertically(TITLE_HEIGHT);
        top.draw_text(picture.title, &("sans-serif", 24).into_font().color(&BLACK), (20, 12)).map_err(err)?;
        top.draw_text(picture.subtitle, &("sans-serif", 14).into_font().color(&RGBColor(90, 90, 90)), (20, 44))
            .map_err(err)?;
        let (grid, bottom) = rest.split_vertically(2 * PANEL_HEIGHT);
        let cells = grid.split_evenly((2, panels as usize));
        for (i, phase) in picture.phases.iter().enumerate() {
            let positions: Vec<Line> = phase
                .series
                .iter()
                .map(|s| {
                    let pts = s.points.iter().filter_map(|&(x, p, _)| p.map(|p| (f64::from(x), p))).collect();
                    (s.label.clone(), s.second_side, pts)
                })
                .collect();
            let states: Vec<Line> = phase
                .series
                .iter()
                .map(|s| {
                    (s.label.clone(), s.second_side, s.points.iter().map(|&(x, _, st)| (f64::from(x), st)).collect())
                })
                .collect();
            let x_name = match phase.classes.len() {
                0 | 1 => phase.step_name.to_string(),
                n => format!("{}s of the {n} classes one after another, lowest first", phase.step_name),
            };
            let starts: Vec<f64> = phase.classes.iter().map(|c| f64::from(c.1)).collect();
            let x = Axis { name: &x_name, class_starts: &starts };
            let caption = format!("{}: positions", phase.caption);
            panel(&cells[i], &caption, &x, "positions", &positions, true)?;
            let caption = format!("{}: DFA states", phase.caption);
            panel(&cells[panels as usize + i], &caption, &x, "DFA states", &states, false)?;
        }
        compression(&bottom, picture.phases, picture.fit)?;
        root.present().map_err(err)?;
    }
    Ok(text)
}

/// One panel: `series` (label, dashed, points) against the step, y on a log axis. The legend
/// is drawn in the positions panel of each phase only, so each series has one entry.
/// A panel's x axis: its name, and where each class's steps begin in a solve by classes (a
/// line is not drawn across a class boundary).
struct Axis<'a> {
    name: &'a str,
    class_starts: &'a [f64],
}

fn panel(area: &Area, caption: &str, x: &Axis, y_name: &str, series: &[Line], legend: bool) -> DrawResult<()> {
    let area = area.margin(8, 8, 8, 16);
    let xmax = series.iter().flat_map(|s| s.2.iter().map(|p| p.0)).fold(1.0, f64::max);
    let Some((lo, hi)) = log_range(series.iter().flat_map(|s| s.2.iter().map(|p| p.1))) else {
        area.draw_text(
            &format!("{caption}: every set is empty"),
            &("sans-serif", 14).into_font().color(&BLACK),
            (10, 10),
        )
        .map_err(err)?;
        return Ok(());
    };
    let mut chart = ChartBuilder::on(&area)
        .caption(caption, ("sans-serif", 15))
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..xmax, (lo..hi).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x.name)
        .y_desc(format!("{y_name} (log scale)"))
        .y_label_formatter(&log_label)
        .x_labels(((xmax as usize) + 1).min(11))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .light_line_style(RGBColor(238, 238, 238))
        .draw()
        .map_err(err)?;
    for (k, (label, dashed, points)) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let style = ShapeStyle { color: color.to_rgba(), filled: false, stroke_width: 2 };
        let points: Vec<(f64, f64)> = points.iter().copied().filter(|p| p.1 > 0.0).collect();
        let class_of = |px: f64| x.class_starts.iter().filter(|&&s| s <= px).count();
        for (n, segment) in points.chunk_by(|a, b| class_of(a.0) == class_of(b.0)).enumerate() {
            let anno = if *dashed {
                chart.draw_series(DashedLineSeries::new(segment.to_vec(), 7, 4, style)).map_err(err)?
            } else {
                chart.draw_series(LineSeries::new(segment.to_vec(), style)).map_err(err)?
            };
            if legend && n == 0 {
                anno.label(label.as_str()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], style));
            }
        }
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled()))).map_err(err)?;
    }
    if legend {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerMiddle)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .label_font(("sans-serif", 12))
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// The compression chart: one point per recorded set (DFA states against positions, log–log),
/// coloured by phase, and the fitted power law as a line with its formula.
fn compression(area: &Area, phases: &[PhaseSeries], fit: Option<PowerFit>) -> DrawResult<()> {
    let area = area.margin(12, 12, 60, 60);
    let points = |p: &PhaseSeries| -> Vec<(f64, f64)> {
        p.series
            .iter()
            .flat_map(|s| {
                s.points.iter().filter_map(|&(_, pos, st)| pos.filter(|&n| n >= 1.0 && st >= 1.0).map(|n| (n, st)))
            })
            .collect()
    };
    let all: Vec<(f64, f64)> = phases.iter().flat_map(points).collect();
    let caption = "compression: DFA states against positions, one point per set";
    let (Some((xlo, xhi)), Some((ylo, yhi))) = (log_range(all.iter().map(|p| p.0)), log_range(all.iter().map(|p| p.1)))
    else {
        area.draw_text(
            &format!("{caption}: no non-empty sets"),
            &("sans-serif", 14).into_font().color(&BLACK),
            (10, 10),
        )
        .map_err(err)?;
        return Ok(());
    };
    let mut chart = ChartBuilder::on(&area)
        .caption(caption, ("sans-serif", 16))
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d((xlo..xhi).log_scale(), (ylo..yhi).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("positions in the set (log scale)")
        .y_desc("DFA states (log scale)")
        .x_label_formatter(&log_label)
        .y_label_formatter(&log_label)
        .light_line_style(RGBColor(238, 238, 238))
        .draw()
        .map_err(err)?;
    for (k, phase) in phases.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let pts = points(phase);
        let n = pts.len();
        chart
            .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.mix(0.7).filled())))
            .map_err(err)?
            .label(format!("{} sets ({n})", phase.phase.to_lowercase()))
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
    }
    if let Some(f) = fit {
        let line: Vec<(f64, f64)> = (0..=40)
            .map(|i| xlo * (xhi / xlo).powf(f64::from(i) / 40.0))
            .map(|x| (x, f.factor * x.powf(f.exponent)))
            .filter(|&(_, y)| y >= ylo && y <= yhi)
            .collect();
        let style = ShapeStyle { color: BLACK.to_rgba(), filled: false, stroke_width: 2 };
        chart
            .draw_series(DashedLineSeries::new(line, 8, 5, style))
            .map_err(err)?
            .label(fit_text(&f))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], style));
    }
    chart
        .configure_series_labels()
        .position(emptiest_corner(&all, (xlo, xhi), (ylo, yhi)))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(160, 160, 160))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(err)?;
    Ok(())
}

/// The corner of a log–log chart over `x` and `y` with the fewest of `points` in it (the
/// legend's place, so that it hides as little data as it can).
fn emptiest_corner(points: &[(f64, f64)], x: (f64, f64), y: (f64, f64)) -> SeriesLabelPosition {
    // Where a point sits on each axis, 0 to 1 on the log scale.
    let at = |v: f64, (lo, hi): (f64, f64)| (v.ln() - lo.ln()) / (hi.ln() - lo.ln()).max(f64::EPSILON);
    let corners = [
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::LowerLeft, false, false),
    ];
    let inside = |&(px, py): &(f64, f64), right: bool, upper: bool| {
        let (u, v) = (at(px, x), at(py, y));
        (if right { u > 0.55 } else { u < 0.45 }) && (if upper { v > 0.6 } else { v < 0.4 })
    };
    corners
        .into_iter()
        .min_by_key(|&(_, right, upper)| points.iter().filter(|p| inside(p, right, upper)).count())
        .map_or(SeriesLabelPosition::UpperLeft, |c| c.0)
}

/// The fitted law as the chart prints it.
pub fn fit_text(f: &PowerFit) -> String {
    format!("fit: states ≈ {:.3} · positions^{:.3} (R² {:.3}, {} sets)", f.factor, f.exponent, f.r_squared, f.points)
}
