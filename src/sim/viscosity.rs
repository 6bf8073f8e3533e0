//! Viscosity stage (shaders/viscosity.wgsl): implicit diffusion of the edge velocities,
//! (I − νΔt∇²) u = u*, by Jacobi sweeps. The right-hand side u* is copied to its own buffers
//! (slots 24, 25), then the iterate ping-pongs u -> u_out -> u. Not dispatched when ν = 0.

use super::buffers::Buffers;
use super::kernel::{Kernel, slot};
use super::stage::{Ctx, copy_all, timed_pass};
use crate::error::Result;

/// Binding slots of the right-hand side copies (reserved range 24..=27).
pub use super::kernel::slot::{VISC_RHS_U as SLOT_RHS_U, VISC_RHS_V as SLOT_RHS_V};

pub struct Viscosity {
    kernel: Kernel,
    /// u -> u_out, then u_out -> u.
    groups: [wgpu::BindGroup; 2],
    rhs_u: wgpu::Buffer,
    rhs_v: wgpu::Buffer,
    edges: [u32; 2],
}

impl Viscosity {
    pub fn new(ctx: &Ctx) -> Result<Viscosity> {
        let d = ctx.device;
        let b = ctx.buffers;
        let kernel = Kernel::new(d, "viscosity", "main")?;
        let like = |label: &str, of: &wgpu::Buffer| {
            d.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size: of.size(), usage: of.usage(), mapped_at_creation: false })
        };
        let rhs_u = like("visc_rhs_u", &b.u);
        let rhs_v = like("visc_rhs_v", &b.v);
        let mut t = b.table();
        t[SLOT_RHS_U as usize] = Some(&rhs_u);
        t[SLOT_RHS_V as usize] = Some(&rhs_v);
        let mut swapped = t;
        swapped[slot::U as usize] = Some(&b.u_out);
        swapped[slot::V as usize] = Some(&b.v_out);
        swapped[slot::U_OUT as usize] = Some(&b.u);
        swapped[slot::V_OUT as usize] = Some(&b.v);
        let groups = [kernel.bind(d, &t), kernel.bind(d, &swapped)];
        Ok(Viscosity { kernel, groups, rhs_u, rhs_v, edges: ctx.edges() })
    }

    /// `iterations` Jacobi sweeps; leaves the result in u, v.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>, b: &Buffers, iterations: u32) {
        if iterations == 0 {
            return;
        }
        copy_all(encoder, &b.u, &self.rhs_u);
        copy_all(encoder, &b.v, &self.rhs_v);
        timed_pass(encoder, profiler, "viscosity", |pass| {
            for it in 0..iterations {
                self.kernel.dispatch(pass, &self.groups[(it % 2) as usize], self.edges);
            }
        });
        if iterations % 2 == 1 {
            copy_all(encoder, &b.u_out, &b.u);
            copy_all(encoder, &b.v_out, &b.v);
        }
    }
}
