// The warm start of the pressure solve, a cell a thread (warm_start_mix.wgsl has the sums, the
// mix and why): for grids whose rows are not whole quads (warm_start_quad.wgsl takes the rest).

// Bindings (bound by name); warm_start_mix.wgsl declares `partials`.
@group(0) @binding(0) var<storage, read_write> p: array<f32>;
@group(0) @binding(1) var<storage, read> divergence: array<f32>;
@group(0) @binding(2) var<storage, read> stencil: array<u32>;
@group(0) @binding(3) var<storage, read> level: Level;
@group(0) @binding(4) var<storage, read_write> mg_rhs: array<f32>;
@group(0) @binding(5) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(6) var<storage, read_write> p_prev: array<f32>;
@group(0) @binding(7) var<storage, read_write> p_prev2: array<f32>;

// -rho h^2 div / dt at cell c (level 0's right-hand side where it is fluid).
fn rhs_cell(c: u32) -> f32 {
    return -params.rho * params.h * params.h * divergence[c] / params.dt;
}

// Cell c's shares of the sums, with packed stencil s and b = `rhs_cell`. The energy products are
// sums over the stencil's edges, each taken once (from its left or bottom cell), of the products
// of the two vectors' differences, plus their product at the cell per outflow ghost: p·Ap is
// positive term by term, with no cancellation of a large constant in p. g's only with `PAIR`.
fn cell_terms(c: u32, s: u32, b: f32) -> Terms {
    let count = stencil_count(s);
    if count == 0.0 { return no_sums(); }
    let w = nx();
    let i = i32(c % u32(nx()));
    let j = i32(c / u32(nx()));
    let pc = p[c];
    let dc = pc - p_prev[c];
    var gc = 0.0;
    if PAIR { gc = dc - (p_prev[c] - p_prev2[c]); }
    var fluid = 0.0;
    // (Δp1 Δp1, Δp1 Δd, Δd Δd) over the edges taken here; (Δp1 Δg, Δd Δg, Δg Δg)
    var e = vec3<f32>(0.0);
    var eg = vec3<f32>(0.0);
    if (s & STENCIL_LEFT) != 0u { fluid += 1.0; }
    if (s & STENCIL_BOTTOM) != 0u { fluid += 1.0; }
    if (s & STENCIL_RIGHT) != 0u {
        let n = u32(j * w + select(i + 1, 0, i == w - 1));
        let dp = p[n] - pc;
        let dd = p[n] - p_prev[n] - dc;
        e += vec3<f32>(dp * dp, dp * dd, dd * dd);
        if PAIR {
            let dg = p[n] - p_prev[n] - (p_prev[n] - p_prev2[n]) - gc;
            eg += vec3<f32>(dp * dg, dd * dg, dg * dg);
        }
        fluid += 1.0;
    }
    if (s & STENCIL_TOP) != 0u {
        let n = u32(select(j + 1, 0, j == ny() - 1) * w + i);
        let dp = p[n] - pc;
        let dd = p[n] - p_prev[n] - dc;
        e += vec3<f32>(dp * dp, dp * dd, dd * dd);
        if PAIR {
            let dg = p[n] - p_prev[n] - (p_prev[n] - p_prev2[n]) - gc;
            eg += vec3<f32>(dp * dg, dd * dg, dg * dg);
        }
        fluid += 1.0;
    }
    e += (count - fluid) * vec3<f32>(pc * pc, pc * dc, dc * dc);
    eg += (count - fluid) * vec3<f32>(pc * gc, dc * gc, gc * gc);
    return Terms(vec4<f32>(pc * b, dc * b, e.x, e.y), e.z, abs(b), vec4<f32>(gc * b, eg));
}

// The sums with the Jacobi solver's stencil (pressure.wgsl `stencil_pack`).
@compute @workgroup_size(WG)
fn measure_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = no_sums();
    for (var c = wid.x * WG + lid.x; c < cell_count(); c += GROUPS * WG) { t = add_terms(t, cell_terms(c, stencil[c], rhs_cell(c))); }
    finish_partials(lid.x, wid.x, t);
}

// The sums with multigrid level 0's stencil (multigrid and SOR; the same packing), and level 0's
// right-hand side on the way (multigrid/setup.wgsl `load`, whose dispatch a warm start saves).
@compute @workgroup_size(WG)
fn measure_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = no_sums();
    for (var c = wid.x * WG + lid.x; c < cell_count(); c += GROUPS * WG) {
        let s = mg_stencil[level.off + c];
        let b = rhs_cell(c);
        t = add_terms(t, cell_terms(c, s, b));
        mg_rhs[level.off + c] = select(0.0, b, stencil_count(s) > 0.0);
    }
    finish_partials(lid.x, wid.x, t);
}

// p = a p1 + c d + e g, p_prev2 = p0 and p_prev = p1 (and a solve to a tolerance opened:
// `open_gate`); β p1 and p_prev = p1 alone for a fixed count.
@compute @workgroup_size(WG)
fn scale(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let m = start_weights(lid.x);
    if PAIR && wid.x == 0u { open_gate(lid.x); }
    let n = cell_count();
    for (var c = wid.x * WG + lid.x; c < n; c += groups.x * WG) {
        let p1 = p[c];
        // β p1 exactly where there is no pair, the pair's exactly where g is dropped
        if PAIR {
            let p0 = p_prev[c];
            let d = p1 - p0;
            var x = select(m.x * p1 + m.y * d, m.x * p1, m.y == 0.0);
            if m.z != 0.0 { x = m.x * p1 + m.y * d + m.z * (d - (p0 - p_prev2[c])); }
            p[c] = x;
            p_prev2[c] = p0;
        } else {
            p[c] = select(m.x * p1 + m.y * (p1 - p_prev[c]), m.x * p1, m.y == 0.0);
        }
        p_prev[c] = p1;
    }
}
