//! CPU reference of shaders/warm_start.wgsl: for a solve to a tolerance, the start
//! a p1 + c d + e g for A p = b, p1 the last pressure, d = p1 - p_prev its change since the step
//! before and g = d - (p_prev - p_prev2) that change's own change, that minimises the energy-norm
//! error; g dropped where it (nearly) lies in the span of the other two, and d too where p1 and d
//! are nearly parallel, leaving p1 scaled by β = clamp(p1·b / p1·Ap1, 0, 1) alone, which is the
//! start of a solve of a fixed count always.

use super::grid::{Grid, Neighbour};
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// sin² of the angle between p1 and d (energy inner product) below which the pair is not used
/// (shaders/warm_start_mix.wgsl `MIN_SIN2`).
pub const MIN_SIN2: f64 = 1e-3;
/// sin² of the angle between g and the pair's span below which g is not used (`MIN_SIN2_G`).
pub const MIN_SIN2_G: f64 = 1e-3;

/// The sums of the warm start: p1·b, d·b, p1·Ap1, p1·Ad, d·Ad, then g·b, p1·Ag, d·Ag, g·Ag. The
/// energy products are sums over the stencil's edges of the products of the two vectors'
/// differences, plus their product at the cell per outflow ghost; b = -rho h^2 div / dt.
pub fn warm_sums(f: &Fields, p: &Params) -> [f64; 9] {
    let g = Grid::new(f, p);
    let d = |c: usize| f.p[c] as f64 - f.p_prev[c] as f64;
    let bend = |c: usize| d(c) - (f.p_prev[c] as f64 - f.p_prev2[c] as f64);
    let mut s = [0.0f64; 9];
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let (pc, dc, gc) = (f.p[c] as f64, d(c), bend(c));
            let (mut count, mut e) = (0, [0.0f64; 6]);
            for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (x, y, z) = match g.neighbour(i, j, di, dj) {
                    // each edge once, from its left or bottom cell
                    Neighbour::Fluid(a, b) if di + dj > 0 => {
                        let n = g.cell(a, b);
                        (f.p[n] as f64 - pc, d(n) - dc, bend(n) - gc)
                    }
                    Neighbour::Fluid(..) => (0.0, 0.0, 0.0),
                    Neighbour::Dirichlet => (pc, dc, gc),
                    Neighbour::None => continue,
                };
                count += 1;
                let t = [x * x, x * y, y * y, x * z, y * z, z * z];
                e.iter_mut().zip(t).for_each(|(a, b)| *a += b);
            }
            if count == 0 {
                continue;
            }
            let b = -(p.rho * p.h * p.h * f.divergence[c] / p.dt) as f64;
            let t = [pc * b, dc * b, e[0], e[1], e[2], gc * b, e[3], e[4], e[5]];
            s.iter_mut().zip(t).for_each(|(a, b)| *a += b);
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

/// (a, c, e) of the start a p1 + c d + e g: the 3 x 3 system by elimination, the pair's 2 x 2
/// first, as the shader does it.
pub fn warm_weights(f: &Fields, p: &Params) -> [f32; 3] {
    let [p1b, db, e11, e1d, edd, gb, e1g, edg, egg] = warm_sums(f, p);
    let det = e11 * edd - e1d * e1d;
    let (a, c) = ((p1b * edd - e1d * db) / det, (e11 * db - e1d * p1b) / det);
    if !(e11 > 0.0 && edd > 0.0 && det > MIN_SIN2 * e11 * edd && a.is_finite() && c.is_finite()) {
        return [beta(p1b, e11), 0.0, 0.0];
    }
    // (p1·Ag, d·Ag) through the pair's inverse, then the last pivot
    let u = [(edd * e1g - e1d * edg) / det, (e11 * edg - e1d * e1g) / det];
    let pivot = egg - (u[0] * e1g + u[1] * edg);
    let e = (gb - (u[0] * p1b + u[1] * db)) / pivot;
    let three = [a - e * u[0], c - e * u[1], e];
    if egg > 0.0 && pivot > MIN_SIN2_G * egg && three.iter().all(|x| x.is_finite()) {
        three.map(|x| x as f32)
    } else {
        [a as f32, c as f32, 0.0]
    }
}

/// `measure_p` / `measure_mg` then `scale`: p = a p1 + c (p1 - p_prev) + e g for a solve to a
/// tolerance (`pair`), p_prev2 = p_prev; else β p1 (p_prev2 as it was); p_prev = p1 either way.
pub fn warm_start(f: &mut Fields, p: &Params, pair: bool) {
    let [a, c, e] = if pair { warm_weights(f, p) } else { [warm_factor(f, p), 0.0, 0.0] };
    for ((x, prev), prev2) in f.p.iter_mut().zip(f.p_prev.iter_mut()).zip(f.p_prev2.iter_mut()) {
        let (p1, p0) = (*x, *prev);
        let d = p1 - p0;
        *x = match (c == 0.0, e == 0.0) {
            (true, true) => a * p1,
            (_, true) => a * p1 + c * d,
            _ => a * p1 + c * d + e * (d - (p0 - *prev2)),
        };
        if pair {
            *prev2 = p0;
        }
        *prev = p1;
    }
}
