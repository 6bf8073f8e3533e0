//! The side panel: run controls, the scene, live statistics, the scene's settings, the brush and
//! the overlays. It reads the applied scene and edits a copy of it; a changed copy comes back as
//! `Command::Configure`, so the panel never reaches the simulation.

use super::scene_settings as sections;
use super::view::{BrushMode, View};
use super::widgets::{checkbox, colour, slider};
use super::{CaptureStatus, Command, LiveStats, PanelState};
use crate::config::{BUILTIN, Scene};

/// What the panel shows but does not edit.
pub struct Shown<'a> {
    /// The scene config the simulation runs with.
    pub scene: &'a Scene,
    /// The scene's name or file.
    pub label: &'a str,
    pub stats: &'a LiveStats,
    pub paused: bool,
    pub capture: &'a CaptureStatus,
}

/// Draws the panel into `ui` and returns what the user asked for.
pub fn panel_contents(ui: &mut egui::Ui, shown: &Shown, view: &mut View, state: &mut PanelState) -> Vec<Command> {
    let mut out = Vec::new();
    run_controls(ui, shown.paused, &mut view.run_hidden, &mut out);
    stage_view(ui, state.stage.as_ref(), &mut view.stage_view, &mut out);
    let builtin = BUILTIN.iter().map(|(n, _)| *n).find(|n| *n == shown.label);
    egui::ComboBox::from_label("Scene")
        .selected_text(short_label(shown.label))
        .width(180.0)
        .show_ui(ui, |ui| {
            for (name, _) in BUILTIN {
                if ui.selectable_label(builtin == Some(*name), *name).clicked() && builtin != Some(*name) {
                    out.push(Command::Open(name.to_string()));
                }
            }
        })
        .response
        .on_hover_text(format!("{}\n\nOpen a built-in scene (its settings replace the current ones)", shown.label));
    if !shown.scene.description.is_empty() {
        ui.small(&shown.scene.description);
    }

    egui::CollapsingHeader::new("Statistics")
        .default_open(true)
        .show(ui, |ui| statistics(ui, shown.stats, shown.paused, &mut view.every_step));
    checkbox(
        ui,
        &mut view.plots,
        PLOTS_LABEL,
        "The last pressure solve's relative residual against its sweeps or V-cycles (log axis; every unit is checked while open), and kinetic energy, max |div| before and after, and total ink over time (key 9)",
    );
    if view.plots {
        super::plots::plots(ui, shown.stats.residual_history.as_ref(), &shown.stats.series);
    }
    egui::CollapsingHeader::new("Capture and files").default_open(true).show(ui, |ui| capture(ui, shown.capture, view, state, &mut out));

    // the copy of the scene config that the sections edit
    let mut scene = shown.scene.clone();
    if state.grid_of != shown.scene.grid {
        // a new scene or grid arrived: drop the stale draft
        state.grid = shown.scene.grid.clone();
        state.grid_of = shown.scene.grid.clone();
    }
    egui::CollapsingHeader::new("Grid").default_open(false).show(ui, |ui| {
        if sections::grid(ui, &mut state.grid, &shown.scene.grid, &mut state.keep_domain) {
            scene.grid = state.grid.clone();
        }
    });
    egui::CollapsingHeader::new("Simulation").default_open(true).show(ui, |ui| sections::physics(ui, &mut scene, &shown.stats.passes));
    egui::CollapsingHeader::new("Pressure solver").default_open(true).show(ui, |ui| sections::solver(ui, &mut scene));
    egui::CollapsingHeader::new("Advection").default_open(true).show(ui, |ui| sections::advection(ui, &mut scene));
    egui::CollapsingHeader::new("Boundaries").default_open(false).show(ui, |ui| sections::boundaries(ui, &mut scene));
    egui::CollapsingHeader::new("Brush").default_open(true).show(ui, |ui| brush(ui, view, shown.scene));
    egui::CollapsingHeader::new("Split view").default_open(false).show(ui, |ui| super::split::split_view(ui, view));
    egui::CollapsingHeader::new("Overlays").default_open(true).show(ui, |ui| {
        overlays(ui, view, state.canvas, shown.stats.pressure_range, shown.stats.divergence_range, shown.stats.curl_range);
        out.extend(marks(ui, &mut view.overlays));
        sections::display(ui, &mut scene);
    });
    if scene != *shown.scene {
        out.push(Command::Configure(Box::new(scene)));
    }
    ui.small(super::help::hint(crate::platform::touch_screen()));
    out
}

