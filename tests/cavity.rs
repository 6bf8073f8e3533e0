//! The lid-driven cavity against Ghia, Ghia & Shin (1982), "High-Re solutions for incompressible
//! flow using the Navier-Stokes equations and a multigrid method", J. Comput. Phys. 48, 387-411,
//! tables I and II: u along the vertical centreline and v along the horizontal centreline.

mod common;
use common::*;
use smokebox::sim::fields::Fields;

/// y of the points on the vertical centreline x = 0.5 (table I).
const GHIA_Y: [f32; 17] =
    [1.0, 0.9766, 0.9688, 0.9609, 0.9531, 0.8516, 0.7344, 0.6172, 0.5, 0.4531, 0.2813, 0.1719, 0.1016, 0.0703, 0.0625, 0.0547, 0.0];
/// x of the points on the horizontal centreline y = 0.5 (table II).
const GHIA_X: [f32; 17] =
    [1.0, 0.9688, 0.9609, 0.9531, 0.9453, 0.9063, 0.8594, 0.8047, 0.5, 0.2344, 0.2266, 0.1563, 0.0938, 0.0781, 0.0703, 0.0625, 0.0];
const GHIA_U_100: [f32; 17] = [
    1.0, 0.84123, 0.78871, 0.73722, 0.68717, 0.23151, 0.00332, -0.13641, -0.20581, -0.21090, -0.15662, -0.10150, -0.06434, -0.04775,
    -0.04192, -0.03717, 0.0,
];
const GHIA_V_100: [f32; 17] = [
    0.0, -0.05906, -0.07391, -0.08864, -0.10313, -0.16914, -0.22445, -0.24533, 0.05454, 0.17527, 0.17507, 0.16077, 0.12317, 0.10890,
    0.10091, 0.09233, 0.0,
];
const GHIA_U_1000: [f32; 17] = [
    1.0, 0.65928, 0.57492, 0.51117, 0.46604, 0.33304, 0.18719, 0.05702, -0.06080, -0.10648, -0.27805, -0.38289, -0.29730, -0.22220,
    -0.20196, -0.18109, 0.0,
];
const GHIA_V_1000: [f32; 17] = [
    0.0, -0.21388, -0.27669, -0.33714, -0.39188, -0.51550, -0.42665, -0.31966, 0.02526, 0.32235, 0.33075, 0.37095, 0.32627, 0.30353,
    0.29012, 0.27485, 0.0,
];
/// Primary vortex at Re = 100: stream function minimum and its position (table III).
const GHIA_PSI_MIN_100: f32 = -0.103423;
const GHIA_CENTRE_100: (f32, f32) = (0.6172, 0.7344);
/// Primary vortex at Re = 1000 (table III).
const GHIA_PSI_MIN_1000: f32 = -0.118094;
const GHIA_CENTRE_1000: (f32, f32) = (0.5313, 0.5625);

/// Piecewise-linear interpolation of samples (xs ascending) at x.
fn interp(xs: &[f32], ys: &[f32], x: f32) -> f32 {
    let k = xs.partition_point(|&a| a < x).clamp(1, xs.len() - 1);
    let t = (x - xs[k - 1]) / (xs[k] - xs[k - 1]);
    ys[k - 1] + t * (ys[k] - ys[k - 1])
}

/// Max |error| of u on x = 1/2 and of v on y = 1/2 against the tables, for a unit cavity with a
/// lid speed of 1 (an even number of cells a side, so both centrelines lie on faces).
fn ghia_errors(f: &Fields, u_table: &[f32; 17], v_table: &[f32; 17]) -> (f32, f32) {
    let (nx, ny) = (f.nx, f.ny);
    let h = 1.0 / nx as f32;
    let mut ys = vec![0.0];
    let mut uc = vec![0.0];
    for j in 0..ny {
        ys.push((j as f32 + 0.5) * h);
        uc.push(f.u[f.ui(nx / 2, j)]);
    }
    ys.push(1.0);
    uc.push(1.0);
    let mut xs = vec![0.0];
    let mut vc = vec![0.0];
    for i in 0..nx {
        xs.push((i as f32 + 0.5) * h);
        vc.push(f.v[f.vi(i, ny / 2)]);
    }
    xs.push(1.0);
    vc.push(0.0);
    if std::env::var_os("SMOKEBOX_CAVITY_PROFILES").is_some() {
        for ((&y, &u), (&x, &v)) in GHIA_Y.iter().zip(u_table).zip(GHIA_X.iter().zip(v_table)) {
            println!("y {y:.4}: u {:+.4} Ghia {u:+.4} | x {x:.4}: v {:+.4} Ghia {v:+.4}", interp(&ys, &uc, y), interp(&xs, &vc, x));
        }
    }
    let eu = GHIA_Y.iter().zip(u_table).map(|(&y, &u)| (interp(&ys, &uc, y) - u).abs()).fold(0.0, f32::max);
    let ev = GHIA_X.iter().zip(v_table).map(|(&x, &v)| (interp(&xs, &vc, x) - v).abs()).fold(0.0, f32::max);
    (eu, ev)
}

