//! `smokebox bench`: each pressure solver on the built-in `drops` scene (a closed 1 m box, three
//! swirling ink blobs; deterministic, no random input) at several grid sizes. Per configuration:
//! median wall-clock ms of a full step (submit and wait, stats on), median ms of a projection alone
//! (divergence, solve, correction, always from the same advected state), the relative residual reached (max |div after| / before) and,
//! for tolerance runs, the V-cycles or sweeps used, and per-pass GPU ms per step from timestamp
//! queries (wgpu-profiler) where the adapter has them. Prints a table, writes JSON.

use crate::config::{Scene, SolverKind};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::sim::Simulation;
use crate::sim::buffers::read_buffers;
use crate::sim::solver::SolveReport;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Grid sides to measure (square grids).
    #[arg(long, value_delimiter = ',', default_values_t = vec![128usize, 256, 512])]
    pub sizes: Vec<usize>,
    /// Timed steps per configuration (after 3 warm-up steps).
    #[arg(long, default_value_t = 10)]
    pub steps: usize,
    /// Where to write the JSON results.
    #[arg(long, default_value = "bench.json")]
    pub json: PathBuf,
    /// Scene to measure (its solver keys are set per row).
    #[arg(long, default_value = "drops")]
    pub scene: String,
    /// Extra scene overrides for every row, e.g. --set advection.velocity=semi-lagrangian.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Only these solvers (jacobi, sor, multigrid); default all.
    #[arg(long, value_delimiter = ',')]
    pub solvers: Vec<String>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct BenchRow {
    pub solver: String,
    pub n: usize,
    pub iterations: u32,
    pub tolerance: f32,
    pub ms_step: f64,
    pub ms_projection: f64,
    pub residual: f32,
    pub iterations_used: Option<u32>,
    /// Mean GPU ms per step of each profiler scope (timestamp queries), in step order; empty
    /// where the adapter has no timestamp queries.
    pub gpu_passes: Vec<(String, f64)>,
}

/// Runs `steps` steps with a wgpu-profiler attached and returns the mean GPU ms per step of each
/// scope (the `timed_pass` scopes of the step: sources, forces, divergence, pressure setup,
/// pressure, project, advection passes, stats), waiting for each step's queries.
fn gpu_pass_times(gpu: &Gpu, sim: &mut Simulation, steps: usize) -> Vec<(String, f64)> {
    let mut passes: Vec<(String, f64)> = Vec::new();
    if !gpu.has_timestamps() || steps == 0 {
        return passes;
    }
    let Ok(mut profiler) = wgpu_profiler::GpuProfiler::new(&sim.device, wgpu_profiler::GpuProfilerSettings::default()) else {
        return passes;
    };
    let mut frames = 0;
    for _ in 0..steps {
        let mut encoder = sim.device.create_command_encoder(&Default::default());
        sim.encode_step(&mut encoder, false, Some(&profiler));
        profiler.resolve_queries(&mut encoder);
        sim.queue.submit([encoder.finish()]);
        let _ = profiler.end_frame();
        sim.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
        let Some(results) = profiler.process_finished_frame(sim.queue.get_timestamp_period()) else { continue };
        frames += 1;
        for q in results {
            let Some(t) = q.time else { continue };
            let ms = (t.end - t.start) * 1e3;
            match passes.iter_mut().find(|(n, _)| *n == q.label) {
                Some(e) => e.1 += ms,
                None => passes.push((q.label, ms)),
            }
        }
    }
    for p in &mut passes {
        p.1 /= frames.max(1) as f64;
    }
    passes
}