/// A scene's name for the picker: a built-in's name, a file's name, a saved state's folder.
fn short_label(label: &str) -> String {
    let path = std::path::Path::new(label);
    let name = |p: &std::path::Path| p.file_name().map(|n| n.to_string_lossy().to_string());
    match name(path) {
        Some(n) if n == "scene.toml" => path.parent().and_then(name).unwrap_or(n),
        Some(n) => n,
        None => label.to_string(),
    }
}

/// A button showing `label`, one of `labels`, as wide as the widest of them: starting a
/// recording must not widen the panel (and shrink the field being recorded).
fn toggle_button(ui: &mut egui::Ui, label: &str, labels: [&str; 2]) -> egui::Response {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let widest =
        labels.iter().map(|t| ui.painter().layout_no_wrap(t.to_string(), font.clone(), egui::Color32::WHITE).size().x).fold(0.0, f32::max);
    ui.add(egui::Button::new(label).min_size(egui::vec2(widest + 2.0 * ui.spacing().button_padding.x, 0.0)))
}

fn capture(ui: &mut egui::Ui, c: &CaptureStatus, view: &mut View, panel: &mut PanelState, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        if ui.button("Screenshot").on_hover_text("Save a PNG of the field at display resolution (P)").clicked() {
            out.push(Command::Screenshot);
        }
        let (label, tip) = match c.recording {
            Some(_) => ("Stop recording", "Finish the animated GIF (G)"),
            None => ("Record GIF", "Record the field as an animated GIF, up to 25 frames a second (G)"),
        };
        if toggle_button(ui, label, ["Stop recording", "Record GIF"]).on_hover_text(tip).clicked() {
            out.push(Command::ToggleRecording);
        }
        if let Some(on) = c.video {
            let (label, tip) = if on {
                ("Stop video", "Finish the WebM video: it comes as a download")
            } else {
                ("Record video", "Record the page as a WebM video, by the browser's own encoder (as shown, panel and all)")
            };
            if toggle_button(ui, label, ["Stop video", "Record video"]).on_hover_text(tip).clicked() {
                out.push(Command::ToggleVideo);
            }
        }
        checkbox(ui, &mut view.capture_overlays, "with overlays", "Captures show the tints, arrows and grid lines; else the ink alone");
        checkbox(
            ui,
            &mut view.field_text,
            "text on the field",
            "Badges (paused, speed, recording, solver warning), the start hint, the scene's caption, legends, the arrows' key and the hover readout; off: the picture alone (messages still show)",
        );
    });
    let state = match (c.recording, &c.last) {
        (Some(n), _) => format!("● recording: {n} frames"),
        (None, Some(last)) => {
            format!("last: {}", std::path::Path::new(last).file_name().map_or(last.clone(), |f| f.to_string_lossy().to_string()))
        }
        (None, None) => "nothing saved yet".to_string(),
    };
    ui.small(state).on_hover_text(c.last.clone().unwrap_or_default());
    ui.horizontal(|ui| {
        if ui.button("Open scene…").on_hover_text("Open a scene .toml with a file dialog (or drop it on the window)").clicked() {
            out.push(Command::OpenDialog(false));
        }
        if ui.button("Open state…").on_hover_text("Open a saved state folder with a file dialog (or drop it on the window)").clicked() {
            out.push(Command::OpenDialog(true));
        }
    });
    if cfg!(target_arch = "wasm32") {
        if ui.button("Copy link").on_hover_text("A link to this page with the scene and every changed setting (as --set takes them), put on the clipboard and in the address bar").clicked() {
            out.push(Command::CopyLink);
        }
    } else {
        open_path(ui, &mut panel.open_path, out);
    }
    ui.horizontal(|ui| {
        if ui.button("Save state").on_hover_text("The fields (.npy) and meta.json, as --dump writes them, with the settings as scene.toml beside them; reopen with smokebox --load DIR or by dropping the folder on the window (Ctrl+S)").clicked() {
            out.push(Command::SaveState);
        }
        if ui.button("Save scene").on_hover_text("The current settings as a scene .toml (open it with smokebox --scene FILE or drop it on the window)").clicked() {
            out.push(Command::SaveScene);
        }
        if ui.button("Save series").on_hover_text("The statistics over time (kinetic energy, max |div| before and after, total ink: the plots' last 600 read-backs) and every probe's u, v, p, div and ink, as one CSV (the probe columns as smokebox run --probe-csv names them)").clicked() {
            out.push(Command::SaveSeries);
        }
    });
    ui.small(format!("folder: {}", c.dir)).on_hover_text("Screenshots, recordings and saves go here; set SMOKEBOX_CAPTURE_DIR to use another folder. Drop a scene .toml or a state folder on the window to open it.");
}

