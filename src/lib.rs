//! smokebox: an interactive smoke sandbox. A MAC-grid fluid solver in WGSL compute shaders
//! (src/sim, shaders/), a headless command line (src/cli.rs) and an app (src/app/): a desktop window, or the same app as a WebGPU page
//! (src/platform/ is the one seam between the two).

pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod config;
pub mod error;
pub mod gpu;
pub mod output;
pub mod platform;
pub mod render;
pub mod sim;
pub mod state_io;
pub mod ui;

pub use error::{Error, Result};
