// The warm start of the pressure solve (src/sim/warm_start.rs). For a solve to a tolerance
// (`PAIR`), the start that minimises the energy-norm error for this step's system A p = b within
// the span of the last step's pressure p1, its change since the step before, d = p1 - p0
// (`p_prev`), and that change's own change, g = d - (p0 - p00) (`p_prev2`, the pressure two steps
// before):
//   x = a p1 + c d + e g,  G [a c e]^T = [p1·b  d·b  g·b]^T,  G the three's energy products.
// A pressure that changes smoothly in time is then extrapolated along its change and the change's
// bend (in `plume` at 128² the start's error is 1.5-3.8 times, median 2, below the pair's alone,
// on 200 dumped steps solved to 1e-6), and one that does not gets the best mix. Where g is
// (nearly) in the span of p1 and d (the steps after a start or a load without p_prev2, a flow
// changing at a steady rate) the third is dropped and the start is the pair's, a p1 + c d,
// from the 2 x 2 system; where p1 and d are (nearly) parallel (the first step, after a load
// without p0, a flow growing in place) that pair is ill-conditioned too, and the start is
// p1 scaled by β = clamp((p1·b) / (p1·Ap1), 0, 1) alone (0 when p1·Ap1 = 0). A solve of a fixed
// count always starts from β p1: there the start decides what is left behind (the teaching
// scene's 40 Jacobi sweeps, the equal-work races of BENCHMARKS.md), and it stays as it was.
// Why not the pressure as it is: an unconverged solve leaves divergence in the velocity that the
// next step sees again; started from the unscaled p1, a solver whose error operator flips sign
// (SOR with ω near 2, Jacobi with weight 1 and an odd count) applies it twice, and the two steps'
// errors grow together without bound. The energy-optimal start is never worse than a cold start
// (nor than β p1, nor than the pair's), so the error of each step's start is bounded by the error
// left over from the last plus the new forcing.
// A solve to a tolerance also needs max |b| over the fluid cells, its residual's scale: the sums
// take it on their way, and the scaling's first workgroup opens the solve's gate with it
// (`open_gate`), as solver_check.wgsl `reduce_rhs` and `gate_start` would in two dispatches more.
// Composed after multigrid/level.wgsl (stencil_count) and shared/nonfinite.wgsl, before
// solver_gate.wgsl; warm_start.wgsl (a cell or four a thread: shared/lanes1.wgsl, lanes4.wgsl)
// comes after it. Partial sums go to `partials` after the statistics' eight blocks
// (stats.wgsl), which a step with statistics holds across the solve: the five sums p1·b, d·b,
// p1·Ap1, p1·Ad, d·Ad, then max |b|, then (with `PAIR`) g·b, p1·Ag, d·Ag, g·Ag, at
// base() + [k GROUPS, (k + 1) GROUPS), k = 0..10.

@group(0) @binding(0) var<storage, read_write> partials: array<f32>;
// The solver's control words (solver_check.wgsl has their layout).
@group(0) @binding(1) var<storage, read_write> mg_control: array<u32>;

// Workgroups of the sums and their fold, as in stats.wgsl (src/sim/kernel/profile.rs `reduction_groups`).
override GROUPS: u32 = 64u;
override FOLD: u32 = 1u;
fn base() -> u32 { return 8u * GROUPS; }
// Invocations of a workgroup (src/sim/kernel/profile.rs `DeviceProfile::solver_workgroup`); at most 256.
override WG: u32 = 256u;
// The pair (p1, d) is used when sin² of its angle in the energy inner product is above this: the
// 2 x 2 system's determinant, relative to its diagonal, well clear of the sums' f32 round-off.
const MIN_SIN2: f32 = 1e-3;
// g is used when sin² of its angle to the span of p1 and d is above this (the 3 x 3 system's last
// pivot relative to g·Ag), for the same reason.
const MIN_SIN2_G: f32 = 1e-3;
// Whether the start is the three's (a solve to a tolerance) or β p1 alone (a fixed count, whose
// sums skip g and whose scaling leaves p_prev2 as it was).
override PAIR: bool = true;

// The sums: (p1·b, d·b, p1·Ap1, p1·Ad), d·Ad and max |b|; (g·b, p1·Ag, d·Ag, g·Ag).
// Each invocation keeps its running sums; the workgroup arrays are only a mailbox through which
// the upper half of the invocations still summing hands its sums to the lower half, MAIL at a
// time (and the fold's FOLD, at most 64, hand theirs to the first). Why not one slot an
// invocation: a browser's WebGPU clears workgroup memory for each dispatch, and SwiftShader
// compiles that clearing into code a scalar at a time; with 256 slots of the ten sums each of
// `measure_mg` and `scale` took 1.1-1.6 s to compile there (BENCHMARKS.md, "Where the time goes:
// the page"). Half the workgroup at most: no more slots than the upper half can fill.
override MAIL: u32 = min(WG / 2u, 64u);
var<workgroup> red_a: array<vec4<f32>, MAIL>;
var<workgroup> red_b: array<f32, MAIL>;
var<workgroup> red_m: array<f32, MAIL>;
var<workgroup> red_g: array<vec4<f32>, MAIL>;
var<workgroup> mix: vec3<f32>;
var<workgroup> rhs_max: f32;
var<workgroup> opened: u32;

struct Terms {
    a: vec4<f32>,
    b: f32,
    // max |b| (non-finite kept)
    m: f32,
    // g's: (g·b, p1·Ag, d·Ag, g·Ag), zero without `PAIR`
    g: vec4<f32>,
}

