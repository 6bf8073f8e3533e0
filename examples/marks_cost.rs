//! Cost of the tracers and streamlines views on the plume with every tracer alive
//! (`TRACER_CAPACITY` particles): the tracers pass in a step and the streamlines' trace, timed by
//! timestamps around each dispatch (`sim::dispatch_probe`, as `smokebox bench --dispatches` times
//! a step), and the drawing of each view over a 512 x 512 field (a headless render pass, waited
//! for: the wall time less that of the field alone).
//!
//! Usage: `cargo run --release --example marks_cost -- [SIZES]` (default `128,256`).
//! Prints, per size, each figure's median and least ms.

use smokebox::config::Scene;
use smokebox::render::{HEADLESS_FORMAT, Offscreen, Overlays, RenderParams, Renderer, TintRanges, Viewport};
use smokebox::sim::dispatch_probe::DispatchProbe;
use smokebox::sim::streamlines::SeedGrid;
use smokebox::sim::tracers::{TRACER_CAPACITY, even_points};
use smokebox::sim::{Figures, Simulation};

const SIDE: u32 = 512;

fn main() {
    if let Err(e) = run() {
        eprintln!("marks_cost: {e}");
        std::process::exit(2);
    }
}

fn summary(t: &mut [f64]) -> String {
    t.sort_by(f64::total_cmp);
    format!("median {:.3} ms, least {:.3} ms", t[t.len() / 2], t[0])
}

/// GPU ms of the dispatches labelled `label` that `record` encodes, `times` times.
fn timed(
    sim: &mut Simulation,
    label: &str,
    times: usize,
    record: impl Fn(&mut Simulation, &mut wgpu::CommandEncoder),
) -> smokebox::Result<Vec<f64>> {
    let mut out = Vec::new();
    for _ in 0..times {
        let Some(probe) = DispatchProbe::new(&sim.device, 4096) else { smokebox::fail!("this adapter cannot time dispatches") };
        probe.install();
        let mut encoder = sim.device.create_command_encoder(&Default::default());
        record(sim, &mut encoder);
        let probe = DispatchProbe::uninstall().expect("installed");
        probe.resolve(&mut encoder);
        sim.queue.submit([encoder.finish()]);
        let (list, _) = probe.read(&sim.device, &sim.queue);
        out.push(list.iter().filter(|(l, _)| l == label).map(|(_, ms)| ms).sum());
    }
    Ok(out)
}

/// Wall ms of drawing the field with `overlays` into a `SIDE`² image, waited for: by a render pass,
/// or into `image` (a renderer made by `for_image`).
fn draw_ms(sim: &Simulation, renderer: &mut Renderer, image: Option<&wgpu::BindGroup>, overlays: &Overlays, times: usize) -> Vec<f64> {
    let vp = Viewport { x: 0.0, y: 0.0, w: SIDE as f32, h: SIDE as f32 };
    renderer.prepare(&sim.queue, &RenderParams::new(sim, overlays, [0.0; 3], vp.pixels_per_cell(sim.nx), TintRanges::set(overlays)));
    (0..times + 2)
        .map(|_| {
            let start = std::time::Instant::now();
            let mut encoder = sim.device.create_command_encoder(&Default::default());
            if let Some(image) = image {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                renderer.compute(&mut pass, image, [SIDE, SIDE]);
            } else {
                let _image = Offscreen::draw(&sim.device, &mut encoder, renderer, vp, [SIDE, SIDE]);
            }
            sim.queue.submit([encoder.finish()]);
            sim.device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
            start.elapsed().as_secs_f64() * 1e3
        })
        .skip(2)
        .collect()
}

fn run() -> smokebox::Result<()> {
    let sizes = std::env::args().nth(1).unwrap_or_else(|| "128,256".into());
    let gpu = smokebox::gpu::Gpu::headless()?;
    for n in sizes.split(',').map(|s| s.trim().parse::<usize>().map_err(|_| smokebox::error!("size {s}: expected cells a side"))) {
        let n = n?;
        let (scene, source) = Scene::load("plume", &[format!("grid.nx={n}"), format!("grid.ny={n}")])?;
        let mut sim = Simulation::from_scene(&gpu, &scene, &source)?;
        let (w, h) = (sim.nx as f32 * sim.params.h, sim.ny as f32 * sim.params.h);
        // a closed box keeps every particle: the whole capacity alive
        sim.stages.tracers.seed(&even_points(w, h, TRACER_CAPACITY));
        sim.run_blocking(3, false);
        let live = sim.read_tracers().iter().filter(|t| t[0] >= 0.0).count();
        let mut tracers = timed(&mut sim, "tracers", 24, |sim, e| sim.encode_step(e, Figures::None, None))?;
        let ppc = SIDE as f32 / n as f32;
        let grid = SeedGrid::new(sim.nx, sim.ny, sim.params.h, smokebox::render::arrow_spacing(Overlays::default().streamline_pixels, ppc));
        let mut trace = timed(&mut sim, "streamlines", 24, |sim, e| sim.stages.streamlines.encode(&sim.queue, e, &grid))?;
        println!(
            "{n}²: {live} tracers live; tracers pass {}; streamlines trace ({} lines) {}",
            summary(&mut tracers),
            grid.lines(),
            summary(&mut trace)
        );
        let texture = smokebox::render::field_image(&sim.device, [SIDE, SIDE], wgpu::TextureUsages::TEXTURE_BINDING);
        let view = texture.create_view(&Default::default());
        for image in [true, false] {
            let mut renderer = if image { Renderer::for_image(&sim.device) } else { Renderer::new(&sim.device, HEADLESS_FORMAT) };
            renderer.attach(&sim);
            let group = image.then(|| renderer.image_group(&sim.device, &view));
            let field = Overlays::default();
            let with_tracers = Overlays { tracers: true, ..Overlays::default() };
            let with_lines = Overlays { streamlines: true, ..Overlays::default() };
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
            // in turn, so each sees the same machine
            for _ in 0..6 {
                a.extend(draw_ms(&sim, &mut renderer, group.as_ref(), &field, 4));
                b.extend(draw_ms(&sim, &mut renderer, group.as_ref(), &with_tracers, 4));
                c.extend(draw_ms(&sim, &mut renderer, group.as_ref(), &with_lines, 4));
            }
            let median = |t: &mut Vec<f64>| {
                t.sort_by(f64::total_cmp);
                t[t.len() / 2]
            };
            let field_ms = median(&mut a);
            println!(
                "    {}: the field {field_ms:.2} ms, with tracers +{:.2} ms, with streamlines +{:.2} ms",
                if image { "field image (window, page)" } else { "render pass (frames, captures)" },
                median(&mut b) - field_ms,
                median(&mut c) - field_ms,
            );
        }
    }
    Ok(())
}
