//! Compute kernels: a pass's WGSL with the shared prelude in front, checked by naga, with the
//! bindings it really uses found by reflection. Each pass declares its own bindings, `read` where
//! it only reads, each name at its number in `slot` below, so the Rust side binds by name from one
//! table of buffers (and the few textures by slot: `Kernel::bind_with`); tests/bindings.rs checks
//! every entry point against WebGPU's rules.

use crate::error::{Error, Result};
use std::sync::Arc;

/// The slot of every named buffer: a pass that declares `u` declares it at binding 1.
pub mod slot {
    pub const PARAMS: u32 = 0;
    pub const U: u32 = 1;
    pub const V: u32 = 2;
    pub const P: u32 = 3;
    pub const DIVERGENCE: u32 = 4;
    pub const INK: u32 = 5;
    pub const DENSITY: u32 = 6;
    pub const SOLID: u32 = 7;
    pub const U_OUT: u32 = 8;
    pub const V_OUT: u32 = 9;
    pub const P_OUT: u32 = 10;
    pub const INK_OUT: u32 = 11;
    pub const DENSITY_OUT: u32 = 12;
    pub const SPLATS: u32 = 13;
    pub const PARTIALS: u32 = 14;
    pub const STATS: u32 = 15;
    pub const SCRATCH: u32 = 16;
    pub const STENCIL: u32 = 17;
    // 18..=23, 26, 27 pressure solvers: multigrid levels and the control words (src/sim/solver.rs)
    pub const LEVEL: u32 = 18;
    pub const MG_X: u32 = 19;
    pub const MG_RHS: u32 = 20;
    pub const MG_Y: u32 = 21;
    pub const MG_CONTROL: u32 = 22;
    pub const MG_STENCIL: u32 = 23;
    // 24, 25 implicit viscosity
    pub const VISC_RHS_U: u32 = 24;
    pub const VISC_RHS_V: u32 = 25;
    pub const MG_XC: u32 = 26;
    pub const MG_LEVELS: u32 = 27;
    // 28..=31 transport schemes and vorticity
    pub const CELL_TMP: u32 = 28;
    /// Ink's then density's scratch of the transport schemes.
    pub const TRANSPORT_TMP: u32 = 29;
    /// The velocity's bilinear blocks, u's (textures: shaders/shared/velocity_blocks.wgsl).
    pub const U_BLOCKS: u32 = 30;
    pub const VEL_TMP: u32 = 31;
    // 32 implicit viscosity's Chebyshev sweep state
    pub const VISC_STATE: u32 = 32;
    /// The pressure of the step before the last (the warm start's extrapolation).
    pub const P_PREV: u32 = 33;
    // 34, 35 a multigrid level's x as textures of quads, read and written by the plain sweeps of a
    // CPU adapter (shaders/multigrid_quad.wgsl): not buffers, bound by `Kernel::bind_with`
    pub const X_IN: u32 = 34;
    pub const X_OUT: u32 = 35;
    /// The level's rhs and stencil as textures of quads, written by the first sweep of a block.
    pub const RHS_IN: u32 = 36;
    pub const RHS_OUT: u32 = 37;
    pub const STENCIL_IN: u32 = 38;
    pub const STENCIL_OUT: u32 = 39;
    /// v's blocks, and both written (`fill_blocks`).
    pub const V_BLOCKS: u32 = 40;
    pub const U_BLOCKS_OUT: u32 = 41;
    pub const V_BLOCKS_OUT: u32 = 42;
    /// The ink as a texture of RGB texels, read by the semi-Lagrangian ink pass on a CPU adapter,
    /// and written (`advect/ink.wgsl` `pack_ink`).
    pub const INK_TEXELS: u32 = 43;
    pub const INK_TEXELS_OUT: u32 = 44;
    /// The gated dispatches' arguments (src/sim/solver_check.rs `args_buffer`), which the gates
    /// write: apart from the control buffer, so that a reduction that writes the control words can
    /// be dispatched through them (WebGPU forbids an indirect buffer a dispatch also writes).
    pub const MG_ARGS: u32 = 45;
    /// The next gate's own arguments, which a gate writes: two buffers by turns, as a gate
    /// dispatched through one cannot write it (src/sim/solver_check.rs `Check`).
    pub const GATE_ARGS: u32 = 46;
    /// The bottom level's inverse operator (shaders/multigrid_bottom.wgsl), written at set-up.
    pub const MG_BOTTOM: u32 = 47;
    /// The pressure two steps before `p`'s (shaders/warm_start_mix.wgsl).
    pub const P_PREV2: u32 = 48;
    /// `mg_bottom`'s columns as a texture of quads of rows (shaders/multigrid_bottom.wgsl
    /// `to_texture`), which the coarse solve's product reads.
    pub const BOTTOM_TEX: u32 = 49;
    pub const COUNT: usize = 50;

    /// The WGSL name of each slot ("" where free); tests/layout.rs checks the prelude against it.
    pub const NAMES: [&str; COUNT] = [
        "params",
        "u",
        "v",
        "p",
        "divergence",
        "ink",
        "density",
        "solid",
        "u_out",
        "v_out",
        "p_out",
        "ink_out",
        "density_out",
        "splats",
        "partials",
        "stats",
        "scratch",
        "stencil",
        "level",
        "mg_x",
        "mg_rhs",
        "mg_y",
        "mg_control",
        "mg_stencil",
        "visc_rhs_u",
        "visc_rhs_v",
        "mg_xc",
        "mg_levels",
        "cell_tmp",
        "transport_tmp",
        "u_blocks",
        "vel_tmp",
        "visc_state",
        "p_prev",
        "x_in",
        "x_out",
        "rhs_in",
        "rhs_out",
        "stencil_in",
        "stencil_out",
        "v_blocks",
        "u_blocks_out",
        "v_blocks_out",
        "ink_texels",
        "ink_texels_out",
        "mg_args",
        "gate_args",
        "mg_bottom",
        "p_prev2",
        "bottom_tex",
    ];
}

pub const PRELUDE: &str = include_str!("../../shaders/shared/grid.wgsl");

