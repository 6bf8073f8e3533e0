//! Vorticity confinement (shaders/vorticity.wgsl; CPU twin src/sim/cpu/vorticity.rs): the curl at
//! cells, the confinement force at the cells, then its mean onto the faces, which spins vortices
//! up. Skipped when ε = 0. Where rows are whole quads the curl and the force take four cells a
//! thread (the same source over shaders/shared/lanes4.wgsl, bit for bit the same).

use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct Vorticity {
    curl: Bound,
    force: Bound,
    confine: Bound,
    /// Threads of `curl` and `force`: a cell each, or four cells of a row each (quads).
    cells: [u32; 2],
    edges: [u32; 2],
}

impl Vorticity {
    pub fn new(ctx: &Ctx) -> Result<Vorticity> {
        let quads = ctx.nx.is_multiple_of(4);
        let shader = if quads { "vorticity_quad" } else { "vorticity" };
        let [w, h] = ctx.cells();
        Ok(Vorticity {
            curl: ctx.bound(shader, "curl")?,
            force: ctx.bound(shader, "force")?,
            confine: ctx.bound("vorticity_confine", "confine")?,
            cells: if quads { [w / 4, h] } else { [w, h] },
            edges: ctx.edges(),
        })
    }

    /// Curl, the force at the cells, then its mean onto the faces.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.curl.dispatch(pass, self.cells);
        self.force.dispatch(pass, self.cells);
        self.confine.dispatch(pass, self.edges);
    }
}
