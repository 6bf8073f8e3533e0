//! `smokebox bench`: each pressure solver on a built-in scene (default `plume`) at any list of grid
//! sizes. Per configuration: median wall-clock ms of a full step (submit and wait, stats on),
//! median ms of a projection alone (divergence, solve, correction, always from the same advected
//! state), the relative residual reached (max |div after| / before), the sweeps or V-cycles a
//! tolerance used, dispatches recorded per step (counted where they are recorded,
//! src/sim/kernel/mod.rs `count_dispatch`), bytes moved per step (estimated from the passes, below)
//! and the effective GB/s (those bytes over the wall time of a step), and per-pass GPU ms per step
//! from timestamp queries (wgpu-profiler) where the adapter has them. After a tolerance row, a
//! fixed-count row with the cycles it used, to price the gate. With a tolerance, the timed steps
//! that stopped above it (`above`; 0 is what it should be). Prints a table, writes JSON.

use crate::config::{Scene, SolverKind};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::sim::Simulation;
use crate::sim::kernel::dispatches;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Grid sides to measure (square grids), any list, e.g. --sizes 64,100,4096.
    #[arg(long, value_delimiter = ',', default_values_t = vec![128usize, 256, 512])]
    pub sizes: Vec<usize>,
    /// Timed steps per configuration (after 3 warm-up steps).
    #[arg(long, default_value_t = 10)]
    pub steps: usize,
    /// Where to write the JSON results.
    #[arg(long, default_value = "bench.json")]
    pub json: PathBuf,
    /// Scene to measure (its solver keys are set per row).
    #[arg(long, default_value = "plume")]
    pub scene: String,
    /// Extra scene overrides for every row, e.g. --set advection.velocity=semi-lagrangian.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Only these solvers (jacobi, sor, multigrid, mgpcg); default all.
    #[arg(long, value_delimiter = ',')]
    pub solvers: Vec<String>,
    /// Also time each dispatch of 8 steps (timestamps inside passes) and list the kernels by mean GPU time a step.
    #[arg(long)]
    pub dispatches: bool,
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
    /// Timed steps whose solve stopped above the tolerance (None: no tolerance).
    pub steps_above_tolerance: Option<u32>,
    pub dispatches_per_step: f64,
    /// Estimated bytes moved per step (`step_bytes`).
    pub bytes_per_step: u64,
    /// bytes_per_step over ms_step.
    pub gb_per_s: f64,
    /// Mean GPU ms per step of each profiler scope (timestamp queries), in step order; empty
    /// where the adapter has no timestamp queries.
    pub gpu_passes: Vec<(String, f64)>,
    /// With `--dispatches`: each kernel's dispatches a step and their GPU ms, means of 8 steps,
    /// most time first.
    pub gpu_kernels: Vec<(String, f64, f64)>,
    /// With `--dispatches`: mean GPU ms from a step's first dispatch to its last (the kernels'
    /// time and the gaps between them).
    pub gpu_dispatch_span: f64,
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
        sim.encode_step(&mut encoder, crate::sim::Figures::None, Some(&profiler));
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