fn no_sums() -> Terms {
    return Terms(vec4<f32>(0.0), 0.0, 0.0, vec4<f32>(0.0));
}

fn finish_partials(lid: u32, wid: u32, mine: Terms) {
    // the tree of sums pairs invocation i with i + s, s = WG / 2, WG / 4, ... 1, as i's sum
    // plus i + s's
    var t = mine;
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        for (var r = 0u; r < s; r += MAIL) {
            if lid >= s + r && lid < s + r + MAIL {
                red_a[lid - s - r] = t.a;
                red_b[lid - s - r] = t.b;
                red_m[lid - s - r] = t.m;
                if PAIR { red_g[lid - s - r] = t.g; }
            }
            workgroupBarrier();
            if lid >= r && lid < min(r + MAIL, s) {
                t.a += red_a[lid - r];
                t.b += red_b[lid - r];
                t.m = max_nf(t.m, red_m[lid - r]);
                if PAIR { t.g += red_g[lid - r]; }
            }
            workgroupBarrier();
        }
    }
    if lid == 0u {
        for (var k = 0u; k < 4u; k++) { partials[base() + k * GROUPS + wid] = t.a[k]; }
        partials[base() + 4u * GROUPS + wid] = t.b;
        partials[base() + 5u * GROUPS + wid] = t.m;
        if PAIR {
            for (var k = 0u; k < 4u; k++) { partials[base() + (6u + k) * GROUPS + wid] = t.g[k]; }
        }
    }
}

fn add_terms(x: Terms, y: Terms) -> Terms {
    return Terms(x.a + y.a, x.b + y.b, max_nf(x.m, y.m), x.g + y.g);
}

// (a, c, e) of the start a p1 + c d + e g from the sums (see the top): the 3 x 3 system by
// elimination, the pair's 2 x 2 first (its solution is the start where g is dropped).
fn weights(p1b: f32, db: f32, e11: f32, e1d: f32, edd: f32, g: vec4<f32>) -> vec3<f32> {
    let r = p1b / e11;
    // r > 0 is false for NaN too
    let scaled = vec3<f32>(select(0.0, min(r, 1.0), e11 > 0.0 && r > 0.0), 0.0, 0.0);
    if !PAIR { return scaled; }
    let det = e11 * edd - e1d * e1d;
    let a = (p1b * edd - e1d * db) / det;
    let c = (e11 * db - e1d * p1b) / det;
    if !(e11 > 0.0 && edd > 0.0 && det > MIN_SIN2 * e11 * edd && finite(a) && finite(c)) {
        return scaled;
    }
    // g against the pair: (p1·Ag, d·Ag) through the pair's inverse, the last pivot and rhs
    // g = (g·b, p1·Ag, d·Ag, g·Ag)
    let u = vec2<f32>(edd * g.y - e1d * g.z, e11 * g.z - e1d * g.y) / det;
    let pivot = g.w - (u.x * g.y + u.y * g.z);
    let e = (g.x - (u.x * p1b + u.y * db)) / pivot;
    let three = vec3<f32>(a - e * u.x, c - e * u.y, e);
    if g.w > 0.0 && pivot > MIN_SIN2_G * g.w && all(vec3<bool>(finite(three.x), finite(three.y), finite(three.z))) {
        return three;
    }
    return vec3<f32>(a, c, 0.0);
}

// The start's (a, c, e), in every invocation of the workgroup: each workgroup of the scaling folds
// the partials itself (one dispatch, no second reduction stage; FOLD is at most the workgroup's
// size), as stats.wgsl `finish` does: FOLD runs in order, then their subtotals.
// With `PAIR`, max |b| goes to `rhs_max` on the way (for `open_gate`).
fn start_weights(lid: u32) -> vec3<f32> {
    if lid < FOLD {
        var t = no_sums();
        let run = GROUPS / FOLD;
        for (var k = lid * run; k < (lid + 1u) * run; k++) {
            let at = base() + k;
            let m = select(0.0, partials[at + 5u * GROUPS], PAIR);
            var g = vec4<f32>(0.0);
            if PAIR { g = vec4<f32>(partials[at + 6u * GROUPS], partials[at + 7u * GROUPS], partials[at + 8u * GROUPS], partials[at + 9u * GROUPS]); }
            t = add_terms(t, Terms(vec4<f32>(partials[at], partials[at + GROUPS], partials[at + 2u * GROUPS], partials[at + 3u * GROUPS]), partials[at + 4u * GROUPS], m, g));
        }
        red_a[lid] = t.a;
        red_b[lid] = t.b;
        red_m[lid] = t.m;
        red_g[lid] = t.g;
    }
    workgroupBarrier();
    if lid == 0u {
        var t = no_sums();
        for (var k = 0u; k < FOLD; k++) { t = add_terms(t, Terms(red_a[k], red_b[k], red_m[k], red_g[k])); }
        mix = weights(t.a.x, t.a.y, t.a.z, t.a.w, t.b, t.g);
        rhs_max = t.m;
    }
    return workgroupUniformLoad(&mix);
}

// A solve to a tolerance opens its gate in the scaling's first workgroup (after `start_weights`):
// what solver_check.wgsl `gate_start` writes, from the sums' max |b|.
fn open_gate(lid: u32) {
    if lid == 0u { opened = open_words(rhs_max); }
    put_args(lid, WG, workgroupUniformLoad(&opened), 0u);
}
