//! The desktop app: a winit `ApplicationHandler` that owns the window, the simulation and egui.
//! Each frame: egui builds the panel (which returns commands), the commands are applied, the
//! brush adds its dabs, the step controller picks the frame's steps, and one encoder carries the
//! steps, the field and egui to the screen. Statistics and timings come back through
//! non-blocking map requests; nothing on this path waits for the GPU.
//!
//! Rooms: window.rs (winit events), input.rs (keys, brush strokes), stepper.rs (running / paused / single step and the
//! step budget), frame.rs (GPU objects, encode, present), commands.rs (what a command does to
//! the scene and the simulation), profile.rs (frame clock, GPU pass times, frame log),
//! numbers.rs (the numbers overlay), fault.rs (a new device after the last one was lost),
//! split.rs (the split view: a second run beside the first).

mod capture;
mod commands;
mod drag;
mod fault;
mod files;
mod frame;
mod idle;
pub mod input;
mod kept_frame;
mod numbers;
mod overlay_notes;
mod plain_paint;
mod profile;
mod rebuild;
#[cfg(target_arch = "wasm32")]
mod selftest;
#[cfg(target_os = "linux")]
mod soft_present;
mod split;
mod stages;
pub mod stepper;
#[cfg(target_arch = "wasm32")]
mod web;
mod window;

