//! Each built-in scene shows its point within the steps this 2-core machine runs in about 10 s
//! (issue 21), measured on `smokebox run --dump` at default settings, as a user would run it:
//! the cavity's main vortex has formed and wound its ink, and the Rayleigh–Taylor interface has
//! grown into fingers. Each measure is also taken at step 0, where it must not see the point yet.
//! The step counts and why they were chosen are in docs/scenes.md ("What each scene shows").

mod common;
use smokebox::sim::fields::Fields;
use std::path::PathBuf;

/// Runs a built-in scene at its defaults for `steps` and reads the state it dumped.
fn run_scene(scene: &str, steps: u64) -> Fields {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("scene_points_{scene}_{steps}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smokebox"))
        .args(["run", "--scene", scene, "--steps", &steps.to_string(), "--dump"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta = smokebox::state_io::load_meta(&dir).unwrap();
    assert_eq!(meta.step, steps);
    let fields = smokebox::state_io::load_fields(&dir, &meta).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    fields
}

/// The cavity: 400 steps (2 s of flow; a 64² step took 20 ms here under load, so 400 steps are 8 s).
/// The main vortex: the stream function's minimum (ψ from integrating u up each column) is
/// already most of Ghia's steady -0.1034, in the upper half where the steady vortex sits, and the
/// top ink stripe (0.85-0.91 m at the start) has been carried down the right wall below the
/// vortex centre, which only a turning flow does.
#[test]
fn the_cavity_shows_its_vortex_by_step_400() {
    let (least, centre, below) = cavity_vortex(&run_scene("cavity", 400));
    println!(
        "cavity at step 400: psi min {least:.4} at {centre:?} (Ghia's steady -0.1034 at (0.617, 0.734)); top stripe's ink below the centre {:.0} %",
        100.0 * below
    );
    assert!(least < -0.06, "no main vortex yet: psi min {least}");
    assert!(centre.1 > 0.5 && centre.0 > 0.4, "the vortex is not in the upper half: {centre:?}");
    assert!(below > 0.05, "the vortex has not wound the top stripe down: {below:.3} of it below the centre");
    // the stripe's measure starts at nothing: all of it lies above the centre
    let (_, _, below) = cavity_vortex(&run_scene("cavity", 0));
    assert!(below < 1e-3, "the top stripe starts below the vortex centre: {below}");
}

/// ψ's minimum and where it lies, and the share of the top (pink) stripe's ink below that height.
fn cavity_vortex(f: &Fields) -> (f32, (f32, f32), f32) {
    let (nx, ny) = (f.nx, f.ny);
    let h = 1.0 / nx as f32;
    let psi = common::stream_function(f);
    let (mut least, mut at) = (0.0f32, (0, 0));
    for j in 0..=ny {
        for i in 0..=nx {
            if psi[j * (nx + 1) + i] < least {
                (least, at) = (psi[j * (nx + 1) + i], (i, j));
            }
        }
    }
    // at step 0 ψ is 0 everywhere: the stripe's measure then takes the steady vortex's height
    let centre = if least < 0.0 { (at.0 as f32 * h, at.1 as f32 * h) } else { (0.617, 0.734) };
    // the pink stripe [1.0, 0.35, 0.6] is the only ink with both red and blue above green
    let (dx, dy) = (nx * f.dye_scale, ny * f.dye_scale);
    let pink = |c: usize| (f.ink[3 * c] - f.ink[3 * c + 1]).min(f.ink[3 * c + 2] - f.ink[3 * c + 1]).max(0.0);
    let total: f32 = (0..dx * dy).map(pink).sum();
    let below: f32 =
        (0..dy).filter(|&j| (j as f32 + 0.5) / (dy as f32) < centre.1).flat_map(|j| (0..dx).map(move |i| j * dx + i)).map(pink).sum();
    (least, centre, below / total)
}

/// Rayleigh–Taylor: 80 steps (0.8 s of flow; the window ran 138 steps of this grid in 10 s here,
/// and the last 20 steps split in two, so 80 steps are about 10 s). Per column, the interface height is where the column's
/// heavy fluid would end if it were stacked at the top (1 − Σ density·h / Δρ): it starts as the
/// 1 cm cosine; fingers are columns whose heavy fluid reaches far down and bubbles where the
/// light reaches up, so the spread of that height across columns measures them.
#[test]
fn rayleigh_taylor_grows_fingers_by_step_80() {
    let (start, _) = interface(&run_scene("rayleigh-taylor", 0));
    let (amplitude, (lo, hi)) = interface(&run_scene("rayleigh-taylor", 80));
    println!("rayleigh-taylor at step 80: interface from {lo:.3} to {hi:.3} m, amplitude {amplitude:.3} m ({start:.3} m at the start)");
    assert!((start - 0.01).abs() < 0.004, "the measure does not see the 1 cm bump at the start: {start}");
    assert!(amplitude > 0.05, "the interface has not grown into fingers: amplitude {amplitude} m");
}

/// Half the spread of the per-column interface heights, and their range (metres).
fn interface(f: &Fields) -> (f32, (f32, f32)) {
    let (nx, ny) = (f.nx, f.ny);
    let h = 1.0 / ny as f32;
    let heavy = 0.3;
    let heights: Vec<f32> = (0..nx).map(|i| 1.0 - (0..ny).map(|j| f.density[j * nx + i]).sum::<f32>() * h / heavy).collect();
    let (lo, hi) = heights.iter().fold((f32::MAX, f32::MIN), |(a, b), &y| (a.min(y), b.max(y)));
    (0.5 * (hi - lo), (lo, hi))
}

/// The wind tunnel: a street needs thousands of steps at Re = 320, more than 10 s here (a
/// 256×128 step takes 120-250 ms), so the scene's caption says what to wait for and when; this
/// checks that claim. v on the centre line three diameters behind the cylinder (x = 0.98 m,
/// y = 0.5 m), from `--dump-every`: still under 0.1 m/s for the first 250 steps, swinging both
/// ways by over 0.3 m/s between steps 600 and 900. 302 s here under load, so ignored:
/// `cargo test --release --test scene_points -- --ignored`.
#[test]
#[ignore]
fn the_wind_tunnel_sheds_a_street_by_step_800() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scene_points_wind_tunnel");
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smokebox"))
        .args(["run", "--scene", "wind-tunnel", "--steps", "900", "--dump-every", "25", "--dump"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let probe = |step: u64| {
        let d = dir.join(format!("step_{step:06}"));
        let meta = smokebox::state_io::load_meta(&d).unwrap();
        let f = smokebox::state_io::load_fields(&d, &meta).unwrap();
        let h = meta.cell_size;
        f.v[f.vi((0.98 / h) as usize, (0.5 / h).round() as usize)]
    };
    let early: Vec<f32> = (1..=10).map(|n| probe(25 * n)).collect();
    let late: Vec<f32> = (24..=36).map(|n| probe(25 * n)).collect();
    let _ = std::fs::remove_dir_all(&dir);
    println!("wind tunnel, v 3 D behind the cylinder: steps 25-250 {early:.3?}; steps 600-900 {late:.3?}");
    assert!(early.iter().all(|v| v.abs() < 0.1), "the wake swings before the caption says: {early:?}");
    let (lo, hi) = late.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(lo < -0.3 && hi > 0.3, "no street by step 900: v from {lo} to {hi} m/s");
}
