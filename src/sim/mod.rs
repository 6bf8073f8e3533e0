//! The simulation: state buffers on the GPU and the passes of one time step (DESIGN.md §2),
//! dispatched from the CPU with no read-back on the hot path.

pub mod advect;
pub mod blocking;
pub mod body_loads;
pub mod buffers;
pub mod cpu;
pub mod dispatch_probe;
pub mod div_after;
pub mod divergence;
pub mod fields;
pub mod forces;
pub mod init;
pub mod kernel;
pub mod level_picture;
pub mod limits;
pub mod mgpcg;
pub mod move_body;
pub mod multigrid;
pub mod pair;
pub mod params;
pub mod pressure;
pub mod pressure_sor;
pub mod probes;
pub mod project;
pub mod residual_history;
mod solve_memory;
pub mod solve_plan;
pub mod solver;
pub mod solver_check;
pub mod sources;
pub mod stage;
pub mod stats;
pub mod stepwise;
pub mod streamlines;
pub mod substeps;
pub mod tracers;
mod uploads;
pub mod viscosity;
pub mod vorticity;
pub mod warm_start;

use crate::config::{Scene, SolverConfig, Source};
use crate::error::Result;
use crate::gpu::Gpu;
use advect::Advection;
use body_loads::BodyLoads;
use buffers::Buffers;
use divergence::Divergence;
use fields::Fields;
use forces::Forces;
use kernel::Switches;
use move_body::{BodyShape, Drag, MoveBody};
use params::{MAX_SPLATS, Params, Splat};
use probes::Probes;
use project::Project;
use solver::Solvers;
use sources::Sources;
use stage::{Ctx, timed_pass};
pub use stats::Figures;
use stats::{Stats, StatsReadback};
use streamlines::Streamlines;
use tracers::Tracers;
use viscosity::Viscosity;
use vorticity::Vorticity;

/// The stages of a step, each in its own module with its own kernels and bind groups.
pub struct Stages {
    pub sources: Sources,
    pub forces: Forces,
    pub vorticity: Vorticity,
    pub divergence: Divergence,
    /// The pressure solve: Jacobi, SOR or multigrid, to a tolerance or a fixed count.
    pub solvers: Solvers,
    pub project: Project,
    pub advection: Advection,
    pub stats: Stats,
    pub viscosity: Viscosity,
    /// Forces on the bodies, with the full figures.
    pub body_loads: BodyLoads,
    /// The probes' samples, with the full figures.
    pub probes: Probes,
    /// The dragged obstacle's cells, on the steps it moves.
    pub move_body: MoveBody,
    /// Particles carried by the flow (the tracers view), moved every (sub-)step once seeded.
    pub tracers: Tracers,
    /// Lines along the velocity (the streamlines view), traced when the view asks.
    pub streamlines: Streamlines,
}

impl Stages {
    pub fn new(ctx: &Ctx) -> Result<Stages> {
        Ok(Stages {
            sources: Sources::new(ctx)?,
            forces: Forces::new(ctx)?,
            vorticity: Vorticity::new(ctx)?,
            divergence: Divergence::new(ctx)?,
            solvers: Solvers::new(ctx)?,
            project: Project::new(ctx)?,
            advection: Advection::new(ctx)?,
            stats: Stats::new(ctx)?,
            viscosity: Viscosity::new(ctx)?,
            body_loads: BodyLoads::new(ctx)?,
            probes: Probes::new(ctx)?,
            move_body: MoveBody::new(ctx)?,
            tracers: Tracers::new(ctx)?,
            streamlines: Streamlines::new(ctx)?,
        })
    }

    /// The splats' velocity, buoyancy and damping, then confinement when `vorticity` (ε ≠ 0), in
    /// one timed pass.
    fn encode_forces(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>, vorticity: bool) {
        timed_pass(encoder, profiler, "forces", |pass| {
            self.forces.encode(pass);
            if vorticity {
                self.vorticity.encode(pass);
            }
        });
    }
}