/// The parts of the prelude that read fields, and the multigrid's shared parts: taken by the
/// passes that declare what they read. (file, text)
pub const PARTS: &[(&str, &str)] = &[
    ("shared/solid", include_str!("../../shaders/shared/solid.wgsl")),
    ("shared/velocity", include_str!("../../shaders/shared/velocity.wgsl")),
    ("shared/velocity_blocks", include_str!("../../shaders/shared/velocity_blocks.wgsl")),
    ("shared/splats", include_str!("../../shaders/shared/splats.wgsl")),
    ("shared/nonfinite", include_str!("../../shaders/shared/nonfinite.wgsl")),
    ("multigrid_level", include_str!("../../shaders/multigrid_level.wgsl")),
    ("multigrid_common", include_str!("../../shaders/multigrid_common.wgsl")),
    ("multigrid_tile", include_str!("../../shaders/multigrid_tile.wgsl")),
    ("multigrid_setup", include_str!("../../shaders/multigrid_setup.wgsl")),
    ("multigrid_smooth", include_str!("../../shaders/multigrid_smooth.wgsl")),
    ("multigrid_restrict", include_str!("../../shaders/multigrid_restrict.wgsl")),
    ("multigrid_prolong", include_str!("../../shaders/multigrid_prolong.wgsl")),
    ("multigrid_coarse", include_str!("../../shaders/multigrid_coarse.wgsl")),
    ("multigrid_coarse_levels", include_str!("../../shaders/multigrid_coarse_levels.wgsl")),
    ("multigrid_quad", include_str!("../../shaders/multigrid_quad.wgsl")),
    ("solver_reduce", include_str!("../../shaders/solver_reduce.wgsl")),
    ("solver_gate", include_str!("../../shaders/solver_gate.wgsl")),
    ("solver_gate_check", include_str!("../../shaders/solver_gate_check.wgsl")),
];

macro_rules! part {
    (solid) => {
        include_str!("../../shaders/shared/solid.wgsl")
    };
    (velocity) => {
        include_str!("../../shaders/shared/velocity.wgsl")
    };
    (velocity_blocks) => {
        include_str!("../../shaders/shared/velocity_blocks.wgsl")
    };
    (splats) => {
        include_str!("../../shaders/shared/splats.wgsl")
    };
    (nonfinite) => {
        include_str!("../../shaders/shared/nonfinite.wgsl")
    };
}

/// A multigrid shader file (composed after the prelude, shared parts first).
macro_rules! mg {
    ($name:literal) => {
        include_str!(concat!("../../shaders/multigrid_", $name, ".wgsl"))
    };
}

/// The first stage of the solver checks' reductions.
macro_rules! reduce {
    () => {
        include_str!("../../shaders/solver_reduce.wgsl")
    };
}

/// The gates' decision after a check.
macro_rules! decide {
    () => {
        include_str!("../../shaders/solver_gate_check.wgsl")
    };
}

/// The opening of a gated solve: by its own dispatch, or by the warm start's scaling.
macro_rules! gate {
    () => {
        include_str!("../../shaders/solver_gate.wgsl")
    };
}

/// The warm start's sums and mix, shared by its two layouts.
macro_rules! warm {
    () => {
        include_str!("../../shaders/warm_start_mix.wgsl")
    };
}

/// Every pass's WGSL, by file name (without `.wgsl`): the parts it takes, then its own file,
/// which declares every binding the parts and the pass read or write.
pub const SHADERS: &[(&str, &str)] = &[
    ("sources", concat!(part!(solid), part!(splats), include_str!("../../shaders/sources.wgsl"))),
    ("forces", concat!(part!(solid), part!(splats), include_str!("../../shaders/forces.wgsl"))),
    ("divergence", concat!(part!(solid), part!(velocity), include_str!("../../shaders/divergence.wgsl"))),
    ("pressure", concat!(part!(solid), include_str!("../../shaders/pressure.wgsl"))),
    ("pressure_quad", include_str!("../../shaders/pressure_quad.wgsl")),
    ("project", concat!(part!(solid), include_str!("../../shaders/project.wgsl"))),
    ("advect/velocity", concat!(part!(solid), part!(velocity), part!(velocity_blocks), include_str!("../../shaders/advect/velocity.wgsl"))),
    ("advect/ink", concat!(part!(solid), part!(velocity), part!(velocity_blocks), include_str!("../../shaders/advect/ink.wgsl"))),
    ("advect/pack_ink", include_str!("../../shaders/advect/pack_ink.wgsl")),
    ("stats", concat!(part!(solid), part!(velocity), include_str!("../../shaders/stats.wgsl"))),
    ("vorticity", concat!(part!(solid), part!(velocity), include_str!("../../shaders/vorticity.wgsl"))),
    ("vorticity_quad", include_str!("../../shaders/vorticity_quad.wgsl")),
    (
        "advect/maccormack",
        concat!(part!(solid), part!(velocity), part!(velocity_blocks), include_str!("../../shaders/advect/maccormack.wgsl")),
    ),
    ("advect/conservative", concat!(part!(solid), part!(velocity), include_str!("../../shaders/advect/conservative.wgsl"))),
    ("pressure_sor", concat!(mg!("level"), mg!("common"), mg!("tile"), include_str!("../../shaders/pressure_sor.wgsl"))),
    ("multigrid_setup", concat!(part!(solid), mg!("level"), mg!("setup"))),
    ("multigrid_smooth", concat!(mg!("level"), mg!("common"), mg!("tile"), mg!("smooth"))),
    ("multigrid_restrict", concat!(mg!("level"), mg!("common"), mg!("restrict"))),
    ("multigrid_prolong", concat!(mg!("level"), mg!("common"), mg!("tile"), mg!("prolong"))),
    ("multigrid_coarse", concat!(mg!("level"), mg!("common"), mg!("coarse_levels"), mg!("coarse"))),
    ("multigrid_quad", concat!(mg!("level"), mg!("quad"))),
    ("multigrid_lower", concat!(mg!("level"), mg!("quad"), mg!("coarse_levels"), mg!("lower"))),
    ("multigrid_bottom", concat!(mg!("level"), mg!("bottom"))),
    (
        "solver_check",
        concat!(
            part!(solid),
            part!(nonfinite),
            mg!("level"),
            mg!("common"),
            reduce!(),
            gate!(),
            decide!(),
            include_str!("../../shaders/solver_check.wgsl")
        ),
    ),
    (
        "solver_check_quad",
        concat!(
            part!(nonfinite),
            mg!("level"),
            mg!("quad"),
            reduce!(),
            gate!(),
            decide!(),
            include_str!("../../shaders/solver_check_quad.wgsl")
        ),
    ),
    ("warm_start", concat!(part!(nonfinite), mg!("level"), warm!(), gate!(), include_str!("../../shaders/warm_start.wgsl"))),
    (
        "warm_start_quad",
        concat!(part!(nonfinite), mg!("level"), mg!("quad"), warm!(), gate!(), include_str!("../../shaders/warm_start_quad.wgsl")),
    ),
    ("viscosity", concat!(part!(solid), part!(velocity), include_str!("../../shaders/viscosity.wgsl"))),
];

