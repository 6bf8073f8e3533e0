// One weighted-Jacobi sweep, p -> p_out, four cells of a row a thread: the same arithmetic as
// `sweep` in pressure.wgsl, in the same order, so the results are bit for bit the same. For grids
// whose rows are whole quads (nx a multiple of 4). Why: a CPU adapter (lavapipe) reads storage
// one lane at a time, every word of a vector in one pass over the lanes, so a thread that reads
// seven vec4s does the work of 28 scalar reads at about a quarter of the cost.

// Bindings (bound by name): the same buffers as pressure.wgsl, as quads.
@group(0) @binding(0) var<storage, read> p: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> divergence: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> p_out: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> stencil: array<vec4<u32>>;

fn has(s: vec4<u32>, side: u32) -> vec4<bool> { return (s & vec4<u32>(side)) != vec4<u32>(0u); }

// A workgroup of BLOCK_X / 4 x BLOCK_Y threads covers a cell block (src/sim/kernel.rs
// `cell_block`), as `sweep` does: the gated (indirect) launch shares its workgroup counts.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn sweep(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    let quads = nx() / 4;
    if q >= quads || j >= ny() { return; }
    let row = j * quads;
    let c = u32(row + q);
    let s = stencil[c];
    let mid = p[c];
    // wrapped neighbours, read only where the stencil says fluid (as in `sweep`)
    let before = p[u32(row + select(q - 1, quads - 1, q == 0))].w;
    let after = p[u32(row + select(q + 1, 0, q == quads - 1))].x;
    let below = p[u32(select(j - 1, ny() - 1, j == 0) * quads + q)];
    let above = p[u32(select(j + 1, 0, j == ny() - 1) * quads + q)];
    let zero = vec4<f32>(0.0);
    var sum = zero;
    sum += select(zero, vec4<f32>(before, mid.xyz), has(s, STENCIL_LEFT));
    sum += select(zero, vec4<f32>(mid.yzw, after), has(s, STENCIL_RIGHT));
    sum += select(zero, below, has(s, STENCIL_BOTTOM));
    sum += select(zero, above, has(s, STENCIL_TOP));
    let count = vec4<f32>(s >> vec4<u32>(4u));
    let b = params.rho * params.h * params.h * divergence[c] / params.dt;
    let value = mix(mid, (sum - b) / count, params.jacobi_weight);
    p_out[c] = select(value, zero, count == zero);
}
