//! A safe time step: a step whose dt would carry the fastest fluid more than `max_cfl` cells is
//! split into sub-steps; one that would need more than `max_substeps` is shortened to what they
//! can hold (the caller warns). The speed comes from the GPU's statistics a step late, plus what
//! this step's brush dabs and emitters can add.

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

/// The most speed this step's splats can add or impose (brush dabs add their velocity, emitters
/// relax toward theirs), m/s.
pub fn splat_speed(splats: &[super::params::Splat]) -> f32 {
    splats.iter().filter(|s| s.mode < super::params::SPLAT_PAINT_SOLID).map(|s| s.vx.abs().max(s.vy.abs())).fold(0.0, f32::max)
}
