//! The simulation: state buffers on the GPU and the passes of one time step (DESIGN.md §2),
//! dispatched from the CPU with no read-back on the hot path.

pub mod buffers;
pub mod cpu;
pub mod fields;
pub mod kernel;
pub mod params;
pub mod stats;

use crate::error::Result;
use crate::gpu::Gpu;
use buffers::Buffers;
use fields::Fields;
use kernel::{Kernel, slot};
use params::{MAX_SPLATS, Params, Splat};
use stats::{STATS_GROUPS, StatsReadback, StepStats};

/// Solver settings that are not shader constants.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverSettings {
    /// Jacobi sweeps per step.
    pub iterations: u32,
    /// Start each solve from the last step's pressure.
    pub warm_start: bool,
    /// Velocity stays as it is; ink and density are still carried by it.
    pub freeze_velocity: bool,
}

impl Default for SolverSettings {
    fn default() -> Self {
        SolverSettings { iterations: 40, warm_start: true, freeze_velocity: false }
    }
}

/// The passes of a step, each one WGSL entry point (shaders/<name>.wgsl).
pub struct Passes {
    pub sources: Kernel,
    pub forces: Kernel,
    pub divergence: Kernel,
    pub pressure: Kernel,
    pub stencil_pack: Kernel,
    pub project: Kernel,
    pub advect_velocity: Kernel,
    pub advect_ink: Kernel,
    pub stats_div_before: Kernel,
    pub stats_div_after: Kernel,
    pub stats_totals: Kernel,
    pub stats_finish: Kernel,
}

impl Passes {
    pub fn new(device: &wgpu::Device) -> Result<Passes> {
        Ok(Passes {
            sources: Kernel::new(device, "sources", "main")?,
            forces: Kernel::new(device, "forces", "main")?,
            divergence: Kernel::new(device, "divergence", "main")?,
            pressure: Kernel::new(device, "pressure", "main")?,
            stencil_pack: Kernel::new(device, "pressure", "stencil_pack")?,
            project: Kernel::new(device, "project", "main")?,
            advect_velocity: Kernel::new(device, "advect_velocity", "main")?,
            advect_ink: Kernel::new(device, "advect_ink", "main")?,
            stats_div_before: Kernel::new(device, "stats", "div_before")?,
            stats_div_after: Kernel::new(device, "stats", "div_after")?,
            stats_totals: Kernel::new(device, "stats", "totals")?,
            stats_finish: Kernel::new(device, "stats", "finish")?,
        })
    }
}

struct BindGroups {
    sources: wgpu::BindGroup,
    forces: wgpu::BindGroup,
    divergence: wgpu::BindGroup,
    /// Jacobi ping-pong: p -> p_out, then p_out -> p.
    pressure: [wgpu::BindGroup; 2],
    stencil_pack: wgpu::BindGroup,
    project: wgpu::BindGroup,
    advect_velocity: wgpu::BindGroup,
    advect_ink: wgpu::BindGroup,
    stats_div_before: wgpu::BindGroup,
    stats_div_after: wgpu::BindGroup,
    stats_totals: wgpu::BindGroup,
    stats_finish: wgpu::BindGroup,
}

impl BindGroups {
    fn new(device: &wgpu::Device, k: &Passes, b: &Buffers) -> BindGroups {
        let t = b.table();
        let mut swapped = t;
        swapped[slot::P as usize] = Some(&b.p_out);
        swapped[slot::P_OUT as usize] = Some(&b.p);
        BindGroups {
            sources: k.sources.bind(device, &t),
            forces: k.forces.bind(device, &t),
            divergence: k.divergence.bind(device, &t),
            pressure: [k.pressure.bind(device, &t), k.pressure.bind(device, &swapped)],
            stencil_pack: k.stencil_pack.bind(device, &t),
            project: k.project.bind(device, &t),
            advect_velocity: k.advect_velocity.bind(device, &t),
            advect_ink: k.advect_ink.bind(device, &t),
            stats_div_before: k.stats_div_before.bind(device, &t),
            stats_div_after: k.stats_div_after.bind(device, &t),
            stats_totals: k.stats_totals.bind(device, &t),
            stats_finish: k.stats_finish.bind(device, &t),
        }
    }
}

