//! The egui side panel: simulation constants, brush, overlays, scene and live statistics.
//! It edits a plain `Settings` struct and returns `Command`s for what needs the GPU (reset,
//! single step, a new scene or grid); it never touches GPU objects, so egui_kittest can drive it.

use crate::render::Overlays;
use crate::scene::{BUILTIN, Scene, Scheme, SolverKind};
use crate::sim::Simulation;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrushMode {
    /// Stir and paint ink.
    Paint,
    /// Stir only (also the right mouse button).
    Stir,
    /// Ink only, no velocity.
    Ink,
    /// Obstacles: left drag paints solid cells, right drag erases them.
    Wall,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Brush {
    /// Radius in metres.
    pub radius: f32,
    /// Velocity added per m/s of drag.
    pub strength: f32,
    pub colour: [f32; 3],
    /// Ink concentration added per dab.
    pub amount: f32,
    /// Density deviation added per dab, kg/m³ (negative rises under gravity).
    pub density: f32,
    pub mode: BrushMode,
}

/// Everything the panel edits. `apply` copies the constants into a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub scene: String,
    pub nx: u32,
    pub ny: u32,
    pub dt: f32,
    pub rho: f32,
    pub cell_size: f32,
    pub iterations: u32,
    pub solver: SolverKind,
    /// Relative residual at which the solve stops early (0: all iterations).
    pub tolerance: f32,
    /// SOR over-relaxation ω.
    pub omega: f32,
    pub jacobi_weight: f32,
    /// Advection schemes: velocity, ink, density.
    pub schemes: [Scheme; 3],
    pub warm_start: bool,
    pub ink_dissipation: f32,
    pub density_drain: f32,
    pub gravity: [f32; 2],
    pub vorticity: f32,
    pub damping: f32,
    pub freeze_velocity: bool,
    pub steps_per_frame: u32,
    pub paused: bool,
    pub brush: Brush,
    pub overlays: Overlays,
    pub background: [f32; 3],
    pub show_panel: bool,
    pub show_help: bool,
}

impl Settings {
    pub fn from_scene(name: &str, s: &Scene) -> Settings {
        let d = &s.display;
        let overlays = Overlays {
            ink: d.ink,
            divergence: d.divergence,
            pressure: d.pressure,
            arrows_centre: d.velocity,
            arrow_spacing: ((s.grid.nx.max(s.grid.ny) / 16).max(1)) as u32,
            ..Overlays::default()
        };
        Settings {
            scene: name.to_string(),
            nx: s.grid.nx as u32,
            ny: s.grid.ny as u32,
            dt: s.time.dt,
            rho: s.fluid.density,
            cell_size: s.grid.cell_size,
            iterations: s.solver.iterations as u32,
            solver: s.solver.kind,
            tolerance: s.solver.tolerance,
            omega: s.solver.omega,
            jacobi_weight: s.solver.jacobi_weight,
            schemes: [s.advection.velocity, s.advection.ink, s.advection.density.unwrap_or(s.advection.ink)],
            warm_start: s.solver.warm_start,
            ink_dissipation: s.fluid.ink_dissipation,
            density_drain: s.fluid.density_drain,
            gravity: s.forces.gravity,
            vorticity: s.forces.vorticity,
            damping: s.forces.damping,
            freeze_velocity: s.advection.freeze_velocity,
            steps_per_frame: s.display.steps_per_frame as u32,
            paused: false,
            brush: Brush {
                radius: 0.04 * (s.grid.nx.max(s.grid.ny) as f32 * s.grid.cell_size),
                strength: 1.0,
                colour: [0.2, 0.6, 1.0],
                amount: 1.0,
                density: 0.0,
                mode: BrushMode::Paint,
            },
            overlays,
            background: d.background,
            show_panel: true,
            show_help: false,
        }
    }

