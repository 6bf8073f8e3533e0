// Statistics reduced on the GPU, read back asynchronously: max |divergence| before and after the
// pressure solve, total ink and kinetic energy. Fixed workgroup count and a fixed tree order, so a
// run gives the same figures every time.
//   partials[0 .. G)      max |div| before (from the divergence buffer)
//   partials[G .. 2G)     max |div| after projection (recomputed from u, v)
//   partials[2G .. 3G)    sum of ink over cells and channels
//   partials[3G .. 4G)    sum of u^2 over distinct u faces plus v^2 over distinct v faces
//   partials[4G .. 5G)    max |u| and |v| over all faces: the speed the CFL limit sizes sub-steps by
//   partials[5G .. 7G)    free
//   partials[7G .. 8G)    max |density| over cells: what buoyancy can add to the speed (sub-steps)
//   partials[8G .. 13G)   the warm start's five sums (warm_start.wgsl), between div before and after
//   stats[0..6]           the six totals (ink times the dye cell area, energy times rho h^2 / 2,
//                         max speed, max |density|)

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> divergence: array<f32>;
@group(0) @binding(3) var<storage, read> ink: array<f32>;
@group(0) @binding(4) var<storage, read> density: array<f32>;
@group(0) @binding(5) var<storage, read> solid: array<f32>;
@group(0) @binding(6) var<storage, read_write> partials: array<f32>;
@group(0) @binding(7) var<storage, read_write> stats: array<f32>;

// Workgroups of the first stage (src/sim/kernel/profile.rs `reduction_groups`): on a CPU adapter one a
// thread (more on large grids, at most 64), on a GPU 64 to 1024. `finish` folds their partials
// with FOLD invocations, each a run of GROUPS / FOLD in order, then the first the FOLD subtotals
// in order: with FOLD 1 (a CPU adapter) one serial fold.
override GROUPS: u32 = 64u;
override FOLD: u32 = 1u;
// Invocations a workgroup, a power of two up to 256: 256 on a GPU, 8 on a CPU adapter
// (src/sim/stats.rs `reduction`).
override WG: u32 = 256u;

var<workgroup> red: array<f32, WG>;

// The larger of a and b, or whichever is not finite (inf, NaN: told by its bits, as WGSL may assume
// floats finite), so a blown-up field reads as non-finite (JSON null), never as 0.
fn max_or_nonfinite(a: f32, b: f32) -> f32 {
    if (bitcast<u32>(a) & 0x7f800000u) == 0x7f800000u { return a; }
    if (bitcast<u32>(b) & 0x7f800000u) == 0x7f800000u { return b; }
    return max(a, b);
}

fn reduce_max(lid: u32) {
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red[lid] = max_or_nonfinite(red[lid], red[lid + s]); }
    }
    workgroupBarrier();
}

fn reduce_sum(lid: u32) {
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red[lid] = red[lid] + red[lid + s]; }
    }
    workgroupBarrier();
}

@compute @workgroup_size(WG)
fn div_before(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = cell_count();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        m = max_or_nonfinite(m, abs(divergence[c]));
    }
    red[lid.x] = m;
    reduce_max(lid.x);
    if lid.x == 0u { partials[wid.x] = red[0]; }
}

@compute @workgroup_size(WG)
fn div_after(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = cell_count();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        let i = i32(c % u32(nx()));
        let j = i32(c / u32(nx()));
        if !is_solid(i, j) {
            let d = (u_face_value(i + 1, j) - u_face_value(i, j) + v_face_value(i, j + 1) - v_face_value(i, j)) / params.h;
            m = max_or_nonfinite(m, abs(d));
        }
    }
    red[lid.x] = m;
    reduce_max(lid.x);
    if lid.x == 0u { partials[GROUPS + wid.x] = red[0]; }
}

