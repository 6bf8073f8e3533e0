//! The winit side: the window's events, and when to draw. Paused and unchanged, the loop
//! sleeps until an event (or egui's next animation frame), so an idle window costs next to
//! nothing.

use super::frame::Running;
use super::{App, input, rebuild};
use crate::ui;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::window::WindowId;

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        let (scene, source, state) = (self.scene.clone(), self.source.clone(), self.initial_state.take());
        let make_sim = |gpu: &crate::gpu::Gpu| match &state {
            Some((fields, meta)) => rebuild::sim_from_fields(gpu, &scene, fields).map(|mut sim| {
                (sim.step_index, sim.time) = (meta.step, meta.time);
                sim.resume_solver_units(meta.solver_units);
                sim
            }),
            None => rebuild::new_sim(gpu, &scene, &source),
        };
        match Running::open_window(event_loop, &self.title()).and_then(|w| Running::start(event_loop, w, make_sim)) {
            Ok(r) => {
                self.stats.adapter = r.gpu.describe();
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
        let response = r.egui_state.on_window_event(&r.window, &event);
        let consumed = response.consumed;
        let ctx = r.egui_state.egui_ctx();
        let over_ui = ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui();
        let wants_keys = ctx.egui_wants_keyboard_input();
        // (egui answers "repaint" to a redraw itself: only input asks for another frame)
        let input = !matches!(event, WindowEvent::RedrawRequested);
        if input && response.repaint {
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
                if self.device_ok(event_loop) {
                    self.frame();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let px = [position.x as f32, position.y as f32];
                self.pointer.pos = Some(px);
                if self.pointer.left || self.pointer.right {
                    let m = self.viewport.to_metres(px, r.sim.nx, r.sim.ny, r.sim.params.h);
                    self.pointer.path.push(m);
                }
            }
            WindowEvent::CursorLeft { .. } => self.pointer.pos = None,
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
                    self.pointer.last = Some(self.viewport.to_metres(px, r.sim.nx, r.sim.ny, r.sim.params.h));
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
        if input {
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
        if self.wants_frames() {
            r.window.request_redraw();
            event_loop.set_control_flow(ControlFlow::Wait);
        } else if let Some(at) = self.repaint_at.filter(|_| !self.occluded) {
            event_loop.set_control_flow(ControlFlow::WaitUntil(at));
        } else {
            event_loop.set_control_flow(ControlFlow::Wait);
            self.clock.forget_last();
        }
    }

    fn user_event(&mut self, _event_loop: &ActiveEventLoop, _event: ()) {
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
