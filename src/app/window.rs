//! The winit side: the window's events, and when to draw. Paused and unchanged, the loop
//! sleeps until an event (or egui's next animation frame), so an idle window costs next to
//! nothing.

use super::frame::Running;
use super::{App, input, rebuild, split};
use crate::ui;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, StartCause, TouchPhase, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::window::WindowId;

impl App {
    /// Takes the window's GPU objects once their async set-up is done.
    fn take_started(&mut self, event_loop: &ActiveEventLoop) {
        let Some(started) = self.started.lock().ok().and_then(|mut s| s.take()) else { return };
        self.starting = false;
        match started {
            Ok(r) => {
                self.stats.adapter = r.gpu.describe();
                let wake = self.wake.clone();
                self.unmapped = crate::platform::watch_unmapped(&r.window, move || {
                    if let Some(w) = &wake {
                        let _ = w.send_event(());
                    }
                });
                r.window.request_redraw();
                self.running = Some(r);
                if let Some(a) = self.refitted.lock().ok().and_then(|mut s| s.take()) {
                    self.scene = a.scene;
                    self.stats.for_adapter = a.for_adapter;
                    self.picks = a.picks;
                    if let Some(line) = a.fitted {
                        crate::platform::say(&line);
                        self.panel.message = Some(line);
                    }
                }
                self.on_started();
            }
            Err(e) => self.failed_to_start(event_loop, e),
        }
    }

