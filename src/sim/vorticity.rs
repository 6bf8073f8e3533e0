//! Vorticity confinement (shaders/vorticity.wgsl; CPU twin src/sim/cpu/vorticity.rs): the curl at
//! cells, then a force onto the faces that spins vortices up. Skipped when ε = 0.

use super::kernel::Kernel;
use super::stage::Ctx;
use crate::error::Result;

pub struct Vorticity {
    curl: Kernel,
    curl_group: wgpu::BindGroup,
    confine: Kernel,
    confine_group: wgpu::BindGroup,
    cells: [u32; 2],
    edges: [u32; 2],
}

impl Vorticity {
    pub fn new(ctx: &Ctx) -> Result<Vorticity> {
        let t = ctx.buffers.table();
        let curl = Kernel::new(ctx.device, "vorticity", "curl")?;
        let confine = Kernel::new(ctx.device, "vorticity", "confine")?;
        Ok(Vorticity {
            curl_group: curl.bind(ctx.device, &t),
            confine_group: confine.bind(ctx.device, &t),
            curl,
            confine,
            cells: ctx.cells(),
            edges: ctx.edges(),
        })
    }

    /// Curl, then the confinement force onto the faces.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.curl.dispatch(pass, &self.curl_group, self.cells);
        self.confine.dispatch(pass, &self.confine_group, self.edges);
    }
}
