// Conjugate gradients on multigrid level 0's operator, preconditioned by one V-cycle (MGPCG:
// McAdams, Sifakis & Teran 2010). Plain V-cycles lose their contraction on obstacles of thin
// walls, whose coarse grids cannot see a one-cell wall with a gap; CG recovers the few modes
// the V-cycle gets wrong. CPU twin: src/sim/cpu/mgpcg.rs (the method and why each step is as it
// is); Rust: src/sim/mgpcg.rs.
//
// The solve is for the pressure's correction (multigrid/plain.wgsl `load`, multigrid/setup.wgsl has why): the iterate x, from
// zero, lives in `pcg` while the V-cycles use level 0's x (`mg_x`, the correction buffer dp) for
// z, and the residual r is level 0's rhs, which they read. One iteration: the V-cycle
// (z = V(r), mg_x from zero), then
//   `measure`:   partial sums of z·q, Σz and the fluid cells (q: the last direction's A d);
//   `direction`: β = −z·q / d·q (0 first), d = z − mean(z) + β d (the mean only where no side
//                is an outflow, the operator's null space the constants); mg_x = 0 again;
//   `apply`:     q = A d, r = b − A x afresh (no drift from the true residual); partial sums of
//                d·q and r·d;
//   `update`:    α = r·d / d·q; x += α d, r −= α q; partial max |r| for the gate
//                (solver_reduce.wgsl), which the check after it folds.
// `start` (once a solve, after the load): b = rhs, x = 0 (r = b is the rhs as loaded); the solver
// copies x into dp after the last unit (src/sim/solver.rs).
// Every kernel is a reduction's shape: GROUPS workgroups of WG invocations striding over the cells.

@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read_write> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(4) var<storage, read_write> mg_control: array<u32>;
// x, d, q and b, n words each (`X`, `D`, `Q`, `B`)
@group(0) @binding(5) var<storage, read_write> pcg: array<f32>;
// partial sums of `measure` (3 GROUPS words) and of `apply` (2 GROUPS), then the last d·q
@group(0) @binding(6) var<storage, read_write> pcg_sums: array<f32>;

fn cells() -> u32 { return level.nx * level.ny; }
fn X() -> u32 { return 0u; }
fn D() -> u32 { return cells(); }
fn Q() -> u32 { return 2u * cells(); }
fn B() -> u32 { return 3u * cells(); }
fn APPLY_SUMS() -> u32 { return 3u * GROUPS; }
fn LAST_DQ() -> u32 { return 5u * GROUPS; }

var<workgroup> red_sum: array<vec3<f32>, WG>;
var<workgroup> folded: vec3<f32>;

// The workgroup's sum of v (every invocation's), in every invocation.
fn workgroup_sum(lid: u32, v: vec3<f32>) -> vec3<f32> {
    red_sum[lid] = v;
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red_sum[lid] += red_sum[lid + s]; }
    }
    workgroupBarrier();
    if lid == 0u { folded = red_sum[0]; }
    return workgroupUniformLoad(&folded);
}

// `k` partial sums (at most 3) of the GROUPS at `at`, `at` + GROUPS, ..., in every invocation.
fn fold(lid: u32, at: u32, k: u32) -> vec3<f32> {
    var t = vec3<f32>(0.0);
    for (var g = lid; g < GROUPS; g += WG) {
        for (var c = 0u; c < k; c++) { t[c] += pcg_sums[at + c * GROUPS + g]; }
    }
    return workgroup_sum(lid, t);
}

// The workgroup's share of `k` sums into the partials at `at`.
fn put_sums(lid: u32, wid: u32, at: u32, k: u32, v: vec3<f32>) {
    let t = workgroup_sum(lid, v);
    if lid == 0u {
        for (var c = 0u; c < k; c++) { pcg_sums[at + c * GROUPS + wid] = t[c]; }
    }
}

fn fluid_cell(s: u32) -> bool { return stencil_count(s) > 0.0; }

// Cell c's neighbours (left, right, below, above), wrapped (read only where the stencil says
// fluid).
fn neighbours(c: u32) -> array<u32, 4> {
    let w = i32(level.nx);
    let h = i32(level.ny);
    let i = i32(c % level.nx);
    let j = i32(c / level.nx);
    return array<u32, 4>(
        u32(j * w + select(i - 1, w - 1, i == 0)),
        u32(j * w + select(i + 1, 0, i == w - 1)),
        u32(select(j - 1, h - 1, j == 0) * w + i),
        u32(select(j + 1, 0, j == h - 1) * w + i),
    );
}

