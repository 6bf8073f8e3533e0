//! CPU reference of shaders/forces.wgsl: the splats' velocity (`with_splats`), Boussinesq buoyancy
//! and momentum damping.

use super::grid::{Grid, wrap};
use crate::sim::fields::Fields;
use crate::sim::params::{Params, Splat};

fn face_density(g: &Grid, a: (i32, i32), b: (i32, i32)) -> f32 {
    let (mut sum, mut count) = (0.0f32, 0.0f32);
    for (i, j) in [a, b] {
        if i >= 0 && i < g.nx() && j >= 0 && j < g.ny() && !g.is_solid(i, j) {
            sum += g.f.density[g.cell(i, j)];
            count += 1.0;
        }
    }
    if count > 0.0 { sum / count } else { 0.0 }
}

/// The forces pass as a running step records it: the splats' velocity on the edges, then
/// buoyancy and damping (the sources pass before it has sourced the density).
pub fn with_splats(f: &mut Fields, p: &Params, splats: &[Splat]) {
    super::sources::velocity(f, p, splats);
    forces(f, p);
}

/// Buoyancy and damping.
pub fn forces(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    let keep = (-p.damping * p.dt).exp();
    for j in 0..g.ny() {
        for i in 0..=g.nx() {
            if g.u_face(i, j).fixed {
                continue;
            }
            let (mut l, mut r) = (i - 1, i);
            if g.px() {
                l = wrap(l, g.nx());
                r = wrap(r, g.nx());
            }
            let a = p.dt * face_density(&g, (l, j), (r, j)) / p.rho * p.gravity_x;
            f.u[g.ui(i, j)] = (old.u[g.ui(i, j)] + a) * keep;
        }
    }
    for j in 0..=g.ny() {
        for i in 0..g.nx() {
            if g.v_face(i, j).fixed {
                continue;
            }
            let (mut b, mut t) = (j - 1, j);
            if g.py() {
                b = wrap(b, g.ny());
                t = wrap(t, g.ny());
            }
            let a = p.dt * face_density(&g, (i, b), (i, t)) / p.rho * p.gravity_y;
            f.v[g.vi(i, j)] = (old.v[g.vi(i, j)] + a) * keep;
        }
    }
}
