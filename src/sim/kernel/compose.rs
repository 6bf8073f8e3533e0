//! Shader composition: a pass's WGSL is the grid's and cell block's constants, the prelude
//! (shaders/shared/grid.wgsl), the parts it takes, then its own file; naga parses and validates
//! the result, naming the file and line of a mistake.

use super::profile::DeviceProfile;
use crate::error::{Error, Result};
use std::cell::Cell;

pub const PRELUDE: &str = include_str!("../../../shaders/shared/grid.wgsl");

/// The parts of the prelude that read fields, and the solver checks' shared parts: taken by the
/// passes that declare what they read. (file, text) The multigrid family's are beside it
/// (src/sim/multigrid/shaders.rs); `parts` lists them all.
pub const PARTS: &[(&str, &str)] = &[
    ("shared/solid", include_str!("../../../shaders/shared/solid.wgsl")),
    ("shared/velocity", include_str!("../../../shaders/shared/velocity.wgsl")),
    ("shared/velocity_blocks", include_str!("../../../shaders/shared/velocity_blocks.wgsl")),
    ("shared/splats", include_str!("../../../shaders/shared/splats.wgsl")),
    ("shared/empty_cell", include_str!("../../../shaders/shared/empty_cell.wgsl")),
    ("shared/nonfinite", include_str!("../../../shaders/shared/nonfinite.wgsl")),
    ("shared/lanes1", include_str!("../../../shaders/shared/lanes1.wgsl")),
    ("shared/lanes4", include_str!("../../../shaders/shared/lanes4.wgsl")),
    ("solver_reduce", include_str!("../../../shaders/solver_reduce.wgsl")),
    ("solver_gate", include_str!("../../../shaders/solver_gate.wgsl")),
    ("solver_gate_check", include_str!("../../../shaders/solver_gate_check.wgsl")),
];

macro_rules! part {
    (solid) => {
        include_str!("../../../shaders/shared/solid.wgsl")
    };
    (empty_cell) => {
        include_str!("../../../shaders/shared/empty_cell.wgsl")
    };
    (velocity) => {
        include_str!("../../../shaders/shared/velocity.wgsl")
    };
    (velocity_blocks) => {
        include_str!("../../../shaders/shared/velocity_blocks.wgsl")
    };
    (splats) => {
        include_str!("../../../shaders/shared/splats.wgsl")
    };
    (nonfinite) => {
        include_str!("../../../shaders/shared/nonfinite.wgsl")
    };
    (lanes1) => {
        include_str!("../../../shaders/shared/lanes1.wgsl")
    };
    (lanes4) => {
        include_str!("../../../shaders/shared/lanes4.wgsl")
    };
}

/// A multigrid shader file (composed after the prelude, shared parts first).
macro_rules! mg {
    ($name:literal) => {
        include_str!(concat!("../../../shaders/multigrid/", $name, ".wgsl"))
    };
}

/// `NAME_first(u)` and `NAME_last(u)`: the first and last cell of unit u of the `Lanes` array
/// NAME (shaders/shared/lanes1.wgsl), each read as one word. A CPU adapter reads a vector lane by
/// lane, so a word taken from a unit's whole vector costs the vector's reads: the quads beside a
/// quad made a Jacobi sweep read 28 words a quad for 22 (on lavapipe the equal-work step took 0.90
/// of the CPU with words). Composed after the pass's own file, which declares NAME, so that a
/// mistake's line in it stays its own.
macro_rules! lane_words {
    (lanes1, $($name:literal),+) => {
        concat!($("fn ", $name, "_first(u: u32) -> f32 { return ", $name, "[u]; }\n",
                  "fn ", $name, "_last(u: u32) -> f32 { return ", $name, "[u]; }\n"),+)
    };
    (lanes4, $($name:literal),+) => {
        concat!($("fn ", $name, "_first(u: u32) -> f32 { return ", $name, "[u].x; }\n",
                  "fn ", $name, "_last(u: u32) -> f32 { return ", $name, "[u].w; }\n"),+)
    };
}
pub(crate) use lane_words;

