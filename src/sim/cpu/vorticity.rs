//! CPU reference of shaders/vorticity.wgsl: vorticity confinement with strength ε.

use super::grid::{Grid, wrap};
use crate::sim::fields::Fields;
use crate::sim::params::Params;

fn nb(i: i32, n: i32, periodic: bool) -> i32 {
    if periodic { wrap(i, n) } else { i.clamp(0, n - 1) }
}

/// ω at every cell centre (zero in solids).
pub fn curl(f: &Fields, p: &Params) -> Vec<f32> {
    let g = Grid::new(f, p);
    let (nx, ny) = (g.nx(), g.ny());
    let cu = |i: i32, j: i32| 0.5 * (g.u_at(i, j) + g.u_at(i + 1, j));
    let cv = |i: i32, j: i32| 0.5 * (g.v_at(i, j) + g.v_at(i, j + 1));
    let mut w = vec![0.0f32; f.nx * f.ny];
    for j in 0..ny {
        for i in 0..nx {
            if g.is_solid(i, j) {
                continue;
            }
            let dv = cv(nb(i + 1, nx, g.px()), j) - cv(nb(i - 1, nx, g.px()), j);
            let du = cu(i, nb(j + 1, ny, g.py())) - cu(i, nb(j - 1, ny, g.py()));
            w[g.cell(i, j)] = (dv - du) / (2.0 * p.h);
        }
    }
    w
}

pub fn vorticity(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    let (nx, ny) = (g.nx(), g.ny());
    let w = curl(&old, p);
    let force = |i: i32, j: i32| -> (f32, f32) {
        let a = |i: i32, j: i32| w[g.cell(i, j)].abs();
        let gx = a(nb(i + 1, nx, g.px()), j) - a(nb(i - 1, nx, g.px()), j);
        let gy = a(i, nb(j + 1, ny, g.py())) - a(i, nb(j - 1, ny, g.py()));
        let len = (gx * gx + gy * gy).sqrt();
        if len <= 1e-20 || g.is_solid(i, j) {
            return (0.0, 0.0);
        }
        let s = p.vorticity * p.h * w[g.cell(i, j)] / len;
        (gy * s, -gx * s)
    };
    let face_force = |a: (i32, i32), b: (i32, i32)| -> (f32, f32) {
        let (mut sum, mut count) = ((0.0f32, 0.0f32), 0.0f32);
        for (i, j) in [a, b] {
            if i >= 0 && i < nx && j >= 0 && j < ny && !g.is_solid(i, j) {
                let (x, y) = force(i, j);
                sum = (sum.0 + x, sum.1 + y);
                count += 1.0;
            }
        }
        if count > 0.0 { (sum.0 / count, sum.1 / count) } else { (0.0, 0.0) }
    };
    for j in 0..ny {
        for i in 0..=nx {
            if !g.u_face(i, j).fixed {
                let (l, r) = if g.px() { (wrap(i - 1, nx), wrap(i, nx)) } else { (i - 1, i) };
                f.u[g.ui(i, j)] += p.dt * face_force((l, j), (r, j)).0;
            }
        }
    }
    for j in 0..=ny {
        for i in 0..nx {
            if !g.v_face(i, j).fixed {
                let (b, t) = if g.py() { (wrap(j - 1, ny), wrap(j, ny)) } else { (j - 1, j) };
                f.v[g.vi(i, j)] += p.dt * face_force((i, b), (i, t)).1;
            }
        }
    }
}
