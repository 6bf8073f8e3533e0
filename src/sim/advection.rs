//! Advection stage: shaders/advect_velocity.wgsl then shaders/advect_ink.wgsl, both carried by
//! the velocity the projection left, written to the *_out buffers and copied back.

use super::buffers::Buffers;
use super::kernel::Kernel;
use super::stage::{Ctx, copy_all, timed_pass};
use crate::error::Result;

pub struct Advection {
    velocity: Kernel,
    ink: Kernel,
    velocity_group: wgpu::BindGroup,
    ink_group: wgpu::BindGroup,
    cells: [u32; 2],
    edges: [u32; 2],
}

impl Advection {
    pub fn new(ctx: &Ctx) -> Result<Advection> {
        let d = ctx.device;
        let t = ctx.buffers.table();
        let velocity = Kernel::new(d, "advect_velocity", "main")?;
        let ink = Kernel::new(d, "advect_ink", "main")?;
        Ok(Advection {
            velocity_group: velocity.bind(d, &t),
            ink_group: ink.bind(d, &t),
            velocity,
            ink,
            cells: ctx.cells(),
            edges: ctx.edges(),
        })
    }

    /// Advects velocity (unless frozen), ink and density, and copies the results into place.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
        b: &Buffers,
        freeze_velocity: bool,
    ) {
        timed_pass(encoder, profiler, "advect", |pass| {
            if !freeze_velocity {
                self.encode_velocity(pass);
            }
            self.encode_ink(pass);
        });
        if !freeze_velocity {
            copy_all(encoder, &b.u_out, &b.u);
            copy_all(encoder, &b.v_out, &b.v);
        }
        copy_all(encoder, &b.ink_out, &b.ink);
        copy_all(encoder, &b.density_out, &b.density);
    }

    pub fn encode_velocity(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.velocity.dispatch(pass, &self.velocity_group, self.edges);
    }

    pub fn encode_ink(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.ink.dispatch(pass, &self.ink_group, self.cells);
    }
}