/// A simulation state on the GPU and the passes that advance it.
pub struct Simulation {
    pub device: wgpu::Device,
    /// `Gpu::serial` of `device`.
    pub device_serial: u64,
    pub queue: wgpu::Queue,
    pub nx: usize,
    pub ny: usize,
    /// The dye (ink) grid is this many times finer than the flow grid (DESIGN.md §1).
    pub dye_scale: usize,
    /// Shader constants; `time` and `splat_count` are set per step.
    pub params: Params,
    /// The scene's solver keys, kept as they are (`configure` replaces them).
    pub solver: SolverConfig,
    /// Velocity stays as it is; ink and density are still carried by it (`advection.freeze_velocity`).
    pub freeze_velocity: bool,
    /// At most this many Chebyshev sweeps of implicit viscosity a step (fewer once its error bound
    /// is met), used only when ν > 0 (`fluid.viscosity_iterations`).
    pub viscosity_iterations: u32,
    /// Emitters from the scene: blended in every step.
    pub emitters: Vec<Splat>,
    /// Steps taken and simulated time (seconds).
    pub step_index: u64,
    pub time: f64,
    pending_splats: Vec<Splat>,
    /// Whether this step's splats paint or erase obstacles.
    edits_solids: bool,
    /// The cells this (sub-)step's splats can reach (`sources::reach`).
    reach: sources::Reach,
    /// Each step's constants and splats on their way to `buffers` (`prepare`).
    uploads: uploads::Uploads,
    pub buffers: Buffers,
    pub stages: Stages,
    /// What the state may hold, which picks the kernels' variants (`Switches`): solids, set from
    /// the fields at every upload and by any obstacle dab (erasing never clears it); periodic
    /// axes, from the constants before every step.
    switches: Switches,
    pub readback: StatsReadback,
    /// Divergence right after the correction, when the overlay asks (`enable_div_after`).
    pub div_after: Option<div_after::DivergenceAfter>,
    /// CFL limit of a sub-step, cells moved by the fastest fluid (0: no sub-steps; `time.max_cfl`).
    pub max_cfl: f32,
    /// Most sub-steps a step may take; beyond, the step is shortened (`time.max_substeps`).
    pub max_substeps: u32,
    /// Fastest |u|, |v| known: of the initial state, then from the statistics a step late.
    pub max_speed: f32,
    /// Largest |density| known (kg/m³), the same way: buoyancy's share of the sub-steps.
    pub max_density: f32,
    /// Root-mean-square speed over the cells (m/s), from the kinetic energy, known the same way:
    /// what the arrows' automatic length follows (src/render `arrow_speed`).
    pub rms_speed: f32,
    /// How the last step was taken.
    pub last_plan: substeps::Plan,
    /// Whether the last step ran a pressure solve (a frozen flow with nothing painted runs none,
    /// and has no verdict to report).
    pub last_step_solved: bool,
    /// The obstacle being dragged, from the press to the step after the release.
    drag: Option<Drag>,
    /// A one-line warning the first time a step was shortened (taken by `take_warning`).
    warning: Option<String>,
    warned: bool,
}

/// Whether some cell of `fields` is solid.
fn any_solid(fields: &Fields) -> bool {
    fields.solid.iter().any(|&s| s > 0.5)
}

/// Whether the x and y axes are periodic (as shaders/shared/grid.wgsl `periodic_x`, `periodic_y`).
fn periodic(p: &Params) -> [bool; 2] {
    [p.bc_kind[0] == params::BC_PERIODIC, p.bc_kind[2] == params::BC_PERIODIC]
}

impl Simulation {
    /// A scene's simulation at time zero: its initial fields, constants, solver and emitters.
    pub fn from_scene(gpu: &Gpu, scene: &Scene, source: &Source) -> Result<Simulation> {
        let fields = init::initial_fields(scene, source)?;
        let mut sim = Simulation::new(gpu, &fields, Params::from_scene(scene), scene.solver.clone())?;
        sim.configure(scene)?;
        Ok(sim)
    }