/// The multigrid level 0 check (shaders/solver_check_mg.wgsl) over `Lanes` of one width.
macro_rules! check_mg {
    ($lanes:ident) => {
        concat!(
            part!(nonfinite),
            part!($lanes),
            mg!("level"),
            mg!("plain"),
            reduce!(),
            gate!(),
            decide!(),
            include_str!("../../../shaders/solver_check_mg.wgsl"),
            lane_words!($lanes, "mg_x")
        )
    };
}

/// The first stage of the solver checks' reductions.
macro_rules! reduce {
    () => {
        include_str!("../../../shaders/solver_reduce.wgsl")
    };
}

/// The gates' decision after a check.
macro_rules! decide {
    () => {
        include_str!("../../../shaders/solver_gate_check.wgsl")
    };
}

/// The opening of a gated solve: by its own dispatch, or by the warm start's scaling.
macro_rules! gate {
    () => {
        include_str!("../../../shaders/solver_gate.wgsl")
    };
}

/// The warm start's sums and mix.
macro_rules! warm {
    () => {
        include_str!("../../../shaders/warm_start_mix.wgsl")
    };
}

/// The passes' WGSL, by file name (without `.wgsl`): the parts it takes, then its own file,
/// which declares every binding the parts and the pass read or write. The multigrid family's
/// compositions are beside it (src/sim/multigrid/shaders.rs); `shaders` lists every pass.
pub const SHADERS: &[(&str, &str)] = &[
    ("sources", concat!(part!(solid), part!(splats), part!(empty_cell), include_str!("../../../shaders/sources.wgsl"))),
    ("forces", concat!(part!(solid), part!(splats), include_str!("../../../shaders/forces.wgsl"))),
    ("divergence", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/divergence.wgsl"))),
    ("pressure", concat!(part!(solid), include_str!("../../../shaders/pressure.wgsl"))),
    // one source, a cell or a quad a thread (shaders/shared/lanes1.wgsl)
    ("pressure_sweep", concat!(part!(lanes1), include_str!("../../../shaders/pressure_sweep.wgsl"), lane_words!(lanes1, "p"))),
    ("pressure_sweep_quad", concat!(part!(lanes4), include_str!("../../../shaders/pressure_sweep.wgsl"), lane_words!(lanes4, "p"))),
    ("project", concat!(part!(solid), include_str!("../../../shaders/project.wgsl"))),
    (
        "advect/velocity",
        concat!(part!(solid), part!(velocity), part!(velocity_blocks), include_str!("../../../shaders/advect/velocity.wgsl")),
    ),
    ("advect/ink", concat!(part!(solid), part!(velocity), part!(velocity_blocks), include_str!("../../../shaders/advect/ink.wgsl"))),
    ("advect/pack_ink", concat!(part!(lanes1), include_str!("../../../shaders/advect/pack_ink.wgsl"))),
    ("advect/pack_ink_quad", concat!(part!(lanes4), include_str!("../../../shaders/advect/pack_ink.wgsl"))),
    ("stats", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/stats.wgsl"))),
    ("vorticity", concat!(part!(lanes1), include_str!("../../../shaders/vorticity.wgsl"))),
    ("vorticity_quad", concat!(part!(lanes4), include_str!("../../../shaders/vorticity.wgsl"))),
    ("vorticity_confine", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/vorticity_confine.wgsl"))),
    (
        "advect/maccormack",
        concat!(part!(solid), part!(velocity), part!(velocity_blocks), include_str!("../../../shaders/advect/maccormack.wgsl")),
    ),
    ("advect/conservative", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/advect/conservative.wgsl"))),
    (
        "solver_check",
        concat!(part!(solid), part!(nonfinite), reduce!(), gate!(), decide!(), include_str!("../../../shaders/solver_check.wgsl")),
    ),
    // one source, a cell or a quad a thread (shaders/shared/lanes1.wgsl)
    ("solver_check_mg", check_mg!(lanes1)),
    ("solver_check_mg_quad", check_mg!(lanes4)),
    (
        "warm_start",
        concat!(
            part!(nonfinite),
            part!(lanes1),
            mg!("level"),
            warm!(),
            gate!(),
            include_str!("../../../shaders/warm_start.wgsl"),
            lane_words!(lanes1, "p", "p_prev", "p_prev2")
        ),
    ),
    (
        "warm_start_quad",
        concat!(
            part!(nonfinite),
            part!(lanes4),
            mg!("level"),
            warm!(),
            gate!(),
            include_str!("../../../shaders/warm_start.wgsl"),
            lane_words!(lanes4, "p", "p_prev", "p_prev2")
        ),
    ),
    ("mgpcg", concat!(part!(nonfinite), mg!("level"), reduce!(), include_str!("../../../shaders/mgpcg.wgsl"))),
    ("viscosity", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/viscosity.wgsl"))),
    ("body_loads", include_str!("../../../shaders/body_loads.wgsl")),
    ("probes", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/probes.wgsl"))),
    ("move_body", concat!(part!(empty_cell), include_str!("../../../shaders/move_body.wgsl"))),
    ("tracers", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/tracers.wgsl"))),
    ("streamlines", concat!(part!(solid), part!(velocity), include_str!("../../../shaders/streamlines.wgsl"))),
    ("level_picture", include_str!("../../../shaders/level_picture.wgsl")),
];

/// Every pass, the multigrid family's included: (name, composed text after the prelude).
pub fn shaders() -> impl Iterator<Item = (&'static str, &'static str)> {
    SHADERS.iter().chain(crate::sim::multigrid::shaders::PASSES).copied()
}

/// Every part a pass may take (`parse` names the file of a mistake in one).
pub fn parts() -> impl Iterator<Item = (&'static str, &'static str)> {
    PARTS.iter().chain(crate::sim::multigrid::shaders::PARTS).copied()
}

/// The flow grid a kernel is built for. Its size and dye scale reach the shaders as constants
/// (`GRID_NX`, `GRID_NY`, `GRID_K`: `nx()`, `ny()`, `dye_k()` in shaders/shared/grid.wgsl), not
/// through the parameter block: a CPU adapter (lavapipe) then folds every index computation and
/// every division by them into the compiled kernel, which halved the cost of the advection,
/// forces and projection passes (BENCHMARKS.md, "Where the time goes: lavapipe"). A grid of
/// another size or dye scale is a new simulation with new kernels anyway (`Simulation::configure`
/// refuses to change them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSize {
    pub nx: u32,
    pub ny: u32,
    pub dye_scale: u32,
}

impl GridSize {
    /// A stand-in grid for reading a pass's source (reflection, layout tests): any size gives the
    /// same bindings and layouts.
    pub const NOMINAL: GridSize = GridSize { nx: 64, ny: 64, dye_scale: 1 };
}

/// The full source of a pass: the prelude, then the pass, with a GPU's cell block, on the
/// nominal grid (for reflection).
pub fn source(name: &str) -> Result<String> {
    source_with(name, DeviceProfile::GPU.cell_block, GridSize::NOMINAL)
}

/// The full source of a pass for cell block `block` on `grid`: the block's and the grid's
/// constants, the prelude, then the pass, its bindings numbered (`number_bindings`).
pub fn source_with(name: &str, block: [u32; 2], grid: GridSize) -> Result<String> {
    Ok(number_bindings(&composed(name, block, grid)?))
}

fn composed(name: &str, block: [u32; 2], grid: GridSize) -> Result<String> {
    let body = shaders().find(|(n, _)| *n == name).map(|(_, s)| s).ok_or_else(|| crate::error!("no shader named {name}"))?;
    Ok(format!("{}{PRELUDE}\n{body}", constants(block, grid)))
}

/// `src` with its bindings numbered from 0 in the order they are declared. Each file declares
/// its bindings from 0 (the prelude its parameter block, each part and the pass what they read),
/// so a composed pass has its own numbering, which naga's reflection reads back; the Rust side
/// binds by name (`reflect::Table`).
fn number_bindings(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let (mut rest, mut n) = (src, 0);
    while let Some(at) = rest.find("@binding(") {
        let after = &rest[at + "@binding(".len()..];
        let Some(close) = after.find(')') else { break };
        out.push_str(&rest[..at]);
        out.push_str(&format!("@binding({n})"));
        n += 1;
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The constants every pass is compiled with, which the prelude and the passes read: the cell
/// block and the grid.
pub fn constants(block: [u32; 2], grid: GridSize) -> String {
    format!(
        "const BLOCK_X: u32 = {}u;\nconst BLOCK_Y: u32 = {}u;\nconst GRID_NX: i32 = {};\nconst GRID_NY: i32 = {};\nconst GRID_K: i32 = {};\n",
        block[0],
        block[1],
        grid.nx,
        grid.ny,
        grid.dye_scale.max(1)
    )
}

thread_local! {
    static COMPILED_LEVEL: Cell<Option<crate::sim::multigrid::levels::LevelDesc>> = const { Cell::new(None) };
}

/// Runs `f` with the kernels this thread builds reading multigrid level `l`'s description as
/// constants (`compile_level_in`) instead of from the level buffer, where the device profile
/// compiles levels in (`DeviceProfile::levels_compiled_in`). Like the grid's size, a level's
/// sizes and offsets compiled in let a CPU adapter fold the kernel's index arithmetic: the quad
/// kernels, built once per level, cost about 8 % less CPU a V-cycle on lavapipe.
pub fn with_level_compiled<T>(l: &crate::sim::multigrid::levels::LevelDesc, f: impl FnOnce() -> T) -> T {
    let before = COMPILED_LEVEL.replace(Some(*l));
    let out = f();
    COMPILED_LEVEL.set(before);
    out
}

/// Entry points of the passes and whether each reads the dye scale (`reads_dye_scale`).
static DYE_READERS: std::sync::Mutex<Vec<(String, String, bool)>> = std::sync::Mutex::new(Vec::new());

/// Whether entry point `entry` of pass `shader` reads the dye scale: calls `dye_k`
/// (shaders/shared/grid.wgsl), the one reader of GRID_K, directly or through the functions it
/// calls. Found for all of a pass's entry points when one is first asked for: each alone, with
/// what only the others use dropped (naga's compaction).
pub fn reads_dye_scale(shader: &str, entry: &str) -> Result<bool> {
    reads_dye_scale_in(shader, entry, || parse(shader, &source(shader)?).map(Box::new))
}

/// `reads_dye_scale`, from the parsed pass `module` gives where it is not known yet (any
/// composition of the pass: what calls `dye_k` is the same whatever the constants in front of it).
pub fn reads_dye_scale_in<M>(shader: &str, entry: &str, module: impl FnOnce() -> Result<M>) -> Result<bool>
where
    M: std::ops::Deref<Target = (naga::Module, naga::valid::ModuleInfo)>,
{
    if let Some(r) = known_dye_reader(shader, entry) {
        return Ok(r);
    }
    note_dye_readers(shader, &module()?.0);
    known_dye_reader(shader, entry).ok_or_else(|| crate::error!("shaders/{shader}.wgsl has no entry point {entry}"))
}

fn known_dye_reader(shader: &str, entry: &str) -> Option<bool> {
    let list = DYE_READERS.lock().unwrap_or_else(|e| e.into_inner());
    list.iter().find(|(s, e, _)| s == shader && e == entry).map(|t| t.2)
}

/// Notes which entry points of pass `shader` read the dye scale in `module`.
fn note_dye_readers(shader: &str, module: &naga::Module) {
    let found: Vec<(String, String, bool)> = module
        .entry_points
        .iter()
        .map(|e| {
            let mut alone = module.clone();
            alone.entry_points.retain(|x| x.name == e.name);
            naga::compact::compact(&mut alone, naga::compact::KeepUnused::No);
            let reads = alone.functions.iter().any(|(_, f)| f.name.as_deref() == Some("dye_k"));
            (shader.to_string(), e.name.clone(), reads)
        })
        .collect();
    let mut list = DYE_READERS.lock().unwrap_or_else(|e| e.into_inner());
    for f in found {
        if !list.iter().any(|(s, e, _)| *s == f.0 && *e == f.1) {
            list.push(f);
        }
    }
}

/// The source a kernel is built from: `source_with`, and the level `with_level_compiled` gives
/// compiled in where `level_in` (the device profile's `levels_compiled_in`).
pub fn kernel_source(name: &str, block: [u32; 2], grid: GridSize, level_in: bool) -> Result<String> {
    let src = composed(name, block, grid)?;
    Ok(number_bindings(&match COMPILED_LEVEL.get().filter(|_| level_in) {
        Some(l) => compile_level_in(&src, &l),
        None => src,
    }))
}

/// How a pass declares the level binding, after `@group(0) @binding(N) ` (tests/bindings.rs
/// checks that every pass that binds a level declares it so).
pub const LEVEL_DECL: &str = "var<storage, read> level: Level;";

/// `src` with its level binding replaced by a constant of the same name and value.
fn compile_level_in(src: &str, l: &crate::sim::multigrid::levels::LevelDesc) -> String {
    let words: [u32; 12] = bytemuck::cast(*l);
    let args: Vec<String> = words.iter().map(|w| format!("{w}u")).collect();
    let constant = format!("const level = Level({});", args.join(", "));
    let lines: Vec<String> = src
        .lines()
        .map(|line| if line.starts_with("@group(0) @binding(") && line.ends_with(LEVEL_DECL) { constant.clone() } else { line.to_string() })
        .collect();
    lines.join("\n")
}

/// Parses and validates a composed shader, naming the pass file and line of a mistake.
pub fn parse(name: &str, source: &str) -> Result<(naga::Module, naga::valid::ModuleInfo)> {
    // where each known part lies in the source; the rest is the pass's own file, which comes last
    let spans: Vec<(&str, usize, usize)> = std::iter::once(("shared/grid", PRELUDE))
        .chain(parts().filter(|(file, _)| *file != name))
        .filter_map(|(file, text)| source.find(text).map(|at| (file, at, at + text.len())))
        .collect();
    let last_part = spans.iter().map(|s| s.2).max().unwrap_or(0);
    let own_start = last_part + usize::from(source[last_part..].starts_with('\n'));
    let line_of = |offset: usize| source[..offset].matches('\n').count() + 1;
    let locate = |offset: usize| -> String {
        let offset = offset.min(source.len());
        match spans.iter().find(|s| (s.1..s.2).contains(&offset)) {
            Some((file, start, _)) => format!("shaders/{file}.wgsl:{}", line_of(offset) - line_of(*start) + 1),
            None => format!("shaders/{name}.wgsl:{}", line_of(offset) - line_of(own_start.min(offset)) + 1),
        }
    };
    let module = naga::front::wgsl::parse_str(source).map_err(|e| {
        let at = e.location(source).map(|l| locate(l.offset as usize)).unwrap_or_default();
        Error(format!("{at}: {}", e.message()))
    })?;
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| {
            let at = e.location(source).map(|l| locate(l.offset as usize)).unwrap_or_default();
            Error(format!("{at}: {}", e.into_inner()))
        })?;
    Ok((module, info))
}
