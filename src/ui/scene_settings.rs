//! The panel's scene sections: every simulation setting of the scene format (grid, time, fluid,
//! forces, pressure solver, advection, boundaries, display), each with a tooltip giving its
//! meaning and unit. They edit a copy of the scene config; the panel turns a changed copy into a
//! `Command::Configure`. Obstacles, emitters, blobs and layers are geometry: they come from the
//! scene file (and the wall brush), not from sliders.

use super::widgets::{checkbox, colour, combo, slider};
use crate::config::{Boundary, BoundaryKind, DYE_MAX_SCALE, DyeScale, GridConfig, Scene, Scheme, Slip, SolverKind, auto_dye_scale};

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
    ("solver.iterations", "iterations"),
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
    ("boundary.{side}.ink", "{side} inflow ink"),
    ("boundary.{side}.density", "{side} inflow density (kg/m³)"),
    ("display.steps_per_frame", "steps per frame"),
    ("display.background", "background"),
    // the fields a scene opens with are the overlay switches of the view
    ("display.ink", "1 ink"),
    ("display.divergence", "2 divergence tint"),
    ("display.pressure", "3 pressure"),
    ("display.velocity", "5 velocity at cell centres"),
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
        let tip = "Cells across the domain. Keeping the domain, more cells are finer cells.";
        let l = ui.label("cells across (nx)");
        if ui
            .add(egui::DragValue::new(&mut draft.nx).range(2..=4096).clamp_existing_to_range(false))
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
        let tip = "Cells up the domain. Keeping the domain, more cells are finer cells.";
        if ui
            .add(egui::DragValue::new(&mut draft.ny).range(2..=4096).clamp_existing_to_range(false))
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
        ui.add(egui::DragValue::new(&mut draft.cell_size).range(1e-5..=10.0).clamp_existing_to_range(false).speed(1e-4).max_decimals(6))
            .labelled_by(l.id)
            .on_hover_text("Side of one square cell, metres: the domain is nx·h by ny·h metres.");
        ui.end_row();
        let l = ui.label("dye grid (× flow)");
        let tip = "The ink lives on its own grid this many times finer than the flow, so it stays sharp (grid.dye_scale). Auto: about 512 dye cells across.";
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

/// Time, fluid and forces.
pub fn physics(ui: &mut egui::Ui, s: &mut Scene) {
    slider(
        ui,
        &mut s.time.dt,
        0.0005..=0.05,
        true,
        "time step Δt (s)",
        "Simulated seconds per step. Smaller is more accurate and slower to watch.",
    );
    let tip = "Cells the fastest fluid may cross in one sub-step: a longer step is split (0: never split).";
    slider(ui, &mut s.time.max_cfl, 0.0..=10.0, false, "max CFL (cells a sub-step)", tip);
    let tip = "Most sub-steps one step may be split into; a step that needs more is shortened, with a warning.";
    slider(ui, &mut s.time.max_substeps, 1..=64, false, "max sub-steps", tip);
    slider(
        ui,
        &mut s.display.steps_per_frame,
        1..=64,
        false,
        "steps per frame",
        "Steps asked for each displayed frame; the app takes fewer when frames run long, unless Statistics → every step is on.",
    );
    slider(ui, &mut s.fluid.density, 0.1..=10.0, true, "density ρ (kg/m³)", "Ambient density of the fluid: pressure scales with it.");
    let nu = egui::Slider::new(&mut s.fluid.viscosity, 0.0..=0.05)
        .clamping(egui::SliderClamping::Edits)
        .logarithmic(true)
        .smallest_positive(1e-7)
        .custom_formatter(small_number);
    ui.add(nu.text("viscosity ν (m²/s)"))
        .on_hover_text("Kinematic viscosity: how fast velocity differences diffuse (0: none; air is 1.5e-5).");
    let sweeps =
        egui::Slider::new(&mut s.fluid.viscosity_iterations, 0..=5000).clamping(egui::SliderClamping::Edits).text("viscosity sweeps");
    ui.add_enabled(s.fluid.viscosity > 0.0, sweeps)
        .on_hover_text("Most sweeps of the implicit viscosity solve each step (used when ν > 0).");
    slider(ui, &mut s.fluid.ink_dissipation, 0.0..=2.0, false, "ink dissipation (1/s)", "Ink fades as exp(−rate·t): 1/s.");
    slider(
        ui,
        &mut s.fluid.density_drain,
        0.0..=2.0,
        false,
        "density drain (1/s)",
        "Density deviation relaxes to ambient as exp(−rate·t): 1/s.",
    );
    slider(
        ui,
        &mut s.forces.gravity[0],
        -20.0..=20.0,
        false,
        "gravity x (m/s²)",
        "Gravity along x, m/s². Heavy fluid (positive density deviation) falls along it.",
    );
    slider(ui, &mut s.forces.gravity[1], -20.0..=20.0, false, "gravity y (m/s²)", "Gravity along y, m/s² (−9.81 on Earth).");
    slider(
        ui,
        &mut s.forces.vorticity,
        0.0..=2.0,
        false,
        "vorticity ε",
        "Vorticity confinement strength (dimensionless): puts back small swirls that numerical diffusion smooths away. 0: off.",
    );
    slider(ui, &mut s.forces.damping, 0.0..=2.0, false, "damping (1/s)", "Velocity decays as exp(−rate·t): 1/s.");
}

