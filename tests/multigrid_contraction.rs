//! The V-cycle's contraction, measured on the CPU twin alone (src/sim/cpu/multigrid.rs, which
//! takes nothing from the GPU module): a manufactured problem A x* = b with a random x* (so every
//! frequency is in the error), solved from zero; the error against x* itself, not a residual,
//! falls by the factor below each cycle. The GPU's cycle matches the twin pass for pass
//! (tests/solvers.rs), so this pins both.

mod common;
use common::*;
use smokebox::sim::cpu::multigrid::{Mg, levels};
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;

/// A manufactured level-0 problem on an n x n grid with a random x*: (Mg with rhs = A x*, x = 0; x*).
fn manufactured(n: usize, kinds: [u32; 4], obstacle: bool, seed: u64) -> (Mg, Params, Vec<f32>) {
    let mut rng = Rng::new(seed);
    manufactured_from(n, kinds, obstacle, &mut |_, _| rng.signed())
}

/// The same with x* = `exact(i, j)` on the fluid cells.
fn manufactured_from(n: usize, kinds: [u32; 4], obstacle: bool, exact: &mut dyn FnMut(usize, usize) -> f32) -> (Mg, Params, Vec<f32>) {
    let p = with_boundaries(box_params(n, n, 1.0 / n as f32, 0.01), kinds);
    let mut f = Fields::zeros(n, n);
    if obstacle {
        // a block a fifth of the side across, off centre
        for j in n * 2 / 5..n * 3 / 5 {
            for i in n / 4..n / 4 + n / 5 {
                f.solid[j * n + i] = 1.0;
            }
        }
    }
    let mut mg = Mg::new(n, n);
    mg.setup(&f, &p);
    let n0 = n * n;
    let fluid: Vec<bool> = (0..n0).map(|c| f.solid[c] < 0.5).collect();
    let exact: Vec<f32> = (0..n0).map(|c| if fluid[c] { exact(c % n, c / n) } else { 0.0 }).collect();
    // b = A x*: the residual of x* with rhs 0 is -A x*
    mg.x[..n0].copy_from_slice(&exact);
    mg.rhs[..n0].fill(0.0);
    mg.residual(0);
    for c in 0..n0 {
        mg.rhs[c] = -mg.res[c];
    }
    mg.x.fill(0.0);
    (mg, p, exact)
}

/// ||x - x*|| over fluid cells, both less their mean where the problem fixes p only up to a
/// constant (no outflow side).
fn error(mg: &Mg, exact: &[f32], singular: bool) -> f64 {
    let n0 = exact.len();
    let fluid: Vec<usize> = (0..n0).filter(|&c| mg.stencil[c] & 0x70 != 0).collect();
    let mean = |v: &dyn Fn(usize) -> f64| if singular { fluid.iter().map(|&c| v(c)).sum::<f64>() / fluid.len() as f64 } else { 0.0 };
    let (mx, me) = (mean(&|c| mg.x[c] as f64), mean(&|c| exact[c] as f64));
    fluid.iter().map(|&c| ((mg.x[c] as f64 - mx) - (exact[c] as f64 - me)).powi(2)).sum::<f64>().sqrt()
}

/// The error's contraction factors of five V-cycles from zero, and the worst of them past the
/// first (the random start's transient) while the error is above the floor f32 rounding sets
/// (in b = A x* and in the sweeps: about 1e-5 of the start at 64², growing with the condition
/// number as n²).
fn contraction(n: usize, kinds: [u32; 4], obstacle: bool) -> (Vec<f64>, f64) {
    let singular = !kinds.contains(&BC_OUTFLOW);
    let (mut mg, p, exact) = manufactured(n, kinds, obstacle, 5);
    let mut errors = vec![error(&mg, &exact, singular)];
    for _ in 0..5 {
        mg.vcycle(&p);
        errors.push(error(&mg, &exact, singular));
    }
    let factors: Vec<f64> = errors.windows(2).map(|w| w[1] / w[0]).collect();
    let floor = 1e-5 * (n as f64 / 64.0).powi(2);
    let counted: Vec<f64> = (1..factors.len()).filter(|&k| errors[k + 1] > floor * errors[0]).map(|k| factors[k]).collect();
    // a cycle fast enough reaches the floor in two (the periodic box at 512²: 0.019 then 0.033,
    // landing just under it): the second factor is then the only one past the transient
    let worst = if counted.is_empty() { factors[1] } else { counted.iter().copied().fold(0.0, f64::max) };
    (factors, worst)
}

/// Closed and periodic boxes, 64² to 512²: under 0.1 a cycle, the textbook expectation of about a
/// digit per V-cycle on the Poisson model problem (Briggs, Henson & McCormick, A Multigrid
/// Tutorial, 2nd ed., SIAM 2000); measured 0.049-0.067 here with Gauss-Seidel smoothing, 0.031-0.048
/// with red-black SOR at 1.1 (`SMOOTH_OMEGA`). With an obstacle (a coarse cell is
/// solid only where all four fine ones are) the plain geometric coarsening does worse: measured
/// up to 0.255 at 256² (0.21 with SOR smoothing), held under 0.35, a bound of ours and not a
/// textbook one.
#[test]
fn the_v_cycle_contracts_the_error_at_every_size() {
    for n in [64, 128, 256, 512] {
        for (name, kinds, obstacle, bound) in [
            ("closed box", [BC_WALL; 4], false, 0.1),
            ("periodic box", [BC_PERIODIC; 4], false, 0.1),
            ("closed box with an obstacle", [BC_WALL; 4], true, 0.35),
        ] {
            let (factors, worst) = contraction(n, kinds, obstacle);
            eprintln!("{n}² {name}: factors {factors:.3?}, worst counted {worst:.3}");
            assert!(worst > 0.0, "{n}² {name}: no cycle counted");
            assert!(worst < bound, "{n}² {name}: a V-cycle contracted the error by only {worst:.3}, over {bound}");
        }
    }
}

