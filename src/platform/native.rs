//! The desktop side of the platform seam: threads, files, the config folder, rfd dialogs,
//! `pollster` for the async GPU set-up, and exit statuses.

use crate::error::Result;
use std::path::{Path, PathBuf};

/// Environment variable naming the capture folder (tests use it).
pub const CAPTURE_DIR_VAR: &str = "SMOKEBOX_CAPTURE_DIR";

/// Runs `f` on a thread of its own.
pub(super) fn spawn_raw(f: impl FnOnce() + Send + 'static) {
    std::thread::spawn(f);
}

/// Runs a future to its end: natively the caller waits (GPU set-up answers at once on a native
/// adapter).
pub fn run_future(fut: impl Future<Output = ()> + 'static) {
    pollster::block_on(fut);
}

/// The folder captures and saved files go to: `$SMOKEBOX_CAPTURE_DIR`, else Pictures/smokebox,
/// else ./smokebox-captures.
pub fn capture_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(CAPTURE_DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    directories::UserDirs::new()
        .and_then(|u| u.picture_dir().map(|p| p.join("smokebox")))
        .unwrap_or_else(|| PathBuf::from("smokebox-captures"))
}

/// Where saved files go, for the panel.
pub fn save_place() -> String {
    capture_dir().display().to_string()
}

/// Where a file named `name` goes.
pub fn save_target(name: &str) -> String {
    capture_dir().join(name).display().to_string()
}

/// Writes `bytes` as `name` in the capture folder; returns where it went.
pub fn save_file(name: &str, bytes: &[u8]) -> Result<String> {
    let dir = capture_dir();
    std::fs::create_dir_all(&dir).map_err(|e| crate::error!("cannot create the capture folder {}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

/// Writes `files` into the folder `name` of the capture folder (created; files replaced);
/// `finish` gets the folder's absolute path and returns last files that must name it (meta.json
/// names scene.toml by its path). Returns the folder.
pub fn save_folder(name: &str, files: Vec<(String, Vec<u8>)>, finish: impl FnOnce(&str) -> Vec<(String, Vec<u8>)>) -> Result<String> {
    let dir = capture_dir().join(name);
    std::fs::create_dir_all(&dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    let shown = dir.display().to_string();
    for (file, bytes) in files.into_iter().chain(finish(&shown)) {
        let path = dir.join(&file);
        std::fs::write(&path, bytes).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))?;
    }
    Ok(shown)
}

/// What a browser says of its WebGPU adapter: natively none (wgpu's adapter info says it all).
pub async fn browser_adapter() -> Option<super::BrowserAdapter> {
    None
}

/// Waits for a future (the desktop's entry points: GPU set-up, a probe before the window).
pub fn block_on<T>(fut: impl Future<Output = T>) -> T {
    pollster::block_on(fut)
}

/// A start-up setting from the environment (test hooks, the display); None when unset.
pub fn var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// What a path the user named is: a folder, a file, or nothing there.
pub fn path_kind(path: &Path) -> super::PathKind {
    if path.is_dir() {
        super::PathKind::Folder
    } else if path.exists() {
        super::PathKind::File
    } else {
        super::PathKind::Missing
    }
}

/// The path made absolute (links resolved) where it exists, else as it is.
pub fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A setting `name` of the store `dir` (a folder natively); None when there is none.
pub fn read_setting(dir: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name)).ok()
}

/// Writes a setting, via a temporary file so a crash mid-write leaves the old one.
pub fn write_setting(dir: &Path, name: &str, text: &str) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
    let (path, tmp) = (dir.join(name), dir.join(format!(".{name}.partial")));
    std::fs::write(&tmp, text).map_err(|e| crate::error!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &path).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))
}

/// The settings store: `$SMOKEBOX_CONFIG_DIR`, else the platform's config folder (e.g.
/// ~/.config/smokebox), else none (settings then live only as long as the app).
pub fn settings_store(var: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "smokebox").map(|d| d.config_dir().to_path_buf())
}

/// Where an open-file dialog starts: the capture folder when it exists, else the working folder.
pub fn dialog_start() -> PathBuf {
    let start = capture_dir();
    if start.exists() { start } else { std::env::current_dir().unwrap_or_default() }
}

