//! CPU reference of shaders/project.wgsl: the edge-velocity correction (seed 002, step 7).

use super::grid::{Grid, wrap};
use crate::sim::fields::Fields;
use crate::sim::params::Params;

fn pressure_or_ghost(g: &Grid, i: i32, j: i32) -> f32 {
    let a = if g.px() { wrap(i, g.nx()) } else { i };
    let b = if g.py() { wrap(j, g.ny()) } else { j };
    if a < 0 || a >= g.nx() || b < 0 || b >= g.ny() {
        return 0.0;
    }
    g.f.p[g.cell(a, b)]
}

pub fn project(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    let k = p.dt / (p.rho * p.h);
    for j in 0..g.ny() {
        for i in 0..=g.nx() {
            let face = g.u_face(i, j);
            f.u[g.ui(i, j)] = if face.fixed {
                face.value
            } else {
                old.u[g.ui(i, j)] - k * (pressure_or_ghost(&g, i, j) - pressure_or_ghost(&g, i - 1, j))
            };
        }
    }
    for j in 0..=g.ny() {
        for i in 0..g.nx() {
            let face = g.v_face(i, j);
            f.v[g.vi(i, j)] = if face.fixed {
                face.value
            } else {
                old.v[g.vi(i, j)] - k * (pressure_or_ghost(&g, i, j) - pressure_or_ghost(&g, i, j - 1))
            };
        }
    }
}