/// The flow grid a kernel is built for. Its size and dye scale reach the shaders as constants
/// (`GRID_NX`, `GRID_NY`, `GRID_K`: `nx()`, `ny()`, `dye_k()` in shaders/shared/grid.wgsl), not
/// through the parameter block: a CPU adapter (lavapipe) then folds every index computation and
/// every division by them into the compiled kernel, which halved the cost of the advection,
/// forces and projection passes (BENCHMARKS.md, issue 22). A grid of another size or dye scale is
/// a new simulation with new kernels anyway (`Simulation::configure` refuses to change them).
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

/// What a kernel is built for: the device and the flow grid, and the switches that say what its
/// simulation's state may hold (None: anything, every check made at run time).
#[derive(Clone, Copy)]
pub struct Target<'a> {
    pub device: &'a wgpu::Device,
    /// `Gpu::serial` of `device`: kernels are kept by it and built once (None: always built).
    pub device_serial: Option<u64>,
    pub grid: GridSize,
    pub switches: Option<&'a Switches>,
}

/// What a simulation's state may hold, shared by its kernels: solid cells (override `SOLIDS`,
/// shaders/shared/solid.wgsl) and periodic axes (`PERIODIC_X`, `PERIODIC_Y`,
/// shaders/shared/grid.wgsl). A kernel dispatches the variant built without what cannot occur,
/// each variant built the first time it is needed. Most scenes have no obstacle and no periodic
/// side, and a CPU adapter runs both sides of a branch on a uniform value under a mask and pays
/// for every read lane by lane: without them the default plume's step takes about a quarter less
/// CPU on lavapipe. The owner keeps each switch a superset of the truth: a solid cell with its
/// switch off would be fluid.
#[derive(Clone, Debug, Default)]
pub struct Switches(std::sync::Arc<std::sync::atomic::AtomicU32>);

impl Switches {
    const SOLIDS: u32 = 1;
    const PERIODIC_X: u32 = 2;
    const PERIODIC_Y: u32 = 4;
    /// Every switch on: what a kernel without switches assumes.
    const ALL: u32 = 7;

    pub fn new(solids: bool, periodic: [bool; 2]) -> Switches {
        let s = Switches::default();
        s.set_solids(solids);
        s.set_periodic(periodic);
        s
    }

    /// Whether some cell may be solid.
    pub fn set_solids(&self, on: bool) {
        self.put(Switches::SOLIDS, on);
    }

    /// Whether the x and y axes may be periodic.
    pub fn set_periodic(&self, on: [bool; 2]) {
        self.put(Switches::PERIODIC_X, on[0]);
        self.put(Switches::PERIODIC_Y, on[1]);
    }

    fn put(&self, bit: u32, on: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        if on {
            self.0.fetch_or(bit, Relaxed)
        } else {
            self.0.fetch_and(!bit, Relaxed)
        };
    }

    fn bits(&self) -> u32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The overrides the switches set, with their bits.
const SWITCHED: [(&str, u32); 3] =
    [("SOLIDS", Switches::SOLIDS), ("PERIODIC_X", Switches::PERIODIC_X), ("PERIODIC_Y", Switches::PERIODIC_Y)];

/// The full source of a pass: the prelude, then the pass, with a GPU's cell block, on the
/// nominal grid (for reflection).
pub fn source(name: &str) -> Result<String> {
    source_with(name, GPU_CELL_BLOCK, GridSize::NOMINAL)
}

/// The full source of a pass for cell block `block` (`cell_block`) on `grid`: the block's and
/// the grid's constants, the prelude, then the pass.
pub fn source_with(name: &str, block: [u32; 2], grid: GridSize) -> Result<String> {
    let body = SHADERS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s).ok_or_else(|| crate::error!("no shader named {name}"))?;
    Ok(format!("{}{PRELUDE}\n{body}", constants(block, grid)))
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

/// The cells a workgroup of the cell kernels covers (their `@workgroup_size(BLOCK_X, BLOCK_Y)`, a
/// quad kernel's `BLOCK_X / 4` threads across), and of the multigrid and Jacobi sweeps' gated
/// workgroup counts: 16 x 16 on a GPU, where 8 x 8 took 5-6 % more of a 4096² step on an H200 in
/// two calls and no less at 1024² (BENCHMARKS.md, thirty-second session); 8 x 8 in a browser,
/// whose software adapter (SwiftShader, which the page cannot tell from a GPU) ran the plume's
/// 128² step in 38-40 ms with it against 39-48 ms with 16 x 16. A CPU adapter pays for every
/// workgroup (lavapipe runs each as one call of the compiled kernel over its invocations, eight
/// lanes at a time), so there fewer, wider ones: 32 x 8 (BENCHMARKS.md, issue 22).
/// `SMOKEBOX_CELL_BLOCK=WxH` overrides (W a multiple of 4, W x H at most 256), and so does
/// `with_cell_block` for the kernels a thread builds (tests run both shapes).
pub fn cell_block(device: &wgpu::Device) -> [u32; 2] {
    if let Some(b) = BLOCK_OVERRIDE.get() {
        return b;
    }
    let parsed = std::env::var("SMOKEBOX_CELL_BLOCK").ok().and_then(|v| {
        let (w, h) = v.split_once('x')?;
        Some([w.parse::<u32>().ok()?, h.parse::<u32>().ok()?])
    });
    if let Some([w, h]) = parsed.filter(|&[w, h]| w % 4 == 0 && w > 0 && h > 0 && w * h <= 256) {
        return [w, h];
    }
    if device.adapter_info().device_type == wgpu::DeviceType::Cpu {
        CPU_CELL_BLOCK
    } else if cfg!(target_arch = "wasm32") {
        PAGE_CELL_BLOCK
    } else {
        GPU_CELL_BLOCK
    }
}

pub const GPU_CELL_BLOCK: [u32; 2] = [16, 16];
pub const PAGE_CELL_BLOCK: [u32; 2] = [8, 8];
pub const CPU_CELL_BLOCK: [u32; 2] = [32, 8];

/// Runs `f` with a thread's override `key` set to `value`, then puts back what it was (the
/// `with_*` functions: tests build kernels of another device's shape on lavapipe).
fn overriding<V: Copy + 'static, T>(key: &'static std::thread::LocalKey<std::cell::Cell<V>>, value: V, f: impl FnOnce() -> T) -> T {
    let before = key.replace(value);
    let out = f();
    key.set(before);
    out
}

