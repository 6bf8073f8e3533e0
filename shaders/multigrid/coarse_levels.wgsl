// Shared by the passes that run the coarse levels' V-cycle in workgroup memory
// (multigrid/coarse.wgsl, multigrid/lower.wgsl; composed after multigrid/level.wgsl): the levels
// from the first coarse one down (every side at most 32, the bottom at most 16,
// src/sim/multigrid.rs), one V-cycle of them run by one workgroup with barriers between the
// steps: two smoothing sweeps (red-black SOR at SMOOTH_OMEGA), residual restricted to the next
// level, the bottom solved exactly (x = M rhs, M its operator's inverse from the set-up:
// multigrid/bottom.wgsl; while that is not ready, BOTTOM_SWEEPS SOR sweeps), then back up with
// prolongation and two sweeps. The same steps in the
// same order as the per-level passes (src/sim/cpu/multigrid.rs `coarse_pass`). The pass loads x
// into `sx` and stores it back.

// The bottom level's inverse operator by columns, a quad of rows a load (multigrid/bottom.wgsl):
// its ready flag from the buffer, its columns from their copy in a texture (texel (t, j) = quad t
// of column j, `to_texture`). Why: lavapipe reads storage lane by lane but gathers a texture's
// texels in one pass over the lanes, and the product reads the whole of M, 64K words at 16²; from
// the buffer it was about 5 % of a 128² step on a CPU adapter, from the texture about 1 %
// (BENCHMARKS.md, "Where the time goes: lavapipe").
@group(0) @binding(0) var<storage, read> mg_bottom: array<vec4<f32>>;
@group(0) @binding(1) var bottom_tex: texture_2d<f32>;

// Invocations of the one workgroup (src/sim/kernel/profile.rs `DeviceProfile::solver_workgroup`).
override WG: u32 = 256u;
// The levels this dispatch solves, compiled in (src/sim/multigrid.rs `coarse_constants`): the
// first and the bottom (the last level), the same one when there is one level here. At most two:
// a level that fits 32 x 32 coarsens to one within the bottom's 16 x 16 (a device profile may
// start the solve at the bottom: `DeviceProfile::coarse_side`). Known sizes let the
// compiler turn every index, wrap and division by a side into constants: a CPU adapter runs this
// one workgroup on one thread, where that was most of its cost.
override FIRST: u32 = 0u;
override LAST: u32 = 0u;
override FIRST_NX: u32 = 1u;
override FIRST_NY: u32 = 1u;
override BOTTOM_NX: u32 = 1u;
override BOTTOM_NY: u32 = 1u;
// Cells of the levels here, sx's length (src/sim/multigrid/levels.rs COARSE_CELLS at most): a
// browser's WebGPU clears workgroup memory at every dispatch.
override COARSE_CELLS: u32 = 1280u;
const BOTTOM_SWEEPS: u32 = 48u;
const BOTTOM_OMEGA: f32 = 1.6;

var<workgroup> sx: array<f32, COARSE_CELLS>;
// The levels' rhs and stencils, by the same index as sx, come from the pass's own file:
// `s_rhs(c)`, `s_set_rhs(c, value)` (the restriction's, on the bottom) and `s_st(c)`.

// Side lengths of level k (the first or the bottom).
fn s_nx(k: u32) -> u32 { return select(BOTTOM_NX, FIRST_NX, k == FIRST); }
fn s_ny(k: u32) -> u32 { return select(BOTTOM_NY, FIRST_NY, k == FIRST); }
// Offset of level k in sx (and in the rhs and stencils by `s_rhs`, `s_st`).
fn s_off(k: u32) -> u32 { return select(FIRST_NX * FIRST_NY, 0u, k == FIRST); }

