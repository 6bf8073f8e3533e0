//! The curl view (key 8): the colour of a known vortex's sign at its centre, the curl the shader
//! draws against its CPU twin (src/render/curl.rs), and that twin against the analytic curl of a
//! Taylor–Green flow, at second order.

mod common;

use smokebox::render::curl::cell_curl;
use smokebox::render::{CURL_CLOCKWISE, CURL_COUNTER_CLOCKWISE, Overlays, render_rgba};
use smokebox::sim::Simulation;
use smokebox::sim::fields::Fields;

const BLACK: [f32; 3] = [0.0, 0.0, 0.0];

/// The curl view alone over black, the tint at full opacity, |ω| = `range` at full colour.
fn curl_only(range: f32) -> Overlays {
    Overlays {
        ink: false,
        grid_lines: false,
        numbers: false,
        curl: true,
        curl_auto: false,
        curl_range: range,
        tint_opacity: 1.0,
        ..Default::default()
    }
}

/// Lamb–Oseen vortices (circulation `gamma`, core radius `rc`, in cells) at `centres` (cells):
/// the edge velocities sampled at the faces. Positive circulation turns counter-clockwise.
fn vortices(nx: usize, ny: usize, h: f32, list: &[([f32; 2], f32)], rc: f32) -> Fields {
    let mut f = Fields::zeros(nx, ny);
    let vel = |x: f32, y: f32| {
        let (mut u, mut v) = (0.0, 0.0);
        for &([cx, cy], gamma) in list {
            let (dx, dy) = (x - cx, y - cy);
            let r2 = (dx * dx + dy * dy).max(1e-12);
            // azimuthal speed Γ / (2π r) (1 − e^(−r²/rc²)), in cells: (−dy, dx) / r its direction
            let s = gamma / (2.0 * std::f32::consts::PI * r2) * (1.0 - (-r2 / (rc * rc)).exp());
            u += -dy * s;
            v += dx * s;
        }
        (u * h, v * h)
    };
    for j in 0..ny {
        for i in 0..=nx {
            let n = f.ui(i, j);
            f.u[n] = vel(i as f32, j as f32 + 0.5).0;
        }
    }
    for j in 0..=ny {
        for i in 0..nx {
            let n = f.vi(i, j);
            f.v[n] = vel(i as f32 + 0.5, j as f32).1;
        }
    }
    f
}

fn pixel(rgba: &[u8], w: u32, x: u32, y_from_top: u32) -> [u8; 3] {
    let n = 4 * (y_from_top * w + x) as usize;
    [rgba[n], rgba[n + 1], rgba[n + 2]]
}

/// Which tint a pixel shows: +1 purple (counter-clockwise), −1 green (clockwise), 0 neither.
fn sign_of(c: [u8; 3]) -> i32 {
    let [r, g, b] = c.map(i32::from);
    if b > g + 40 && r > g + 20 {
        1
    } else if g > r + 40 && g > b + 40 {
        -1
    } else {
        0
    }
}

/// A counter-clockwise vortex on the left and a clockwise one on the right: purple at the left
/// centre, green at the right, as the legend says; swapped when the circulations are.
#[test]
fn a_vortex_shows_its_turning_sense_at_its_centre() {
    let gpu = common::gpu();
    let (nx, ny, h) = (48, 32, 0.02);
    for flip in [1.0f32, -1.0] {
        let f = vortices(nx, ny, h, &[([12.0, 16.0], 40.0 * flip), ([36.0, 16.0], -40.0 * flip)], 4.0);
        let sim = Simulation::new(&gpu, &f, common::box_params(nx, ny, h, 0.01), Default::default()).unwrap();
        let w = cell_curl(&f.u, &f.v, nx, ny, h);
        let range = w.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let (pw, ph) = (nx as u32 * 8, ny as u32 * 8);
        let rgba = render_rgba(&sim, &curl_only(range), BLACK, pw, ph);
        image::save_buffer(
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("curl_vortices_{flip}.png")),
            &rgba,
            pw,
            ph,
            image::ExtendedColorType::Rgba8,
        )
        .unwrap();
        // the centres, y counted from the top of the image
        let left = pixel(&rgba, pw, 12 * 8, ph - 16 * 8);
        let right = pixel(&rgba, pw, 36 * 8, ph - 16 * 8);
        let (want_left, want_right) = if flip > 0.0 { (1, -1) } else { (-1, 1) };
        assert_eq!(sign_of(left), want_left, "left vortex (circulation {}): {left:?}", 40.0 * flip);
        assert_eq!(sign_of(right), want_right, "right vortex (circulation {}): {right:?}", -40.0 * flip);
        // far from both cores the curl is nearly zero: close to black
        let corner = pixel(&rgba, pw, 4, 4);
        assert!(corner.iter().all(|&c| c < 90), "corner {corner:?}");
    }
}

