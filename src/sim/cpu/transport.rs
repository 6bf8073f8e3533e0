//! CPU reference of shaders/advect_maccormack.wgsl and shaders/advect_conservative.wgsl, and of
//! the whole advection stage as src/sim/advection.rs dispatches it.

use super::advect::{advect_ink, advect_velocity};
use super::grid::{Grid, Lattice, LatticePoint};
use crate::sim::fields::Fields;
use crate::sim::params::*;

fn corrected(s: u32) -> bool {
    s == SCHEME_MACCORMACK || s == SCHEME_BFECC
}

/// Midpoint trace over a signed step (dt > 0: the back-trace).
fn trace(g: &Grid, x: f32, y: f32, dt: f32) -> (f32, f32) {
    let (u0, v0) = g.velocity_at(x, y);
    let (mx, my) = g.clamp_to_domain(x - 0.5 * dt * u0, y - 0.5 * dt * v0);
    let (u1, v1) = g.velocity_at(mx, my);
    g.clamp_to_domain(x - dt * u1, y - dt * v1)
}

fn blend(l: &Lattice, a: &[f32], stride: usize, ch: usize) -> f32 {
    l[0].w * l[0].value(a, stride, ch) + l[1].w * l[1].value(a, stride, ch) + l[2].w * l[2].value(a, stride, ch) + l[3].w * l[3].value(a, stride, ch)
}

fn limit(x: f32, l: &Lattice, a: &[f32], stride: usize, ch: usize, scale: f32) -> f32 {
    let open = l.iter().filter(|e| e.w > 0.0).map(|e| scale * e.at_side(a, stride, ch));
    let (lo, hi) = open.fold((3.0e38f32, -3.0e38f32), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo > hi { x } else { x.clamp(lo, hi) }
}

fn cells_of(g: &Grid, x: f32, y: f32) -> Lattice {
    g.cell_stencil(x, y).map(|(a, b, w)| LatticePoint { k: g.cell(a, b), w, scale: 1.0, offset: 0.0 })
}

/// One value's correction: MacCormack from φ̂, φ, φ̃ here; BFECC from φ̄ around the back-trace;
/// then limited to the range of `keep` φ over the back-trace's lattice points.
#[allow(clippy::too_many_arguments)]
fn correct_one(scheme: u32, keep: f32, hat: f32, now: f32, rev: f32, l: &Lattice, n: &[f32], bar: &[f32], stride: usize, ch: usize) -> f32 {
    let x = if scheme == SCHEME_BFECC { keep * blend(l, bar, stride, ch) } else { hat + 0.5 * (keep * now - rev) };
    limit(x, l, n, stride, ch, keep)
}

/// MacCormack / BFECC for ink and density: `old` is φⁿ, `f` holds φ̂ and receives the result.
pub fn correct_cells(f: &mut Fields, old: &Fields, p: &Params) {
    let g = Grid::new(old, p);
    let (si, sd) = (p.schemes[1], p.schemes[2]);
    if !corrected(si) && !corrected(sd) {
        return;
    }
    let keep_ink = (-p.ink_dissipation * p.dt).exp();
    let keep_density = (-p.density_drain * p.dt).exp();
    let h = p.h;
    let centre = |i: i32, j: i32| ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
    let mut ink_tmp = vec![0.0f32; old.ink.len()];
    let mut density_tmp = vec![0.0f32; old.density.len()];
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let (x, y) = centre(i, j);
            let (x, y) = trace(&g, x, y, -p.dt);
            let l = cells_of(&g, x, y);
            for ch in 0..3 {
                ink_tmp[3 * c + ch] = blend(&l, &f.ink, 3, ch);
            }
            density_tmp[c] = blend(&l, &f.density, 1, 0);
            if si == SCHEME_BFECC {
                for ch in 0..3 {
                    let k = 3 * c + ch;
                    ink_tmp[k] = old.ink[k] + 0.5 * (old.ink[k] - ink_tmp[k] / keep_ink);
                }
            }
            if sd == SCHEME_BFECC {
                density_tmp[c] = old.density[c] + 0.5 * (old.density[c] - density_tmp[c] / keep_density);
            }
        }
    }
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let (x, y) = centre(i, j);
            let (bx, by) = g.trace_back_raw(x, y);
            let side = g.side_crossed(bx, by);
            if side.is_some_and(|s| p.bc_kind[s] == BC_INFLOW) {
                continue;
            }
            let (x, y) = g.clamp_to_domain(bx, by);
            let l = cells_of(&g, x, y);
            if corrected(si) {
                for ch in 0..3 {
                    let k = 3 * c + ch;
                    f.ink[k] = correct_one(si, keep_ink, f.ink[k], old.ink[k], ink_tmp[k], &l, &old.ink, &ink_tmp, 3, ch);
                }
            }
            if corrected(sd) {
                f.density[c] =
                    correct_one(sd, keep_density, f.density[c], old.density[c], density_tmp[c], &l, &old.density, &density_tmp, 1, 0);
            }
        }
    }
}

