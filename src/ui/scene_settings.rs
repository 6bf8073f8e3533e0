//! The panel's scene sections: every simulation setting of the scene format (grid, time, fluid,
//! forces, pressure solver, advection, boundaries, display), each with a tooltip giving its
//! meaning and unit. They edit a copy of the scene config; the panel turns a changed copy into a
//! `Command::Configure`. Obstacles, emitters, blobs and layers are geometry: they come from the
//! scene file (and the wall brush), not from sliders.

use super::widgets::{checkbox, colour, combo, slider};
use crate::config::keys;
use crate::config::{
    Boundary, BoundaryKind, DYE_MAX_SCALE, DyeScale, GridConfig, InflowProfile, Scene, Scheme, Slip, SolverKind, auto_dye_scale,
};

/// Every scene key the panel edits and the label of its control (tests check both directions:
/// each key of the format is here or in `NOT_IN_PANEL`, and each label is in the panel).
/// `{side}` stands for left, right, bottom and top.
pub const SCENE_KEYS: &[(&str, &str)] = &[
    ("grid.nx", "cells across (nx)"),
    ("grid.ny", "cells up (ny)"),
    ("grid.cell_size", "cell size (m)"),
    ("grid.dye_scale", "dye grid (× flow)"),
    ("time.dt", "time step Δt (s)"),
    ("time.max_cfl", "max CFL (cells a sub-step)"),
    ("time.max_substeps", "max sub-steps"),
    ("fluid.density", "density ρ (kg/m³)"),
    ("fluid.viscosity", "viscosity ν (m²/s)"),
    ("fluid.viscosity_iterations", "viscosity sweeps"),
    ("fluid.ink_dissipation", "ink dissipation (1/s)"),
    ("fluid.density_drain", "density drain (1/s)"),
    ("forces.gravity", "gravity x (m/s²)"),
    ("forces.gravity", "gravity y (m/s²)"),
    ("forces.vorticity", "vorticity ε"),
    ("forces.damping", "damping (1/s)"),
    ("solver.kind", "multigrid"),
    ("solver.multigrid_iterations", "multigrid V-cycles"),
    ("solver.mgpcg_iterations", "MGPCG iterations"),
    ("solver.jacobi_iterations", "Jacobi sweeps"),
    ("solver.sor_iterations", "SOR sweeps"),
    ("solver.tolerance", "tolerance (relative)"),
    ("solver.jacobi_weight", "Jacobi weight"),
    ("solver.omega", "SOR ω"),
    ("solver.warm_start", "warm start"),
    ("advection.velocity", "velocity scheme"),
    ("advection.ink", "ink scheme"),
    ("advection.density", "density scheme"),
    ("advection.freeze_velocity", "freeze flow"),
    ("boundary.{side}.kind", "{side} side"),
    ("boundary.{side}.slip", "{side} slip"),
    ("boundary.{side}.speed", "{side} wall speed (m/s)"),
    ("boundary.{side}.velocity", "{side} inflow u (m/s)"),
    ("boundary.{side}.velocity", "{side} inflow v (m/s)"),
    ("boundary.{side}.profile", "{side} inflow profile"),
    ("boundary.{side}.ink", "{side} inflow ink"),
    ("boundary.{side}.density", "{side} inflow density (kg/m³)"),
    ("display.steps_per_frame", "steps per frame"),
    ("display.background", "background"),
    // the fields a scene opens with are the overlay switches of the view
    ("display.ink", "1 ink"),
    ("display.divergence", "2 divergence tint"),
    ("display.pressure", "3 pressure"),
    ("display.velocity", "5 velocity at cell centres"),
    ("display.edge_velocity", "4 velocity on MAC edges"),
    ("display.grid_lines", "6 grid lines"),
    ("display.numbers", "7 numbers in large cells"),
];

