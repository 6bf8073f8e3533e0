//! CPU reference of shaders/advect/velocity.wgsl: semi-Lagrangian edge velocities.

use crate::sim::cpu::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::*;

pub fn advect_velocity(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    let h = p.h;
    for j in 0..g.ny() {
        for i in 0..=g.nx() {
            let face = g.u_face(i, j);
            f.u[g.ui(i, j)] = if face.fixed {
                face.value
            } else {
                let fi = if g.px() && i == g.nx() { 0 } else { i };
                let (x, y) = g.trace_back(fi as f32 * h, (j as f32 + 0.5) * h);
                g.sample_u_in(&old.u, x, y)
            };
        }
    }
    for j in 0..=g.ny() {
        for i in 0..g.nx() {
            let face = g.v_face(i, j);
            f.v[g.vi(i, j)] = if face.fixed {
                face.value
            } else {
                let fj = if g.py() && j == g.ny() { 0 } else { j };
                let (x, y) = g.trace_back((i as f32 + 0.5) * h, fj as f32 * h);
                g.sample_v_in(&old.v, x, y)
            };
        }
    }
}
