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

/// The obstacle brush (`paint_solid` in sources.wgsl), then the velocity, ink and density
/// sources. (A running step on the GPU adds the velocity's share in the forces pass:
/// `forces::with_splats`.)
pub fn sources(f: &mut Fields, p: &Params, splats: &[Splat]) {
    paint_solid(f, p, splats);
    velocity(f, p, splats);
    ink_and_density(f, p, splats);
}

/// The splats that add or blend (not the obstacle brush).
fn flow_splats(splats: &[Splat]) -> Vec<Splat> {
    splats.iter().copied().filter(|s| s.mode < SPLAT_PAINT_SOLID).collect()
}

/// The splats' velocity on the edges (`sourced_u`, `sourced_v` in shaders/shared/splats.wgsl): a
/// fixed face takes its own value.
pub fn velocity(f: &mut Fields, p: &Params, splats: &[Splat]) {
    let splats = &flow_splats(splats)[..];
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
}

/// The splats' density on the fluid cells and ink on the fluid dye cells (`ink_and_density` in
/// sources.wgsl).
pub fn ink_and_density(f: &mut Fields, p: &Params, splats: &[Splat]) {
    let splats = &flow_splats(splats)[..];
    let old = f.clone();
    let g = Grid::new(&old, p);
    let (nx, ny, h) = (g.nx(), g.ny(), p.h);
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
                    f.density[c] = apply(f.density[c], s.density, w, s, p.dt);
                }
            }
        }
    }
    for b in 0..g.dye_ny() {
        for a in 0..g.dye_nx() {
            if g.dye_solid(a, b) {
                continue;
            }
            let d = g.dye_idx(a, b);
            let (x, y) = g.dye_centre(a, b);
            for s in splats {
                let w = falloff(offset(p, x, y, s), s.radius);
                if w > 0.0 {
                    for (k, target) in [s.ink_r, s.ink_g, s.ink_b].into_iter().enumerate() {
                        f.ink[3 * d + k] = apply(f.ink[3 * d + k], target, w, s, p.dt);
                    }
                }
            }
        }
    }
}

/// Flow cell (i, j) emptied of ink (in each of its dye cells), density and pressure
/// (shaders/shared/empty_cell.wgsl).
pub fn empty_cell(f: &mut Fields, i: usize, j: usize) {
    let k = f.dye_scale;
    for b in j * k..(j + 1) * k {
        for a in i * k..(i + 1) * k {
            let d = f.dye_cell(a, b);
            f.ink[3 * d..3 * d + 3].fill(0.0);
        }
    }
    let c = f.cell(i, j);
    f.density[c] = 0.0;
    f.p[c] = 0.0;
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
                empty_cell(f, i, j);
            }
            f.solid[c] = solid;
        }
    }
}