    /// Copies the constants into the simulation (every frame; cheap).
    pub fn apply(&self, sim: &mut Simulation) {
        let p = &mut sim.params;
        p.dt = self.dt;
        p.rho = self.rho;
        p.h = self.cell_size;
        p.jacobi_weight = self.jacobi_weight;
        p.sor_omega = self.omega;
        // the flux form is for ink and density only
        let velocity = if self.schemes[0] == Scheme::Conservative { Scheme::SemiLagrangian } else { self.schemes[0] };
        p.schemes[0] = velocity.code();
        p.schemes[1] = self.schemes[1].code();
        p.schemes[2] = self.schemes[2].code();
        p.ink_dissipation = self.ink_dissipation;
        p.density_drain = self.density_drain;
        p.gravity_x = self.gravity[0];
        p.gravity_y = self.gravity[1];
        p.vorticity = self.vorticity;
        p.damping = self.damping;
        sim.solver.iterations = self.iterations as i64;
        sim.solver.kind = self.solver;
        sim.solver.tolerance = self.tolerance;
        sim.solver.warm_start = self.warm_start;
        sim.freeze_velocity = self.freeze_velocity;
    }
}

/// What the panel asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// One simulation step (while paused).
    Step,
    /// Back to the scene's initial state.
    Reset,
    ClearInk,
    /// Open another built-in scene.
    LoadScene(String),
    /// Re-create the state at the grid size in the settings.
    Regrid,
}

/// Live figures shown in the panel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveStats {
    pub fps: f32,
    pub frame_ms: f32,
    pub steps_last_frame: u32,
    /// Sub-steps of the last step (the CFL limit splits a step whose dt is too long).
    pub substeps: u32,
    /// The simulation's warning when a step had to be shortened.
    pub warning: Option<String>,
    pub step: u64,
    pub div_before: f32,
    pub div_after: f32,
    pub ink_total: f32,
    pub pressure_range: Option<(f32, f32)>,
    /// (pass label, milliseconds on the GPU), when timestamps are available.
    pub passes: Vec<(String, f32)>,
    pub adapter: String,
}

/// Keys and mouse actions, for the help overlay and the README.
pub const HELP: &[(&str, &str)] = &[
    ("left drag", "stir and paint ink"),
    ("right drag", "stir without ink"),
    ("wheel", "brush radius"),
    ("Space", "pause / run"),
    ("→ or S", "single step"),
    ("R", "reset the scene"),
    ("C", "clear the ink"),
    ("H", "hide / show the panel"),
    ("F1 or ?", "this help"),
    ("1", "ink"),
    ("2", "divergence tint"),
    ("3", "pressure"),
    ("4", "velocity arrows on MAC edges"),
    ("5", "velocity arrows at cell centres"),
    ("6", "grid lines"),
    ("7", "numbers in cells"),
];

/// Toggles overlay `n` (the number keys 1-7).
pub fn toggle_overlay(o: &mut Overlays, n: u32) {
    match n {
        1 => o.ink ^= true,
        2 => o.divergence ^= true,
        3 => o.pressure ^= true,
        4 => o.arrows_mac ^= true,
        5 => o.arrows_centre ^= true,
        6 => o.grid_lines ^= true,
        7 => o.numbers ^= true,
        _ => {}
    }
}

