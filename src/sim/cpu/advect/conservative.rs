//! CPU reference of shaders/advect/conservative.wgsl: flux-form transport of ink (dye grid, with
//! flux-consistent face velocities, in k sub-steps of dt / k) and density (flow grid).

use crate::sim::cpu::grid::{self, Grid};
use crate::sim::fields::Fields;
use crate::sim::params::*;

/// Conservative flux-form transport of the fields whose scheme is conservative (`old` is the
/// state at the start of the step; results go into `f`).
pub fn conservative(f: &mut Fields, old: &Fields, p: &Params) {
    let g = Grid::new(old, p);
    if p.schemes[1] == SCHEME_CONSERVATIVE {
        let inflow = |s: usize| vec![p.inflow_ink_r[s], p.inflow_ink_g[s], p.inflow_ink_b[s]];
        // k sub-steps of dt / k on the lattice k times finer (conservative.wgsl `sub_dt`)
        let k = g.dye_k();
        let scale = outflow_scale(&g, p, k);
        let mut ink = old.ink.clone();
        for _ in 0..k {
            ink = transport(&g, p, k, &scale, 3, &ink, &inflow, (-p.ink_dissipation * (p.dt / k as f32)).exp());
        }
        f.ink = ink;
    }
    if p.schemes[2] == SCHEME_CONSERVATIVE {
        let inflow = |s: usize| vec![p.inflow_density[s]];
        f.density = transport(&g, p, 1, &outflow_scale(&g, p, 1), 1, &old.density, &inflow, (-p.density_drain * p.dt).exp());
    }
}

/// Normal velocity of the vertical face left of cell (a, b) of the lattice k times finer:
/// linear between the flow cell's two u faces, constant along the face (conservative.wgsl `fine_u`).
pub fn fine_u(g: &Grid, a: i32, b: i32, k: i32) -> f32 {
    let i = a.div_euclid(k);
    let r = a - i * k;
    if r == 0 {
        return g.u_value(i, b / k);
    }
    mix(g.u_value(i, b / k), g.u_value(i + 1, b / k), r as f32 / k as f32)
}

/// The same for the horizontal face below cell (a, b).
pub fn fine_v(g: &Grid, a: i32, b: i32, k: i32) -> f32 {
    let j = b.div_euclid(k);
    let r = b - j * k;
    if r == 0 {
        return g.v_value(a / k, j);
    }
    mix(g.v_value(a / k, j), g.v_value(a / k, j + 1), r as f32 / k as f32)
}

fn mix(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

/// A face's Courant number over one sub-step (dt / k) on the lattice k times finer.
fn courant(p: &Params, k: i32, vel: f32) -> f32 {
    vel.abs() * (p.dt / k as f32) / (p.h / k as f32)
}

/// Each cell's outflow scale: its total outflow over a sub-step limited to what it holds.
fn outflow_scale(g: &Grid, p: &Params, k: i32) -> Vec<f32> {
    let (nx, ny) = (g.nx() * k, g.ny() * k);
    let mut scale = vec![1.0f32; (nx * ny) as usize];
    for b in 0..ny {
        for a in 0..nx {
            let out = courant(p, k, fine_u(g, a, b, k).min(0.0))
                + courant(p, k, fine_u(g, a + 1, b, k).max(0.0))
                + courant(p, k, fine_v(g, a, b, k).min(0.0))
                + courant(p, k, fine_v(g, a, b + 1, k).max(0.0));
            scale[(b * nx + a) as usize] = if out > 0.0 { (0.999999 / out).min(1.0) } else { 1.0 };
        }
    }
    scale
}

/// One sub-step of flux-form transport of `q` (`stride` channels a cell) on the lattice k times
/// finer.
#[allow(clippy::too_many_arguments)]
fn transport(
    g: &Grid,
    p: &Params,
    k: i32,
    scale: &[f32],
    stride: usize,
    q: &[f32],
    inflow: &dyn Fn(usize) -> Vec<f32>,
    keep: f32,
) -> Vec<f32> {
    let (nx, ny) = (g.nx() * k, g.ny() * k);
    let idx = |a: i32, b: i32| (b * nx + a) as usize;
    let courant = |vel: f32| courant(p, k, vel);
    let donor = |a: i32, b: i32| -> (Vec<f32>, f32) {
        let (mut a, mut b) = (a, b);
        if let Some(s) = grid::side_outside(a, b, nx, ny) {
            match p.bc_kind[s] {
                BC_INFLOW => return (inflow(s), 1.0),
                BC_PERIODIC => (a, b) = (grid::wrap(a, nx), grid::wrap(b, ny)),
                _ => return (vec![0.0; stride], 0.0),
            }
        }
        let c = idx(a, b);
        (q[stride * c..stride * c + stride].to_vec(), scale[c])
    };
    let transfer = |vel: f32, lo: (i32, i32), hi: (i32, i32)| -> Vec<f32> {
        if vel == 0.0 {
            return vec![0.0; stride];
        }
        let (d, s) = if vel > 0.0 { donor(lo.0, lo.1) } else { donor(hi.0, hi.1) };
        let sign = if vel > 0.0 { 1.0 } else { -1.0 };
        d.iter().map(|x| sign * (x * (courant(vel) * s))).collect()
    };
    let mut out = vec![0.0f32; q.len()];
    for b in 0..ny {
        for a in 0..nx {
            let c = idx(a, b);
            if g.is_solid(a / k, b / k) {
                continue;
            }
            let mut here = q[stride * c..stride * c + stride].to_vec();
            let faces = [
                (1.0, transfer(fine_u(g, a, b, k), (a - 1, b), (a, b))),
                (-1.0, transfer(fine_u(g, a + 1, b, k), (a, b), (a + 1, b))),
                (1.0, transfer(fine_v(g, a, b, k), (a, b - 1), (a, b))),
                (-1.0, transfer(fine_v(g, a, b + 1, k), (a, b), (a, b + 1))),
            ];
            for (sign, t) in faces {
                for ch in 0..stride {
                    here[ch] += sign * t[ch];
                }
            }
            for ch in 0..stride {
                out[stride * c + ch] = here[ch] * keep;
            }
        }
    }
    out
}
