//! The split view's second run: the same scene with one setting changed, on the same device and
//! grid as the first, so its kernels come from the device's kernel cache (its buffers are its
//! own). Both runs take the same splats and the same steps. The time step is one for both,
//! `time.dt` (a comparison never changes it: config/compare.rs); each run splits a step into CFL
//! sub-steps by its own flow, as a run of its own does, so after every step both are at the
//! same time and each is what `smokebox run` gives for its settings.

use super::Simulation;
use super::params::Splat;
use super::stats::Figures;
use crate::config::{Scene, Source};
use crate::error::Result;
use crate::gpu::Gpu;

pub struct Pair {
    pub second: Simulation,
    /// The second run's last full figures (`Figures::All`), as the first run's reach the panel.
    pub latest: Option<super::stats::StepStats>,
}

impl Pair {
    /// `scene` at time zero beside `first`, which must run the same grid.
    pub fn new(gpu: &Gpu, first: &Simulation, scene: &Scene, source: &Source) -> Result<Pair> {
        let second = Simulation::from_scene(gpu, scene, source)?;
        if (second.nx, second.ny, second.dye_scale) != (first.nx, first.ny, first.dye_scale) {
            crate::fail!(
                "split view: the second run's grid {}x{} (dye x{}) differs from the first's {}x{} (dye x{}): expected one grid",
                second.nx,
                second.ny,
                second.dye_scale,
                first.nx,
                first.ny,
                first.dye_scale
            );
        }
        Ok(Pair { second, latest: None })
    }

    /// A brush dab for both runs, at the same point of the domain.
    pub fn add_splat(&mut self, first: &mut Simulation, splat: Splat) {
        first.add_splat(splat);
        self.second.add_splat(splat);
    }

    /// Records one step of the second run with `figures` (the first run's own are recorded by
    /// its caller), and copies them out for the next step's sub-steps.
    pub fn encode_step(&mut self, encoder: &mut wgpu::CommandEncoder, figures: Figures) {
        let s = &mut self.second;
        s.encode_step(encoder, figures, None);
        s.readback.encode_copy(encoder, &s.buffers.stats, figures, s.step_index, s.time);
    }

    /// After the submission: the second run's read-backs requested, as the first's are.
    pub fn after_submit(&mut self) {
        self.second.after_submit();
    }

    /// Takes the second run's figures that have arrived (never waits): its next step's sub-steps
    /// follow them, and the last full ones are kept for its label.
    pub fn collect(&mut self) {
        if let Some(s) = self.second.readback.collect().pop() {
            self.latest = Some(s);
        }
    }

    /// Steps both runs `n` times in one encoder a step, waiting for the GPU after each, as
    /// `run_blocking` steps one run (tests: the pair against two runs of their own).
    pub fn run_blocking(&mut self, first: &mut Simulation, n: u64) {
        for _ in 0..n {
            let mut encoder = first.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("split step") });
            let figures = |s: &Simulation| if s.max_cfl > 0.0 { Figures::Speeds } else { Figures::None };
            let f = figures(first);
            first.encode_step(&mut encoder, f, None);
            first.readback.encode_copy(&mut encoder, &first.buffers.stats, f, first.step_index, first.time);
            self.encode_step(&mut encoder, figures(&self.second));
            first.queue.submit([encoder.finish()]);
            first.after_submit();
            self.after_submit();
            first.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
            for s in [&mut *first, &mut self.second] {
                let _ = s.readback.collect();
                if let Some(latest) = s.readback.take_latest() {
                    s.max_speed = latest.max_speed;
                    s.max_density = latest.max_density;
                    s.rms_speed = super::rms_speed(latest.kinetic_energy, &s.params, s.nx * s.ny);
                }
            }
        }
    }
}