/// Draws the panel into `ui` (the caller places it in a side panel) and returns the commands.
pub fn panel_contents(ui: &mut egui::Ui, s: &mut Settings, stats: &LiveStats) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        let label = if s.paused { "Run" } else { "Pause" };
        if ui.button(label).clicked() {
            s.paused ^= true;
        }
        if ui.button("Step").clicked() {
            out.push(Command::Step);
        }
        if ui.button("Reset").clicked() {
            out.push(Command::Reset);
        }
        if ui.button("Clear ink").clicked() {
            out.push(Command::ClearInk);
        }
    });
    egui::ComboBox::from_label("Scene").selected_text(s.scene.clone()).show_ui(ui, |ui| {
        for (name, _) in BUILTIN {
            if ui.selectable_label(s.scene == *name, *name).clicked() && s.scene != *name {
                out.push(Command::LoadScene(name.to_string()));
            }
        }
    });
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(&mut s.nx).range(2..=2048).prefix("nx "));
        ui.add(egui::DragValue::new(&mut s.ny).range(2..=2048).prefix("ny "));
        if ui.button("Apply grid").clicked() {
            out.push(Command::Regrid);
        }
    });

    egui::CollapsingHeader::new("Statistics").default_open(true).show(ui, |ui| {
        ui.label(format!("{:.0} frames/s, {:.1} ms a frame, {} steps a frame", stats.fps, stats.frame_ms, stats.steps_last_frame));
        ui.label(format!("{} sub-step{} a step (CFL limit)", stats.substeps.max(1), if stats.substeps > 1 { "s" } else { "" }));
        if let Some(w) = &stats.warning {
            ui.colored_label(egui::Color32::from_rgb(230, 160, 60), w);
        }
        ui.label(format!("step {}", stats.step));
        ui.label(format!("max |div| before {:.3e}, after {:.3e} 1/s", stats.div_before, stats.div_after));
        if stats.div_before > 0.0 {
            ui.label(format!("solver residual (after / before) {:.3e}", stats.div_after / stats.div_before));
        }
        ui.label(format!("total ink {:.4}", stats.ink_total));
        if let Some((lo, hi)) = stats.pressure_range {
            ui.label(format!("pressure min {lo:.3e}, max {hi:.3e} Pa"));
        }
        for (name, ms) in &stats.passes {
            ui.label(format!("  {name}: {ms:.3} ms"));
        }
        if !stats.adapter.is_empty() {
            ui.small(&stats.adapter);
        }
    });

    egui::CollapsingHeader::new("Simulation").default_open(true).show(ui, |ui| {
        ui.add(egui::Slider::new(&mut s.dt, 0.001..=0.05).logarithmic(true).text("time step (s)"));
        ui.add(egui::Slider::new(&mut s.steps_per_frame, 1..=16).text("steps per frame"));
        ui.add(egui::Slider::new(&mut s.rho, 0.1..=10.0).logarithmic(true).text("density ρ (kg/m³)"));
        ui.add(egui::Slider::new(&mut s.cell_size, 0.001..=0.2).logarithmic(true).text("cell size (m)"));
        ui.add(egui::Slider::new(&mut s.ink_dissipation, 0.0..=2.0).text("ink dissipation (1/s)"));
        ui.add(egui::Slider::new(&mut s.density_drain, 0.0..=2.0).text("density drain (1/s)"));
        ui.add(egui::Slider::new(&mut s.gravity[0], -20.0..=20.0).text("gravity x (m/s²)"));
        ui.add(egui::Slider::new(&mut s.gravity[1], -20.0..=20.0).text("gravity y (m/s²)"));
        ui.add(egui::Slider::new(&mut s.vorticity, 0.0..=2.0).text("vorticity ε"));
        ui.add(egui::Slider::new(&mut s.damping, 0.0..=2.0).text("damping (1/s)"));
        ui.checkbox(&mut s.freeze_velocity, "freeze flow");
    });

    egui::CollapsingHeader::new("Pressure solver").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.solver, SolverKind::Jacobi, "jacobi");
            ui.radio_value(&mut s.solver, SolverKind::Sor, "sor");
            ui.radio_value(&mut s.solver, SolverKind::Multigrid, "multigrid");
        });
        let what = if s.solver == SolverKind::Multigrid { "V-cycles" } else { "iterations" };
        ui.add(egui::Slider::new(&mut s.iterations, 0..=200).text(what));
        ui.add(egui::Slider::new(&mut s.tolerance, 0.0..=0.1).text("tolerance (relative)"));
        ui.add_enabled(s.solver == SolverKind::Sor, egui::Slider::new(&mut s.omega, 1.0..=1.99).text("SOR ω"));
        ui.add(egui::Slider::new(&mut s.jacobi_weight, 0.1..=1.0).text("Jacobi weight"));
        ui.checkbox(&mut s.warm_start, "warm start");
    });

    egui::CollapsingHeader::new("Advection").default_open(true).show(ui, |ui| {
        for (n, field) in ["velocity", "ink", "density"].into_iter().enumerate() {
            scheme_combo(ui, field, &mut s.schemes[n], n > 0);
        }
    });

    egui::CollapsingHeader::new("Brush").default_open(true).show(ui, |ui| {
        ui.add(egui::Slider::new(&mut s.brush.radius, 0.002..=0.5).logarithmic(true).text("radius (m)"));
        ui.add(egui::Slider::new(&mut s.brush.strength, 0.0..=5.0).text("strength"));
        ui.add(egui::Slider::new(&mut s.brush.amount, 0.0..=3.0).text("ink amount"));
        ui.add(egui::Slider::new(&mut s.brush.density, -1.0..=1.0).text("density (kg/m³)"));
        ui.horizontal(|ui| {
            let d = s.brush.density.abs().max(0.05);
            if ui.selectable_label(s.brush.density < 0.0, "light (rises)").clicked() {
                s.brush.density = -d;
            }
            if ui.selectable_label(s.brush.density == 0.0, "neutral").clicked() {
                s.brush.density = 0.0;
            }
            if ui.selectable_label(s.brush.density > 0.0, "heavy (sinks)").clicked() {
                s.brush.density = d;
            }
        });
        ui.horizontal(|ui| {
            ui.label("colour");
            ui.color_edit_button_rgb(&mut s.brush.colour);
            ui.radio_value(&mut s.brush.mode, BrushMode::Paint, "paint");
            ui.radio_value(&mut s.brush.mode, BrushMode::Stir, "stir");
            ui.radio_value(&mut s.brush.mode, BrushMode::Ink, "ink");
            ui.radio_value(&mut s.brush.mode, BrushMode::Wall, "wall").on_hover_text("left drag paints obstacles, right drag erases them");
        });
    });

    egui::CollapsingHeader::new("Overlays").default_open(true).show(ui, |ui| {
        let o = &mut s.overlays;
        ui.checkbox(&mut o.ink, "1 ink");
        ui.checkbox(&mut o.divergence, "2 divergence tint");
        ui.horizontal(|ui| {
            ui.add_space(16.0);
            ui.radio_value(&mut o.divergence_after, false, "before projection");
            ui.radio_value(&mut o.divergence_after, true, "after projection");
        });
        ui.add(egui::Slider::new(&mut o.divergence_range, 1e-4..=100.0).logarithmic(true).text("divergence range (1/s)"));
        ui.checkbox(&mut o.pressure, "3 pressure");
        ui.checkbox(&mut o.pressure_auto, "auto pressure range");
        ui.add_enabled(
            !o.pressure_auto,
            egui::Slider::new(&mut o.pressure_range, 1e-5..=100.0).logarithmic(true).text("pressure range (Pa)"),
        );
        ui.checkbox(&mut o.arrows_mac, "4 velocity on MAC edges");
        ui.checkbox(&mut o.arrows_centre, "5 velocity at cell centres");
        ui.add(egui::Slider::new(&mut o.arrow_spacing, 1..=32).text("arrow spacing (cells)"));
        ui.add(egui::Slider::new(&mut o.arrow_scale, 0.1..=50.0).logarithmic(true).text("arrow scale (cells per m/s)"));
        ui.checkbox(&mut o.grid_lines, "6 grid lines");
        ui.checkbox(&mut o.numbers, "7 numbers in large cells");
    });
    ui.small("Drag to paint smoke, right-drag to stir. F1: help.");
    out
}

