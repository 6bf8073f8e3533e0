//! The egui panel driven by egui_kittest. The panel reads the applied scene and returns
//! commands; this harness plays the app's part (applies `Configure` and `SetPaused` after each
//! frame), so each test sees what the user would: a control changes the config through a
//! command, never the applied scene directly. Also: every key of the scene format has a control
//! (viscosity included), controls carry tooltips, and the view settings survive a save and load.
//! Over 400 lines: every test drives the same harness (the app's part played by `settle`).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use smokebox::config::{BoundaryKind, Scene, Scheme, SolverKind};
use smokebox::ui::scene_settings::{NOT_IN_PANEL, SCENE_KEYS, SIDES};
use smokebox::ui::{self, Command, LiveStats, PanelState, Shown, View};

struct State {
    /// The config the "simulation" runs with: changed only by applying a command.
    scene: Scene,
    view: View,
    panel: PanelState,
    stats: LiveStats,
    paused: bool,
    /// Commands of the frames since the last `settle`.
    commands: Vec<Command>,
    /// Every command ever returned.
    log: Vec<Command>,
}

fn harness_for(name: &str) -> Harness<'static, State> {
    let (scene, _) = Scene::load(name, &[]).unwrap();
    let mut view = View::default();
    view.open_scene(&scene);
    let state = State {
        scene,
        view,
        panel: PanelState::default(),
        stats: LiveStats::default(),
        paused: false,
        commands: Vec::new(),
        log: Vec::new(),
    };
    let mut h = Harness::builder().with_size(egui::vec2(460.0, 4000.0)).build_ui_state(
        |ui, s: &mut State| {
            let capture = ui::CaptureStatus { dir: "/tmp/captures".into(), ..Default::default() };
            let shown = Shown { scene: &s.scene, label: "plume", stats: &s.stats, paused: s.paused, capture: &capture };
            let out = ui::panel_contents(ui, &shown, &mut s.view, &mut s.panel);
            s.commands.extend(out);
        },
        state,
    );
    settle(&mut h);
    h
}

fn harness() -> Harness<'static, State> {
    harness_for("plume")
}

/// Runs the frames, then applies their commands as the app would.
fn settle(h: &mut Harness<'static, State>) {
    h.run();
    let s = h.state_mut();
    for c in std::mem::take(&mut s.commands) {
        s.log.push(c.clone());
        match c {
            Command::Configure(scene) => s.scene = *scene,
            Command::SetPaused(p) => s.paused = p,
            _ => {}
        }
    }
    h.run();
}

fn set_slider(h: &mut Harness<'static, State>, label: &str, value: f64) {
    h.get_all_by_label(label).next().unwrap_or_else(|| panic!("a '{label}' slider")).set_value_accesskit(value);
    settle(h);
}

fn open_section(h: &mut Harness<'static, State>, name: &str) {
    h.get_by_label(name).click();
    settle(h);
}

#[test]
fn an_untouched_panel_returns_no_commands() {
    let mut h = harness();
    for _ in 0..5 {
        settle(&mut h);
    }
    assert_eq!(h.state().log, vec![], "frames without input asked for something");
}

#[test]
fn viscosity_slider_returns_a_configure_command_and_leaves_the_applied_scene_alone() {
    let mut h = harness();
    let before = h.state().scene.clone();
    h.get_all_by_label("viscosity ν (m²/s)").next().unwrap().set_value_accesskit(0.01);
    h.run();
    // the panel's frame is over: the applied config is still the old one, the command has the new
    assert_eq!(h.state().scene, before, "the panel changed the applied scene itself");
    let configured: Vec<&Command> = h.state().commands.iter().filter(|c| matches!(c, Command::Configure(_))).collect();
    let Some(Command::Configure(new)) = configured.last() else { panic!("no Configure command: {:?}", h.state().commands) };
    assert!((new.fluid.viscosity - 0.01).abs() < 1e-9, "viscosity in the command {}", new.fluid.viscosity);
    let mut expected = before.clone();
    expected.fluid.viscosity = new.fluid.viscosity;
    assert_eq!(**new, expected, "the command changed more than the viscosity");
}

