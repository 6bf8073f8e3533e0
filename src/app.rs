//! The desktop app: a winit `ApplicationHandler` that owns the window, the wgpu surface, the
//! simulation and egui. Each frame: egui builds the panel, commands and brush strokes are applied,
//! a budget of fixed-`dt` steps is encoded (fewer when frames run long, so the UI never freezes),
//! the field and overlays are drawn, then egui on top. Statistics and timings come back through
//! non-blocking map requests; nothing on this path waits for the GPU.

use crate::error::{Error, Result};
use crate::gpu::{Gpu, NO_ADAPTER_HELP, device_descriptor, instance_descriptor};
use crate::render::readback::FieldReadback;
use crate::render::{self, CachedField, RenderParams, Viewport};
use crate::scene::{Scene, Source};
use crate::sim::Simulation;
use crate::sim::params::{SPLAT_ADD, SPLAT_ERASE_SOLID, SPLAT_PAINT_SOLID, Splat};
use crate::ui::{self, BrushMode, Command, LiveStats, Settings};
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

/// The scene the window opens on when none is given: something alive from the first frame.
pub const DEFAULT_SCENE: &str = "plume";

/// Cells at least this many points wide get their value printed (the numbers overlay).
const NUMBERS_MIN_POINTS: f32 = 34.0;
/// Frames between field read-backs (pressure range, numbers).
const READBACK_EVERY: u32 = 6;

/// Frames slower than this make the app take fewer simulation steps per frame.
const FRAME_BUDGET_MS: f32 = 1000.0 / 30.0;
/// ...but never less than one step a frame while a step costs less than this much GPU time: when
/// drawing alone is slow (a loaded machine, a software renderer) the flow must still move.
const STEP_FLOOR_MS: f32 = 100.0;

/// Opens the window on a scene and runs until it is closed.
pub fn run(scene: Option<&str>, overrides: &[String]) -> Result<()> {
    let name = scene.unwrap_or(DEFAULT_SCENE).to_string();
    let (scene, source) = Scene::load(&name, overrides)?;
    scene.validate_geometry(&source)?;
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        crate::fail!(
            "no display: neither DISPLAY nor WAYLAND_DISPLAY is set; the window needs X11 or Wayland (use `smokebox run` to simulate without a window)"
        );
    }
    crate::gpu::quiet_window_system_probe();
    let event_loop = EventLoop::new().map_err(|e| crate::error!("cannot open a window: {e} (is a display available?)"))?;
    let label = match &source {
        Source::Builtin(n) => n.to_string(),
        Source::File(p) => p.display().to_string(),
    };
    let mut app = App::new(scene, source, label);
    event_loop.run_app(&mut app).map_err(|e| crate::error!("the window's event loop failed: {e}"))?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// GPU objects that exist while the window does.
struct Running {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    field: CachedField,
    values: FieldReadback,
    sim: Simulation,
    profiler: Option<wgpu_profiler::GpuProfiler>,
}

#[derive(Default)]
struct Pointer {
    /// Cursor in physical pixels.
    pos: Option<[f32; 2]>,
    left: bool,
    right: bool,
    /// Cursor positions (metres) since the last frame, while a button is held.
    path: Vec<[f32; 2]>,
    /// Last position painted, metres.
    last: Option<[f32; 2]>,
}

pub struct App {
    scene: Scene,
    source: Source,
    settings: Settings,
    stats: LiveStats,
    running: Option<Running>,
    error: Option<Error>,
    pointer: Pointer,
    viewport: Viewport,
    last_frame: Option<Instant>,
    frame_ms_avg: f32,
    /// Steps per frame the frame budget allows (fractional: 0.5 is a step every other frame).
    step_budget: f32,
    /// GPU time of one step, from the timestamp queries (0 until known).
    step_ms: f32,
    step_credit: f32,
    single_steps: u32,
    fps_window: (Instant, u32),
    pressure_auto: Option<(f32, f32)>,
    /// CPU time of each part of the frame, when SMOKEBOX_FRAME_LOG is set.
    frame_log: Option<FrameLog>,
    /// The state changed outside a step (clear ink): redraw the field image.
    field_dirty: bool,
}

