//! CPU reference of shaders/body_loads.wgsl, in f64: each body's contacts with the fluid
//! (src/sim/body_loads.rs `contacts`), pressure on its faces and the viscosity's wall drag.

use crate::sim::body_loads::{
    Bodies, FLUID_ABOVE, FLUID_BELOW, FLUID_LEFT, FLUID_RIGHT, SHEAR_U_BESIDE, SHEAR_U_IN_LINE, SHEAR_V_BESIDE, contacts,
};
use crate::sim::buffers::MAX_BODIES;
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// The force [x, y] on each body, N per metre of depth.
pub fn body_loads(f: &Fields, p: &Params, bodies: &Bodies) -> [[f64; 2]; MAX_BODIES] {
    let mu = p.rho as f64 * p.viscosity as f64;
    let mut out = [[0.0f64; 2]; MAX_BODIES];
    for (b, list) in contacts(f, p, bodies).iter().enumerate().take(MAX_BODIES) {
        for &[index, kind] in list {
            let n = index as usize;
            let push = if kind < SHEAR_U_IN_LINE { f.p[n] as f64 * p.h as f64 } else { 0.0 };
            let force = match kind {
                FLUID_RIGHT => [-push, 0.0],
                FLUID_LEFT => [push, 0.0],
                FLUID_ABOVE => [0.0, -push],
                FLUID_BELOW => [0.0, push],
                SHEAR_U_IN_LINE => [mu * f.u[n] as f64, 0.0],
                SHEAR_U_BESIDE => [2.0 * mu * f.u[n] as f64, 0.0],
                SHEAR_V_BESIDE => [0.0, 2.0 * mu * f.v[n] as f64],
                _ => [0.0, mu * f.v[n] as f64],
            };
            out[b][0] += force[0];
            out[b][1] += force[1];
        }
    }
    out
}