/// The stream function at the grid nodes (ψ = 0 on the walls, u = ∂ψ/∂y): its minimum, where it
/// lies, and how many interior local minima below half that value it has (main vortices).
fn primary_vortex(f: &Fields) -> (f32, (f32, f32), usize) {
    let (nx, ny) = (f.nx, f.ny);
    let h = 1.0 / nx as f32;
    let psi = stream_function(f);
    let at = |i: usize, j: usize| psi[j * (nx + 1) + i];
    let (mut best, mut pos) = (0.0f32, (0.0, 0.0));
    for j in 0..=ny {
        for i in 0..=nx {
            if at(i, j) < best {
                best = at(i, j);
                pos = (i as f32 * h, j as f32 * h);
            }
        }
    }
    let mut minima = 0;
    for j in 1..ny {
        for i in 1..nx {
            let c = at(i, j);
            let lowest = [(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)].iter().all(|&(a, b)| at(a, b) > c);
            if lowest && c < 0.5 * best {
                minima += 1;
            }
        }
    }
    (best, pos, minima)
}

/// Reads a state folder written by `smokebox run --dump`.
fn load(dir: &std::path::Path) -> (Fields, u64) {
    let meta = smokebox::state_io::load_meta(dir).unwrap();
    (smokebox::state_io::load_fields(dir, &meta).unwrap(), meta.step)
}

/// Ghia's table for a Reynolds number: u on x = 1/2, v on y = 1/2, ψ_min and where it lies.
struct Reference {
    re: u32,
    u: &'static [f32; 17],
    v: &'static [f32; 17],
    psi_min: f32,
    centre: (f32, f32),
}

const RE_100: Reference = Reference { re: 100, u: &GHIA_U_100, v: &GHIA_V_100, psi_min: GHIA_PSI_MIN_100, centre: GHIA_CENTRE_100 };
const RE_1000: Reference = Reference { re: 1000, u: &GHIA_U_1000, v: &GHIA_V_1000, psi_min: GHIA_PSI_MIN_1000, centre: GHIA_CENTRE_1000 };

/// What one run of the cavity scene reached, compared with a reference.
struct Outcome {
    /// Largest change of u or v per step over the last `every` steps.
    change: f32,
    eu: f32,
    ev: f32,
    psi: f32,
    centre: (f32, f32),
    vortices: usize,
}

