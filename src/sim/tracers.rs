//! Tracers (shaders/tracers.wgsl; CPU twin src/sim/cpu/tracers.rs): up to `TRACER_CAPACITY`
//! particles carried by the flow on the GPU, each (x, y, previous x, previous y) in metres, x < 0
//! when dead. New particles go into a ring: the write index wraps and the oldest make way, so
//! seeding costs the CPU only the new particles, copied in with the step (as the splats are);
//! nothing is read back.

use super::kernel::Bound;
use super::params::{BC_INFLOW, Params};
use super::stage::Ctx;
use crate::error::Result;

/// Particles a simulation holds.
pub const TRACER_CAPACITY: usize = 16384;
/// A dead particle (shaders/tracers.wgsl `DEAD`).
pub const DEAD: [f32; 4] = super::cpu::tracers::DEAD;
/// Particles that fill the domain evenly (`fill`), and the density the inflows keep: an eighth of
/// the capacity (dots that read as flow, not as a carpet), so the ring holds eight domains' worth
/// before the oldest make way.
pub const TRACER_FILL: usize = TRACER_CAPACITY / 8;
/// At most this many particles come in at an inflow a step.
const MAX_INFLOW_A_STEP: usize = 512;

pub struct Tracers {
    kernel: Bound,
    /// The particles, `TRACER_CAPACITY` × vec4 (also the view's instance buffer).
    pub buffer: wgpu::Buffer,
    /// Where the next seed goes.
    next: usize,
    /// Seeds waiting for the next step (metres).
    pending: Vec<[f32; 2]>,
    /// Whether any particle may be alive: the pass runs only then.
    active: bool,
    /// Seed continuously at each inflow side.
    pub inflow: bool,
    /// Particles owed to the inflow (the fraction carried from step to step).
    owed: f32,
    /// The inflow's seeds' positions along the side, a fixed sequence (runs repeat).
    sequence: u32,
}

