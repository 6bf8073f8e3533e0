//! CPU reference of shaders/advect/maccormack.wgsl: the MacCormack and BFECC corrections on top of
//! the semi-Lagrangian step, for cells (ink on the dye grid, density) and edge velocities.

use crate::sim::cpu::grid::{Grid, Lattice, LatticePoint};
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

fn blend(l: &Lattice, a: &[f32], stride: usize, ch: usize) -> f32 {
    l[0].w * l[0].value(a, stride, ch)
        + l[1].w * l[1].value(a, stride, ch)
        + l[2].w * l[2].value(a, stride, ch)
        + l[3].w * l[3].value(a, stride, ch)
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
    // a foot with no open point (inside solid cells) has no range to limit to: keep φ̂
    if l.iter().all(|e| e.w <= 0.0) {
        return hat;
    }
    let x = if scheme == SCHEME_BFECC { keep * blend(l, bar, stride, ch) } else { hat + 0.5 * (keep * now - rev) };
    limit(x, l, n, stride, ch, keep)
}

/// MacCormack / BFECC for ink (dye grid) and density (flow grid): `old` is φⁿ, `f` holds φ̂ and
/// receives the result.
pub fn correct_cells(f: &mut Fields, old: &Fields, p: &Params) {
    let g = Grid::new(old, p);
    let keep_ink = (-p.ink_dissipation * p.dt).exp();
    let keep_density = (-p.density_drain * p.dt).exp();
    let h = p.h;
    let dye: Vec<(usize, (f32, f32))> = (0..g.dye_ny())
        .flat_map(|b| (0..g.dye_nx()).map(move |a| (a, b)))
        .filter(|&(a, b)| !g.dye_solid(a, b))
        .map(|(a, b)| (g.dye_idx(a, b), g.dye_centre(a, b)))
        .collect();
    let flow: Vec<(usize, (f32, f32))> = (0..g.ny())
        .flat_map(|j| (0..g.nx()).map(move |i| (i, j)))
        .filter(|&(i, j)| !g.is_solid(i, j))
        .map(|(i, j)| (g.cell(i, j), ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h)))
        .collect();
    let dye_lattice = |x: f32, y: f32| -> Lattice {
        g.dye_stencil(x, y).map(|(a, b, w)| LatticePoint { k: g.dye_idx(a, b), w, scale: 1.0, offset: 0.0 })
    };
    let flow_lattice = |x: f32, y: f32| cells_of(&g, x, y);
    let new_ink = correct_scalar(&g, p, p.schemes[1], keep_ink, 3, &dye, &dye_lattice, &f.ink, &old.ink);
    let new_density = correct_scalar(&g, p, p.schemes[2], keep_density, 1, &flow, &flow_lattice, &f.density, &old.density);
    if let Some(ink) = new_ink {
        f.ink = ink;
    }
    if let Some(density) = new_density {
        f.density = density;
    }
}

/// One corrected scalar field of `stride` channels at the cells `at` (index, centre), sampled by
/// `lattice`; `hat` is φ̂, `now` φⁿ. None when `scheme` does not correct.
#[allow(clippy::too_many_arguments)]
fn correct_scalar(
    g: &Grid,
    p: &Params,
    scheme: u32,
    keep: f32,
    stride: usize,
    at: &[(usize, (f32, f32))],
    lattice: &dyn Fn(f32, f32) -> Lattice,
    hat: &[f32],
    now: &[f32],
) -> Option<Vec<f32>> {
    if !corrected(scheme) {
        return None;
    }
    let mut tmp = vec![0.0f32; now.len()];
    for &(c, (x, y)) in at {
        let (x, y) = trace(g, x, y, -p.dt);
        let l = lattice(x, y);
        for ch in 0..stride {
            let k = stride * c + ch;
            tmp[k] = blend(&l, hat, stride, ch);
            if scheme == SCHEME_BFECC {
                tmp[k] = now[k] + 0.5 * (now[k] - tmp[k] / keep);
            }
        }
    }
    let mut out = hat.to_vec();
    for &(c, (x, y)) in at {
        let (bx, by) = g.trace_back_raw(x, y);
        if g.side_crossed(bx, by).is_some_and(|s| p.bc_kind[s] == BC_INFLOW) {
            continue;
        }
        let (x, y) = g.clamp_to_domain(bx, by);
        let l = lattice(x, y);
        for ch in 0..stride {
            let k = stride * c + ch;
            out[k] = correct_one(scheme, keep, hat[k], now[k], tmp[k], &l, now, &tmp, stride, ch);
        }
    }
    Some(out)
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