/// An outflow side (p = 0 ghosts): before the coarse levels weighted their outflow neighbours
/// (`outflow_weight`), the cycle stalled as the grid grew (factors of cycles 2-5: 0.16-0.57 at 64²,
/// 0.68-0.71 at 256², 0.89-0.95 at 512²); now 0.37-0.40 at every size (0.35-0.37 with SOR
/// smoothing at 1.1; at 1.15 the fifth cycle at 128² gave 0.46, so 1.1 it is). Still well short of the
/// closed box's 0.06: the outflow's treatment on coarse levels is not yet the fine one's. Held
/// under 0.45 at every size, ours and not a textbook bound.
#[test]
fn an_outflow_side_does_not_stall_the_v_cycle() {
    for n in [64, 128, 256, 512] {
        let (factors, worst) = contraction(n, [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], false);
        eprintln!("{n}² outflow on top: factors {factors:.3?}, worst counted {worst:.3}");
        assert!(worst > 0.0 && worst < 0.45, "{n}² outflow on top: a V-cycle contracted the error by only {worst:.3}");
    }
}

/// The solver's own measure (shaders/solver_check.wgsl): max |r| over max |b| on level 0.
fn relative_residual(mg: &mut Mg, n0: usize) -> f64 {
    mg.residual(0);
    let max = |v: &[f32]| v[..n0].iter().fold(0.0f64, |m, x| m.max(x.abs() as f64));
    max(&mg.res) / max(&mg.rhs)
}

/// V-cycles from zero until the relative residual is at most 1e-4 (at most 60).
fn cycles_to_1e4(mut mg: Mg, p: &Params, n0: usize) -> (u32, f64) {
    for k in 1..=60 {
        mg.vcycle(p);
        let r = relative_residual(&mut mg, n0);
        if r <= 1e-4 {
            return (k, r);
        }
    }
    (u32::MAX, f64::NAN)
}

/// How many V-cycles from zero reach the solver's tolerance 1e-4 (issue 20, item 5), so that a
/// slower cycle fails even where it still contracts under the bounds above. A residual that falls
/// by rho a cycle needs ceil(log 1e-4 / log rho) cycles. rho is the worst factor the test above
/// measures, rounded up: 0.07 for the closed and periodic boxes (measured 0.049-0.067), 0.27 with
/// an obstacle (up to 0.255), so 4 and 8 cycles. With an outflow side the slowest error mode
/// (0.37-0.40 a cycle above) is a smooth one near the p = 0 side with a small residual: the
/// solver's measure falls as in the closed box (0.03-0.05 a cycle here), so the count is the
/// closed box's 4. No margin beyond the ceiling: the twin is deterministic, and the ceiling leaves
/// up to one cycle (measured: 3-4 cycles closed, periodic and outflow, 5-7 with an obstacle).
/// Each box is solved for a random x* (every frequency) and a smooth one (two Gaussians and a
/// long wave: mostly what the coarse levels must fix), and the worse count is held. Checked to
/// fail: one pre- and one post-smoothing sweep instead of two (5 cycles closed at 64², 9 with an
/// obstacle at 256²), and the outflow's coarse ghost weight set back to 1 (6 at 64², 14 at 256²).
#[test]
fn the_v_cycles_to_reach_1e_4_are_those_the_contraction_allows() {
    let cycles = |rho: f64| (1e-4f64.ln() / rho.ln()).ceil() as u32;
    for n in [64, 128, 256] {
        for (name, kinds, obstacle, rho) in [
            ("closed box", [BC_WALL; 4], false, 0.07),
            ("periodic box", [BC_PERIODIC; 4], false, 0.07),
            ("closed box with an obstacle", [BC_WALL; 4], true, 0.27),
            ("outflow on top", [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], false, 0.07),
        ] {
            let h = 1.0 / n as f32;
            let mut smooth = |i: usize, j: usize| {
                let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                let g = |cx: f32, cy: f32, r: f32| (-((x - cx).powi(2) + (y - cy).powi(2)) / (r * r)).exp();
                g(0.3, 0.7, 0.1) - 0.7 * g(0.65, 0.3, 0.15) + 0.3 * (std::f32::consts::TAU * x).cos()
            };
            let (random, p, _) = manufactured(n, kinds, obstacle, 5);
            let (random, r_random) = cycles_to_1e4(random, &p, n * n);
            let (smooth, p, _) = manufactured_from(n, kinds, obstacle, &mut smooth);
            let (smooth, r_smooth) = cycles_to_1e4(smooth, &p, n * n);
            let most = cycles(rho);
            eprintln!(
                "{n}² {name}: 1e-4 in {random} V-cycles (random x*, {r_random:.1e}), {smooth} (smooth x*, {r_smooth:.1e}); allowed {most} (rho {rho})"
            );
            assert!(
                random.max(smooth) <= most,
                "{n}² {name}: {random} and {smooth} V-cycles to 1e-4, more than the {most} that rho = {rho} allows"
            );
        }
    }
}

#[test]
fn the_cpu_twin_lays_out_the_levels_as_the_gpu_does() {
    for (nx, ny) in [(512, 512), (256, 192), (75, 61), (23, 17), (127, 64), (63, 63), (1000, 3), (16, 16), (17, 1)] {
        assert_eq!(levels(nx, ny), smokebox::sim::multigrid::levels(nx, ny), "{nx}x{ny}");
    }
}