/// Scene keys deliberately not in the panel, with the reason.
pub const NOT_IN_PANEL: &[(&str, &str)] = &[
    ("name", "shown as the scene's title"),
    ("description", "shown under the scene picker"),
    ("obstacles", "geometry: from the scene file and the wall brush"),
    ("emitters", "geometry: from the scene file"),
    ("blobs", "initial state: from the scene file"),
    ("layers", "initial state: from the scene file"),
    ("display.caption", "the scene's own line on the field, from the scene file"),
    ("solver.iterations", "the cap of the solver in use, set through each kind's own key (solver.multigrid_iterations, …)"),
];

pub const SIDES: [&str; 4] = ["left", "right", "bottom", "top"];

/// A value of a log slider that spans decades: 0, 0.25, 5.0e-4 (not 0.0000000).
fn small_number(v: f64, _decimals: std::ops::RangeInclusive<usize>) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 0.01 {
        format!("{v:.3}")
    } else {
        format!("{v:.1e}")
    }
}

/// The grid section: edits `draft` (applied only by its button, since a new grid rebuilds the
/// state). With `keep_domain`, changing nx or ny refines the grid over the same domain in metres
/// (the other count and the cell size follow). Returns true when the button asks for the draft.
pub fn grid(ui: &mut egui::Ui, draft: &mut GridConfig, current: &GridConfig, keep_domain: &mut bool) -> bool {
    let (width, height) = (current.nx as f32 * current.cell_size, current.ny as f32 * current.cell_size);
    egui::Grid::new("grid").num_columns(2).show(ui, |ui| {
        let tip = keys::help("grid.nx");
        let l = ui.label("cells across (nx)");
        if ui
            .add(egui::DragValue::new(&mut draft.nx).range(keys::slider_whole("grid.nx")).clamp_existing_to_range(false))
            .labelled_by(l.id)
            .on_hover_text(tip)
            .changed()
            && *keep_domain
        {
            draft.cell_size = width / draft.nx as f32;
            draft.ny = ((height / draft.cell_size).round() as i64).max(2);
        }
        ui.end_row();
        let l = ui.label("cells up (ny)");
        let tip = keys::help("grid.ny");
        if ui
            .add(egui::DragValue::new(&mut draft.ny).range(keys::slider_whole("grid.ny")).clamp_existing_to_range(false))
            .labelled_by(l.id)
            .on_hover_text(tip)
            .changed()
            && *keep_domain
        {
            draft.cell_size = height / draft.ny as f32;
            draft.nx = ((width / draft.cell_size).round() as i64).max(2);
        }
        ui.end_row();
        let l = ui.label("cell size (m)");
        ui.add(
            egui::DragValue::new(&mut draft.cell_size)
                .range(keys::slider("grid.cell_size"))
                .clamp_existing_to_range(false)
                .speed(1e-4)
                .max_decimals(6),
        )
        .labelled_by(l.id)
        .on_hover_text(keys::help("grid.cell_size"));
        ui.end_row();
        let l = ui.label("dye grid (× flow)");
        let tip = keys::help("grid.dye_scale");
        ui.horizontal(|ui| {
            let mut auto = matches!(draft.dye_scale, DyeScale::Word(_));
            if ui.checkbox(&mut auto, "auto").on_hover_text(tip).changed() {
                draft.dye_scale = if auto { DyeScale::default() } else { DyeScale::Scale(1) };
            }
            let mut k = match &draft.dye_scale {
                DyeScale::Scale(k) => *k,
                DyeScale::Word(_) => auto_dye_scale(draft.nx.max(1) as usize, draft.ny.max(1) as usize) as i64,
            };
            let drag = ui.add_enabled(!auto, egui::DragValue::new(&mut k).range(1..=DYE_MAX_SCALE)).labelled_by(l.id).on_hover_text(tip);
            if drag.changed() {
                draft.dye_scale = DyeScale::Scale(k);
            }
        });
        ui.end_row();
    });
    checkbox(ui, keep_domain, "keep the domain", "Changing nx or ny refines the grid over the same metres instead of growing the domain");
    let mut apply = false;
    ui.horizontal(|ui| {
        let changed = draft != current;
        let (w, h) = (draft.nx as f32 * draft.cell_size, draft.ny as f32 * draft.cell_size);
        let tip = format!("Re-create the state on a {}×{} grid, {w:.3} × {h:.3} m (the scene restarts)", draft.nx, draft.ny);
        apply = ui.add_enabled(changed, egui::Button::new("Apply grid (restarts)")).on_hover_text(tip).clicked();
        if changed && ui.button("Revert").on_hover_text("Back to the running grid").clicked() {
            *draft = current.clone();
        }
    });
    apply
}

