//! Two simulations of the `plume` scene in one process, stepped in turn and each step timed as
//! `smokebox run --stats` times it (`run_blocking`, the statistics reduced and read back). On the
//! 2-core lavapipe VMs a whole run of the same binary moves by 20-30 % from process to process,
//! while two simulations stepped in turn see the same machine: an A/A pair reads 0.99-1.00.
//! Both share the caches, so the absolute figures run higher than a lone `run`'s; compare ratios.
//!
//! Usage: `cargo run --release --example paired_steps -- STEPS 'KEY=VALUE;...' 'KEY=VALUE;...'`
//! (scene overrides for A and B, as `--set` takes them). Prints the medians of steps 21 on and
//! the median of the step-by-step ratios. `PAIR_A_ENV=NAME` (or `NAME=VALUE`) sets variable NAME
//! to 1 (or VALUE) while A is built and unsets it for B: a switch read at kernel build time (`SMOKEBOX_PROFILE`, or
//! one built in for a measurement) compared within one build.

use smokebox::config::scene::Scene;
use smokebox::sim::Simulation;
use std::time::Instant;

fn main() {
    if let Err(e) = run() {
        eprintln!("paired_steps: {e}");
        std::process::exit(2);
    }
}

fn run() -> smokebox::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = || smokebox::Error("usage: paired_steps STEPS 'A overrides' 'B overrides' (STEPS > 20)".into());
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).filter(|&n| n > 20).ok_or_else(usage)?;
    let overrides = |k: usize| -> smokebox::Result<Vec<String>> {
        let list = args.get(k).ok_or_else(usage)?;
        Ok(list.split(';').filter(|s| !s.is_empty()).map(String::from).collect())
    };
    let gpu = smokebox::gpu::Gpu::headless()?;
    let build = |o: Vec<String>| -> smokebox::Result<Simulation> {
        let (scene, source) = Scene::load("plume", &o)?;
        Simulation::from_scene(&gpu, &scene, &source)
    };
    // PAIR_A_ENV=NAME[=VALUE]: variable NAME set to 1 (or VALUE) while A's kernels are built,
    // unset for B's
    let switch = std::env::var("PAIR_A_ENV").ok().map(|v| match v.split_once('=') {
        Some((name, value)) => (name.to_string(), value.to_string()),
        None => (v, "1".to_string()),
    });
    // SAFETY: no other thread runs yet that reads the environment
    switch.iter().for_each(|(name, value)| unsafe { std::env::set_var(name, value) });
    let a = build(overrides(2)?)?;
    switch.iter().for_each(|(name, _)| unsafe { std::env::remove_var(name) });
    let mut sims = [a, build(overrides(3)?)?];
    let mut ms = [Vec::new(), Vec::new()];
    for s in 0..steps {
        // who goes first alternates, so neither always follows the other's step
        for k in [s % 2, 1 - s % 2] {
            let t0 = Instant::now();
            sims[k].run_blocking(1, true);
            ms[k].push(t0.elapsed().as_secs_f64() * 1e3);
        }
    }
    let median = |v: Vec<f64>| {
        let mut v = v;
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (a, b) = (median(ms[0][20..].to_vec()), median(ms[1][20..].to_vec()));
    let paired = median(ms[0][20..].iter().zip(&ms[1][20..]).map(|(x, y)| x / y).collect());
    println!("A {a:.3} ms  B {b:.3} ms  A/B {:.3}  paired {paired:.3}", a / b);
    Ok(())
}
