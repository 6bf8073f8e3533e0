//! The command line (DESIGN.md §4): `smokebox` opens the window; `smokebox run` steps a scene
//! headless with stats, dumps and frames; `smokebox scenes` lists the built-ins.

use crate::config::{BUILTIN, Scene, Source};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::render;
use crate::sim::Simulation;
use crate::sim::params::Params;
use crate::state_io::{self, Meta};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(name = "smokebox", version, about = "An interactive smoke sandbox on a MAC grid, in WGSL compute shaders")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Scene to open: a built-in name (see `smokebox scenes`) or a .toml path.
    #[arg(long, global = false)]
    pub scene: Option<String>,
    /// Override a scene key by dotted path, e.g. --set fluid.viscosity=0.01 (a TOML value).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Open the window on a state folder written by `run --dump` or the app's Save state.
    #[arg(long, value_name = "DIR")]
    pub load: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a scene without a window.
    Run(RunArgs),
    /// List the built-in scenes.
    Scenes,
    /// Time each pressure solver at several grid sizes; prints a table and writes JSON.
    Bench(crate::bench::BenchArgs),
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// A built-in scene name or a .toml path (default: the scene in --load's meta.json, else `drops`).
    #[arg(long)]
    pub scene: Option<String>,
    /// Steps to run.
    #[arg(long)]
    pub steps: u64,
    /// Override a scene key by dotted path (a TOML value; a bare word is a string).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Continue from a state folder written by --dump.
    #[arg(long, value_name = "DIR")]
    pub load: Option<PathBuf>,
    /// Write the final state here.
    #[arg(long, value_name = "DIR")]
    pub dump: Option<PathBuf>,
    /// With --dump: also write DIR/step_NNNNNN/ every K steps.
    #[arg(long, value_name = "K")]
    pub dump_every: Option<u64>,
    /// Write PNG renders of the ink here.
    #[arg(long, value_name = "DIR")]
    pub frames: Option<PathBuf>,
    /// With --frames: one frame every K steps (default 1).
    #[arg(long, value_name = "K")]
    pub frame_every: Option<u64>,
    /// With --frames: the image size in pixels, e.g. 1024x768 (the grid is fitted, aspect kept;
    /// default one pixel a cell).
    #[arg(long, value_name = "WxH")]
    pub frame_size: Option<String>,
    /// With --frames: what to draw, comma-separated from ink, divergence, divergence-after,
    /// pressure, curl, arrows, mac-arrows, grid, shading, tracers (the domain filled with them
    /// at the start), streamlines (default ink).
    #[arg(long, value_name = "LIST")]
    pub overlays: Option<String>,
    /// Print one JSON object of statistics per step.
    #[arg(long)]
    pub stats: bool,
    /// Sample u, v, p, div and ink at X,Y every step (metres, DESIGN.md §1: x from the left side,
    /// y up from the bottom); repeatable, at most 8. The values go in the --stats lines (`probes`).
    #[arg(long = "probe", value_name = "X,Y")]
    pub probe: Vec<String>,
    /// With --probe: write the probes' values here as CSV, one row a step.
    #[arg(long, value_name = "FILE")]
    pub probe_csv: Option<PathBuf>,
}

pub fn main(cli: Cli) -> Result<()> {
    // a device profile that cannot be read is refused before anything runs
    if let Some(Err(e)) = crate::sim::kernel::profile_from_env() {
        return Err(crate::error::Error(e));
    }
    match cli.command {
        Some(Command::Run(args)) => run(&args),
        Some(Command::Bench(args)) => crate::bench::bench(&args),
        Some(Command::Scenes) => {
            for (name, text) in BUILTIN {
                let scene = Scene::from_text(text, name, &[])?;
                if crate::output::line(&format!("{name:<16} {}", scene.description)).is_err() {
                    break; // the reader has gone: nothing left to say
                }
            }
            Ok(())
        }
        None => crate::app::run(cli.scene.as_deref(), &cli.set, cli.load.as_deref()),
    }
}