/// A slider over the key's range from the table of keys, with its help as the tooltip.
fn key_slider(ui: &mut egui::Ui, value: &mut f32, key: &str, log: bool, label: &str) -> egui::Response {
    slider(ui, value, keys::slider(key), log, label, keys::help(key))
}

/// How many times slower a step is with its viscosity solve than without, from the GPU time of
/// each pass (`passes`: label, ms): all of them over all but the "viscosity" pass. None without
/// timings or without that pass.
pub fn viscosity_cost(passes: &[(String, f32)]) -> Option<f32> {
    let total: f32 = passes.iter().map(|(_, ms)| ms).sum();
    let viscosity: f32 = passes.iter().filter(|(n, _)| n == "viscosity").map(|(_, ms)| ms).sum();
    (viscosity > 0.0 && total > viscosity).then(|| total / (total - viscosity))
}

/// The panel's warning under the viscosity slider while ν > 0: what its solve costs a step,
/// measured where the adapter times its passes.
pub fn viscosity_warning(cost: Option<f32>) -> String {
    match cost {
        Some(f) => format!("viscosity makes each step {f:.1}× slower here (its implicit solve, measured)"),
        None => "viscosity makes each step slower: an implicit solve each step (plume on a CPU: 2.6× at 0.001, 9× at 0.05)".to_string(),
    }
}

/// Time, fluid and forces; `passes` are the last GPU times of each pass (label, ms), for what
/// viscosity costs.
pub fn physics(ui: &mut egui::Ui, s: &mut Scene, passes: &[(String, f32)]) {
    key_slider(ui, &mut s.time.dt, "time.dt", true, "time step Δt (s)");
    key_slider(ui, &mut s.time.max_cfl, "time.max_cfl", false, "max CFL (cells a sub-step)");
    slider(ui, &mut s.time.max_substeps, keys::slider_whole("time.max_substeps"), false, "max sub-steps", keys::help("time.max_substeps"));
    let key = "display.steps_per_frame";
    slider(ui, &mut s.display.steps_per_frame, keys::slider_whole(key), false, "steps per frame", keys::help(key));
    key_slider(ui, &mut s.fluid.density, "fluid.density", true, "density ρ (kg/m³)");
    let nu = egui::Slider::new(&mut s.fluid.viscosity, keys::slider("fluid.viscosity"))
        .clamping(egui::SliderClamping::Edits)
        .logarithmic(true)
        .smallest_positive(1e-7)
        .custom_formatter(small_number);
    let cost = viscosity_cost(passes);
    let tip = format!(
        "{} Above 0 every step also solves the diffusion implicitly (up to `fluid.viscosity_iterations` sweeps), which makes a step several times slower{}.",
        keys::help("fluid.viscosity"),
        cost.map_or(String::new(), |f| format!(": {f:.1}× here, measured"))
    );
    ui.add(nu.text("viscosity ν (m²/s)")).on_hover_text(tip);
    if s.fluid.viscosity > 0.0 {
        ui.colored_label(egui::Color32::from_rgb(255, 170, 80), viscosity_warning(cost)).on_hover_text(
            "The share of the GPU time of a frame's steps that the viscosity pass takes (GPU time per pass, under Statistics); 0 turns it off",
        );
    }
    let sweeps = egui::Slider::new(&mut s.fluid.viscosity_iterations, keys::slider_whole("fluid.viscosity_iterations"))
        .clamping(egui::SliderClamping::Edits)
        .text("viscosity sweeps");
    ui.add_enabled(s.fluid.viscosity > 0.0, sweeps).on_hover_text(keys::help("fluid.viscosity_iterations"));
    key_slider(ui, &mut s.fluid.ink_dissipation, "fluid.ink_dissipation", false, "ink dissipation (1/s)");
    key_slider(ui, &mut s.fluid.density_drain, "fluid.density_drain", false, "density drain (1/s)");
    key_slider(ui, &mut s.forces.gravity[0], "forces.gravity", false, "gravity x (m/s²)");
    key_slider(ui, &mut s.forces.gravity[1], "forces.gravity", false, "gravity y (m/s²)");
    key_slider(ui, &mut s.forces.vorticity, "forces.vorticity", false, "vorticity ε");
    key_slider(ui, &mut s.forces.damping, "forces.damping", false, "damping (1/s)");
}

