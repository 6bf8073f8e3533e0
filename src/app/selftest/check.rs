//! What a check is and where it stands, shared by the self-test's groups of checks.

use super::super::files::FieldsRead;
use crate::config::{Scene, Source};
use crate::platform::{FileData, Instant};
use crate::sim::fields::Fields;
use serde_json::Value;

/// Largest grid side the self-test runs.
pub const CAP: i64 = 128;

pub enum Kind {
    /// A scene with `--set` overrides, run for this many frames.
    Run(String, Vec<String>, u32),
    /// A stroke across the field by pointer events on the canvas: "mouse" or "touch".
    Stroke(&'static str),
    /// A screenshot and a short GIF recording, both offered as downloads.
    Capture,
    Overlays,
    /// The state read back and kept for the reopen checks; the page's Save state (a zip).
    Save,
    /// The saved state opened again from step 0 of its scene, this way.
    Reopen(Way),
    /// View settings kept in localStorage; the page reloads after its report.
    Keep,
    /// After the reload: the kept settings are back, and the URL's win.
    Kept,
    /// Plume at this side, every step run, 4 a frame: at its defaults, or (`true`) at the race's
    /// equal work (BENCHMARKS.md: Jacobi 20 at 128², 40 at 256², no tolerance, semi-Lagrangian,
    /// dye on the flow grid, no sub-steps).
    Timing(i64, bool),
    /// The embedded page: a mouse moved across the field, no button held, with hover painting
    /// on (it must paint) or off (it must not).
    Hover(bool),
    /// The embedded page: no ink before the idle time, idle splats after it.
    Idle,
    /// The stage view by keys (T, S, →, then T or Esc to leave) on this scene, its stage lines,
    /// pictures, and the run going on after it.
    Stages(StageScene),
    /// The same scene stepped whole to the step the stage view left at: the state must match.
    StagesMatchSteps,
    /// The move brush: one finger drags the scene's disc across a still box.
    FingerDrag,
}

/// The scenes the stage view is taken through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StageScene {
    /// `teaching`: 40 Jacobi sweeps, 11 stages a step; left with T.
    Teaching,
    /// `plume` at 128²: multigrid, whose V-cycle levels come after its first picture; left with Esc.
    Plume,
}

#[derive(Clone, Copy)]
pub enum Way {
    /// The zip handed to the page's opener.
    Zip,
    /// The zip dropped on the canvas (a `drop` event, read by the page's listener).
    Dropped,
    /// The state's loose `.npy` files and meta.json chosen in the file picker.
    Picked,
}

/// The state the reopen checks compare with.
pub struct Saved {
    pub fields: Fields,
    pub step: u64,
    pub zip: FileData,
    pub loose: Vec<FileData>,
}

pub struct Check {
    pub name: String,
    pub kind: Kind,
}

impl Check {
    pub fn new(name: &str, kind: Kind) -> Check {
        Check { name: name.to_string(), kind }
    }
}

/// A walk through the stage view: keys pressed, lines seen.
#[derive(Default)]
pub struct Walk {
    /// The step the view opened at.
    pub opened: Option<u64>,
    /// The frame of the last key, and the stage line before it.
    pub pressed: Option<(u32, Option<String>)>,
    /// Stage lines seen after each press, in order.
    pub lines: Vec<String>,
    /// Frames since the last line came (its picture is taken once the overlays settled).
    pub since_line: u32,
    /// The step the view left at, once it did.
    pub left: Option<u64>,
    /// The step at which Esc was pressed again, the view closed (the page must go on).
    pub esc_again: Option<u64>,
}

/// Where a check is.
pub struct Current {
    pub check: Check,
    pub frame: u32,
    pub read: Option<FieldsRead>,
    pub started: Instant,
    /// When the check began, its set-up (a new scene's kernels) included: its time in the report.
    pub began: Instant,
    pub first_step: u64,
    /// Dispatches recorded when the timing began (`sim::kernel::dispatches`).
    pub first_dispatch: u64,
    pub error: Option<String>,
    pub done: bool,
    pub measured: Option<Value>,
    /// The canvas is sent to the test's server with these words once this frame is drawn.
    pub grab: Option<Value>,
    pub walk: Walk,
}

impl Current {
    pub fn new(check: Check) -> Current {
        Current {
            check,
            frame: 0,
            read: None,
            started: Instant::now(),
            began: Instant::now(),
            first_step: 0,
            first_dispatch: 0,
            error: None,
            done: false,
            measured: None,
            grab: None,
            walk: Walk::default(),
        }
    }
}

/// `name` with `sets`, its grid cut to `CAP` cells a side.
pub fn capped(name: &str, sets: &[String]) -> crate::Result<(Scene, Source)> {
    let (mut scene, source) = Scene::load(name, sets)?;
    let (nx, ny) = (scene.grid.nx, scene.grid.ny);
    if nx.max(ny) > CAP {
        if nx >= ny { scene.refine(Some(CAP), None) } else { scene.refine(None, Some(CAP)) }
    }
    scene.validate(&source)?;
    Ok((scene, source))
}

/// The ink (all channels) of flow cell (x, y), from the centre of its dye cells.
pub fn ink_at(f: &Fields, x: usize, y: usize) -> f32 {
    let k = f.dye_scale;
    let (dx, dy) = (x * k + k / 2, y * k + k / 2);
    let i = (dy * f.nx * k + dx) * 3;
    f.ink[i] + f.ink[i + 1] + f.ink[i + 2]
}