thread_local! {
    static COMPILED_LEVEL: std::cell::Cell<Option<super::levels::LevelDesc>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the kernels this thread builds reading multigrid level `l`'s description as
/// constants (`compile_level_in`) instead of from the level buffer (slot 18). Like the grid's
/// size, a level's sizes and offsets compiled in let a CPU adapter fold the kernel's index
/// arithmetic: the quad kernels, built once per level, cost about 8 % less CPU a V-cycle on
/// lavapipe (BENCHMARKS.md, twenty-third session).
pub fn with_level_compiled<T>(l: &super::levels::LevelDesc, f: impl FnOnce() -> T) -> T {
    overriding(&COMPILED_LEVEL, Some(*l), f)
}

/// Entry points of the passes and whether each reads the dye scale (`reads_dye_scale`).
static DYE_READERS: std::sync::Mutex<Vec<(String, String, bool)>> = std::sync::Mutex::new(Vec::new());

/// Whether entry point `entry` of pass `shader` reads the dye scale: calls `dye_k`
/// (shaders/shared/grid.wgsl), the one reader of GRID_K, directly or through the functions it
/// calls. Found for all of a pass's entry points when one is first asked for: each alone, with
/// what only the others use dropped (naga's compaction).
pub fn reads_dye_scale(shader: &str, entry: &str) -> Result<bool> {
    let known = || {
        let list = DYE_READERS.lock().unwrap_or_else(|e| e.into_inner());
        list.iter().find(|(s, e, _)| s == shader && e == entry).map(|t| t.2)
    };
    if let Some(r) = known() {
        return Ok(r);
    }
    let (module, _) = parse(shader, &source(shader)?)?;
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
    DYE_READERS.lock().unwrap_or_else(|e| e.into_inner()).extend(found);
    known().ok_or_else(|| crate::error!("shaders/{shader}.wgsl has no entry point {entry}"))
}

/// `with_level_compiled` with level 0 of `target`'s grid, where `on` (else `f` as it is).
pub fn with_level0_compiled<T>(target: Target, on: bool, f: impl FnOnce() -> T) -> T {
    if !on {
        return f();
    }
    let l0 = super::levels::levels(target.grid.nx as usize, target.grid.ny as usize)[0];
    with_level_compiled(&l0, f)
}

/// `src` with its level binding replaced by a constant of the same name and value
/// (tests/bindings.rs checks that every pass that binds a level declares it as `DECL`).
fn compile_level_in(src: &str, l: &super::levels::LevelDesc) -> String {
    const DECL: &str = "@group(0) @binding(18) var<storage, read> level: Level;";
    let words: [u32; 12] = bytemuck::cast(*l);
    let args: Vec<String> = words.iter().map(|w| format!("{w}u")).collect();
    src.replace(DECL, &format!("const level = Level({});", args.join(", ")))
}

thread_local! {
    static BLOCK_OVERRIDE: std::cell::Cell<Option<[u32; 2]>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the kernels (and solvers) this thread builds on cell block `block`.
pub fn with_cell_block<T>(block: [u32; 2], f: impl FnOnce() -> T) -> T {
    overriding(&BLOCK_OVERRIDE, Some(block), f)
}

/// Parses and validates a composed shader, naming the pass file and line of a mistake.
pub fn parse(name: &str, source: &str) -> Result<(naga::Module, naga::valid::ModuleInfo)> {
    // where each known part lies in the source; the rest is the pass's own file, which comes last
    let spans: Vec<(&str, usize, usize)> = std::iter::once(("shared/grid", PRELUDE))
        .chain(PARTS.iter().copied().filter(|(file, _)| *file != name))
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

/// How a pass declares a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Uniform,
    Read,
    ReadWrite,
}

/// One binding an entry point uses, as its WGSL declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub slot: u32,
    pub name: String,
    pub access: Access,
    /// Whether this entry point stores to it (reads and writes as naga's analysis sees them).
    pub written: bool,
}

/// The bindings entry point `index` of a validated module uses, by slot.
pub fn entry_bindings(module: &naga::Module, info: &naga::valid::ModuleInfo, index: usize) -> Vec<Binding> {
    let uses = info.get_entry_point(index);
    let mut used: Vec<Binding> = module
        .global_variables
        .iter()
        .filter(|(handle, _)| !uses[*handle].is_empty())
        .filter_map(|(handle, g)| {
            let access = match g.space {
                naga::AddressSpace::Uniform => Access::Uniform,
                naga::AddressSpace::Storage { access } if access.contains(naga::StorageAccess::STORE) => Access::ReadWrite,
                naga::AddressSpace::Storage { .. } => Access::Read,
                _ => return None,
            };
            let written = uses[handle].contains(naga::valid::GlobalUse::WRITE);
            g.binding.as_ref().map(|b| Binding { slot: b.binding, name: g.name.clone().unwrap_or_default(), access, written })
        })
        .collect();
    used.sort_unstable_by_key(|b| b.slot);
    used
}

/// The textures entry point `index` uses, by slot, as bind group layout entries: sampled ones are
/// read with `textureLoad` (unfilterable), storage ones written.
pub fn entry_textures(module: &naga::Module, info: &naga::valid::ModuleInfo, index: usize) -> Result<Vec<(u32, wgpu::BindingType)>> {
    let uses = info.get_entry_point(index);
    let mut used = vec![];
    for (_, g) in module.global_variables.iter().filter(|(handle, _)| !uses[*handle].is_empty()) {
        let (Some(b), naga::TypeInner::Image { dim: naga::ImageDimension::D2, arrayed: false, class }) =
            (&g.binding, &module.types[g.ty].inner)
        else {
            continue;
        };
        let sampled =
            |sample_type| wgpu::BindingType::Texture { sample_type, view_dimension: wgpu::TextureViewDimension::D2, multisampled: false };
        let written = |format| wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
            view_dimension: wgpu::TextureViewDimension::D2,
        };
        let ty = match class {
            naga::ImageClass::Sampled { kind: naga::ScalarKind::Float, multi: false } => {
                sampled(wgpu::TextureSampleType::Float { filterable: false })
            }
            naga::ImageClass::Sampled { kind: naga::ScalarKind::Uint, multi: false } => sampled(wgpu::TextureSampleType::Uint),
            naga::ImageClass::Storage { format: naga::StorageFormat::Rgba32Float, access } if *access == naga::StorageAccess::STORE => {
                written(wgpu::TextureFormat::Rgba32Float)
            }
            naga::ImageClass::Storage { format: naga::StorageFormat::Rgba32Uint, access } if *access == naga::StorageAccess::STORE => {
                written(wgpu::TextureFormat::Rgba32Uint)
            }
            _ => return Err(crate::error!("{}: a texture of a kind the kernels do not bind", g.name.as_deref().unwrap_or("?"))),
        };
        used.push((b.binding, ty));
    }
    used.sort_unstable_by_key(|t| t.0);
    Ok(used)
}

