// Multigrid coarse solve: the coarsest level (at most 16 x 16 cells, src/sim/multigrid.rs) relaxed
// by red-black SOR inside one workgroup, with barriers between the half-sweeps.

const COARSE_SWEEPS: u32 = 48u;
const COARSE_OMEGA: f32 = 1.6;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let i = i32(lid.x);
    let j = i32(lid.y);
    let inside = i < lnx() && j < lny();
    for (var it = 0u; it < COARSE_SWEEPS; it++) {
        for (var parity = 0; parity < 2; parity++) {
            if inside && (i + j) % 2 == parity { relax(i, j, COARSE_OMEGA); }
            storageBarrier();
            workgroupBarrier();
        }
    }
}