/// The first line of a clap error, with what it lists below it: "the following required
/// arguments were not provided:" is followed by the flags on lines of their own, which the line
/// must name (`--steps <STEPS>`).
pub fn one_line(text: &str) -> String {
    let mut lines = text.lines();
    let mut out = lines.next().unwrap_or("bad arguments").trim_start_matches("error: ").trim_end().to_string();
    if out.ends_with(':') {
        let listed: Vec<&str> = lines.take_while(|l| l.starts_with(' ') && !l.trim().is_empty()).map(str::trim).collect();
        if !listed.is_empty() {
            out = format!("{} {}", out, listed.join(", "));
        }
    }
    out
}

/// Loads the scene and initial state of a headless run.
pub fn prepare(args: &RunArgs, limits: &wgpu::Limits) -> Result<(Scene, Source, crate::sim::fields::Fields, Option<Meta>)> {
    let meta = match &args.load {
        Some(dir) => Some(state_io::load_meta(dir)?),
        None => None,
    };
    let scene_name = args.scene.clone().or_else(|| meta.as_ref().map(|m| m.scene.clone())).unwrap_or_else(|| "drops".into());
    // "same scene, same settings": a continued run reuses the dump's overrides unless given new ones
    let overrides = match (&meta, args.set.is_empty()) {
        (Some(m), true) => m.overrides.clone(),
        _ => args.set.clone(),
    };
    let (mut scene, source) = Scene::load(&scene_name, &overrides)?;
    if args.frames.is_none() && scene.grid.dye_scale == crate::config::DyeScale::default() {
        // "auto" sizes the dye for a display; a run that draws nothing keeps it on the flow grid
        // (validation runs would otherwise carry 64x the dye cells for no picture)
        scene.grid.dye_scale = crate::config::DyeScale::Scale(1);
    }
    if let Some(m) = &meta {
        // the state defines the grid
        scene.grid.nx = m.nx as i64;
        scene.grid.ny = m.ny as i64;
        scene.grid.cell_size = m.cell_size;
        scene.grid.dye_scale = crate::config::DyeScale::Scale(m.dye_scale as i64);
    }
    crate::sim::check_dye_fits(limits, scene.grid.nx as usize, scene.grid.ny as usize, scene.dye_scale())?;
    let fields = match (&args.load, &meta) {
        (Some(dir), Some(m)) => state_io::load_fields(dir, m)?,
        _ => crate::sim::init::initial_fields(&scene, &source)?,
    };
    Ok((scene, source, fields, meta))
}