/// Opens a labelled compute pass, timed by the profiler when one is given.
fn timed_pass(
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

/// A simulation state on the GPU and the passes that advance it.
pub struct Simulation {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub nx: usize,
    pub ny: usize,
    /// Shader constants; `time` and `splat_count` are set per step.
    pub params: Params,
    pub solver: SolverSettings,
    /// Emitters from the scene: blended in every step.
    pub emitters: Vec<Splat>,
    /// Steps taken and simulated time (seconds).
    pub step_index: u64,
    pub time: f64,
    pending_splats: Vec<Splat>,
    pub buffers: Buffers,
    passes: Passes,
    groups: BindGroups,
    pub readback: StatsReadback,
}

impl Simulation {
    /// A simulation on `gpu` starting from `fields`; `params.nx`/`ny` must match the fields.
    pub fn new(gpu: &Gpu, fields: &Fields, params: Params, solver: SolverSettings) -> Result<Simulation> {
        check_fits(&gpu.device.limits(), fields.nx, fields.ny)?;
        let device = gpu.device.clone();
        let queue = gpu.queue.clone();
        let passes = Passes::new(&device)?;
        let buffers = Buffers::new(&device, fields.nx, fields.ny);
        let groups = BindGroups::new(&device, &passes, &buffers);
        buffers.upload(&queue, fields);
        let readback = StatsReadback::new(&device, 8);
        let mut params = params;
        params.nx = fields.nx as u32;
        params.ny = fields.ny as u32;
        Ok(Simulation {
            device,
            queue,
            nx: fields.nx,
            ny: fields.ny,
            params,
            solver,
            emitters: Vec::new(),
            step_index: 0,
            time: 0.0,
            pending_splats: Vec::new(),
            buffers,
            passes,
            groups,
            readback,
        })
    }

    /// Queues a splat (a brush dab) for the next step.
    pub fn add_splat(&mut self, splat: Splat) {
        if self.pending_splats.len() + self.emitters.len() < MAX_SPLATS {
            self.pending_splats.push(splat);
        }
    }

    pub fn upload(&self, fields: &Fields) {
        self.buffers.upload(&self.queue, fields);
    }

    /// Reads the whole state back (blocking; dumps and tests only).
    pub fn download(&self) -> Fields {
        self.buffers.download(&self.device, &self.queue, self.nx, self.ny)
    }

    fn cells(&self) -> [u32; 2] {
        [self.nx as u32, self.ny as u32]
    }

    /// Threads covering every u face, v face and cell.
    fn edges(&self) -> [u32; 2] {
        [self.nx as u32 + 1, self.ny as u32 + 1]
    }

    /// Writes this step's constants and splats; call before encoding a step.
    fn prepare(&mut self) {
        let mut splats: Vec<Splat> = self.emitters.clone();
        splats.append(&mut self.pending_splats);
        splats.truncate(MAX_SPLATS);
        self.params.splat_count = splats.len() as u32;
        self.params.time = self.time as f32;
        self.queue.write_buffer(&self.buffers.params, 0, bytemuck::bytes_of(&self.params));
        if !splats.is_empty() {
            self.queue.write_buffer(&self.buffers.splats, 0, bytemuck::cast_slice(&splats));
        }
    }

    /// Records one full step. With `stats`, the GPU also reduces the step's statistics into the
    /// stats buffer (see `encode_stats_copy`).
    pub fn encode_step(&mut self, encoder: &mut wgpu::CommandEncoder, stats: bool, profiler: Option<&wgpu_profiler::GpuProfiler>) {
        self.prepare();
        let (k, g) = (&self.passes, &self.groups);
        let (edges, cells) = (self.edges(), self.cells());
        let freeze = self.solver.freeze_velocity;
        if self.params.splat_count > 0 {
            timed_pass(encoder, profiler, "sources", |pass| k.sources.dispatch(pass, &g.sources, edges));
        }
        if !freeze {
            timed_pass(encoder, profiler, "forces", |pass| k.forces.dispatch(pass, &g.forces, edges));
            timed_pass(encoder, profiler, "divergence", |pass| {
                k.divergence.dispatch(pass, &g.divergence, cells);
                if stats {
                    k.stats_div_before.dispatch_groups(pass, &g.stats_div_before, STATS_GROUPS);
                }
            });
            if !self.solver.warm_start {
                encoder.clear_buffer(&self.buffers.p, 0, None);
            }
            let iterations = self.solver.iterations;
            timed_pass(encoder, profiler, "pressure", |pass| {
                k.stencil_pack.dispatch(pass, &g.stencil_pack, cells);
                for it in 0..iterations {
                    k.pressure.dispatch(pass, &g.pressure[(it % 2) as usize], cells);
                }
            });
            if iterations % 2 == 1 {
                let b = &self.buffers;
                encoder.copy_buffer_to_buffer(&b.p_out, 0, &b.p, 0, b.p.size());
            }
            timed_pass(encoder, profiler, "project", |pass| {
                k.project.dispatch(pass, &g.project, edges);
                if stats {
                    k.stats_div_after.dispatch_groups(pass, &g.stats_div_after, STATS_GROUPS);
                }
            });
        }
        timed_pass(encoder, profiler, "advect", |pass| {
            if !freeze {
                k.advect_velocity.dispatch(pass, &g.advect_velocity, edges);
            }
            k.advect_ink.dispatch(pass, &g.advect_ink, cells);
        });
        let b = &self.buffers;
        if !freeze {
            encoder.copy_buffer_to_buffer(&b.u_out, 0, &b.u, 0, b.u.size());
            encoder.copy_buffer_to_buffer(&b.v_out, 0, &b.v, 0, b.v.size());
        }
        encoder.copy_buffer_to_buffer(&b.ink_out, 0, &b.ink, 0, b.ink.size());
        encoder.copy_buffer_to_buffer(&b.density_out, 0, &b.density, 0, b.density.size());
        if stats {
            if freeze {
                // no solve this step: both figures are the divergence of the frozen field
                timed_pass(encoder, profiler, "stats", |pass| {
                    k.divergence.dispatch(pass, &g.divergence, cells);
                    k.stats_div_before.dispatch_groups(pass, &g.stats_div_before, STATS_GROUPS);
                    k.stats_div_after.dispatch_groups(pass, &g.stats_div_after, STATS_GROUPS);
                });
            }
            timed_pass(encoder, profiler, "stats", |pass| {
                k.stats_totals.dispatch_groups(pass, &g.stats_totals, STATS_GROUPS);
                k.stats_finish.dispatch_groups(pass, &g.stats_finish, 1);
            });
        }
        self.step_index += 1;
        self.time += self.params.dt as f64;
    }

    /// Steps `n` times and waits for the GPU; returns each step's statistics when `stats`.
    pub fn run_blocking(&mut self, n: u64, stats: bool) -> Vec<StepStats> {
        let mut out = Vec::new();
        for _ in 0..n {
            let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("step") });
            self.encode_step(&mut encoder, stats, None);
            if stats {
                let stats_buffer = &self.buffers.stats;
                self.readback.encode_copy(&mut encoder, stats_buffer, self.step_index, self.time);
            }
            self.queue.submit([encoder.finish()]);
            if stats {
                self.readback.request_maps();
                self.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
                out.extend(self.readback.collect());
            }
        }
        if !stats {
            self.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
        }
        out
    }

    /// Runs one named pass alone on the current state (for tests against the CPU reference).
    pub fn run_pass(&mut self, name: &str) {
        self.prepare();
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(name) });
        let (k, g) = (&self.passes, &self.groups);
        let (edges, cells) = (self.edges(), self.cells());
        timed_pass(&mut encoder, None, name, |pass| match name {
            "sources" => k.sources.dispatch(pass, &g.sources, edges),
            "forces" => k.forces.dispatch(pass, &g.forces, edges),
            "divergence" => k.divergence.dispatch(pass, &g.divergence, cells),
            "pressure" => {
                k.stencil_pack.dispatch(pass, &g.stencil_pack, cells);
                k.pressure.dispatch(pass, &g.pressure[0], cells)
            }
            "project" => k.project.dispatch(pass, &g.project, edges),
            "advect_velocity" => k.advect_velocity.dispatch(pass, &g.advect_velocity, edges),
            "advect_ink" => k.advect_ink.dispatch(pass, &g.advect_ink, cells),
            other => panic!("no pass named {other}"),
        });
        let b = &self.buffers;
        let copies: &[(&wgpu::Buffer, &wgpu::Buffer)] = match name {
            "pressure" => &[(&b.p_out, &b.p)],
            "advect_velocity" => &[(&b.u_out, &b.u), (&b.v_out, &b.v)],
            "advect_ink" => &[(&b.ink_out, &b.ink), (&b.density_out, &b.density)],
            _ => &[],
        };
        for (src, dst) in copies {
            encoder.copy_buffer_to_buffer(src, 0, dst, 0, src.size());
        }
        self.queue.submit([encoder.finish()]);
        self.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
    }
}

/// The largest buffer is ink (3 floats a cell): it must fit the device's storage binding limit.
pub fn check_fits(limits: &wgpu::Limits, nx: usize, ny: usize) -> Result<()> {
    let max_binding = (limits.max_storage_buffer_binding_size as u64).min(limits.max_buffer_size);
    let largest = 3 * 4 * nx as u64 * ny as u64;
    let groups = limits.max_compute_workgroups_per_dimension as u64 * 8;
    if largest > max_binding || nx as u64 + 1 > groups || ny as u64 + 1 > groups {
        let side = ((max_binding / 12) as f64).sqrt().floor() as u64;
        let side = side.min(groups - 1);
        crate::fail!(
            "grid {nx}x{ny} does not fit this GPU: the ink buffer needs {largest} bytes but a storage buffer may hold {max_binding}; the largest square grid that fits is {side}x{side}"
        );
    }
    Ok(())
}
