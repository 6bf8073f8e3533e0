//! The panel's plots (key 9): the last pressure solve's relative residual against its sweeps or
//! V-cycles on a log axis (the GPU's history, src/sim/residual_history.rs), and over simulated
//! time the kinetic energy, max |div| before and after the solve and the total ink (the
//! statistics read back each quarter second, src/sim/stats.rs). egui_plot draws them.

use crate::sim::residual_history::ResidualHistory;
use egui_plot::{Legend, Line, Plot, PlotPoints, log_grid_spacer};
use std::collections::VecDeque;

/// Samples kept for the plots over time: at four a second, the last two and a half minutes.
pub const MAX_SAMPLES: usize = 600;

/// One read-back's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Simulated seconds.
    pub time: f64,
    /// J per metre of depth (Σ ½ ρ |u|² h²).
    pub kinetic_energy: f32,
    /// max |div| before and after the solve, 1/s.
    pub div_before: f32,
    pub div_after: f32,
    /// Σ ink · (h/k)², m².
    pub ink: f32,
}

/// The figures over time, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub samples: VecDeque<Sample>,
}

impl Series {
    /// Adds a sample; one from before the last (a restart) starts the series again.
    pub fn push(&mut self, s: Sample) {
        if self.samples.back().is_some_and(|b| s.time < b.time) {
            self.samples.clear();
        }
        self.samples.push_back(s);
        while self.samples.len() > MAX_SAMPLES {
            self.samples.pop_front();
        }
    }
}

/// The residual's line: an orange apart from the other plots' (and findable in a screenshot).
pub const RESIDUAL_COLOUR: egui::Color32 = egui::Color32::from_rgb(255, 170, 40);

/// log10 of a positive figure, None for zero or less (a log axis has no place for it).
fn log10(x: f32) -> Option<f64> {
    (x > 0.0 && x.is_finite()).then(|| (x as f64).log10())
}

/// "1e-4" for a log axis's mark at 10^-4.
fn power_of_ten(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    let v = mark.value;
    if (v - v.round()).abs() < 1e-9 { format!("1e{}", v.round() as i64) } else { String::new() }
}

/// The points of a history: (sweeps or cycles, log10 of the ratio).
pub fn residual_points(h: &ResidualHistory) -> Vec<[f64; 2]> {
    h.points.iter().filter_map(|&(n, r)| log10(r).map(|y| [n as f64, y])).collect()
}

/// The residual plot's height in points; the plots over time are three quarters of it.
const PLOT_HEIGHT: f32 = 120.0;

/// The plots.
pub fn plots(ui: &mut egui::Ui, history: Option<&ResidualHistory>, series: &Series) {
    let unit = match history.and_then(|h| h.kind) {
        Some(crate::config::SolverKind::Multigrid) => "V-cycles",
        Some(crate::config::SolverKind::Mgpcg) => "iterations",
        _ => "sweeps",
    };
    ui.label("last solve: relative residual").on_hover_text(
        "max |residual| / max |rhs| after each check of the last pressure solve to a tolerance, read back from the GPU (every unit is checked while this is open)",
    );
    match history.filter(|h| !h.points.is_empty()) {
        None => {
            ui.small("no solve to a tolerance read back yet (solver.tolerance > 0 and a step run)");
        }
        Some(h) => {
            let points = residual_points(h);
            Plot::new("residual")
                .height(PLOT_HEIGHT)
                .allow_scroll(false)
                .x_axis_label(unit)
                .y_grid_spacer(log_grid_spacer(10))
                .y_axis_formatter(power_of_ten)
                .show(ui, |p| p.line(Line::new("residual", PlotPoints::new(points)).color(RESIDUAL_COLOUR).width(2.0)));
        }
    }
    let over_time = |pick: &dyn Fn(&Sample) -> Option<f64>| -> Vec<[f64; 2]> {
        series.samples.iter().filter_map(|s| pick(s).map(|y| [s.time, y])).collect()
    };
    let lines = [("kinetic energy", over_time(&|s| Some(s.kinetic_energy as f64)))];
    time_plot(ui, "kinetic energy (J/m)", "Σ ½ ρ |u|² h² over the faces, per metre of depth, against simulated seconds", false, lines);
    let lines = [("before", over_time(&|s| log10(s.div_before))), ("after", over_time(&|s| log10(s.div_after)))];
    time_plot(
        ui,
        "max |div| (1/s)",
        "Before the pressure solve and after the correction, on a log axis, against simulated seconds",
        true,
        lines,
    );
    let lines = [("ink", over_time(&|s| Some(s.ink as f64)))];
    time_plot(ui, "total ink (m²)", "Σ ink · (h/k)² over the dye grid, against simulated seconds", false, lines);
}