// The difference form of multigrid/plain.wgsl `lanes_residual` without its rhs, −(A v)_c: the
// fluid neighbours' differences v_nb − v_c and the outflow ghosts' share, from v at the cell
// (`vc`) and its neighbours (`vn`, where the stencil s has them).
fn differences(s: u32, vc: f32, vn: vec4<f32>) -> f32 {
    var d = 0.0;
    var fluid = 0.0;
    for (var k = 0u; k < 4u; k++) {
        if (s & (1u << k)) != 0u {
            d += vn[k] - vc;
            fluid += 1.0;
        }
    }
    return d - (stencil_count(s) - fluid) * outflow_weight(0u) * vc;
}

// The vector at `base` of `pcg` at cells `at`.
fn pcg_at(base: u32, at: array<u32, 4>) -> vec4<f32> {
    return vec4<f32>(pcg[base + at[0]], pcg[base + at[1]], pcg[base + at[2]], pcg[base + at[3]]);
}

@compute @workgroup_size(WG)
fn start(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    for (var c = wid.x * WG + lid.x; c < cells(); c += GROUPS * WG) {
        pcg[B() + c] = mg_rhs[c];
        pcg[X() + c] = 0.0;
        pcg[D() + c] = 0.0;
        pcg[Q() + c] = 0.0;
    }
    if wid.x == 0u && lid.x == 0u { pcg_sums[LAST_DQ()] = 0.0; }
}

@compute @workgroup_size(WG)
fn measure(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = vec3<f32>(0.0);
    for (var c = wid.x * WG + lid.x; c < cells(); c += GROUPS * WG) {
        if fluid_cell(mg_stencil[c]) { t += vec3<f32>(mg_x[c] * pcg[Q() + c], mg_x[c], 1.0); }
    }
    put_sums(lid.x, wid.x, 0u, 3u, t);
}

@compute @workgroup_size(WG)
fn direction(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let m = fold(lid.x, 0u, 3u);
    let dq = pcg_sums[LAST_DQ()];
    let beta = select(0.0, -m.x / dq, dq > 0.0);
    let singular = !any(params.bc_kind == vec4<u32>(BC_OUTFLOW));
    let mean = select(0.0, m.y / max(m.z, 1.0), singular);
    for (var c = wid.x * WG + lid.x; c < cells(); c += GROUPS * WG) {
        if fluid_cell(mg_stencil[c]) { pcg[D() + c] = (mg_x[c] - mean) + beta * pcg[D() + c]; }
        mg_x[c] = 0.0;
    }
}

@compute @workgroup_size(WG)
fn apply(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = vec3<f32>(0.0);
    for (var c = wid.x * WG + lid.x; c < cells(); c += GROUPS * WG) {
        let s = mg_stencil[c];
        if fluid_cell(s) {
            let at = neighbours(c);
            let d = pcg[D() + c];
            let q = -differences(s, d, pcg_at(D(), at));
            let r = pcg[B() + c] + differences(s, pcg[X() + c], pcg_at(X(), at));
            pcg[Q() + c] = q;
            mg_rhs[c] = r;
            t += vec3<f32>(d * q, r * d, 0.0);
        }
    }
    put_sums(lid.x, wid.x, APPLY_SUMS(), 2u, t);
}

@compute @workgroup_size(WG)
fn update(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let m = fold(lid.x, APPLY_SUMS(), 2u);
    let alpha = select(0.0, m.y / m.x, m.x > 0.0);
    var top = 0.0;
    for (var c = wid.x * WG + lid.x; c < cells(); c += GROUPS * WG) {
        if fluid_cell(mg_stencil[c]) {
            pcg[X() + c] += alpha * pcg[D() + c];
            let r = mg_rhs[c] - alpha * pcg[Q() + c];
            mg_rhs[c] = r;
            top = max_nf(top, abs(r));
        }
    }
    if wid.x == 0u && lid.x == 0u { pcg_sums[LAST_DQ()] = m.x; }
    finish_partial(lid.x, wid.x, top);
}