/// The configurations: the Jacobi default (40, the issue-2 figure), Jacobi 60 (the multigrid
/// target's yardstick), SOR 60, multigrid with a fixed 4 V-cycles, multigrid to 1e-4.
fn configs() -> Vec<(SolverKind, u32, f32)> {
    vec![
        (SolverKind::Jacobi, 40, 0.0),
        (SolverKind::Jacobi, 60, 0.0),
        (SolverKind::Sor, 60, 0.0),
        (SolverKind::Multigrid, 4, 0.0),
        (SolverKind::Multigrid, 30, 1e-4),
    ]
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn bench(args: &BenchArgs) -> Result<()> {
    let gpu = Gpu::headless()?;
    let mut rows = Vec::new();
    println!(
        "{:<10} {:>5} {:>6} {:>8} {:>10} {:>10} {:>11} {:>6}",
        "solver", "n", "iters", "tol", "ms/step", "ms/proj", "residual", "used"
    );
    for &n in &args.sizes {
        for (kind, iterations, tolerance) in configs() {
            let name = format!("{kind:?}").to_lowercase();
            if !args.solvers.is_empty() && !args.solvers.contains(&name) {
                continue;
            }
            let mut overrides = vec![
                format!("grid.nx={n}"),
                format!("grid.ny={n}"),
                format!("grid.cell_size={}", 1.0 / n as f64),
                format!("solver.kind=\"{name}\""),
                format!("solver.iterations={iterations}"),
                format!("solver.tolerance={tolerance}"),
            ];
            overrides.extend(args.set.iter().cloned());
            let (scene, source) = Scene::load(&args.scene, &overrides)?;
            crate::sim::check_fits(&gpu.device.limits(), n, n)?;
            let mut sim = Simulation::from_scene(&gpu, &scene, &source)?;
            sim.run_blocking(3, false);
            let (mut step_ms, mut proj_ms, mut residual) = (Vec::new(), Vec::new(), 0.0);
            for _ in 0..args.steps {
                let t0 = Instant::now();
                let stats = sim.run_blocking(1, true);
                step_ms.push(t0.elapsed().as_secs_f64() * 1e3);
                if let Some(s) = stats.last() {
                    residual = if s.div_max_before > 0.0 { s.div_max_after / s.div_max_before } else { 0.0 };
                }
            }
            // the projection alone, each time from the same advected (not yet projected) state
            let start = sim.download();
            for _ in 0..args.steps {
                sim.upload(&start);
                sim.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
                let t0 = Instant::now();
                sim.run_pass("projection");
                proj_ms.push(t0.elapsed().as_secs_f64() * 1e3);
            }
            let iterations_used = (tolerance > 0.0).then(|| {
                let s = &sim.stages.projection.solvers;
                SolveReport::from_words(&read_buffers(&sim.device, &sim.queue, &[&s.control])[0]).iterations
            });
            let gpu_passes = gpu_pass_times(&gpu, &mut sim, args.steps);
            let row = BenchRow {
                solver: name,
                n,
                iterations,
                tolerance,
                ms_step: median(step_ms),
                ms_projection: median(proj_ms),
                residual,
                iterations_used,
                gpu_passes,
            };
            println!(
                "{:<10} {:>5} {:>6} {:>8} {:>10.2} {:>10.2} {:>11.3e} {:>6}",
                row.solver,
                row.n,
                row.iterations,
                row.tolerance,
                row.ms_step,
                row.ms_projection,
                row.residual,
                row.iterations_used.map(|k| k.to_string()).unwrap_or_default()
            );
            if !row.gpu_passes.is_empty() {
                let list: Vec<String> = row.gpu_passes.iter().map(|(n, ms)| format!("{n} {ms:.2}")).collect();
                println!("{:>16} GPU ms/step: {}", "", list.join(", "));
            }
            rows.push(row);
        }
    }
    let json = serde_json::json!({ "adapter": gpu.adapter.get_info().name, "scene": args.scene, "overrides": args.set, "steps": args.steps, "rows": rows });
    std::fs::write(&args.json, serde_json::to_string_pretty(&json).expect("json"))
        .map_err(|e| crate::error!("cannot write {}: {e}", args.json.display()))?;
    println!("wrote {}", args.json.display());
    Ok(())
}