/// CPU milliseconds spent in each part of the frame, summed and printed every 60 frames.
#[derive(Default)]
struct FrameLog {
    parts: Vec<(&'static str, f64)>,
    frames: u32,
    mark: Option<Instant>,
}

impl FrameLog {
    fn start(&mut self) {
        self.mark = Some(Instant::now());
    }
    fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        let ms = self.mark.map_or(0.0, |m| now.duration_since(m).as_secs_f64() * 1e3);
        self.mark = Some(now);
        match self.parts.iter_mut().find(|(n, _)| *n == name) {
            Some(p) => p.1 += ms,
            None => self.parts.push((name, ms)),
        }
    }
    fn end_frame(&mut self, steps: u32) {
        self.frames += 1;
        if self.frames == 60 {
            let parts: Vec<String> = self.parts.iter().map(|(n, ms)| format!("{n} {:.2}", ms / 60.0)).collect();
            eprintln!("frame ms (cpu, mean of 60): {} | steps {steps}", parts.join(", "));
            self.parts.clear();
            self.frames = 0;
        }
    }
}

fn lap(log: &mut Option<FrameLog>, name: &'static str) {
    if let Some(l) = log {
        l.lap(name);
    }
}

impl App {
    fn new(scene: Scene, source: Source, label: String) -> App {
        let settings = Settings::from_scene(&label, &scene);
        App {
            step_budget: settings.steps_per_frame as f32,
            step_ms: 0.0,
            scene,
            source,
            settings,
            stats: LiveStats::default(),
            running: None,
            error: None,
            pointer: Pointer::default(),
            viewport: Viewport { x: 0.0, y: 0.0, w: 1.0, h: 1.0 },
            last_frame: None,
            frame_ms_avg: 16.0,
            step_credit: 0.0,
            single_steps: 0,
            fps_window: (Instant::now(), 0),
            pressure_auto: None,
            field_dirty: true,
            frame_log: std::env::var_os("SMOKEBOX_FRAME_LOG").map(|_| FrameLog::default()),
        }
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<Running> {
        let attrs = Window::default_attributes()
            .with_title(format!("smokebox — {}", self.settings.scene))
            .with_inner_size(winit::dpi::LogicalSize::new(1100.0, 760.0));
        let window = Arc::new(event_loop.create_window(attrs).map_err(|e| crate::error!("cannot create the window: {e}"))?);
        let mut desc = instance_descriptor();
        desc.display = Some(Box::new(event_loop.owned_display_handle()));
        let instance = wgpu::Instance::new(desc);
        let surface = instance.create_surface(window.clone()).map_err(|e| crate::error!("cannot draw into the window: {e}"))?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
            ..Default::default()
        }))
        .map_err(|_| Error(NO_ADAPTER_HELP.into()))?;
        let _ = device_descriptor;
        let gpu = Gpu::with_adapter(instance, adapter)?;
        let caps = surface.get_capabilities(&gpu.adapter);
        // the field shader writes gamma-encoded colour, as egui does: prefer a non-sRGB format
        let format = crate::gpu::surface_format(&caps.formats)?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| crate::error!("this GPU adapter cannot draw into the window"))?;
        config.format = format;
        // vsync keeps the simulation's pace (steps per frame) sane on fast GPUs; on lavapipe the
        // present mode made no measurable difference (the frame time is raster work)
        config.present_mode = wgpu::PresentMode::AutoVsync;
        config.desired_maximum_frame_latency = 2;
        surface.configure(&gpu.device, &config);
        let egui_ctx = egui::Context::default();
        let egui_state =
            egui_winit::State::new(egui_ctx, egui::ViewportId::ROOT, &window, Some(window.scale_factor() as f32), window.theme(), None);
        let egui_renderer = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        let sim = self.new_sim(&gpu)?;
        let mut field = CachedField::new(&gpu.device, format);
        field.attach(&sim);
        let values = FieldReadback::new(&gpu.device, sim.nx, sim.ny);
        let profiler = if gpu.has_timestamps() {
            wgpu_profiler::GpuProfiler::new(&gpu.device, wgpu_profiler::GpuProfilerSettings::default()).ok()
        } else {
            None
        };
        self.stats.adapter = gpu.describe();
        Ok(Running { window, surface, config, gpu, egui_state, egui_renderer, field, values, sim, profiler })
    }

    /// A fresh simulation of the scene at the grid size in the settings.
    fn new_sim(&mut self, gpu: &Gpu) -> Result<Simulation> {
        let mut scene = self.scene.clone();
        if scene.grid.nx != self.settings.nx as i64 || scene.grid.ny != self.settings.ny as i64 {
            // keep the domain's width: finer or coarser cells
            let width = scene.grid.nx as f32 * scene.grid.cell_size;
            scene.grid.nx = self.settings.nx as i64;
            scene.grid.ny = self.settings.ny as i64;
            scene.grid.cell_size = width / scene.grid.nx as f32;
            self.settings.cell_size = scene.grid.cell_size;
        }
        crate::sim::check_fits(&gpu.device.limits(), scene.grid.nx as usize, scene.grid.ny as usize)?;
        let mut sim = Simulation::from_scene(gpu, &scene, &self.source)?;
        self.settings.apply(&mut sim);
        Ok(sim)
    }

    fn command(&mut self, c: Command) {
        self.field_dirty = true;
        let result = match c {
            Command::Step => {
                self.single_steps += 1;
                Ok(())
            }
            Command::Reset | Command::Regrid => self.rebuild(),
            Command::ClearInk => {
                if let Some(r) = &self.running {
                    let mut enc = r.gpu.device.create_command_encoder(&Default::default());
                    enc.clear_buffer(&r.sim.buffers.ink, 0, None);
                    enc.clear_buffer(&r.sim.buffers.density, 0, None);
                    r.gpu.queue.submit([enc.finish()]);
                }
                Ok(())
            }
            Command::LoadScene(name) => Scene::load(&name, &[]).and_then(|(scene, source)| {
                let paused = self.settings.paused;
                let overlays_show_panel = (self.settings.show_panel, self.settings.show_help);
                self.settings = Settings::from_scene(&name, &scene);
                self.settings.paused = paused;
                (self.settings.show_panel, self.settings.show_help) = overlays_show_panel;
                self.scene = scene;
                self.source = source;
                if let Some(r) = &self.running {
                    r.window.set_title(&format!("smokebox — {name}"));
                }
                self.rebuild()
            }),
        };
        if let Err(e) = result {
            // bad input from the panel (e.g. a grid too big): keep running, say why
            eprintln!("smokebox: {e}");
        }
    }

    fn rebuild(&mut self) -> Result<()> {
        let Some(mut r) = self.running.take() else { return Ok(()) };
        let out = self.new_sim(&r.gpu).map(|sim| {
            r.field.attach(&sim);
            r.values = FieldReadback::new(&sim.device, sim.nx, sim.ny);
            r.sim = sim;
        });
        self.running = Some(r);
        self.pointer.last = None;
        out
    }

    fn key(&mut self, key: &Key) {
        let s = &mut self.settings;
        match key {
            Key::Named(NamedKey::Space) => s.paused ^= true,
            Key::Named(NamedKey::ArrowRight) => self.single_steps += 1,
            Key::Named(NamedKey::F1) => s.show_help ^= true,
            Key::Named(NamedKey::Escape) => s.show_help = false,
            Key::Character(c) => match c.as_str() {
                "s" | "S" => self.single_steps += 1,
                "r" | "R" => self.command(Command::Reset),
                "c" | "C" => self.command(Command::ClearInk),
                "h" | "H" => s.show_panel ^= true,
                "?" => s.show_help ^= true,
                d => {
                    if let Ok(n) = d.parse::<u32>() {
                        ui::toggle_overlay(&mut s.overlays, n);
                    }
                }
            },
            _ => {}
        }
    }

    /// Brush dabs along the path the cursor took since the last frame (a continuous stroke).
    fn brush_splats(&mut self, frame_dt: f32) -> Vec<Splat> {
        let p = &mut self.pointer;
        if !(p.left || p.right) {
            p.path.clear();
            p.last = None;
            return Vec::new();
        }
        let b = &self.settings.brush;
        let stir_only = p.right || b.mode == BrushMode::Stir;
        let r = b.radius.max(1e-6);
        let mut out = Vec::new();
        let wall = (b.mode == BrushMode::Wall).then_some(if p.right { SPLAT_ERASE_SOLID } else { SPLAT_PAINT_SOLID });
        let mut dab = |x: f32, y: f32, vel: [f32; 2], weight: f32| {
            if let Some(mode) = wall {
                out.push(Splat { x, y, radius: r, mode, ..Splat::default() });
                return;
            }
            let ink = if stir_only { 0.0 } else { b.amount * weight };
            let (vx, vy) = if b.mode == BrushMode::Ink { (0.0, 0.0) } else { (vel[0] * b.strength * weight, vel[1] * b.strength * weight) };
            out.push(Splat {
                x,
                y,
                radius: r,
                mode: SPLAT_ADD,
                vx,
                vy,
                density: if stir_only { 0.0 } else { b.density * weight },
                ink_r: ink * b.colour[0],
                ink_g: ink * b.colour[1],
                ink_b: ink * b.colour[2],
                ..Splat::default()
            });
        };
        let path = std::mem::take(&mut p.path);
        let Some(mut prev) = p.last.or_else(|| path.first().copied()).or(p.last) else { return out };
        let Some(&end) = path.last() else {
            // held still: a gentle dab where the cursor rests
            dab(prev[0], prev[1], [0.0, 0.0], 0.25);
            return out;
        };
        let total = [end[0] - prev[0], end[1] - prev[1]];
        let vel = [total[0] / frame_dt.max(1e-3), total[1] / frame_dt.max(1e-3)];
        let speed = (vel[0] * vel[0] + vel[1] * vel[1]).sqrt();
        let vel = if speed > 20.0 { [vel[0] * 20.0 / speed, vel[1] * 20.0 / speed] } else { vel };
        let length: f32 = path.iter().scan(prev, |a, q| Some(((q[0] - a[0]).hypot(q[1] - a[1]), *a = *q).0)).sum();
        // dabs half a radius apart, at most ~120 a frame
        let spacing = (0.5 * r).max(length / 120.0);
        let weight = (spacing / r).min(1.0);
        if length < 1e-6 {
            dab(end[0], end[1], [0.0, 0.0], 0.25);
        }
        let mut carry = 0.0f32;
        for q in path {
            let seg = (q[0] - prev[0]).hypot(q[1] - prev[1]);
            let mut t = spacing - carry;
            while t <= seg {
                let f = t / seg;
                dab(prev[0] + f * (q[0] - prev[0]), prev[1] + f * (q[1] - prev[1]), vel, weight);
                t += spacing;
            }
            carry = seg - (t - spacing);
            prev = q;
        }
        p.last = Some(end);
        out
    }

    fn frame(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let frame_dt = self.last_frame.map_or(1.0 / 60.0, |t| now.duration_since(t).as_secs_f32());
        self.last_frame = Some(now);
        let ms = frame_dt * 1e3;
        self.frame_ms_avg = 0.9 * self.frame_ms_avg + 0.1 * ms;
        self.fps_window.1 += 1;
        let since = now.duration_since(self.fps_window.0).as_secs_f32();
        if since >= 0.5 {
            self.stats.fps = self.fps_window.1 as f32 / since;
            self.fps_window = (now, 0);
        }
        self.stats.frame_ms = self.frame_ms_avg;
        // adapt the steps per frame to the frame budget
        let want = self.settings.steps_per_frame as f32;
        let floor = (STEP_FLOOR_MS / self.step_ms.max(1e-3)).clamp(0.25, 1.0);
        if self.frame_ms_avg > FRAME_BUDGET_MS * 1.15 {
            self.step_budget = (self.step_budget * 0.9).max(floor);
        } else if self.frame_ms_avg < FRAME_BUDGET_MS * 0.85 {
            self.step_budget = (self.step_budget + 0.1).min(want);
        }
        self.step_budget = self.step_budget.max(floor).min(want);

        let Some(r) = self.running.as_mut() else { return };
        if r.config.width == 0 || r.config.height == 0 {
            return;
        }
        if let Some(l) = &mut self.frame_log {
            l.start();
        }
        // egui: panel, help, brush outline
        let raw = r.egui_state.take_egui_input(&r.window);
        let ctx = r.egui_state.egui_ctx().clone();
        let ppp = ctx.pixels_per_point();
        let mut commands = Vec::new();
        let mut central = egui::Rect::NOTHING;
        // the brush disk under the cursor, in points (from last frame's viewport)
        let cells = self.settings.brush.radius / r.sim.params.h.max(1e-9);
        let outline = self.pointer.pos.map(|p| {
            let centre = egui::pos2(p[0] / ppp, p[1] / ppp);
            (centre, cells * self.viewport.pixels_per_cell(r.sim.nx) / ppp)
        });
        let numbers = cell_numbers(&self.settings.overlays, r.values.latest.as_ref(), self.viewport, ppp);
        let settings = &mut self.settings;
        let stats = &self.stats;
        let full = ctx.run_ui(raw, |ui| {
            for (pos, text, size) in &numbers {
                ui.painter().text(*pos, egui::Align2::CENTER_CENTER, text, egui::FontId::monospace(*size), egui::Color32::BLACK);
            }
            commands = ui::side_panel(ui, settings, stats);
            central = ui.available_rect_before_wrap();
            if let Some((centre, radius)) = outline
                && central.contains(centre)
            {
                let painter = ui.painter().with_clip_rect(central);
                painter.circle_stroke(centre, radius, egui::Stroke::new(1.0, egui::Color32::from_white_alpha(150)));
            }
            ui::help_window(ui.ctx(), settings);
            if !settings.show_help && stats.step < 400 {
                ui.painter().text(
                    central.left_top() + egui::vec2(12.0, 10.0),
                    egui::Align2::LEFT_TOP,
                    "Drag with the mouse to paint smoke; right-drag stirs. F1: help.",
                    egui::FontId::proportional(15.0),
                    egui::Color32::from_gray(200),
                );
            }
        });
        r.egui_state.handle_platform_output(&r.window, full.platform_output);
        lap(&mut self.frame_log, "egui");
        self.viewport = Viewport::fit(
            r.sim.nx,
            r.sim.ny,
            Viewport { x: central.min.x * ppp, y: central.min.y * ppp, w: central.width() * ppp, h: central.height() * ppp },
            8.0,
        );
        for c in commands {
            self.command(c);
        }
        let splats = self.brush_splats(frame_dt);
        let Some(r) = self.running.as_mut() else { return };
        self.settings.apply(&mut r.sim);
        let o = &self.settings.overlays;
        if o.divergence && o.divergence_after && r.sim.div_after.is_none() {
            match r.sim.enable_div_after() {
                Ok(()) => r.field.attach(&r.sim),
                Err(e) => eprintln!("smokebox: {e}"),
            }
        }
        for s in splats {
            r.sim.add_splat(s);
        }

        let frame = match r.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                r.surface.configure(&r.gpu.device, &r.config);
                return;
            }
            _ => return,
        };
        lap(&mut self.frame_log, "acquire");
        let view = frame.texture.create_view(&Default::default());
        let device = r.gpu.device.clone();
        let queue = r.gpu.queue.clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });

        let steps = if self.settings.paused {
            std::mem::take(&mut self.single_steps).min(16)
        } else {
            self.single_steps = 0;
            self.step_credit += self.step_budget;
            let n = self.step_credit.floor();
            self.step_credit -= n;
            n as u32
        };
        for k in 0..steps {
            let last = k + 1 == steps;
            r.sim.encode_step(&mut encoder, last, r.profiler.as_ref());
            if last {
                let (step, time) = (r.sim.step_index, r.sim.time);
                r.sim.readback.encode_copy(&mut encoder, &r.sim.buffers.stats, step, time);
            }
        }
        self.stats.steps_last_frame = steps;
        self.stats.substeps = r.sim.last_plan.substeps;
        if let Some(w) = r.sim.take_warning() {
            self.stats.warning = Some(w);
        }
        lap(&mut self.frame_log, "encode steps");

        let o = &self.settings.overlays;
        let ppc = self.viewport.pixels_per_cell(r.sim.nx);
        let wants_numbers = o.numbers && ppc / ppp >= NUMBERS_MIN_POINTS && (o.pressure || o.divergence);
        if (o.pressure && o.pressure_auto) || wants_numbers {
            let div = match (&r.sim.div_after, o.divergence_after) {
                (Some(d), true) => &d.buffer,
                _ => &r.sim.buffers.divergence,
            };
            r.values.encode(&mut encoder, &r.sim.buffers.p, div, READBACK_EVERY);
        }
        let p_range = match (o.pressure_auto, self.pressure_auto) {
            (true, Some((lo, hi))) => lo.abs().max(hi.abs()).max(1e-9),
            _ => o.pressure_range,
        };
        let render_params = RenderParams::new(&r.sim, o, self.settings.background, ppc, p_range);
        let changed = steps > 0 || std::mem::take(&mut self.field_dirty);
        r.field.update(&device, &queue, &mut encoder, &render_params, self.viewport, changed);
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: [r.config.width, r.config.height], pixels_per_point: ppp };
        let paint = ctx.tessellate(full.shapes, ppp);
        for (id, deltas) in &full.textures_delta.set {
            for delta in deltas {
                r.egui_renderer.update_texture(&device, &queue, *id, delta);
            }
        }
        lap(&mut self.frame_log, "tessellate");
        let user_buffers = r.egui_renderer.update_buffers(&device, &queue, &mut encoder, &paint, &screen);
        {
            let mut pass = render::begin_clear_pass(&mut encoder, &view, render::CLEAR).forget_lifetime();
            r.field.draw(&mut pass, self.viewport);
            pass.set_viewport(0.0, 0.0, r.config.width as f32, r.config.height as f32, 0.0, 1.0);
            r.egui_renderer.render(&mut pass, &paint, &screen);
        }
        for id in &full.textures_delta.free {
            r.egui_renderer.free_texture(id);
        }
        if let Some(p) = r.profiler.as_mut() {
            p.resolve_queries(&mut encoder);
        }
        lap(&mut self.frame_log, "encode draw");
        queue.submit(user_buffers.into_iter().chain([encoder.finish()]));
        lap(&mut self.frame_log, "submit");
        r.window.pre_present_notify();
        queue.present(frame);
        lap(&mut self.frame_log, "present");
        if let Some(p) = r.profiler.as_mut() {
            let _ = p.end_frame();
            if let Some(results) = p.process_finished_frame(queue.get_timestamp_period()) {
                // every step advects once: that counts the steps in the timed frame
                let steps = results.iter().filter(|q| q.label == "advect").count();
                let mut passes: Vec<(String, f32)> = Vec::new();
                for q in results {
                    let Some(t) = q.time else { continue };
                    let ms = ((t.end - t.start) * 1e3) as f32;
                    match passes.iter_mut().find(|(n, _)| *n == q.label) {
                        Some(e) => e.1 += ms,
                        None => passes.push((q.label, ms)),
                    }
                }
                if steps > 0 {
                    self.step_ms = passes.iter().map(|(_, ms)| ms).sum::<f32>() / steps as f32;
                }
                if !passes.is_empty() {
                    self.stats.passes = passes;
                }
            }
        }
        r.sim.after_submit();
        r.values.request_map();
        let _ = device.poll(wgpu::PollType::Poll);
        if r.values.collect() {
            let range = r.values.latest.as_ref().and_then(|s| s.pressure_range());
            self.pressure_auto = range;
            self.stats.pressure_range = range;
        }
        if let Some(s) = r.sim.readback.collect().last() {
            self.stats.div_before = s.div_max_before;
            self.stats.div_after = s.div_max_after;
            self.stats.ink_total = s.ink_total;
        }
        self.stats.step = r.sim.step_index;
        lap(&mut self.frame_log, "poll");
        if let Some(l) = &mut self.frame_log {
            l.end_frame(steps);
        }
        let _ = event_loop;
        r.window.request_redraw();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match self.start(event_loop) {
            Ok(r) => {
                r.window.request_redraw();
                self.running = Some(r);
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(r) = self.running.as_mut() else { return };
        let consumed = r.egui_state.on_window_event(&r.window, &event).consumed;
        let over_ui = r.egui_state.egui_ctx().egui_wants_pointer_input() || r.egui_state.egui_ctx().is_pointer_over_egui();
        let wants_keys = r.egui_state.egui_ctx().egui_wants_keyboard_input();
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                r.config.width = size.width;
                r.config.height = size.height;
                if size.width > 0 && size.height > 0 {
                    r.surface.configure(&r.gpu.device, &r.config);
                }
                r.window.request_redraw();
            }
            WindowEvent::ScaleFactorChanged { .. } => r.window.request_redraw(),
            WindowEvent::RedrawRequested => self.frame(event_loop),
            WindowEvent::CursorMoved { position, .. } => {
                let px = [position.x as f32, position.y as f32];
                self.pointer.pos = Some(px);
                if self.pointer.left || self.pointer.right {
                    let m = self.viewport.to_metres(px, r.sim.nx, r.sim.ny, r.sim.params.h);
                    self.pointer.path.push(m);
                }
            }
            WindowEvent::CursorLeft { .. } => self.pointer.pos = None,
            WindowEvent::MouseInput { state, button, .. } => {
                let down = state == ElementState::Pressed;
                if down && (consumed || over_ui) {
                    return;
                }
                match button {
                    MouseButton::Left => self.pointer.left = down,
                    MouseButton::Right => self.pointer.right = down,
                    _ => {}
                }
                if down && let Some(px) = self.pointer.pos {
                    let m = self.viewport.to_metres(px, r.sim.nx, r.sim.ny, r.sim.params.h);
                    self.pointer.last = Some(m);
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !over_ui => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                self.settings.brush.radius = (self.settings.brush.radius * 1.1f32.powf(lines)).clamp(0.002, 0.5);
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed && !wants_keys && !consumed => {
                self.key(&event.logical_key);
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(r) = &self.running {
            r.window.request_redraw();
        }
    }
}

/// The value of the shown field (pressure, else divergence) in each cell when cells are large:
/// (centre in points, text, font size).
fn cell_numbers(o: &render::Overlays, snap: Option<&render::readback::Snapshot>, vp: Viewport, ppp: f32) -> Vec<(egui::Pos2, String, f32)> {
    let Some(snap) = snap else { return Vec::new() };
    let cell_points = vp.pixels_per_cell(snap.nx) / ppp;
    if !o.numbers || cell_points < NUMBERS_MIN_POINTS || snap.nx * snap.ny > 4096 {
        return Vec::new();
    }
    let values = if o.pressure {
        &snap.p
    } else if o.divergence {
        &snap.divergence
    } else {
        return Vec::new();
    };
    let size = (cell_points * 0.2).min(13.0);
    let mut out = Vec::with_capacity(values.len());
    for j in 0..snap.ny {
        for i in 0..snap.nx {
            let px = vp.from_cells([i as f32 + 0.5, j as f32 + 0.5], snap.nx, snap.ny);
            out.push((egui::pos2(px[0] / ppp, px[1] / ppp), compact(values[j * snap.nx + i]), size));
        }
    }
    out
}

/// A number in at most ~6 characters: 0.00 style for ordinary magnitudes, else 1.2e-5.
fn compact(v: f32) -> String {
    if v == 0.0 || (0.01..1000.0).contains(&v.abs()) { format!("{v:.2}") } else { format!("{v:.1e}") }
}
