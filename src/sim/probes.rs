//! Probes (shaders/probes.wgsl; CPU twin src/sim/cpu/probes.rs): u, v, p, div and ink at up to
//! `MAX_PROBES` points, sampled on the GPU into the stats buffer with the step's other figures.

use super::buffers::{MAX_PROBES, STATS_PROBES_AT};
use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct Probes {
    kernel: Bound,
    /// x, y, in use (1) of each probe.
    points_buffer: wgpu::Buffer,
    /// The points (metres), in order.
    pub points: Vec<[f32; 2]>,
}

impl Probes {
    pub fn new(ctx: &Ctx) -> Result<Probes> {
        let points_buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("probe_points"),
            size: (MAX_PROBES * 16) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let table = ctx.buffers.table().with("probe_points", &points_buffer);
        let kernel = Bound::with_constants(ctx.target(), "probes", "main", &[("STATS_AT", STATS_PROBES_AT as f64)], &table)?;
        Ok(Probes { kernel, points_buffer, points: Vec::new() })
    }

    /// Samples at `points` from the next step on (at most `MAX_PROBES`; the caller checks).
    pub fn set(&mut self, queue: &wgpu::Queue, points: &[[f32; 2]]) {
        self.points = points.iter().take(MAX_PROBES).copied().collect();
        let mut words = [[0.0f32; 4]; MAX_PROBES];
        for (w, p) in words.iter_mut().zip(&self.points) {
            *w = [p[0], p[1], 1.0, 0.0];
        }
        queue.write_buffer(&self.points_buffer, 0, bytemuck::cast_slice(&words));
    }

    /// Every probe's figures into the stats buffer (nothing without probes).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        if !self.points.is_empty() {
            self.kernel.dispatch_groups(pass, 1);
        }
    }
}
