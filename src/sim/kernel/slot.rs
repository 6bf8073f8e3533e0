//! The slot of every named buffer: a pass that declares `u` declares it at binding 1.

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
// CPU adapter (shaders/multigrid/quad.wgsl): not buffers, bound by `Kernel::bind_with`
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
/// The bottom level's inverse operator (shaders/multigrid/bottom.wgsl), written at set-up.
pub const MG_BOTTOM: u32 = 47;
/// The pressure two steps before `p`'s (shaders/warm_start_mix.wgsl).
pub const P_PREV2: u32 = 48;
/// `mg_bottom`'s columns as a texture of quads of rows (shaders/multigrid/bottom.wgsl
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