/// A scheme picker for one field; the conservative flux form only where `conservative` (ink, density).
fn scheme_combo(ui: &mut egui::Ui, field: &str, scheme: &mut Scheme, conservative: bool) {
    let name = |s: Scheme| match s {
        Scheme::SemiLagrangian => "semi-lagrangian",
        Scheme::Maccormack => "maccormack",
        Scheme::Bfecc => "bfecc",
        Scheme::Conservative => "conservative",
    };
    egui::ComboBox::from_label(format!("{field} scheme")).selected_text(name(*scheme)).show_ui(ui, |ui| {
        for s in [Scheme::SemiLagrangian, Scheme::Maccormack, Scheme::Bfecc, Scheme::Conservative] {
            if s != Scheme::Conservative || conservative {
                ui.selectable_value(scheme, s, name(s));
            }
        }
    });
}

/// The side panel around `panel_contents`, collapsible (H) and resizable.
pub fn side_panel(ui: &mut egui::Ui, s: &mut Settings, stats: &LiveStats) -> Vec<Command> {
    if !s.show_panel {
        return Vec::new();
    }
    egui::Panel::right("settings")
        .resizable(true)
        .default_size(300.0)
        .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| panel_contents(ui, s, stats)).inner)
        .inner
}

/// The help overlay (F1 or ?).
pub fn help_window(ctx: &egui::Context, s: &mut Settings) {
    let mut open = s.show_help;
    egui::Window::new("Help").open(&mut open).collapsible(false).show(ctx, |ui| {
        egui::Grid::new("keys").striped(true).show(ui, |ui| {
            for (k, what) in HELP {
                ui.strong(*k);
                ui.label(*what);
                ui.end_row();
            }
        });
    });
    s.show_help = open;
}
