//! CPU reference of shaders/stats.wgsl, in f64.

use super::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// The larger of a and b, or whichever is not finite (stats.wgsl `max_or_nonfinite`).
pub fn max_or_nonfinite(a: f64, b: f64) -> f64 {
    if !a.is_finite() {
        a
    } else if !b.is_finite() {
        b
    } else {
        a.max(b)
    }
}

/// max |div| of the velocity field as it stands (prescribed faces at their values).
pub fn max_divergence(f: &Fields, p: &Params) -> f64 {
    let g = Grid::new(f, p);
    let mut m = 0.0f64;
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if !g.is_solid(i, j) {
                let d = (g.u_value(i + 1, j) - g.u_value(i, j) + g.v_value(i, j + 1) - g.v_value(i, j)) / p.h;
                m = max_or_nonfinite(m, d.abs() as f64);
            }
        }
    }
    m
}

/// Kinetic energy per unit depth, ½ ρ h² Σ (u² + v²) over distinct faces.
pub fn kinetic_energy(f: &Fields, p: &Params) -> f64 {
    let ux = if p.periodic_x() { f.nx } else { f.nx + 1 };
    let vy = if p.periodic_y() { f.ny } else { f.ny + 1 };
    let mut e = 0.0f64;
    for j in 0..f.ny {
        for i in 0..ux {
            e += (f.u[f.ui(i, j)] as f64).powi(2);
        }
    }
    for j in 0..vy {
        for i in 0..f.nx {
            e += (f.v[f.vi(i, j)] as f64).powi(2);
        }
    }
    0.5 * p.rho as f64 * (p.h as f64).powi(2) * e
}

/// max |density| over the cells (stats.wgsl `totals`, for the sub-steps).
pub fn max_density(f: &Fields) -> f64 {
    f.density.iter().fold(0.0f64, |m, &x| max_or_nonfinite(m, x.abs() as f64))
}

/// max |u|, |v| over all faces (the CFL speed of shaders/stats.wgsl).
pub fn max_speed(f: &Fields) -> f64 {
    f.u.iter().chain(&f.v).fold(0.0f64, |m, &x| max_or_nonfinite(m, x.abs() as f64))
}
