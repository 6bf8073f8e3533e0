// The bottom level's exact solve, prepared at set-up (only when solids or boundaries changed):
// the inverse of the bottom level's operator, into `mg_bottom`. The coarse solve then takes
// x = M rhs on the bottom (multigrid/coarse_levels.wgsl `s_bottom`): one product, where 48 SOR
// sweeps, 96 barriers of the whole workgroup, cost a CPU adapter (lavapipe) 0.4 ms a V-cycle.
//
// The operator is the levels' (multigrid/plain.wgsl `lanes_residual`): row c is diagonal(c) on
// the diagonal and -1 at each fluid neighbour, wrapped across periodic sides. A fluid component
// with no outflow face is singular (p is fixed only up to a constant there): its last cell (the
// highest index, the last one Gauss-Jordan reaches) is pinned, x = 0 there, which is exact: by
// then every other cell of the component is eliminated, and its row and column are zero. Solid
// cells are pinned too (x = 0, as the sweeps leave them).
//
// M is stored by columns, each padded to whole quads (`stride`): column j, row i at j * stride + i,
// so a product or an elimination step takes a quad of rows a load; after the last column, the
// pinned flags (1.0 where pinned), then a quad whose first word is 1.0 once the last chunk is
// eliminated (`ready`; until then the coarse solve relaxes the bottom as before). After the last
// chunk the columns are copied into a texture (`to_texture`), which the product reads
// (multigrid/coarse_levels.wgsl `s_bottom`). CPU twin: src/sim/cpu/multigrid.rs `bottom_inverse`.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs). `level` is the bottom level.
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(2) var<storage, read_write> mg_bottom: array<vec4<f32>>;
// M's columns as texels of quads (`to_texture`).
@group(0) @binding(3) var bottom_tex: texture_storage_2d<rgba32float, write>;

override WG: u32 = 256u;
const MAX_CELLS: u32 = 256u;
// Columns an `eliminate` dispatch takes (src/sim/multigrid.rs `BOTTOM_STEPS`, and why).
const BOTTOM_STEPS: u32 = 16u;

var<workgroup> seen: array<u32, 256>;
var<workgroup> queue: array<u32, 256>;
// Row k of the elimination step, scaled by the pivot (read by every invocation), and one past its
// last nonzero column.
var<workgroup> pivot_row: array<f32, 256>;
var<workgroup> row_reach: atomic<u32>;
var<workgroup> reach: u32;

fn cells() -> u32 { return min(level.nx * level.ny, MAX_CELLS); }
fn stride(n: u32) -> u32 { return (n + 3u) / 4u * 4u; }
fn at(i: u32) -> f32 { return mg_bottom[i / 4u][i % 4u]; }
fn put(i: u32, v: f32) { mg_bottom[i / 4u][i % 4u] = v; }

// Fluid neighbour k (0 left, 1 right, 2 bottom, 3 top: the stencil's bits) of cell c, wrapped.
fn neighbour(c: u32, k: u32) -> u32 {
    let w = level.nx;
    let h = level.ny;
    let i = c % w;
    let j = c / w;
    switch k {
        case 0u: { return j * w + select(i - 1u, w - 1u, i == 0u); }
        case 1u: { return j * w + select(i + 1u, 0u, i == w - 1u); }
        case 2u: { return select(j - 1u, h - 1u, j == 0u) * w + i; }
        default: { return select(j + 1u, 0u, j == h - 1u) * w + i; }
    }
}

