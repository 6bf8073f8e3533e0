//! The bottom layer: what a scene says (format and defaults, `--set` overrides, validation, the
//! built-in library, PNG masks). It imports nothing from sim, render, app or ui.

pub mod mask;
pub mod scene;