/// MacCormack / BFECC for the edge velocities: `old` is uⁿ, `f` holds û and receives the result.
pub fn correct_velocity(f: &mut Fields, old: &Fields, p: &Params) {
    let g = Grid::new(old, p);
    let s = p.schemes[0];
    let h = p.h;
    let (nx, ny) = (g.nx(), g.ny());
    let u_pos = |i: i32, j: i32| ((if g.px() && i == nx { 0 } else { i }) as f32 * h, (j as f32 + 0.5) * h);
    let v_pos = |i: i32, j: i32| ((i as f32 + 0.5) * h, (if g.py() && j == ny { 0 } else { j }) as f32 * h);
    let u_lat = |x: f32, y: f32| g.u_lattice(x, y);
    let v_lat = |x: f32, y: f32| g.v_lattice(x, y);
    // φ̃ (φ̄ for BFECC) on every face: prescribed faces hold their value, as the BFECC
    // correction reads all four lattice points.
    let mut ut: Vec<f32> = (0..ny).flat_map(|j| (0..=nx).map(move |i| (i, j))).map(|(i, j)| g.u_face(i, j).value).collect();
    let mut vt: Vec<f32> = (0..=ny).flat_map(|j| (0..nx).map(move |i| (i, j))).map(|(i, j)| g.v_face(i, j).value).collect();
    let u_free: Vec<(i32, i32)> = (0..ny).flat_map(|j| (0..=nx).map(move |i| (i, j))).filter(|&(i, j)| !g.u_face(i, j).fixed).collect();
    let v_free: Vec<(i32, i32)> = (0..=ny).flat_map(|j| (0..nx).map(move |i| (i, j))).filter(|&(i, j)| !g.v_face(i, j).fixed).collect();
    let reverse = |pos: (f32, f32), lat: &dyn Fn(f32, f32) -> Lattice, hat: &[f32], now: f32| {
        let (x, y) = trace(&g, pos.0, pos.1, -p.dt);
        let r = blend(&lat(x, y), hat, 1, 0);
        if s == SCHEME_BFECC { now + 0.5 * (now - r) } else { r }
    };
    for &(i, j) in &u_free {
        let k = g.ui(i, j);
        ut[k] = reverse(u_pos(i, j), &u_lat, &f.u, old.u[k]);
    }
    for &(i, j) in &v_free {
        let k = g.vi(i, j);
        vt[k] = reverse(v_pos(i, j), &v_lat, &f.v, old.v[k]);
    }
    for &(i, j) in &u_free {
        let k = g.ui(i, j);
        let (x, y) = u_pos(i, j);
        let (x, y) = trace(&g, x, y, p.dt);
        f.u[k] = correct_one(s, 1.0, f.u[k], old.u[k], ut[k], &u_lat(x, y), &old.u, &ut, 1, 0);
    }
    for &(i, j) in &v_free {
        let k = g.vi(i, j);
        let (x, y) = v_pos(i, j);
        let (x, y) = trace(&g, x, y, p.dt);
        f.v[k] = correct_one(s, 1.0, f.v[k], old.v[k], vt[k], &v_lat(x, y), &old.v, &vt, 1, 0);
    }
}

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
        let side = super::grid::side_outside(i, j, nx, ny);
        let (mut a, mut b) = (i, j);
        if let Some(s) = side {
            match p.bc_kind[s] {
                BC_INFLOW => return ([p.inflow_ink_r[s], p.inflow_ink_g[s], p.inflow_ink_b[s], p.inflow_density[s]], 1.0),
                BC_PERIODIC => (a, b) = (super::grid::wrap(a, nx), super::grid::wrap(b, ny)),
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

/// The whole advection stage with the schemes in `p.schemes`, as src/sim/advection.rs runs it.
pub fn advect(f: &mut Fields, p: &Params, freeze_velocity: bool) {
    let old = f.clone();
    if !freeze_velocity {
        advect_velocity(f, p);
        if corrected(p.schemes[0]) {
            correct_velocity(f, &old, p);
        }
    }
    let mut carried = old.clone();
    advect_ink(&mut carried, p);
    correct_cells(&mut carried, &old, p);
    conservative(&mut carried, &old, p);
    f.ink = carried.ink;
    f.density = carried.density;
}