/// A typed path: the way to open a file where no file dialog can open (no XDG portal or zenity:
/// CI, Xvfb, minimal desktops). Always shown, so the panel does not jump when a dialog fails.
fn open_path(ui: &mut egui::Ui, text: &mut String, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let label = ui.label("Open path:");
        let tip = "The path of a scene .toml or a saved state folder (a file:// address or ~/… works too); Enter or Open opens it. For when no file dialog opens";
        let edit = egui::TextEdit::singleline(text).desired_width(190.0).hint_text("scene .toml or state folder");
        let edit = ui.add(edit).labelled_by(label.id).on_hover_text(tip);
        let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let path = typed_path(text);
        let button = ui.add_enabled(!path.is_empty(), egui::Button::new("Open")).on_hover_text(tip);
        if (button.clicked() || entered) && !path.is_empty() {
            out.push(Command::Open(path));
        }
    });
}

/// The path in what was typed or pasted: no surrounding blanks or quotes, a file:// address as
/// its path, `~` as the home folder.
fn typed_path(text: &str) -> String {
    let t = text.trim().trim_matches(['"', '\'']);
    if let Some(address) = t.strip_prefix("file://") {
        return percent_decoded(address);
    }
    match (t.strip_prefix("~/"), crate::platform::var("HOME")) {
        (Some(rest), Some(home)) => std::path::Path::new(&home).join(rest).display().to_string(),
        _ => t.to_string(),
    }
}

/// `%20` and the like in a file:// address as the bytes they stand for.
fn percent_decoded(address: &str) -> String {
    let b = address.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex =
            (b[i] == b'%').then(|| b.get(i + 1..i + 3)).flatten().and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match hex {
            Some(byte) => (out.push(byte), i += 3),
            None => (out.push(b[i]), i += 1),
        };
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn run_controls(ui: &mut egui::Ui, paused: bool, run_hidden: &mut bool, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let (label, tip) = if paused { ("Run", "Run the simulation (Space)") } else { ("Pause", "Pause the simulation (Space)") };
        if ui.button(label).on_hover_text(tip).clicked() {
            out.push(Command::SetPaused(!paused));
        }
        if ui.button("Step").on_hover_text("One step while paused (S or →)").clicked() {
            out.push(Command::Step);
        }
        if ui.button("Restart").on_hover_text("Back to time zero, keeping the panel's edits (R)").clicked() {
            out.push(Command::Reset);
        }
        let tip = "Back to time zero with the scene's own settings, as it was loaded: the panel's edits are undone (Shift+R)";
        if ui.button("Restart as loaded").on_hover_text(tip).clicked() {
            out.push(Command::RestartAsLoaded);
        }
        if ui.button("Clear ink").on_hover_text("Remove all ink and density (C)").clicked() {
            out.push(Command::ClearInk);
        }
    });
    checkbox(
        ui,
        run_hidden,
        "keep running when hidden",
        "Keep stepping while the window is hidden, minimised or covered; off, a window nobody sees stops and costs no CPU until it shows again",
    );
}

/// The stage view's switch in the panel.
pub const STAGES_LABEL: &str = "T step by stage: one step taken apart";

