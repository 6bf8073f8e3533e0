//! The multigrid family's shaders beside its code: the parts its passes share, and each pass's
//! composition (its parts, then its own file; src/sim/kernel/compose.rs puts the prelude in
//! front). The solver checks and the warm start take `level` through their own
//! compositions there.

use crate::sim::kernel::lane_words;

/// A file of shaders/multigrid/.
macro_rules! mg {
    ($name:literal) => {
        include_str!(concat!("../../../shaders/multigrid/", $name, ".wgsl"))
    };
}

/// A file of shaders/shared/.
macro_rules! lanes {
    ($name:literal) => {
        include_str!(concat!("../../../shaders/shared/", $name, ".wgsl"))
    };
}

/// The family's files as parts, by name (where a mistake lies: `kernel::parse`).
pub const PARTS: &[(&str, &str)] = &[
    ("multigrid/level", mg!("level")),
    ("multigrid/tile", mg!("tile")),
    ("multigrid/setup", mg!("setup")),
    ("multigrid/smooth", mg!("smooth")),
    ("multigrid/plain", mg!("plain")),
    ("multigrid/coarse", mg!("coarse")),
    ("multigrid/coarse_levels", mg!("coarse_levels")),
    ("multigrid/quad", mg!("quad")),
];

/// Each pass: the parts it takes, then its own file.
pub const PASSES: &[(&str, &str)] = &[
    ("multigrid/setup", concat!(include_str!("../../../shaders/shared/solid.wgsl"), mg!("level"), mg!("setup"))),
    ("multigrid/smooth", concat!(mg!("level"), mg!("tile"), mg!("smooth"))),
    ("multigrid/coarse", concat!(mg!("level"), mg!("coarse_levels"), mg!("coarse"))),
    // one source, a cell or a quad a thread (shaders/shared/lanes1.wgsl)
    ("multigrid/plain", concat!(lanes!("lanes1"), mg!("level"), mg!("plain"), lane_words!(lanes1, "mg_x"))),
    ("multigrid/quad", concat!(lanes!("lanes4"), mg!("level"), mg!("plain"), mg!("quad"), lane_words!(lanes4, "mg_x"))),
    (
        "multigrid/lower",
        concat!(lanes!("lanes4"), mg!("level"), mg!("plain"), mg!("quad"), mg!("coarse_levels"), mg!("lower"), lane_words!(lanes4, "mg_x")),
    ),
    ("multigrid/bottom", concat!(mg!("level"), mg!("bottom"))),
];
