// Multigrid pre-smoother: two smoothing sweeps (red-black SOR at SMOOTH_OMEGA) on a level in one
// dispatch (one sweep on a level with an odd periodic seam, whose sweeps have four colours), through
// workgroup memory (multigrid/tile.wgsl), x -> y. `half_sweep` and `seam_half_sweep` are the plain
// half-sweeps in place on x that a CPU adapter uses instead (DeviceProfile::solver_tiles); the
// seam's run only where a level has an odd periodic axis (multigrid/level.wgsl `colour`).

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read_write> mg_y: array<f32>;
@group(0) @binding(4) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(5) var<storage, read> mg_xc: array<f32>;

@compute @workgroup_size(TILE_WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    tile_load(wid, lid, false);
    tile_relax(wid, lid, SMOOTH_OMEGA);
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
// dispatches half the cells, so no lane idles on the other colour. Seam cells have their own.
fn relax_colour(id: vec3<u32>, parity: i32, omega: f32) {
    let j = i32(id.y);
    let i = 2 * i32(id.x) + ((j + parity) & 1);
    if i >= lnx() || j >= lny() || on_seam(i, j, lnx(), lny()) { return; }
    relax_in_place(i, j, omega);
}

// The seam cells of colour 2 + parity: thread t (counted across the dispatch, whatever its shape)
// takes seam column cell (w - 1, t), then seam row cell (t - h, h - 1) short of the corner, which
// the column has: each cell one thread.
fn seam_sweep(id: vec3<u32>, n: vec3<u32>, parity: i32, omega: f32) {
    let t = i32(id.x + id.y * n.x * BLOCK_X);
    let w = lnx();
    let h = lny();
    var c = vec2<i32>(w - 1, t);
    if t >= h { c = vec2<i32>(t - h, h - 1); }
    if t >= w + h - 1 || !on_seam(c.x, c.y, w, h) || colour(c.x, c.y, w, h) != 2 + parity { return; }
    relax_in_place(c.x, c.y, omega);
}

// The colour a plain half-sweep relaxes (0 red, 1 black) and whether it is the SOR solver's
// (over-relaxed by params.sor_omega) or the smoother's (SMOOTH_OMEGA): pipeline constants, so
// the four half-sweeps and their seams share two entry points (src/sim/multigrid/plain.rs).
override PARITY: u32 = 0u;
override SOR: bool = false;

fn omega() -> f32 { return select(SMOOTH_OMEGA, params.sor_omega, SOR); }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn half_sweep(@builtin(global_invocation_id) id: vec3<u32>) { relax_colour(id, i32(PARITY), omega()); }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn seam_half_sweep(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    seam_sweep(id, n, i32(PARITY), omega());
}
