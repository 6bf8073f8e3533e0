//! Capture: a PNG of the field at display resolution and an animated GIF recording, with or
//! without the overlays. The field is drawn again by a renderer of its own into an offscreen
//! image of the wanted size, copied to a staging buffer and mapped without waiting; the files
//! are written on worker threads, so capturing never stalls a frame. (The numbers and the brush
//! outline are egui text over the field, not part of the field image: they are not captured.)

use crate::platform::{self, Instant, SystemTime, Task};
use crate::render::{HEADLESS_FORMAT, Offscreen, Overlays, RenderParams, Renderer, Viewport};
use crate::sim::Simulation;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A recording's longer side at most, pixels (GIFs of bigger frames grow fast).
pub const GIF_MAX_SIDE: f32 = 512.0;
/// Frames a second a recording keeps at most.
const GIF_FPS: f32 = 25.0;

/// `scene_2026-11-23_10-05-35.ext` (UTC), the scene's name made safe for a file name.
pub fn file_name(scene: &str, ext: &str, now: SystemTime) -> String {
    let stem = Path::new(scene).file_stem().map_or(scene.to_string(), |s| s.to_string_lossy().to_string());
    let safe: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let secs = now.duration_since(platform::UNIX_EPOCH).map_or(0, |d| d.as_secs());
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
    /// A screenshot, to be saved as this file name.
    Png(String),
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

/// A GIF being encoded in memory; saved (a file natively, a download on the web) when done.
#[derive(Default)]
struct GifWriter {
    encoder: Option<gif::Encoder<Vec<u8>>>,
    frames: u32,
}

impl GifWriter {
    fn add(&mut self, (mut rgba, [w, h], delay): GifFrame, name: &str) -> crate::Result<()> {
        let fail = |e: gif::EncodingError| crate::error!("cannot write {name}: {e}");
        if self.encoder.is_none() {
            let mut e = gif::Encoder::new(Vec::new(), w as u16, h as u16, &[]).map_err(fail)?;
            e.set_repeat(gif::Repeat::Infinite).map_err(fail)?;
            self.encoder = Some(e);
        }
        let mut frame = gif::Frame::from_rgba_speed(w as u16, h as u16, &mut rgba, 20);
        frame.delay = delay;
        self.encoder.as_mut().expect("made above").write_frame(&frame).map_err(fail)?;
        self.frames += 1;
        Ok(())
    }

    /// Finishes the file and saves it: the frame count and where it went.
    fn finish(self, name: &str) -> crate::Result<(u32, String)> {
        let bytes = match self.encoder {
            Some(e) => e.into_inner().map_err(|e| crate::error!("cannot write {name}: {e}"))?,
            None => Vec::new(),
        };
        Ok((self.frames, platform::save_file(name, &bytes)?))
    }
}

/// Where a recording's frames go: natively a worker thread encodes them; on the web, where a
/// worker cannot wait for frames, each is encoded when it arrives.
struct GifSink {
    #[cfg(not(target_arch = "wasm32"))]
    tx: Option<std::sync::mpsc::Sender<GifFrame>>,
    #[cfg(not(target_arch = "wasm32"))]
    task: Task<crate::Result<(u32, String)>>,
    #[cfg(target_arch = "wasm32")]
    writer: Option<crate::Result<GifWriter>>,
    #[cfg(target_arch = "wasm32")]
    task: Option<Task<crate::Result<(u32, String)>>>,
}

impl GifSink {
    fn start(name: String) -> GifSink {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (tx, rx) = std::sync::mpsc::channel::<GifFrame>();
            let task = platform::spawn(
                move || -> crate::Result<(u32, String)> {
                    let mut w = GifWriter::default();
                    while let Ok(frame) = rx.recv() {
                        w.add(frame, &name)?;
                    }
                    w.finish(&name)
                },
                || {},
            );
            GifSink { tx: Some(tx), task }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = name;
            GifSink { writer: Some(Ok(GifWriter::default())), task: None }
        }
    }

    fn open(&self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        return self.tx.is_some();
        #[cfg(target_arch = "wasm32")]
        return self.writer.is_some() && self.task.is_none();
    }

    fn send(&mut self, frame: GifFrame, name: &str) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = name;
            self.tx.as_ref().is_some_and(|tx| tx.send(frame).is_ok())
        }
        #[cfg(target_arch = "wasm32")]
        match &mut self.writer {
            Some(Ok(w)) => match w.add(frame, name) {
                Ok(()) => true,
                Err(e) => {
                    self.writer = Some(Err(e));
                    false
                }
            },
            _ => false,
        }
    }

    /// No more frames: the file is finished (on the worker natively, soon on the web).
    fn stop(&mut self, name: &str) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = name;
            self.tx = None;
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(w) = self.writer.take() {
            let name = name.to_string();
            self.task = Some(platform::spawn(move || w.and_then(|w| w.finish(&name)), || {}));
        }
    }

    /// The finished file (frames, where it went), once written.
    fn done(&mut self) -> Option<crate::Result<(u32, String)>> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.task.take();
        #[cfg(target_arch = "wasm32")]
        return self.task.as_ref().and_then(|t| t.take());
    }
}