/// Every entry point of a pass and the bindings each uses.
pub fn reflect(shader: &str) -> Result<Vec<(String, Vec<Binding>)>> {
    let src = source(shader)?;
    let (module, info) = parse(shader, &src)?;
    Ok(module.entry_points.iter().enumerate().map(|(i, e)| (e.name.clone(), entry_bindings(&module, &info, i))).collect())
}

static DISPATCHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts one recorded dispatch (every dispatch of the step goes through here; `smokebox bench`).
pub fn count_dispatch() {
    DISPATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Dispatches recorded so far by this process.
pub fn dispatches() -> u64 {
    DISPATCHES.load(std::sync::atomic::Ordering::Relaxed)
}

/// Buffers by slot number: what a bind group gives each slot (`Buffers::table`).
pub type Table<'a> = [Option<&'a wgpu::Buffer>; slot::COUNT];

/// A kernel with the one bind group it runs with: the shape most passes need (`Ctx::bound`).
/// Passes that ping-pong or run per level keep a `Kernel` and several groups instead.
pub struct Bound {
    pub kernel: Kernel,
    pub group: wgpu::BindGroup,
}

impl Bound {
    pub fn new(target: Target, shader: &str, entry: &str, table: &Table) -> Result<Bound> {
        Bound::with_constants(target, shader, entry, &[], table)
    }

    /// A kernel with values for its pipeline-overridable constants, bound as `new` binds.
    pub fn with_constants(target: Target, shader: &str, entry: &str, constants: &[(&str, f64)], table: &Table) -> Result<Bound> {
        Bound::with_views(target, shader, entry, constants, table, &[])
    }

    /// `with_constants` with views for the texture slots (`Kernel::bind_with`).
    pub fn with_views(
        target: Target,
        shader: &str,
        entry: &str,
        constants: &[(&str, f64)],
        table: &Table,
        views: &[(u32, &wgpu::TextureView)],
    ) -> Result<Bound> {
        let kernel = Kernel::with_options(target, shader, entry, constants, true)?;
        let group = kernel.bind_with(target.device, table, views);
        Ok(Bound { kernel, group })
    }

    /// One dispatch covering `size` threads.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, size: [u32; 2]) {
        self.kernel.dispatch(pass, &self.group, size);
    }

    /// One dispatch of an exact number of workgroups.
    pub fn dispatch_groups(&self, pass: &mut wgpu::ComputePass<'_>, groups: u32) {
        self.kernel.dispatch_groups(pass, &self.group, groups);
    }
}

/// One compute entry point, ready to dispatch.
#[derive(Clone)]
pub struct Kernel {
    pub label: String,
    /// A pipeline for each state of the switches its module reads (`Switches`).
    variants: Variants,
    pub layout: wgpu::BindGroupLayout,
    /// Binding numbers the entry point uses, in increasing order.
    pub bindings: Vec<u32>,
    /// Whether each of `bindings` is bound writable.
    pub writable: Vec<bool>,
    /// Texture slots the entry point uses (`entry_textures`), bound by `bind_with`.
    pub textures: Vec<u32>,
    pub workgroup_size: [u32; 3],
}

/// A kernel's pipelines by the switches' state, and what it takes to build one more.
#[derive(Clone)]
struct Variants {
    switches: Option<Switches>,
    /// The switches' bits this kernel's module has overrides for.
    mask: u32,
    /// By the switches' bits within `mask` (shared with the kernel's copies in `CACHE`).
    built: Arc<[std::sync::OnceLock<wgpu::ComputePipeline>; 8]>,
    device: wgpu::Device,
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    entry: String,
    constants: Vec<(String, f64)>,
    zero_workgroup_memory: bool,
}

impl Variants {
    /// The switches' bits now, within `mask` (every one on without switches).
    fn key(&self) -> u32 {
        self.switches.as_ref().map_or(Switches::ALL, Switches::bits) & self.mask
    }

    /// The pipeline for switch bits `key`, built the first time.
    fn pipeline(&self, label: &str, key: u32) -> &wgpu::ComputePipeline {
        self.built[key as usize].get_or_init(|| {
            let mut constants: Vec<(&str, f64)> = self.constants.iter().map(|(k, x)| (k.as_str(), *x)).collect();
            for (name, bit) in SWITCHED.iter().filter(|(_, bit)| self.mask & bit != 0) {
                constants.push((name, f64::from(u8::from(key & bit != 0))));
            }
            build_pipeline(&self.device, label, &self.layout, &self.module, &self.entry, &constants, self.zero_workgroup_memory)
        })
    }
}

/// A compute pipeline of `module`'s `entry` with these override values.
fn build_pipeline(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry: &str,
    constants: &[(&str, f64)],
    zero_workgroup_memory: bool,
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        module,
        entry_point: Some(entry),
        compilation_options: wgpu::PipelineCompilationOptions { constants, zero_initialize_workgroup_memory: zero_workgroup_memory },
        cache: None,
    })
}

/// Everything a kernel is built from but its device: the source (grid, cell block and, for the
/// kernels that read it, the dye scale compiled in; a level where one is), entry point, pipeline
/// constants and shader checks.
#[derive(Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    src: String,
    entry: String,
    constants: Vec<(String, u64)>,
    zero_workgroup_memory: bool,
    checks: ShaderChecks,
}

