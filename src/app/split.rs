//! The split view (key V, `view.split`): the scene run twice side by side with one setting
//! different (`view.compare`: config/compare.rs), the same brush strokes in both. Each half
//! shows the whole domain, scaled to half the field's area, under a label naming its setting:
//! a stroke, a plume or a vortex is then seen whole in both, where cutting the domain in half
//! would show each setting a different part of the flow. The left half is the window's own run
//! (its panel, statistics and readout); the right is `sim::pair::Pair`'s second run on the same
//! device and grid (kernels from the device's cache), drawn with the same overlays and tint
//! ranges. Turning the view on, or another comparison, starts both at time zero; leaving it
//! drops the second run and gives the left back the scene's own settings.

use super::App;
use crate::config::Scene;
use crate::config::compare::Comparison;
use crate::render::{CachedField, RenderParams, TintRanges, Viewport};
use crate::sim::Simulation;
use crate::sim::pair::Pair;
use crate::sim::params::Splat;

/// Points above each half for its label.
const LABEL_BAND: f32 = 24.0;
/// Points between the halves.
const GAP: f32 = 12.0;

pub struct Split {
    pub pair: Pair,
    field: CachedField,
    /// The right half, physical pixels (the left is the app's `viewport`).
    pub viewport: Viewport,
    /// Each half's setting, left then right.
    pub labels: [String; 2],
    /// What the halves were made from: the scene, the comparison and its typed setting.
    made_from: (Scene, Comparison, String),
}

/// The two halves of `area` (physical pixels), each the whole `nx` x `ny` domain fitted below a
/// band for its label: left, right.
pub fn fit_halves(nx: usize, ny: usize, area: Viewport, ppp: f32) -> (Viewport, Viewport) {
    let (band, gap) = (LABEL_BAND * ppp, GAP * ppp);
    let w = ((area.w - gap) / 2.0).max(1.0);
    let half = |x: f32| Viewport::fit(nx, ny, Viewport { x, y: area.y + band, w, h: (area.h - band).max(1.0) }, 8.0);
    (half(area.x), half(area.x + w + gap))
}

/// Whether the window's point `px` lies in the right half: right of the middle between them.
pub fn in_right(left: Viewport, split: Option<&Split>, px: [f32; 2]) -> bool {
    split.is_some_and(|s| px[0] > (left.x + left.w + s.viewport.x) / 2.0)
}

/// The viewport of the right half (`right`) or the left: a stroke maps through the half it began
/// in, so one that crosses the gap runs off that half's domain instead of jumping across it.
pub fn half(left: Viewport, split: Option<&Split>, right: bool) -> Viewport {
    split.filter(|_| right).map_or(left, |s| s.viewport)
}

/// Requests the read-backs of the steps just submitted, the second run's too.
pub fn after_submit(sim: &mut Simulation, split: Option<&mut Split>) {
    sim.after_submit();
    split.into_iter().for_each(|s| s.pair.after_submit());
}

/// This frame's brush dabs, for both runs where the view is split.
pub fn add_splats(sim: &mut Simulation, mut split: Option<&mut Split>, splats: Vec<Splat>) {
    for s in splats {
        match split.as_deref_mut() {
            Some(split) => split.pair.add_splat(sim, s),
            None => sim.add_splat(s),
        }
    }
}

/// Each half's rectangle (points) and label, for the text on the field: its setting, and the
/// largest divergence its last projection left where full figures have come (`left_div_after`
/// the window's run's), so the halves compare by number as well as by eye.
pub fn labels(split: Option<&Split>, left: Viewport, ppp: f32, left_div_after: Option<f32>) -> Vec<(egui::Rect, String)> {
    let Some(s) = split else { return Vec::new() };
    let rect = |v: Viewport| egui::Rect::from_min_size(egui::pos2(v.x / ppp, v.y / ppp), egui::vec2(v.w / ppp, v.h / ppp));
    let label = |setting: &str, div: Option<f32>| match div {
        Some(d) => format!("{setting} · max |div| after {d:.1e} 1/s"),
        None => setting.to_string(),
    };
    let right_div_after = s.pair.latest.as_ref().map(|f| f.div_max_after);
    vec![(rect(left), label(&s.labels[0], left_div_after)), (rect(s.viewport), label(&s.labels[1], right_div_after))]
}

/// The field image at `viewport`, and the split view's second beside it.
pub fn draw_fields(field: &CachedField, split: Option<&Split>, pass: &mut wgpu::RenderPass<'_>, viewport: Viewport) {
    field.draw(pass, viewport);
    if let Some(s) = split {
        s.field.draw(pass, s.viewport);
    }
}

impl Split {
    /// Redraws the right half's image when it changed, with the left's overlays and ranges.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        overlays: &crate::render::Overlays,
        (background, alpha): ([f32; 3], f32),
        ranges: TintRanges,
        window: [f32; 2],
        changed: bool,
    ) -> bool {
        let ppc = self.viewport.pixels_per_cell(self.pair.second.nx);
        let params = RenderParams::new(&self.pair.second, overlays, background, ppc, ranges).with_background_alpha(alpha);
        self.field.update(device, queue, encoder, &params, self.viewport, window, changed)
    }
}

impl App {
    /// Makes, updates or drops the second run as the view asks: once a frame, before the brush
    /// and the steps.
    pub(super) fn sync_split(&mut self) {
        let Some(r) = self.running.as_mut() else { return };
        if !self.view.split || self.building.is_some() {
            if r.split.take().is_some() {
                // the left half takes the scene's own settings again
                if let Err(e) = r.sim.configure(&self.scene) {
                    self.panel.message = Some(e.to_string());
                }
                self.field_dirty = true;
            }
            return;
        }
        let key = (self.scene.clone(), self.view.compare, self.view.compare_setting.clone());
        if r.split.as_ref().is_some_and(|s| s.made_from == key) {
            return;
        }
        let halves = match self.view.compare.halves(&self.scene, &self.view.compare_setting, &self.source) {
            Ok(h) => h,
            Err(e) => {
                self.panel.message = Some(e.to_string());
                self.view.split = false;
                return;
            }
        };
        // the panel changed a setting: both halves take it where they are
        if let Some(s) = r.split.as_mut().filter(|s| (s.made_from.1, &s.made_from.2) == (key.1, &key.2)) {
            match r.sim.configure(&halves.scenes[0]).and_then(|()| s.pair.second.configure(&halves.scenes[1])) {
                Ok(()) => (s.made_from, s.labels) = (key, halves.labels),
                Err(e) => self.panel.message = Some(e.to_string()),
            }
            return;
        }
        // a new comparison: both halves from time zero
        let started = super::commands::restart(&mut r.sim, &halves.scenes[0], &self.source)
            .and_then(|()| Pair::new(&r.gpu, &r.sim, &halves.scenes[1], &self.source));
        match started {
            Ok(pair) => {
                self.after_new_state();
                let Some(r) = self.running.as_mut() else { return };
                let format = r.config.format;
                let mut field = CachedField::new(&r.gpu.device, format, r.gpu.is_software());
                field.attach(&pair.second);
                // (drawn once the frame has fitted the halves)
                let viewport = Viewport { x: 0.0, y: 0.0, w: 0.0, h: 0.0 };
                r.split = Some(Split { pair, field, viewport, labels: halves.labels, made_from: key });
            }
            Err(e) => {
                self.panel.message = Some(e.to_string());
                self.view.split = false;
            }
        }
    }
}
