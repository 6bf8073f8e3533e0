//! CPU reference of the residual reductions of shaders/solver_check.wgsl: max |residual| of the
//! Jacobi pressure (`reduce_p`) and of multigrid level 0 (`reduce_mg`), in the same difference form.

use super::multigrid::Mg;
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// `reduce_p`: max over fluid cells of |b + sum over fluid neighbours (p_nb - p_c) - n_dir p_c|,
/// b = -rho h^2 div / dt, with the Jacobi stencil of `stencil`.
pub fn reduce_p(f: &Fields, p: &Params, stencil: &[u32]) -> f32 {
    let (w, h) = (f.nx as i32, f.ny as i32);
    let mut m = 0.0f32;
    for j in 0..h {
        for i in 0..w {
            let c = (j * w + i) as usize;
            let s = stencil[c];
            let count = (s >> 4) as f32;
            if count == 0.0 {
                continue;
            }
            let pc = f.p[c];
            let (mut d, mut fluid) = (0.0f32, 0.0f32);
            let nbs = [
                (1, super::grid::wrap(i - 1, w), j),
                (2, super::grid::wrap(i + 1, w), j),
                (4, i, super::grid::wrap(j - 1, h)),
                (8, i, super::grid::wrap(j + 1, h)),
            ];
            for (flag, a, b) in nbs {
                if s & flag != 0 {
                    d += f.p[(b * w + a) as usize] - pc;
                    fluid += 1.0;
                }
            }
            let b = -p.rho * p.h * p.h * f.divergence[c] / p.dt;
            m = m.max((b + (d - (count - fluid) * pc)).abs());
        }
    }
    m
}

/// `reduce_mg`: max |residual| of level 0 of `mg`.
pub fn reduce_mg(mg: &Mg) -> f32 {
    let mut mg = mg.clone();
    mg.residual(0);
    mg.res[..mg.levels[0].cells()].iter().fold(0.0f32, |m, r| m.max(r.abs()))
}