/// Kernels built on the last few devices that built one: a simulation made again on a grid its
/// device has run (another scene, a reset, a state loaded) takes its kernels, pipelines included,
/// from here instead of building them again. The browser's software adapter (SwiftShader) took
/// 25-30 s to build a 128² scene's kernels, each time a scene opened. A device's kernels go at
/// the next kernel built after its `Gpu` was dropped (`gpu::is_open`), or once four others have
/// built since.
struct KernelCache {
    /// `Gpu::serial` (wgpu's device ids repeat across instances).
    device: u64,
    kernels: std::collections::HashMap<CacheKey, Kernel>,
}

/// Devices whose kernels are kept: the app has one at a time (two while a lost one's successor
/// starts); tests build on several at once, one a thread.
const CACHED_DEVICES: usize = 4;

#[cfg(not(target_arch = "wasm32"))]
static CACHE: std::sync::Mutex<Vec<KernelCache>> = std::sync::Mutex::new(Vec::new());

// (WebGPU's objects stay on the page's one thread)
#[cfg(target_arch = "wasm32")]
thread_local! {
    static CACHE: std::cell::RefCell<Vec<KernelCache>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn with_cache<T>(f: impl FnOnce(&mut Vec<KernelCache>) -> T) -> T {
    #[cfg(not(target_arch = "wasm32"))]
    return f(&mut CACHE.lock().unwrap_or_else(|e| e.into_inner()));
    #[cfg(target_arch = "wasm32")]
    return CACHE.with(|c| f(&mut c.borrow_mut()));
}

/// The kernel built for `key` on device `device` (a serial), if there is one (without switches).
fn cached(device: u64, key: &CacheKey) -> Option<Kernel> {
    with_cache(|c| c.iter().find(|c| c.device == device).and_then(|c| c.kernels.get(key).cloned()))
}

/// Keeps `kernel`, built for `key` on `device`; that device is now the most recent.
fn keep(device: u64, key: CacheKey, kernel: &Kernel) {
    let mut kept = kernel.clone();
    kept.variants.switches = None;
    with_cache(|c| {
        let mut entry = match c.iter().position(|c| c.device == device) {
            Some(at) => c.remove(at),
            None => KernelCache { device, kernels: Default::default() },
        };
        entry.kernels.insert(key, kept);
        c.retain(|c| crate::gpu::is_open(c.device));
        c.push(entry);
        if c.len() > CACHED_DEVICES {
            c.remove(0);
        }
    });
}

/// Invocations per workgroup for the workgroup-memory solver kernels (override `WG`): on a CPU
/// adapter (lavapipe) each invocation of a workgroup is a coroutine that every barrier suspends,
/// so one SIMD batch of 8 does the same work with one; GPUs want full workgroups (256, WebGPU's
/// most). `SMOKEBOX_SOLVER_WORKGROUP=N` overrides, and so does `with_solver_workgroup` for the
/// kernels a thread builds (tests run a GPU's shape on lavapipe).
pub fn solver_workgroup(device: &wgpu::Device) -> f64 {
    if let Some(n) = WORKGROUP_OVERRIDE.get() {
        return n as f64;
    }
    if let Some(n) = std::env::var("SMOKEBOX_SOLVER_WORKGROUP").ok().and_then(|v| v.parse::<u32>().ok()) {
        return n.clamp(1, 256) as f64;
    }
    if device.adapter_info().device_type == wgpu::DeviceType::Cpu { 8.0 } else { 256.0 }
}

/// Most workgroups of a reduction's first stage (`reduction_groups`): the partial sums' blocks
/// are sized for it.
pub const MAX_REDUCTION_GROUPS: u32 = 1024;

/// Workgroups of a reduction's first stage (statistics, the warm start's sums, the residual
/// checks), each leaving one partial. On a CPU adapter each workgroup is a task whose invocations
/// are coroutines that every barrier of the reduction suspends: one workgroup a thread does
/// (`available_parallelism`, lavapipe's thread count), more only where a workgroup's invocations
/// would each take more than `CPU_REDUCTION_CELLS` cells (lavapipe ends an invocation's loops after
/// 65535 iterations, silently). 64 took 2-4 % more of a 128² step than two on the 2-core VM
/// (BENCHMARKS.md, thirty-first session). With a GPU's workgroups one for every 16 workgroups'
/// worth of cells, 64 to 1024, where 64 of 256 left most of an H200 idle on large grids (the warm
/// start's two dispatches took 2.55 ms a step at 4096²) and small grids keep 64 (a browser's
/// software adapter takes a GPU's shapes). Follows the solver workgroup, so tests that run a GPU's
/// shape on lavapipe (`with_solver_workgroup`) run this one too.
pub fn reduction_groups(target: Target) -> u32 {
    let wg = solver_workgroup(target.device) as u64;
    let cells = target.grid.nx as u64 * target.grid.ny as u64;
    if wg < 64 {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
        return threads.max(cells.div_ceil(wg * CPU_REDUCTION_CELLS)).next_power_of_two().clamp(2, 64) as u32;
    }
    (cells / (16 * wg)).next_power_of_two().clamp(64, MAX_REDUCTION_GROUPS as u64) as u32
}

/// Most cells an invocation of a CPU adapter's reduction takes (`reduction_groups`), far under
/// lavapipe's loop budget.
const CPU_REDUCTION_CELLS: u64 = 4096;

/// Invocations that fold `groups` partials (stats.wgsl `finish`, warm_start.wgsl `scale`), each a
/// run of them in order before the first adds the subtotals: one serial fold where they are few
/// (a CPU adapter), 64 runs of 16 on a GPU, where one invocation's 1024 dependent loads would
/// take tens of microseconds.
pub fn fold_invocations(groups: u32) -> u32 {
    if groups <= 64 { 1 } else { 64 }
}

/// Which of the run-time checks naga adds to a kernel it keeps: clamping of indices (into
/// workgroup and local arrays; a Vulkan driver with robust buffer access bounds storage buffers
/// itself), a counter that bounds every loop, and guards on integer division. A CPU adapter, a
/// browser (whose WebGPU adds its own) and backends other than Vulkan keep them all. A Vulkan GPU
/// drops the loop counters (`GPU_CHECKS`): on an H200 the three checks took 11 % of a 4096² step
/// and 17 % of a 1024² one, the loop counters alone as much, the index clamps about 3 % and the
/// division guards nothing measurable (BENCHMARKS.md, thirty-second session). Every loop of these kernels runs to a count it is
/// given, and the same kernels with and without any of the checks give the same bits
/// (tests/shader_checks.rs). `SMOKEBOX_SHADER_CHECKS` overrides: `all` (or 1), `none` (or 0),
/// or the kept ones by name, e.g. `bounds,division`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ShaderChecks {
    pub bounds: bool,
    pub loops: bool,
    pub division: bool,
}

