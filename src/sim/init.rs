//! A scene's state at time zero and the rule that prescribed faces hold their values: the
//! initial fields (obstacles, blobs, layers), emitters as splats, and `enforce_faces`.

use super::cpu::grid::{Grid, falloff};
use super::fields::Fields;
use super::params::{Params, SPLAT_BLEND, Splat};
use crate::config::{Scene, Source};
use crate::error::Result;

/// The state at time zero: obstacles, blobs of ink, density and velocity, prescribed faces.
pub fn initial_fields(scene: &Scene, source: &Source) -> Result<Fields> {
    scene.validate_geometry(source)?;
    let (nx, ny, h) = (scene.grid.nx as usize, scene.grid.ny as usize, scene.grid.cell_size);
    let mut f = Fields::zeros(nx, ny);
    f.solid = scene.solid_mask(source)?;
    for b in &scene.blobs {
        let velocity_at = |x: f32, y: f32| -> (f32, f32) {
            let w = falloff(((x - b.center[0]).powi(2) + (y - b.center[1]).powi(2)).sqrt(), b.radius);
            (w * (b.velocity[0] - b.swirl * (y - b.center[1])), w * (b.velocity[1] + b.swirl * (x - b.center[0])))
        };
        for j in 0..ny {
            for i in 0..=nx {
                let k = f.ui(i, j);
                f.u[k] += velocity_at(i as f32 * h, (j as f32 + 0.5) * h).0;
            }
        }
        for j in 0..=ny {
            for i in 0..nx {
                let k = f.vi(i, j);
                f.v[k] += velocity_at((i as f32 + 0.5) * h, j as f32 * h).1;
            }
        }
        for j in 0..ny {
            for i in 0..nx {
                let c = f.cell(i, j);
                if f.solid[c] > 0.5 {
                    continue;
                }
                let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                let w = falloff(((x - b.center[0]).powi(2) + (y - b.center[1]).powi(2)).sqrt(), b.radius);
                for k in 0..3 {
                    f.ink[3 * c + k] += w * b.ink[k];
                }
                f.density[c] += w * b.density;
            }
        }
    }
    let width = nx as f32 * h;
    for l in &scene.layers {
        for j in 0..ny {
            for i in 0..nx {
                let c = f.cell(i, j);
                let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                let edge = l.bottom + l.amplitude * (std::f32::consts::TAU * l.waves * x / width).cos();
                // the share of the cell above the lower edge, so sub-cell displacements count
                let share = ((y + 0.5 * h - edge) / h).clamp(0.0, 1.0);
                if f.solid[c] < 0.5 && y <= l.top {
                    for k in 0..3 {
                        f.ink[3 * c + k] += share * l.ink[k];
                    }
                    f.density[c] += share * l.density;
                }
            }
        }
    }
    enforce_faces(&mut f, &Params::from_scene(scene));
    Ok(f)
}

/// A scene's emitters as splats that blend toward their values every step.
pub fn emitter_splats(scene: &Scene) -> Vec<Splat> {
    scene
        .emitters
        .iter()
        .map(|e| Splat {
            x: e.position[0],
            y: e.position[1],
            radius: e.radius,
            mode: SPLAT_BLEND,
            vx: e.velocity[0],
            vy: e.velocity[1],
            density: e.density,
            ink_r: e.ink[0],
            ink_g: e.ink[1],
            ink_b: e.ink[2],
            rate: e.rate,
            ..Splat::default()
        })
        .collect()
}

/// Sets every prescribed face to its value and makes periodic duplicate faces equal.
pub fn enforce_faces(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    for j in 0..f.ny as i32 {
        for i in 0..=f.nx as i32 {
            let face = g.u_face(i, j);
            let k = g.ui(i, j);
            if face.fixed {
                f.u[k] = face.value;
            } else if g.px() && i == g.nx() {
                f.u[k] = old.u[g.ui(0, j)];
            }
        }
    }
    for j in 0..=f.ny as i32 {
        for i in 0..f.nx as i32 {
            let face = g.v_face(i, j);
            let k = g.vi(i, j);
            if face.fixed {
                f.v[k] = face.value;
            } else if g.py() && j == g.ny() {
                f.v[k] = old.v[g.vi(i, 0)];
            }
        }
    }
}