/// The colour of every cell's centre pixel, decoded back to ω through the tint (√|t| over black,
/// gamma 2.2): the curl the shader drew, against `cell_curl`.
#[test]
fn the_drawn_curl_is_the_cpu_curl() {
    let gpu = common::gpu();
    let (nx, ny, h) = (40, 24, 0.05);
    let f = vortices(nx, ny, h, &[([10.0, 12.0], 30.0), ([27.0, 9.0], -20.0), ([30.0, 19.0], 12.0)], 3.0);
    let sim = Simulation::new(&gpu, &f, common::box_params(nx, ny, h, 0.01), Default::default()).unwrap();
    let w = cell_curl(&f.u, &f.v, nx, ny, h);
    let range = w.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    // odd: the centre pixel lies 2.5 px from both sides of a cell, clear of the walls' 2 px rim
    let s = 5u32;
    let (pw, ph) = (nx as u32 * s, ny as u32 * s);
    let rgba = render_rgba(&sim, &curl_only(range), BLACK, pw, ph);
    let mut worst = (0.0f32, String::new());
    for j in 0..ny {
        for i in 0..nx {
            let c = pixel(&rgba, pw, i as u32 * s + s / 2, ph - 1 - (j as u32 * s + s / 2));
            let t = w[j * nx + i] / range;
            // the channel that carries the tint most: blue of purple, green of green
            let (channel, tint) = if t >= 0.0 { (2, CURL_COUNTER_CLOCKWISE[2]) } else { (1, CURL_CLOCKWISE[1]) };
            let weight = (c[channel] as f32 / 255.0).powf(2.2) / tint;
            let drawn = weight * weight * t.signum();
            if (drawn - t).abs() > worst.0 {
                worst = ((drawn - t).abs(), format!("cell ({i}, {j}): ω/range {t:.3}, drawn {drawn:.3} {c:?}"));
            }
            if t.abs() > 0.2 {
                assert_eq!(sign_of(c), t.signum() as i32, "cell ({i}, {j}): ω/range {t:.3} drawn {c:?}");
            }
        }
    }
    println!("drawn against CPU curl: worst {:.4} of the range ({})", worst.0, worst.1);
    assert!(worst.0 < 0.03, "the drawn curl differs from the CPU's by up to {:.4} of the range: {}", worst.0, worst.1);
}

/// Taylor–Green: u = sin x cos y, v = −cos x sin y has ω = 2 sin x sin y. The cell curl from the
/// MAC edges matches it at second order: the error falls about fourfold as h halves.
#[test]
fn the_cpu_curl_matches_taylor_green_at_second_order() {
    let error = |n: usize| {
        let h = 2.0 * std::f64::consts::PI / n as f64;
        let mut f = Fields::zeros(n, n);
        for j in 0..n {
            for i in 0..=n {
                let k = f.ui(i, j);
                let (x, y) = (i as f64 * h, (j as f64 + 0.5) * h);
                f.u[k] = (x.sin() * y.cos()) as f32;
            }
        }
        for j in 0..=n {
            for i in 0..n {
                let k = f.vi(i, j);
                let (x, y) = ((i as f64 + 0.5) * h, j as f64 * h);
                f.v[k] = (-x.cos() * y.sin()) as f32;
            }
        }
        let w = cell_curl(&f.u, &f.v, n, n, h as f32);
        let mut worst = 0.0f64;
        // away from the rim, where clamped faces drop a difference
        for j in 1..n - 1 {
            for i in 1..n - 1 {
                let (x, y) = ((i as f64 + 0.5) * h, (j as f64 + 0.5) * h);
                worst = worst.max((w[j * n + i] as f64 - 2.0 * x.sin() * y.sin()).abs());
            }
        }
        worst
    };
    let (coarse, fine) = (error(32), error(64));
    // about h² / 2 at h = 2π / 32 (the corners' central differences and their mean)
    assert!(coarse < 0.03, "error at 32²: {coarse:e}");
    let order = (coarse / fine).log2();
    assert!((1.8..2.3).contains(&order), "order {order:.2} (errors {coarse:e}, {fine:e})");
}
