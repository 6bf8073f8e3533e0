//! The command line as a user drives it: scenes, runs with stats, dumps that load and continue
//! bit for bit, and one-line errors with exit status 2 for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn smokebox(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smokebox")).args(args).output().expect("run smokebox")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("smokebox-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Lines of stderr that are smokebox's own (drivers may print their own chatter).
fn own_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.starts_with("smokebox")).map(String::from).collect()
}

/// A bad input: exit 2, exactly one line from smokebox naming `needle`, no panic.
fn assert_bad(args: &[&str], needle: &str) {
    let out = smokebox(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: expected exit 2, got {:?}; stderr: {err}", out.status.code());
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{args:?} panicked: {err}");
    let lines = own_lines(&out);
    assert_eq!(lines.len(), 1, "{args:?}: expected one line, got {lines:?}");
    assert!(lines[0].contains(needle), "{args:?}: '{}' does not mention '{needle}'", lines[0]);
}

fn npy_shape(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let header = String::from_utf8_lossy(&bytes[10..10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize]).to_string();
    assert!(header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"), "{header}");
    header.split("'shape': ").nth(1).unwrap().split(')').next().unwrap().to_string() + ")"
}

#[test]
fn scenes_lists_the_builtins() {
    let out = smokebox(&["scenes"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text.lines().map(|l| l.split_whitespace().next().unwrap()).collect();
    for want in ["box", "drops", "plume", "paint", "wind-tunnel", "cavity", "periodic", "logo"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
}

#[test]
fn every_builtin_scene_runs_headless_at_its_own_size() {
    let list = smokebox(&["scenes"]);
    let text = String::from_utf8_lossy(&list.stdout).to_string();
    let names: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let out = smokebox(&["run", "--scene", name, "--steps", "10", "--stats"]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let stats: Vec<serde_json::Value> =
            String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(stats.len(), 10, "{name}");
        let last = &stats[9];
        for key in ["div_max_after", "ink_total", "kinetic_energy"] {
            let x = last[key].as_f64().unwrap_or(f64::NAN);
            assert!(x.is_finite() && x >= 0.0, "{name}: {key} = {x} after 10 steps");
        }
        // projection does its job in every scene (solids, inflows, periodic seams, lids included)
        let (before, after) = (last["div_max_before"].as_f64().unwrap(), last["div_max_after"].as_f64().unwrap());
        assert!(after <= before.max(1e-6), "{name}: divergence grew in the solve: {before:e} -> {after:e}");
    }
}

#[test]
fn stats_print_one_json_object_per_step() {
    let out = smokebox(&[
        "run",
        "--scene",
        "plume",
        "--steps",
        "5",
        "--stats",
        "--set",
        "grid.nx=32",
        "--set",
        "grid.ny=32",
        "--set",
        "grid.cell_size=0.03125",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 5);
    for (n, l) in lines.iter().enumerate() {
        for key in ["step", "time", "div_max_before", "div_max_after", "ink_total", "kinetic_energy", "ms"] {
            assert!(l.get(key).is_some(), "line {n} lacks {key}: {l}");
        }
        assert_eq!(l["step"].as_u64(), Some(n as u64 + 1));
    }
    assert!(lines[4]["ink_total"].as_f64().unwrap() > 0.0, "the plume emits ink");
}

#[test]
fn dump_writes_design_files_and_load_continues_bit_for_bit() {
    let dir = tmp("dump");
    let (a, b, straight) = (dir.join("a"), dir.join("b"), dir.join("straight"));
    let base = ["--scene", "drops", "--set", "grid.nx=48", "--set", "grid.ny=40", "--set", "grid.dye_scale=2"];
    let run = |extra: &[&str]| {
        let mut args = vec!["run"];
        args.extend_from_slice(extra);
        let out = smokebox(&args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&[&base[..], &["--steps", "30", "--dump", a.to_str().unwrap()]].concat());
    for (file, shape) in [
        ("u.npy", "(40, 49)"),
        ("v.npy", "(41, 48)"),
        ("p.npy", "(40, 48)"),
        ("p_prev.npy", "(40, 48)"),  // the warm start's pressure of the step before
        ("p_prev2.npy", "(40, 48)"), // and of the one before that
        ("ink.npy", "(80, 96, 3)"),  // the dye grid, k = 2
        ("density.npy", "(40, 48)"),
        ("solid.npy", "(40, 48)"),
    ] {
        assert_eq!(npy_shape(&a.join(file)), shape, "{file}");
    }
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(a.join("meta.json")).unwrap()).unwrap();
    for key in ["nx", "ny", "cell_size", "step", "time", "dt", "scene"] {
        assert!(meta.get(key).is_some(), "meta.json lacks {key}");
    }
    assert_eq!(meta["step"], 30);
    assert_eq!(meta["scene"], "drops");
    assert_eq!(meta["dye_scale"], 2);
    run(&["--load", a.to_str().unwrap(), "--steps", "20", "--dump", b.to_str().unwrap()]);
    run(&[&base[..], &["--steps", "50", "--dump", straight.to_str().unwrap()]].concat());
    for file in ["u.npy", "v.npy", "p.npy", "p_prev.npy", "p_prev2.npy", "ink.npy", "density.npy", "solid.npy"] {
        assert!(
            std::fs::read(b.join(file)).unwrap() == std::fs::read(straight.join(file)).unwrap(),
            "{file} differs after load + continue"
        );
    }
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(b.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["step"], 50);
    // p_prev2.npy and p_prev.npy are optional (states written before them, or by other tools):
    // without them the run continues from p and p_prev, or p alone, and still converges
    for file in ["p_prev2.npy", "p_prev.npy"] {
        std::fs::remove_file(a.join(file)).unwrap();
        let out = smokebox(&["run", "--load", a.to_str().unwrap(), "--steps", "3", "--stats"]);
        assert!(out.status.success(), "load without {file}: {}", String::from_utf8_lossy(&out.stderr));
        let stats = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stats.lines().filter(|l| l.contains("\"converged\":true")).count(), 3, "without {file}: {stats}");
    }
}

#[test]
fn dump_every_writes_numbered_states() {
    let dir = tmp("every");
    let out = smokebox(&[
        "run",
        "--scene",
        "box",
        "--steps",
        "6",
        "--set",
        "grid.nx=16",
        "--set",
        "grid.ny=16",
        "--dump",
        dir.join("d").to_str().unwrap(),
        "--dump-every",
        "3",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("d/step_000003/u.npy").exists() && dir.join("d/step_000006/meta.json").exists());
}

#[test]
fn bad_scene_input_gets_one_line_and_exit_2() {
    let dir = tmp("bad");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let malformed = write("malformed.toml", "[grid]\nnx = 32\nny = = 4\n");
    let unknown = write("unknown.toml", "[grid]\nnx = 32\nnxx = 4\n");
    let typed = write("typed.toml", "[grid]\nnx = \"many\"\n");
    assert_bad(&["run", "--scene", "nope", "--steps", "1"], "unknown scene 'nope'");
    assert_bad(&["run", "--scene", &malformed, "--steps", "1"], "line 3");
    assert_bad(&["run", "--scene", &unknown, "--steps", "1"], "nxx");
    assert_bad(&["run", "--scene", &typed, "--steps", "1"], "grid.nx");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "grid.nxx=3"], "nxx");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "solver.iterations=many"], "solver.iterations");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "grid.nx=0"], "grid 0x128");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "time.dt=-0.1"], "time.dt");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "time.dt=nan"], "time.dt");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "fluid.viscosity=nan"], "fluid.viscosity");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--set", "fluid.viscosity=-1"], "fluid.viscosity");
    assert_bad(
        &["run", "--scene", "box", "--steps", "1", "--set", "grid.nx=60000", "--set", "grid.ny=60000"],
        "largest square grid that fits",
    );
    assert_bad(&["run", "--scene", "box", "--steps", "x"], "--steps");
    // a missing flag is named on the one line, not left to the usage block clap prints below it
    assert_bad(&["run", "--scene", "box"], "the following required arguments were not provided: --steps <STEPS>");
    // counts and forces that cannot be meant: one line with the limit
    let set = |kv: &'static str| ["run", "--scene", "box", "--steps", "1", "--set", kv];
    assert_bad(&set("solver.iterations=201"), "solver.mgpcg_iterations = 201: expected a whole number from 0 to 200 iterations");
    assert_bad(
        &["run", "--scene", "plume", "--steps", "1", "--set", "solver.iterations=201"],
        "solver.multigrid_iterations = 201: expected a whole number from 0 to 200 V-cycles",
    );
    assert_bad(
        &["run", "--scene", "box", "--steps", "1", "--set", "solver.kind=sor", "--set", "solver.iterations=10001"],
        "from 0 to 10000 sweeps",
    );
    assert_bad(&set("forces.gravity=[0,1e38]"), "forces.gravity");
    assert_bad(&set("forces.vorticity=1e20"), "forces.vorticity");
    assert_bad(&set("boundary.top.speed=1e30"), "boundary.top.speed");
    assert_bad(&["run", "--scene", "wind-tunnel", "--steps", "1", "--set", "boundary.left.velocity=[1e9,0]"], "boundary.left.velocity");
    // the limits themselves are accepted
    for kv in ["solver.iterations=200", "forces.gravity=[0,-1000]"] {
        let out = smokebox(&set(kv));
        assert!(out.status.success(), "{kv}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// A meta.json that claims a huge grid or dye grid is refused by the window's `--load` as by
/// `run --load`: one line with the sizes in MB/GB and exit 2, before any field is read or
/// allocated (before: SIGABRT). No display is needed: the check comes first.
#[test]
fn the_window_refuses_a_huge_state_before_it_allocates() {
    let dir = tmp("huge");
    let good = small_state(&dir);
    let meta = std::fs::read_to_string(good.join("meta.json")).unwrap();
    for (name, nx, ny, k, needle) in [("side", 65536, 65536, 1, "GB"), ("dye", 4096, 4096, 16, "grid.dye_scale = 16")] {
        let state = dir.join(name);
        copy_dir(&good, &state);
        let mut m: serde_json::Value = serde_json::from_str(&meta).unwrap();
        (m["nx"], m["ny"], m["dye_scale"]) = (nx.into(), ny.into(), k.into());
        std::fs::write(state.join("meta.json"), m.to_string()).unwrap();
        for args in [vec!["--load", state.to_str().unwrap()], vec!["run", "--load", state.to_str().unwrap(), "--steps", "1"]] {
            for display in [None, Some(":99")] {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_smokebox"));
                cmd.args(&args).env_remove("WAYLAND_DISPLAY");
                match display {
                    Some(d) => cmd.env("DISPLAY", d),
                    None => cmd.env_remove("DISPLAY"),
                };
                let out = cmd.output().unwrap();
                let err = String::from_utf8_lossy(&out.stderr).to_string();
                assert_eq!(out.status.code(), Some(2), "{args:?} {display:?}: {err}");
                let lines = own_lines(&out);
                assert_eq!(lines.len(), 1, "{args:?}: {lines:?}");
                assert!(lines[0].contains("does not fit") && lines[0].contains(needle), "{args:?}: {}", lines[0]);
                assert!(lines[0].contains(" GB") || lines[0].contains(" MB"), "sizes in MB/GB: {}", lines[0]);
            }
        }
    }
}

/// A state that is not finite prints its figures as JSON null (JSON has no NaN), never as 0, and
/// its solve as not converged.
#[test]
fn stats_of_a_non_finite_state_are_null() {
    let dir = tmp("nan");
    let good = small_state(&dir);
    let mut bytes = std::fs::read(good.join("u.npy")).unwrap();
    let at = 10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize + 4 * (5 * 17 + 5);
    bytes[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(good.join("u.npy"), bytes).unwrap();
    let out = smokebox(&["run", "--load", good.to_str().unwrap(), "--steps", "2", "--stats"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{text}");
    for l in &lines {
        for key in ["div_max_before", "div_max_after", "kinetic_energy", "max_speed", "residual"] {
            assert!(l[key].is_null(), "{key} of a NaN state: {l}");
        }
        assert_eq!(l["converged"], serde_json::json!(false), "{l}");
    }
}

#[test]
fn bad_state_files_get_one_line_and_leave_no_partial_dump() {
    let dir = tmp("state");
    let good = small_state(&dir);
    assert_bad(&["run", "--load", dir.join("missing").to_str().unwrap(), "--steps", "1"], "meta.json");
    // a field file missing
    let missing = dir.join("missing_field");
    copy_dir(&good, &missing);
    std::fs::remove_file(missing.join("p.npy")).unwrap();
    assert_bad(&["run", "--load", missing.to_str().unwrap(), "--steps", "1"], "p.npy");
    // a field of the wrong shape: u from a 16x12 state with meta of another size
    let wrong = dir.join("wrong_shape");
    copy_dir(&good, &wrong);
    let meta = std::fs::read_to_string(wrong.join("meta.json")).unwrap().replace("\"nx\": 16", "\"nx\": 15");
    std::fs::write(wrong.join("meta.json"), meta).unwrap();
    let out_dir = dir.join("never");
    assert_bad(&["run", "--load", wrong.to_str().unwrap(), "--steps", "1", "--dump", out_dir.to_str().unwrap()], "expected (12, 16)");
    assert!(!out_dir.exists(), "a failed run left a dump behind");
    // ink of another dye grid than meta.json's dye_scale says: named with the expected shape
    let wrong_dye = dir.join("wrong_dye");
    copy_dir(&good, &wrong_dye);
    let meta = std::fs::read_to_string(wrong_dye.join("meta.json")).unwrap();
    let k = serde_json::from_str::<serde_json::Value>(&meta).unwrap()["dye_scale"].as_u64().unwrap();
    let other = if k == 1 { 2 } else { 1 };
    let meta = meta.replace(&format!("\"dye_scale\": {k}"), &format!("\"dye_scale\": {other}"));
    std::fs::write(wrong_dye.join("meta.json"), meta).unwrap();
    let expected = format!("({}, {}, 3)", 12 * other, 16 * other);
    assert_bad(&["run", "--load", wrong_dye.to_str().unwrap(), "--steps", "1"], "ink.npy");
    assert_bad(&["run", "--load", wrong_dye.to_str().unwrap(), "--steps", "1"], &expected);
    let leftovers: Vec<_> =
        std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().contains("partial")).collect();
    assert!(leftovers.is_empty(), "partial dump left behind");
}

/// A dump of `box` at 16x12 after one step, in DIR/good.
fn small_state(dir: &Path) -> PathBuf {
    let good = dir.join("good");
    let out = smokebox(&[
        "run",
        "--scene",
        "box",
        "--steps",
        "1",
        "--set",
        "grid.nx=16",
        "--set",
        "grid.ny=12",
        "--dump",
        good.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    good
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn no_gpu_adapter_says_how_to_install_lavapipe() {
    let out = Command::new(env!("CARGO_BIN_EXE_smokebox"))
        .args(["run", "--scene", "box", "--steps", "1"])
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines = own_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("no GPU adapter") && lines[0].contains("mesa-vulkan-drivers"), "{}", lines[0]);
}

#[test]
fn frames_are_drawn_by_the_renderer_one_pixel_a_cell() {
    let dir = tmp("frames");
    let frames = dir.join("frames");
    let out = smokebox(&[
        "run",
        "--scene",
        "plume",
        "--set",
        "grid.nx=48",
        "--set",
        "grid.ny=32",
        "--set",
        "grid.cell_size=0.02",
        "--steps",
        "20",
        "--frames",
        frames.to_str().unwrap(),
        "--frame-every",
        "10",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for step in [10, 20] {
        let img = image::open(frames.join(format!("frame_{step:06}.png"))).unwrap().to_rgba8();
        assert_eq!((img.width(), img.height()), (48, 32));
        // the plume's ink shows: some pixels are far brighter than the dark background
        let brightest = img.pixels().map(|p| p.0[0] as u32 + p.0[1] as u32 + p.0[2] as u32).max().unwrap();
        let darkest = img.pixels().map(|p| p.0[0] as u32 + p.0[1] as u32 + p.0[2] as u32).min().unwrap();
        assert!(brightest > darkest + 150, "frame {step}: no ink visible ({darkest}..{brightest})");
    }
}

/// Reads a float32 .npy file's data.
fn npy_data(path: &Path) -> Vec<f32> {
    let bytes = std::fs::read(path).unwrap();
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    bytes[10 + len..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[test]
fn a_new_resolution_keeps_the_scene_in_metres() {
    let dir = tmp("resolution");
    let state = dir.join("s");
    let out = smokebox(&["run", "--scene", "drops", "--set", "grid.nx=48", "--steps", "0", "--dump", state.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(state.join("meta.json")).unwrap()).unwrap();
    // drops is 1 m square: 48 cells across keeps it 1 m square
    assert_eq!((meta["nx"].as_u64(), meta["ny"].as_u64()), (Some(48), Some(48)));
    let h = meta["cell_size"].as_f64().unwrap();
    assert!((h * 48.0 - 1.0).abs() < 1e-5, "the domain is {} m wide", h * 48.0);
    let k = meta["dye_scale"].as_u64().unwrap() as usize;
    let ink = npy_data(&state.join("ink.npy"));
    let dh = h / k as f64;
    let at = |x: f64, y: f64| {
        let (a, b) = ((x / dh) as usize, (y / dh) as usize);
        let d = b * 48 * k + a;
        [ink[3 * d], ink[3 * d + 1], ink[3 * d + 2]]
    };
    // each drop's colour at its centre in metres (drops.toml)
    assert!(at(0.4, 0.8)[0] > 0.9, "the red drop is gone: {:?}", at(0.4, 0.8));
    assert!(at(0.6, 0.2)[2] > 0.9, "the blue drop is gone: {:?}", at(0.6, 0.2));
    assert!(at(0.15, 0.5)[1] > 0.9, "the green drop is gone: {:?}", at(0.15, 0.5));
    // a cell size that shrinks the domain past a drop: one line, exit 2
    assert_bad(
        &["run", "--scene", "drops", "--set", "grid.nx=48", "--set", "grid.cell_size=0.01", "--steps", "1"],
        "lies outside the domain",
    );
}

#[test]
fn frames_take_a_size_and_overlays() {
    let dir = tmp("frame-size");
    let frames = dir.join("frames");
    let out = smokebox(&[
        "run",
        "--scene",
        "plume",
        "--set",
        "grid.nx=32",
        "--set",
        "grid.ny=32",
        "--steps",
        "4",
        "--frames",
        frames.to_str().unwrap(),
        "--frame-every",
        "4",
        "--frame-size",
        "200x120",
        "--overlays",
        "ink,arrows,pressure",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let img = image::open(frames.join("frame_000004.png")).unwrap().to_rgba8();
    assert_eq!((img.width(), img.height()), (200, 120));
    // the square grid is fitted in the middle: the sides are the clear colour
    let side = img.get_pixel(10, 60).0;
    let middle = img.get_pixel(100, 60).0;
    assert_ne!(side, middle, "nothing drawn in the middle");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--frames", frames.to_str().unwrap(), "--frame-size", "wide"], "--frame-size");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--frames", frames.to_str().unwrap(), "--overlays", "ink,sparkles"], "sparkles");
    assert_bad(&["run", "--scene", "box", "--steps", "1", "--overlays", "ink"], "--frames");
}

/// `--overlays curl` draws the curl tint with its automatic range (the frame's largest |ω|): the
/// plume's counter-clockwise swirl blob shows purple, the ring around it green.
#[test]
fn frames_draw_the_curl() {
    let dir = tmp("frames-curl");
    let frames = dir.join("frames");
    let out = smokebox(&[
        "run",
        "--scene",
        "plume",
        "--steps",
        "2",
        "--frames",
        frames.to_str().unwrap(),
        "--frame-every",
        "2",
        "--overlays",
        "curl",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let img = image::open(frames.join("frame_000002.png")).unwrap().to_rgb8();
    let purple = img.pixels().filter(|p| p.0[2] as i32 > p.0[1] as i32 + 40 && p.0[0] as i32 > p.0[1] as i32 + 20).count();
    let green = img.pixels().filter(|p| p.0[1] as i32 > p.0[0] as i32 + 40 && p.0[1] as i32 > p.0[2] as i32 + 40).count();
    assert!(purple > 50 && green > 10, "curl frame: {purple} purple and {green} green pixels");
    // the swirl's centre (0.56 m, 0.3 m of the 1 m box, 128 cells) turns counter-clockwise
    let centre = img.get_pixel(72, 127 - 38).0;
    assert!(centre[2] as i32 > centre[1] as i32 + 40, "the swirl's centre is not purple: {centre:?}");
}

/// Runs smokebox, which must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let out = smokebox(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The probes of each --stats line: [u, v, p, div, ink] per probe.
fn probe_lines(stdout: &str) -> Vec<(u64, Vec<[f32; 5]>)> {
    stdout
        .lines()
        .map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).unwrap();
            let probes = j["probes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| ["u", "v", "p", "div", "ink"].map(|k| p[k].as_f64().unwrap() as f32))
                .collect();
            (j["step"].as_u64().unwrap(), probes)
        })
        .collect()
}

#[test]
fn a_probe_reads_what_the_dump_of_its_step_holds() {
    let dir = tmp("dump");
    let csv = dir.join("probes.csv");
    // in the heavy drop, at the edge of the light one, and in clear air near a corner
    let points = ["0.41,0.79", "0.66,0.25", "0.9,0.05"];
    let mut args = vec!["run", "--scene", "drops", "--steps", "6", "--set", "grid.nx=32", "--set", "grid.ny=32", "--stats"];
    for p in &points {
        args.extend(["--probe", p]);
    }
    let (dump, csv_arg) = (dir.join("state"), csv.to_str().unwrap().to_string());
    args.extend(["--dump", dump.to_str().unwrap(), "--dump-every", "2", "--probe-csv", &csv_arg]);
    let lines = probe_lines(&ok(&args));
    assert_eq!(lines.len(), 6);
    let rows: Vec<Vec<f32>> =
        std::fs::read_to_string(&csv).unwrap().lines().skip(1).map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 6, "one CSV row a step");
    let mut compared = 0;
    for (step, probes) in &lines {
        let row = &rows[*step as usize - 1];
        assert_eq!(row[0] as u64, *step);
        for (n, values) in probes.iter().enumerate() {
            assert_eq!(&row[2 + 5 * n..7 + 5 * n], values, "the CSV holds the --stats values");
        }
        let state = dump.join(format!("step_{step:06}"));
        if !state.exists() {
            continue;
        }
        let (f, p) = load(&state);
        for (point, values) in points.iter().zip(probes) {
            let (x, y) = point.split_once(',').unwrap();
            let want = smokebox::sim::cpu::probes::probe(&f, &p, x.parse().unwrap(), y.parse().unwrap());
            let scale = f.u.iter().chain(&f.v).fold(1e-6f32, |m, x| m.max(x.abs()));
            for k in 0..5 {
                let tolerance = 1e-5 * [scale, scale, 1.0 + f.p.iter().fold(0f32, |m, x| m.max(x.abs())), scale * 32.0, 3.0][k];
                assert!(
                    (values[k] - want[k]).abs() <= tolerance,
                    "step {step} probe {point} figure {k}: {} against the dump's {}",
                    values[k],
                    want[k]
                );
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 9, "steps 2, 4 and 6, three probes each");
    // something moves at the probes, or the comparison says little
    assert!(lines.iter().flat_map(|(_, p)| p).any(|v| v[1].abs() > 1e-3) && lines[0].1[0][4] > 0.1, "{lines:?}");
}

/// A dumped state and the parameters of its scene (the CPU twin reads them).
fn load(dir: &Path) -> (smokebox::sim::fields::Fields, smokebox::sim::params::Params) {
    let meta = smokebox::state_io::load_meta(dir).unwrap();
    let fields = smokebox::state_io::load_fields(dir, &meta).unwrap();
    let (mut scene, _) = smokebox::config::Scene::load(&meta.scene, &meta.overrides).unwrap();
    scene.grid.dye_scale = smokebox::config::DyeScale::Scale(meta.dye_scale as i64);
    let mut p = smokebox::sim::params::Params::from_scene(&scene);
    p.nx = meta.nx as u32;
    p.ny = meta.ny as u32;
    (fields, p)
}

#[test]
fn a_probe_in_plane_couette_flow_reads_the_linear_profile() {
    // The cavity's lid at U = 1 m/s over a still floor, 1 m apart, made periodic in x: the steady
    // flow is
    // u = U y / H, v = 0, p uniform. ν = 0.05 m²/s: the slowest mode decays as
    // exp(−π² ν t / H²), to 3e-6 in 25 s (500 steps of 0.05 s).
    let out = ok(&[
        "run",
        "--scene",
        "cavity",
        "--steps",
        "500",
        "--stats",
        "--probe",
        "0.3,0.2",
        "--probe",
        "0.71,0.85",
        "--set",
        "grid.nx=16",
        "--set",
        "grid.ny=16",
        "--set",
        "time.dt=0.05",
        "--set",
        "fluid.viscosity=0.05",
        "--set",
        "boundary.left.kind=periodic",
        "--set",
        "boundary.right.kind=periodic",
        "--set",
        "layers=[]",
    ]);
    let (_, probes) = probe_lines(&out).pop().unwrap();
    for ([u, v, _, div, _], y) in probes.iter().zip([0.2f32, 0.85]) {
        println!("Couette at y = {y}: u {u:.6}, v {v:.2e}, div {div:.2e}");
        assert!((u - y).abs() < 2e-3, "u {u} at y = {y}: expected U y / H = {y}");
        assert!(v.abs() < 1e-4 && div.abs() < 1e-3, "v {v}, div {div}");
    }
}

#[test]
fn bad_probes_get_one_line_and_exit_2() {
    let dir = tmp("bad-probes");
    let csv = dir.join("p.csv");
    let run = ["run", "--scene", "drops", "--steps", "2", "--set", "grid.nx=16", "--set", "grid.ny=16", "--stats"];
    for (args, needle) in [
        (vec!["--probe", "3"], "--probe 3"),
        (vec!["--probe", "x,1"], "X,Y"),
        (vec!["--probe", "5,0.5"], "outside the domain"),
        (vec!["--probe", "0.5,-0.1"], "outside the domain"),
        (vec!["--probe-csv", csv.to_str().unwrap()], "--probe"),
    ] {
        let all: Vec<&str> = run.iter().copied().chain(args).collect();
        assert_bad(&all, needle);
        assert!(smokebox(&all).stdout.is_empty(), "{all:?}: no partial output");
        assert!(!csv.exists(), "no partial CSV");
    }
    // a probe whose values go nowhere
    assert_bad(&["run", "--scene", "drops", "--steps", "2", "--probe", "0.5,0.5"], "--stats or --probe-csv");
}