use crate::config::{Scene, Source};
use crate::error::{Error, Result};
use crate::platform::{Duration, Instant};
use crate::render::Viewport;
use crate::ui::{LiveStats, PanelState, Shown, View};
use frame::{Drawing, Running, UiInputs};
use input::Pointer;
use profile::{FrameClock, FrameLog, StepRate, lap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use stepper::StepController;
#[cfg(not(target_arch = "wasm32"))]
use winit::event_loop::EventLoop;

#[cfg(target_arch = "wasm32")]
pub use web::run_web;

/// The scene the window opens on when none is given: something alive from the first frame.
pub const DEFAULT_SCENE: &str = "plume";

/// The view settings are written at most this often while they change (and on exit).
const SAVE_EVERY: Duration = Duration::from_secs(2);
/// Frames that only move the hover readout and the brush outline over a still field come at
/// most this often (the mouse reports ~25 moves a second, each a whole frame on a software
/// renderer).
const HOVER_FRAME_GAP: Duration = Duration::from_millis(100);

/// How long the note about an overlay that cannot draw stays on the field.
const OVERLAY_NOTE_FOR: Duration = Duration::from_secs(6);

/// The panel's figures change at most this often while running: readable, and between changes
/// the panel is the same picture, which the window keeps instead of rastering it again (most of
/// a frame on a software renderer).
const PANEL_FIGURES_EVERY: Duration = Duration::from_millis(500);
/// While the flow runs and no input reaches egui, the panel and what is written on the field are
/// built again at this pace, not every frame: the frames between reuse the last egui output (on
/// a CPU adapter egui's pass is about 2 ms of the app's thread, whose work does not overlap the
/// GPU's). Badges, the readout and the figures lag by at most this.
const UI_EVERY: Duration = Duration::from_millis(100);

/// Frames drawn after the last step or change, so the statistics and field values read back
/// from it reach the panel before the app goes idle.
const SETTLE_FRAMES: u32 = 10;

/// Opens the window on a scene, or on a saved state (`load`), and runs until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(scene: Option<&str>, overrides: &[String], load: Option<&std::path::Path>) -> Result<()> {
    let (scene, source, state) = match load {
        Some(dir) => {
            if scene.is_some() || !overrides.is_empty() {
                crate::fail!("--load {}: the state brings its own scene and settings; leave out --scene and --set", dir.display());
            }
            let (scene, source, fields, meta) = files::load_state(dir, &files::window_device_limits()?)?;
            (scene, source, Some((fields, meta)))
        }
        None => {
            let (scene, source) = Scene::load(scene.unwrap_or(DEFAULT_SCENE), overrides)?;
            (scene, source, None)
        }
    };
    scene.validate_geometry(&source)?;
    let recovery = fault::Recovery::from_env()?;
    if cfg!(target_os = "linux") && crate::platform::var("DISPLAY").is_none() && crate::platform::var("WAYLAND_DISPLAY").is_none() {
        crate::fail!(
            "no display: neither DISPLAY nor WAYLAND_DISPLAY is set; the window needs X11 or Wayland (use `smokebox run` to simulate without a window)"
        );
    }
    crate::gpu::quiet_window_system_probe();
    let event_loop = EventLoop::new().map_err(|e| crate::error!("cannot open a window: {e} (is a display available?)"))?;
    let mut app = App::new(scene, source, state, crate::ui::view::config_dir());
    app.recovery = recovery;
    app.wake = Some(event_loop.create_proxy());
    event_loop.run_app(&mut app).map_err(|e| crate::error!("the window's event loop failed: {e}"))?;
    app.save_view(true);
    let error = app.error.take();
    if let Some(r) = &app.running {
        // the driver's own teardown at process exit can take a moment (2 s on lavapipe): the
        // window goes now
        r.window.set_visible(false);
    }
    // Closing must not wait for GPU work still queued (a slow step of a huge grid) nor for a
    // grid still being built: the process ends now and the OS frees the device.
    std::mem::forget(app);
    match error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

pub struct App {
    /// The scene config the simulation runs with: the one source of simulation settings.
    scene: Scene,
    /// The scene as it was loaded or opened, before the panel's edits (Restart as loaded).
    loaded: Scene,
    source: Source,
    view: View,
    /// Where the view is saved (None: not saved), the last saved copy and when.
    config_dir: Option<PathBuf>,
    saved_view: (View, Instant),
    panel: PanelState,
    stats: LiveStats,
    /// What the panel shows of `stats`, and when it next catches up (`PANEL_FIGURES_EVERY`).
    panel_stats: (LiveStats, Instant),
    stepper: StepController,
    clock: FrameClock,
    pointer: Pointer,
    viewport: Viewport,
    running: Option<Running>,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    error: Option<Error>,
    frame_log: Option<FrameLog>,
    /// The state changed outside a step (clear, reset): redraw the field image.
    field_dirty: bool,
    /// Step statistics up to this step describe a state since replaced (clear, reset): ignore.
    stale_stats_until: u64,
    pressure_auto: Option<(f32, f32)>,
    /// The largest |div| of the last read-back: the automatic divergence range.
    divergence_auto: Option<f32>,
    /// The field was fitted with bands for the text above and below it (`field::bands_wanted`).
    text_bands: bool,
    /// The largest |ω| of the last velocity read back (the curl view's auto range).
    curl_auto: Option<f32>,
    /// The tracers view was on last frame (`tracers_frame`).
    tracers_shown: bool,
    /// Ctrl (Cmd on macOS) is held.
    ctrl: bool,
    /// A Quit command was applied: leave the event loop.
    quit: bool,
    /// Frames still to draw before a paused, unchanged app may wait for events.
    settle_frames: u32,
    /// When egui asked for its next frame.
    repaint_at: Option<Instant>,
    /// Input reached egui (or a command was applied) since its last pass.
    ui_input: bool,
    /// The last egui pass's output, which running frames without input reuse (`UI_EVERY`).
    last_ui: Option<frame::LastUi>,
    /// The window is covered (winit's `Occluded`): nothing is drawn or stepped.
    occluded: bool,
    /// The obstacle the move mode is dragging.
    dragged: Option<drag::Dragged>,
    /// The window is unmapped (hidden, minimised), as the platform watches it: the same.
    unmapped: Arc<std::sync::atomic::AtomicBool>,
    /// A new grid being built on a worker thread.
    building: Option<rebuild::Building>,
    /// The saved state the window opens on (`--load`), until the window exists.
    initial_state: Option<(crate::sim::fields::Fields, crate::state_io::Meta)>,
    /// A line about what the last command did, shown over the field.
    note: Option<String>,
    /// A file dialog's answer, when one is open.
    dialog: Option<std::sync::mpsc::Receiver<Option<PathBuf>>>,
    /// Wakes the event loop from another thread (a file dialog's answer).
    wake: Option<winit::event_loop::EventLoopProxy<()>>,
    /// A lost device's recovery (and its test hook).
    recovery: fault::Recovery,
    /// The window's GPU objects while their async set-up runs (filled when it is done).
    started: Arc<Mutex<Option<Result<Running>>>>,
    starting: bool,
    /// The scene as the device made it at start (smaller to fit, lighter on a CPU), and why.
    refitted: Arc<Mutex<Option<rebuild::Adjusted>>>,
    /// What the window picked for its adapter or canvas in place of the scene's defaults.
    picks: rebuild::Picks,
    /// A saved state being read back for Save state (never waited on).
    saving: Option<files::SavingState>,
    /// Steps a second, for the badge on the field.
    step_rate: StepRate,
    /// The cursor moved over a still field (or its readout arrived): one frame is owed, drawn
    /// at most every `HOVER_FRAME_GAP`.
    hover_pending: bool,
    /// When the last frame was drawn.
    last_frame: Instant,
    /// Splats that come by themselves while nobody touches the field (`view.idle_splats`).
    idle: idle::IdleSplats,
    /// The overlays as last drawn, to tell which one was just switched on.
    last_overlays: crate::render::Overlays,
    /// A note on the field about an overlay just switched on that cannot draw here, and until when.
    overlay_note: Option<(String, Instant)>,
    /// The stage view (key T) while it is open.
    stage_view: Option<stages::StageView>,
    /// The web page's URL switches (canvas size, self-test).
    #[cfg(target_arch = "wasm32")]
    page: crate::platform::UrlSetup,
    #[cfg(target_arch = "wasm32")]
    selftest: Option<selftest::SelfTest>,
    /// `?steps=N`: pause at step N and tell the browser test.
    #[cfg(target_arch = "wasm32")]
    run_until: Option<u64>,
    /// When the first step was drawn (`?steps=N` reports the time since).
    #[cfg(target_arch = "wasm32")]
    first_step_at: Option<Instant>,
}

impl App {
    /// The app before its window exists; `config_dir` is where the view settings live (None:
    /// defaults, never saved).
    fn new(
        scene: Scene,
        source: Source,
        initial_state: Option<(crate::sim::fields::Fields, crate::state_io::Meta)>,
        config_dir: Option<PathBuf>,
    ) -> App {
        let mut view = config_dir.as_deref().map(View::load).unwrap_or_default();
        view.open_scene(&scene);
        let mut stepper = StepController::new(scene.display.steps_per_frame as u32);
        // a saved state opens paused: the saved picture stays until Space
        stepper.set_paused(initial_state.is_some());
        App {
            stepper,
            saved_view: (view.clone(), Instant::now()),
            loaded: scene.clone(),
            scene,
            source,
            view,
            config_dir,
            panel: PanelState::default(),
            stats: LiveStats::default(),
            panel_stats: (LiveStats::default(), Instant::now()),
            clock: FrameClock::default(),
            pointer: Pointer::default(),
            viewport: Viewport { x: 0.0, y: 0.0, w: 1.0, h: 1.0 },
            running: None,
            error: None,
            frame_log: FrameLog::from_env(),
            field_dirty: true,
            stale_stats_until: 0,
            pressure_auto: None,
            divergence_auto: None,
            text_bands: false,
            curl_auto: None,
            tracers_shown: false,
            ctrl: false,
            quit: false,
            settle_frames: SETTLE_FRAMES,
            repaint_at: None,
            ui_input: true,
            last_ui: None,
            occluded: false,
            dragged: None,
            unmapped: Arc::default(),
            building: None,
            initial_state,
            note: None,
            dialog: None,
            wake: None,
            recovery: fault::Recovery::default(),
            started: Arc::default(),
            starting: false,
            refitted: Arc::default(),
            picks: rebuild::Picks::default(),
            saving: None,
            step_rate: StepRate::default(),
            hover_pending: false,
            last_frame: Instant::now(),
            idle: idle::IdleSplats::default(),
            last_overlays: crate::render::Overlays::default(),
            overlay_note: None,
            stage_view: None,
            #[cfg(target_arch = "wasm32")]
            page: crate::platform::UrlSetup::default(),
            #[cfg(target_arch = "wasm32")]
            selftest: None,
            #[cfg(target_arch = "wasm32")]
            run_until: None,
            #[cfg(target_arch = "wasm32")]
            first_step_at: None,
        }
    }

    fn title(&self) -> String {
        format!("smokebox — {}", self.source.label())
    }

    /// Writes the view settings when they changed (at most every `SAVE_EVERY` unless `now`).
    fn save_view(&mut self, now: bool) {
        let Some(dir) = &self.config_dir else { return };
        if self.view == self.saved_view.0 || (!now && self.saved_view.1.elapsed() < SAVE_EVERY) {
            return;
        }
        if let Err(e) = self.view.save(dir) {
            crate::platform::say(&e.to_string());
        }
        self.saved_view = (self.view.clone(), Instant::now());
    }

    fn frame(&mut self) {
        #[cfg(target_arch = "wasm32")]
        self.page_frame();
        let frame_dt = self.clock.tick();
        self.last_frame = Instant::now();
        self.hover_pending = false;
        self.sync_stage_view();
        let stage_line = self.stage_line();
        let ranges = self.tint_ranges_in_use();
        let legends = self.overlays_drawn().legends(ranges.pressure, ranges.curl);
        let Some(r) = self.running.as_mut() else { return };
        if r.config.width == 0 || r.config.height == 0 {
            return;
        }
        if let Some(l) = &mut self.frame_log {
            l.start();
        }
        self.stats.fps = self.clock.fps;
        self.stats.frame_ms = self.clock.mean_ms;
        let ppp = r.egui_state.egui_ctx().pixels_per_point();
        // the brush disk under the cursor, in points (from last frame's viewport)
        let cells = self.view.brush.radius(&self.scene) / r.sim.params.h.max(1e-9);
        // (the probe tool pins points and the move tool drags obstacles: no disk)
        let probing = matches!(self.view.brush.mode, crate::ui::view::BrushMode::Probe | crate::ui::view::BrushMode::Move);
        let outline = self
            .pointer
            .pos
            .filter(|_| !probing)
            .map(|p| (egui::pos2(p[0] / ppp, p[1] / ppp), cells * self.viewport.pixels_per_cell(r.sim.nx) / ppp));
        let numbers = numbers::cell_numbers(&self.view.overlays, r.values.latest.as_ref(), self.viewport, ppp);
        let label = self.source.label();
        let capture = crate::ui::CaptureStatus { video: crate::platform::video_recording(), ..r.capture.status.clone() };
        self.panel.canvas = Some((self.viewport.pixels_per_cell(r.sim.nx), r.sim.nx * r.sim.ny));
        let v = self.viewport;
        let field = egui::Rect::from_min_size(egui::pos2(v.x / ppp, v.y / ppp), egui::vec2(v.w / ppp, v.h / ppp));
        // the readout only while the cursor is over the field itself (not the panel, not the margin)
        let over_field = self.pointer.pos.is_some_and(|p| field.contains(egui::pos2(p[0] / ppp, p[1] / ppp)))
            && !r.egui_state.egui_ctx().is_pointer_over_egui();
        if !over_field {
            r.probe.latest = None;
        }
        self.step_rate.update(r.sim.step_index);
        let ppc = self.viewport.pixels_per_cell(r.sim.nx);
        let o = &self.view.overlays;
        let cells = r.sim.nx * r.sim.ny;
        if let Some(note) = overlay_notes::overlay_switched_on(&self.last_overlays, o, ppc, ppp, cells) {
            self.overlay_note = Some((note, Instant::now() + OVERLAY_NOTE_FOR));
        }
        if *o != self.last_overlays {
            // a key toggled an overlay: draw until what it shows (read back) is on screen
            self.settle_frames = SETTLE_FRAMES;
            self.last_overlays = o.clone();
        }
        self.overlay_note = self.overlay_note.take().filter(|(_, until)| Instant::now() < *until);
        let text = crate::ui::field::FieldText {
            badges: crate::ui::field::badges(
                self.stepper.paused(),
                self.step_rate.per_s,
                self.clock.fps,
                capture.recording,
                self.stats.solver_warning.as_deref(),
            ),
            hint: (!self.panel.show_help && self.stats.step < 400)
                .then(|| crate::ui::help::hint(crate::platform::touch_screen()).to_string()),
            caption: stage_line.or_else(|| Some(self.scene.display.caption.clone()).filter(|c| !c.is_empty())),
            notes: self.panel.message.iter().chain(self.overlay_note.as_ref().map(|(n, _)| n)).cloned().collect(),
            legends,
            arrow_key: overlay_notes::arrow_key(o, crate::render::arrow_speed(r.sim.max_speed, r.sim.rms_speed), ppc, ppp),
            readout: r
                .probe
                .latest
                .as_ref()
                .filter(|_| over_field)
                .map(|c| if o.level_picture.is_some() { c.level_text() } else { c.text() }),
            numbers: r.values.latest.as_ref().filter(|_| !numbers.is_empty()).map(|s| match o.level_picture {
                Some(level) if !o.pressure => format!("numbers: {level}, Pa"),
                _ => numbers::label(o.pressure, s.divergence_after),
            }),
            bands: self.text_bands && !self.view.fill_window,
            halves: split::labels(r.split.as_ref(), self.viewport, ppp, self.stats.div_after),
            pins: {
                let (w, h) = (r.sim.nx as f32 * r.sim.params.h, r.sim.ny as f32 * r.sim.params.h);
                let at = |[x, y]: [f32; 2]| egui::pos2(field.left() + x / w * field.width(), field.bottom() - y / h * field.height());
                self.stats.probes.iter().map(|p| at(p.at)).collect()
            },
        };
        // the picture alone, when asked; messages still show
        let text = if self.view.field_text {
            text
        } else {
            crate::ui::field::FieldText { notes: text.notes, halves: text.halves, ..Default::default() }
        };
        // paused, or after a reset (the step went back), the panel catches up at once
        let (panel_stats, due) = &mut self.panel_stats;
        if self.stepper.paused() || Instant::now() >= *due || self.stats.step < panel_stats.step {
            *panel_stats = self.stats.clone();
            *due = Instant::now() + PANEL_FIGURES_EVERY;
        }
        let shown = Shown { scene: &self.scene, label: &label, stats: panel_stats, paused: self.stepper.paused(), capture: &capture };
        let now = Instant::now();
        let reused = self.last_ui.as_ref().filter(|l| !self.ui_input && self.stepper.has_work() && l.fresh(now, UI_EVERY, ppp));
        let mut ui_frame = match reused {
            Some(last) => last.again(now),
            None => {
                let ui_frame =
                    frame::run_ui(r, UiInputs { shown, view: &mut self.view, panel: &mut self.panel, outline, numbers, text, field });
                self.last_ui = Some(frame::LastUi::of(&ui_frame, now));
                self.ui_input = false;
                ui_frame
            }
        };
        lap(&mut self.frame_log, "egui");
        let central = ui_frame.central;
        let area = Viewport { x: central.min.x * ppp, y: central.min.y * ppp, w: central.width() * ppp, h: central.height() * ppp };
        self.viewport = if let Some(s) = r.split.as_mut() {
            let (left, right) = split::fit_halves(r.sim.nx, r.sim.ny, area, ppp);
            (s.viewport, self.text_bands) = (right, false);
            left
        } else if self.view.fill_window {
            Viewport::cover(r.sim.nx, r.sim.ny, area)
        } else {
            let fit = Viewport::fit(r.sim.nx, r.sim.ny, area, 8.0);
            // large cells are read one by one: their text goes above and below them
            self.text_bands = crate::ui::field::bands_wanted(fit.pixels_per_cell(r.sim.nx) / ppp, self.view.field_text);
            if self.text_bands { Viewport::fit(r.sim.nx, r.sim.ny, crate::ui::field::without_bands(area, ppp), 8.0) } else { fit }
        };
        self.repaint_at = ui_frame.repaint_after.map(|d| Instant::now() + d);
        if over_field && !self.stepper.has_work() && !self.pointer.left && !self.pointer.right {
            // over a still field egui asks for a frame after every move: those wait their turn too
            self.repaint_at = self.repaint_at.map(|at| at.max(Instant::now() + HOVER_FRAME_GAP));
        }
        if let Some((_, until)) = &self.overlay_note {
            // the note goes when its time is up, even in a window that is otherwise idle
            self.repaint_at = Some(self.repaint_at.map_or(*until, |at| at.min(*until)));
        }
        let commands = std::mem::take(&mut ui_frame.commands);
        if !commands.is_empty() {
            self.settle_frames = SETTLE_FRAMES;
            // the panel shows what they did in the next frame
            self.ui_input = true;
        }
        for c in commands {
            self.apply(c);
        }
        self.save_view(false);
        self.take_built_state();
        self.sync_split();
        self.enable_div_after_if_shown();
        let radius = self.view.brush.radius(&self.scene);
        let mut splats = self.pointer.splats(&self.view.brush, radius, frame_dt);
        self.tools(&mut splats);
        self.tracers_frame(&mut splats);
        let (w, h) = self.scene.size();
        splats.extend(self.idle.due(self.view.idle_splats, [w, h], radius));
        let drawn = self.overlays_drawn();
        let Some(r) = self.running.as_mut() else { return };
        split::add_splats(&mut r.sim, r.split.as_mut(), splats);
        self.stepper.every_step = self.view.every_step;
        let plan = self.stepper.plan(self.scene.display.steps_per_frame as u32, self.clock.mean_ms);
        (self.stats.steps_requested, self.stats.steps_achieved, self.stats.step_limit) = (plan.requested, plan.steps, plan.limit);
        // the cursor over the field, metres, for the hover readout
        let (nx, ny, h) = (r.sim.nx, r.sim.ny, r.sim.params.h);
        let hover = self
            .pointer
            .pos
            .map(|p| self.viewport.to_metres(p, nx, ny, h))
            .filter(|m| (0.0..nx as f32 * h).contains(&m[0]) && (0.0..ny as f32 * h).contains(&m[1]));
        let drawing = Drawing {
            steps: plan.steps,
            overlays: &drawn,
            background: self.scene.display.background,
            background_alpha: self.view.background_alpha,
            viewport: self.viewport,
            ranges,
            field_dirty: self.field_dirty,
            capture_overlays: self.view.capture_overlays,
            hover,
        };
        r.set_see_through(self.view.background_alpha < 1.0);
        if r.draw(ui_frame, drawing, &mut self.frame_log) {
            self.field_dirty = false;
        }
        #[cfg(target_arch = "wasm32")]
        self.page_frame_drawn();
        self.settle_frames = if plan.steps > 0 { SETTLE_FRAMES } else { self.settle_frames.saturating_sub(1) };
        self.collect();
        if let Some(l) = &mut self.frame_log {
            l.end_frame(plan.steps, self.stats.step);
        }
    }

    /// The overlays as drawn: the divergence range the last read-back's largest |div| where it
    /// is automatic.
    fn overlays_drawn(&self) -> crate::render::Overlays {
        let o = &self.view.overlays;
        match (o.divergence_auto, self.divergence_auto) {
            (true, Some(range)) => crate::render::Overlays { divergence_range: range.max(1e-12), ..o.clone() },
            _ => o.clone(),
        }
    }

    /// |p| and |ω| at full colour: the last read-back's largest with an auto range, else the set
    /// one.
    fn tint_ranges_in_use(&self) -> crate::render::TintRanges {
        let o = &self.view.overlays;
        let pressure = match (o.pressure_auto, self.pressure_auto) {
            (true, Some((lo, hi))) => lo.abs().max(hi.abs()).max(1e-9),
            _ => o.pressure_range,
        };
        let curl = match (o.curl_auto, self.curl_auto) {
            (true, Some(w)) => w,
            _ => o.curl_range,
        };
        crate::render::TintRanges { pressure, curl }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn on_started(&mut self) {}

    /// The page's self-test or `?steps=N` run needs frames.
    fn page_busy(&self) -> bool {
        #[cfg(target_arch = "wasm32")]
        return self.selftest.is_some() || self.run_until.is_some();
        #[cfg(not(target_arch = "wasm32"))]
        return false;
    }

    /// Picks up what the GPU has finished: pass timings, step statistics, field values.
    fn collect(&mut self) {
        let Some(r) = self.running.as_mut() else { return };
        if let Some(p) = r.profiler.as_mut() {
            let _ = p.end_frame();
            if let Some(results) = p.process_finished_frame(r.gpu.queue.get_timestamp_period()) {
                let t = profile::pass_times(results);
                if let Some(ms) = t.step_ms {
                    self.stepper.step_ms = ms;
                }
                if !t.passes.is_empty() {
                    self.stats.passes = t.passes;
                }
            }
        }
        split::after_submit(&mut r.sim, r.split.as_mut());
        r.values.request_map();
        r.probe.request_map();
        let _ = r.gpu.device.poll(wgpu::PollType::Poll);
        let shown = r.probe.latest.clone();
        if r.probe.collect() && r.probe.latest != shown {
            // the value under a resting cursor must reach the screen too
            self.hover_pending = true;
        }
        self.poll_saving();
        let Some(r) = self.running.as_mut() else { return };
        if let Some(line) = r.capture.collect() {
            self.panel.message = Some(line);
        }
        if r.values.collect() {
            self.pressure_auto = r.values.latest.as_ref().and_then(|s| s.pressure_range());
            self.divergence_auto = r.values.latest.as_ref().and_then(|s| s.divergence_range());
            self.curl_auto = r.values.curl_max;
        }
        // the range is shown only while something keeps it fresh
        self.stats.pressure_range = if r.reading_values { self.pressure_auto } else { None };
        self.stats.divergence_range = if r.reading_values { self.divergence_auto } else { None };
        self.stats.curl_range = if r.reading_values { self.curl_auto } else { None };
        let now = r.sim.step_index;
        // (the second run's figures at the same point as the first's: both halves size their
        // sub-steps from the same step's speeds)
        r.split.iter_mut().for_each(|s| s.pair.collect());
        let fresh: Vec<_> = r.sim.readback.collect().into_iter().filter(|s| s.step > self.stale_stats_until && s.step <= now).collect();
        for s in &fresh {
            self.stats.series.push(crate::ui::plots::Sample {
                time: s.time,
                kinetic_energy: s.kinetic_energy,
                div_before: s.div_max_before,
                div_after: s.div_max_after,
                ink: s.ink_total,
            });
        }
        if let Some(s) = fresh.last() {
            self.stats.div_before = Some(s.div_max_before);
            self.stats.div_after = Some(s.div_max_after);
            self.stats.ink_total = Some(s.ink_total);
            let bodies = &r.sim.stages.body_loads.bodies;
            self.stats.bodies = self.stats.lifts.report(bodies, &r.sim.params, s.time, &s.bodies);
            for (series, values) in self.stats.probes.iter_mut().zip(&s.probes) {
                series.push(s.time, *values);
            }
        }
        // every unit checked, and the histories read back, only while the plots are open
        r.sim.stages.solvers.set_trace(self.view.plots);
        self.stats.residual_history = if self.view.plots { r.sim.stages.solvers.residual_history() } else { None };
        self.stats.step = now;
        self.stats.body_count = r.sim.stages.body_loads.bodies.bodies.len();
        // the simulation samples the probes the panel lists (pinned, cleared, a new state)
        let pinned: Vec<[f32; 2]> = self.stats.probes.iter().map(|p| p.at).collect();
        if r.sim.stages.probes.points != pinned && r.sim.set_probes(&pinned).is_err() {
            self.stats.probes.clear();
        }
        self.stats.unconverged_steps = r.sim.stages.solvers.failed_steps();
        self.stats.floor_steps = r.sim.stages.solvers.floor_steps();
        self.stats.solver_warning = crate::ui::field::solver_warning(self.stats.unconverged_steps, self.stats.floor_steps, &r.sim.solver);
        self.stats.substeps = r.sim.last_plan.substeps;
        if let Some(w) = r.sim.take_warning() {
            // over the field, not in the panel, which must not jump
            self.panel.message = Some(w.clone());
            self.stats.warning = Some(w);
        }
        self.stats.time = r.sim.time;
        lap(&mut self.frame_log, "poll");
    }

    /// Whether the next frame must come without waiting for an event: the simulation runs, a
    /// stroke is being painted, or something changed and has not settled on screen.
    fn wants_frames(&self) -> bool {
        !self.hidden()
            && (self.stepper.has_work()
                || self.pointer.left
                || self.pointer.right
                || self.pointer.hovering
                || self.field_dirty
                || self.settle_frames > 0
                || self.building.is_some()
                || self.saving.is_some()
                || self.page_busy()
                || self.running.as_ref().is_some_and(|r| r.gpu.fault.is_set())
                || self.running.as_ref().is_some_and(|r| r.capture.busy()))
    }

    /// The window cannot be seen (covered, unmapped, minimised) and the view does not ask to keep
    /// running then: no frames, no steps.
    fn hidden(&self) -> bool {
        (self.occluded || self.unmapped.load(std::sync::atomic::Ordering::Relaxed)) && !self.view.run_hidden
    }

    /// The divergence overlay "after projection" needs a spare buffer the step fills.
    fn enable_div_after_if_shown(&mut self) {
        let Some(r) = self.running.as_mut() else { return };
        let o = &self.view.overlays;
        // the numbers and the readout show it too, tint or not
        if (o.divergence || o.numbers) && o.divergence_after && r.sim.div_after.is_none() {
            match r.sim.enable_div_after() {
                Ok(()) => r.attach_buffers(),
                Err(e) => crate::platform::say(&e.to_string()),
            }
        }
    }
}
