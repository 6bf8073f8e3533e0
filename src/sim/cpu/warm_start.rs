//! CPU reference of shaders/warm_start.wgsl: for a solve to a tolerance, the start a p1 + c d for
//! A p = b, p1 the last pressure and d = p1 - p_prev its change since the step before, that
//! minimises the energy-norm error; where p1 and d are nearly parallel, and for a solve of a fixed
//! count, p1 scaled by β = clamp(p1·b / p1·Ap1, 0, 1) alone.

use super::grid::{Grid, Neighbour};
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// sin² of the angle between p1 and d (energy inner product) below which the pair is not used
/// (shaders/warm_start.wgsl `MIN_SIN2`).
pub const MIN_SIN2: f64 = 1e-3;

/// The five sums of the warm start: p1·b, d·b, p1·Ap1, p1·Ad, d·Ad. The energy products are sums
/// over the stencil's edges of the products of the two vectors' differences, plus their product
/// at the cell per outflow ghost; b = -rho h^2 div / dt.
pub fn warm_sums(f: &Fields, p: &Params) -> [f64; 5] {
    let g = Grid::new(f, p);
    let d = |c: usize| f.p[c] as f64 - f.p_prev[c] as f64;
    let mut s = [0.0f64; 5];
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let (pc, dc) = (f.p[c] as f64, d(c));
            let (mut count, mut e) = (0, [0.0f64; 3]);
            for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (x, y) = match g.neighbour(i, j, di, dj) {
                    // each edge once, from its left or bottom cell
                    Neighbour::Fluid(a, b) if di + dj > 0 => (f.p[g.cell(a, b)] as f64 - pc, d(g.cell(a, b)) - dc),
                    Neighbour::Fluid(..) => (0.0, 0.0),
                    Neighbour::Dirichlet => (pc, dc),
                    Neighbour::None => continue,
                };
                count += 1;
                e = [e[0] + x * x, e[1] + x * y, e[2] + y * y];
            }
            if count == 0 {
                continue;
            }
            let b = -(p.rho * p.h * p.h * f.divergence[c] / p.dt) as f64;
            s = [s[0] + pc * b, s[1] + dc * b, s[2] + e[0], s[3] + e[1], s[4] + e[2]];
        }
    }
    s
}

/// β for the pressure in `f` alone: the best multiple of p1, clamped to [0, 1].
pub fn warm_factor(f: &Fields, p: &Params) -> f32 {
    let s = warm_sums(f, p);
    beta(s[0], s[2])
}

fn beta(pb: f64, pap: f64) -> f32 {
    let r = pb / pap;
    if pap > 0.0 && r > 0.0 { r.min(1.0) as f32 } else { 0.0 }
}

/// (a, c) of the start a p1 + c d.
pub fn warm_weights(f: &Fields, p: &Params) -> [f32; 2] {
    let [p1b, db, e11, e1d, edd] = warm_sums(f, p);
    let det = e11 * edd - e1d * e1d;
    let (a, c) = ((p1b * edd - e1d * db) / det, (e11 * db - e1d * p1b) / det);
    if e11 > 0.0 && edd > 0.0 && det > MIN_SIN2 * e11 * edd && a.is_finite() && c.is_finite() {
        [a as f32, c as f32]
    } else {
        [beta(p1b, e11), 0.0]
    }
}

/// `measure_p` / `measure_mg` then `scale`: p = a p1 + c (p1 - p_prev) for a solve to a
/// tolerance (`pair`), else β p1; p_prev = p1.
pub fn warm_start(f: &mut Fields, p: &Params, pair: bool) {
    let [a, c] = if pair { warm_weights(f, p) } else { [warm_factor(f, p), 0.0] };
    for (x, prev) in f.p.iter_mut().zip(f.p_prev.iter_mut()) {
        let p1 = *x;
        *x = if c == 0.0 { a * p1 } else { a * p1 + c * (p1 - *prev) };
        *prev = p1;
    }
}