/// The stage view's switch and, while it is on, the stage taken and its equation in words.
fn stage_view(ui: &mut egui::Ui, stage: Option<&super::StageShown>, on: &mut bool, out: &mut Vec<Command>) {
    let tip = "Take one step apart: each press of S or → (or Next stage) runs one stage (sources and forces, divergence, the \
               pressure after 1, 2, 4, … units of the solve, the solve, the correction, advection) and the field shows what it did. \
               T or Esc leaves: the step under way is finished and the run goes on from there, with your overlays back (key T)";
    checkbox(ui, on, STAGES_LABEL, tip);
    let Some(s) = stage.filter(|_| *on) else { return };
    ui.horizontal_wrapped(|ui| {
        if ui.button("Next stage").on_hover_text("Run the next stage of the step (S or →)").clicked() {
            out.push(Command::Step);
        }
        ui.label(egui::RichText::new(&s.line).strong());
    });
    ui.label(&s.equation);
}

/// Each body's drag and lift, and against the inflow its coefficients and Strouhal number ("–"
/// until known, or without an inflow).
fn body_rows(ui: &mut egui::Ui, count: usize, bodies: &[crate::sim::body_loads::BodyReport]) {
    for n in 0..count {
        let b = bodies.get(n);
        ui.label(format!("body {} drag, lift", n + 1)).on_hover_text(
            "Force on the body from the pressure and viscous stress on its faces, N per metre of depth: \
             drag along the inflow, lift a quarter turn anticlockwise from it (x and y without an inflow)",
        );
        ui.monospace(b.map_or("–".to_string(), |b| format!("{:.4}, {:.4} N/m", b.drag, b.lift)));
        ui.end_row();
        let reference = b.and_then(|b| b.length.zip(b.speed));
        let tip = reference.map_or("2F / (ρ U² L) against the inflow (none here)".to_string(), |(l, u)| {
            format!("2F / (ρ U² L) with L = {l:.3} m (the body's extent across the flow) and U = {u:.3} m/s (the inflow's mean speed)")
        });
        ui.label("  C_D, C_L").on_hover_text(tip);
        let coefficients = b.and_then(|b| b.cd.zip(b.cl));
        ui.monospace(coefficients.map_or("–".to_string(), |(cd, cl)| format!("{cd:.3}, {cl:.3}")));
        ui.end_row();
        ui.label("  Strouhal f·L/U").on_hover_text(
            "From the lift's upward crossings of its mean over the recent figures (the panel's, a few a second: \
             shown once two periods are in, at least 8 figures a period). A cylinder's wake sheds at about 0.2 \
             (0.12 near the onset at Re 50, 0.21 at most up to Re 1000; docs/validation.md)",
        );
        ui.monospace(b.and_then(|b| b.strouhal).map_or("–".to_string(), |st| format!("{st:.3} (literature ≈ 0.2)")));
        ui.end_row();
    }
}

/// Each pinned probe's last figures and a plot of its u and v over the recent ones.
fn probe_rows(ui: &mut egui::Ui, probes: &[super::ProbeSeries]) {
    use super::field::short;
    for (n, probe) in probes.iter().enumerate() {
        let [x, y] = probe.at;
        ui.label(format!("probe {} ({}, {}) m", n + 1, short(x), short(y))).on_hover_text(
            "u, v (m/s), p (Pa), div (1/s, of the cell it lies in) and ink (r + g + b) at the probe after each step \
             with full figures; the plot: u (orange) and v (blue) over the last ones, each scaled to its range. \
             smokebox run --probe X,Y --probe-csv FILE writes every step's",
        );
        // three short lines, so the panel keeps its width
        let last = probe.values.back();
        let lines = last.map_or(["–".to_string(), String::new(), String::new()], |&[u, v, p, div, ink]| {
            [
                format!("u {} v {} m/s", short(u), short(v)),
                format!("p {} Pa div {} 1/s", short(p), short(div)),
                format!("ink {}", short(ink)),
            ]
        });
        for (k, line) in lines.into_iter().enumerate() {
            if k > 0 {
                ui.label("");
            }
            ui.monospace(line);
            ui.end_row();
        }
        ui.label("");
        series_plot(ui, &probe.values);
        ui.end_row();
    }
}

