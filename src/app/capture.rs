//! Capture: a PNG of the field at display resolution and an animated GIF recording, with or
//! without the overlays. The field is drawn again by a renderer of its own into an offscreen
//! image of the wanted size, copied to a staging buffer and mapped without waiting; the files
//! are written on worker threads, so capturing never stalls a frame. (The numbers and the brush
//! outline are egui text over the field, not part of the field image: they are not captured.)

use crate::render::{HEADLESS_FORMAT, Offscreen, Overlays, RenderParams, Renderer, Viewport};
use crate::sim::Simulation;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Instant;

/// Environment variable naming the capture folder (tests use it).
pub const CAPTURE_DIR_VAR: &str = "SMOKEBOX_CAPTURE_DIR";
/// A recording's longer side at most, pixels (GIFs of bigger frames grow fast).
pub const GIF_MAX_SIDE: f32 = 512.0;
/// Frames a second a recording keeps at most.
const GIF_FPS: f32 = 25.0;

/// The folder captures go to: `$SMOKEBOX_CAPTURE_DIR`, else Pictures/smokebox, else
/// ./smokebox-captures.
pub fn capture_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(CAPTURE_DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    directories::UserDirs::new()
        .and_then(|u| u.picture_dir().map(|p| p.join("smokebox")))
        .unwrap_or_else(|| PathBuf::from("smokebox-captures"))
}

/// `scene_2026-11-23_10-05-35.ext` (UTC), the scene's name made safe for a file name.
pub fn file_name(scene: &str, ext: &str, now: std::time::SystemTime) -> String {
    let stem = Path::new(scene).file_stem().map_or(scene.to_string(), |s| s.to_string_lossy().to_string());
    let safe: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let secs = now.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86400) as i64, secs % 86400);
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{safe}_{year:04}-{month:02}-{day:02}_{:02}-{:02}-{:02}.{ext}", rest / 3600, rest % 3600 / 60, rest % 60)
}

enum Kind {
    Png(PathBuf),
    /// A recording's frame, shown for this many hundredths of a second (the time since the
    /// last one, so the GIF plays at the pace the window showed).
    GifFrame(u16),
}

/// An image copied to a staging buffer, waiting for its map.
struct Pending {
    image: Offscreen,
    kind: Kind,
    mapped: Option<Arc<AtomicBool>>,
}

/// A frame for the GIF writer: RGBA rows, size, and how long it shows (1/100 s).
type GifFrame = (Vec<u8>, [u32; 2], u16);

struct Recording {
    path: PathBuf,
    tx: Option<Sender<GifFrame>>,
    worker: Option<JoinHandle<crate::Result<u32>>>,
    frames: u32,
    last: Option<Instant>,
    /// Every frame's size: the first one's (a GIF has one screen size; a resized window's field
    /// is drawn at it, stretched if the aspect changed).
    size: Option<[u32; 2]>,
}

/// What the panel shows about capturing.
pub use crate::ui::CaptureStatus;

pub struct Capture {
    renderer: Renderer,
    pending: Vec<Pending>,
    recording: Option<Recording>,
    screenshot: Option<PathBuf>,
    pub status: CaptureStatus,
}

impl Capture {
    pub fn new(device: &wgpu::Device, sim: &Simulation) -> Capture {
        let mut renderer = Renderer::new(device, HEADLESS_FORMAT);
        renderer.attach(sim);
        let status = CaptureStatus { dir: capture_dir().display().to_string(), ..CaptureStatus::default() };
        Capture { renderer, pending: Vec::new(), recording: None, screenshot: None, status }
    }

    pub fn attach(&mut self, sim: &Simulation) {
        self.renderer.attach(sim);
    }

    /// Asks for a PNG of the next frame.
    pub fn screenshot(&mut self, scene: &str) {
        self.screenshot = Some(capture_dir().join(file_name(scene, "png", std::time::SystemTime::now())));
    }

