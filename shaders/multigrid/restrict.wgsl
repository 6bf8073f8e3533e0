// Multigrid restriction fused with the residual, run with the fine level's descriptor over the
// next coarser level's cells: each coarse cell's right-hand side is the sum of its children's
// residuals (multigrid_common `local_residual`; the operator is scaled by h^2, so summing four
// h^2-residuals gives the (2h)^2 one), and its correction starts at zero. Children past an odd
// edge do not exist; solid children have no residual.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read_write> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(4) var<storage, read_write> mg_xc: array<f32>;

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let cw = i32(level.coarse_nx);
    if i >= cw || j >= i32(level.coarse_ny) { return; }
    var sum = 0.0;
    for (var dj = 0; dj < 2; dj++) {
        for (var di = 0; di < 2; di++) {
            let a = 2 * i + di;
            let b = 2 * j + dj;
            if a < lnx() && b < lny() {
                let s = mg_stencil[lidx(a, b)];
                if stencil_count(s) > 0.0 { sum += local_residual(a, b, s); }
            }
        }
    }
    let c = u32(j * cw + i);
    if stencil_count(mg_stencil[level.coarse_off + c]) == 0.0 { sum = 0.0; }
    mg_rhs[level.coarse_off + c] = sum;
    mg_xc[level.coarse_x_off + c] = 0.0;
}