/// u and v of a probe's series as two lines, each scaled to its own range.
fn series_plot(ui: &mut egui::Ui, values: &std::collections::VecDeque<[f32; 5]>) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(220.0, 36.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_stroke(rect, 2.0, egui::Stroke::new(1.0, egui::Color32::from_gray(70)), egui::StrokeKind::Inside);
    let n = values.len();
    if n < 2 {
        return;
    }
    for (k, colour) in [(0, egui::Color32::from_rgb(255, 160, 60)), (1, egui::Color32::from_rgb(90, 170, 255))] {
        let (lo, hi) = values.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v[k]), hi.max(v[k])));
        let span = (hi - lo).max(1e-12);
        let points = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let t = i as f32 / (n - 1) as f32;
                let s = if hi > lo { (v[k] - lo) / span } else { 0.5 };
                egui::pos2(rect.left() + 2.0 + t * (rect.width() - 4.0), rect.bottom() - 2.0 - s * (rect.height() - 4.0))
            })
            .collect();
        painter.add(egui::Shape::line(points, egui::Stroke::new(1.2, colour)));
    }
}

/// Figures in a fixed layout: every line is always there ("–" until known), so the panel does
/// not jump under the mouse.
fn statistics(ui: &mut egui::Ui, s: &LiveStats, paused: bool, every_step: &mut bool) {
    let known = |v: Option<f32>, f: &dyn Fn(f32) -> String| v.map_or("–".to_string(), f);
    egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
        let row = |ui: &mut egui::Ui, name: &str, value: String, tip: &str| {
            ui.label(name).on_hover_text(tip);
            ui.monospace(value);
            ui.end_row();
        };
        // paused, the window draws only on input: a rate would be stale
        let frames = if paused { "on input (paused)".to_string() } else { format!("{:.0}/s, {:.1} ms", s.fps, s.frame_ms) };
        row(ui, "frames", frames, "Frames drawn a second and the mean frame time; paused, the window draws only when something changes");
        row(
            ui,
            "steps a frame",
            format!("{} of {}", s.steps_achieved, s.steps_requested),
            "Steps taken in the last frame, of those asked for",
        );
        checkbox(
            ui,
            every_step,
            "every step",
            "Run every step asked for (Simulation → steps per frame) even when frames run long; \
             off, the app takes fewer steps a frame to keep the window responsive",
        );
        ui.small(s.step_limit.as_deref().unwrap_or("")).on_hover_text("Why fewer steps run than asked for");
        ui.end_row();
        row(ui, "step", format!("{} ({:.2} s)", s.step, s.time), "Steps since the start and simulated time");
        let tip = s.warning.clone().unwrap_or_else(|| "A step whose dt exceeds the CFL limit is split into sub-steps".into());
        row(ui, "sub-steps", format!("{} a step", s.substeps.max(1)), &tip);
        row(ui, "max |div| before", known(s.div_before, &|v| format!("{v:.3e} 1/s")), "Largest divergence the pressure solve started from");
        row(ui, "max |div| after", known(s.div_after, &|v| format!("{v:.3e} 1/s")), "Largest divergence left after the projection");
        let ratio = match (s.div_before, s.div_after) {
            (Some(b), Some(a)) if b > 0.0 => Some(a / b),
            _ => None,
        };
        row(ui, "residual", known(ratio, &|v| format!("{v:.3e}")), "max |div| after / before: how far the solve got (dimensionless)");
        body_rows(ui, s.body_count, &s.bodies);
        probe_rows(ui, &s.probes);
        let tip = "Steps whose pressure solve stopped above solver.tolerance (relative residual) since the state was opened \
                   or reset; `run --stats` marks each with converged: false and how it stopped: \"cap\" (it ran all its \
                   iterations: raise the solver's own, solver.multigrid_iterations, solver.jacobi_iterations or \
                   solver.sor_iterations, or use multigrid) or \"floor\" (its residual stopped falling at float32's floor: \
                   raise solver.tolerance)";
        ui.label("tolerance").on_hover_text(tip);
        if s.unconverged_steps > 0 {
            let n = s.unconverged_steps;
            let where_ = if s.floor_steps >= n { "at the floor" } else { "above it" };
            let text = format!("{n} step{} {where_}", if n == 1 { "" } else { "s" });
            let advice = s.solver_warning.clone().map_or(tip.to_string(), |w| format!("{w}.\n\n{tip}"));
            ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(text).monospace()).on_hover_text(advice);
        } else {
            ui.monospace("met every step").on_hover_text(tip);
        }
        ui.end_row();
        row(
            ui,
            "total ink",
            known(s.ink_total, &|v| format!("{v:.4} m²")),
            "Area-weighted ink: Σ ink·(h/k)² over the dye cells and the three colours (concentration × m², h the cell side, k the dye scale)",
        );
        let p = s.pressure_range.map_or("–".to_string(), |(lo, hi)| format!("{lo:.2e}..{hi:.2e} Pa"));
        row(ui, "pressure", p, "Pressure minimum and maximum, read back while the pressure overlay (auto range) or the numbers are shown");
    });
    egui::CollapsingHeader::new("GPU time per pass")
        .default_open(false)
        .show(ui, |ui| {
            if s.passes.is_empty() {
                ui.label("– (this adapter has no timestamp queries)");
            }
            for (name, ms) in &s.passes {
                ui.monospace(format!("{name:>16} {ms:8.3} ms"));
            }
        })
        .header_response
        .on_hover_text("GPU milliseconds of each pass in one frame's steps, timed four times a second, in the frames that also reduce the full statistics (the stats pass; the frames between reduce only the speeds)");
    ui.small(if s.adapter.is_empty() { "–" } else { &s.adapter }).on_hover_text("The GPU adapter the simulation runs on");
    if let Some(note) = &s.for_adapter {
        ui.small(note).on_hover_text(
            "On a CPU adapter the window starts with a coarser automatic dye grid (at least 256 cells across), one step a frame, \
             a default CFL limit of 2 instead of 1 (one sub-step a step where the default plume would take two), and draws the field at the dye grid's resolution (one pixel a dye cell, at least 256 across) before the window's bilinear \
             scaling, so the default scene stays smooth; a GPU gets the full automatic pick and a 512-pixel field image",
        );
    }
}

