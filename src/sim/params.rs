//! The parameter block and splat records shared with WGSL.
//! Keep in sync with `Params` and `Splat` in shaders/shared/grid.wgsl; the test
//! `params_layout_matches_wgsl` compares sizes and offsets through naga's reflection.

use crate::config::{BoundaryKind, InflowProfile, Scene, Slip};
use bytemuck::{Pod, Zeroable};

pub const SIDE_LEFT: usize = 0;
pub const SIDE_RIGHT: usize = 1;
pub const SIDE_BOTTOM: usize = 2;
pub const SIDE_TOP: usize = 3;

pub const BC_WALL: u32 = 0;
pub const BC_INFLOW: u32 = 1;
pub const BC_OUTFLOW: u32 = 2;
pub const BC_PERIODIC: u32 = 3;

pub const SLIP_NO_SLIP: u32 = 0;
pub const SLIP_FREE: u32 = 1;

/// Advection scheme codes in `Params::schemes` (x: velocity, y: ink, z: density), defined
/// beside `Scheme` in the config layer.
pub use crate::config::scene::{SCHEME_BFECC, SCHEME_CONSERVATIVE, SCHEME_MACCORMACK, SCHEME_SEMI_LAGRANGIAN};

/// Keep in sync with `struct Params` in shaders/shared/grid.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Params {
    pub nx: u32,
    pub ny: u32,
    pub h: f32,
    pub dt: f32,
    pub rho: f32,
    pub viscosity: f32,
    pub jacobi_weight: f32,
    pub sor_omega: f32,
    pub gravity_x: f32,
    pub gravity_y: f32,
    pub vorticity: f32,
    pub damping: f32,
    pub ink_dissipation: f32,
    pub density_drain: f32,
    pub time: f32,
    pub splat_count: u32,
    /// Per side: left, right, bottom, top.
    pub bc_kind: [u32; 4],
    pub bc_slip: [u32; 4],
    pub bc_speed: [f32; 4],
    pub inflow_u: [f32; 4],
    pub inflow_v: [f32; 4],
    pub inflow_density: [f32; 4],
    pub inflow_ink_r: [f32; 4],
    pub inflow_ink_g: [f32; 4],
    pub inflow_ink_b: [f32; 4],
    /// x: velocity scheme, y: ink scheme, z: density scheme, w: flags.
    pub schemes: [u32; 4],
    pub extra: [f32; 4],
    /// The dye grid is `dye_scale` times finer than the flow grid (DESIGN.md §1, ink).
    pub dye_scale: u32,
    /// Flow threads (faces and cells) this step's splats can reach, from `extra`'s first two on
    /// (`sources::reach`).
    pub reach_w: u32,
    pub reach_h: u32,
    /// Bit s set: side s's inflow has a parabolic profile (`inflow_profile`); also pads the block
    /// to 16 bytes.
    pub inflow_parabolic: u32,
    /// The velocity (m/s) of the body being dragged: what its faces impose as the normal edge
    /// velocity (cells labelled `SOLID_MOVING`; zero while none is dragged).
    pub body_velocity: [f32; 2],
    /// What this step's `move_body` pass does (`BODY_*`), and the body's shape (`SHAPE_*`).
    pub body_stage: u32,
    pub body_kind: u32,
    /// The body's place after this step's move: a circle's centre and radius (x, y, r, 0), a
    /// rectangle's centre and half sides (x, y, w/2, h/2), metres.
    pub body_shape: [f32; 4],
}

/// A disk that adds (mode 0, the brush) or blends toward (mode 1, an emitter) velocity, ink and
/// density. Keep in sync with `struct Splat` in shaders/shared/grid.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Splat {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
    pub mode: u32,
    pub vx: f32,
    pub vy: f32,
    pub density: f32,
    pub ink_r: f32,
    pub ink_g: f32,
    pub ink_b: f32,
    /// Emitters (mode 1): relaxation rate toward the values at the centre, 1/s.
    pub rate: f32,
    pub _pad1: f32,
}

