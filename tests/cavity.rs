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
    let eu = GHIA_Y.iter().zip(u_table).map(|(&y, &u)| (interp(&ys, &uc, y) - u).abs()).fold(0.0, f32::max);
    let ev = GHIA_X.iter().zip(v_table).map(|(&x, &v)| (interp(&xs, &vc, x) - v).abs()).fold(0.0, f32::max);
    (eu, ev)
}

/// The stream function at the grid nodes (ψ = 0 on the walls, u = ∂ψ/∂y): its minimum, where it
/// lies, and how many interior local minima below half that value it has (main vortices).
fn primary_vortex(f: &Fields) -> (f32, (f32, f32), usize) {
    let (nx, ny) = (f.nx, f.ny);
    let h = 1.0 / nx as f32;
    let mut psi = vec![0.0f32; (nx + 1) * (ny + 1)];
    for i in 0..=nx {
        for j in 0..ny {
            psi[(j + 1) * (nx + 1) + i] = psi[j * (nx + 1) + i] + f.u[f.ui(i, j)] * h;
        }
    }
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

#[test]
fn cavity_re100_reaches_a_steady_single_vortex_close_to_ghia() {
    // exactly what a user runs, on a 32 x 32 grid to keep the test short
    let dir = std::env::temp_dir().join(format!("smokebox-cavity-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smokebox"))
        .args(["run", "--scene", "cavity", "--steps", "1200", "--dump-every", "100", "--dump"])
        .arg(&dir)
        .args(["--set", "grid.nx=32", "--set", "grid.ny=32", "--set", "grid.cell_size=0.03125", "--set", "time.dt=0.01"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (f, steps) = load(&dir);
    let (before, _) = load(&dir.join("step_001100"));
    let change = max_diff(&f.u, &before.u).max(max_diff(&f.v, &before.v)) / 100.0;
    let (eu, ev) = ghia_errors(&f, &GHIA_U_100, &GHIA_V_100);
    let (psi, centre, vortices) = primary_vortex(&f);
    println!(
        "cavity Re=100 32x32 after {steps} steps (t = {} s): change {change:.2e}/step; max |u - Ghia| = {eu:.4}, max |v - Ghia| = {ev:.4}; psi_min {psi:.4} at {centre:?} (Ghia {GHIA_PSI_MIN_100} at {GHIA_CENTRE_100:?})",
        steps as f32 * 0.01
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(change < 2e-5, "no steady state after {steps} steps: u, v still change {change:e} per step");
    assert_eq!(vortices, 1, "expected one main vortex");
    assert!((centre.0 - GHIA_CENTRE_100.0).abs() < 0.1 && (centre.1 - GHIA_CENTRE_100.1).abs() < 0.1, "vortex centre at {centre:?}");
    assert!((psi - GHIA_PSI_MIN_100).abs() < 0.02, "psi min {psi}");
    assert!(eu < 0.05 && ev < 0.05, "centreline errors u {eu}, v {ev}");
}

/// Compares a dumped cavity state with Ghia's tables: set SMOKEBOX_CAVITY_DUMP to the dump folder
/// and SMOKEBOX_CAVITY_RE to 100 (default) or 1000, then run with --ignored --nocapture.
#[test]
#[ignore]
fn dumped_cavity_against_ghia() {
    let dir = std::env::var("SMOKEBOX_CAVITY_DUMP").expect("set SMOKEBOX_CAVITY_DUMP to a folder written by smokebox run --dump");
    let re = std::env::var("SMOKEBOX_CAVITY_RE").unwrap_or_else(|_| "100".into());
    let (f, step) = load(std::path::Path::new(&dir));
    let (eu, ev) = if re == "1000" { ghia_errors(&f, &GHIA_U_1000, &GHIA_V_1000) } else { ghia_errors(&f, &GHIA_U_100, &GHIA_V_100) };
    let (psi, centre, vortices) = primary_vortex(&f);
    println!(
        "Re={re} {}x{} step {}: max |u - Ghia| = {eu:.4}, max |v - Ghia| = {ev:.4}; psi_min {psi:.4} at {centre:?}, {vortices} main vortex",
        f.nx, f.ny, step
    );
}