pub fn run(args: &RunArgs) -> Result<()> {
    if args.dump_every.is_some() && args.dump.is_none() {
        crate::fail!("--dump-every needs --dump DIR");
    }
    if args.dump_every == Some(0) || args.frame_every == Some(0) {
        crate::fail!("--dump-every and --frame-every take a whole number of at least 1");
    }
    if args.frames.is_none() && (args.frame_size.is_some() || args.overlays.is_some() || args.frame_every.is_some()) {
        crate::fail!("--frame-size, --overlays and --frame-every need --frames DIR");
    }
    let frame_size = args.frame_size.as_deref().map(parse_size).transpose()?;
    let probes = args.probe.iter().map(|p| parse_point(p)).collect::<Result<Vec<_>>>()?;
    if args.probe_csv.is_some() && probes.is_empty() {
        crate::fail!("--probe-csv needs at least one --probe X,Y");
    }
    if !probes.is_empty() && !args.stats && args.probe_csv.is_none() {
        crate::fail!("--probe needs --stats or --probe-csv FILE to write its values");
    }
    let overlays = match &args.overlays {
        Some(list) => render::Overlays::from_names(list)?,
        None => render::Overlays { grid_lines: false, numbers: false, ..Default::default() },
    };
    let gpu = Gpu::headless()?;
    let (scene, source, fields, meta) = prepare(args, &gpu.device.limits())?;
    let mut sim = Simulation::new(&gpu, &fields, Params::from_scene(&scene), scene.solver.clone())?;
    sim.configure(&scene)?;
    sim.set_probes(&probes)?;
    if overlays.tracers {
        // the frames' tracers: the domain filled evenly, and more at the inflows
        sim.stages.tracers.fill(&sim.params);
        sim.stages.tracers.inflow = overlays.tracer_inflow;
    }
    if let Some(m) = &meta {
        sim.step_index = m.step;
        sim.time = m.time;
        sim.resume_solver_units(m.solver_units, m.solver_peak);
    }
    let overrides = match (&meta, args.set.is_empty()) {
        (Some(m), true) => m.overrides.clone(),
        _ => args.set.clone(),
    };
    let meta_now = |sim: &Simulation| Meta {
        nx: sim.nx,
        ny: sim.ny,
        cell_size: scene.grid.cell_size,
        step: sim.step_index,
        time: sim.time,
        dt: scene.time.dt,
        scene: source.label(),
        dye_scale: sim.dye_scale,
        overrides: overrides.clone(),
        solver_units: sim.solver_units(),
        solver_peak: sim.solver_peak(),
    };
    // a run whose stats nobody reads any more and that writes nothing else ends quietly
    let mut stats_open = args.stats;
    let other_outputs = args.dump.is_some() || args.frames.is_some();
    let frame_every = args.frame_every.unwrap_or(1);
    if let Some(dir) = &args.frames {
        std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
    }
    let mut csv = match &args.probe_csv {
        Some(path) => Some(ProbeCsv::create(path, probes.len())?),
        None => None,
    };
    let mut lifts = crate::sim::body_loads::LiftHistory::default();
    for _ in 0..args.steps {
        let t0 = Instant::now();
        let stats = sim.run_blocking(1, stats_open || csv.is_some());
        if let Some(w) = sim.take_warning() {
            eprintln!("smokebox: warning: {w}");
        }
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        if let (Some(s), Some(csv)) = (stats.last(), &mut csv) {
            csv.row(s)?;
        }
        if let Some(s) = stats.last().filter(|_| stats_open) {
            let mut line = serde_json::to_value(s).expect("stats serialise");
            line["ms"] = serde_json::json!(ms);
            let bodies = &sim.stages.body_loads.bodies;
            if !bodies.bodies.is_empty() {
                line["bodies"] = serde_json::json!(lifts.report(bodies, &sim.params, s.time, &s.bodies));
            }
            if !probes.is_empty() {
                line["probes"] = probe_values(&probes, s);
            }
            if crate::output::line(&line.to_string()).is_err() {
                if !other_outputs {
                    return Ok(());
                }
                stats_open = false;
            }
        }
        if let (Some(dir), Some(k)) = (&args.dump, args.dump_every)
            && sim.step_index % k == 0
        {
            state_io::dump(&dir.join(format!("step_{:06}", sim.step_index)), &sim.download(), &meta_now(&sim))?;
        }
        if let Some(dir) = &args.frames
            && sim.step_index % frame_every == 0
        {
            let size = frame_size.unwrap_or((sim.nx as u32, sim.ny as u32));
            write_frame(&dir.join(format!("frame_{:06}.png", sim.step_index)), &sim, &overlays, scene.display.background, size)?;
        }
    }
    if let Some(dir) = &args.dump {
        state_io::dump(dir, &sim.download(), &meta_now(&sim))?;
    }
    Ok(())
}

/// A probe's `X,Y` in metres.
fn parse_point(text: &str) -> Result<[f32; 2]> {
    let parsed = text.split_once(',').and_then(|(x, y)| Some([x.trim().parse::<f32>().ok()?, y.trim().parse::<f32>().ok()?]));
    match parsed {
        Some(p) if p.iter().all(|c| c.is_finite()) => Ok(p),
        _ => crate::fail!("--probe {text}: expected X,Y in metres, e.g. --probe 0.5,0.25"),
    }
}

