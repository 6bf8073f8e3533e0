//! A lost GPU device (a driver reset, a removed or hung GPU) or one out of memory, in the app.
//! The device's callbacks record the fault instead of exiting (gpu.rs, `OnFault::Record`); the
//! next frame drops every object of the old device (surface, renderers, simulation, captures,
//! read-backs, a grid being built) and opens a new instance, adapter, device and surface on the
//! same window. The scene restarts with the settings and view the user had: the field state
//! cannot be read from a dead device. When no new device opens, or it fails again at once, the
//! app ends with the fault's one line and exit status 3, as the command line does.
//!
//! `SMOKEBOX_LOSE_DEVICE_AFTER=N` destroys the device once after N frames: the loss then takes
//! the same path as a real one.

use super::App;
use super::frame::Running;
#[cfg(not(target_arch = "wasm32"))]
use crate::error::Result;
use crate::gpu::{EXIT_GPU_FAILED, Fault};
use crate::platform::{Duration, Instant};
use winit::event_loop::ActiveEventLoop;

pub const LOSE_DEVICE_VAR: &str = "SMOKEBOX_LOSE_DEVICE_AFTER";

/// A second fault this soon after a recovery ends the app: the new device cannot hold the scene
/// either (out of memory again), and opening devices in a loop would help no one.
const AGAIN_WITHIN: Duration = Duration::from_secs(10);

/// The frame count for the test hook and when the last recovery was.
#[derive(Default)]
pub struct Recovery {
    /// Destroy the device after this many frames (`SMOKEBOX_LOSE_DEVICE_AFTER`).
    lose_after: Option<u64>,
    frames: u64,
    recovered_at: Option<Instant>,
}

impl Recovery {
    /// The test hook from the environment; a value that is not a frame count is bad input.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_env() -> Result<Recovery> {
        let lose_after = match crate::platform::var(LOSE_DEVICE_VAR) {
            None => None,
            Some(v) => match v.trim().parse::<u64>() {
                Ok(n) if n > 0 => Some(n),
                _ => crate::fail!("{LOSE_DEVICE_VAR}={v}: expected a number of frames, 1 or more"),
            },
        };
        Ok(Recovery { lose_after, ..Recovery::default() })
    }
}

impl App {
    /// Before a frame: true when the device is fine. After a fault, makes a new device and
    /// simulation and returns false (the next frame draws with them).
    pub(super) fn device_ok(&mut self, event_loop: &ActiveEventLoop) -> bool {
        let Some(r) = self.running.as_ref() else { return false };
        self.recovery.frames += 1;
        if self.recovery.lose_after == Some(self.recovery.frames) {
            crate::platform::say(&format!("{LOSE_DEVICE_VAR}: destroying the GPU device after {} frames", self.recovery.frames));
            r.gpu.device.destroy();
            // wgpu reports a destroyed device once its queue has drained
            let _ = r.gpu.device.poll(wgpu::PollType::wait_indefinitely());
        }
        let Some(fault) = r.gpu.fault.get() else { return true };
        self.recover(event_loop, fault);
        false
    }

    /// Drops everything of the failed device and runs the scene on a new one; exits with the
    /// fault's line when that cannot be done.
    fn recover(&mut self, event_loop: &ActiveEventLoop, fault: Fault) {
        let Some(old) = self.running.take() else { return };
        if self.recovery.recovered_at.is_some_and(|t| t.elapsed() < AGAIN_WITHIN) {
            give_up(&fault, "it failed again just after a new device was opened");
        }
        let window = old.window.clone();
        // every object of the old device goes before the new one is opened: a window takes one
        // surface at a time
        let dropped = self.building.take().map(|b| (b.scene.grid.nx, b.scene.grid.ny));
        // (a recording's worker finishes its file when the capture goes)
        let recording = old.capture.status.recording.is_some();
        drop(old);
        let (scene, source) = (self.scene.clone(), self.source.clone());
        let desc = Running::instance_descriptor(event_loop);
        let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
        let filled = slot.clone();
        // natively the set-up is waited for here (the page, whose device requests are answered
        // later, gives up below instead)
        crate::platform::run_future(async move {
            let r = Running::start(desc, window, move |gpu| super::rebuild::new_sim(gpu, &scene, &source)).await;
            if let Ok(mut s) = filled.lock() {
                *s = Some(r);
            }
        });
        let running = slot.lock().ok().and_then(|mut s| s.take());
        let Some(running) = running else { give_up(&fault, "the page cannot open a new device by itself; reload it") };
        let r = match running {
            Ok(r) => r,
            Err(e) => give_up(&fault, &format!("a new device could not be opened: {e}")),
        };
        if let Some(again) = r.gpu.fault.get() {
            give_up(&again, "the new device failed while the scene was being made");
        }
        self.stats.adapter = r.gpu.describe();
        r.window.request_redraw();
        self.running = Some(r);
        self.recovery.recovered_at = Some(Instant::now());
        self.after_new_state();
        let mut line = fault.recovered();
        if let Some((nx, ny)) = dropped {
            line += &format!(" (the {nx}×{ny} grid being built was dropped)");
        }
        if recording {
            line += " (the recording stopped there)";
        }
        crate::platform::say(&line);
        self.panel.message = Some(line);
    }
}

/// The one line of a fault the app cannot recover from, and exit status 3.
fn give_up(fault: &Fault, why: &str) -> ! {
    crate::platform::fatal(&format!("{} ({why})", fault.fatal()), EXIT_GPU_FAILED)
}
