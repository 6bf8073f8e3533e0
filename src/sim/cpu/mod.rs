//! CPU reference of every simulation pass, with the same names as the WGSL files, written as
//! plain loops. Tests run each GPU pass and its twin here on the same input and compare.

pub mod advect;
pub mod body_loads;
pub mod divergence;
pub mod forces;
pub mod grid;
pub mod level_picture;
pub mod mgpcg;
pub mod move_body;
pub mod multigrid;
pub mod pressure;
pub mod pressure_sor;
pub mod probes;
pub mod project;
pub mod solver_check;
pub mod solver_gate_check;
pub mod sources;
pub mod stats;
pub mod streamlines;
pub mod tracers;
pub mod viscosity;
pub mod vorticity;
pub mod warm_start;

pub use advect::{advect, advect_ink, advect_velocity};
pub use divergence::divergence;
pub use forces::forces;
pub use move_body::move_body;
pub use pressure::pressure;
pub use project::project;
pub use sources::sources;
pub use viscosity::viscosity;
pub use vorticity::vorticity;
pub use warm_start::warm_start;

use crate::sim::fields::Fields;
use crate::sim::params::{Params, Splat};

/// One whole step on the CPU, in the order of DESIGN.md §2 (Jacobi solver). Velocity, ink and
/// density are all carried by the velocity the projection left.
pub fn step(f: &mut Fields, p: &Params, splats: &[Splat], iterations: u32, warm_start: bool, freeze_velocity: bool) {
    step_viscous(f, p, splats, iterations, warm_start, freeze_velocity, 0);
}

/// [`step`] with `viscosity_iterations` Jacobi sweeps of implicit viscosity after the forces
/// (none when ν = 0).
pub fn step_viscous(
    f: &mut Fields,
    p: &Params,
    splats: &[Splat],
    iterations: u32,
    warm_start: bool,
    freeze_velocity: bool,
    viscosity_iterations: u32,
) {
    sources(f, p, splats);
    if !freeze_velocity {
        forces(f, p);
        if p.vorticity != 0.0 {
            vorticity(f, p);
        }
        if p.viscosity > 0.0 {
            viscosity(f, p, viscosity_iterations);
        }
        divergence(f, p);
        if warm_start {
            // a fixed count of sweeps: β p1 (shaders/warm_start.wgsl)
            self::warm_start(f, p, false);
        } else {
            f.p.fill(0.0);
        }
        for _ in 0..iterations {
            pressure(f, p);
        }
        project(f, p);
    }
    advect(f, p, freeze_velocity);
}
