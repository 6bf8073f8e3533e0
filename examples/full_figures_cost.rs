//! GPU time of the passes that run only with a step's full figures (`run --stats`, the window's
//! stats frames): the forces on bodies (shaders/body_loads.wgsl) and the probes
//! (shaders/probes.wgsl), timed by timestamps around each dispatch (`sim::dispatch_probe`, as
//! `smokebox bench --dispatches` times a step) on the wind tunnel made square, with a cylinder, a
//! rectangle and four probes.
//!
//! Usage: `cargo run --release --example full_figures_cost -- [SIZES]` (default `128,512`).
//! Prints, per size, the mean span of a step and each pass's median and least ms over the steps.

use smokebox::config::Scene;
use smokebox::sim::dispatch_probe::DispatchProbe;
use smokebox::sim::{Figures, Simulation};

fn main() {
    if let Err(e) = run() {
        eprintln!("full_figures_cost: {e}");
        std::process::exit(2);
    }
}

fn run() -> smokebox::Result<()> {
    let sizes = std::env::args().nth(1).unwrap_or_else(|| "128,512".into());
    let gpu = smokebox::gpu::Gpu::headless()?;
    for n in sizes.split(',').map(|s| s.trim().parse::<usize>().map_err(|_| smokebox::error!("size {s}: expected cells a side"))) {
        let n = n?;
        let overrides = [
            format!("grid.nx={n}"),
            format!("grid.ny={n}"),
            format!("grid.cell_size={}", 1.0 / n as f32),
            "grid.dye_scale=1".into(),
            "obstacles=[{shape='circle',center=[0.3,0.5],radius=0.08},{shape='rect',min=[0.6,0.2],max=[0.7,0.3]}]".into(),
        ];
        let (scene, source) = Scene::load("wind-tunnel", &overrides)?;
        let mut sim = Simulation::from_scene(&gpu, &scene, &source)?;
        sim.set_probes(&[[0.5, 0.5], [0.6, 0.4], [0.7, 0.6], [0.8, 0.5]])?;
        sim.run_blocking(3, true);
        let steps = if n <= 256 { 24 } else { 8 };
        let (mut loads, mut probes, mut span) = (Vec::new(), Vec::new(), 0.0);
        for _ in 0..steps {
            let Some(probe) = DispatchProbe::new(&sim.device, 4096) else { smokebox::fail!("this adapter cannot time dispatches") };
            probe.install();
            let mut encoder = sim.device.create_command_encoder(&Default::default());
            sim.encode_step(&mut encoder, Figures::All, None);
            let probe = DispatchProbe::uninstall().expect("installed");
            probe.resolve(&mut encoder);
            sim.queue.submit([encoder.finish()]);
            let (times, s) = probe.read(&sim.device, &sim.queue);
            span += s;
            for (label, ms) in times {
                match label.as_str() {
                    "body_loads" => loads.push(ms),
                    "probes" => probes.push(ms),
                    _ => {}
                }
            }
        }
        let summary = |t: &mut Vec<f64>| {
            t.sort_by(f64::total_cmp);
            format!("median {:.4} ms, least {:.4} ms", t[t.len() / 2], t[0])
        };
        println!("{n}²: a step spans {:.1} ms; body_loads {}; probes {}", span / steps as f64, summary(&mut loads), summary(&mut probes));
    }
    Ok(())
}
