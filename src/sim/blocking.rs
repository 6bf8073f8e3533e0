//! Blocking runs of a simulation: whole steps that wait for the GPU (the command line, benchmarks
//! and tests) and single named passes (the GPU-vs-CPU tests). The window never calls these.

use super::Simulation;
use super::solver;
use super::stage::{copy_all, timed_pass};
use super::stats::{Figures, StepStats};

impl Simulation {
    /// Steps `n` times and waits for the GPU; returns each step's statistics when `stats`. With a
    /// CFL limit, every step's statistics are reduced and awaited, so the next step's sub-steps
    /// follow this one's speed deterministically (a dumped state continues bit for bit).
    pub fn run_blocking(&mut self, n: u64, stats: bool) -> Vec<StepStats> {
        let mut out = Vec::new();
        let figures = if stats {
            Figures::All
        } else if self.max_cfl > 0.0 {
            Figures::Speeds
        } else {
            Figures::None
        };
        let reduce = figures != Figures::None;
        for _ in 0..n {
            let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("step") });
            self.encode_step(&mut encoder, figures, None);
            let stats_buffer = &self.buffers.stats;
            self.readback.encode_copy(&mut encoder, stats_buffer, figures, self.step_index, self.time);
            self.queue.submit([encoder.finish()]);
            self.after_submit();
            // every step waits, so the solver's count read-back arrives before the next step
            // and the next step's sub-steps follow this one's speed (a headless run repeats bit
            // for bit)
            self.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
            if reduce {
                let mut got = self.readback.collect();
                if let Some(s) = self.readback.take_latest() {
                    self.max_speed = s.max_speed;
                    self.max_density = s.max_density;
                    self.rms_speed = super::rms_speed(s.kinetic_energy, &self.params, self.nx * self.ny);
                }
                if stats {
                    let spec = self.solve_spec();
                    // no solve (a frozen flow, nothing painted): nothing converged or failed
                    let solvers = &self.stages.solvers;
                    let verdict = (spec.tolerance > 0.0 && spec.iterations > 0 && self.last_step_solved).then(|| {
                        solvers.verdict_arrived(spec.kind).unwrap_or_else(|| solvers.verdict_now(&self.device, &self.queue, spec.kind))
                    });
                    for s in &mut got {
                        s.substeps = self.last_plan.substeps;
                        s.converged = verdict.map(|(v, _)| !v.failed);
                        s.stopped = verdict.map(|(v, _)| v.stopped);
                        s.solver_iterations = verdict.map(|(_, r)| r.iterations);
                    }
                    out.extend(got);
                }
            }
        }
        out
    }

    /// The particles `[x, y, previous x, previous y]` (blocking; tests only).
    pub fn read_tracers(&self) -> Vec<[f32; 4]> {
        let words = super::buffers::read_buffers(&self.device, &self.queue, &[&self.stages.tracers.buffer]).remove(0);
        words.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }

    /// Traces the streamlines of `grid`'s seeds and reads their line list back (blocking; tests
    /// and benchmarks only).
    pub fn run_streamlines(&self, grid: &super::streamlines::SeedGrid) -> Vec<[f32; 2]> {
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("streamlines") });
        self.stages.streamlines.encode(&self.queue, &mut encoder, grid);
        self.queue.submit([encoder.finish()]);
        let words = super::buffers::read_buffers(&self.device, &self.queue, &[&self.stages.streamlines.vertices]).remove(0);
        words.chunks_exact(2).take(grid.vertices() as usize).map(|c| [c[0], c[1]]).collect()
    }

    /// Runs one named pass alone on the current state (for tests against the CPU reference).
    pub fn run_pass(&mut self, name: &str) {
        let splats = self.take_splats();
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(name) });
        self.prepare(&mut encoder, &splats);
        let s = &self.stages;
        let b = &self.buffers;
        match name {
            // every source, velocity included (as the CPU's `sources`)
            "sources" => s.sources.encode(&mut encoder, None, self.edits_solids, &self.reach, true),
            // as a running step records them: the velocity's share in the forces pass
            "sources_and_forces" => {
                s.sources.encode(&mut encoder, None, self.edits_solids, &self.reach, false);
                s.encode_forces(&mut encoder, None, self.params.vorticity != 0.0);
            }
            "forces" => s.encode_forces(&mut encoder, None, self.params.vorticity != 0.0),
            "vorticity" => timed_pass(&mut encoder, None, name, |pass| s.vorticity.encode(pass)),
            "advect" => s.advection.encode(&mut encoder, None, b, self.freeze_velocity, self.params.schemes),
            "viscosity" => s.viscosity.encode(&mut encoder, None, b, &self.params, self.viscosity_iterations),
            "divergence" => timed_pass(&mut encoder, None, name, |pass| s.divergence.encode(pass)),
            "pressure" => {
                // from p as it is (the CPU's sweep is compared), or from zero with a cold start
                let start = if self.solver.warm_start { solver::Start::AsIs } else { solver::Start::Cold };
                let one_sweep = solver::SolveSpec { iterations: 1, tolerance: 0.0, start, ..self.solve_spec() };
                s.solvers.encode_solve(&mut encoder, None, b, one_sweep, self.params.bc_kind);
                timed_pass(&mut encoder, None, name, |pass| s.solvers.encode_merge(pass));
            }
            // the whole solve with the current settings, on the divergence as it is
            "solve" => {
                s.solvers.encode_solve(&mut encoder, None, b, self.solve_spec(), self.params.bc_kind);
                timed_pass(&mut encoder, None, name, |pass| s.solvers.encode_merge(pass));
            }
            // the warm start's scaling of p alone (its stencil set up by an earlier solve)
            "warm_start" => timed_pass(&mut encoder, None, name, |pass| {
                s.solvers.warm.encode(pass, solver::Solvers::measure(self.solver.kind), self.solve_spec().gated())
            }),
            // divergence, solve and correction
            "projection" => {
                timed_pass(&mut encoder, None, "divergence", |pass| s.divergence.encode(pass));
                s.solvers.encode_solve(&mut encoder, None, b, self.solve_spec(), self.params.bc_kind);
                timed_pass(&mut encoder, None, "project", |pass| {
                    s.project.encode(pass);
                    s.solvers.encode_merge(pass);
                });
            }
            "project" => timed_pass(&mut encoder, None, name, |pass| {
                s.project.encode(pass);
                s.solvers.encode_merge(pass);
            }),
            "body_loads" => timed_pass(&mut encoder, None, name, |pass| s.body_loads.encode(pass)),
            "probes" => timed_pass(&mut encoder, None, name, |pass| s.probes.encode(pass)),
            "move_body" => timed_pass(&mut encoder, None, name, |pass| s.move_body.encode(pass)),
            // the queued seeds placed, then one move over dt
            "tracers" => {
                self.stages.tracers.encode_seeds(&self.device, &mut encoder);
                timed_pass(&mut encoder, None, name, |pass| self.stages.tracers.encode(pass));
            }
            "advect_velocity" => {
                timed_pass(&mut encoder, None, name, |pass| {
                    s.advection.encode_blocks(pass);
                    s.advection.encode_velocity(pass);
                });
                copy_all(&mut encoder, &b.u_out, &b.u);
                copy_all(&mut encoder, &b.v_out, &b.v);
            }
            "advect_ink" => {
                timed_pass(&mut encoder, None, name, |pass| {
                    s.advection.encode_blocks(pass);
                    s.advection.encode_ink(pass);
                });
                copy_all(&mut encoder, &b.ink_out, &b.ink);
                copy_all(&mut encoder, &b.density_out, &b.density);
            }
            other => panic!("no pass named {other}"),
        }
        self.queue.submit([encoder.finish()]);
        self.stages.solvers.request_feedback();
        self.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
    }
}
