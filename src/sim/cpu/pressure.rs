//! CPU reference of shaders/pressure.wgsl: one weighted-Jacobi sweep with the solid-aware
//! reduced stencil (seed 002, step 6) is `sweep`'s twin; `main` runs four (`pressure_four`).

use super::grid::{Grid, Neighbour};
use crate::sim::fields::Fields;
use crate::sim::params::Params;

pub fn pressure(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            let c = g.cell(i, j);
            if g.is_solid(i, j) {
                f.p[c] = 0.0;
                continue;
            }
            let (mut sum, mut count) = (0.0f32, 0.0f32);
            for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                match g.neighbour(i, j, di, dj) {
                    Neighbour::Fluid(a, b) => {
                        sum += old.p[g.cell(a, b)];
                        count += 1.0;
                    }
                    Neighbour::Dirichlet => count += 1.0,
                    Neighbour::None => {}
                }
            }
            if count == 0.0 {
                f.p[c] = 0.0;
                continue;
            }
            let jacobi = (sum - p.rho * p.h * p.h * old.divergence[c] / p.dt) / count;
            f.p[c] = old.p[c] * (1.0 - p.jacobi_weight) + jacobi * p.jacobi_weight;
        }
    }
}

/// Twin of pressure.wgsl `main`: four sweeps in one dispatch.
pub fn pressure_four(f: &mut Fields, p: &Params) {
    for _ in 0..crate::sim::pressure::SWEEPS_PER_DISPATCH {
        pressure(f, p);
    }
}