    /// A simulation on `gpu` starting from `fields`; `params.nx`/`ny` must match the fields.
    pub fn new(gpu: &Gpu, fields: &Fields, params: Params, solver: SolverConfig) -> Result<Simulation> {
        let k = fields.dye_scale;
        check_dye_fits(&gpu.device.limits(), fields.nx, fields.ny, k)?;
        let device = gpu.device.clone();
        let queue = gpu.queue.clone();
        let buffers = Buffers::new(&device, fields.nx, fields.ny, k);
        let switches = Switches::new(any_solid(fields), periodic(&params));
        let mut stages = Stages::new(&Ctx {
            device: &device,
            device_serial: Some(gpu.serial),
            buffers: &buffers,
            nx: fields.nx,
            ny: fields.ny,
            dye_scale: k,
            switches: &switches,
        })?;
        buffers.upload(&queue, fields);
        stages.body_loads.set_state(&device, &buffers, fields, &params);
        let readback = StatsReadback::new(&device, 8);
        let mut params = params;
        params.nx = fields.nx as u32;
        params.ny = fields.ny as u32;
        params.dye_scale = k as u32;
        let rms = rms_speed(cpu::stats::kinetic_energy(fields, &params) as f32, &params, fields.nx * fields.ny);
        // what reads the constants outside a step (the streamlines) sees them before the first
        queue.write_buffer(&buffers.params, 0, bytemuck::bytes_of(&params));
        Ok(Simulation {
            device,
            device_serial: gpu.serial,
            queue,
            nx: fields.nx,
            ny: fields.ny,
            dye_scale: k,
            params,
            solver,
            freeze_velocity: false,
            viscosity_iterations: crate::config::FluidConfig::default().viscosity_iterations as u32,
            emitters: Vec::new(),
            step_index: 0,
            time: 0.0,
            pending_splats: Vec::new(),
            edits_solids: false,
            reach: sources::reach(&[], &params),
            uploads: uploads::Uploads::new(&gpu.device, std::mem::size_of::<Params>() + MAX_SPLATS * std::mem::size_of::<Splat>()),
            buffers,
            stages,
            switches,
            readback,
            div_after: None,
            max_cfl: 0.0,
            max_substeps: 1,
            max_speed: cpu::stats::max_speed(fields) as f32,
            max_density: cpu::stats::max_density(fields) as f32,
            rms_speed: rms,
            last_plan: substeps::Plan { substeps: 1, dt: params.dt, clamped: false },
            last_step_solved: false,
            drag: None,
            warning: None,
            warned: false,
        })
    }

    /// Applies every setting of `scene` (constants, solver, emitters) to this running simulation,
    /// keeping its state and pipelines. Obstacles, blobs and layers are initial state: they take
    /// effect with `restore(&init::initial_fields(..))`. The grid size cannot change this way.
    pub fn configure(&mut self, scene: &Scene) -> Result<()> {
        if (scene.grid.nx, scene.grid.ny) != (self.nx as i64, self.ny as i64) {
            crate::fail!(
                "grid {}x{}: this simulation is {}x{}; a new grid size needs a new simulation",
                scene.grid.nx,
                scene.grid.ny,
                self.nx,
                self.ny
            );
        }
        if scene.dye_scale() != self.dye_scale {
            crate::fail!(
                "grid.dye_scale {}: this simulation's dye grid is {} times the flow grid; a new dye grid needs a new simulation",
                scene.dye_scale(),
                self.dye_scale
            );
        }
        self.params = Params::from_scene(scene);
        self.switches.set_periodic(periodic(&self.params));
        self.solver = scene.solver.clone();
        self.freeze_velocity = scene.advection.freeze_velocity;
        self.viscosity_iterations = scene.fluid.viscosity_iterations as u32;
        self.emitters = init::emitter_splats(scene);
        self.max_cfl = scene.time.max_cfl;
        self.max_substeps = scene.time.max_substeps as u32;
        self.queue.write_buffer(&self.buffers.params, 0, bytemuck::bytes_of(&self.params));
        Ok(())
    }

    /// Back to `fields` at time zero (Reset): uploads them and forgets queued splats, without
    /// rebuilding pipelines.
    pub fn restore(&mut self, fields: &Fields) {
        self.upload(fields);
        self.stages.solvers.forget_prediction(&self.queue);
        self.stages.tracers.clear(&self.queue);
        self.pending_splats.clear();
        self.step_index = 0;
        self.time = 0.0;
    }

    /// Queues a splat (a brush dab) for the next step.
    pub fn add_splat(&mut self, splat: Splat) {
        if self.pending_splats.len() + self.emitters.len() < MAX_SPLATS {
            self.pending_splats.push(splat);
        }
    }

    pub fn upload(&mut self, fields: &Fields) {
        self.buffers.upload(&self.queue, fields);
        // a new state holds no moving body
        self.drag = None;
        self.stages.body_loads.set_state(&self.device, &self.buffers, fields, &self.params);
        self.switches.set_solids(any_solid(fields));
        self.stages.solvers.mark_dirty(false);
        self.max_speed = cpu::stats::max_speed(fields) as f32;
        self.max_density = cpu::stats::max_density(fields) as f32;
        self.rms_speed = rms_speed(cpu::stats::kinetic_energy(fields, &self.params) as f32, &self.params, self.nx * self.ny);
        // figures of the state before this one no longer apply
        let _ = self.readback.take_latest();
    }

