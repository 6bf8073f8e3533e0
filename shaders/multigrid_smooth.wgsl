// Multigrid pre-smoother: two red-black Gauss-Seidel sweeps on a level in one dispatch, through
// workgroup memory (multigrid_tile.wgsl), x -> y. `red` and `black` are the plain half-sweeps in
// place on x that a CPU adapter uses instead (src/sim/kernel.rs `solver_tiles`); on an odd
// periodic axis two seam cells of one colour then update in either order.

// Bindings (numbers: `slot` in src/sim/kernel.rs).
@group(0) @binding(18) var<storage, read> level: Level;
@group(0) @binding(19) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(20) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(21) var<storage, read_write> mg_y: array<f32>;
@group(0) @binding(23) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(26) var<storage, read> mg_xc: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    tile_load(wid, lid, false);
    tile_relax(wid, lid, 1.0, 2);
    tile_store(wid, lid);
}

// One relaxation of cell (i, j) in place, over-relaxed by omega (1: Gauss-Seidel).
fn relax_in_place(i: i32, j: i32, omega: f32) {
    let s = mg_stencil[lidx(i, j)];
    let count = stencil_count(s);
    if count == 0.0 {
        mg_x[xidx(i, j)] = 0.0;
        return;
    }
    mg_x[xidx(i, j)] += omega * local_residual(i, j, s) / diagonal(s, level.index);
}

// Thread (x, j) takes the cell of row j and colour `parity` at i = 2x or 2x + 1: a half-sweep
// dispatches half the cells, so no lane idles on the other colour.
fn half_sweep(id: vec3<u32>, parity: i32, omega: f32) {
    let j = i32(id.y);
    let i = 2 * i32(id.x) + ((j + parity) & 1);
    if i >= lnx() || j >= lny() { return; }
    relax_in_place(i, j, omega);
}

@compute @workgroup_size(8, 8)
fn red(@builtin(global_invocation_id) id: vec3<u32>) { half_sweep(id, 0, 1.0); }

@compute @workgroup_size(8, 8)
fn black(@builtin(global_invocation_id) id: vec3<u32>) { half_sweep(id, 1, 1.0); }

@compute @workgroup_size(8, 8)
fn sor_red(@builtin(global_invocation_id) id: vec3<u32>) { half_sweep(id, 0, params.sor_omega); }

@compute @workgroup_size(8, 8)
fn sor_black(@builtin(global_invocation_id) id: vec3<u32>) { half_sweep(id, 1, params.sor_omega); }
