//! Fault and fuzz tests (issue 13, "Fault and fuzz tests"): mutated scene TOML, `--set` values,
//! `.npy` headers and bodies, `meta.json` and PNG masks are fed to the library's own parsers and
//! validators in-process (thousands of cases, fast), and a few dozen through the binary. Every
//! input is either accepted or refused with one line; nothing panics; no case takes memory beyond
//! what its grid needs (a counting allocator measures each case's peak); a refused run leaves no
//! dump behind. Built-in scenes with extreme settings are also stepped (issue 20, item 5): each
//! is refused when it loads, in one line, or stays finite and within the speed its inputs allow
//! for 50 steps.
//!
//! proptest (a well-kept, widely used property-testing crate) generates and shrinks the inputs:
//! a failure is reported as the smallest mutation that still fails. Seeds are fixed so CI is
//! repeatable. Longer runs: `SMOKEBOX_FUZZ_CASES=50000 cargo test --release --test fuzz -- --nocapture`
//! (cases per target; default 1000), another seed with `SMOKEBOX_FUZZ_SEED=N`.

mod common;
use common::Rng;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use smokebox::config::{BUILTIN, Scene, Source};
use smokebox::sim::params::Params;
use smokebox::state_io;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::process::Command;

// ---- memory: a per-thread count of live bytes and its peak ----

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn track(delta: isize) {
    let _ = LIVE.try_with(|l| {
        let now = l.get() + delta;
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        track(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            track(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the most bytes it had allocated at once (this thread).
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(start));
    let out = f();
    (out, (PEAK.with(|p| p.get()) - start).max(0) as usize)
}

const MB: usize = 1 << 20;

// ---- the runner ----

fn cases() -> u32 {
    std::env::var("SMOKEBOX_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000)
}

fn runner(salt: u64) -> TestRunner {
    let seed = std::env::var("SMOKEBOX_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(13);
    TestRunner::new(Config {
        cases: cases(),
        rng_seed: RngSeed::Fixed(seed ^ salt),
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    })
}

/// A refusal must be one non-empty line.
fn one_line(what: &str, e: &smokebox::Error) -> Result<(), TestCaseError> {
    let text = e.to_string();
    prop_assert!(!text.trim().is_empty() && !text.contains('\n'), "{what}: error is not one line: {text:?}");
    Ok(())
}

// ---- mutations ----

/// Tokens a hostile or careless edit might leave in a file.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "-0.0",
    "1e40",
    "-1e40",
    "1e-45",
    "nan",
    "inf",
    "-inf",
    "4294967297",
    "99999999999999999999",
    "65537",
    "1e308",
    "\"\"",
    "\"x\"",
    "[]",
    "[1]",
    "[1, 2, 3]",
    "[[1]]",
    "{}",
    "{ a = 1 }",
    "true",
    "=",
    "[",
    "]",
    "\"",
    "'",
    "#",
    "\n",
    ".",
    ",",
    "[grid]",
    "[[emitters]]",
    "nx = 0",
    "cell_size = -1",
    "kind = \"what\"",
    "\u{0}",
    "\u{feff}",
    "é",
    "100000",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete { at: prop::sample::Index, len: u8 },
    Insert { at: prop::sample::Index, token: prop::sample::Index },
    ReplaceNumber { which: prop::sample::Index, token: prop::sample::Index },
    Byte { at: prop::sample::Index, byte: u8 },
    Truncate { at: prop::sample::Index },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => (any::<prop::sample::Index>(), 1u8..40).prop_map(|(at, len)| Edit::Delete { at, len }),
        1 => (any::<prop::sample::Index>(), any::<prop::sample::Index>()).prop_map(|(at, token)| Edit::Insert { at, token }),
        3 => (any::<prop::sample::Index>(), any::<prop::sample::Index>()).prop_map(|(which, token)| Edit::ReplaceNumber { which, token }),
        1 => (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(at, byte)| Edit::Byte { at, byte }),
        1 => any::<prop::sample::Index>().prop_map(|at| Edit::Truncate { at }),
    ]
}

/// Byte ranges of the numbers in a text.
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() {
            let start = i;
            while i < text.len() && (text[i].is_ascii_digit() || text[i] == b'.' || text[i] == b'e' || text[i] == b'-') {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

fn apply(text: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut t = text.to_vec();
    for e in edits {
        let n = t.len().max(1);
        match e {
            Edit::Delete { at, len } => {
                let a = at.index(n).min(t.len());
                let b = (a + *len as usize).min(t.len());
                t.drain(a..b);
            }
            Edit::Insert { at, token } => {
                let a = at.index(n + 1).min(t.len());
                let tok = TOKENS[token.index(TOKENS.len())].as_bytes();
                t.splice(a..a, tok.iter().copied());
            }
            Edit::ReplaceNumber { which, token } => {
                let spans = numbers(&t);
                if !spans.is_empty() {
                    let (a, b) = spans[which.index(spans.len())];
                    let tok = TOKENS[token.index(TOKENS.len())].as_bytes();
                    t.splice(a..b, tok.iter().copied());
                }
            }
            Edit::Byte { at, byte } => {
                if !t.is_empty() {
                    let a = at.index(t.len());
                    t[a] = *byte;
                }
            }
            Edit::Truncate { at } => t.truncate(at.index(n)),
        }
    }
    t
}

// ---- scenes and --set ----

thread_local! {
    /// Scene cases tried, accepted (state built), accepted with a grid too large to build here.
    static SCENE_CASES: Cell<[usize; 3]> = const { Cell::new([0; 3]) };
}

fn count(k: usize) {
    SCENE_CASES.with(|c| {
        let mut n = c.get();
        n[k] += 1;
        c.set(n);
    });
}

fn scene_counts() -> [usize; 3] {
    SCENE_CASES.with(|c| c.replace([0; 3]))
}

/// The CLI's order: parse with overrides, validate, then build the initial state when the grid
/// is small enough to build here (larger grids are refused by the GPU check first in the CLI).
fn check_scene(name: &'static str, text: &str, sets: &[String]) -> Result<(), TestCaseError> {
    let source = Source::Builtin(name);
    count(0);
    let (outcome, peak) = peak_of(|| -> smokebox::Result<Option<usize>> {
        let scene = Scene::from_text(text, name, sets)?;
        scene.validate(&source)?;
        let cells = scene.grid.nx as usize * scene.grid.ny as usize;
        if cells > 256 * 256 {
            return Ok(None);
        }
        let f = smokebox::sim::init::initial_fields(&scene, &source)?;
        let p = Params::from_scene(&scene);
        let finite = f.u.iter().chain(&f.v).chain(&f.ink).chain(&f.density).all(|x| x.is_finite());
        if !finite || !p.dt.is_finite() || !p.h.is_finite() {
            return Err(smokebox::error!("accepted scene {name} gave a non-finite initial state or params"));
        }
        Ok(Some(cells))
    });
    match outcome {
        Err(e) => {
            one_line(name, &e)?;
            prop_assert!(!e.to_string().contains("non-finite initial state"), "{e}");
            prop_assert!(peak < 16 * MB, "{name}: a refused scene took {} MB", peak / MB);
        }
        Ok(Some(cells)) => {
            count(1);
            // fields (~40 B a cell) and masks (at most 2 RGBA copies of 4096²): nothing more
            let allowed = 16 * MB + 200 * cells + 2 * 4 * 4096 * 4096;
            prop_assert!(peak <= allowed, "{name}: {cells} cells took {} MB", peak / MB);
        }
        Ok(None) => {
            count(2);
            prop_assert!(peak < 16 * MB, "{name}: parsing a large-grid scene took {} MB", peak / MB);
        }
    }
    Ok(())
}

#[test]
fn mutated_scene_files_are_accepted_or_refused_in_one_line() {
    let strategy = (0..BUILTIN.len(), prop::collection::vec(edit(), 1..6));
    runner(1)
        .run(&strategy, |(k, edits)| {
            let (name, text) = BUILTIN[k];
            let mutated = String::from_utf8_lossy(&apply(text.as_bytes(), &edits)).to_string();
            check_scene(name, &mutated, &[])
        })
        .unwrap();
    let [tried, built, large] = scene_counts();
    eprintln!(
        "mutated scene files: {tried} cases (with shrinking), {built} accepted and built, {large} accepted with a grid too large to build here, the rest refused in one line"
    );
}

/// Scene keys `--set` users reach for, and some that do not exist.
const KEYS: &[&str] = &[
    "grid.nx",
    "grid.ny",
    "grid.cell_size",
    "time.dt",
    "fluid.density",
    "fluid.viscosity",
    "fluid.viscosity_iterations",
    "fluid.ink_dissipation",
    "fluid.density_drain",
    "solver.kind",
    "solver.iterations",
    "solver.tolerance",
    "solver.jacobi_weight",
    "solver.omega",
    "solver.warm_start",
    "advection.velocity",
    "advection.ink",
    "advection.density",
    "advection.freeze_velocity",
    "forces.gravity",
    "forces.vorticity",
    "boundary.left",
    "boundary.left.kind",
    "boundary.top.speed",
    "boundary.right.velocity",
    "boundary.bottom.slip",
    "display.steps_per_frame",
    "display.background",
    "emitters",
    "blobs",
    "obstacles",
    "grid",
    "nope",
    "grid.nope",
    "a.b.c.d",
    "grid.nx.x",
    "",
    ".",
    "grid.",
];

fn set_value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(TOKENS).prop_map(String::from),
        any::<i64>().prop_map(|x| x.to_string()),
        any::<f64>().prop_map(|x| format!("{x:e}")),
        prop::sample::select(&["multigrid", "jacobi", "sor", "maccormack", "bfecc", "conservative", "wall", "inflow"][..])
            .prop_map(String::from),
        "[ -~]{0,24}",
    ]
}

#[test]
fn mutated_set_values_are_accepted_or_refused_in_one_line() {
    let strategy = (0..BUILTIN.len(), prop::collection::vec((prop::sample::select(KEYS), set_value()), 1..4));
    runner(2)
        .run(&strategy, |(k, sets)| {
            let (name, text) = BUILTIN[k];
            let sets: Vec<String> = sets.iter().map(|(key, value)| format!("{key}={value}")).collect();
            check_scene(name, text, &sets)
        })
        .unwrap();
    let [tried, built, large] = scene_counts();
    eprintln!(
        "--set values: {tried} cases (with shrinking), {built} accepted and built, {large} accepted with a grid too large to build here, the rest refused in one line"
    );
}

// ---- stepping what is accepted ----

/// A setting near, at or past a limit: 1-4 of these on a built-in scene. Most are accepted, so the
/// stepping below sees the extremes the validation lets through.
fn extreme_setting(rng: &mut Rng) -> String {
    let log = |rng: &mut Rng, lo: f64, hi: f64| (lo.ln() + rng.unit() as f64 * (hi.ln() - lo.ln())).exp();
    let signed = |rng: &mut Rng, lo: f64, hi: f64| if rng.unit() < 0.5 { -log(rng, lo, hi) } else { log(rng, lo, hi) };
    let scheme = |rng: &mut Rng| ["semi-lagrangian", "maccormack", "bfecc", "conservative"][(rng.next_u64() % 4) as usize];
    match rng.next_u64() % 24 {
        0 | 1 => format!("forces.gravity=[{:e}, {:e}]", signed(rng, 1e-2, 1.5e3), signed(rng, 1e-2, 1.5e3)),
        2 => format!("forces.vorticity={:e}", log(rng, 1e-3, 1.5e3)),
        3 => format!("forces.damping={:e}", log(rng, 1e-3, 1e8)),
        4 => format!("time.dt={:e}", log(rng, 1e-5, 1e3)),
        5 => format!("fluid.density={:e}", log(rng, 1e-8, 1e8)),
        6 => format!("fluid.viscosity={:e}", log(rng, 1e-6, 1e5)),
        7 => format!("fluid.viscosity_iterations={}", rng.next_u64() % 12_000),
        8 => format!("fluid.ink_dissipation={:e}", log(rng, 1e-3, 1e8)),
        9 => format!("fluid.density_drain={:e}", log(rng, 1e-3, 1e8)),
        10 => format!("solver.kind=\"{}\"", ["jacobi", "sor", "multigrid"][(rng.next_u64() % 3) as usize]),
        11 => format!(
            "solver.iterations={}",
            [rng.next_u64() % 12_000, rng.next_u64() % 250, rng.next_u64() % 8][(rng.next_u64() % 3) as usize]
        ),
        12 => format!("solver.omega={}", 2.1 * rng.unit()),
        13 => format!("solver.jacobi_weight={}", 1.1 * rng.unit()),
        14 => format!("solver.tolerance={:e}", log(rng, 1e-9, 10.0)),
        15 => format!("advection.velocity=\"{}\"", scheme(rng)),
        16 => format!("advection.ink=\"{}\"", scheme(rng)),
        17 => format!("advection.density=\"{}\"", scheme(rng)),
        18 => format!("time.max_substeps={}", 1 + rng.next_u64() % 1200),
        19 => format!("time.max_cfl={}", 120.0 * rng.unit()),
        20 => format!("boundary.top={{kind=\"wall\", speed={:e}}}", signed(rng, 1e-2, 2e4)),
        21 => format!(
            "boundary.left={{kind=\"inflow\", velocity=[{:e}, {:e}], density={:e}}}",
            signed(rng, 1e-2, 2e4),
            signed(rng, 1e-2, 2e4),
            signed(rng, 1e-3, 2e6)
        ),
        22 => format!(
            "blobs=[{{center=[0.3, 0.3], radius={:e}, velocity=[{:e}, {:e}], density={:e}, swirl={:e}, ink=[{:e}, 0, 0]}}]",
            log(rng, 1e-3, 0.3),
            signed(rng, 1e-2, 2e4),
            signed(rng, 1e-2, 2e4),
            signed(rng, 1e-3, 2e6),
            signed(rng, 1e-2, 2e4),
            log(rng, 1e-3, 2e6)
        ),
        _ => format!(
            "emitters=[{{position=[0.3, 0.2], radius={:e}, velocity=[{:e}, {:e}], density={:e}, ink=[{:e}, 0, 0], rate={:e}}}]",
            log(rng, 1e-3, 0.3),
            signed(rng, 1e-2, 2e4),
            signed(rng, 1e-2, 2e4),
            signed(rng, 1e-3, 2e6),
            log(rng, 1e-3, 2e6),
            log(rng, 1e-3, 2e6)
        ),
    }
}

/// The same domain on at most `most` cells a side (cells stay square, so a side may come out a
/// cell short or long); the dye grid at most 2x finer.
fn capped(mut scene: Scene, most: i64) -> Scene {
    let g = &mut scene.grid;
    let side = g.nx.max(g.ny);
    if side > most {
        let width = g.nx as f64 * g.cell_size as f64;
        g.nx = (g.nx * most / side).max(2);
        g.ny = (g.ny * most / side).max(2);
        g.cell_size = (width / g.nx as f64) as f32;
    }
    if !matches!(g.dye_scale, smokebox::config::DyeScale::Scale(1 | 2)) {
        g.dye_scale = smokebox::config::DyeScale::Scale(2);
    }
    scene
}

/// The fastest flow a scene can reach in time t: the speeds it imposes (sides, emitters, blobs
/// with their swirl), plus buoyancy's |g|·max|density|/ρ for t, grown by vorticity confinement,
/// whose push ε·h·|ω| is at most 4ε times the speed (|ω| ≤ 4 max|u| / h), at e^(4εt); times 10
/// for what the projection and interpolation may add to a maximum (they bound energy, not the
/// largest face).
fn speed_bound(scene: &Scene, t: f64) -> f64 {
    let b = &scene.boundary;
    let hyp = |v: [f32; 2]| (v[0] as f64).hypot(v[1] as f64);
    let sides = [&b.left, &b.right, &b.bottom, &b.top];
    let imposed = sides
        .iter()
        .map(|s| (s.speed.abs() as f64).max(hyp(s.velocity)))
        .chain(scene.emitters.iter().map(|e| hyp(e.velocity)))
        .chain(scene.blobs.iter().map(|bl| hyp(bl.velocity) + (bl.swirl * bl.radius).abs() as f64))
        .fold(0.0, f64::max);
    let density = sides
        .iter()
        .map(|s| s.density)
        .chain(scene.emitters.iter().map(|e| e.density))
        .chain(scene.blobs.iter().map(|bl| bl.density))
        .chain(scene.layers.iter().map(|l| l.density))
        .fold(0.0f64, |m, d| m.max(d.abs() as f64));
    let buoyancy = hyp(scene.forces.gravity) * density / scene.fluid.density as f64;
    10.0 * (imposed + buoyancy * t + 1.0) * (4.0 * scene.forces.vorticity as f64 * t).exp()
}

/// What stepping a scene came to: refused when it loads (one line), or stepped (its largest speed).
enum Stepped {
    Refused(String),
    Stepped { max_speed: f64, bound: f64 },
}

/// Loads `name` with `sets` as the command line does, on at most `most` cells a side, and steps it
/// `steps` times; panics if an accepted scene goes non-finite or past `speed_bound`.
fn step_scene(gpu: &smokebox::gpu::Gpu, name: &'static str, text: &str, sets: &[String], most: i64, steps: u64) -> Stepped {
    let source = Source::Builtin(name);
    let load = || -> smokebox::Result<(Scene, smokebox::sim::Simulation)> {
        let scene = capped(Scene::from_text(text, name, sets)?, most);
        scene.validate(&source)?;
        let sim = smokebox::sim::Simulation::from_scene(gpu, &scene, &source)?;
        Ok((scene, sim))
    };
    let (scene, mut sim) = match load() {
        Ok(x) => x,
        Err(e) => {
            let text = e.to_string();
            assert!(!text.trim().is_empty() && !text.contains('\n'), "{name} {sets:?}: refusal is not one line: {text:?}");
            return Stepped::Refused(text);
        }
    };
    let t = steps as f64 * scene.time.dt as f64;
    let bound = speed_bound(&scene, t);
    let mut max_speed = 0.0f64;
    for s in sim.run_blocking(steps, true) {
        let finite = s.kinetic_energy.is_finite() && s.max_speed.is_finite() && s.ink_total.is_finite() && s.div_max_after.is_finite();
        assert!(finite, "{name} {sets:?} ({}x{}): not finite at step {}: {s:?}", scene.grid.nx, scene.grid.ny, s.step);
        max_speed = max_speed.max(s.max_speed as f64);
        assert!(
            max_speed <= bound,
            "{name} {sets:?} ({}x{}): {max_speed:.3e} m/s at step {}, past the {bound:.3e} m/s its inputs allow: {s:?}",
            scene.grid.nx,
            scene.grid.ny,
            s.step
        );
    }
    let f = sim.download();
    let finite = f.u.iter().chain(&f.v).chain(&f.p).chain(&f.ink).chain(&f.density).all(|x| x.is_finite());
    assert!(finite, "{name} {sets:?} ({}x{}): a field went non-finite in {steps} steps", scene.grid.nx, scene.grid.ny);
    Stepped::Stepped { max_speed, bound }
}

/// `cases` built-in scenes with extreme settings, each refused when it loads or stepped 50 times.
fn step_campaign(cases: u64, most: i64, seed: u64) {
    let gpu = common::gpu();
    let mut rng = Rng::new(seed);
    let (mut stepped, mut refused) = (0, 0);
    let start = std::time::Instant::now();
    for case in 0..cases {
        let (name, text) = BUILTIN[(rng.next_u64() % BUILTIN.len() as u64) as usize];
        let sets: Vec<String> = (0..1 + rng.next_u64() % 4).map(|_| extreme_setting(&mut rng)).collect();
        match step_scene(&gpu, name, text, &sets, most, 50) {
            Stepped::Refused(why) => {
                refused += 1;
                if std::env::var("SMOKEBOX_FUZZ_SHOW").is_ok() {
                    eprintln!("case {case} {name} {sets:?}: refused: {why}");
                }
            }
            Stepped::Stepped { max_speed, bound } => {
                stepped += 1;
                if std::env::var("SMOKEBOX_FUZZ_SHOW").is_ok() {
                    eprintln!("case {case} {name} {sets:?}: stepped, max speed {max_speed:.3e} (bound {bound:.3e})");
                }
            }
        }
    }
    eprintln!(
        "stepping: {cases} cases on at most {most}² cells (seed {seed}): {stepped} accepted and stepped 50 times, finite and bounded; {refused} refused in one line; {:.0} s",
        start.elapsed().as_secs_f64()
    );
}

/// Issue 20, item 5: every scene the validation accepts steps 50 times finite and bounded (CI: 32²
/// grids and `SMOKEBOX_FUZZ_STEP_CASES`, default 30).
#[test]
fn accepted_scenes_step_finite_and_bounded() {
    let cases = std::env::var("SMOKEBOX_FUZZ_STEP_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(30);
    let seed = std::env::var("SMOKEBOX_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(13);
    step_campaign(cases, 32, seed);
}

/// The full campaign: 1 000 cases on grids up to 64²
/// (`cargo test --release --test fuzz stepping_campaign -- --ignored --nocapture`).
#[test]
#[ignore]
fn stepping_campaign() {
    let cases = std::env::var("SMOKEBOX_FUZZ_STEP_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed = std::env::var("SMOKEBOX_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(99);
    step_campaign(cases, 64, seed);
}

// ---- .npy ----

#[derive(Clone, Debug)]
enum NpyFault {
    Edits(Vec<Edit>),
    Header(&'static str),
    HeaderLength(u16),
    Truncate(prop::sample::Index),
}

const NPY_HEADERS: &[&str] = &[
    "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 5), }",
    "{'descr': '>f4', 'fortran_order': False, 'shape': (4, 5), }",
    "{'descr': '<i4', 'fortran_order': False, 'shape': (4, 5), }",
    "{'descr': '<f4', 'fortran_order': True, 'shape': (4, 5), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 5), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (-4, 5), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (4, -5), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (20,), }",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 4), }",
    "{'descr': '<f4', 'fortran_order': False}",
    "{'shape': (4, 5)}",
    "{'descr'",
    "",
];

fn npy_fault() -> impl Strategy<Value = NpyFault> {
    prop_oneof![
        prop::collection::vec(edit(), 1..4).prop_map(NpyFault::Edits),
        prop::sample::select(NPY_HEADERS).prop_map(NpyFault::Header),
        any::<u16>().prop_map(NpyFault::HeaderLength),
        any::<prop::sample::Index>().prop_map(NpyFault::Truncate),
    ]
}

fn npy_with_header(header: &str, body: &[f32]) -> Vec<u8> {
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for x in body {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

#[test]
fn mutated_npy_files_are_read_whole_or_refused_in_one_line() {
    let shape = [4usize, 5];
    let body: Vec<f32> = (0..20).map(|x| x as f32 * 0.25).collect();
    let good = state_io::npy_bytes(&shape, &body);
    assert_eq!(state_io::npy_parse("good.npy", &good, &shape).unwrap(), body);
    runner(3)
        .run(&npy_fault(), |fault| {
            let bytes = match &fault {
                NpyFault::Edits(edits) => apply(&good, edits),
                NpyFault::Header(h) => npy_with_header(h, &body),
                NpyFault::HeaderLength(n) => {
                    let mut b = good.clone();
                    b[8..10].copy_from_slice(&n.to_le_bytes());
                    b
                }
                NpyFault::Truncate(at) => good[..at.index(good.len())].to_vec(),
            };
            let (result, peak) = peak_of(|| state_io::npy_parse("x.npy", &bytes, &shape));
            match result {
                Ok(values) => prop_assert_eq!(values.len(), 20, "accepted with the wrong count"),
                Err(e) => one_line("npy", &e)?,
            }
            prop_assert!(peak <= 4 * bytes.len() + MB, "npy parse of {} bytes took {} bytes", bytes.len(), peak);
            Ok(())
        })
        .unwrap();
}

// ---- meta.json ----

#[test]
fn mutated_meta_json_is_accepted_or_refused_in_one_line() {
    let good = r#"{ "nx": 32, "ny": 24, "cell_size": 0.03125, "step": 10, "time": 0.2, "dt": 0.02, "scene": "drops", "overrides": ["grid.nx=32"] }"#;
    assert!(state_io::parse_meta("meta.json", good).is_ok());
    runner(4)
        .run(&prop::collection::vec(edit(), 1..6), |edits| {
            let text = String::from_utf8_lossy(&apply(good.as_bytes(), &edits)).to_string();
            let (result, peak) = peak_of(|| state_io::parse_meta("meta.json", &text));
            match result {
                Ok(m) => {
                    // an accepted state must be one the loader can allocate without surprise
                    prop_assert!(m.nx >= 2 && m.ny >= 2 && m.nx <= state_io::MAX_SIDE && m.ny <= state_io::MAX_SIDE);
                    prop_assert!(m.cell_size > 0.0 && m.dt > 0.0 && m.time.is_finite());
                }
                Err(e) => one_line("meta.json", &e)?,
            }
            prop_assert!(peak < MB, "meta.json parse took {peak} bytes");
            Ok(())
        })
        .unwrap();
}

// ---- PNG masks ----

fn png(w: u32, h: u32) -> Vec<u8> {
    let img =
        image::RgbaImage::from_fn(w, h, |x, y| image::Rgba([(x * 16) as u8, (y * 16) as u8, 0, if (x + y) % 3 == 0 { 0 } else { 255 }]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A PNG whose header declares `w` × `h` (CRC fixed, so only the size is a lie).
fn png_declaring(w: u32, h: u32) -> Vec<u8> {
    let mut b = png(16, 16);
    // signature (8), IHDR length (4), "IHDR" (4), width, height, ...; CRC over type + data (17 bytes)
    b[16..20].copy_from_slice(&w.to_be_bytes());
    b[20..24].copy_from_slice(&h.to_be_bytes());
    let crc = crc32(&b[12..29]);
    b[29..33].copy_from_slice(&crc.to_be_bytes());
    b
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &x in data {
        c ^= x as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

#[test]
fn a_mask_declaring_100000_squared_pixels_is_refused_from_its_header() {
    let bytes = png_declaring(100_000, 100_000);
    let (result, peak) = peak_of(|| smokebox::config::mask::decode(&bytes, "huge.png", "obstacles[0]"));
    let e = result.err().expect("a 100000 x 100000 mask was accepted");
    assert!(e.to_string().contains("too large"), "{e}");
    assert!(peak < MB, "refusing it took {peak} bytes");
}

#[test]
fn mutated_png_masks_are_decoded_or_refused_in_one_line() {
    let good = png(16, 16);
    assert!(smokebox::config::mask::decode(&good, "good.png", "obstacles[0]").is_ok());
    let strategy = prop_oneof![
        prop::collection::vec(edit(), 1..4).prop_map(|e| (e, 0u32, 0u32)),
        (1u32..200_000, 1u32..200_000).prop_map(|(w, h)| (Vec::new(), w, h)),
    ];
    runner(5)
        .run(&strategy, |(edits, w, h)| {
            let bytes = if edits.is_empty() { png_declaring(w, h) } else { apply(&good, &edits) };
            let (result, peak) = peak_of(|| smokebox::config::mask::decode(&bytes, "m.png", "obstacles[0]"));
            if let Err(e) = &result {
                one_line("png", e)?;
            }
            // at most the decoded picture and one RGBA copy of the largest allowed mask
            let allowed = 2 * 4 * 4096 * 4096 + MB;
            prop_assert!(peak <= allowed, "mask decode took {} MB", peak / MB);
            Ok(())
        })
        .unwrap();
}

// ---- through the binary ----

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("smokebox-fuzz-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary; asserts exit 0 or 2, at most one line of its own on stderr, no panic, and a
/// dump only after success. Returns the exit status.
fn run_binary(args: &[&str], dump: &std::path::Path) -> i32 {
    let out = Command::new(env!("CARGO_BIN_EXE_smokebox")).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let code = out.status.code().unwrap_or(-1);
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{args:?} panicked: {err}");
    assert!(code == 0 || code == 2, "{args:?}: exit {code}: {err}");
    if code == 2 {
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 1, "{args:?}: expected one line, got {lines:?}");
        assert!(!dump.exists(), "{args:?} failed but left a dump at {}", dump.display());
        if std::env::var_os("SMOKEBOX_FUZZ_SHOW").is_some() {
            eprintln!("refused: {}", lines[0]);
        }
    }
    code
}

#[test]
fn the_binary_refuses_mutated_scenes_states_and_masks_in_one_line() {
    let dir = tmp("binary");
    let mut rng = Rng::new(13);
    let (mut refused, mut ran, mut skipped) = (0, 0, 0);
    // scene files with numbers swapped for other numbers (so that some still run; those that parse
    // to a grid too large to run here are skipped)
    const NUMBERS: &[&str] = &["-1", "0", "-0.0", "1e40", "nan", "inf", "65537", "100000", "0.5", "3", "1e-45", "2", "40", "1e-3"];
    for case in 0..24 {
        let (name, text) = BUILTIN[case % BUILTIN.len()];
        let mut t = text.as_bytes().to_vec();
        let spans = numbers(&t);
        for _ in 0..2 {
            let (a, b) = spans[(rng.next_u64() as usize) % spans.len()];
            let tok = NUMBERS[(rng.next_u64() as usize) % NUMBERS.len()];
            if b <= t.len() {
                t.splice(a..b, tok.bytes());
            }
        }
        let text = String::from_utf8_lossy(&t).to_string();
        if let Ok(s) = Scene::from_text(&text, name, &[])
            && s.grid.nx * s.grid.ny > 128 * 128
        {
            skipped += 1;
            continue;
        }
        let path = dir.join(format!("{name}-{case}.toml"));
        std::fs::write(&path, &text).unwrap();
        let dump = dir.join(format!("dump-{case}"));
        match run_binary(&["run", "--scene", path.to_str().unwrap(), "--steps", "1", "--dump", dump.to_str().unwrap()], &dump) {
            2 => refused += 1,
            _ => ran += 1,
        }
    }
    // a good state, then its files broken one at a time
    let good = dir.join("good");
    let args = ["run", "--scene", "drops", "--steps", "1", "--set", "grid.nx=16", "--set", "grid.ny=16", "--dump", good.to_str().unwrap()];
    assert_eq!(run_binary(&args, &good), 0);
    let breakages: Vec<(&str, Vec<u8>)> = vec![
        (
            "meta.json",
            br#"{"nx": 4294967296, "ny": 4294967296, "cell_size": 0.1, "step": 0, "time": 0, "dt": 0.01, "scene": "drops"}"#.to_vec(),
        ),
        ("meta.json", br#"{"nx": -3, "ny": 16, "cell_size": 0.1, "step": 0, "time": 0, "dt": 0.01, "scene": "drops"}"#.to_vec()),
        ("meta.json", br#"{"nx": 16, "ny": 16, "cell_size": 0.1, "step": 0, "time": 0, "dt": 0.01, "scene": "drops""#.to_vec()),
        ("meta.json", br#"{"nx": 16, "ny": 16, "cell_size": -0.1, "step": 0, "time": 0, "dt": 0.01, "scene": "drops"}"#.to_vec()),
        ("u.npy", npy_with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (16, 17), }", &[0.0; 272])),
        ("u.npy", npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", &[])),
        ("v.npy", npy_with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (17, 16), }", &[0.0; 272])),
        ("ink.npy", b"\x93NUMPY\x01\x00\xff\xff{'descr'".to_vec()),
        ("solid.npy", Vec::new()),
    ];
    // a u.npy of 8 GB (sparse on disk): refused without reading it all
    let huge = dir.join("huge");
    std::fs::create_dir_all(&huge).unwrap();
    for entry in std::fs::read_dir(&good).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), huge.join(entry.file_name())).unwrap();
    }
    std::fs::OpenOptions::new().write(true).open(huge.join("u.npy")).unwrap().set_len(8 << 30).unwrap();
    let dump = dir.join("after-huge");
    let started = std::time::Instant::now();
    assert_eq!(run_binary(&["run", "--load", huge.to_str().unwrap(), "--steps", "1", "--dump", dump.to_str().unwrap()], &dump), 2);
    assert!(started.elapsed().as_secs() < 20, "refusing an 8 GB u.npy took {:?}", started.elapsed());
    refused += 1;
    for (k, (file, bytes)) in breakages.iter().enumerate() {
        let broken = dir.join(format!("broken-{k}"));
        std::fs::create_dir_all(&broken).unwrap();
        for entry in std::fs::read_dir(&good).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), broken.join(entry.file_name())).unwrap();
        }
        std::fs::write(broken.join(file), bytes).unwrap();
        let dump = dir.join(format!("after-{k}"));
        let code = run_binary(&["run", "--load", broken.to_str().unwrap(), "--steps", "1", "--dump", dump.to_str().unwrap()], &dump);
        assert_eq!(code, 2, "a broken {file} was accepted");
        refused += 1;
    }
    // masks: corrupt and declaring 100000 x 100000
    for (k, bytes) in
        [png_declaring(100_000, 100_000), b"\x89PNG\r\n\x1a\nnot really".to_vec(), png(16, 16)[..40].to_vec()].iter().enumerate()
    {
        let mask = dir.join(format!("mask-{k}.png"));
        std::fs::write(&mask, bytes).unwrap();
        let scene = dir.join(format!("masked-{k}.toml"));
        let text = BUILTIN.iter().find(|(n, _)| *n == "logo").unwrap().1.replace("logo.png", mask.to_str().unwrap());
        std::fs::write(&scene, text).unwrap();
        let dump = dir.join(format!("masked-dump-{k}"));
        let code = run_binary(&["run", "--scene", scene.to_str().unwrap(), "--steps", "1", "--dump", dump.to_str().unwrap()], &dump);
        assert_eq!(code, 2, "mask {k} was accepted");
        refused += 1;
    }
    eprintln!("through the binary: {refused} refused in one line, {ran} mutated scenes ran, {skipped} skipped (grid > 128²)");
    let _ = std::fs::remove_dir_all(&dir);
}