impl ShaderChecks {
    pub const ALL: ShaderChecks = ShaderChecks { bounds: true, loops: true, division: true };
    pub const NONE: ShaderChecks = ShaderChecks { bounds: false, loops: false, division: false };

    /// `all`, `none`, 1, 0 or a comma-separated list of the kept checks; None where a word is none
    /// of those.
    pub fn parse(text: &str) -> Option<ShaderChecks> {
        match text.trim() {
            "all" | "1" => return Some(Self::ALL),
            "none" | "0" => return Some(Self::NONE),
            _ => {}
        }
        let mut kept = Self::NONE;
        for word in text.split(',') {
            match word.trim() {
                "bounds" => kept.bounds = true,
                "loops" => kept.loops = true,
                "division" => kept.division = true,
                _ => return None,
            }
        }
        Some(kept)
    }

    fn runtime(self) -> wgpu::ShaderRuntimeChecks {
        wgpu::ShaderRuntimeChecks {
            bounds_checks: self.bounds,
            force_loop_bounding: self.loops,
            int_div_checks: self.division,
            ..wgpu::ShaderRuntimeChecks::checked()
        }
    }
}

/// The checks a Vulkan GPU's kernels keep (`ShaderChecks`): all but the loop counters.
pub const GPU_CHECKS: ShaderChecks = ShaderChecks { bounds: true, loops: false, division: true };

thread_local! {
    static CHECKS_OVERRIDE: std::cell::Cell<Option<ShaderChecks>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the kernels this thread builds keeping `checks` (tests compare them on lavapipe).
pub fn with_shader_checks<T>(checks: ShaderChecks, f: impl FnOnce() -> T) -> T {
    overriding(&CHECKS_OVERRIDE, Some(checks), f)
}

/// The checks `device`'s kernels keep (`ShaderChecks`).
pub fn shader_checks(device: &wgpu::Device) -> ShaderChecks {
    if let Some(c) = CHECKS_OVERRIDE.get() {
        return c;
    }
    if let Some(c) = std::env::var("SMOKEBOX_SHADER_CHECKS").ok().and_then(|v| ShaderChecks::parse(&v)) {
        return c;
    }
    let info = device.adapter_info();
    if cfg!(target_arch = "wasm32") || info.backend != wgpu::Backend::Vulkan || info.device_type == wgpu::DeviceType::Cpu {
        ShaderChecks::ALL
    } else {
        GPU_CHECKS
    }
}

thread_local! {
    static WORKGROUP_OVERRIDE: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the solver kernels this thread builds sized `invocations` a workgroup.
pub fn with_solver_workgroup<T>(invocations: u32, f: impl FnOnce() -> T) -> T {
    overriding(&WORKGROUP_OVERRIDE, Some(invocations), f)
}

/// Whether the semi-Lagrangian traces read the velocity's bilinear blocks (a vec4 a sample,
/// shaders/shared/velocity_blocks.wgsl): on a CPU adapter, which pays for every storage read lane
/// by lane; a GPU reads u and v directly. `SMOKEBOX_VELOCITY_BLOCKS=1` or `0` forces either (tests
/// run both on lavapipe).
pub fn velocity_blocks(device: &wgpu::Device) -> bool {
    match std::env::var("SMOKEBOX_VELOCITY_BLOCKS").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => device.adapter_info().device_type == wgpu::DeviceType::Cpu,
    }
}

/// Whether a grid's texture copies fit the device's largest 2D texture: the velocity's blocks
/// (nx + 1 x ny + 1 at most), the ink's texels (the dye grid) and the multigrid's textures of
/// quads. Where they do not (a grid as wide as the limit), a CPU adapter reads storage instead.
pub fn textures_fit(device: &wgpu::Device, nx: usize, ny: usize, k: usize) -> bool {
    let most = device.limits().max_texture_dimension_2d as usize;
    (k * nx).max(nx + 1) <= most && (k * ny).max(ny + 1) <= most
}

/// Whether the solvers use their workgroup-memory (tiled, temporally blocked) kernels. Not on a CPU
/// adapter: lavapipe runs them several times slower than one plain dispatch per sweep (measured
/// in BENCHMARKS.md), while a dispatch there costs little. `SMOKEBOX_SOLVER_TILES=1` or `=0`
/// overrides (benchmarks, tests).
pub fn solver_tiles(device: &wgpu::Device) -> bool {
    if let Some(t) = TILES_OVERRIDE.get() {
        return t;
    }
    match std::env::var("SMOKEBOX_SOLVER_TILES").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => device.adapter_info().device_type != wgpu::DeviceType::Cpu,
    }
}

