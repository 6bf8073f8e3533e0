//! Timings: the frame clock (frame time, frames a second), GPU time per pass from the profiler's
//! timestamp queries, and the CPU frame log printed when SMOKEBOX_FRAME_LOG is set.

use crate::platform::Instant;

/// Wall-clock frame times.
pub struct FrameClock {
    last: Option<Instant>,
    /// Mean frame time, ms (exponential, about the last ten frames).
    pub mean_ms: f32,
    pub fps: f32,
    window: (Instant, u32),
}

impl Default for FrameClock {
    fn default() -> Self {
        FrameClock { last: None, mean_ms: 16.0, fps: 0.0, window: (Instant::now(), 0) }
    }
}

impl FrameClock {
    /// Marks the start of a frame; returns the seconds since the last one.
    pub fn tick(&mut self) -> f32 {
        let now = Instant::now();
        let dt = self.last.map_or(1.0 / 60.0, |t| now.duration_since(t).as_secs_f32());
        self.last = Some(now);
        self.mean_ms = 0.9 * self.mean_ms + 0.1 * dt * 1e3;
        self.window.1 += 1;
        let since = now.duration_since(self.window.0).as_secs_f32();
        if since >= 0.5 {
            self.fps = self.window.1 as f32 / since;
            self.window = (now, 0);
        }
        dt
    }

    /// After an idle wait (a paused app draws nothing): the gap is not a frame time.
    pub fn forget_last(&mut self) {
        self.last = None;
    }
}

/// Simulation steps a second of wall time, over about the last second (the badge on the field).
#[derive(Default)]
pub struct StepRate {
    since: Option<(Instant, u64)>,
    pub per_s: f32,
}

impl StepRate {
    /// Notes that the simulation is at `step` now; a step index that went back (a reset, a new
    /// scene) starts the count again.
    pub fn update(&mut self, step: u64) {
        let now = Instant::now();
        match self.since {
            Some((t0, s0)) if step >= s0 => {
                let dt = now.duration_since(t0).as_secs_f32();
                if dt >= 1.0 {
                    self.per_s = (step - s0) as f32 / dt;
                    self.since = Some((now, step));
                }
            }
            _ => self.since = Some((now, step)),
        }
    }
}

/// GPU milliseconds per pass label summed over a frame, and the mean GPU time of one step.
pub struct PassTimes {
    pub passes: Vec<(String, f32)>,
    /// None when the timed frame ran no step.
    pub step_ms: Option<f32>,
}

/// Sums a finished frame's timer queries by label. Every step advects once: that counts the
/// steps in the frame.
pub fn pass_times(results: Vec<wgpu_profiler::GpuTimerQueryResult>) -> PassTimes {
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
    let step_ms = (steps > 0).then(|| passes.iter().map(|(_, ms)| ms).sum::<f32>() / steps as f32);
    PassTimes { passes, step_ms }
}

/// CPU milliseconds spent in each part of the frame, summed and printed every 60 frames.
#[derive(Default)]
pub struct FrameLog {
    parts: Vec<(&'static str, f64)>,
    frames: u32,
    mark: Option<Instant>,
    /// When the current 60 frames began (for the frame rate).
    since: Option<Instant>,
    /// Of the current 60 frames, those that reused the kept picture (drew only the hover layer).
    kept: u32,
    /// Of the current 60 frames, those that drew the panel again only where it changed.
    in_part: u32,
    /// The longest of the current 60 frames (from the end of one to the end of the next), ms.
    slowest: f64,
    last_end: Option<Instant>,
}

impl FrameLog {
    /// A log when SMOKEBOX_FRAME_LOG is set.
    pub fn from_env() -> Option<FrameLog> {
        crate::platform::var("SMOKEBOX_FRAME_LOG").map(|_| FrameLog::default())
    }

    pub fn start(&mut self) {
        self.mark = Some(Instant::now());
    }

    pub fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        let ms = self.mark.map_or(0.0, |m| now.duration_since(m).as_secs_f64() * 1e3);
        self.mark = Some(now);
        match self.parts.iter_mut().find(|(n, _)| *n == name) {
            Some(p) => p.1 += ms,
            None => self.parts.push((name, ms)),
        }
    }

    /// Notes whether the frame reused the kept picture or drew it again, and whether only where
    /// the panel changed.
    pub fn picture(&mut self, kept: bool, in_part: bool) {
        self.kept += u32::from(kept);
        self.in_part += u32::from(in_part);
    }

    /// Ends a frame that ran `steps` steps, the simulation now at step `step`.
    pub fn end_frame(&mut self, steps: u32, step: u64) {
        self.frames += 1;
        let now = Instant::now();
        if let Some(last) = self.last_end.replace(now) {
            self.slowest = self.slowest.max(now.duration_since(last).as_secs_f64() * 1e3);
        }
        let since = *self.since.get_or_insert(now);
        if self.frames == 60 {
            let parts: Vec<String> = self.parts.iter().map(|(n, ms)| format!("{n} {:.2}", ms / 60.0)).collect();
            let fps = 60.0 / now.duration_since(since).as_secs_f64().max(1e-9);
            let (kept, in_part, slowest) = (self.kept, self.in_part, self.slowest);
            eprintln!(
                "frame ms (cpu, mean of 60): {} | steps {steps} | {fps:.1} fps | slowest {slowest:.1} ms | kept {kept} | in part {in_part} | at step {step}",
                parts.join(", ")
            );
            self.parts.clear();
            (self.kept, self.in_part, self.slowest) = (0, 0, 0.0);
            self.frames = 0;
            self.since = Some(now);
        }
    }
}

/// Laps the log if there is one.
pub fn lap(log: &mut Option<FrameLog>, name: &'static str) {
    if let Some(l) = log {
        l.lap(name);
    }
}
