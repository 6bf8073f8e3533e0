//! The bottom layer: what a scene says. Format and defaults (scene.rs), built-ins and files
//! (source.rs), `--set` overrides (overrides.rs), the table of keys (keys.rs), validation
//! (validate.rs), the split view's comparisons (compare.rs), obstacle masks
//! (mask.rs). It imports nothing from sim, render, app or ui.

pub mod compare;
pub mod keys;
pub mod mask;
pub mod overrides;
pub mod scene;
pub mod source;
pub mod validate;

pub use keys::{MAX_GRAVITY, MAX_SPEED, MAX_SWEEPS, MAX_VCYCLES, MAX_VORTICITY};
pub use overrides::parse_override;
pub use scene::*;
pub use source::{BUILTIN, BUILTIN_MASKS, Source, resolve_path};