fn brush(ui: &mut egui::Ui, view: &mut View, scene: &Scene) {
    let b = &mut view.brush;
    let mut radius = b.radius(scene);
    if slider(ui, &mut radius, 0.002..=0.5, true, "radius (m)", "Brush radius, metres (also the mouse wheel)").changed() {
        b.set_radius(scene, radius);
    }
    slider(ui, &mut b.strength, 0.0..=5.0, false, "strength", "Velocity added per m/s of mouse movement (dimensionless)");
    slider(
        ui,
        &mut b.amount,
        0.0..=3.0,
        false,
        "ink amount",
        "Ink concentration added at the centre of each dab, per colour (dimensionless)",
    );
    slider(
        ui,
        &mut b.density,
        -1.0..=1.0,
        false,
        "density (kg/m³)",
        "Density deviation added by each dab, kg/m³: negative rises, positive sinks under gravity",
    );
    ui.horizontal(|ui| {
        let d = b.density.abs().max(0.05);
        if ui.selectable_label(b.density < 0.0, "light (rises)").on_hover_text("Paint fluid lighter than ambient").clicked() {
            b.density = -d;
        }
        if ui.selectable_label(b.density == 0.0, "neutral").on_hover_text("Paint fluid of ambient density").clicked() {
            b.density = 0.0;
        }
        if ui.selectable_label(b.density > 0.0, "heavy (sinks)").on_hover_text("Paint fluid heavier than ambient").clicked() {
            b.density = d;
        }
    });
    if b.density != 0.0 && scene.forces.gravity == [0.0, 0.0] {
        ui.colored_label(ui.visuals().warn_fg_color, "heavy and light need gravity: it is 0 here (set it under Simulation)")
            .on_hover_text("Density moves the fluid only through buoyancy: with gravity 0 a heavy or light dab is only ink");
    }
    ui.horizontal(|ui| {
        ui.label("colour");
        use crate::render::palette::ColourMode;
        ui.radio_value(&mut b.colour_mode, ColourMode::PerStroke, "new each stroke")
            .on_hover_text("A fresh, bright colour for every stroke");
        ui.radio_value(&mut b.colour_mode, ColourMode::Fixed, "fixed").on_hover_text("Always the colour beside");
        ui.add_enabled_ui(b.colour_mode == ColourMode::Fixed, |ui| colour(ui, &mut b.colour, "Colour of the painted ink"));
    });
    ui.horizontal(|ui| {
        for (mode, name, tip) in [
            (BrushMode::Paint, "paint", "Left drag stirs and paints ink"),
            (BrushMode::Stir, "stir", "Left drag stirs without ink"),
            (BrushMode::Ink, "ink", "Left drag paints ink without stirring"),
            (BrushMode::Wall, "wall", "Left drag paints obstacles, right drag erases them"),
            (
                BrushMode::Move,
                "move",
                "Left drag moves a circle or rectangle obstacle of the scene (key M); it pushes the fluid as it goes, \
                 and stays where it is let go (Save scene and Copy link keep the new place)",
            ),
            (
                BrushMode::Probe,
                "probe",
                "Left click pins a probe at the point (at most 8, the oldest goes), right click takes them all away: \
                 u, v, p, div and ink there show under the statistics, with a plot of u and v",
            ),
            (
                BrushMode::Tracers,
                "tracers",
                "Left drag drops tracer particles in the brush's disc (shown with key D); nothing else changes",
            ),
        ] {
            ui.radio_value(&mut b.mode, mode, name).on_hover_text(tip);
        }
    });
}