/// Each kernel's dispatches a step and their summed GPU ms, most time first, the mean of
/// `PROFILED_STEPS` steps (one step's timestamps swing by half on a loaded CPU adapter); empty
/// where the device cannot time inside a pass. The span is the mean from a step's first dispatch
/// to its last.
fn gpu_kernel_times(sim: &mut Simulation) -> (Vec<(String, f64, f64)>, f64) {
    const PROFILED_STEPS: usize = 8;
    let mut kernels: Vec<(String, u32, f64)> = Vec::new();
    let mut spans = 0.0;
    for _ in 0..PROFILED_STEPS {
        let Some(probe) = crate::sim::dispatch_probe::DispatchProbe::new(&sim.device, 2048) else { return (Vec::new(), 0.0) };
        probe.install();
        let mut encoder = sim.device.create_command_encoder(&Default::default());
        sim.encode_step(&mut encoder, crate::sim::Figures::None, None);
        let probe = crate::sim::dispatch_probe::DispatchProbe::uninstall().expect("installed");
        probe.resolve(&mut encoder);
        sim.queue.submit([encoder.finish()]);
        let (times, span) = probe.read(&sim.device, &sim.queue);
        spans += span;
        // every dispatch in recording order, for finding which level or check a cost belongs to
        if std::env::var_os("SMOKEBOX_DISPATCH_TRACE").is_some() {
            for (label, ms) in &times {
                eprintln!("dispatch {label} {ms:.4}");
            }
        }
        for (label, ms) in times {
            match kernels.iter_mut().find(|k| k.0 == label) {
                Some(k) => (k.1, k.2) = (k.1 + 1, k.2 + ms),
                None => kernels.push((label, 1, ms)),
            }
        }
    }
    let steps = PROFILED_STEPS as f64;
    let mut kernels: Vec<(String, f64, f64)> = kernels.into_iter().map(|(label, n, ms)| (label, n as f64 / steps, ms / steps)).collect();
    kernels.sort_by(|a, b| b.2.total_cmp(&a.2));
    (kernels, spans / steps)
}

/// The configurations: the seed's 40 Jacobi sweeps, SOR 40, multigrid with a fixed 4 V-cycles,
/// multigrid to 1e-4 (at most 20 V-cycles), MGPCG to 1e-4 (at most 20 iterations).
fn configs() -> Vec<(SolverKind, u32, f32)> {
    vec![
        (SolverKind::Jacobi, 40, 0.0),
        (SolverKind::Sor, 40, 0.0),
        (SolverKind::Multigrid, 4, 0.0),
        (SolverKind::Multigrid, 20, 1e-4),
        (SolverKind::Mgpcg, 20, 1e-4),
    ]
}

/// Estimated bytes a step moves outside the pressure solve, per cell, from what each pass reads
/// and writes once (f32 fields; cached neighbour reads not counted again): sources 48 (u, v, ink,
/// density read and written), forces 20, divergence 16, correction 20, advection of velocity, ink
/// and density 52 plus 48 for the copies back, stats 28; the solve's set-up and load 12.
const STEP_BYTES_PER_CELL: u64 = 48 + 20 + 16 + 20 + 52 + 48 + 28 + 12;

