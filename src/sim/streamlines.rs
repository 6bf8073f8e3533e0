//! Streamlines (shaders/streamlines.wgsl; CPU twin src/sim/cpu/streamlines.rs): curves along the
//! current velocity from a regular grid of seeds, traced on the GPU into a vertex buffer that
//! the view draws as a line list. Traced only when the view asks (the field drawn again), never
//! read back.

use super::kernel::Bound;
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

/// Points a line: half back from its seed, half forward (shaders/streamlines.wgsl).
pub const STREAMLINE_POINTS: usize = 17;
/// At most this many seeds; a finer seed grid is spread out to fit.
pub const MAX_STREAMLINES: usize = 4096;
/// A line is this many seed spacings long, end to end: neighbours along the flow meet.
const LINE_SPACINGS: f32 = 1.5;

/// Where the seeds lie: `across` × `up` seeds `spacing` metres apart, the first at half a
/// spacing from the lower-left corner, traced in steps of `step` metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedGrid {
    pub spacing: f32,
    pub across: u32,
    pub up: u32,
    pub step: f32,
}

impl SeedGrid {
    /// Seeds `spacing_cells` cells apart (at least one) over an `nx` × `ny` grid of cells `h`
    /// metres wide, spread out to at most `MAX_STREAMLINES`.
    pub fn new(nx: usize, ny: usize, h: f32, spacing_cells: f32) -> SeedGrid {
        let mut cells = spacing_cells.max(1.0);
        let count = |c: f32| ((nx as f32 / c).floor().max(1.0), (ny as f32 / c).floor().max(1.0));
        while count(cells).0 * count(cells).1 > MAX_STREAMLINES as f32 {
            cells *= 1.1;
        }
        let (across, up) = count(cells);
        let spacing = cells * h;
        SeedGrid { spacing, across: across as u32, up: up as u32, step: LINE_SPACINGS * spacing / (STREAMLINE_POINTS - 1) as f32 }
    }

    pub fn lines(&self) -> usize {
        (self.across * self.up) as usize
    }

    /// Vertices of the line list.
    pub fn vertices(&self) -> u32 {
        (self.lines() * (STREAMLINE_POINTS - 1) * 2) as u32
    }
}

pub struct Streamlines {
    kernel: Bound,
    seeds: wgpu::Buffer,
    /// The line list, two vec2 (metres) a segment (also the view's vertex buffer).
    pub vertices: wgpu::Buffer,
    /// The seeds last traced.
    last: std::cell::Cell<Option<SeedGrid>>,
}

impl Streamlines {
    pub fn new(ctx: &Ctx) -> Result<Streamlines> {
        let seeds = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("streamline_seeds"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let vertices = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("streamline_vertices"),
            size: (MAX_STREAMLINES * (STREAMLINE_POINTS - 1) * 2 * 8) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let table = ctx.buffers.table().with("streamline_seeds", &seeds).with("streamline_vertices", &vertices);
        let kernel = Bound::new(ctx.target(), "streamlines", "main", &table)?;
        Ok(Streamlines { kernel, seeds, vertices, last: Default::default() })
    }

    /// Records the tracing of every line from `grid`'s seeds (its spacing is written now, so one
    /// trace a submission).
    pub fn encode(&self, queue: &wgpu::Queue, encoder: &mut wgpu::CommandEncoder, grid: &SeedGrid) {
        self.last.set(Some(*grid));
        let words = [grid.spacing, grid.across as f32, grid.up as f32, grid.step];
        queue.write_buffer(&self.seeds, 0, bytemuck::cast_slice(&words));
        timed_pass(encoder, None, "streamlines", |pass| self.kernel.dispatch_groups(pass, grid.lines().div_ceil(64) as u32));
    }

    /// `encode`, when the state `changed` or the seeds differ from the last trace's.
    pub fn encode_for(&self, queue: &wgpu::Queue, encoder: &mut wgpu::CommandEncoder, grid: &SeedGrid, changed: bool) {
        if changed || self.last.get() != Some(*grid) {
            self.encode(queue, encoder, grid);
        }
    }
}