    /// Starts dragging the obstacle of `shape` (its solid cells inside the shape become the
    /// body's at the next step); any drag before is dropped where it is.
    pub fn pick_body(&mut self, shape: BodyShape) {
        self.drag = Some(Drag::new(shape));
    }

    /// Where the dragged body's centre should go (metres): the steps move it there a few cells
    /// at a time (`move_body::MAX_CELLS_A_STEP`).
    pub fn drag_body_to(&mut self, center: [f32; 2]) {
        if let Some(d) = &mut self.drag {
            d.target = center;
        }
    }

    /// Lets go of the dragged body: it comes to rest at the target and is a still solid again.
    pub fn release_body(&mut self) {
        if let Some(d) = &mut self.drag {
            d.release();
        }
    }

    /// Whether a body is being dragged (or still on its way to where it was let go).
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// Samples u, v, p, div and ink at `points` (metres, DESIGN.md §1) with every step's full
    /// figures (`StepStats::probes`), in place of any before.
    pub fn set_probes(&mut self, points: &[[f32; 2]]) -> Result<()> {
        if points.len() > buffers::MAX_PROBES {
            crate::fail!("{} probes: at most {} are sampled", points.len(), buffers::MAX_PROBES);
        }
        let (w, h) = (self.nx as f32 * self.params.h, self.ny as f32 * self.params.h);
        for &[x, y] in points {
            if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) {
                crate::fail!("probe at {x},{y} m lies outside the domain: expected 0 ≤ x ≤ {w} and 0 ≤ y ≤ {h} (metres)");
            }
        }
        self.stages.probes.set(&self.queue, points);
        Ok(())
    }

    /// The warning of the first step that had to be shortened, once.
    pub fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    /// Reads the whole state back (blocking; dumps and tests only).
    pub fn download(&self) -> Fields {
        self.buffers.download(&self.device, &self.queue, self.nx, self.ny, self.dye_scale)
    }

    /// This step's splats: the emitters, then the dabs queued since the last step.
    fn take_splats(&mut self) -> Vec<Splat> {
        let mut splats: Vec<Splat> = self.emitters.clone();
        splats.append(&mut self.pending_splats);
        splats.truncate(MAX_SPLATS);
        splats
    }

    /// Records this (sub-)step's constants and splats into the command stream, ahead of its
    /// passes. They travel in a slot of their own (src/sim/uploads.rs) and are copied in order, so
    /// every step of one submission sees its own values (`queue.write_buffer` straight into the
    /// params would give all of them the last write).
    fn prepare(&mut self, encoder: &mut wgpu::CommandEncoder, splats: &[Splat]) {
        self.edits_solids = splats.iter().any(|s| s.mode >= params::SPLAT_PAINT_SOLID);
        // a painted obstacle may make the first solid cell; erasing never clears the switch
        if splats.iter().any(|s| s.mode == params::SPLAT_PAINT_SOLID) {
            self.switches.set_solids(true);
        }
        self.switches.set_periodic(periodic(&self.params));
        self.params.splat_count = splats.len() as u32;
        self.params.time = self.time as f32;
        self.reach = sources::reach(splats, &self.params);
        self.params.extra = self.reach.origins();
        [self.params.reach_w, self.params.reach_h] = self.reach.flow.1;
        // one small buffer a step: the constants, then the splat list
        let head = std::mem::size_of::<Params>();
        let mut bytes = bytemuck::bytes_of(&self.params).to_vec();
        bytes.extend_from_slice(bytemuck::cast_slice(splats));
        let (upload, at) = self.uploads.write(&self.device, &self.queue, &bytes);
        encoder.copy_buffer_to_buffer(upload, at, &self.buffers.params, 0, head as u64);
        if !splats.is_empty() {
            encoder.copy_buffer_to_buffer(upload, at + head as u64, &self.buffers.splats, 0, (bytes.len() - head) as u64);
        }
        self.stages.solvers.prepare(&self.queue, self.solve_spec());
        if self.edits_solids || self.params.body_stage == params::BODY_MOVE {
            self.stages.solvers.mark_dirty(true);
        }
    }

    /// Records one full step (DESIGN.md §2), split into sub-steps when its dt would break the CFL
    /// limit (`max_cfl`, from `max_speed`). The GPU also reduces the (last sub-)step's `figures`
    /// into the stats buffer (copy it out with `readback.encode_copy`).
    pub fn encode_step(&mut self, encoder: &mut wgpu::CommandEncoder, figures: Figures, profiler: Option<&wgpu_profiler::GpuProfiler>) {
        let (splats, dt, plan) = self.begin_step(encoder);
        for k in 0..plan.substeps {
            // the dabs land once, in the first sub-step; emitters act in every one
            let these = if k == 0 { splats.clone() } else { self.emitters.clone() };
            let figures = if k + 1 == plan.substeps { figures } else { Figures::None };
            self.encode_substep(encoder, &these, figures, profiler);
            // the body's cells move once, in the first sub-step; its faces move in every one
            self.params.body_stage = params::BODY_NONE;
        }
        self.params.dt = dt;
        self.last_plan = plan;
        self.step_index += 1;
    }

    /// A step's start, as a whole step and the stage view take it: the dabs taken, the sub-steps
    /// planned (dt set to theirs), the solve's step begun and the tracers' seeds placed; returns
    /// the dabs, the step's own dt and the plan.
    pub(super) fn begin_step(&mut self, encoder: &mut wgpu::CommandEncoder) -> (Vec<Splat>, f32, substeps::Plan) {
        let splats = self.take_splats();
        let dt = self.params.dt;
        let plan = self.plan_step(&splats);
        self.params.dt = plan.dt;
        self.stages.solvers.begin_step(encoder);
        self.stages.tracers.seed_inflow(&self.params);
        self.stages.tracers.encode_seeds(&self.device, encoder);
        self.last_step_solved = false;
        (splats, dt, plan)
    }

    /// The sub-steps of a step with `splats`: from the speeds read back since the last step, the
    /// speed the fluid can reach and the CFL limit.
    fn plan_step(&mut self, splats: &[Splat]) -> substeps::Plan {
        if let Some(s) = self.readback.take_latest() {
            self.max_speed = s.max_speed;
            self.max_density = s.max_density;
            self.rms_speed = rms_speed(s.kinetic_energy, &self.params, self.nx * self.ny);
        }
        let dt = self.params.dt;
        let body = self.drag.as_mut().map(|d| d.advance(dt, self.params.h));
        match body {
            Some(b) => b.apply(&mut self.params),
            None => (self.params.body_stage, self.params.body_velocity) = (params::BODY_NONE, [0.0, 0.0]),
        }
        if body.is_some() {
            self.stages.body_loads.follow_body(&self.device, &self.buffers, &self.params);
        }
        if body.is_some_and(|b| b.stage == params::BODY_DROP) {
            self.drag = None;
        }
        let body_speed = self.params.body_velocity[0].abs().max(self.params.body_velocity[1].abs());
        let p = &self.params;
        // what the fluid can reach in this step: its speed, the dabs' and emitters', and what
        // buoyancy and confinement add over dt (no motion yet is no reason for one long step)
        let density = substeps::density_with_splats(self.max_density, splats);
        let pull = if self.freeze_velocity { 0.0 } else { substeps::buoyancy_speed(dt, [p.gravity_x, p.gravity_y], p.rho, density) };
        let speed = substeps::speed_with_splats(self.max_speed, splats) + pull;
        let swirl = if self.freeze_velocity { 0.0 } else { substeps::confinement_speed(dt, p.vorticity, speed) };
        // a dragged body pushes the fluid at its own speed
        let speed = (speed + swirl).max(body_speed);
        let plan = substeps::plan(dt, speed, self.params.h, self.max_cfl, self.max_substeps);
        if plan.clamped && !self.warned {
            self.warned = true;
            self.warning = Some(format!(
                "time.dt = {dt} s would need {:.0} sub-steps at {speed:.3} m/s (time.max_cfl = {}); taking {} of {:.3e} s instead, so the simulation runs slower than asked (raise time.max_substeps or lower time.dt)",
                (dt * speed / (self.params.h * self.max_cfl)).ceil(),
                self.max_cfl,
                plan.substeps,
                plan.dt
            ));
        }
        plan
    }

    fn encode_substep(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        splats: &[Splat],
        figures: Figures,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
    ) {
        let all = figures == Figures::All;
        self.prepare(encoder, splats);
        let s = &self.stages;
        let b = &self.buffers;
        let freeze = self.freeze_velocity;
        if self.params.body_stage != params::BODY_NONE {
            timed_pass(encoder, profiler, "move_body", |pass| s.move_body.encode(pass));
        }
        if self.params.splat_count > 0 {
            // the forces pass gives a running flow the splats' velocity
            s.sources.encode(encoder, profiler, self.edits_solids, &self.reach, freeze);
        }
        // a frozen flow stays as it is, but velocity painted into it is projected like any other
        let painted = freeze && substeps::speed_with_splats(0.0, splats) > 0.0;
        if !freeze || painted {
            self.last_step_solved = true;
            if !freeze {
                s.encode_forces(encoder, profiler, self.params.vorticity != 0.0);
                if self.params.viscosity > 0.0 {
                    s.viscosity.encode(encoder, profiler, b, &self.params, self.viscosity_iterations);
                }
            }
            timed_pass(encoder, profiler, "divergence", |pass| {
                s.divergence.encode(pass);
                if all {
                    s.stats.encode_div_before(pass);
                }
            });
            s.solvers.encode_solve(encoder, profiler, b, self.solve_spec(), self.params.bc_kind);
            timed_pass(encoder, profiler, "project", |pass| {
                s.project.encode(pass);
                s.solvers.encode_merge(pass);
                if all {
                    s.stats.encode_div_after(pass);
                }
                if let Some(d) = &self.div_after {
                    d.encode(pass);
                }
            });
        }
        s.advection.encode(encoder, profiler, b, freeze, self.params.schemes);
        if s.tracers.active() {
            timed_pass(encoder, profiler, "tracers", |pass| s.tracers.encode(pass));
        }
        if figures != Figures::None {
            timed_pass(encoder, profiler, "stats", |pass| {
                if !all {
                    s.stats.encode_speeds(pass);
                    return;
                }
                if freeze && !painted {
                    // no solve this step: both figures are the divergence of the frozen field
                    s.divergence.encode(pass);
                    s.stats.encode_div_before(pass);
                    s.stats.encode_div_after(pass);
                }
                s.stats.encode_totals(pass);
                s.body_loads.encode(pass);
                s.probes.encode(pass);
            });
        }
        self.time += self.params.dt as f64;
    }

    /// The pressure solve's settings.
    pub fn solve_spec(&self) -> solver::SolveSpec {
        let s = &self.solver;
        let p = &self.params;
        solver::SolveSpec {
            kind: s.kind,
            iterations: s.cap().clamp(0, u32::MAX as i64) as u32,
            tolerance: s.tolerance,
            start: if s.warm_start { solver::Start::Warm } else { solver::Start::Cold },
            reach: solver::scratch_units(s.kind, self.nx, self.ny, p.jacobi_weight, p.sor_omega, s.tolerance),
            floor_window: solver::floor_window(s.kind, self.nx, self.ny, p.jacobi_weight, p.sor_omega),
        }
    }

    /// The units the solve to a tolerance plans for the next step (saved with a dump).
    pub fn solver_units(&self) -> Option<u32> {
        self.stages.solvers.units_now()
    }

    /// The recent peak of the units the solves needed (saved with a dump: `solver_peak`).
    pub fn solver_peak(&self) -> Option<f32> {
        Some(self.stages.solvers.peak_now()).filter(|&p| p > 0.0)
    }

    /// Continues with a dump's planned units and peak (`solver_units`, `solver_peak`), as the run
    /// that wrote it would.
    pub fn resume_solver_units(&self, units: Option<u32>, peak: Option<f32>) {
        self.stages.solvers.resume(self.solve_spec(), units, peak);
    }

    /// Call after submitting encoded steps: requests the non-blocking read-backs.
    pub fn after_submit(&mut self) {
        self.uploads.reset();
        self.readback.request_maps();
        self.stages.solvers.request_feedback();
    }

    /// From now on each step also keeps the divergence right after the correction.
    pub fn enable_div_after(&mut self) -> Result<()> {
        if self.div_after.is_none() {
            self.div_after = Some(div_after::DivergenceAfter::new(&self.ctx())?);
        }
        Ok(())
    }

    /// This simulation's device, buffers and grid, for building kernels after it started.
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx {
            device: &self.device,
            device_serial: Some(self.device_serial),
            buffers: &self.buffers,
            nx: self.nx,
            ny: self.ny,
            dye_scale: self.dye_scale,
            switches: &self.switches,
        }
    }
}

pub use limits::{check_dye_fits, check_fits};

/// The root-mean-square speed over `cells` cells whose kinetic energy is `kinetic_energy`
/// (½ρh² Σ(u² + v²), J per metre of depth).
pub fn rms_speed(kinetic_energy: f32, p: &Params, cells: usize) -> f32 {
    (2.0 * kinetic_energy.max(0.0) / (p.rho * p.h * p.h * cells.max(1) as f32).max(1e-30)).sqrt()
}
