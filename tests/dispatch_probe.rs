//! `smokebox bench --dispatches`: a probe installed on the thread times every dispatch a step
//! records (src/sim/dispatch_probe.rs), one entry per dispatch counted, and records nothing once
//! uninstalled.

mod common;
use common::*;
use smokebox::config::Scene;
use smokebox::sim::Simulation;
use smokebox::sim::dispatch_probe::DispatchProbe;
use smokebox::sim::kernel::dispatches;

fn probed_step(sim: &mut Simulation) -> (u64, (Vec<(String, f64)>, f64)) {
    let probe = DispatchProbe::new(&sim.device, 2048).expect("lavapipe and GPUs time inside passes");
    probe.install();
    let before = dispatches();
    let mut encoder = sim.device.create_command_encoder(&Default::default());
    sim.encode_step(&mut encoder, smokebox::sim::Figures::None, None);
    let counted = dispatches() - before;
    let probe = DispatchProbe::uninstall().expect("installed");
    probe.resolve(&mut encoder);
    sim.queue.submit([encoder.finish()]);
    (counted, probe.read(&sim.device, &sim.queue))
}

#[test]
fn every_dispatch_of_a_step_is_timed_once() {
    let gpu = gpu();
    let sets = ["grid.nx=48".to_string(), "grid.ny=48".into()];
    let (scene, source) = Scene::load("plume", &sets).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    sim.run_blocking(2, false);
    let (counted, (times, whole)) = probed_step(&mut sim);
    assert!(counted > 20, "a plume step records its passes: {counted}");
    assert_eq!(times.len() as u64, counted, "one timing per dispatch counted");
    for name in ["forces", "divergence", "project", "advect/velocity"] {
        assert!(times.iter().any(|(k, _)| k == name), "{name} timed: {:?}", times.iter().map(|t| &t.0).collect::<Vec<_>>());
    }
    assert!(times.iter().all(|(_, ms)| ms.is_finite() && *ms >= 0.0 && *ms < 1e4), "{times:?}");
    let inside: f64 = times.iter().map(|t| t.1).sum();
    assert!(inside > 0.0, "the step took GPU time");
    assert!(whole >= inside * 0.999, "the dispatches lie within the step's span: {inside} of {whole} ms");
    // uninstalled: the next step records no timestamps
    let mut encoder = sim.device.create_command_encoder(&Default::default());
    sim.encode_step(&mut encoder, smokebox::sim::Figures::None, None);
    assert!(DispatchProbe::uninstall().is_none());
    sim.queue.submit([encoder.finish()]);
}
