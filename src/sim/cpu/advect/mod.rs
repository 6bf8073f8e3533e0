//! CPU reference of the advection stage, one file per shader of shaders/advect/: semi-Lagrangian
//! velocity.rs and ink.rs, the maccormack.rs (and BFECC) correction, conservative.rs flux form;
//! and the whole stage as src/sim/advect.rs dispatches it.

pub mod conservative;
pub mod ink;
pub mod maccormack;
pub mod velocity;

use crate::sim::fields::Fields;
use crate::sim::params::Params;
pub use conservative::conservative;
pub use ink::advect_ink;
use maccormack::{correct_cells, correct_velocity, corrected};
pub use velocity::advect_velocity;

/// The whole advection stage with the schemes in `p.schemes`, as src/sim/advect.rs runs it.
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
