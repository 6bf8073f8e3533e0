//! Obstacles as cells: PNG masks (a built-in from assets/masks/, embedded in
//! `source::BUILTIN_MASKS`, or a file next to the scene) decoded once and sampled at cell centres,
//! and the solid mask of a whole scene.

use super::scene::{MaskChannel, Obstacle, Scene};
use super::source::{BUILTIN_MASKS, Source, resolve_path};
use crate::error::Result;

/// A decoded mask: RGBA pixels, row 0 at the top of the picture.
pub struct Mask {
    image: image::RgbaImage,
}

/// Finds and decodes a mask file: next to the scene file or in the working folder first, else
/// among the built-ins. `what` names the obstacle in errors (one line each).
pub fn load(source: &Source, file: &str, what: &str) -> Result<Mask> {
    let path = resolve_path(source, file);
    let (bytes, label) = if path.exists() {
        let bytes = std::fs::read(&path).map_err(|e| crate::error!("{what}: cannot read mask file {}: {e}", path.display()))?;
        (bytes, path.display().to_string())
    } else if let Some((_, bytes)) = BUILTIN_MASKS.iter().find(|(n, _)| *n == file) {
        (bytes.to_vec(), file.to_string())
    } else {
        let names: Vec<&str> = BUILTIN_MASKS.iter().map(|(n, _)| *n).collect();
        crate::fail!(
            "{what}: mask file '{file}' not found (looked next to the scene file, in the working folder and among the built-in masks: {})",
            names.join(", ")
        );
    };
    decode(&bytes, &label, what)
}

/// Largest mask side in pixels: the picture is decoded whole (RGBA), so a file that declares
/// 100000 x 100000 is refused from its header, before any pixel memory is taken.
pub const MAX_MASK_SIDE: u32 = 4096;

/// Decodes the bytes of a PNG mask (`label` names the file in errors, `what` the obstacle).
pub fn decode(bytes: &[u8], label: &str, what: &str) -> Result<Mask> {
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_MASK_SIDE);
    limits.max_image_height = Some(MAX_MASK_SIDE);
    // the decoded RGBA picture and one converted copy
    limits.max_alloc = Some(2 * 4 * (MAX_MASK_SIDE as u64) * (MAX_MASK_SIDE as u64));
    reader.limits(limits);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => {
            crate::error!("{what}: mask file {label} is too large: expected at most {MAX_MASK_SIDE} x {MAX_MASK_SIDE} pixels")
        }
        e => crate::error!("{what}: mask file {label} is not a PNG image: {e}"),
    })?;
    let image = image.to_rgba8();
    if image.width() == 0 || image.height() == 0 {
        crate::fail!("{what}: mask file {label} is empty");
    }
    Ok(Mask { image })
}

impl Mask {
    /// Whether the point (x, y), metres, is solid when the picture is stretched over `min`..`max`.
    pub fn solid_at(&self, min: [f32; 2], max: [f32; 2], x: f32, y: f32, channel: MaskChannel, threshold: f32) -> bool {
        if x < min[0] || x > max[0] || y < min[1] || y > max[1] {
            return false;
        }
        let (w, h) = (self.image.width(), self.image.height());
        let s = (x - min[0]) / (max[0] - min[0]);
        let t = (max[1] - y) / (max[1] - min[1]); // picture rows run downward
        let px = ((s * w as f32) as u32).min(w - 1);
        let py = ((t * h as f32) as u32).min(h - 1);
        let [r, g, b, a] = self.image.get_pixel(px, py).0;
        match channel {
            MaskChannel::Alpha => a as f32 / 255.0 >= threshold,
            MaskChannel::Luminance => (0.2126 * r as f32 + 0.7152 * g as f32 + 0.0722 * b as f32) / 255.0 <= threshold,
        }
    }
}

impl Scene {
    /// 1 for solid cells, 0 for fluid.
    pub fn solid_mask(&self, source: &Source) -> Result<Vec<f32>> {
        let (nx, ny, h) = (self.grid.nx as usize, self.grid.ny as usize, self.grid.cell_size);
        let mut solid = vec![0.0f32; nx * ny];
        for (n, o) in self.obstacles.iter().enumerate() {
            let image = match o {
                Obstacle::Mask { file, .. } => Some(load(source, file, &format!("obstacles[{n}]"))?),
                _ => None,
            };
            for j in 0..ny {
                for i in 0..nx {
                    let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                    let inside = match o {
                        Obstacle::Circle { center, radius } => (x - center[0]).powi(2) + (y - center[1]).powi(2) <= radius * radius,
                        Obstacle::Rect { min, max } => x >= min[0] && x <= max[0] && y >= min[1] && y <= max[1],
                        Obstacle::Mask { min, max, channel, threshold, .. } => {
                            image.as_ref().is_some_and(|m| m.solid_at(*min, *max, x, y, *channel, *threshold))
                        }
                    };
                    if inside {
                        solid[j * nx + i] = 1.0;
                    }
                }
            }
        }
        Ok(solid)
    }
}