/// The plots' switch in the panel.
pub const PLOTS_LABEL: &str = "9 plots: convergence and statistics over time";

fn overlays(
    ui: &mut egui::Ui,
    view: &mut View,
    canvas: Option<(f32, usize)>,
    pressure: Option<(f32, f32)>,
    divergence: Option<f32>,
    curl: Option<f32>,
) {
    let o = &mut view.overlays;
    checkbox(ui, &mut o.ink, "1 ink", "Show the ink (key 1)");
    checkbox(ui, &mut o.shading, "shaded ink", "Light the ink by its gradient, as a thin relief (display only)");
    checkbox(ui, &mut o.divergence, "2 divergence tint", "Tint cells by their divergence: red out, blue in (key 2)");
    ui.horizontal(|ui| {
        ui.add_space(16.0);
        ui.radio_value(&mut o.divergence_after, false, "before projection")
            .on_hover_text("The divergence the pressure solve started from (tint, numbers and hover readout)");
        ui.radio_value(&mut o.divergence_after, true, "after projection").on_hover_text(
            "What is left after the correction, the solver's error: the flow's own divergence (tint, numbers and hover readout)",
        );
    });
    checkbox(ui, &mut o.divergence_auto, "auto divergence range", "Scale the tint to the largest |div| last read back");
    tint_range(ui, &mut o.divergence_range, 1e-8..=100.0, !o.divergence_auto, "divergence range (1/s)", "|div| at full tint, 1/s");
    checkbox(ui, &mut o.pressure, "3 pressure", "Colour cells by pressure (key 3)");
    checkbox(ui, &mut o.pressure_auto, "auto pressure range", "Scale the colours to the largest |p| last read back");
    tint_range(ui, &mut o.pressure_range, 1e-5..=100.0, !o.pressure_auto, "pressure range (Pa)", "|p| at full colour, Pa");
    checkbox(
        ui,
        &mut o.curl,
        "8 curl (vorticity)",
        "Tint cells by the curl ω = ∂v/∂x − ∂u/∂y of the edge velocities: purple where the flow turns counter-clockwise, green clockwise (key 8)",
    );
    checkbox(ui, &mut o.curl_auto, "auto curl range", "Scale the tint to the largest |ω| last read back");
    tint_range(ui, &mut o.curl_range, 1e-4..=1000.0, !o.curl_auto, "curl range (1/s)", "|ω| at full tint, 1/s");
    slider(
        ui,
        &mut o.tint_opacity,
        0.0..=1.0,
        false,
        "tint opacity",
        "How strongly the divergence, pressure and curl tints cover the ink (0: not at all)",
    );
    let auto_p = pressure.map(|(lo, hi)| lo.abs().max(hi.abs()));
    let p_range = if o.pressure_auto { auto_p.unwrap_or(o.pressure_range) } else { o.pressure_range };
    let shown = match (o.divergence_auto, divergence) {
        (true, Some(range)) => crate::render::Overlays { divergence_range: range, ..o.clone() },
        _ => o.clone(),
    };
    let w_range = if o.curl_auto { curl.unwrap_or(o.curl_range) } else { o.curl_range };
    for legend in shown.legends(p_range, w_range) {
        legend_bar(ui, &legend);
    }
    checkbox(
        ui,
        &mut o.arrows_centre,
        "5 velocity at cell centres",
        "Arrows for the velocity interpolated at cell centres, about the spacing below apart on screen whatever the grid (key 5)",
    );
    slider(
        ui,
        &mut o.arrow_pixels,
        16.0..=96.0,
        false,
        "arrow spacing (px)",
        "Screen pixels between the cell-centred arrows (one a cell where cells are wider)",
    );
    checkbox(
        ui,
        &mut o.arrow_auto,
        "automatic arrow length",
        "Scale the arrows to the flow's largest speed (a round figure, shown by the key on the field); off, the scale below",
    );
    ui.add_enabled_ui(!o.arrow_auto, |ui| {
        slider(
            ui,
            &mut o.arrow_scale,
            1.0..=2000.0,
            true,
            "arrow scale (px per m/s)",
            "Arrow length, screen pixels per m/s, when not automatic; arrows longer than 0.9 of the spacing are capped",
        )
    });
    checkbox(ui, &mut o.arrow_colour_by_speed, "colour arrows by speed", "Cell arrows from blue (slow) to yellow (at the cap)");
    let (ppc, cells) = canvas.unwrap_or((f32::INFINITY, 0));
    for (flag, name, label, tip) in [
        (
            &mut o.arrows_mac,
            "mac-arrows",
            "4 velocity on MAC edges",
            "Arrows for u on every vertical edge and v on every horizontal edge (key 4)",
        ),
        (&mut o.grid_lines, "grid", "6 grid lines", "Cell outlines (key 6)"),
        (
            &mut o.numbers,
            "numbers",
            "7 numbers in large cells",
            "The pressure printed in each cell when the pressure tint is on, else the divergence (key 7)",
        ),
    ] {
        let why = crate::render::why_not_drawable(name, ppc, cells);
        let tip = match &why {
            Some(w) => format!("{tip}. Not drawn now: {w}"),
            None => tip.to_string(),
        };
        ui.add_enabled_ui(why.is_none(), |ui| checkbox(ui, flag, label, &tip));
        if let Some(w) = why {
            ui.small(format!("   {w}"));
        }
    }
}