/// The pressure solver.
pub fn solver(ui: &mut egui::Ui, s: &mut Scene) {
    let c = &mut s.solver;
    ui.horizontal(|ui| {
        for (kind, name, tip) in [
            (SolverKind::Jacobi, "jacobi", "Weighted Jacobi sweeps: simple, slow to converge on big grids."),
            (SolverKind::Sor, "sor", "Red-black Gauss-Seidel with over-relaxation ω."),
            (SolverKind::Multigrid, "multigrid", "Geometric multigrid V-cycles: converges in a few cycles at any size."),
        ] {
            ui.radio_value(&mut c.kind, kind, name).on_hover_text(tip);
        }
    });
    let what = if c.kind == SolverKind::Multigrid {
        "V-cycles per step (at most, with a tolerance)"
    } else {
        "sweeps per step (at most, with a tolerance)"
    };
    let most = if c.kind == SolverKind::Multigrid { crate::config::MAX_VCYCLES } else { 500 };
    slider(ui, &mut c.iterations, 0..=most, false, "iterations", what);
    let tol = egui::Slider::new(&mut c.tolerance, 0.0..=0.1)
        .clamping(egui::SliderClamping::Edits)
        .logarithmic(true)
        .smallest_positive(1e-6)
        .custom_formatter(small_number)
        .text("tolerance (relative)");
    ui.add(tol).on_hover_text("Stop when max |div| after / before falls below this (dimensionless). 0: run every iteration.");
    let omega = egui::Slider::new(&mut c.omega, 1.0..=1.99).clamping(egui::SliderClamping::Edits).text("SOR ω");
    ui.add_enabled(c.kind == SolverKind::Sor, omega).on_hover_text("SOR over-relaxation factor, in (0, 2) (dimensionless; used by sor).");
    slider(
        ui,
        &mut c.jacobi_weight,
        0.1..=1.0,
        false,
        "Jacobi weight",
        "Weight of each Jacobi update, (0, 1]: below 1 damps the checkerboard mode of a closed box.",
    );
    checkbox(ui, &mut c.warm_start, "warm start", "Start each solve from the last step's pressure, scaled to fit this step.");
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
    checkbox(ui, &mut a.freeze_velocity, "freeze flow", "Velocity stays as it is; ink and density are still carried by it.");
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
        let tip = "wall: solid; inflow: fluid enters at a set velocity; outflow: fluid leaves freely; periodic: wraps to the opposite side";
        combo(ui, &format!("{name} side"), &mut sides[n].kind, &kinds, tip);
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
                "no-slip: fluid sticks to the wall; free-slip: it glides along it",
            );
            slider(
                ui,
                &mut side.speed,
                -5.0..=5.0,
                false,
                &format!("{name} wall speed (m/s)"),
                "Tangential speed of the wall, m/s, positive along +x (bottom, top) or +y (left, right): a lid that drives the flow.",
            );
        }
        BoundaryKind::Inflow => {
            slider(
                ui,
                &mut side.velocity[0],
                -5.0..=5.0,
                false,
                &format!("{name} inflow u (m/s)"),
                "Velocity of the entering fluid along x, m/s.",
            );
            slider(
                ui,
                &mut side.velocity[1],
                -5.0..=5.0,
                false,
                &format!("{name} inflow v (m/s)"),
                "Velocity of the entering fluid along y, m/s.",
            );
            ui.horizontal(|ui| {
                ui.label(format!("{name} inflow ink"));
                colour(ui, &mut side.ink, "Ink the entering fluid carries, r g b concentration.");
            });
            slider(
                ui,
                &mut side.density,
                -1.0..=1.0,
                false,
                &format!("{name} inflow density (kg/m³)"),
                "Density deviation of the entering fluid, kg/m³ (negative: light).",
            );
        }
        BoundaryKind::Outflow | BoundaryKind::Periodic => {}
    });
}

/// The scene's display defaults that are not overlay switches.
pub fn display(ui: &mut egui::Ui, s: &mut Scene) {
    ui.horizontal(|ui| {
        ui.label("background");
        colour(ui, &mut s.display.background, "Colour behind the ink (r, g, b in 0..1).");
    });
}
