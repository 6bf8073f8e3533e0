//! CPU reference of shaders/advect/conservative.wgsl: flux-form transport of ink and density.

use crate::sim::cpu::grid::{self, Grid};
use crate::sim::fields::Fields;
use crate::sim::params::*;

/// Conservative flux-form transport of the fields whose scheme is conservative (`old` is the
/// state at the start of the step; results go into `f`).
pub fn conservative(f: &mut Fields, old: &Fields, p: &Params) {
    let g = Grid::new(old, p);
    let (nx, ny) = (g.nx(), g.ny());
    let courant = |vel: f32| vel.abs() * p.dt / p.h;
    let mut scale = vec![1.0f32; old.density.len()];
    for j in 0..ny {
        for i in 0..nx {
            let out = courant(g.u_value(i, j).min(0.0))
                + courant(g.u_value(i + 1, j).max(0.0))
                + courant(g.v_value(i, j).min(0.0))
                + courant(g.v_value(i, j + 1).max(0.0));
            scale[g.cell(i, j)] = if out > 0.0 { (0.999999 / out).min(1.0) } else { 1.0 };
        }
    }
    let donor = |i: i32, j: i32| -> ([f32; 4], f32) {
        let side = grid::side_outside(i, j, nx, ny);
        let (mut a, mut b) = (i, j);
        if let Some(s) = side {
            match p.bc_kind[s] {
                BC_INFLOW => return ([p.inflow_ink_r[s], p.inflow_ink_g[s], p.inflow_ink_b[s], p.inflow_density[s]], 1.0),
                BC_PERIODIC => (a, b) = (grid::wrap(a, nx), grid::wrap(b, ny)),
                _ => return ([0.0; 4], 0.0),
            }
        }
        let c = g.cell(a, b);
        ([old.ink[3 * c], old.ink[3 * c + 1], old.ink[3 * c + 2], old.density[c]], scale[c])
    };
    let transfer = |vel: f32, a: (i32, i32), b: (i32, i32)| -> [f32; 4] {
        if vel == 0.0 {
            return [0.0; 4];
        }
        let (q, s) = if vel > 0.0 { donor(a.0, a.1) } else { donor(b.0, b.1) };
        let sign = if vel > 0.0 { 1.0 } else { -1.0 };
        q.map(|x| sign * (x * (courant(vel) * s)))
    };
    let keep_ink = (-p.ink_dissipation * p.dt).exp();
    let keep_density = (-p.density_drain * p.dt).exp();
    for j in 0..ny {
        for i in 0..nx {
            let c = g.cell(i, j);
            let mut q = [0.0f32; 4];
            if !g.is_solid(i, j) {
                q = [old.ink[3 * c], old.ink[3 * c + 1], old.ink[3 * c + 2], old.density[c]];
                let faces = [
                    (1.0, transfer(g.u_value(i, j), (i - 1, j), (i, j))),
                    (-1.0, transfer(g.u_value(i + 1, j), (i, j), (i + 1, j))),
                    (1.0, transfer(g.v_value(i, j), (i, j - 1), (i, j))),
                    (-1.0, transfer(g.v_value(i, j + 1), (i, j), (i, j + 1))),
                ];
                for (sign, t) in faces {
                    for k in 0..4 {
                        q[k] += sign * t[k];
                    }
                }
            }
            if p.schemes[1] == SCHEME_CONSERVATIVE {
                for k in 0..3 {
                    f.ink[3 * c + k] = q[k] * keep_ink;
                }
            }
            if p.schemes[2] == SCHEME_CONSERVATIVE {
                f.density[c] = q[3] * keep_density;
            }
        }
    }
}