struct Recording {
    name: String,
    sink: GifSink,
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
    screenshot: Option<String>,
    pub status: CaptureStatus,
}

impl Capture {
    pub fn new(device: &wgpu::Device, sim: &Simulation) -> Capture {
        let mut renderer = Renderer::new(device, HEADLESS_FORMAT);
        renderer.attach(sim);
        let status = CaptureStatus { dir: platform::save_place(), ..CaptureStatus::default() };
        Capture { renderer, pending: Vec::new(), recording: None, screenshot: None, status }
    }

    pub fn attach(&mut self, sim: &Simulation) {
        self.renderer.attach(sim);
    }

    /// Asks for a PNG of the next frame.
    pub fn screenshot(&mut self, scene: &str) {
        self.screenshot = Some(file_name(scene, "png", SystemTime::now()));
    }

    /// Starts or stops a recording. Stopping finishes the file on its worker; `collect` reports.
    pub fn toggle_recording(&mut self, scene: &str) -> crate::Result<()> {
        if let Some(r) = &mut self.recording {
            if r.sink.open() {
                r.sink.stop(&r.name);
            }
            return Ok(());
        }
        let name = file_name(scene, "gif", SystemTime::now());
        platform::say(&format!("recording to {}", platform::save_target(&name)));
        self.status.recording = Some(0);
        self.recording = Some(Recording { sink: GifSink::start(name.clone()), name, frames: 0, last: None, size: None });
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
        ranges: crate::render::TintRanges,
        viewport: Viewport,
    ) {
        if viewport.w < 1.0 || viewport.h < 1.0 {
            return;
        }
        let (size, kind) = if let Some(name) = self.screenshot.take() {
            ([viewport.w.round() as u32, viewport.h.round() as u32], Kind::Png(name))
        } else if let Some(r) = self.recording.as_mut().filter(|r| r.sink.open()) {
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
            curl: false,
            arrows_mac: false,
            arrows_centre: false,
            grid_lines: false,
            numbers: false,
            tracers: false,
            streamlines: false,
            ..overlays.clone()
        };
        let o = if with_overlays { overlays } else { &ink_only };
        let ppc = size[0] as f32 / sim.nx as f32;
        crate::render::marks::trace_streamlines(sim, encoder, o, ppc, false);
        let params = RenderParams::new(sim, o, background, ppc, ranges);
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
                Kind::Png(name) => {
                    let place = platform::save_target(&name);
                    said = Some(format!("saved {place}"));
                    platform::say(&format!("saved {place}"));
                    self.status.last = Some(place);
                    let [w, h] = p.image.size;
                    // encoded and written off the frame
                    platform::spawn(
                        move || {
                            let mut png = Vec::new();
                            let written = image::ImageEncoder::write_image(
                                image::codecs::png::PngEncoder::new(&mut png),
                                &rgba,
                                w,
                                h,
                                image::ExtendedColorType::Rgba8,
                            )
                            .map_err(|e| crate::error!("cannot write {name}: {e}"))
                            .and_then(|()| platform::save_file(&name, &png));
                            if let Err(e) = written {
                                platform::say(&e.to_string());
                            }
                        },
                        || {},
                    );
                }
                Kind::GifFrame(delay) => {
                    if let Some(r) = &mut self.recording
                        && r.sink.send((rgba, p.image.size, delay), &r.name)
                    {
                        r.frames += 1;
                        self.status.recording = Some(r.frames);
                    }
                }
            }
        }
        // a stopped recording: its file is done when the worker has written the last frame
        if let Some(r) = &mut self.recording
            && !r.sink.open()
            && self.pending.iter().all(|p| !matches!(p.kind, Kind::GifFrame(_)))
            && let Some(result) = r.sink.done()
        {
            let line = match result {
                Ok((n, place)) => {
                    self.status.last = Some(place.clone());
                    format!("recorded {n} frames to {place}")
                }
                Err(e) => e.to_string(),
            };
            platform::say(&line);
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
