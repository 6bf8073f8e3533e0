//! Red-black relaxation across an odd periodic seam (issue 20, item 3), on the CPU twin: with an
//! odd cell count across a periodic side, two neighbours across the seam share a colour and are
//! updated in the same half-sweep. Measured against the even grid next to it.

mod common;
use common::*;
use smokebox::sim::cpu::multigrid::Mg;
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;

fn periodic(nx: usize, ny: usize, seed: u64) -> (Mg, Params) {
    let p = with_boundaries(box_params(nx, ny, 1.0 / ny as f32, 0.01), [BC_PERIODIC; 4]);
    let f = Fields::zeros(nx, ny);
    let mut mg = Mg::new(nx, ny);
    mg.setup(&f, &p);
    let mut rng = Rng::new(seed);
    let n0 = nx * ny;
    let mut b: Vec<f32> = (0..n0).map(|_| rng.signed()).collect();
    let mean = b.iter().sum::<f32>() / n0 as f32;
    b.iter_mut().for_each(|x| *x -= mean);
    mg.rhs[..n0].copy_from_slice(&b);
    (mg, p)
}

fn residual_max(mg: &mut Mg) -> f32 {
    mg.residual(0);
    let n0 = mg.levels[0].cells();
    mg.res[..n0].iter().fold(0.0, |m, r| m.max(r.abs()))
}

/// The relative residual every 20 SOR sweeps, 200 sweeps from zero.
fn sor_history(nx: usize, ny: usize, omega: f32) -> Vec<f32> {
    let (mut mg, _) = periodic(nx, ny, 3);
    let r0 = residual_max(&mut mg);
    (0..10)
        .map(|_| {
            for _ in 0..20 {
                mg.sweep(0, omega);
            }
            residual_max(&mut mg) / r0
        })
        .collect()
}

/// Before the seam's cells relaxed at ω = 1, 63x63 stalled at ω = 1.9 (relative residual 2-4
/// after 200 sweeps) and diverged at 1.95 (2.7e4); 127x64 at 1.95 was still at 0.1. Now every odd
/// box converges, each 20 sweeps cutting the residual, to within 20x of its even neighbour after
/// 200 sweeps at ω ≤ 1.5 and within 10 000x at 1.9-1.95: SOR is slower there, the seam line
/// being plain Gauss-Seidel (an exact colouring of an odd ring needs a third colour; not done).
#[test]
fn sor_converges_across_an_odd_periodic_seam() {
    for omega in [1.0f32, 1.5, 1.9, 1.95] {
        for ((nx, ny), (ex, ey)) in [((127, 64), (128, 64)), ((63, 63), (64, 64))] {
            let odd = sor_history(nx, ny, omega);
            let even = sor_history(ex, ey, omega);
            let show = |h: &[f32]| h.iter().map(|r| format!("{r:.1e}")).collect::<Vec<_>>().join(" ");
            eprintln!("ω {omega}: {nx}x{ny} {}\n        {ex}x{ey} {}", show(&odd), show(&even));
            for k in 2..odd.len() {
                assert!(
                    odd[k] < odd[k - 1],
                    "ω {omega} {nx}x{ny}: 20 sweeps did not cut the residual ({:.2e} -> {:.2e})",
                    odd[k - 1],
                    odd[k]
                );
            }
            let margin = if omega <= 1.5 { 20.0 } else { 1e4 };
            let last = odd.len() - 1;
            assert!(
                odd[last] < margin * even[last].max(1e-5),
                "ω {omega} {nx}x{ny}: {:.2e} after 200 sweeps, even grid {:.2e}",
                odd[last],
                even[last]
            );
        }
    }
}