/// The pressure solver.
pub fn solver(ui: &mut egui::Ui, s: &mut Scene) {
    let c = &mut s.solver;
    ui.horizontal(|ui| {
        for (kind, name, tip) in [
            (SolverKind::Jacobi, "jacobi", "Weighted Jacobi sweeps: simple, slow to converge on big grids."),
            (SolverKind::Sor, "sor", "Red-black Gauss-Seidel with over-relaxation ω."),
            (SolverKind::Multigrid, "multigrid", "Geometric multigrid V-cycles: converges in a few cycles at any size."),
            (
                SolverKind::Mgpcg,
                "mgpcg",
                "Conjugate gradients preconditioned by a V-cycle: converges around thin walls and many small obstacles, where plain V-cycles slow down.",
            ),
        ] {
            ui.radio_value(&mut c.kind, kind, name).on_hover_text(tip);
        }
    });
    // each kind's own cap, the one in use live: switching kinds keeps the others'
    for (kind, label) in [
        (SolverKind::Multigrid, "multigrid V-cycles"),
        (SolverKind::Mgpcg, "MGPCG iterations"),
        (SolverKind::Jacobi, "Jacobi sweeps"),
        (SolverKind::Sor, "SOR sweeps"),
    ] {
        let key = kind.cap_key();
        let in_use = c.kind == kind;
        let cap = c.cap_of_mut(kind);
        let slider = egui::Slider::new(cap, keys::slider_whole(key))
            .clamping(egui::SliderClamping::Edits)
            .logarithmic(matches!(kind, SolverKind::Jacobi | SolverKind::Sor));
        ui.add_enabled(in_use, slider.text(label)).on_hover_text(keys::help(key)).on_disabled_hover_text(keys::help(key));
    }
    let tol = egui::Slider::new(&mut c.tolerance, keys::slider("solver.tolerance"))
        .clamping(egui::SliderClamping::Edits)
        .logarithmic(true)
        .smallest_positive(1e-6)
        .custom_formatter(small_number)
        .text("tolerance (relative)");
    ui.add(tol).on_hover_text(keys::help("solver.tolerance"));
    let omega = egui::Slider::new(&mut c.omega, keys::slider("solver.omega")).clamping(egui::SliderClamping::Edits).text("SOR ω");
    ui.add_enabled(c.kind == SolverKind::Sor, omega).on_hover_text(keys::help("solver.omega"));
    key_slider(ui, &mut c.jacobi_weight, "solver.jacobi_weight", false, "Jacobi weight");
    checkbox(ui, &mut c.warm_start, "warm start", keys::help("solver.warm_start"));
}

fn scheme_name(s: Scheme) -> &'static str {
    match s {
        Scheme::SemiLagrangian => "semi-lagrangian",
        Scheme::Maccormack => "maccormack",
        Scheme::Bfecc => "bfecc",
        Scheme::Conservative => "conservative",
    }
}

