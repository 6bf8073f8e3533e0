//! CPU reference of shaders/viscosity.wgsl: Chebyshev-accelerated Jacobi sweeps of
//! (I − νΔt∇²) u = u*, as many as `sim::viscosity::sweeps` says, with the same f32 weights.

use super::grid::{Face, Grid, wrap};
use crate::sim::fields::Fields;
use crate::sim::params::*;

/// Diagonal and known sum of one face's Jacobi update (next = sum / diag).
struct Acc {
    diag: f32,
    sum: f32,
    a: f32,
}

impl Acc {
    fn in_line(&mut self, face: Face, value: f32) {
        self.diag += self.a;
        self.sum += self.a * if face.fixed { face.value } else { value };
    }
    fn across_side(&mut self, p: &Params, side: usize, tangential_in: f32) {
        let kind = p.bc_kind[side];
        if kind == BC_WALL && p.bc_slip[side] == SLIP_NO_SLIP {
            self.diag += 2.0 * self.a;
            self.sum += 2.0 * self.a * p.bc_speed[side];
        } else if kind == BC_INFLOW {
            self.diag += 2.0 * self.a;
            self.sum += 2.0 * self.a * tangential_in;
        }
    }
    fn beside(&mut self, face: Face, value: f32) {
        if face.fixed {
            self.diag += 2.0 * self.a;
        } else {
            self.diag += self.a;
            self.sum += self.a * value;
        }
    }
}

fn viscous_u(g: &Grid, rhs: &[f32], i: i32, j: i32) -> f32 {
    let p = g.p;
    let fi = if g.px() { wrap(i, g.nx()) } else { i };
    let mut acc = Acc { diag: 1.0, sum: rhs[g.ui(fi, j)], a: p.viscosity * p.dt / (p.h * p.h) };
    for d in [-1, 1] {
        let n = fi + d;
        if g.px() || (n >= 0 && n <= g.nx()) {
            acc.in_line(g.u_face(n, j), g.u_at(n, j));
        }
        let m = j + d;
        if !g.py() && m < 0 {
            acc.across_side(p, SIDE_BOTTOM, p.inflow_u[SIDE_BOTTOM]);
        } else if !g.py() && m >= g.ny() {
            acc.across_side(p, SIDE_TOP, p.inflow_u[SIDE_TOP]);
        } else {
            let w = wrap(m, g.ny());
            acc.beside(g.u_face(fi, w), g.u_at(fi, w));
        }
    }
    acc.sum / acc.diag
}

fn viscous_v(g: &Grid, rhs: &[f32], i: i32, j: i32) -> f32 {
    let p = g.p;
    let fj = if g.py() { wrap(j, g.ny()) } else { j };
    let mut acc = Acc { diag: 1.0, sum: rhs[g.vi(i, fj)], a: p.viscosity * p.dt / (p.h * p.h) };
    for d in [-1, 1] {
        let m = fj + d;
        if g.py() || (m >= 0 && m <= g.ny()) {
            acc.in_line(g.v_face(i, m), g.v_at(i, m));
        }
        let n = i + d;
        if !g.px() && n < 0 {
            acc.across_side(p, SIDE_LEFT, p.inflow_v[SIDE_LEFT]);
        } else if !g.px() && n >= g.nx() {
            acc.across_side(p, SIDE_RIGHT, p.inflow_v[SIDE_RIGHT]);
        } else {
            let w = wrap(n, g.nx());
            acc.beside(g.v_face(w, fj), g.v_at(w, fj));
        }
    }
    acc.sum / acc.diag
}

/// The sweeps of `sim::viscosity::sweeps` (at most `max_sweeps`) on u and v, in place.
pub fn viscosity(f: &mut Fields, p: &Params, max_sweeps: u32) {
    let (rhs_u, rhs_v) = (f.u.clone(), f.v.clone());
    let a = p.viscosity * p.dt / (p.h * p.h);
    let r2 = (4.0 * a / (1.0 + 4.0 * a)) * (4.0 * a / (1.0 + 4.0 * a));
    // x_{k−1}; the first sweep ignores it
    let mut before = f.clone();
    let mut w = 1.0f32;
    for k in 0..crate::sim::viscosity::sweeps(p, max_sweeps) {
        let now = f.clone();
        let g = Grid::new(&now, p);
        let next = |jacobi: f32, prev: f32| if k == 0 { jacobi } else { prev + w * (jacobi - prev) };
        for j in 0..g.ny() {
            for i in 0..=g.nx() {
                let k = g.ui(i, j);
                f.u[k] = if g.u_face(i, j).fixed { rhs_u[k] } else { next(viscous_u(&g, &rhs_u, i, j), before.u[k]) };
            }
        }
        for j in 0..=g.ny() {
            for i in 0..g.nx() {
                let k = g.vi(i, j);
                f.v[k] = if g.v_face(i, j).fixed { rhs_v[k] } else { next(viscous_v(&g, &rhs_v, i, j), before.v[k]) };
            }
        }
        before = now;
        w = if k == 0 { 2.0 / (2.0 - r2) } else { 1.0 / (1.0 - 0.25 * r2 * w) };
    }
}