// Total ink where INK_TOTAL (partials 2G), then the flow's figures. Built without it, the figures
// the next step's sub-steps are sized by (and the energy, from the same reads) alone: what the
// window reduces in the steps between its full figures (src/sim/stats.rs `Figures`).
override INK_TOTAL: bool = true;

@compute @workgroup_size(WG)
fn totals(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if INK_TOTAL {
        // ink over the dye grid's cells
        let n = cell_count() * u32(dye_k() * dye_k());
        var s = 0.0;
        for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
            s += ink[3u * c] + ink[3u * c + 1u] + ink[3u * c + 2u];
        }
        red[lid.x] = s;
        reduce_sum(lid.x);
        if lid.x == 0u { partials[2u * GROUPS + wid.x] = red[0]; }
        workgroupBarrier();
    }
    flow(lid.x, wid.x);
}

// Kinetic energy, max |u|, |v| and max |density|: partials 3G, 4G and 7G.
fn flow(lid: u32, wid: u32) {
    // distinct faces only: on a periodic axis the last face repeats the first
    let ux = select(u32(nx()) + 1u, u32(nx()), periodic_x());
    let vy = select(u32(ny()) + 1u, u32(ny()), periodic_y());
    let nu = ux * u32(ny());
    let nv = u32(nx()) * vy;
    var e = 0.0;
    var top = 0.0;
    for (var k = wid * WG + lid; k < nu + nv; k += GROUPS * WG) {
        var x = 0.0;
        if k < nu {
            x = u[(k / ux) * (u32(nx()) + 1u) + k % ux];
        } else {
            x = v[k - nu];
        }
        e += x * x;
        top = max_or_nonfinite(top, abs(x));
    }
    red[lid] = e;
    reduce_sum(lid);
    if lid == 0u { partials[3u * GROUPS + wid] = red[0]; }
    workgroupBarrier();
    red[lid] = top;
    reduce_max(lid);
    if lid == 0u { partials[4u * GROUPS + wid] = red[0]; }

    var heavy = 0.0;
    for (var c = wid * WG + lid; c < cell_count(); c += GROUPS * WG) {
        heavy = max_or_nonfinite(heavy, abs(density[c]));
    }
    workgroupBarrier();
    red[lid] = heavy;
    reduce_max(lid);
    if lid == 0u { partials[7u * GROUPS + wid] = red[0]; }
}

var<workgroup> folded: array<array<f32, 6>, FOLD>;

@compute @workgroup_size(FOLD)
fn finish(@builtin(local_invocation_id) lid: vec3<u32>) {
    var f = array<f32, 6>(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let run = GROUPS / FOLD;
    for (var g = lid.x * run; g < (lid.x + 1u) * run; g++) {
        f[0] = max_or_nonfinite(f[0], partials[g]);
        f[1] = max_or_nonfinite(f[1], partials[GROUPS + g]);
        f[2] += partials[2u * GROUPS + g];
        f[3] += partials[3u * GROUPS + g];
        f[4] = max_or_nonfinite(f[4], partials[4u * GROUPS + g]);
        f[5] = max_or_nonfinite(f[5], partials[7u * GROUPS + g]);
    }
    folded[lid.x] = f;
    workgroupBarrier();
    if lid.x != 0u { return; }
    var t = array<f32, 6>(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (var k = 0u; k < FOLD; k++) {
        let o = folded[k];
        t[0] = max_or_nonfinite(t[0], o[0]);
        t[1] = max_or_nonfinite(t[1], o[1]);
        t[2] += o[2];
        t[3] += o[3];
        t[4] = max_or_nonfinite(t[4], o[4]);
        t[5] = max_or_nonfinite(t[5], o[5]);
    }
    let h2 = params.h * params.h;
    stats[0] = t[0];
    stats[1] = t[1];
    stats[2] = t[2] * dye_h() * dye_h();
    stats[3] = 0.5 * params.rho * h2 * t[3];
    stats[4] = t[4];
    stats[5] = t[5];
}
