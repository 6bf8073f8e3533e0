//! What every stage of the step shares: the device, the buffers, the grid size, and a labelled
//! compute pass that the profiler can time.

use super::buffers::Buffers;
use super::kernel::{Bound, GridSize, Switches, Target};
use crate::error::Result;

/// Borrowed context for building a stage's kernels and bind groups.
pub struct Ctx<'a> {
    pub device: &'a wgpu::Device,
    /// `Gpu::serial` of `device`: kernels built with one are kept for the next simulation.
    pub device_serial: Option<u64>,
    pub buffers: &'a Buffers,
    pub nx: usize,
    pub ny: usize,
    /// The dye grid's scale k.
    pub dye_scale: usize,
    /// What the state may hold (the kernels' variants).
    pub switches: &'a Switches,
}

impl Ctx<'_> {
    /// A kernel bound with every slot at its natural buffer.
    pub fn bound(&self, shader: &str, entry: &str) -> Result<Bound> {
        Bound::with_views(self.target(), shader, entry, &[], &self.buffers.table(), &self.buffers.views())
    }

    /// The device and this grid, for building kernels.
    pub fn target(&self) -> Target<'_> {
        Target {
            device: self.device,
            device_serial: self.device_serial,
            grid: GridSize { nx: self.nx as u32, ny: self.ny as u32, dye_scale: self.dye_scale as u32 },
            switches: Some(self.switches),
        }
    }

    /// Threads covering every cell.
    pub fn cells(&self) -> [u32; 2] {
        [self.nx as u32, self.ny as u32]
    }
    /// Threads covering every dye cell, and every flow cell (the dye grid is never smaller).
    pub fn dye_cells(&self) -> [u32; 2] {
        [(self.dye_scale * self.nx) as u32, (self.dye_scale * self.ny) as u32]
    }
    /// Threads covering every dye cell and every u face, v face and cell.
    pub fn dye_and_edges(&self) -> [u32; 2] {
        let [a, b] = self.dye_cells();
        [a.max(self.nx as u32 + 1), b.max(self.ny as u32 + 1)]
    }
    /// Threads covering every u face, v face and cell.
    pub fn edges(&self) -> [u32; 2] {
        [self.nx as u32 + 1, self.ny as u32 + 1]
    }
}

/// Opens a labelled compute pass, timed by the profiler when one is given.
pub fn timed_pass(
    encoder: &mut wgpu::CommandEncoder,
    profiler: Option<&wgpu_profiler::GpuProfiler>,
    label: &str,
    record: impl FnOnce(&mut wgpu::ComputePass<'_>),
) {
    let query = profiler.map(|p| p.begin_pass_query(label, encoder));
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: query.as_ref().and_then(|q| q.compute_pass_timestamp_writes()),
        });
        record(&mut pass);
    }
    if let (Some(p), Some(q)) = (profiler, query) {
        p.end_query(encoder, q);
    }
}

/// Copies a whole buffer into another of the same size.
pub fn copy_all(encoder: &mut wgpu::CommandEncoder, from: &wgpu::Buffer, to: &wgpu::Buffer) {
    encoder.copy_buffer_to_buffer(from, 0, to, 0, from.size());
}