/// The series over time and every probe's as CSV: a row a read-back of the statistics (simulated
/// seconds, kinetic energy J/m, max |div| before and after 1/s, total ink m²), then each probe's
/// u, v, p, div, ink where it has figures of that second (empty cells where not), with the
/// column names of `smokebox run --probe-csv`.
pub fn series_csv(series: &Series, probes: &[crate::ui::ProbeSeries]) -> String {
    let mut out = String::from("time,kinetic_energy,div_max_before,div_max_after,ink_total");
    for n in 1..=probes.len() {
        for name in ["u", "v", "p", "div", "ink"] {
            out.push_str(&format!(",probe{n}_{name}"));
        }
    }
    out.push('\n');
    // a probe's figures are those of a statistics read-back, so its times are among the series'
    let mut times: Vec<f64> = series.samples.iter().map(|s| s.time).collect();
    times.extend(probes.iter().flat_map(|p| p.times.iter().copied()));
    times.sort_by(f64::total_cmp);
    times.dedup();
    for t in times {
        match series.samples.iter().find(|s| s.time == t) {
            Some(s) => out.push_str(&format!("{t},{},{},{},{}", s.kinetic_energy, s.div_before, s.div_after, s.ink)),
            None => out.push_str(&format!("{t},,,,")),
        }
        for p in probes {
            match p.times.iter().position(|&pt| pt == t) {
                Some(k) => p.values[k].iter().for_each(|x| out.push_str(&format!(",{x}"))),
                None => out.push_str(",,,,,"),
            }
        }
        out.push('\n');
    }
    out
}

/// A plot over simulated seconds under its title: named lines of (s, value), a legend where
/// there are several, `log`: the values are log10 of the figure.
fn time_plot<const N: usize>(ui: &mut egui::Ui, title: &str, tip: &str, log: bool, lines: [(&str, Vec<[f64; 2]>); N]) {
    ui.label(title).on_hover_text(tip);
    let mut plot = Plot::new(title).height(PLOT_HEIGHT * 0.75).allow_scroll(false).x_axis_label("s");
    if N > 1 {
        plot = plot.legend(Legend::default());
    }
    if log {
        plot = plot.y_grid_spacer(log_grid_spacer(10)).y_axis_formatter(power_of_ten);
    }
    plot.show(ui, |p| {
        for (name, points) in lines {
            p.line(Line::new(name, PlotPoints::new(points)));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_has_a_row_a_second_and_a_probes_figures_where_it_has_them() {
        let mut s = Series::default();
        for t in [0.25, 0.5, 0.75] {
            s.push(Sample { time: t, kinetic_energy: t as f32, div_before: 2.0, div_after: 1e-4, ink: 3.0 });
        }
        let mut p = crate::ui::ProbeSeries::new([0.5, 0.5]);
        p.push(0.5, [1.0, -1.0, 100.0, 0.0, 0.5]);
        let csv = series_csv(&s, &[p]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "time,kinetic_energy,div_max_before,div_max_after,ink_total,probe1_u,probe1_v,probe1_p,probe1_div,probe1_ink");
        assert_eq!(lines.len(), 4, "{csv}");
        assert_eq!(lines[1], "0.25,0.25,2,0.0001,3,,,,,");
        assert_eq!(lines[2], "0.5,0.5,2,0.0001,3,1,-1,100,0,0.5");
        assert!(lines.iter().all(|l| l.split(',').count() == 10), "{csv}");
    }

    #[test]
    fn a_restart_starts_the_series_again_and_it_keeps_the_last_samples() {
        let mut s = Series::default();
        let at = |time| Sample { time, kinetic_energy: 1.0, div_before: 1.0, div_after: 1e-4, ink: 1.0 };
        for k in 0..MAX_SAMPLES + 10 {
            s.push(at(k as f64));
        }
        assert_eq!(s.samples.len(), MAX_SAMPLES);
        assert_eq!(s.samples.front().unwrap().time, 10.0);
        s.push(at(0.5));
        assert_eq!(s.samples.len(), 1);
    }
}
