//! The one seam between the desktop and the web page: everything that differs lives here, and
//! nothing above it says `std::fs`, `std::thread`, a file dialog or `std::time::Instant`.
//!
//! - time: [`Instant`], [`Duration`], [`SystemTime`] (std on the desktop, `performance.now()` in a
//!   browser, from `web-time`);
//! - spawning work: [`spawn`] (a thread natively, the browser's event loop on the web) and
//!   [`run_future`] (GPU set-up is async: blocked on natively, spawned on the web);
//! - saving a file: [`save_file`] (the capture folder natively, a download on the web) and
//!   [`save_folder`] (a saved state: a folder natively, one zip download on the web);
//! - a settings store: [`read_setting`] / [`write_setting`] (a file in the config folder
//!   natively, localStorage on the web);
//! - a fatal error: [`fatal`] (one line and an exit status natively, the line on the page);
//! - start-up settings and named paths: [`var`] (the environment natively, none on the web),
//!   [`path_kind`] and [`absolute`] (a dropped or typed path natively; the page has none).
//!
//! Start-up arguments and picking files are each platform's own: `clap` in `main` and rfd
//! dialogs natively (`native::ask_for_path`), the page's URL and a file input or a drop on the
//! page on the web (`web::url_setup`, `web::pick_files`).

pub use web_time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[cfg(not(target_arch = "wasm32"))]
pub mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::*;

#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(target_arch = "wasm32")]
pub use web::*;
#[cfg(target_arch = "wasm32")]
mod web_video;
#[cfg(target_arch = "wasm32")]
pub use web_video::{toggle_video, video_recording};

pub mod zip;

/// A browser's words for its WebGPU adapter (`browser_adapter`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrowserAdapter {
    /// Vendor, architecture, device and description, as many as it gives (e.g. "google swiftshader").
    pub name: String,
    /// The browser's fallback adapter: a CPU one.
    pub fallback: bool,
}

/// The sentence the page shows where there is no WebGPU (no `navigator.gpu`, or no adapter).
pub const NO_WEBGPU: &str = "smokebox needs WebGPU, which this browser did not provide: open the page in Chrome or Edge 113 or later (on Linux started with --enable-unsafe-webgpu --enable-features=Vulkan), Safari 26 or later, or Firefox 141 or later on Windows.";

/// `Send` where work may run on another thread (the desktop); anything on the web, where GPU
/// objects are not `Send` and all work runs on the page's one thread.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSend: Send {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send> MaybeSend for T {}
#[cfg(target_arch = "wasm32")]
pub trait MaybeSend {}
#[cfg(target_arch = "wasm32")]
impl<T> MaybeSend for T {}

/// What is at a path the user named (`path_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    Folder,
    File,
    Missing,
}

/// A file picked or dropped on the page, read into memory.
#[derive(Clone, Debug)]
pub struct FileData {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Work started by [`spawn`]: its answer once done.
pub struct Task<T>(std::sync::Arc<std::sync::Mutex<Option<T>>>);

impl<T> Task<T> {
    /// The answer, once (None while the work runs, and after it was taken).
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok().and_then(|mut a| a.take())
    }
}

/// Runs `f` off the frame: on a thread natively, on the browser's event loop (after this frame)
/// on the web. The answer comes back through the [`Task`]; `done` is called after it is stored
/// (to wake the event loop).
pub fn spawn<T: MaybeSend + 'static>(f: impl FnOnce() -> T + MaybeSend + 'static, done: impl FnOnce() + MaybeSend + 'static) -> Task<T> {
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let s = slot.clone();
    spawn_raw(move || {
        let answer = f();
        if let Ok(mut a) = s.lock() {
            *a = Some(answer);
        }
        done();
    });
    Task(slot)
}
