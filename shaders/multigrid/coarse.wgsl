// Multigrid coarse solve in one dispatch: the levels from this one down held in workgroup memory
// and one V-cycle of them run by one workgroup (multigrid/coarse_levels.wgsl). x lives in
// workgroup memory; the stencils and this level's rhs are read where they are (read-only
// storage), and only the bottom's rhs, which the restriction writes, is kept beside x. Why: a
// browser's WebGPU clears workgroup memory for each dispatch, and SwiftShader compiles that
// clearing into code a scalar at a time; with the rhs and stencils of both levels in workgroup
// memory too (3 x 1280 words at 128²) the page spent about 3 s compiling this kernel
// (BENCHMARKS.md, "Where the time goes: the page").

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read> mg_stencil: array<u32>;

// The bottom's rhs (at most 16 x 16), below the first level's cells in sx's indices.
var<workgroup> sbottom_rhs: array<f32, 256>;

fn s_rhs(c: u32) -> f32 {
    let n = FIRST_NX * FIRST_NY;
    if c < n { return mg_rhs[level.off + c]; }
    return sbottom_rhs[c - n];
}

fn s_set_rhs(c: u32, value: f32) {
    sbottom_rhs[c - FIRST_NX * FIRST_NY] = value;
}

fn s_st(c: u32) -> u32 {
    return mg_stencil[level.off + c];
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_id) lid3: vec3<u32>) {
    let lid = lid3.x;
    let n = FIRST_NX * FIRST_NY;
    for (var c = lid; c < n; c += WG) {
        sx[c] = mg_x[level.x_off + c];
    }
    coarse_vcycle(lid);
    for (var c = lid; c < n; c += WG) {
        mg_x[level.x_off + c] = sx[c];
    }
}