/// Runs `smokebox run --scene cavity` exactly as a user would, with `sets` overriding scene keys,
/// dumping every `every` steps; compares the last state with `r` and prints what it found.
fn run_cavity(r: &Reference, sets: &[&str], steps: u64, every: u64) -> Outcome {
    let dir = std::env::temp_dir().join(format!("smokebox-cavity-{}-{}", r.re, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_smokebox"));
    cmd.args(["run", "--scene", "cavity", "--steps", &steps.to_string(), "--dump-every", &every.to_string(), "--dump"]).arg(&dir);
    for set in sets {
        cmd.args(["--set", set]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (f, last) = load(&dir);
    let (before, _) = load(&dir.join(format!("step_{:06}", steps - every)));
    let _ = std::fs::remove_dir_all(&dir);
    let change = max_diff(&f.u, &before.u).max(max_diff(&f.v, &before.v)) / every as f32;
    let (eu, ev) = ghia_errors(&f, r.u, r.v);
    let (psi, centre, vortices) = primary_vortex(&f);
    println!(
        "cavity Re={} {}x{} after {last} steps ({sets:?}): change {change:.2e}/step; max |u - Ghia| = {eu:.4}, max |v - Ghia| = {ev:.4}; psi_min {psi:.4} at {centre:?} (Ghia {} at {:?})",
        r.re, f.nx, f.ny, r.psi_min, r.centre
    );
    Outcome { change, eu, ev, psi, centre, vortices }
}

/// The checks every cavity run must pass, with the tolerances for its grid.
fn assert_matches(r: &Reference, o: &Outcome, steady: f32, centreline: f32, psi: f32, centre: f32) {
    assert!(o.change < steady, "Re={}: no steady state: u, v still change {:e} per step", r.re, o.change);
    assert_eq!(o.vortices, 1, "Re={}: expected one main vortex", r.re);
    assert!(
        (o.centre.0 - r.centre.0).abs() < centre && (o.centre.1 - r.centre.1).abs() < centre,
        "Re={}: vortex centre at {:?}, Ghia {:?}",
        r.re,
        o.centre,
        r.centre
    );
    assert!((o.psi - r.psi_min).abs() < psi, "Re={}: psi min {}, Ghia {}", r.re, o.psi, r.psi_min);
    assert!(o.eu < centreline && o.ev < centreline, "Re={}: centreline errors u {}, v {}", r.re, o.eu, o.ev);
}

#[test]
fn cavity_re100_reaches_a_steady_single_vortex_close_to_ghia() {
    // the scene as shipped, on a 32 x 32 grid to keep the test short (64 x 64 gives 0.003 / 0.007)
    let sets = ["grid.nx=32", "grid.ny=32", "grid.cell_size=0.03125", "time.dt=0.01"];
    let o = run_cavity(&RE_100, &sets, 1200, 100);
    assert_matches(&RE_100, &o, 2e-5, 0.02, 0.01, 0.05);
}

#[test]
fn cavity_re1000_reaches_a_steady_single_vortex_close_to_ghia() {
    // Re = 1000 as the scene file says, on its own 64 x 64 grid with a larger dt to keep the test
    // to a minute; the error halves and more on 128 x 128 (the ignored test below).
    let o = run_cavity(&RE_1000, &["fluid.viscosity=0.001", "time.dt=0.01"], 4000, 100);
    assert_matches(&RE_1000, &o, 2e-5, 0.06, 0.02, 0.05);
}

/// The command in assets/scenes/cavity.toml, on 128 x 128 for 80 s of flow (about ten minutes on a
/// 2-core machine with lavapipe): run with --ignored --nocapture.
#[test]
#[ignore]
fn cavity_re1000_on_128_cells_matches_ghia() {
    let sets = ["fluid.viscosity=0.001", "grid.nx=128", "grid.ny=128", "grid.cell_size=0.0078125"];
    let o = run_cavity(&RE_1000, &sets, 16000, 500);
    assert_matches(&RE_1000, &o, 1e-5, 0.02, 0.01, 0.02);
}

/// Compares a dumped cavity state with Ghia's tables: set SMOKEBOX_CAVITY_DUMP to the dump folder
/// and SMOKEBOX_CAVITY_RE to 100 (default) or 1000, then run with --ignored --nocapture
/// (SMOKEBOX_CAVITY_PROFILES=1 also prints both centreline profiles beside the tables).
#[test]
#[ignore]
fn dumped_cavity_against_ghia() {
    let dir = std::env::var("SMOKEBOX_CAVITY_DUMP").expect("set SMOKEBOX_CAVITY_DUMP to a folder written by smokebox run --dump");
    let r = if std::env::var("SMOKEBOX_CAVITY_RE").is_ok_and(|re| re == "1000") { RE_1000 } else { RE_100 };
    let (f, step) = load(std::path::Path::new(&dir));
    let (eu, ev) = ghia_errors(&f, r.u, r.v);
    let (psi, centre, vortices) = primary_vortex(&f);
    println!(
        "Re={} {}x{} step {}: max |u - Ghia| = {eu:.4}, max |v - Ghia| = {ev:.4}; psi_min {psi:.4} at {centre:?} (Ghia {} at {:?}), {vortices} main vortex",
        r.re, f.nx, f.ny, step, r.psi_min, r.centre
    );
}
