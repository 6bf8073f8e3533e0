//! CPU reference of shaders/sources.wgsl.

use super::grid::{Grid, falloff};
use crate::sim::fields::Fields;
use crate::sim::params::{Params, SPLAT_ADD, SPLAT_PAINT_SOLID, Splat};

fn offset(p: &Params, x: f32, y: f32, s: &Splat) -> f32 {
    let (mut dx, mut dy) = (x - s.x, y - s.y);
    let (sx, sy) = (p.nx as f32 * p.h, p.ny as f32 * p.h);
    if p.periodic_x() {
        dx -= (dx / sx).round() * sx;
    }
    if p.periodic_y() {
        dy -= (dy / sy).round() * sy;
    }
    (dx * dx + dy * dy).sqrt()
}

/// A dab adds its values times w once; an emitter relaxes toward them at `rate` w per second.
fn apply(value: f32, target: f32, w: f32, s: &Splat, dt: f32) -> f32 {
    if s.mode == SPLAT_ADD {
        value + w * target
    } else {
        let b = 1.0 - (-s.rate * dt * w).exp();
        value * (1.0 - b) + target * b
    }
}

/// The obstacle brush (`paint_solid` in sources.wgsl), then the velocity/ink sources.
pub fn sources(f: &mut Fields, p: &Params, splats: &[Splat]) {
    paint_solid(f, p, splats);
    let splats: Vec<Splat> = splats.iter().copied().filter(|s| s.mode < SPLAT_PAINT_SOLID).collect();
    let splats = &splats[..];
    let old = f.clone();
    let g = Grid::new(&old, p);
    let (nx, ny, h) = (g.nx(), g.ny(), p.h);
    for j in 0..ny {
        for i in 0..=nx {
            let fi = if g.px() && i == nx { 0 } else { i };
            let (x, y) = (fi as f32 * h, (j as f32 + 0.5) * h);
            let mut value = old.u[g.ui(i, j)];
            for s in splats {
                let w = falloff(offset(p, x, y, s), s.radius);
                if w > 0.0 {
                    value = apply(value, s.vx, w, s, p.dt);
                }
            }
            let face = g.u_face(i, j);
            f.u[g.ui(i, j)] = if face.fixed { face.value } else { value };
        }
    }
    for j in 0..=ny {
        for i in 0..nx {
            let fj = if g.py() && j == ny { 0 } else { j };
            let (x, y) = ((i as f32 + 0.5) * h, fj as f32 * h);
            let mut value = old.v[g.vi(i, j)];
            for s in splats {
                let w = falloff(offset(p, x, y, s), s.radius);
                if w > 0.0 {
                    value = apply(value, s.vy, w, s, p.dt);
                }
            }
            let face = g.v_face(i, j);
            f.v[g.vi(i, j)] = if face.fixed { face.value } else { value };
        }
    }
    for j in 0..ny {
        for i in 0..nx {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
            for s in splats {
                let w = falloff(offset(p, x, y, s), s.radius);
                if w > 0.0 {
                    for (k, target) in [s.ink_r, s.ink_g, s.ink_b].into_iter().enumerate() {
                        f.ink[3 * c + k] = apply(f.ink[3 * c + k], target, w, s, p.dt);
                    }
                    f.density[c] = apply(f.density[c], s.density, w, s, p.dt);
                }
            }
        }
    }
}

pub fn paint_solid(f: &mut Fields, p: &Params, splats: &[Splat]) {
    let h = p.h;
    for j in 0..f.ny {
        for i in 0..f.nx {
            let c = f.cell(i, j);
            let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
            let mut solid = f.solid[c];
            for s in splats.iter().filter(|s| s.mode >= SPLAT_PAINT_SOLID) {
                if offset(p, x, y, s) <= s.radius {
                    solid = if s.mode == SPLAT_PAINT_SOLID { 1.0 } else { 0.0 };
                }
            }
            if solid > 0.5 && f.solid[c] < 0.5 {
                f.ink[3 * c..3 * c + 3].fill(0.0);
                f.density[c] = 0.0;
                f.p[c] = 0.0;
            }
            f.solid[c] = solid;
        }
    }
}