/// The advection schemes; the conservative flux form only for ink and density.
pub fn advection(ui: &mut egui::Ui, s: &mut Scene) {
    const ALL: [Scheme; 4] = [Scheme::SemiLagrangian, Scheme::Maccormack, Scheme::Bfecc, Scheme::Conservative];
    let tip = "semi-lagrangian: back-trace and interpolate (smooth, diffusive); maccormack and bfecc: error-corrected, sharper; conservative: flux form, keeps the total exactly (ink and density only)";
    let a = &mut s.advection;
    let velocity: Vec<(Scheme, &str)> = ALL[..3].iter().map(|&k| (k, scheme_name(k))).collect();
    combo(ui, "velocity scheme", &mut a.velocity, &velocity, tip);
    let all: Vec<(Scheme, &str)> = ALL.iter().map(|&k| (k, scheme_name(k))).collect();
    combo(ui, "ink scheme", &mut a.ink, &all, tip);
    let mut density: Vec<(Option<Scheme>, &str)> = vec![(None, "same as ink")];
    density.extend(ALL.iter().map(|&k| (Some(k), scheme_name(k))));
    combo(ui, "density scheme", &mut a.density, &density, tip);
    checkbox(ui, &mut a.freeze_velocity, "freeze flow", keys::help("advection.freeze_velocity"));
}

/// One row of controls per side; what a side offers depends on its kind. A periodic side wraps
/// to its opposite, so the two change together.
pub fn boundaries(ui: &mut egui::Ui, s: &mut Scene) {
    let b = &mut s.boundary;
    let kinds = [
        (BoundaryKind::Wall, "wall"),
        (BoundaryKind::Inflow, "inflow"),
        (BoundaryKind::Outflow, "outflow"),
        (BoundaryKind::Periodic, "periodic"),
    ];
    let sides = [&mut b.left, &mut b.right, &mut b.bottom, &mut b.top];
    for n in 0..4 {
        let (name, before) = (SIDES[n], sides[n].kind);
        combo(ui, &format!("{name} side"), &mut sides[n].kind, &kinds, keys::help("boundary.{side}.kind"));
        let (now, opposite) = (sides[n].kind, n ^ 1);
        if now != before && (now == BoundaryKind::Periodic || before == BoundaryKind::Periodic) {
            sides[opposite].kind = if now == BoundaryKind::Periodic { BoundaryKind::Periodic } else { BoundaryKind::Wall };
        }
        side_controls(ui, name, sides[n]);
    }
}

fn side_controls(ui: &mut egui::Ui, name: &str, side: &mut Boundary) {
    ui.indent(name, |ui| match side.kind {
        BoundaryKind::Wall => {
            combo(
                ui,
                &format!("{name} slip"),
                &mut side.slip,
                &[(Slip::NoSlip, "no-slip"), (Slip::FreeSlip, "free-slip")],
                keys::help("boundary.{side}.slip"),
            );
            key_slider(ui, &mut side.speed, "boundary.{side}.speed", false, &format!("{name} wall speed (m/s)"));
        }
        BoundaryKind::Inflow => {
            key_slider(ui, &mut side.velocity[0], "boundary.{side}.velocity", false, &format!("{name} inflow u (m/s)"));
            key_slider(ui, &mut side.velocity[1], "boundary.{side}.velocity", false, &format!("{name} inflow v (m/s)"));
            combo(
                ui,
                &format!("{name} inflow profile"),
                &mut side.profile,
                &[(InflowProfile::Uniform, "uniform"), (InflowProfile::Parabolic, "parabolic")],
                keys::help("boundary.{side}.profile"),
            );
            ui.horizontal(|ui| {
                ui.label(format!("{name} inflow ink"));
                colour(ui, &mut side.ink, keys::help("boundary.{side}.ink"));
            });
            key_slider(ui, &mut side.density, "boundary.{side}.density", false, &format!("{name} inflow density (kg/m³)"));
        }
        BoundaryKind::Outflow | BoundaryKind::Periodic => {}
    });
}

/// The scene's display defaults that are not overlay switches.
pub fn display(ui: &mut egui::Ui, s: &mut Scene) {
    ui.horizontal(|ui| {
        ui.label("background");
        colour(ui, &mut s.display.background, keys::help("display.background"));
    });
}
