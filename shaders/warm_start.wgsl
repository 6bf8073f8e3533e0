// The warm start of the pressure solve (src/sim/warm_start.rs): the last step's pressure p0, scaled
// by the β that minimises the energy-norm error of β p0 for this step's system A p = b,
//   β = clamp((p0 · b) / (p0 · A p0), 0, 1)
// (0 when p0 · A p0 = 0). An unconverged solve leaves divergence in the velocity that the next step
// sees again; started from the unscaled p0, a solver whose error operator flips sign (SOR with ω
// near 2, Jacobi with weight 1 and an odd count) applies it twice, and the two steps' errors grow
// together without bound. β p0 is never worse than a cold start, so the error of each step's start
// is bounded by the error left over from the last plus the new forcing.
// Composed after multigrid_level.wgsl (stencil_count). Partial sums go to `partials` after the
// statistics' five blocks (stats.wgsl), which a step with statistics holds across the solve:
// p·b at base() + [0, GROUPS), p·Ap at base() + [GROUPS, 2 GROUPS).

// Bindings (numbers: `slot` in src/sim/kernel.rs).
@group(0) @binding(3) var<storage, read_write> p: array<f32>;
@group(0) @binding(4) var<storage, read> divergence: array<f32>;
@group(0) @binding(14) var<storage, read_write> partials: array<f32>;
@group(0) @binding(17) var<storage, read> stencil: array<u32>;
@group(0) @binding(18) var<storage, read> level: Level;
@group(0) @binding(23) var<storage, read> mg_stencil: array<u32>;

// Workgroups of the sums and their fold, as in stats.wgsl (src/sim/kernel.rs `reduction_groups`).
override GROUPS: u32 = 64u;
override FOLD: u32 = 1u;
fn base() -> u32 { return 5u * GROUPS; }
// Invocations of a workgroup (src/sim/kernel.rs `solver_workgroup`); at most 256.
override WG: u32 = 256u;

var<workgroup> red_pb: array<f32, 256>;
var<workgroup> red_pap: array<f32, 256>;
var<workgroup> beta: f32;

// (p_c b_c, p_c's share of p·Ap) of fluid cell c with packed stencil s. p·Ap is a sum of squares
// over the stencil's edges, each taken once (from its left or bottom cell), plus p_c² per outflow
// ghost: positive term by term, with no cancellation of a large constant in p.
fn cell_terms(c: u32, s: u32) -> vec2<f32> {
    let count = stencil_count(s);
    if count == 0.0 { return vec2<f32>(0.0); }
    let w = nx();
    let i = i32(c % u32(nx()));
    let j = i32(c / u32(nx()));
    let pc = p[c];
    var fluid = 0.0;
    var edges = 0.0;
    if (s & STENCIL_LEFT) != 0u { fluid += 1.0; }
    if (s & STENCIL_BOTTOM) != 0u { fluid += 1.0; }
    if (s & STENCIL_RIGHT) != 0u {
        let d = p[u32(j * w + select(i + 1, 0, i == w - 1))] - pc;
        edges += d * d;
        fluid += 1.0;
    }
    if (s & STENCIL_TOP) != 0u {
        let d = p[u32(select(j + 1, 0, j == ny() - 1) * w + i)] - pc;
        edges += d * d;
        fluid += 1.0;
    }
    let b = -params.rho * params.h * params.h * divergence[c] / params.dt;
    return vec2<f32>(pc * b, edges + (count - fluid) * pc * pc);
}

fn finish_partials(lid: u32, wid: u32, t: vec2<f32>) {
    red_pb[lid] = t.x;
    red_pap[lid] = t.y;
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s {
            red_pb[lid] += red_pb[lid + s];
            red_pap[lid] += red_pap[lid + s];
        }
    }
    workgroupBarrier();
    if lid == 0u {
        partials[base() + wid] = red_pb[0];
        partials[base() + GROUPS + wid] = red_pap[0];
    }
}

// The sums with the Jacobi solver's stencil (pressure.wgsl `stencil_pack`).
@compute @workgroup_size(WG)
fn measure_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = vec2<f32>(0.0);
    for (var c = wid.x * WG + lid.x; c < cell_count(); c += GROUPS * WG) { t += cell_terms(c, stencil[c]); }
    finish_partials(lid.x, wid.x, t);
}

// The sums with multigrid level 0's stencil (multigrid and SOR; the same packing).
@compute @workgroup_size(WG)
fn measure_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = vec2<f32>(0.0);
    for (var c = wid.x * WG + lid.x; c < cell_count(); c += GROUPS * WG) { t += cell_terms(c, mg_stencil[level.off + c]); }
    finish_partials(lid.x, wid.x, t);
}

// p *= β, each workgroup folding the partials itself (one dispatch, no second reduction stage;
// FOLD is at most the workgroup's size).
@compute @workgroup_size(WG)
fn scale(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    // the partials folded as stats.wgsl `finish` does: FOLD runs in order, then their subtotals
    if lid.x < FOLD {
        var t = vec2<f32>(0.0);
        let run = GROUPS / FOLD;
        for (var k = lid.x * run; k < (lid.x + 1u) * run; k++) {
            t += vec2<f32>(partials[base() + k], partials[base() + GROUPS + k]);
        }
        red_pb[lid.x] = t.x;
        red_pap[lid.x] = t.y;
    }
    workgroupBarrier();
    if lid.x == 0u {
        var pb = 0.0;
        var pap = 0.0;
        for (var k = 0u; k < FOLD; k++) {
            pb += red_pb[k];
            pap += red_pap[k];
        }
        let r = pb / pap;
        // r > 0 is false for NaN too
        beta = select(0.0, min(r, 1.0), pap > 0.0 && r > 0.0);
    }
    let b = workgroupUniformLoad(&beta);
    let n = cell_count();
    for (var c = wid.x * WG + lid.x; c < n; c += groups.x * WG) { p[c] *= b; }
}
