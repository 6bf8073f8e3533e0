// Multigrid coarse solve in one dispatch: the levels from this one down held in workgroup memory
// and one V-cycle of them run by one workgroup (multigrid/coarse_levels.wgsl). Stencils stay in
// the stencil buffer (read-only) and are read once; x and rhs live in workgroup memory.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read> mg_stencil: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_id) lid3: vec3<u32>) {
    let lid = lid3.x;
    let n = FIRST_NX * FIRST_NY;
    for (var c = lid; c < n; c += WG) {
        sx[c] = mg_x[level.x_off + c];
        srhs[c] = mg_rhs[level.off + c];
    }
    for (var c = lid; c < s_off(LAST) + BOTTOM_NX * BOTTOM_NY; c += WG) {
        sst[c] = mg_stencil[level.off + c];
    }
    coarse_vcycle(lid);
    for (var c = lid; c < n; c += WG) {
        mg_x[level.x_off + c] = sx[c];
    }
}
