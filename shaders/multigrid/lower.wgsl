// The bottom of a CPU adapter's V-cycle in one dispatch: the level just above the coarse solve
// (the bound `level`, at most LOWER_CELLS cells: src/sim/multigrid.rs `lower_level`) smoothed,
// restricted, solved below by the coarse solve (multigrid/coarse_levels.wgsl), corrected and
// smoothed again, by one workgroup with barriers between the steps. The same steps in the same
// order, with the same arithmetic, as the plain passes multigrid/plain.wgsl `half_sweep` (red, black),
// `restriction`, multigrid/coarse.wgsl and multigrid/quad.wgsl `add`, so the result is theirs bit for bit. Why: on
// lavapipe every dispatch wakes the compute threads and waits for them (60-100 µs on a 2-core
// VM), and at 64² the ten dispatches of such a level did little else; one thread does the
// level's work in less than their waits (BENCHMARKS.md, "Where the time goes: lavapipe").

// The coarse levels' rhs and stencils (multigrid/coarse_levels.wgsl), copied in beside sx.
var<workgroup> srhs: array<f32, 1280>;
var<workgroup> sst: array<u32, 1280>;

fn s_rhs(c: u32) -> f32 { return srhs[c]; }
fn s_set_rhs(c: u32, value: f32) { srhs[c] = value; }
fn s_st(c: u32) -> u32 { return sst[c]; }

// Sweeps before and after the coarse correction (src/sim/levels.rs PRE_SMOOTH, POST_SMOOTH).
const PRE_SMOOTH: u32 = 2u;
const POST_SMOOTH: u32 = 2u;

// A half-sweep of this level in place, a quad an invocation at a time.
fn lower_half(lid: u32, parity: u32) {
    let w = u32(row_units());
    for (var t = lid; t < w * level.ny; t += WG) {
        sweep_at(i32(t % w), i32(t / w), parity, SMOOTH_OMEGA);
    }
    storageBarrier();
}

fn lower_sweeps(lid: u32, n: u32) {
    for (var k = 0u; k < n; k++) {
        lower_half(lid, 0u);
        lower_half(lid, 1u);
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_id) lid3: vec3<u32>) {
    let lid = lid3.x;
    lower_sweeps(lid, PRE_SMOOTH);
    // `restriction`: the coarse level's rhs, and its x zeroed
    let cw = level.coarse_nx / 4u;
    for (var t = lid; t < cw * level.coarse_ny; t += WG) {
        restriction_at(i32(t % cw), i32(t / cw));
    }
    storageBarrier();
    // the coarse solve, as multigrid/coarse.wgsl `main` (x is zero after the restriction)
    let n = FIRST_NX * FIRST_NY;
    for (var c = lid; c < n; c += WG) {
        sx[c] = 0.0;
        let k = level.coarse_off + c;
        srhs[c] = mg_rhs[k / 4u][k % 4u];
    }
    for (var c = lid; c < s_off(LAST) + BOTTOM_NX * BOTTOM_NY; c += WG) {
        let k = level.coarse_off + c;
        sst[c] = mg_stencil[k / 4u][k % 4u];
    }
    coarse_vcycle(lid);
    // x back a quad at a time (the coarse level's rows are whole quads)
    for (var t = lid; t < n / 4u; t += WG) {
        mg_xc[level.coarse_x_off / 4u + t] = vec4<f32>(sx[4u * t], sx[4u * t + 1u], sx[4u * t + 2u], sx[4u * t + 3u]);
    }
    storageBarrier();
    // `add`, then the post-smoothing
    let w = u32(row_units());
    for (var t = lid; t < w * level.ny; t += WG) {
        let q = i32(t % w);
        let j = i32(t / w);
        mg_x[x_row(j) + q] = prolonged(q, j);
    }
    storageBarrier();
    lower_sweeps(lid, POST_SMOOTH);
}