fn s_residual(k: u32, i: i32, j: i32, s: u32) -> f32 {
    let w = i32(s_nx(k));
    let h = i32(s_ny(k));
    let base = s_off(k);
    let xc = sx[base + u32(j * w + i)];
    var d = 0.0;
    var fluid = 0.0;
    if (s & STENCIL_LEFT) != 0u { d += sx[base + u32(j * w + select(i - 1, w - 1, i == 0))] - xc; fluid += 1.0; }
    if (s & STENCIL_RIGHT) != 0u { d += sx[base + u32(j * w + select(i + 1, 0, i == w - 1))] - xc; fluid += 1.0; }
    if (s & STENCIL_BOTTOM) != 0u { d += sx[base + u32(select(j - 1, h - 1, j == 0) * w + i)] - xc; fluid += 1.0; }
    if (s & STENCIL_TOP) != 0u { d += sx[base + u32(select(j + 1, 0, j == h - 1) * w + i)] - xc; fluid += 1.0; }
    return s_rhs(base + u32(j * w + i)) + (d - (stencil_count(s) - fluid) * outflow_weight(k) * xc);
}

// Cell t of colour c on a w x h level: red and black (c < 2) take the t-th cell of the colour, row
// j, i = 2x or 2x + 1; the seam's (multigrid/level.wgsl `colour`) take seam column cell (w - 1, t),
// then seam row cell (t - h, h - 1) short of the corner (the column has it). x < 0: no cell of
// that colour.
fn s_cell(c: i32, t: u32, w: i32, h: i32) -> vec2<i32> {
    var g = vec2<i32>(w - 1, i32(t));
    if c < 2 {
        let half = u32(w + 1) / 2u;
        let j = i32(t / half);
        g = vec2<i32>(2 * i32(t % half) + ((j + c) & 1), j);
        if g.x >= w { return vec2<i32>(-1, 0); }
    } else if i32(t) >= h {
        g = vec2<i32>(i32(t) - h, h - 1);
    }
    if colour(g.x, g.y, w, h) != c { return vec2<i32>(-1, 0); }
    return g;
}

// Threads a colour of a w x h level takes (`s_cell`).
fn s_cells(c: i32, w: i32, h: i32) -> u32 {
    return select(u32((w + 1) / 2 * h), u32(w + h - 1), c >= 2);
}

// One colour of a sweep of level k (0 red, 1 black, 2 and 3 an odd seam's), in place: no two
// cells of a colour are neighbours (multigrid/level.wgsl `colour`), so no update reads another of
// its colour and the result is src/sim/cpu/multigrid.rs `relax`'s, which computes every update
// before writing any.
fn s_relax(k: u32, c: i32, omega: f32, lid: u32) {
    let w = i32(s_nx(k));
    let h = i32(s_ny(k));
    let base = s_off(k);
    for (var t = lid; t < s_cells(c, w, h); t += WG) {
        let g = s_cell(c, t, w, h);
        if g.x < 0 { continue; }
        let at = u32(g.y * w + g.x);
        let s = s_st(base + at);
        var x = 0.0;
        if stencil_count(s) > 0.0 { x = sx[base + at] + omega * s_residual(k, g.x, g.y, s) / diagonal(s, k); }
        sx[base + at] = x;
    }
    workgroupBarrier();
}

// One sweep of level k: red, black and, with an odd periodic axis, the seam's two colours.
fn s_sweep(k: u32, omega: f32, lid: u32) {
    for (var c = 0; c < sweep_colours(i32(s_nx(k)), i32(s_ny(k))); c++) {
        s_relax(k, c, omega, lid);
    }
}

fn s_smooth(k: u32, lid: u32) {
    for (var sweep = 0; sweep < 2; sweep++) {
        s_sweep(k, SMOOTH_OMEGA, lid);
    }
}

// Level k's residual summed onto level k + 1's rhs; its x set to zero.
fn s_restrict(k: u32, lid: u32) {
    let fw = i32(s_nx(k));
    let fh = i32(s_ny(k));
    let w = i32(s_nx(k + 1u));
    for (var c = lid; c < s_nx(k + 1u) * s_ny(k + 1u); c += WG) {
        let i = i32(c) % w;
        let j = i32(c) / w;
        var sum = 0.0;
        for (var dj = 0; dj < 2; dj++) {
            for (var di = 0; di < 2; di++) {
                let a = 2 * i + di;
                let b = 2 * j + dj;
                if a < fw && b < fh {
                    let s = s_st(s_off(k) + u32(b * fw + a));
                    if stencil_count(s) > 0.0 { sum += s_residual(k, a, b, s); }
                }
            }
        }
        if stencil_count(s_st(s_off(k + 1u) + c)) == 0.0 { sum = 0.0; }
        s_set_rhs(s_off(k + 1u) + c, sum);
        sx[s_off(k + 1u) + c] = 0.0;
    }
    workgroupBarrier();
}