    /// Starts or stops a recording. Stopping finishes the file on its worker; `collect` reports.
    pub fn toggle_recording(&mut self, scene: &str) -> crate::Result<()> {
        if let Some(r) = &mut self.recording {
            r.tx = None;
            return Ok(());
        }
        let dir = capture_dir();
        std::fs::create_dir_all(&dir).map_err(|e| crate::error!("cannot create the capture folder {}: {e}", dir.display()))?;
        let path = dir.join(file_name(scene, "gif", std::time::SystemTime::now()));
        let file = std::fs::File::create(&path).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))?;
        let (tx, rx) = std::sync::mpsc::channel::<GifFrame>();
        let shown = path.display().to_string();
        let worker = std::thread::spawn(move || -> crate::Result<u32> {
            let fail = |e: gif::EncodingError| crate::error!("cannot write {shown}: {e}");
            let mut encoder: Option<gif::Encoder<std::io::BufWriter<std::fs::File>>> = None;
            let mut file = Some(std::io::BufWriter::new(file));
            let mut frames = 0;
            while let Ok((mut rgba, [w, h], delay)) = rx.recv() {
                if encoder.is_none() {
                    let mut e = gif::Encoder::new(file.take().expect("one encoder"), w as u16, h as u16, &[]).map_err(fail)?;
                    e.set_repeat(gif::Repeat::Infinite).map_err(fail)?;
                    encoder = Some(e);
                }
                let mut frame = gif::Frame::from_rgba_speed(w as u16, h as u16, &mut rgba, 20);
                frame.delay = delay;
                encoder.as_mut().expect("made above").write_frame(&frame).map_err(fail)?;
                frames += 1;
            }
            Ok(frames)
        });
        eprintln!("smokebox: recording to {}", path.display());
        self.status.recording = Some(0);
        self.recording = Some(Recording { path, tx: Some(tx), worker: Some(worker), frames: 0, last: None, size: None });
        Ok(())
    }

    /// Whether frames must keep coming to finish what is in flight.
    pub fn busy(&self) -> bool {
        self.screenshot.is_some() || !self.pending.is_empty() || self.recording.is_some()
    }

    /// Records this frame's capture, if one is due: at most one a frame (the renderer has one
    /// uniform buffer). `viewport` is the field on screen, in pixels.
    #[allow(clippy::too_many_arguments)]
    pub fn encode(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        sim: &Simulation,
        overlays: &Overlays,
        with_overlays: bool,
        background: [f32; 3],
        pressure_range: f32,
        viewport: Viewport,
    ) {
        if viewport.w < 1.0 || viewport.h < 1.0 {
            return;
        }
        let (size, kind) = if let Some(path) = self.screenshot.take() {
            ([viewport.w.round() as u32, viewport.h.round() as u32], Kind::Png(path))
        } else if let Some(r) = self.recording.as_mut().filter(|r| r.tx.is_some()) {
            let since = r.last.map_or(1.0 / GIF_FPS, |t| t.elapsed().as_secs_f32());
            if since < 1.0 / GIF_FPS || self.pending.iter().any(|p| matches!(p.kind, Kind::GifFrame(_))) {
                return;
            }
            // players treat delays under 2/100 s as 1/10 s
            let delay = (since * 100.0).round().clamp(2.0, 65535.0) as u16;
            let scale = (GIF_MAX_SIDE / viewport.w.max(viewport.h)).min(1.0);
            let size = *r.size.get_or_insert([(viewport.w * scale).round().max(1.0) as u32, (viewport.h * scale).round().max(1.0) as u32]);
            (size, Kind::GifFrame(delay))
        } else {
            return;
        };
        let ink_only = Overlays {
            ink: true,
            divergence: false,
            pressure: false,
            arrows_mac: false,
            arrows_centre: false,
            grid_lines: false,
            numbers: false,
            ..overlays.clone()
        };
        let o = if with_overlays { overlays } else { &ink_only };
        let params = RenderParams::new(sim, o, background, size[0] as f32 / sim.nx as f32, pressure_range);
        self.renderer.prepare(queue, &params);
        let image =
            Offscreen::draw(device, encoder, &self.renderer, Viewport { x: 0.0, y: 0.0, w: size[0] as f32, h: size[1] as f32 }, size);
        if let (Kind::GifFrame(_), Some(r)) = (&kind, self.recording.as_mut()) {
            r.last = Some(Instant::now());
        }
        self.pending.push(Pending { image, kind, mapped: None });
    }

    /// After the submit that holds the copies: asks for their maps.
    pub fn after_submit(&mut self) {
        for p in self.pending.iter_mut().filter(|p| p.mapped.is_none()) {
            let flag = Arc::new(AtomicBool::new(false));
            let f = flag.clone();
            p.image.staging.slice(..).map_async(wgpu::MapMode::Read, move |r| f.store(r.is_ok(), Ordering::Release));
            p.mapped = Some(flag);
        }
    }

    /// Takes the images that have arrived (after a non-blocking poll) and hands them to their
    /// files; reports finished files. Returns a line for the user when something was saved.
    pub fn collect(&mut self) -> Option<String> {
        let mut said = None;
        let (ready, waiting): (Vec<Pending>, Vec<Pending>) =
            std::mem::take(&mut self.pending).into_iter().partition(|p| p.mapped.as_ref().is_some_and(|f| f.load(Ordering::Acquire)));
        self.pending = waiting;
        for p in ready {
            let rgba = p.image.rows();
            match p.kind {
                Kind::Png(path) => {
                    said = Some(format!("saved {}", path.display()));
                    eprintln!("smokebox: saved {}", path.display());
                    self.status.last = Some(path.display().to_string());
                    let [w, h] = p.image.size;
                    std::thread::spawn(move || {
                        let written = path
                            .parent()
                            .map_or(Ok(()), std::fs::create_dir_all)
                            .map_err(|e| e.to_string())
                            .and_then(|_| image::save_buffer(&path, &rgba, w, h, image::ColorType::Rgba8).map_err(|e| e.to_string()));
                        if let Err(e) = written {
                            eprintln!("smokebox: cannot write {}: {e}", path.display());
                        }
                    });
                }
                Kind::GifFrame(delay) => {
                    if let Some(r) = &mut self.recording
                        && let Some(tx) = &r.tx
                        && tx.send((rgba, p.image.size, delay)).is_ok()
                    {
                        r.frames += 1;
                        self.status.recording = Some(r.frames);
                    }
                }
            }
        }
        // a stopped recording: its file is done when the worker has written the last frame
        if let Some(r) = &mut self.recording
            && r.tx.is_none()
            && self.pending.iter().all(|p| !matches!(p.kind, Kind::GifFrame(_)))
            && r.worker.as_ref().is_some_and(|w| w.is_finished())
        {
            let result = r.worker.take().expect("checked").join().unwrap_or_else(|_| Err(crate::error!("the GIF writer stopped")));
            let line = match result {
                Ok(n) => format!("recorded {n} frames to {}", r.path.display()),
                Err(e) => e.to_string(),
            };
            eprintln!("smokebox: {line}");
            self.status.last = Some(r.path.display().to_string());
            self.status.recording = None;
            self.recording = None;
            said = Some(line);
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use crate::app::capture::*;

    #[test]
    fn file_names_carry_the_scene_and_the_utc_time() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_428_335); // 2026-11-23 10:05:35 UTC
        assert_eq!(file_name("plume", "png", t), "plume_2026-11-23_10-05-35.png");
        assert_eq!(file_name("/home/me/my scene.toml", "gif", t), "my-scene_2026-11-23_10-05-35.gif");
        let leap = std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_782_400); // 2000-02-29 00:00:00
        assert_eq!(file_name("x", "png", leap), "x_2000-02-29_00-00-00.png");
    }
}
