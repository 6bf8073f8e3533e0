//! smokebox: an interactive smoke sandbox. A MAC-grid fluid solver in WGSL compute shaders
//! (src/sim, shaders/), a headless command line (src/cli.rs) and a desktop app (src/app.rs).

pub mod app;
pub mod bench;
pub mod cli;
pub mod config;
pub mod error;
pub mod gpu;
pub mod output;
pub mod render;
pub mod sim;
pub mod state_io;
pub mod ui;

pub use error::{Error, Result};