// `coarse_value` of multigrid/tile.wgsl on level k of the workgroup's levels.
fn s_coarse_value(k: u32, ci: i32, cj: i32, parent: f32, joined: bool) -> f32 {
    let w = i32(s_nx(k));
    let n = across(ci, cj, w, i32(s_ny(k)));
    if n.kind == NB_DIRICHLET { return 0.0; }
    if n.kind == NB_NONE || !joined { return parent; }
    return sx[s_off(k) + u32(n.cell.y * w + n.cell.x)];
}

// The stencil of cell (ci, cj) of level k, wrapped (only read across an open face).
fn s_stencil(k: u32, ci: i32, cj: i32) -> u32 {
    let w = i32(s_nx(k));
    return s_st(s_off(k) + u32(wrap(cj, i32(s_ny(k))) * w + wrap(ci, w)));
}

// Level k + 1's correction interpolated bilinearly and added to level k.
fn s_prolong(k: u32, lid: u32) {
    let cw = i32(s_nx(k + 1u));
    let w = i32(s_nx(k));
    for (var c = lid; c < s_nx(k) * s_ny(k); c += WG) {
        let i = i32(c) % w;
        let j = i32(c) / w;
        if stencil_count(s_st(s_off(k) + c)) == 0.0 { continue; }
        let pi = i / 2;
        let pj = j / 2;
        let si = select(1, -1, i % 2 == 0);
        let sj = select(1, -1, j % 2 == 0);
        let parent = sx[s_off(k + 1u) + u32(pj * cw + pi)];
        let open = joins(s_stencil(k + 1u, pi, pj), si, sj);
        let side = open.x && (s_stencil(k + 1u, pi + si, pj) & open.fy) != 0u;
        let up = open.y && (s_stencil(k + 1u, pi, pj + sj) & open.fx) != 0u;
        let e = 0.5625 * parent + 0.1875 * (s_coarse_value(k + 1u, pi + si, pj, parent, open.x) + s_coarse_value(k + 1u, pi, pj + sj, parent, open.y))
            + 0.0625 * s_coarse_value(k + 1u, pi + si, pj + sj, parent, side || up);
        sx[s_off(k) + c] += e;
    }
    workgroupBarrier();
}

// The bottom's exact solve, x = M rhs (whatever x was: on a single level, the warm start's p);
// BOTTOM_SWEEPS SOR sweeps while M is not ready (obstacles painted in the steps before:
// src/sim/solver.rs eliminates it a chunk a step then).
fn s_bottom(lid: u32) {
    let n = BOTTOM_NX * BOTTOM_NY;
    let quads = (n + 3u) / 4u;
    if mg_bottom[quads * (n + 1u)].x != 1.0 {
        for (var it = 0u; it < BOTTOM_SWEEPS; it++) {
            s_sweep(LAST, BOTTOM_OMEGA, lid);
        }
        return;
    }
    let base = s_off(LAST);
    for (var t = lid; t < quads; t += WG) {
        var acc = vec4<f32>(0.0);
        for (var j = 0u; j < n; j++) {
            acc += textureLoad(bottom_tex, vec2<u32>(t, j), 0) * s_rhs(base + j);
        }
        for (var e = 0u; e < 4u; e++) {
            if 4u * t + e < n { sx[base + 4u * t + e] = acc[e]; }
        }
    }
    workgroupBarrier();
}

// One V-cycle of the levels loaded into workgroup memory (x, rhs, stencils in place).
fn coarse_vcycle(lid: u32) {
    workgroupBarrier();
    if LAST != FIRST {
        s_smooth(FIRST, lid);
        s_restrict(FIRST, lid);
    }
    s_bottom(lid);
    if LAST != FIRST {
        s_prolong(FIRST, lid);
        s_smooth(FIRST, lid);
    }
}
