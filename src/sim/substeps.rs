//! A safe time step: a step whose dt would carry the fastest fluid more than `max_cfl` cells is
//! split into sub-steps; one that would need more than `max_substeps` is shortened to what they
//! can hold (the caller warns). The speed comes from the GPU's statistics a step late (the
//! initial fields' at first), plus what this step's brush dabs and emitters can add, plus what
//! buoyancy can add over dt (|g| max|density| / rho dt) and what vorticity confinement can add
//! (S (e^(2|ε| dt) − 1)), from the first step on.

use super::params::{SPLAT_ADD, SPLAT_BLEND, Splat};

/// How one step is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Sub-steps, at least 1.
    pub substeps: u32,
    /// Time step of each sub-step, seconds.
    pub dt: f32,
    /// Whether the step was shortened: `substeps · dt` is less than the dt asked for.
    pub clamped: bool,
}

/// Splits a step of `dt` at `speed` (m/s) on cells of `h` so each sub-step moves the fluid at most
/// `max_cfl` cells; `max_cfl` ≤ 0 (or no known speed) means one step as asked.
pub fn plan(dt: f32, speed: f32, h: f32, max_cfl: f32, max_substeps: u32) -> Plan {
    let one = Plan { substeps: 1, dt, clamped: false };
    if !(max_cfl > 0.0 && speed > 0.0 && speed.is_finite() && h > 0.0) {
        return one;
    }
    let needed = (dt as f64 * speed as f64 / (h as f64 * max_cfl as f64)).ceil();
    let max = max_substeps.max(1);
    if needed <= 1.0 {
        one
    } else if needed <= max as f64 {
        let n = needed as u32;
        Plan { substeps: n, dt: dt / n as f32, clamped: false }
    } else {
        Plan { substeps: max, dt: max_cfl * h / speed, clamped: true }
    }
}

/// The largest |density| a step can reach from `density` (kg/m³) with these splats: dabs add
/// theirs, emitters relax toward theirs.
pub fn density_with_splats(density: f32, splats: &[Splat]) -> f32 {
    let most = |mode: u32| splats.iter().filter(move |s| s.mode == mode).map(|s| s.density.abs());
    density.max(most(SPLAT_BLEND).fold(0.0, f32::max)) + most(SPLAT_ADD).sum::<f32>()
}

/// The speed buoyancy can add over `dt` (m/s): a = (density / rho) g on the heaviest or lightest
/// fluid (src/sim/forces.rs), held for the whole step.
pub fn buoyancy_speed(dt: f32, gravity: [f32; 2], rho: f32, density: f32) -> f32 {
    let g = (gravity[0] as f64).hypot(gravity[1] as f64);
    let a = g * density as f64 / rho as f64;
    let v = (a * dt as f64) as f32;
    if v.is_finite() { v } else { f32::INFINITY }
}

/// The speed vorticity confinement (strength `epsilon`) can add over `dt` to a flow whose
/// fastest face moves at `speed`, m/s. Its force ε h |ω| (N × ẑ), with ω from central differences
/// of cell-centred velocities (src/sim/vorticity.rs), is at most 2|ε| S: |ω| ≤ 2S/h. It grows
/// with the speed it adds, so over dt at most S (e^(2|ε| dt) − 1).
pub fn confinement_speed(dt: f32, epsilon: f32, speed: f32) -> f32 {
    let v = (speed as f64 * (2.0 * epsilon.abs() as f64 * dt as f64).exp_m1()) as f32;
    if v.is_finite() { v } else { f32::INFINITY }
}

/// The fastest |u|, |v| a step can reach from `speed` with these splats: brush dabs add their
/// velocity, emitters relax toward theirs (so they raise the bound only to their own speed), m/s.
pub fn speed_with_splats(speed: f32, splats: &[Splat]) -> f32 {
    let fastest = |mode: u32| splats.iter().filter(|s| s.mode == mode).map(|s| s.vx.abs().max(s.vy.abs())).fold(0.0, f32::max);
    speed.max(fastest(SPLAT_BLEND)) + fastest(SPLAT_ADD)
}
