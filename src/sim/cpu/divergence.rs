//! CPU reference of shaders/divergence.wgsl (seed 002, step 3).

use super::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::Params;

pub fn divergence(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            let d =
                if g.is_solid(i, j) { 0.0 } else { (g.u_value(i + 1, j) - g.u_value(i, j) + g.v_value(i, j + 1) - g.v_value(i, j)) / p.h };
            f.divergence[g.cell(i, j)] = d;
        }
    }
}
