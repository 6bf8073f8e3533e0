//! Viscosity stage (shaders/viscosity.wgsl): implicit diffusion of the edge velocities,
//! (I − νΔt∇²) u = u*, by Chebyshev-accelerated Jacobi sweeps run to a tolerance. The right-hand
//! side u* is copied to its own buffers (`visc_rhs_u`, `visc_rhs_v`), then the iterate ping-pongs
//! u -> u_out -> u, each sweep overwriting the iterate before last; the sweep index and weight live
//! on the GPU (`visc_state`). Not dispatched when ν = 0.

use super::buffers::Buffers;
use super::kernel::Kernel;
use super::params::Params;
use super::stage::{Ctx, copy_all, timed_pass};
use crate::error::Result;

/// Error reduction the solve runs to: the Chebyshev bound on ‖x_k − x‖ / ‖x_0 − x‖ (x_0 = u*).
pub const TOLERANCE: f64 = 1e-5;

/// The bound ρ = 4a/(1 + 4a) on the spectral radius of the Jacobi matrix (Gershgorin: a face's
/// off-diagonal couplings sum to at most 4a, its diagonal to at least 1 + 4a), a = νΔt/h².
/// Keep in sync with `jacobi_bound` in shaders/viscosity.wgsl.
pub fn jacobi_bound(p: &Params) -> f64 {
    let a = p.viscosity as f64 * p.dt as f64 / (p.h as f64 * p.h as f64);
    4.0 * a / (1.0 + 4.0 * a)
}

/// Sweeps that bring the Chebyshev error bound 1/T_k(1/ρ) under [`TOLERANCE`], at most `max`
/// (0 when ν = 0). About ½√(8a)·ln(2/tol): 7 sweeps at a = 0.1, 22 at a = 1, 124 at a = 52.
pub fn sweeps(p: &Params, max: u32) -> u32 {
    let rho = jacobi_bound(p);
    // also when rho is NaN
    if rho.is_nan() || rho <= 0.0 {
        return 0;
    }
    let k = (1.0 / TOLERANCE).acosh() / (1.0 / rho).acosh();
    (k.ceil() as u32).max(1).min(max)
}

pub struct Viscosity {
    kernel: Kernel,
    reset: Kernel,
    advance: Kernel,
    /// u -> u_out, then u_out -> u.
    groups: [wgpu::BindGroup; 2],
    state_group: [wgpu::BindGroup; 2],
    rhs_u: wgpu::Buffer,
    rhs_v: wgpu::Buffer,
    edges: [u32; 2],
}

impl Viscosity {
    pub fn new(ctx: &Ctx) -> Result<Viscosity> {
        let d = ctx.device;
        let b = ctx.buffers;
        let kernel = Kernel::new(ctx.target(), "viscosity", "main")?;
        let reset = Kernel::new(ctx.target(), "viscosity", "chebyshev_reset")?;
        let advance = Kernel::new(ctx.target(), "viscosity", "chebyshev_advance")?;
        let like = |label: &str, of: &wgpu::Buffer| {
            d.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size: of.size(), usage: of.usage(), mapped_at_creation: false })
        };
        let rhs_u = like("visc_rhs_u", &b.u);
        let rhs_v = like("visc_rhs_v", &b.v);
        let state = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("visc_state"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let t = b.table().with("visc_rhs_u", &rhs_u).with("visc_rhs_v", &rhs_v).with("visc_state", &state);
        let swapped = t.swapped("u", "u_out").swapped("v", "v_out");
        let groups = [kernel.bind(d, &t), kernel.bind(d, &swapped)];
        let state_group = [reset.bind(d, &t), advance.bind(d, &t)];
        Ok(Viscosity { kernel, reset, advance, groups, state_group, rhs_u, rhs_v, edges: ctx.edges() })
    }

    /// The sweeps of [`sweeps`] for `p` (at most `max_sweeps`); leaves the result in u, v.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
        b: &Buffers,
        p: &Params,
        max_sweeps: u32,
    ) {
        let n = sweeps(p, max_sweeps);
        if n == 0 {
            return;
        }
        copy_all(encoder, &b.u, &self.rhs_u);
        copy_all(encoder, &b.v, &self.rhs_v);
        timed_pass(encoder, profiler, "viscosity", |pass| {
            self.reset.dispatch_groups(pass, &self.state_group[0], 1);
            for it in 0..n {
                self.kernel.dispatch(pass, &self.groups[(it % 2) as usize], self.edges);
                self.advance.dispatch_groups(pass, &self.state_group[1], 1);
            }
        });
        if n % 2 == 1 {
            copy_all(encoder, &b.u_out, &b.u);
            copy_all(encoder, &b.v_out, &b.v);
        }
    }
}