    /// The window or its device could not be made: natively the app ends with the line; the
    /// page shows it.
    fn failed_to_start(&mut self, event_loop: &ActiveEventLoop, e: crate::Error) {
        #[cfg(target_arch = "wasm32")]
        {
            let _ = event_loop;
            crate::platform::show_message(&e.to_string());
            self.on_failed(&e);
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.error = Some(e);
            event_loop.exit();
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() || self.starting {
            return;
        }
        let (scene, source, state) = (self.scene.clone(), self.source.clone(), self.initial_state.take());
        let refitted = self.refitted.clone();
        let make_sim = move |gpu: &crate::gpu::Gpu| match &state {
            Some((fields, meta)) => rebuild::sim_from_fields(gpu, &scene, fields).map(|mut sim| {
                (sim.step_index, sim.time) = (meta.step, meta.time);
                sim.resume_solver_units(meta.solver_units, meta.solver_peak);
                sim
            }),
            None => {
                // lighter defaults on a software adapter; the page makes a grid its device cannot
                // hold smaller (the desktop says it does not fit)
                let (picked, note) = rebuild::for_adapter(gpu.is_software(), scene.clone());
                // (the page's "auto" follows its canvas: `web::page_dye`)
                #[cfg(target_arch = "wasm32")]
                let picked = super::web::page_dye(picked);
                let (fit, line) =
                    if cfg!(target_arch = "wasm32") { rebuild::fitting(&gpu.device.limits(), &picked) } else { (picked, None) };
                if fit != scene
                    && let Ok(mut slot) = refitted.lock()
                {
                    let picks = rebuild::Picks::new(&scene, &fit);
                    *slot = Some(rebuild::Adjusted { scene: fit.clone(), fitted: line, for_adapter: note, picks });
                }
                rebuild::new_sim(gpu, &fit, &source)
            }
        };
        #[cfg(target_arch = "wasm32")]
        let canvas = self.page.canvas;
        #[cfg(not(target_arch = "wasm32"))]
        let canvas = None;
        let window = match Running::open_window(event_loop, &self.title(), canvas) {
            Ok(w) => w,
            Err(e) => return self.failed_to_start(event_loop, e),
        };
        let desc = Running::instance_descriptor(event_loop);
        self.starting = true;
        let (slot, wake) = (self.started.clone(), self.wake.clone());
        // natively this returns once the device is open; in a browser the answer comes later,
        // through `user_event`
        crate::platform::run_future(async move {
            let r = Running::start(desc, window, make_sim).await;
            if let Ok(mut s) = slot.lock() {
                *s = Some(r);
            }
            if let Some(w) = wake {
                let _ = w.send_event(());
            }
        });
        self.take_started(event_loop);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(r) = self.running.as_mut() else { return };
        let response = r.egui_state.on_window_event(&r.window, &event);
        let consumed = response.consumed;
        let ctx = r.egui_state.egui_ctx();
        let over_ui = ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui();
        let wants_keys = ctx.egui_wants_keyboard_input();
        // (egui answers "repaint" to a redraw itself: only input asks for another frame)
        // (X11's XInput2 also reports every mouse move as raw AxisMotion, which shows nothing)
        let input = !matches!(event, WindowEvent::RedrawRequested | WindowEvent::AxisMotion { .. });
        self.ui_input |= input;
        if matches!(
            event,
            WindowEvent::CursorMoved { .. }
                | WindowEvent::MouseInput { .. }
                | WindowEvent::MouseWheel { .. }
                | WindowEvent::Touch(_)
                | WindowEvent::KeyboardInput { .. }
        ) {
            self.idle.input();
        }
        // the cursor moving over a still field changes only the readout and the brush outline:
        // those frames are spaced out (`HOVER_FRAME_GAP`) instead of one a move
        let hover_only = matches!(event, WindowEvent::CursorMoved { .. })
            && !over_ui
            && !self.pointer.left
            && !self.pointer.right
            && !self.stepper.has_work();
        if input && response.repaint && !hover_only {
            r.window.request_redraw();
        }
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                r.resize(size.width, size.height);
                r.window.request_redraw();
            }
            WindowEvent::ScaleFactorChanged { .. } => r.window.request_redraw(),
            WindowEvent::Occluded(hidden) => {
                self.occluded = hidden;
                r.window.request_redraw();
            }
            WindowEvent::RedrawRequested => {
                // a hidden window takes no steps (unless the view asks to keep running)
                let draw = !self.hidden() && self.device_ok(event_loop);
                if draw {
                    self.frame();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let px = [position.x as f32, position.y as f32];
                self.pointer.pos = Some(px);
                // with hover painting on, a move over the field paints as a drag does
                if self.view.hover_paint && !over_ui && !(self.pointer.left || self.pointer.right) {
                    self.pointer.hovering = true;
                }
                if self.pointer.left || self.pointer.right || self.pointer.hovering {
                    let right =
                        if self.pointer.hovering { split::in_right(self.viewport, r.split.as_ref(), px) } else { self.pointer.in_right };
                    let m = split::half(self.viewport, r.split.as_ref(), right).to_metres(px, r.sim.nx, r.sim.ny, r.sim.params.h);
                    self.pointer.path.push(m);
                }
            }
            WindowEvent::CursorLeft { .. } => {
                self.pointer.pos = None;
                self.pointer.hovering = false;
            }
            // one finger paints as the left button does (the page on a phone or tablet)
            WindowEvent::Touch(t) => {
                let px = [t.location.x as f32, t.location.y as f32];
                match t.phase {
                    TouchPhase::Started if !(consumed || over_ui) => {
                        self.pointer.pos = Some(px);
                        self.pointer.left = true;
                        self.pointer.in_right = split::in_right(self.viewport, r.split.as_ref(), px);
                        let at = split::half(self.viewport, r.split.as_ref(), self.pointer.in_right).to_metres(
                            px,
                            r.sim.nx,
                            r.sim.ny,
                            r.sim.params.h,
                        );
                        self.pointer.last = Some(at);
                        if self.view.brush.mode == ui::view::BrushMode::Probe {
                            self.pin_probe(at);
                        }
                        if self.view.brush.mode == ui::view::BrushMode::Move {
                            self.pick_obstacle(at);
                        }
                    }
                    TouchPhase::Moved if self.pointer.left => {
                        self.pointer.pos = Some(px);
                        let m = split::half(self.viewport, r.split.as_ref(), self.pointer.in_right).to_metres(
                            px,
                            r.sim.nx,
                            r.sim.ny,
                            r.sim.params.h,
                        );
                        self.pointer.path.push(m);
                    }
                    TouchPhase::Ended | TouchPhase::Cancelled => {
                        self.pointer.left = false;
                        self.pointer.pos = None;
                    }
                    _ => {}
                }
            }
            WindowEvent::DroppedFile(path) => self.apply(ui::Command::Open(path.display().to_string())),
            WindowEvent::ModifiersChanged(m) => self.ctrl = m.state().control_key() || m.state().super_key(),
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
                    self.pointer.in_right = split::in_right(self.viewport, r.split.as_ref(), px);
                    let at = split::half(self.viewport, r.split.as_ref(), self.pointer.in_right).to_metres(
                        px,
                        r.sim.nx,
                        r.sim.ny,
                        r.sim.params.h,
                    );
                    self.pointer.last = Some(at);
                    // the probe tool: a left click pins, a right click takes them all away
                    if self.view.brush.mode == ui::view::BrushMode::Probe {
                        match button {
                            MouseButton::Left => self.pin_probe(at),
                            MouseButton::Right => self.stats.probes.clear(),
                            _ => {}
                        }
                    }
                    // the move tool: a left press picks the obstacle under the pointer
                    if self.view.brush.mode == ui::view::BrushMode::Move && button == MouseButton::Left {
                        self.pick_obstacle(at);
                    }
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !over_ui => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                let b = &mut self.view.brush;
                b.radius_share = (b.radius_share * 1.1f32.powf(lines)).clamp(1e-3, 0.5);
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed && !wants_keys && !consumed => {
                if let Some(c) = input::key(&event.logical_key, self.ctrl, self.stepper.paused(), &mut self.view, &mut self.panel) {
                    self.apply(c);
                }
            }
            _ => {}
        }
        if hover_only {
            self.hover_pending = true;
        } else if input {
            // any input may change what is shown (a key, a click on the panel): draw it
            self.settle_frames = self.settle_frames.max(1);
        }
        if self.quit {
            event_loop.exit();
        }
    }

    /// Paused and unchanged, the loop sleeps until an event (or egui's next animation frame):
    /// an idle window costs next to nothing.
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(r) = &self.running else { return };
        let hover_at = (self.hover_pending && !self.hidden()).then(|| self.last_frame + super::HOVER_FRAME_GAP);
        if self.wants_frames() || hover_at.is_some_and(|at| crate::platform::Instant::now() >= at) {
            r.window.request_redraw();
            event_loop.set_control_flow(ControlFlow::Wait);
        } else if let Some(at) = hover_at {
            let at = self.repaint_at.map_or(at, |r| r.min(at));
            event_loop.set_control_flow(ControlFlow::WaitUntil(at));
        } else if let Some(at) = self.repaint_at.filter(|_| !self.hidden()) {
            event_loop.set_control_flow(ControlFlow::WaitUntil(at));
        } else {
            event_loop.set_control_flow(ControlFlow::Wait);
            self.clock.forget_last();
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, _event: ()) {
        self.ui_input = true;
        self.take_started(event_loop);
        self.take_dialog_answer();
        if let Some(r) = &self.running {
            r.window.request_redraw();
        }
    }

    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: StartCause) {
        if let (StartCause::ResumeTimeReached { .. }, Some(r)) = (cause, &self.running) {
            self.repaint_at = None;
            r.window.request_redraw();
        }
    }
}
