//! Kernels without any of naga's run-time checks (src/sim/kernel/profile.rs `ShaderChecks`; a Vulkan
//! GPU drops the loop counters) give the same bits as with them all: four scenes' whole state
//! after a few steps, on a CPU adapter's kernels and on a GPU's (256 invocations, 16 x 16 cell
//! blocks, the tiled solvers). On lavapipe a kernel that read out of bounds would read something
//! else than the clamped index gives; passed on an H200 too, with 8 x 8 blocks (BENCHMARKS.md,
//! "NVIDIA H200"). And the page's SwiftShader profile (`browser-software`: 8 x 8 blocks, one kernel
//! for every multigrid level, the coarse solve on the bottom level alone) steps as a CPU adapter's
//! does, bit for bit: the same arithmetic in other shapes.

mod common;
use common::*;
use smokebox::sim::Simulation;
use smokebox::sim::fields::Fields;
use smokebox::sim::kernel::{DeviceProfile, ShaderChecks, profile, with_profile};

fn state_after(gpu: &smokebox::gpu::Gpu, scene: &str, steps: u64) -> Fields {
    let sets = ["grid.nx=72".to_string(), "grid.ny=56".to_string()];
    let (scene, source) = smokebox::config::Scene::load(scene, &sets).unwrap();
    let mut sim = Simulation::from_scene(gpu, &scene, &source).unwrap();
    sim.run_blocking(steps, false);
    sim.download()
}

fn same_bits(ctx: &str, a: &Fields, b: &Fields) {
    for (name, x, y) in [
        ("u", &a.u, &b.u),
        ("v", &a.v, &b.v),
        ("p", &a.p, &b.p),
        ("p_prev", &a.p_prev, &b.p_prev),
        ("density", &a.density, &b.density),
        ("ink", &a.ink, &b.ink),
    ] {
        assert_eq!(x.len(), y.len(), "{ctx} {name}");
        let differ = x.iter().zip(y).filter(|(p, q)| p.to_bits() != q.to_bits()).count();
        assert_eq!(differ, 0, "{ctx}: {differ} values of {name} differ");
        assert!(x.iter().any(|&v| v != 0.0) || matches!(name, "p_prev" | "density"), "{ctx}: {name} is all zero, a test of nothing");
    }
}

#[test]
fn kernels_without_the_checks_give_the_same_bits() {
    let gpu = gpu();
    for scene in ["plume", "wind-tunnel", "periodic", "logo"] {
        let own = profile(&gpu.device);
        let run = |checks| with_profile(DeviceProfile { checks, ..own }, || state_after(&gpu, scene, 12));
        same_bits(&format!("{scene}, a CPU adapter's kernels"), &run(ShaderChecks::ALL), &run(ShaderChecks::NONE));
        let wide = |checks| with_profile(DeviceProfile { checks, ..DeviceProfile::GPU }, || state_after(&gpu, scene, 12));
        same_bits(&format!("{scene}, a GPU's kernels"), &wide(ShaderChecks::ALL), &wide(ShaderChecks::NONE));
    }
}

#[test]
fn the_pages_software_profile_gives_a_cpu_adapters_bits() {
    let gpu = gpu();
    for scene in ["plume", "logo"] {
        let run = |p| with_profile(p, || state_after(&gpu, scene, 12));
        let (software, page) = (run(DeviceProfile::SOFTWARE), run(DeviceProfile::BROWSER_SOFTWARE));
        same_bits(&format!("{scene}, the page's software profile against a CPU adapter's"), &software, &page);
    }
}

#[test]
fn the_variable_names_the_kept_checks() {
    assert_eq!(ShaderChecks::parse("all"), Some(ShaderChecks::ALL));
    assert_eq!(ShaderChecks::parse("0"), Some(ShaderChecks::NONE));
    let kept = ShaderChecks { bounds: true, loops: false, division: true };
    assert_eq!(ShaderChecks::parse("bounds, division"), Some(kept));
    assert_eq!(ShaderChecks::parse("bounds+division"), Some(kept));
    assert_eq!(ShaderChecks::parse("bounds,speed"), None);
}
