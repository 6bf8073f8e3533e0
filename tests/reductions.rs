//! Reductions sized per device (src/sim/kernel/profile.rs `reduction_groups`): a GPU's workgroups on a
//! large grid take more than 64 first-stage workgroups and fold their partials in 64 runs; the
//! figures they give (statistics, the warm start's factor, the residual check) equal a CPU
//! adapter's few serial ones to round-off. Runs both shapes on any adapter.

mod common;
use common::*;
use smokebox::config::Scene;
use smokebox::sim::kernel::{DeviceProfile, GridSize, Target, profile, with_profile};
use smokebox::sim::{Simulation, stats::StepStats};

const N: u32 = 640;

/// Three steps of the plume at N², Jacobi with a residual check every unit (never met: the checks
/// and their gate run each time) and the warm start, on the current thread's workgroup size.
fn three_steps(gpu: &smokebox::gpu::Gpu) -> (u32, Vec<StepStats>) {
    let sets = [
        format!("grid.nx={N}"),
        format!("grid.ny={N}"),
        format!("grid.cell_size={}", 1.0 / N as f64),
        "solver.kind=\"jacobi\"".into(),
        "solver.iterations=16".into(),
        "solver.tolerance=1e-6".into(),
        "grid.dye_scale=1".into(),
    ];
    let (scene, source) = Scene::load("plume", &sets).unwrap();
    let groups = Target { device: &gpu.device, device_serial: None, grid: GridSize { nx: N, ny: N, dye_scale: 1 }, switches: None }
        .reduction_groups();
    let mut sim = Simulation::from_scene(gpu, &scene, &source).unwrap();
    (groups, sim.run_blocking(3, true))
}

fn close(what: &str, a: f32, b: f32, rel: f32) {
    assert!((a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-30), "{what}: {a} against {b}");
}

#[test]
fn a_gpus_reductions_match_a_cpu_adapters() {
    let gpu = gpu();
    // a CPU adapter's shape, named so that a GPU runs it too (its own would be the wide one)
    let workgroup = |n| DeviceProfile { solver_workgroup: n, ..profile(&gpu.device) };
    let (cpu_groups, cpu) = with_profile(workgroup(8), || three_steps(&gpu));
    let (gpu_groups, wide) = with_profile(workgroup(256), || three_steps(&gpu));
    // lavapipe's workgroups: one a thread, more where an invocation would take over 4096 cells
    // (640² with 8 invocations a workgroup: 13, so 16)
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
    assert_eq!(cpu_groups, threads.max(16).next_power_of_two().min(64), "a CPU adapter's reduction workgroups at {N}²");
    assert_eq!(gpu_groups, 128, "{N}² with 256 invocations a workgroup: one per 16 workgroups' cells");
    assert_eq!(cpu.len(), 3);
    assert_eq!(wide.len(), 3);
    // the first step's maxima: its four sub-steps solve three times before its last divergence,
    // and the warm start's mix of the pressures comes from sums in the reductions' order, so they
    // agree to round-off, not bit for bit (1.3e-5 apart since the warm start adds four cells a
    // thread, its sums in another order)
    close("step 1 max |div| before", cpu[0].div_max_before, wide[0].div_max_before, 3e-5);
    close("step 1 max density", cpu[0].max_density, wide[0].max_density, 1e-5);
    assert_eq!(cpu[0].substeps, 4, "the premise above: the plume's first step at {N}² takes four sub-steps");
    for (a, b) in cpu.iter().zip(&wide) {
        let step = a.step;
        assert!(a.div_max_before > 0.0 && a.ink_total > 0.0 && a.kinetic_energy > 0.0, "step {step}: {a:?}");
        // 3e-4: 16 sweeps leave the start nearly as it was (residual about 1), and the start's
        // three weights solve a 3 x 3 system that may be ill-conditioned up to 1 / MIN_SIN2_G
        // (shaders/warm_start_mix.wgsl), which amplifies the sums' round-off (1.5e-4 at step 3;
        // 1e-4 held with the pair alone)
        close(&format!("step {step} max |div| before"), a.div_max_before, b.div_max_before, 3e-4);
        close(&format!("step {step} max |div| after"), a.div_max_after, b.div_max_after, 1e-3);
        close(&format!("step {step} ink"), a.ink_total, b.ink_total, 1e-5);
        close(&format!("step {step} kinetic energy"), a.kinetic_energy, b.kinetic_energy, 1e-4);
        close(&format!("step {step} max speed"), a.max_speed, b.max_speed, 1e-4);
        close(&format!("step {step} residual"), a.residual, b.residual, 1e-3);
        assert_eq!(a.converged, Some(false), "step {step}: 16 Jacobi sweeps do not reach 1e-6 at {N}²");
        assert_eq!(b.converged, Some(false), "step {step}: the wide check agrees");
    }
}
