//! CPU reference of shaders/advect/maccormack.wgsl: the MacCormack and BFECC corrections on top of
//! the semi-Lagrangian step, for cells (ink, density) and edge velocities.

use crate::sim::cpu::grid::{Grid, Span, span_clamped, span_wrapped};
use crate::sim::fields::Fields;
use crate::sim::params::*;

/// Whether scheme code `s` corrects the semi-Lagrangian step.
pub fn corrected(s: u32) -> bool {
    s == SCHEME_MACCORMACK || s == SCHEME_BFECC
}

/// Midpoint trace over a signed step (dt > 0: the back-trace).
fn trace(g: &Grid, x: f32, y: f32, dt: f32) -> (f32, f32) {
    let (bx, by) = g.trace_raw(x, y, dt);
    g.clamp_to_domain(bx, by)
}

/// Four array indices and bilinear weights.
type Lattice = [(usize, f32); 4];

fn blend(l: &Lattice, a: &[f32], stride: usize, ch: usize) -> f32 {
    l[0].1 * a[stride * l[0].0 + ch]
        + l[1].1 * a[stride * l[1].0 + ch]
        + l[2].1 * a[stride * l[2].0 + ch]
        + l[3].1 * a[stride * l[3].0 + ch]
}

fn limit(x: f32, l: &Lattice, a: &[f32], stride: usize, ch: usize, scale: f32) -> f32 {
    let open = l.iter().filter(|e| e.1 > 0.0).map(|e| scale * a[stride * e.0 + ch]);
    let (lo, hi) = open.fold((3.0e38f32, -3.0e38f32), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo > hi { x } else { x.clamp(lo, hi) }
}

fn cells_of(g: &Grid, x: f32, y: f32) -> Lattice {
    g.cell_stencil(x, y).map(|(a, b, w)| (g.cell(a, b), w))
}

fn spans(g: &Grid, gx: f32, gy: f32, last_x: i32, last_y: i32) -> (Span, Span) {
    let sx = if g.px() { span_wrapped(gx, g.nx()) } else { span_clamped(gx, last_x) };
    let sy = if g.py() { span_wrapped(gy, g.ny()) } else { span_clamped(gy, last_y) };
    (sx, sy)
}

fn lattice(sx: Span, sy: Span, idx: impl Fn(i32, i32) -> usize) -> Lattice {
    [
        (idx(sx.i0, sy.i0), (1.0 - sx.t) * (1.0 - sy.t)),
        (idx(sx.i1, sy.i0), sx.t * (1.0 - sy.t)),
        (idx(sx.i0, sy.i1), (1.0 - sx.t) * sy.t),
        (idx(sx.i1, sy.i1), sx.t * sy.t),
    ]
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
    let u_lat = |x: f32, y: f32| {
        let (sx, sy) = spans(&g, x / h, y / h - 0.5, nx, ny - 1);
        lattice(sx, sy, |i, j| g.ui(i, j))
    };
    let v_lat = |x: f32, y: f32| {
        let (sx, sy) = spans(&g, x / h - 0.5, y / h, nx - 1, ny);
        lattice(sx, sy, |i, j| g.vi(i, j))
    };
    let mut ut = vec![0.0f32; old.u.len()];
    let mut vt = vec![0.0f32; old.v.len()];
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