/// The probes' figures of a step, a JSON object each.
fn probe_values(points: &[[f32; 2]], s: &crate::sim::stats::StepStats) -> serde_json::Value {
    let values: Vec<serde_json::Value> = points
        .iter()
        .zip(&s.probes)
        .map(|(&[x, y], &[u, v, p, div, ink])| serde_json::json!({"x": x, "y": y, "u": u, "v": v, "p": p, "div": div, "ink": ink}))
        .collect();
    serde_json::Value::Array(values)
}

/// `--probe-csv`: a header, then a row a step of every probe's u, v, p, div, ink.
struct ProbeCsv {
    out: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
    probes: usize,
}

impl ProbeCsv {
    fn create(path: &Path, probes: usize) -> Result<ProbeCsv> {
        let file = std::fs::File::create(path).map_err(|e| crate::error!("cannot create {}: {e}", path.display()))?;
        let mut csv = ProbeCsv { out: std::io::BufWriter::new(file), path: path.to_path_buf(), probes };
        let mut header = String::from("step,time");
        for n in 1..=probes {
            for name in ["u", "v", "p", "div", "ink"] {
                header.push_str(&format!(",probe{n}_{name}"));
            }
        }
        csv.write(&header)?;
        Ok(csv)
    }

    fn row(&mut self, s: &crate::sim::stats::StepStats) -> Result<()> {
        let mut row = format!("{},{}", s.step, s.time);
        for values in &s.probes[..self.probes] {
            for x in values {
                row.push_str(&format!(",{x}"));
            }
        }
        self.write(&row)
    }

    fn write(&mut self, line: &str) -> Result<()> {
        use std::io::Write;
        writeln!(self.out, "{line}").map_err(|e| crate::error!("cannot write {}: {e}", self.path.display()))
    }
}

/// `WxH` in pixels, each from 1 to 8192.
fn parse_size(text: &str) -> Result<(u32, u32)> {
    let parsed = text.split_once(['x', 'X']).and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)));
    match parsed {
        Some((w, h)) if (1..=8192).contains(&w) && (1..=8192).contains(&h) => Ok((w, h)),
        _ => crate::fail!("--frame-size {text}: expected WIDTHxHEIGHT in pixels, each from 1 to 8192, e.g. 1024x768"),
    }
}

/// Writes `sim` drawn with `overlays` as a PNG of `size` pixels, by the app's own renderer
/// (src/render), headless. An automatic pressure (curl) range is the frame's largest |p| (|ω|).
pub fn write_frame(path: &Path, sim: &Simulation, overlays: &render::Overlays, background: [f32; 3], size: (u32, u32)) -> Result<()> {
    let mut overlays = overlays.clone();
    if overlays.pressure && overlays.pressure_auto {
        let p = crate::sim::buffers::read_buffers(&sim.device, &sim.queue, &[&sim.buffers.p]).remove(0);
        overlays.pressure_range = p.iter().fold(0.0f32, |m, x| m.max(x.abs())).max(1e-6);
    }
    if overlays.curl && overlays.curl_auto {
        let mut uv = crate::sim::buffers::read_buffers(&sim.device, &sim.queue, &[&sim.buffers.u, &sim.buffers.v]);
        let (v, u) = (uv.remove(1), uv.remove(0));
        overlays.curl_range = render::curl::max_abs_curl(&u, &v, sim.nx, sim.ny, sim.params.h);
    }
    let (w, h) = size;
    let rgba = render::render_rgba(sim, &overlays, background, w, h);
    image::save_buffer(path, &rgba, w, h, image::ExtendedColorType::Rgba8)
        .map_err(|e| crate::error!("cannot write {}: {e}", path.display()))
}
