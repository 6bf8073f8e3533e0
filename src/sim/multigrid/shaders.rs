//! The multigrid family's shaders beside its code: the parts its passes share, and each pass's
//! composition (its parts, then its own file; src/sim/kernel/compose.rs puts the prelude in
//! front). The solver checks, the warm start and SOR take `level` (and SOR `common` and `tile`)
//! through their own compositions there.

/// A file of shaders/multigrid/.
macro_rules! mg {
    ($name:literal) => {
        include_str!(concat!("../../../shaders/multigrid/", $name, ".wgsl"))
    };
}

/// The family's files as parts, by name (where a mistake lies: `kernel::parse`).
pub const PARTS: &[(&str, &str)] = &[
    ("multigrid/level", mg!("level")),
    ("multigrid/common", mg!("common")),
    ("multigrid/tile", mg!("tile")),
    ("multigrid/setup", mg!("setup")),
    ("multigrid/smooth", mg!("smooth")),
    ("multigrid/restrict", mg!("restrict")),
    ("multigrid/prolong", mg!("prolong")),
    ("multigrid/coarse", mg!("coarse")),
    ("multigrid/coarse_levels", mg!("coarse_levels")),
    ("multigrid/quad", mg!("quad")),
];

/// Each pass: the parts it takes, then its own file.
pub const PASSES: &[(&str, &str)] = &[
    ("multigrid/setup", concat!(include_str!("../../../shaders/shared/solid.wgsl"), mg!("level"), mg!("common"), mg!("setup"))),
    ("multigrid/smooth", concat!(mg!("level"), mg!("common"), mg!("tile"), mg!("smooth"))),
    ("multigrid/restrict", concat!(mg!("level"), mg!("common"), mg!("restrict"))),
    ("multigrid/prolong", concat!(mg!("level"), mg!("common"), mg!("tile"), mg!("prolong"))),
    ("multigrid/coarse", concat!(mg!("level"), mg!("common"), mg!("coarse_levels"), mg!("coarse"))),
    ("multigrid/quad", concat!(mg!("level"), mg!("quad"))),
    ("multigrid/lower", concat!(mg!("level"), mg!("quad"), mg!("coarse_levels"), mg!("lower"))),
    ("multigrid/bottom", concat!(mg!("level"), mg!("bottom"))),
];