impl Tracers {
    pub fn new(ctx: &Ctx) -> Result<Tracers> {
        use wgpu::util::DeviceExt;
        let buffer = ctx.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tracers"),
            contents: bytemuck::cast_slice(&vec![DEAD; TRACER_CAPACITY]),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        });
        let table = ctx.buffers.table().with("tracers", &buffer);
        let kernel = Bound::new(ctx.target(), "tracers", "main", &table)?;
        Ok(Tracers { kernel, buffer, next: 0, pending: Vec::new(), active: false, inflow: false, owed: 0.0, sequence: 0 })
    }

    /// Queues particles at `points` (metres) for the next step; beyond the capacity the oldest go.
    pub fn seed(&mut self, points: &[[f32; 2]]) {
        self.pending.extend_from_slice(points);
        let extra = self.pending.len().saturating_sub(TRACER_CAPACITY);
        self.pending.drain(..extra);
    }

    /// Queues `TRACER_FILL` particles spread evenly over the domain of `p`.
    pub fn fill(&mut self, p: &Params) {
        self.seed(&even_points(p.nx as f32 * p.h, p.ny as f32 * p.h, TRACER_FILL));
    }

    /// Seeds waiting for the next step.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Whether any particle may be alive (the pass runs).
    pub fn active(&self) -> bool {
        self.active
    }

    /// Removes every particle (and the seeds not yet placed).
    pub fn clear(&mut self, queue: &wgpu::Queue) {
        queue.write_buffer(&self.buffer, 0, bytemuck::cast_slice(&vec![DEAD; TRACER_CAPACITY]));
        self.pending.clear();
        (self.next, self.active, self.owed) = (0, false, 0.0);
    }

    /// The particles the inflow sides of `p` bring in over `dt`, queued: as many a step as keep
    /// the domain as densely seeded as `fill` does.
    pub fn seed_inflow(&mut self, p: &Params) {
        if !self.inflow {
            return;
        }
        let (w, h) = (p.nx as f32 * p.h, p.ny as f32 * p.h);
        // normal speed into the domain, the side's length and the length across it
        let sides = [(p.inflow_u[0], h, w), (-p.inflow_u[1], h, w), (p.inflow_v[2], w, h), (-p.inflow_v[3], w, h)];
        for (side, &(speed, along, across)) in sides.iter().enumerate() {
            if p.bc_kind[side] != BC_INFLOW || speed <= 0.0 {
                continue;
            }
            self.owed += TRACER_FILL as f32 * speed * p.dt / across;
            let n = (self.owed.floor() as usize).min(MAX_INFLOW_A_STEP);
            self.owed -= self.owed.floor();
            let inset = 0.25 * p.h;
            let points: Vec<[f32; 2]> = (0..n)
                .map(|_| {
                    // a low-discrepancy sequence: evenly spread, never in a row
                    self.sequence = self.sequence.wrapping_add(1);
                    let s = (self.sequence as f32 * 0.618_034).fract() * along;
                    match side {
                        0 => [inset, s],
                        1 => [w - inset, s],
                        2 => [s, inset],
                        _ => [s, h - inset],
                    }
                })
                .collect();
            self.seed(&points);
        }
    }

    /// Records the copy of the queued seeds into the ring (ahead of the step's passes).
    pub fn encode_seeds(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder) {
        use wgpu::util::DeviceExt;
        if self.pending.is_empty() {
            return;
        }
        let words: Vec<[f32; 4]> = self.pending.drain(..).map(|[x, y]| [x, y, x, y]).collect();
        let upload = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tracer seeds"),
            contents: bytemuck::cast_slice(&words),
            usage: wgpu::BufferUsages::COPY_SRC,
        });
        let size = std::mem::size_of::<[f32; 4]>();
        let first = words.len().min(TRACER_CAPACITY - self.next);
        encoder.copy_buffer_to_buffer(&upload, 0, &self.buffer, (self.next * size) as u64, (first * size) as u64);
        if first < words.len() {
            encoder.copy_buffer_to_buffer(&upload, (first * size) as u64, &self.buffer, 0, ((words.len() - first) * size) as u64);
        }
        self.next = (self.next + words.len()) % TRACER_CAPACITY;
        self.active = true;
    }

    /// Moves every particle over this (sub-)step's dt (nothing before the first seed).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        if self.active {
            self.kernel.dispatch_groups(pass, TRACER_CAPACITY.div_ceil(64) as u32);
        }
    }
}

/// At most `count` points on a square lattice over a `w` × `h` domain, each at the middle of its
/// lattice cell: the domain filled evenly. They come in a scattered order, so the ring's oldest,
/// when later seeds overwrite them, go from all over the domain, not row by row.
pub fn even_points(w: f32, h: f32, count: usize) -> Vec<[f32; 2]> {
    let spacing = (w * h / count.max(1) as f32).sqrt();
    let (cols, rows) = (((w / spacing).floor() as usize).max(1), ((h / spacing).floor() as usize).max(1));
    let (dx, dy) = (w / cols as f32, h / rows as f32);
    let n = cols * rows;
    // a stride prime to n visits every point once
    let stride = (n as f64 * 0.618_034) as usize | 1;
    let stride = (stride..).find(|s| gcd(*s, n) == 1).unwrap_or(1);
    // each point shaken inside its lattice cell: a lattice of dots reads as a mesh, not as fluid
    let shake = |m: usize, salt: u32| {
        let mut x = (m as u32).wrapping_mul(0x9e37_79b9) ^ salt;
        x ^= x >> 16;
        x = x.wrapping_mul(0x85eb_ca6b);
        x ^= x >> 13;
        (x >> 8) as f32 / (1u32 << 24) as f32 * 0.8 + 0.1
    };
    (0..n)
        .map(|k| (k * stride) % n)
        .map(|m| [((m % cols) as f32 + shake(m, 0x68e3_1da4)) * dx, ((m / cols) as f32 + shake(m, 0x1b56_c4e9)) * dy])
        .collect()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}