/// Estimated bytes of a step: the passes around the solve plus the units the solve ran.
fn step_bytes(sim: &Simulation, kind: SolverKind, units: f64) -> u64 {
    let cells = sim.nx * sim.ny;
    let (_, unit_bytes) = sim.stages.solvers.unit_cost(kind, cells);
    STEP_BYTES_PER_CELL * cells as u64 + (units * unit_bytes as f64) as u64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn bench(args: &BenchArgs) -> Result<()> {
    let gpu = Gpu::headless()?;
    let mut rows = Vec::new();
    println!(
        "{:<10} {:>5} {:>6} {:>8} {:>10} {:>10} {:>11} {:>6} {:>6} {:>7} {:>9} {:>6}",
        "solver", "n", "iters", "tol", "ms/step", "ms/proj", "residual", "used", "above", "disp", "MB/step", "GB/s"
    );
    for &n in &args.sizes {
        let mut queue: Vec<(SolverKind, u32, f32)> = configs();
        let mut k = 0;
        while k < queue.len() {
            let (kind, iterations, tolerance) = queue[k];
            k += 1;
            let name = format!("{kind:?}").to_lowercase();
            if !args.solvers.is_empty() && !args.solvers.contains(&name) {
                continue;
            }
            let row = bench_row(&gpu, args, n, kind, iterations, tolerance)?;
            println!(
                "{:<10} {:>5} {:>6} {:>8} {:>10.2} {:>10.2} {:>11.3e} {:>6} {:>6} {:>7.1} {:>9.1} {:>6.2}",
                row.solver,
                row.n,
                row.iterations,
                row.tolerance,
                row.ms_step,
                row.ms_projection,
                row.residual,
                row.iterations_used.map(|k| k.to_string()).unwrap_or_default(),
                row.steps_above_tolerance.map(|k| k.to_string()).unwrap_or_default(),
                row.dispatches_per_step,
                row.bytes_per_step as f64 / 1e6,
                row.gb_per_s
            );
            if !row.gpu_passes.is_empty() {
                let list: Vec<String> = row.gpu_passes.iter().map(|(n, ms)| format!("{n} {ms:.2}")).collect();
                println!("{:>16} GPU ms/step: {}", "", list.join(", "));
            }
            if !row.gpu_kernels.is_empty() {
                let list: Vec<String> = row.gpu_kernels.iter().take(12).map(|(k, n, ms)| format!("{k} {n:.1}x {ms:.3}")).collect();
                let inside: f64 = row.gpu_kernels.iter().map(|k| k.2).sum();
                println!(
                    "{:>16} GPU ms by kernel (mean of 8 steps; {inside:.2} in dispatches of a {:.2} span): {}",
                    "",
                    row.gpu_dispatch_span,
                    list.join(", ")
                );
            }
            // price the gate: the same number of units, fixed
            if let Some(used) = row.iterations_used.filter(|&u| u > 0) {
                queue.insert(k, (kind, used, 0.0));
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

fn bench_row(gpu: &Gpu, args: &BenchArgs, n: usize, kind: SolverKind, iterations: u32, tolerance: f32) -> Result<BenchRow> {
    let name = format!("{kind:?}").to_lowercase();
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
    let mut sim = Simulation::from_scene(gpu, &scene, &source)?;
    sim.run_blocking(3, true);
    let (mut step_ms, mut proj_ms, mut residual, mut used) = (Vec::new(), Vec::new(), 0.0, Vec::new());
    let mut above = 0;
    let d0 = dispatches();
    for _ in 0..args.steps {
        let t0 = Instant::now();
        let stats = sim.run_blocking(1, true);
        step_ms.push(t0.elapsed().as_secs_f64() * 1e3);
        if let Some(s) = stats.last() {
            residual = s.residual;
            above += (s.converged == Some(false)) as u32;
        }
        if tolerance > 0.0 {
            used.push(sim.stages.solvers.report(&sim.device, &sim.queue, kind).iterations as f64);
        }
    }
    let dispatches_per_step = (dispatches() - d0) as f64 / args.steps.max(1) as f64;
    // the projection alone, each time from the same advected (not yet projected) state
    let start = sim.download();
    for _ in 0..args.steps {
        sim.upload(&start);
        sim.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
        let t0 = Instant::now();
        sim.run_pass("projection");
        proj_ms.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    let iterations_used = (tolerance > 0.0 && !used.is_empty()).then(|| median(used.clone()).round() as u32);
    let unit = crate::sim::solver::unit_sweeps(kind) as f64;
    let units = match iterations_used {
        Some(u) => u as f64 / unit,
        None => iterations as f64 / unit,
    };
    let gpu_passes = gpu_pass_times(gpu, &mut sim, args.steps);
    let (gpu_kernels, gpu_dispatch_span) = if args.dispatches { gpu_kernel_times(&mut sim) } else { (Vec::new(), 0.0) };
    let ms_step = median(step_ms);
    let bytes_per_step = step_bytes(&sim, kind, units);
    Ok(BenchRow {
        solver: name,
        n,
        iterations,
        tolerance,
        ms_step,
        ms_projection: median(proj_ms),
        residual,
        iterations_used,
        steps_above_tolerance: (tolerance > 0.0).then_some(above),
        dispatches_per_step,
        bytes_per_step,
        gb_per_s: bytes_per_step as f64 / (ms_step * 1e6),
        gpu_passes,
        gpu_kernels,
        gpu_dispatch_span,
    })
}
