//! Helpers shared by the integration tests.
#![allow(dead_code)]

use smokebox::gpu::Gpu;
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;

/// The GPU (lavapipe in CI). No adapter is a failure that says how to get one, never a pass.
pub fn gpu() -> Gpu {
    match Gpu::headless() {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

/// A small deterministic generator (xorshift), so tests need no extra crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Parameters of a box of `nx` × `ny` cells of side `h` with walls on every side.
pub fn box_params(nx: usize, ny: usize, h: f32, dt: f32) -> Params {
    Params { nx: nx as u32, ny: ny as u32, h, dt, rho: 1.0, jacobi_weight: 0.8, sor_omega: 1.9, gravity_y: -9.81, ..Params::default() }
}

/// A field of white noise in every array, with solids where `solid_fraction` says.
pub fn random_fields(nx: usize, ny: usize, seed: u64, solid_fraction: f32) -> Fields {
    let mut rng = Rng::new(seed);
    let mut f = Fields::zeros(nx, ny);
    for x in f.u.iter_mut().chain(f.v.iter_mut()).chain(f.p.iter_mut()).chain(f.divergence.iter_mut()).chain(f.density.iter_mut()) {
        *x = rng.signed();
    }
    for x in f.ink.iter_mut() {
        *x = rng.unit();
    }
    for x in f.solid.iter_mut() {
        *x = if rng.unit() < solid_fraction { 1.0 } else { 0.0 };
    }
    f
}

/// max |a - b| over two arrays.
pub fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

pub fn max_abs(a: &[f32]) -> f32 {
    a.iter().map(|x| x.abs()).fold(0.0, f32::max)
}

/// Asserts two fields agree within `rel` of the larger one's scale (at least `floor`).
pub fn assert_close(name: &str, gpu: &[f32], cpu: &[f32], rel: f32) {
    let scale = max_abs(cpu).max(max_abs(gpu)).max(1e-6);
    let d = max_diff(gpu, cpu);
    assert!(d <= rel * scale, "{name}: GPU and CPU differ by {d:e} (scale {scale:e}, allowed {:e})", rel * scale);
}

/// Boundary set-ups every pass is checked under: (label, kinds left/right/bottom/top).
pub fn boundary_cases() -> Vec<(&'static str, [u32; 4])> {
    vec![
        ("walls", [BC_WALL; 4]),
        ("periodic", [BC_PERIODIC; 4]),
        ("channel", [BC_INFLOW, BC_OUTFLOW, BC_WALL, BC_WALL]),
        ("open-top", [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW]),
    ]
}

pub fn with_boundaries(mut p: Params, kinds: [u32; 4]) -> Params {
    p.bc_kind = kinds;
    p.inflow_u = [0.7, 0.0, 0.0, 0.0];
    p.inflow_v = [0.1, 0.0, 0.0, 0.0];
    p.inflow_ink_r = [0.5, 0.0, 0.0, 0.0];
    p.inflow_density = [0.25, 0.0, 0.0, 0.0];
    p
}

/// A discretely divergence-free swirl in a closed box, from a stream function on the nodes,
/// with the dye grid k times finer.
#[allow(dead_code)]
pub fn stirring(nx: usize, ny: usize, k: usize, h: f32, speed: f32) -> Fields {
    let mut f = Fields::zeros_dye(nx, ny, k);
    let psi = |i: usize, j: usize| {
        let (x, y) = (i as f32 / nx as f32, j as f32 / ny as f32);
        let pi = std::f32::consts::PI;
        speed * h * nx as f32 / pi * ((pi * x).sin() * (pi * y).sin() + 0.5 * (2.0 * pi * x).sin() * (3.0 * pi * y).sin())
    };
    for j in 0..ny {
        for i in 0..=nx {
            let n = f.ui(i, j);
            f.u[n] = (psi(i, j + 1) - psi(i, j)) / h;
        }
    }
    for j in 0..=ny {
        for i in 0..nx {
            let n = f.vi(i, j);
            f.v[n] = -(psi(i + 1, j) - psi(i, j)) / h;
        }
    }
    f
}

/// The stream function of a unit box at the grid nodes, (nx + 1) × (ny + 1) row-major: ψ = 0 on
/// the bottom, integrated up each column of u (u = ∂ψ/∂y).
pub fn stream_function(f: &Fields) -> Vec<f32> {
    let (nx, ny) = (f.nx, f.ny);
    let h = 1.0 / nx as f32;
    let mut psi = vec![0.0f32; (nx + 1) * (ny + 1)];
    for i in 0..=nx {
        for j in 0..ny {
            psi[(j + 1) * (nx + 1) + i] = psi[j * (nx + 1) + i] + f.u[f.ui(i, j)] * h;
        }
    }
    psi
}

/// The wind tunnel on a coarse grid, for its vortex street: 2 x 1 m, 64 x 32 cells, a cylinder
/// of D = 0.25 m (8 cells) just off the centre line, U = 1 m/s.
pub const COARSE_WIND_TUNNEL: [&str; 5] =
    ["grid.nx=64", "grid.ny=32", "grid.cell_size=0.03125", "time.dt=0.02", "obstacles=[{shape='circle',center=[0.5,0.51],radius=0.125}]"];