pub const SPLAT_ADD: u32 = 0;
pub const SPLAT_BLEND: u32 = 1;
/// Brush modes that edit obstacles: cells whose centre lies inside the disk become solid (and
/// lose their ink and density) or fluid again.
pub const SPLAT_PAINT_SOLID: u32 = 2;
pub const SPLAT_ERASE_SOLID: u32 = 3;

/// The `solid` value of the cells of the body being dragged (still solids are 1): its faces move
/// with `Params::body_velocity`.
pub const SOLID_MOVING: f32 = 2.0;

/// `Params::body_stage`: no body moves this step; the cells of the shape that are solid become
/// the moving body's; the body moves to the shape; the body's cells become still solids again.
pub const BODY_NONE: u32 = 0;
pub const BODY_PICK: u32 = 1;
pub const BODY_MOVE: u32 = 2;
pub const BODY_DROP: u32 = 3;
/// `Params::body_kind`.
pub const SHAPE_CIRCLE: u32 = 0;
pub const SHAPE_RECT: u32 = 1;

/// The most splats one step takes (brush segments plus emitters).
pub const MAX_SPLATS: usize = 256;

impl Params {
    /// The shader constants for a scene: the one mapping from scene keys to `Params`.
    pub fn from_scene(scene: &Scene) -> Params {
        let mut p = Params {
            nx: scene.grid.nx as u32,
            ny: scene.grid.ny as u32,
            h: scene.grid.cell_size,
            dt: scene.time.dt,
            rho: scene.fluid.density,
            viscosity: scene.fluid.viscosity,
            jacobi_weight: scene.solver.jacobi_weight,
            sor_omega: scene.solver.omega,
            gravity_x: scene.forces.gravity[0],
            gravity_y: scene.forces.gravity[1],
            vorticity: scene.forces.vorticity,
            damping: scene.forces.damping,
            ink_dissipation: scene.fluid.ink_dissipation,
            density_drain: scene.fluid.density_drain,
            schemes: [
                scene.advection.velocity.code(),
                scene.advection.ink.code(),
                scene.advection.density.unwrap_or(scene.advection.ink).code(),
                0,
            ],
            dye_scale: scene.dye_scale() as u32,
            ..Params::default()
        };
        for (n, (_, side)) in scene.boundary.sides().into_iter().enumerate() {
            p.bc_kind[n] = match side.kind {
                BoundaryKind::Wall => BC_WALL,
                BoundaryKind::Inflow => BC_INFLOW,
                BoundaryKind::Outflow => BC_OUTFLOW,
                BoundaryKind::Periodic => BC_PERIODIC,
            };
            p.bc_slip[n] = match side.slip {
                Slip::NoSlip => SLIP_NO_SLIP,
                Slip::FreeSlip => SLIP_FREE,
            };
            p.bc_speed[n] = side.speed;
            if side.profile == InflowProfile::Parabolic {
                p.inflow_parabolic |= 1 << n;
            }
            p.inflow_u[n] = side.velocity[0];
            p.inflow_v[n] = side.velocity[1];
            p.inflow_density[n] = side.density;
            p.inflow_ink_r[n] = side.ink[0];
            p.inflow_ink_g[n] = side.ink[1];
            p.inflow_ink_b[n] = side.ink[2];
        }
        p
    }

    /// The dye grid's scale k (at least 1).
    pub fn k(&self) -> usize {
        self.dye_scale.max(1) as usize
    }

    /// The share of an inflow's normal velocity at cell k of the n along `side`: 1, or
    /// 4 s (1 − s) at s = (k + ½) / n where its profile is parabolic (shaders/shared/grid.wgsl
    /// `inflow_profile`).
    pub fn inflow_profile(&self, side: usize, k: i32, n: i32) -> f32 {
        if self.inflow_parabolic & (1 << side) == 0 {
            return 1.0;
        }
        let s = (k as f32 + 0.5) / n as f32;
        4.0 * s * (1.0 - s)
    }

    pub fn periodic_x(&self) -> bool {
        self.bc_kind[SIDE_LEFT] == BC_PERIODIC
    }
    pub fn periodic_y(&self) -> bool {
        self.bc_kind[SIDE_BOTTOM] == BC_PERIODIC
    }
}
