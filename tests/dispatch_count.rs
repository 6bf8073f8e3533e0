//! Dispatches a step, pinned (issue: count dispatches, they cost more than the arithmetic on
//! every device here). Plume at 128², each solver at a fixed count (tolerance 0, so the count does
//! not follow the residual), under each device class's profile. A change that adds a dispatch to
//! a step shows here as a failed count; lower the pinned figure when a change removes some.
//!
//! One test in its own binary: the counter is process-wide (src/sim/kernel/mod.rs `dispatches`).

mod common;
use smokebox::config::Scene;
use smokebox::sim::Simulation;
use smokebox::sim::kernel::{DeviceClass, DeviceProfile, dispatches, with_profile};

/// The equal-work settings of BENCHMARKS.md's race, with a solver and its fixed count.
fn dispatches_a_step(gpu: &smokebox::gpu::Gpu, kind: &str, iterations: u32) -> u64 {
    let sets = [
        "grid.nx=128".to_string(),
        "grid.ny=128".into(),
        format!("grid.cell_size={}", 1.0 / 128.0),
        format!("solver.kind=\"{kind}\""),
        format!("solver.iterations={iterations}"),
        "solver.tolerance=0".into(),
        "advection.velocity=\"semi-lagrangian\"".into(),
        "grid.dye_scale=1".into(),
        "time.max_cfl=0".into(),
    ];
    let (scene, source) = Scene::load("plume", &sets).unwrap();
    let mut sim = Simulation::from_scene(gpu, &scene, &source).unwrap();
    sim.run_blocking(2, true);
    let before = dispatches();
    let steps = 4;
    sim.run_blocking(steps, true);
    let n = dispatches() - before;
    assert_eq!(n % steps, 0, "{kind} {iterations}: every step records the same dispatches at a fixed count ({n} in {steps} steps)");
    n / steps
}

#[test]
fn dispatches_a_step_at_128_are_pinned() {
    let gpu = common::gpu();
    // (class, solver, count, dispatches a step with stats on)
    let pinned: [(DeviceClass, &str, u32, u64); 16] = [
        (DeviceClass::Software, "jacobi", 20, 37),
        (DeviceClass::Software, "sor", 40, 99),
        (DeviceClass::Software, "multigrid", 4, 47),
        (DeviceClass::Software, "mgpcg", 2, 42),
        (DeviceClass::Gpu, "jacobi", 20, 20),
        (DeviceClass::Gpu, "sor", 40, 37),
        (DeviceClass::Gpu, "multigrid", 4, 45),
        (DeviceClass::Gpu, "mgpcg", 2, 40),
        (DeviceClass::Browser, "jacobi", 20, 20),
        (DeviceClass::Browser, "sor", 40, 37),
        (DeviceClass::Browser, "multigrid", 4, 45),
        (DeviceClass::Browser, "mgpcg", 2, 40),
        (DeviceClass::BrowserSoftware, "jacobi", 20, 37),
        (DeviceClass::BrowserSoftware, "sor", 40, 99),
        (DeviceClass::BrowserSoftware, "multigrid", 4, 95),
        (DeviceClass::BrowserSoftware, "mgpcg", 2, 66),
    ];
    let mut wrong = Vec::new();
    for (class, kind, iterations, want) in pinned {
        let got = with_profile(DeviceProfile::of_class(class), || dispatches_a_step(&gpu, kind, iterations));
        println!("{:>8} {kind:>9} {iterations:>2}: {got} dispatches a step", class.name());
        if got != want {
            wrong.push(format!("{} {kind} {iterations}: {got}, pinned {want}", class.name()));
        }
    }
    assert!(wrong.is_empty(), "dispatches a step at 128² changed: {}", wrong.join("; "));
}
