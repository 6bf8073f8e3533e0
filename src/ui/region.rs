//! The part of egui's picture that changed between two frames, so that a software renderer
//! rasters only that part again: the panel's figures change twice a second while the flow runs,
//! and egui's whole panel cost 13-19 ms of lavapipe's time each time on a 2-core VM.

use egui::epaint::ClippedShape;
use egui::{Color32, Pos2, Rect};

/// Points around a changed shape drawn again with it (anti-aliasing reaches past its bounds).
pub const MARGIN: f32 = 2.0;

/// Where `next` differs from `old`, shape by shape, when only some shapes differ: their bounds,
/// old and new, in points, widened by `MARGIN` and out to whole pixels of a `size` picture at
/// `pixels_per_point`. None when the count of shapes changed, nothing did, or the region reaches
/// `keep_out` (pixels: the field, which lies under the picture's shapes).
pub fn changed(old: &[ClippedShape], next: &[ClippedShape], pixels_per_point: f32, size: [u32; 2], keep_out: Rect) -> Option<Rect> {
    if old.len() != next.len() {
        return None;
    }
    let bounds = |c: &ClippedShape| (c.transform_after_tessellation * c.shape.visual_bounding_rect()).intersect(c.clip_rect);
    let region = old.iter().zip(next).filter(|(a, b)| a != b).fold(Rect::NOTHING, |r, (a, b)| r.union(bounds(a)).union(bounds(b)));
    if !region.is_positive() {
        return None;
    }
    let picture = Rect::from_min_max(Pos2::ZERO, Pos2::new(size[0] as f32, size[1] as f32));
    let px = region.expand(MARGIN) * pixels_per_point;
    let px = Rect::from_min_max(px.min.floor(), px.max.ceil()).intersect(picture);
    (px.is_positive() && !px.intersects(keep_out)).then(|| px / pixels_per_point)
}

/// `shapes` drawn again within `region` only: the region cleared to `fill` (as the whole picture
/// is, under the panel), then every shape clipped to it.
pub fn clipped_to(shapes: &[ClippedShape], region: Rect, fill: Color32) -> Vec<ClippedShape> {
    let clear = egui::Shape::rect_filled(region.expand(MARGIN), 0.0, fill);
    std::iter::once(ClippedShape { clip_rect: region, shape: clear, transform_after_tessellation: Default::default() })
        .chain(shapes.iter().filter_map(|c| {
            let clip_rect = c.clip_rect.intersect(region);
            clip_rect.is_positive().then(|| ClippedShape { clip_rect, ..c.clone() })
        }))
        .collect()
}