/// The tracers' and streamlines' settings, and the tracers' commands.
fn marks(ui: &mut egui::Ui, o: &mut crate::render::Overlays) -> Option<Command> {
    checkbox(
        ui,
        &mut o.tracers,
        "D tracers",
        "Particles carried by the flow, moved on the GPU every step: seeded evenly when switched on, by the brush's tracers mode, \
         and at inflow sides; removed at outflows and in obstacles (key D)",
    );
    checkbox(ui, &mut o.tracer_streaks, "tracer streaks", "Draw each particle as a short streak from where it was a step before");
    checkbox(ui, &mut o.tracer_inflow, "tracers at inflows", "New particles come in continuously at the scene's inflow sides");
    let mut command = None;
    ui.horizontal(|ui| {
        if ui.button("fill tracers").on_hover_text("Spread particles evenly over the whole domain").clicked() {
            command = Some(Command::FillTracers);
        }
        if ui.button("clear tracers").on_hover_text("Remove every particle").clicked() {
            command = Some(Command::ClearTracers);
        }
    });
    checkbox(
        ui,
        &mut o.streamlines,
        "0 streamlines",
        "Lines along the current velocity, traced on the GPU from seeds about the spacing below apart on screen whatever the grid (key 0)",
    );
    slider(ui, &mut o.streamline_pixels, 16.0..=96.0, false, "streamline spacing (px)", "Screen pixels between the streamlines' seeds");
    command
}

/// A tint's range on a logarithmic slider (typed values beyond its ends kept), greyed out where
/// the range is automatic.
fn tint_range(ui: &mut egui::Ui, value: &mut f32, range: std::ops::RangeInclusive<f32>, enabled: bool, text: &str, tip: &str) {
    let r = egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits).logarithmic(true).text(text);
    ui.add_enabled(enabled, r).on_hover_text(tip);
}

/// A colour bar from -range to +range with its title and unit.
fn legend_bar(ui: &mut egui::Ui, legend: &crate::render::Legend) {
    ui.small(format!("{} ({}): −{:.3e} … +{:.3e}", legend.title, legend.unit, legend.range, legend.range));
    let (rect, _) = ui.allocate_exact_size(egui::vec2(200.0, 10.0), egui::Sense::hover());
    super::field::paint_bar(ui.painter(), rect, legend);
}