// The operator by columns (each invocation writes its own rows) and the pinned flags.
@compute @workgroup_size(WG)
fn assemble(@builtin(local_invocation_id) lid3: vec3<u32>) {
    let lid = lid3.x;
    let n = cells();
    let s = stride(n);
    for (var t = lid; t <= s * (n + 1u) / 4u; t += WG) {
        mg_bottom[t] = vec4<f32>(0.0);
    }
    storageBarrier();
    for (var c = lid; c < n; c += WG) {
        let st = mg_stencil[level.off + c];
        if stencil_count(st) == 0.0 { continue; }
        put(c * s + c, diagonal(st, level.index));
        for (var k = 0u; k < 4u; k++) {
            if (st & (1u << k)) != 0u {
                let nb = neighbour(c, k);
                put(nb * s + c, at(nb * s + c) - 1.0);
            }
        }
    }
    // the components, by one invocation (a few thousand steps at most, once per set-up)
    if lid != 0u { return; }
    for (var c = 0u; c < n; c++) {
        let solid = stencil_count(mg_stencil[level.off + c]) == 0.0;
        seen[c] = select(0u, 1u, solid);
        if solid { put(s * n + c, 1.0); }
    }
    for (var r = 0u; r < n; r++) {
        if seen[r] != 0u { continue; }
        seen[r] = 1u;
        queue[0] = r;
        var head = 0u;
        var tail = 1u;
        var open = false;
        var last = r;
        while head < tail {
            let c = queue[head];
            head++;
            let st = mg_stencil[level.off + c];
            open = open || stencil_count(st) > f32(countOneBits(st & 15u));
            last = max(last, c);
            for (var k = 0u; k < 4u; k++) {
                let nb = neighbour(c, k);
                if (st & (1u << k)) != 0u && seen[nb] == 0u {
                    seen[nb] = 1u;
                    queue[tail] = nb;
                    tail++;
                }
            }
        }
        if !open { put(s * n + last, 1.0); }
    }
}

// Gauss-Jordan in place without pivoting (the pinned operator is symmetric positive definite),
// columns k0 .. k0 + BOTTOM_STEPS, k0 from the count of workgroups (dispatch c of the set-up has
// c + 1; only the first works): row k scaled by 1 / pivot, then eliminated from every other row.
@compute @workgroup_size(WG)
fn eliminate(
    @builtin(local_invocation_id) lid3: vec3<u32>,
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    if group.x != 0u { return; }
    let lid = lid3.x;
    let n = cells();
    let s = stride(n);
    let quads = s / 4u;
    let k0 = (groups.x - 1u) * BOTTOM_STEPS;
    let k1 = min(k0 + BOTTOM_STEPS, n);
    if lid == 0u { atomicStore(&row_reach, 0u); }
    workgroupBarrier();
    for (var k = k0; k < k1; k++) {
        let pin = at(s * n + k) != 0.0;
        let piv = select(1.0 / at(k * s + k), 0.0, pin);
        var last = 0u;
        for (var j = lid; j < n; j += WG) {
            var v = 0.0;
            if !pin && j != k {
                v = at(j * s + k) * piv;
                put(j * s + k, v);
            }
            pivot_row[j] = v;
            if v != 0.0 { last = j + 1u; }
        }
        atomicMax(&row_reach, last);
        workgroupBarrier();
        storageBarrier();
        if lid == 0u {
            reach = atomicLoad(&row_reach);
            atomicStore(&row_reach, 0u);
        }
        // the pivot row is zero past `width` (a band, but for the inverse's columns before k), and
        // rows with a zero in column k are left as they are: the same sums, for a third of the work
        let width = workgroupUniformLoad(&reach);
        let kq = k / 4u;
        for (var t = lid; t < quads; t += WG) {
            if pin {
                // row and column k are zero but for rounding
                mg_bottom[k * quads + t] = vec4<f32>(0.0);
                for (var e = 0u; e < 4u; e++) {
                    if 4u * t + e < n { put((4u * t + e) * s + k, 0.0); }
                }
                continue;
            }
            // column k's entries of these rows (row k itself is the pivot row: not eliminated)
            var f = mg_bottom[k * quads + t];
            if t == kq { f[k % 4u] = 0.0; }
            if t != kq && all(f == vec4<f32>(0.0)) { continue; }
            for (var j = 0u; j < width; j++) {
                mg_bottom[j * quads + t] -= f * pivot_row[j];
            }
            var column = -f * piv;
            if t == kq { column[k % 4u] = piv; }
            mg_bottom[k * quads + t] = column;
        }
        workgroupBarrier();
        storageBarrier();
    }
    if k1 == n && lid == 0u { mg_bottom[s * (n + 1u) / 4u] = vec4<f32>(1.0, 0.0, 0.0, 0.0); }
}

// M's columns into the texture the coarse solve reads (texel (t, j) = quad t of column j), after
// the last chunk (src/sim/multigrid.rs `encode_eliminate`).
@compute @workgroup_size(WG)
fn to_texture(@builtin(local_invocation_id) lid3: vec3<u32>) {
    let n = cells();
    let quads = stride(n) / 4u;
    for (var k = lid3.x; k < quads * n; k += WG) {
        textureStore(bottom_tex, vec2<u32>(k % quads, k / quads), mg_bottom[k]);
    }
}