thread_local! {
    static TILES_OVERRIDE: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the solvers this thread builds on the tiled kernels or not (`solver_tiles`).
pub fn with_solver_tiles<T>(tiled: bool, f: impl FnOnce() -> T) -> T {
    overriding(&TILES_OVERRIDE, Some(tiled), f)
}

impl Kernel {
    pub fn new(target: Target, shader: &str, entry: &str) -> Result<Kernel> {
        Kernel::with_options(target, shader, entry, &[], true)
    }

    /// A kernel with values for its pipeline-overridable constants; `zero_workgroup_memory: false`
    /// for a kernel that writes its workgroup memory before reading it (saves a clearing loop and
    /// barrier per workgroup).
    pub fn with_options(
        target: Target,
        shader: &str,
        entry: &str,
        constants: &[(&str, f64)],
        zero_workgroup_memory: bool,
    ) -> Result<Kernel> {
        let device = target.device;
        // a kernel that never reads the dye scale is built (and kept) as on scale 1, so a scene of
        // another dye scale finds it built
        let grid = if reads_dye_scale(shader, entry)? { target.grid } else { GridSize { dye_scale: 1, ..target.grid } };
        let mut src = source_with(shader, cell_block(device), grid)?;
        if let Some(l) = COMPILED_LEVEL.get() {
            src = compile_level_in(&src, &l);
        }
        let key = CacheKey {
            src,
            entry: entry.to_string(),
            constants: constants.iter().map(|&(k, v)| (k.to_string(), v.to_bits())).collect(),
            zero_workgroup_memory,
            checks: shader_checks(device),
        };
        let kernel = match target.device_serial.and_then(|d| cached(d, &key)) {
            Some(mut k) => {
                k.variants.switches = target.switches.cloned();
                k
            }
            None => {
                let k = Kernel::build(target, shader, &key.src, entry, constants, zero_workgroup_memory)?;
                if let Some(d) = target.device_serial {
                    keep(d, key, &k);
                }
                k
            }
        };
        // the variant for the switches now, built here (the others when first needed)
        kernel.pipeline();
        Ok(kernel)
    }

    /// Builds a kernel from its source (`source_with`), without `CACHE`.
    fn build(
        target: Target,
        shader: &str,
        src: &str,
        entry: &str,
        constants: &[(&str, f64)],
        zero_workgroup_memory: bool,
    ) -> Result<Kernel> {
        let device = target.device;
        let (module, info) = parse(shader, src)?;
        let index = module
            .entry_points
            .iter()
            .position(|e| e.name == entry)
            .ok_or_else(|| crate::error!("shaders/{shader}.wgsl has no entry point {entry}"))?;
        let used = entry_bindings(&module, &info, index);
        let textures = entry_textures(&module, &info, index)?;
        let bindings: Vec<u32> = used.iter().map(|b| b.slot).collect();
        let label = if entry == "main" { shader.to_string() } else { format!("{shader}.{entry}") };
        let entries: Vec<wgpu::BindGroupLayoutEntry> = used
            .iter()
            .map(|b| wgpu::BindGroupLayoutEntry {
                binding: b.slot,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: match b.access {
                        Access::Uniform => wgpu::BufferBindingType::Uniform,
                        Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                        Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                    },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .chain(textures.iter().map(|&(binding, ty)| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty,
                count: None,
            }))
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(&label), entries: &entries });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(&label),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let desc = wgpu::ShaderModuleDescriptor { label: Some(&label), source: wgpu::ShaderSource::Wgsl(src.to_string().into()) };
        let checks = shader_checks(device);
        let module_gpu = if checks == ShaderChecks::ALL {
            device.create_shader_module(desc)
        } else {
            // SAFETY: naga's checks guard against indices out of bounds, endless loops and
            // division by zero, of which these kernels have none (`ShaderChecks`); a Vulkan
            // driver with robust buffer access (which wgpu asks for) bounds storage access itself.
            unsafe { device.create_shader_module_trusted(desc, checks.runtime()) }
        };
        let declares = |name: &str| module.overrides.iter().any(|(_, o)| o.name.as_deref() == Some(name));
        let variants = Variants {
            switches: target.switches.cloned(),
            mask: SWITCHED.iter().filter(|(name, _)| declares(name)).fold(0, |m, (_, bit)| m | bit),
            built: Default::default(),
            device: device.clone(),
            module: module_gpu,
            layout: pipeline_layout,
            entry: entry.to_string(),
            constants: constants.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            zero_workgroup_memory,
        };
        let workgroup_size = module.entry_points[index].workgroup_size;
        Ok(Kernel {
            label,
            variants,
            layout,
            bindings,
            writable: used.iter().map(|b| b.access == Access::ReadWrite).collect(),
            textures: textures.iter().map(|t| t.0).collect(),
            workgroup_size,
        })
    }

    /// A bind group giving each used slot its buffer from `table` (indexed by slot number).
    /// Panics on a buffer bound at two slots where one is writable: WebGPU forbids that
    /// ("writable storage buffer binding aliasing") and native wgpu does not check it.
    pub fn bind(&self, device: &wgpu::Device, table: &Table) -> wgpu::BindGroup {
        self.bind_with(device, table, &[])
    }

    /// `bind` with views for the texture slots the kernel uses, by slot.
    pub fn bind_with(&self, device: &wgpu::Device, table: &Table, views: &[(u32, &wgpu::TextureView)]) -> wgpu::BindGroup {
        let buffer = |b: u32| table[b as usize].unwrap_or_else(|| panic!("{}: slot {b} has no buffer", self.label));
        for (x, &a) in self.bindings.iter().enumerate() {
            for (y, &b) in self.bindings.iter().enumerate().skip(x + 1) {
                if buffer(a) == buffer(b) && (self.writable[x] || self.writable[y]) {
                    panic!(
                        "{}: one buffer bound as both {} and {}, one of them writable (WebGPU forbids writable aliasing)",
                        self.label,
                        slot::NAMES[a as usize],
                        slot::NAMES[b as usize]
                    );
                }
            }
        }
        let view = |t: u32| {
            let v = views.iter().find(|v| v.0 == t).unwrap_or_else(|| panic!("{}: texture slot {t} has no view", self.label));
            wgpu::BindGroupEntry { binding: t, resource: wgpu::BindingResource::TextureView(v.1) }
        };
        let entries: Vec<wgpu::BindGroupEntry> = self
            .bindings
            .iter()
            .map(|&b| wgpu::BindGroupEntry { binding: b, resource: buffer(b).as_entire_binding() })
            .chain(self.textures.iter().map(|&t| view(t)))
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(&self.label), layout: &self.layout, entries: &entries })
    }

    /// The pipeline for the switches' state now: a variant is built the first time it is needed
    /// (a first obstacle painted into a scene without one, a side made periodic).
    pub fn pipeline(&self) -> &wgpu::ComputePipeline {
        self.variants.pipeline(&self.label, self.variants.key())
    }

    /// Records one dispatch covering `size` threads (rounded up to whole workgroups).
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, size: [u32; 2]) {
        count_dispatch();
        pass.set_pipeline(self.pipeline());
        pass.set_bind_group(0, bind_group, &[]);
        let groups = [size[0].div_ceil(self.workgroup_size[0]), size[1].div_ceil(self.workgroup_size[1])];
        super::dispatch_probe::timed(pass, &self.label, |pass| pass.dispatch_workgroups(groups[0], groups[1], 1));
    }

    /// Records a dispatch of an exact number of workgroups.
    pub fn dispatch_groups(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, groups: u32) {
        count_dispatch();
        pass.set_pipeline(self.pipeline());
        pass.set_bind_group(0, bind_group, &[]);
        super::dispatch_probe::timed(pass, &self.label, |pass| pass.dispatch_workgroups(groups, 1, 1));
    }
}