#[test]
fn every_scene_setting_has_a_control() {
    // every key of the format, from a scene with every optional key present
    let mut scene = Scene::default();
    scene.advection.density = Some(Scheme::Bfecc);
    let table = toml::Value::try_from(&scene).unwrap();
    let mut keys = Vec::new();
    fn walk(prefix: &str, v: &toml::Value, out: &mut Vec<String>) {
        match v {
            toml::Value::Table(t) => {
                for (k, v) in t {
                    let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    walk(&key, v, out);
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }
    walk("", &table, &mut keys);
    assert!(keys.len() > 30, "{keys:?}");
    for key in &keys {
        let mut parts: Vec<&str> = key.split('.').collect();
        if parts[0] == "boundary" {
            parts[1] = "{side}";
        }
        let key = parts.join(".");
        let in_panel = SCENE_KEYS.iter().any(|(k, _)| *k == key);
        let left_out = NOT_IN_PANEL.iter().any(|(k, _)| *k == parts[0] || *k == key);
        assert!(in_panel || left_out, "scene key {key} has no control in the panel (add it to SCENE_KEYS) nor a reason (NOT_IN_PANEL)");
    }

    let mut h = harness();
    open_section(&mut h, "Grid");
    open_section(&mut h, "Boundaries");
    for (key, label) in SCENE_KEYS {
        let sides: Vec<&str> = if label.contains("{side}") { SIDES.to_vec() } else { vec![""] };
        for side in sides {
            if !side.is_empty() {
                // a side shows the controls of its kind
                let kind = match key.rsplit('.').next().unwrap() {
                    "slip" | "speed" => BoundaryKind::Wall,
                    "velocity" | "profile" | "ink" | "density" => BoundaryKind::Inflow,
                    _ => BoundaryKind::Outflow,
                };
                let s = h.state_mut();
                let b = &mut s.scene.boundary;
                for side_config in [&mut b.left, &mut b.right, &mut b.bottom, &mut b.top] {
                    side_config.kind = kind;
                }
                settle(&mut h);
            }
            let label = label.replace("{side}", side);
            assert!(h.query_all_by_label(&label).next().is_some(), "no control labelled '{label}' for {key}");
        }
    }
}

#[test]
fn each_overlay_checkbox_toggles_its_setting() {
    let mut h = harness();
    let labels = [
        "1 ink",
        "2 divergence tint",
        "3 pressure",
        "4 velocity on MAC edges",
        "5 velocity at cell centres",
        "6 grid lines",
        "7 numbers in large cells",
        "8 curl (vorticity)",
    ];
    for (n, label) in labels.iter().enumerate() {
        let before = h.state().view.overlays.clone();
        h.get_by_label(label).click();
        settle(&mut h);
        let after = h.state().view.overlays.clone();
        assert_ne!(before, after, "{label} changed nothing");
        // the same change as the number key
        let mut expected = before.clone();
        ui::toggle_overlay(&mut expected, n as u32 + 1);
        assert_eq!(after, expected, "{label} toggled something else");
    }
}

#[test]
fn slider_sets_brush_radius_in_metres() {
    let mut h = harness();
    set_slider(&mut h, "radius (m)", 0.1);
    let s = h.state();
    let after = s.view.brush.radius(&s.scene);
    assert!((after - 0.1).abs() < 1e-6, "radius {after}");
}

#[test]
fn pause_step_reset_are_commands() {
    let mut h = harness();
    h.get_by_label("Pause").click();
    settle(&mut h);
    assert!(h.state().paused);
    h.get_by_label("Step").click();
    settle(&mut h);
    h.get_by_label("Restart").click();
    settle(&mut h);
    h.get_by_label("Restart as loaded").click();
    settle(&mut h);
    h.get_by_label("Clear ink").click();
    settle(&mut h);
    h.get_by_label("Run").click();
    settle(&mut h);
    assert!(!h.state().paused);
    let want =
        [Command::SetPaused(true), Command::Step, Command::Reset, Command::RestartAsLoaded, Command::ClearInk, Command::SetPaused(false)];
    assert_eq!(h.state().log, want);
}

#[test]
fn solver_kind_and_brush_density_sign() {
    let mut h = harness();
    h.get_by_label("jacobi").click();
    settle(&mut h);
    assert_eq!(h.state().scene.solver.kind, SolverKind::Jacobi);
    h.get_by_label("multigrid").click();
    settle(&mut h);
    assert_eq!(h.state().scene.solver.kind, SolverKind::Multigrid);
    h.get_by_label("sor").click();
    settle(&mut h);
    assert_eq!(h.state().scene.solver.kind, SolverKind::Sor);
    h.get_by_label("light (rises)").click();
    settle(&mut h);
    assert!(h.state().view.brush.density < 0.0, "light brush density {}", h.state().view.brush.density);
    h.get_by_label("heavy (sinks)").click();
    settle(&mut h);
    assert!(h.state().view.brush.density > 0.0, "heavy brush density {}", h.state().view.brush.density);
    h.get_by_label("freeze flow").click();
    settle(&mut h);
    assert!(h.state().scene.advection.freeze_velocity);
}

#[test]
fn a_heavy_or_light_brush_without_gravity_says_it_needs_gravity() {
    const NOTE: &str = "heavy and light need gravity";
    let mut h = harness_for("paint");
    assert_eq!(h.state().scene.forces.gravity, [0.0, 0.0], "the paint scene has no gravity");
    assert!(h.query_all_by_label_contains(NOTE).next().is_none(), "a neutral brush needs no note");
    h.get_by_label("heavy (sinks)").click();
    settle(&mut h);
    assert!(h.query_all_by_label_contains(NOTE).next().is_some(), "no note for a heavy brush at gravity 0");
    let mut h = harness();
    h.get_by_label("light (rises)").click();
    settle(&mut h);
    assert!(h.query_all_by_label_contains(NOTE).next().is_none(), "the plume has gravity: no note");
}

#[test]
fn sliders_set_every_constant() {
    let mut h = harness();
    for (label, value) in [
        ("vorticity ε", 0.5),
        ("gravity x (m/s²)", 2.0),
        ("damping (1/s)", 0.25),
        ("tolerance (relative)", 0.01),
        ("Jacobi weight", 0.6),
        ("ink dissipation (1/s)", 0.5),
        ("density drain (1/s)", 0.125),
        ("viscosity ν (m²/s)", 0.001),
        ("time step Δt (s)", 0.005),
        ("density ρ (kg/m³)", 2.0),
        ("steps per frame", 4.0),
    ] {
        set_slider(&mut h, label, value);
    }
    let s = &h.state().scene;
    assert_eq!((s.forces.vorticity, s.forces.gravity[0], s.forces.damping, s.solver.tolerance), (0.5, 2.0, 0.25, 0.01));
    assert_eq!((s.solver.jacobi_weight, s.fluid.ink_dissipation, s.fluid.density_drain), (0.6, 0.5, 0.125));
    assert_eq!((s.fluid.viscosity, s.time.dt, s.fluid.density, s.display.steps_per_frame), (0.001, 0.005, 2.0, 4));
}

#[test]
fn scheme_pickers_offer_conservative_only_for_ink_and_density() {
    let mut h = harness();
    h.get_by_label("velocity scheme").click();
    settle(&mut h);
    assert!(h.query_by_label("conservative").is_none(), "velocity offers the flux form");
    h.get_by_label("maccormack").click();
    settle(&mut h);
    assert_eq!(h.state().scene.advection.velocity, Scheme::Maccormack);
    h.get_by_label("ink scheme").click();
    settle(&mut h);
    h.get_by_label("conservative").click();
    settle(&mut h);
    assert_eq!(h.state().scene.advection.ink, Scheme::Conservative);
    h.get_by_label("density scheme").click();
    settle(&mut h);
    h.get_by_label("bfecc").click();
    settle(&mut h);
    assert_eq!(h.state().scene.advection.density, Some(Scheme::Bfecc));
}

#[test]
fn a_periodic_side_takes_its_opposite_along() {
    let mut h = harness();
    open_section(&mut h, "Boundaries");
    h.get_by_label("left side").click();
    settle(&mut h);
    h.get_by_label("periodic").click();
    settle(&mut h);
    let b = &h.state().scene.boundary;
    assert_eq!((b.left.kind, b.right.kind), (BoundaryKind::Periodic, BoundaryKind::Periodic));
    assert_eq!(b.bottom.kind, BoundaryKind::Wall);
}

#[test]
fn grid_changes_wait_for_apply_and_keep_the_domain() {
    let mut h = harness();
    open_section(&mut h, "Grid");
    let before = h.state().scene.grid.clone();
    let nx = h.get_all_by_label("cells across (nx)").find(|n| n.value().is_some()).expect("an nx field");
    nx.set_value_accesskit(256.0);
    settle(&mut h);
    assert_eq!(h.state().scene.grid, before, "the grid changed before Apply");
    h.get_by_label("Apply grid (restarts)").click();
    settle(&mut h);
    let g = &h.state().scene.grid;
    assert_eq!((g.nx, g.ny), (256, 256), "plume is square: ny follows nx");
    assert!((g.nx as f32 * g.cell_size - before.nx as f32 * before.cell_size).abs() < 1e-5, "the domain width changed: {g:?}");
}

#[test]
fn controls_have_tooltips() {
    let mut h = harness();
    for (label, tip) in [
        ("viscosity ν (m²/s)", "Kinematic viscosity"),
        ("Restart", "keeping the panel's edits"),
        ("Restart as loaded", "edits are undone"),
        ("1 ink", "Show the ink"),
    ] {
        h.get_all_by_label(label).next().unwrap().hover();
        h.run();
        let found = h.query_all_by_label_contains(tip).next().is_some();
        assert!(found, "hovering '{label}' shows no tooltip containing '{tip}'");
    }
}

#[test]
fn view_settings_survive_a_save_and_load() {
    let dir = std::env::temp_dir().join(format!("smokebox_view_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut v = View::default();
    v.brush.radius_share = 0.123;
    v.brush.colour = [0.9, 0.1, 0.3];
    v.brush.mode = ui::BrushMode::Wall;
    v.overlays.pressure = true;
    v.overlays.arrow_scale = 7.5;
    v.show_panel = false;
    v.save(&dir).unwrap();
    assert_eq!(View::load(&dir), v);
    // a file from an older or newer version: unknown keys ignored, missing ones defaulted
    std::fs::write(dir.join(ui::view::VIEW_FILE), "show_panel = false\nfuture_key = 3\n[brush]\nstrength = 2.5\n").unwrap();
    let old = View::load(&dir);
    assert_eq!((old.show_panel, old.brush.strength, old.brush.radius_share), (false, 2.5, View::default().brush.radius_share));
    // a broken file: the defaults, not a failure
    std::fs::write(dir.join(ui::view::VIEW_FILE), "show_panel = [").unwrap();
    assert_eq!(View::load(&dir), View::default());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The non-ASCII characters of every string literal of the app and panel sources.
fn glyphs_in_sources() -> Vec<char> {
    let sources = [
        include_str!("../src/ui/mod.rs"),
        include_str!("../src/ui/panel.rs"),
        include_str!("../src/ui/scene_settings.rs"),
        include_str!("../src/ui/help.rs"),
        include_str!("../src/app/frame.rs"),
        include_str!("../src/app/stepper.rs"),
        include_str!("../src/app/mod.rs"),
        include_str!("../src/app/commands.rs"),
        include_str!("../src/app/rebuild.rs"),
        include_str!("../src/app/capture.rs"),
        include_str!("../src/app/files.rs"),
        include_str!("../src/ui/view.rs"),
    ];
    let mut out = Vec::new();
    for text in sources {
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            // the odd-numbered pieces between quotes are the literals (no escaped quotes in these files)
            for literal in line.split('"').skip(1).step_by(2) {
                out.extend(literal.chars().filter(|c| !c.is_ascii()));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn fonts_have_every_glyph_the_ui_uses() {
    let glyphs = glyphs_in_sources();
    for c in ['→', 'ν', 'ρ', 'Δ', 'ε', 'ω', '²', '³', '–', '−'] {
        assert!(glyphs.contains(&c), "the sources no longer use {c}: the scan is broken ({glyphs:?})");
    }
    let missing = |defs: egui::FontDefinitions| {
        let ctx = egui::Context::default();
        ctx.set_fonts(defs);
        let _ = ctx.run_ui(Default::default(), |_| {});
        let mut missing = Vec::new();
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let font = egui::FontId::new(14.0, family);
            missing.extend(glyphs.iter().filter(|&&c| !ctx.fonts_mut(|f| f.has_glyph(&font, c))).map(|c| (c, font.family.clone())));
        }
        missing
    };
    // egui's own fonts lack some (why the fallback exists)...
    assert!(missing(egui::FontDefinitions::default()).iter().any(|(c, _)| **c == '→'));
    // ...and with it, none is missing
    assert_eq!(missing(ui::fonts::definitions()), vec![], "glyphs without a font: they render as empty boxes");
}

#[test]
fn the_panel_does_not_jump_when_figures_appear() {
    let mut h = harness();
    let places = |h: &Harness<'static, State>| -> Vec<egui::Rect> {
        ["time step Δt (s)", "multigrid", "velocity scheme", "1 ink"]
            .iter()
            .map(|l| h.get_all_by_label(l).next().unwrap_or_else(|| panic!("{l}")).rect())
            .collect()
    };
    let empty = places(&h);
    let s = h.state_mut();
    s.stats = LiveStats {
        fps: 59.0,
        frame_ms: 16.9,
        steps_requested: 16,
        steps_achieved: 3,
        step_limit: Some("frames 80 ms > 33 ms budget".into()),
        substeps: 3,
        warning: Some("a step was split: dt over the CFL limit".into()),
        step: 123456,
        time: 1234.5,
        div_before: Some(1.5e-3),
        div_after: Some(2.5e-7),
        ink_total: Some(1234.5678),
        // a scene's bodies are counted at its load, so their lines are there from the start
        body_count: 0,
        bodies: Vec::new(),
        lifts: Default::default(),
        probes: Vec::new(),
        unconverged_steps: 3,
        floor_steps: 0,
        solver_warning: Some("3 steps above tolerance: raise solver.multigrid_iterations, now 20".into()),
        pressure_range: Some((-1.25e-3, 3.5e-2)),
        divergence_range: Some(2.5e-3),
        curl_range: Some(4.5),
        residual_history: None,
        series: Default::default(),
        passes: vec![("advect".into(), 1.0), ("pressure".into(), 2.0)],
        adapter: "llvmpipe".into(),
        // known from the start, never filled in later (checked below)
        for_adapter: None,
    };
    settle(&mut h);
    assert_eq!(places(&h), empty, "controls moved when the statistics filled in");
    // steps that stopped above the tolerance are counted on the solver's line, never silent
    assert!(h.query_all_by_label_contains("3 steps above it").next().is_some(), "no warning for steps above the tolerance");
    assert!(h.query_all_by_label_contains("m²").next().is_some(), "total ink without its unit");
    h.state_mut().stats.forget_state();
    settle(&mut h);
    assert_eq!(places(&h), empty, "controls moved when the statistics were forgotten");
    let s = &h.state().stats;
    assert_eq!((s.ink_total, s.div_before, s.pressure_range, s.step), (None, None, None, 0), "forget_state kept the old state's figures");
    assert_eq!(s.adapter, "llvmpipe");
    // what the window chose for a software adapter is said under the adapter, and kept
    h.state_mut().stats.for_adapter = Some("software adapter: dye grid 256×256 (scale 2)".into());
    settle(&mut h);
    assert!(h.query_all_by_label_contains("software adapter: dye grid 256").next().is_some(), "the software adapter's pick is not said");
    h.state_mut().stats.forget_state();
    assert!(h.state().stats.for_adapter.is_some(), "forget_state dropped the adapter's pick");
    assert!(h.query_all_by_label_contains("met every step").next().is_some(), "a fresh state has no steps above the tolerance");
}

#[test]
fn a_costly_grid_is_applied_only_after_apply_anyway() {
    let (scene, _) = Scene::load("plume", &[]).unwrap();
    let mut big = scene.clone();
    (big.grid.nx, big.grid.ny) = (2048, 2048);
    let confirm = ui::Confirm { scene: Box::new(big.clone()), text: "about 4608 ms a step".into() };
    let state = (PanelState { confirm: Some(confirm), ..PanelState::default() }, Vec::<Command>::new());
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 600.0))
        .build_ui_state(|ui, (panel, out): &mut (PanelState, Vec<Command>)| out.extend(ui::confirm_window(ui.ctx(), panel)), state);
    h.run();
    assert!(h.query_by_label_contains("4608 ms").is_some(), "the cost is not shown");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().0.confirm.is_none() && h.state().1.is_empty(), "Cancel applied something or kept asking");
    h.state_mut().0.confirm = Some(ui::Confirm { scene: Box::new(big.clone()), text: "about 4608 ms a step".into() });
    h.run();
    h.get_by_label("Apply anyway").click();
    h.run();
    assert_eq!(h.state().1, vec![Command::ConfigureAnyway(Box::new(big))]);
    assert!(h.state().0.confirm.is_none());
}

#[test]
fn capture_and_file_buttons_are_commands() {
    let mut h = harness();
    for label in ["Screenshot", "Record GIF", "Open scene…", "Open state…", "Save state", "Save scene", "Save series"] {
        h.get_by_label(label).click();
        settle(&mut h);
    }
    let want = [
        Command::Screenshot,
        Command::ToggleRecording,
        Command::OpenDialog(false),
        Command::OpenDialog(true),
        Command::SaveState,
        Command::SaveScene,
        Command::SaveSeries,
    ];
    assert_eq!(h.state().log, want);
    assert!(h.query_by_label_contains("folder: /tmp/captures").is_some(), "the panel does not say where files go");
}

#[test]
fn a_typed_path_opens_with_the_open_button_or_enter() {
    let mut h = harness();
    // nothing typed: Open is greyed out and asks for nothing
    h.get_by_label("Open").click();
    settle(&mut h);
    assert_eq!(h.state().log, vec![], "Open with an empty path asked for something");
    let below = h.get_by_label("Save state").rect();
    let field = h.get_by_label("Open path:");
    field.focus();
    field.type_text("  /tmp/my scenes/a very long folder name that does not fit in the field/vortex.toml ");
    settle(&mut h);
    assert_eq!(h.get_by_label("Save state").rect(), below, "the panel moved when a path was typed");
    assert_eq!(h.state().log, vec![], "typing alone opened something");
    h.get_by_label("Open").click();
    settle(&mut h);
    let want = Command::Open("/tmp/my scenes/a very long folder name that does not fit in the field/vortex.toml".into());
    assert_eq!(h.state().log, vec![want.clone()]);
    // a file manager's address, pasted and opened with Enter
    h.state_mut().panel.open_path.clear();
    settle(&mut h);
    let field = h.get_by_label("Open path:");
    field.focus();
    field.type_text("file:///tmp/saves/plume%20state");
    settle(&mut h);
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().log, vec![want, Command::Open("/tmp/saves/plume state".into())]);
    // its tooltip says what it takes
    h.get_by_label("Open path:").hover();
    h.run();
    assert!(h.query_all_by_label_contains("saved state folder").next().is_some(), "no tooltip on the path field");
}

/// Issue 21: the arrows' length is automatic until unticked, then the scale slider sets it (px per
/// m/s); the spacing is in screen pixels; "keep running when hidden" is a view setting; the edge
/// arrows are greyed with the reason where cells are too small on screen.
#[test]
fn arrow_controls_and_keep_running_when_hidden() {
    let mut h = harness();
    assert!(h.state().view.overlays.arrow_auto, "automatic by default");
    h.get_by_label("automatic arrow length").click();
    settle(&mut h);
    assert!(!h.state().view.overlays.arrow_auto);
    set_slider(&mut h, "arrow scale (px per m/s)", 120.0);
    assert_eq!(h.state().view.overlays.arrow_scale, 120.0);
    set_slider(&mut h, "arrow spacing (px)", 56.0);
    assert_eq!(h.state().view.overlays.arrow_pixels, 56.0);
    h.get_by_label("colour arrows by speed").click();
    settle(&mut h);
    assert!(h.state().view.overlays.arrow_colour_by_speed);
    assert!(!h.state().view.run_hidden);
    h.get_by_label("keep running when hidden").click();
    settle(&mut h);
    assert!(h.state().view.run_hidden);
    // cells 3 px wide on screen: key 4 cannot draw one arrow per edge, and the panel says why
    h.state_mut().panel.canvas = Some((3.0, 128 * 128));
    settle(&mut h);
    let why = h.query_all_by_label_contains("one arrow per edge needs").count();
    assert!(why > 0, "no reason given for the greyed edge arrows");
}

/// The field's width left of the side panel in a 1100-point window, with a recording running or
/// not (`recording`), after a few frames (the panel sizes itself to its widest row).
fn central_width(recording: Option<u32>) -> f32 {
    let (scene, _) = Scene::load("plume", &[]).unwrap();
    let state = (scene, View::default(), PanelState::default(), LiveStats::default(), 0.0f32);
    let mut h = Harness::builder().with_size(egui::vec2(1100.0, 800.0)).build_ui_state(
        move |ui, s: &mut (Scene, View, PanelState, LiveStats, f32)| {
            ui::fonts::install(ui.ctx());
            let capture = ui::CaptureStatus { dir: "/tmp/captures".into(), recording, ..Default::default() };
            let shown = Shown { scene: &s.0, label: "plume", stats: &s.3, paused: false, capture: &capture };
            ui::side_panel(ui, &shown, &mut s.1, &mut s.2);
            s.4 = ui.available_rect_before_wrap().width();
        },
        state,
    );
    for _ in 0..4 {
        h.run();
    }
    h.state().4
}

/// Issue 58: starting a recording (G) turned "Record GIF" into the wider "Stop recording", which
/// widened the panel and shrank the field being recorded by 24 px.
#[test]
fn recording_moves_neither_the_panel_nor_the_field() {
    let (idle, recording) = (central_width(None), central_width(Some(12)));
    assert!(idle > 400.0, "the field has {idle} points");
    assert_eq!(idle, recording, "the field is {idle} points wide, {recording} while recording");
}

/// Issue 58: grid lines, numbers and edge arrows are off unless a scene opens with them; the
/// `teaching` scene opens with what its caption names (edge velocities, key 4, the grid and the
/// numbers), and no other built-in scene with any of them.
#[test]
fn grid_lines_and_numbers_are_off_by_default_and_on_in_teaching() {
    let o = View::default().overlays;
    assert!(!o.grid_lines && !o.numbers && !o.arrows_mac, "{o:?}");
    assert!(o.divergence_auto && o.pressure_auto, "tint ranges follow the field by default");
    for (name, _) in smokebox::config::BUILTIN {
        let (scene, _) = Scene::load(name, &[]).unwrap();
        let mut view = View::default();
        view.overlays.grid_lines = true;
        view.open_scene(&scene);
        let o = &view.overlays;
        if *name == "teaching" {
            assert!(o.grid_lines && o.numbers && o.arrows_mac && !o.arrows_centre, "{name}: {o:?}");
            assert!(scene.display.caption.contains("edge velocities (4)"), "{}", scene.display.caption);
        } else {
            assert!(!o.grid_lines && !o.numbers && !o.arrows_mac, "{name} opens with grid lines or numbers: {o:?}");
        }
    }
    // box and paint do not open as the same empty box
    let (b, p) = (Scene::load("box", &[]).unwrap().0, Scene::load("paint", &[]).unwrap().0);
    assert_ne!(b.display.background, p.display.background);
    assert!(b.display.caption.is_empty() && !p.display.caption.is_empty());
}

/// Issue 58: viscosity off 0 makes each step several times slower; the panel says so under its
/// slider, with the factor measured from the passes' GPU times when there are any.
#[test]
fn viscosity_warns_of_its_cost() {
    use smokebox::ui::scene_settings::{viscosity_cost, viscosity_warning};
    let passes = vec![("advect".to_string(), 4.0), ("viscosity".to_string(), 16.0), ("pressure".to_string(), 4.0)];
    assert_eq!(viscosity_cost(&passes), Some(3.0));
    assert_eq!(viscosity_cost(&passes[..1]), None);
    assert!(viscosity_warning(Some(3.0)).contains("3.0× slower"), "{}", viscosity_warning(Some(3.0)));
    let mut h = harness();
    let warned = |h: &Harness<'static, State>| h.query_all_by_label_contains("viscosity makes each step").next().is_some();
    assert!(!warned(&h), "a warning at ν = 0");
    set_slider(&mut h, "viscosity ν (m²/s)", 0.001);
    assert!(h.state().scene.fluid.viscosity > 0.0);
    assert!(warned(&h), "no warning at ν = {}", h.state().scene.fluid.viscosity);
}

/// The plots' switch (key 9's) opens them: the residual plot once a history is known, a word
/// where none is yet, and the plots over time; closed, none of it.
#[test]
fn the_plots_switch_opens_the_convergence_plot() {
    use smokebox::sim::residual_history::ResidualHistory;
    let mut h = harness();
    let title = "last solve: relative residual";
    assert!(h.query_all_by_label_contains(title).next().is_none(), "plots shown before they were asked for");
    h.get_by_label(ui::panel::PLOTS_LABEL).click();
    settle(&mut h);
    assert!(h.state().view.plots, "the switch did not open the plots");
    assert!(h.query_all_by_label_contains(title).next().is_some(), "no residual plot");
    assert!(h.query_all_by_label_contains("no solve to a tolerance").next().is_some(), "nothing says no history came yet");
    h.state_mut().stats.residual_history =
        Some(ResidualHistory { kind: Some(SolverKind::Multigrid), points: vec![(0, 1.0), (1, 5e-3), (2, 1e-4)] });
    settle(&mut h);
    assert!(h.query_all_by_label_contains("no solve to a tolerance").next().is_none(), "a known history is not plotted");
    for label in ["kinetic energy (J/m)", "max |div| (1/s)", "total ink (m²)"] {
        assert!(h.query_all_by_label_contains(label).next().is_some(), "no plot of {label}");
    }
    // the same switch as key 9
    let mut view = View { plots: true, ..View::default() };
    let mut panel = PanelState::default();
    smokebox::app::input::key(&winit::keyboard::Key::Character("9".into()), false, false, &mut view, &mut panel);
    assert!(!view.plots, "key 9 did not close the plots");
}

#[test]
fn a_body_shows_its_drag_lift_coefficients_and_strouhal_number() {
    let mut h = harness();
    h.state_mut().stats.body_count = 1;
    settle(&mut h);
    assert!(h.query_all_by_label_contains("body 1 drag, lift").next().is_some(), "no line for the body before its figures");
    let report = smokebox::sim::body_loads::BodyReport {
        body: 1,
        force: [0.1234, 0.01],
        drag: 0.1234,
        lift: 0.01,
        length: Some(0.16),
        speed: Some(1.0),
        cd: Some(1.5425),
        cl: Some(0.125),
        strouhal: Some(0.201),
    };
    h.state_mut().stats.bodies = vec![report];
    settle(&mut h);
    for text in ["0.1234, 0.0100 N/m", "1.543, 0.125", "0.201 (literature ≈ 0.2)"] {
        assert!(h.query_all_by_label_contains(text).next().is_some(), "the panel does not show {text}");
    }
}

#[test]
fn a_pinned_probe_shows_its_last_figures() {
    let mut h = harness();
    let mut probe = smokebox::ui::ProbeSeries::new([0.5, 0.25]);
    for k in 0..30 {
        probe.push(0.25 * k as f64, [0.01 * k as f32, -0.2, 1.5, 0.0, 0.75]);
    }
    h.state_mut().stats.probes = vec![probe];
    settle(&mut h);
    for text in ["probe 1 (0.5, 0.25) m", "u 0.29 v -0.2 m/s", "p 1.5 Pa div 0 1/s", "ink 0.75"] {
        assert!(h.query_all_by_label_contains(text).next().is_some(), "the panel does not show {text}");
    }
}

/// The split view's entry: its checkbox does what key V does, its picker sets what the halves
/// differ in, and an untouched entry asks for nothing of the scene.
#[test]
fn the_split_view_entry_turns_it_on_and_picks_the_comparison() {
    use smokebox::config::compare::Comparison;
    let mut h = harness();
    open_section(&mut h, "Split view");
    assert!(!h.state().view.split);
    h.get_by_label(ui::split::SPLIT_LABEL).click();
    settle(&mut h);
    assert!(h.state().view.split, "the checkbox turns the split view on");
    let mut keyed = View::default();
    let key = winit::keyboard::Key::Character("v".into());
    smokebox::app::input::key(&key, false, false, &mut keyed, &mut PanelState::default());
    assert!(keyed.split, "key V does the same");
    h.get_by_label("halves").click();
    settle(&mut h);
    h.get_by_label(Comparison::Solver.title()).click();
    settle(&mut h);
    assert_eq!(h.state().view.compare, Comparison::Solver);
    assert_eq!(h.state().log, vec![], "the split view is a view setting: no command for the scene");
}