/// A file dialog on a worker thread (the main thread on macOS, where dialogs must live): its
/// answer comes back through the channel, and `wake` tells the event loop to look.
pub fn ask_for_path(state: bool, start: PathBuf, wake: impl FnOnce() + Send + 'static) -> std::sync::mpsc::Receiver<Option<PathBuf>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let ask = move || {
        let d = rfd::FileDialog::new().set_directory(start);
        let picked = if state {
            d.set_title("Open a saved state folder").pick_folder()
        } else {
            d.set_title("Open a scene").add_filter("scene", &["toml"]).pick_file()
        };
        let _ = tx.send(picked);
        wake();
    };
    if cfg!(target_os = "macos") {
        ask();
    } else {
        std::thread::spawn(ask);
    }
    rx
}

/// (The page's status line: the window has none.)
pub fn show_status(_line: &str) {}

/// (The page's: natively nothing waits.)
pub async fn yield_to_page() {}

/// A line on stderr for the user.
pub fn say(line: &str) {
    eprintln!("smokebox: {line}");
}

/// The one line of a fault nothing can recover from, and the exit status.
pub fn fatal(line: &str, status: i32) -> ! {
    eprintln!("smokebox: {line}");
    std::process::exit(status);
}

/// A GPU fault the command line cannot go on from (a validation error, a lost device): its one
/// line and exit status.
pub fn gpu_fault(line: &str, status: i32) {
    fatal(line, status)
}

/// A flag that says whether `window` is unmapped (hidden or minimised), kept by a thread watching
/// the X server, which calls `wake` on every change. winit reports a covered window as
/// `Occluded` but says nothing when an X11 window is unmapped; on other systems (and Wayland)
/// the flag stays false and winit's `Occluded` covers minimising.
pub fn watch_unmapped(window: &winit::window::Window, wake: impl Fn() + Send + 'static) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    #[cfg(target_os = "linux")]
    x11_watch(window, flag.clone(), wake);
    #[cfg(not(target_os = "linux"))]
    let _ = (window, wake);
    flag
}

#[cfg(target_os = "linux")]
fn x11_watch(window: &winit::window::Window, flag: std::sync::Arc<std::sync::atomic::AtomicBool>, wake: impl Fn() + Send + 'static) {
    use std::sync::atomic::Ordering::Relaxed;
    use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
    use x11rb::connection::Connection;
    use x11rb::protocol::Event;
    use x11rb::protocol::xproto::{ChangeWindowAttributesAux, ConnectionExt, EventMask, MapState};
    let id = match window.window_handle().map(|h| h.as_raw()) {
        Ok(RawWindowHandle::Xlib(h)) => h.window as u32,
        Ok(RawWindowHandle::Xcb(h)) => h.window.get(),
        _ => return,
    };
    // a connection of our own: its event mask on the window is separate from winit's
    let Ok((conn, _)) = x11rb::connect(None) else { return };
    let watching = conn.change_window_attributes(id, &ChangeWindowAttributesAux::new().event_mask(EventMask::STRUCTURE_NOTIFY)).is_ok();
    if !watching || conn.flush().is_err() {
        return;
    }
    if let Some(a) = conn.get_window_attributes(id).ok().and_then(|c| c.reply().ok()) {
        flag.store(a.map_state != MapState::VIEWABLE, Relaxed);
    }
    spawn_raw(move || {
        while let Ok(event) = conn.wait_for_event() {
            let unmapped = match event {
                Event::UnmapNotify(e) if e.window == id => true,
                Event::MapNotify(e) if e.window == id => false,
                Event::DestroyNotify(e) if e.window == id => return,
                _ => continue,
            };
            flag.store(unmapped, Relaxed);
            wake();
        }
    });
}

/// A desktop is used with a mouse and keys (the page asks its browser: `web::touch_screen`).
pub fn touch_screen() -> bool {
    false
}

/// Whether a WebM video of the field is being recorded: None where none can be (the desktop
/// records GIFs; the page records WebM through its browser, `web_video`).
pub fn video_recording() -> Option<bool> {
    None
}

/// (The page's: `web_video::toggle_video`.)
pub fn toggle_video(_name: &str) -> Result<String> {
    Err(crate::error!("WebM videos are recorded by the web page; the window records GIFs (G)"))
}
