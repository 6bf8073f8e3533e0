// The tile of the fused red-black smoothers (multigrid/smooth.wgsl, multigrid/prolong.wgsl,
// pressure_sor.wgsl; composed after multigrid/level.wgsl). A 16 x 16 workgroup owns a TILE x TILE block of the level
// and loads it with a HALO-cell border into workgroup memory (wrapped on periodic sides). Each
// colour's sub-sweep can only be trusted one cell further in from the border than the last, so
// HALO = 4 covers two red-black sweeps, or one sweep of the four colours of a level with an odd
// periodic seam (multigrid/level.wgsl `colour`; `tile_sweeps`); then the owned block goes to y
// (mg_y: the level's other buffer). Colours are the level's own, so the result equals global
// sweeps (multigrid/plain.wgsl `relaxed`, src/sim/cpu/multigrid.rs `relax`).

const TILE: i32 = 24;
const HALO: i32 = 4;
const SPAN: i32 = 32;
const TILE_CELLS: u32 = 1024u;
// Invocations of a tile's workgroup (16 x 16), whatever `DeviceProfile::solver_workgroup` says:
// each takes the tile cells lid + k TILE_WG, k < OWN_CELLS, and keeps what only it reads of them
// in its own variables below.
const TILE_WG: u32 = 256u;
const OWN_CELLS: u32 = TILE_CELLS / TILE_WG;

// The tile's x: the one array read across invocations (a cell's neighbours).
var<workgroup> tx: array<f32, 1024>;
// An invocation's own cells' stencil, rhs, and colour (bits 0-1) with distance in from the tile's
// border (bits 2 up), set as they are loaded: the sweeps' tests, without their index arithmetic.
// Why not workgroup memory: a browser's WebGPU clears workgroup memory for each dispatch, and
// SwiftShader compiles that clearing into code a scalar at a time; with these three in workgroup
// memory too, the page spent 2-3 s compiling each of `smooth` and `prolong` (BENCHMARKS.md, "Where
// the time goes: the page").
var<private> own_st: array<u32, OWN_CELLS>;
var<private> own_rhs: array<f32, OWN_CELLS>;
var<private> own_key: array<u32, OWN_CELLS>;

fn tile_origin(wid: vec3<u32>) -> vec2<i32> {
    return vec2<i32>(wid.xy) * TILE - vec2<i32>(HALO, HALO);
}

// The level cell of tile cell q, wrapped on periodic sides (may lie outside the level).
fn tile_cell(origin: vec2<i32>, q: u32) -> vec2<i32> {
    var g = origin + vec2<i32>(i32(q) % SPAN, i32(q) / SPAN);
    if periodic_x() { g.x = wrap(g.x, lnx()); }
    if periodic_y() { g.y = wrap(g.y, lny()); }
    return g;
}

fn inside(g: vec2<i32>) -> bool {
    return g.x >= 0 && g.x < lnx() && g.y >= 0 && g.y < lny();
}

// The bilinear coarse-grid correction at fluid cell (i, j) of this level (9/16, 3/16, 3/16, 1/16
// from its parent and the three coarse cells on its side). A coarse neighbour behind a closed
// coarse face (`joined` false: a solid, or a wall the coarse level keeps) or behind a wall takes
// the parent's value (Neumann), one behind an outflow is 0 (Dirichlet ghost), and periodic sides
// wrap.
fn coarse_value(ci: i32, cj: i32, parent: f32, joined: bool) -> f32 {
    let w = i32(level.coarse_nx);
    let n = across(ci, cj, w, i32(level.coarse_ny));
    if n.kind == NB_DIRICHLET { return 0.0; }
    if n.kind == NB_NONE || !joined { return parent; }
    return mg_xc[level.coarse_x_off + u32(n.cell.y * w + n.cell.x)];
}

// The packed stencil of coarse cell (ci, cj), wrapped (only read across an open face).
fn coarse_stencil(ci: i32, cj: i32) -> u32 {
    let w = i32(level.coarse_nx);
    let h = i32(level.coarse_ny);
    return mg_stencil[level.coarse_off + u32(wrap(cj, h) * w + wrap(ci, w))];
}

fn prolonged(i: i32, j: i32) -> f32 {
    let pi = i / 2;
    let pj = j / 2;
    let si = select(1, -1, i % 2 == 0);
    let sj = select(1, -1, j % 2 == 0);
    let parent = mg_xc[level.coarse_x_off + u32(pj * i32(level.coarse_nx) + pi)];
    let open = joins(coarse_stencil(pi, pj), si, sj);
    // the corner through either neighbour
    let side = open.x && (coarse_stencil(pi + si, pj) & open.fy) != 0u;
    let up = open.y && (coarse_stencil(pi, pj + sj) & open.fx) != 0u;
    return 0.5625 * parent + 0.1875 * (coarse_value(pi + si, pj, parent, open.x) + coarse_value(pi, pj + sj, parent, open.y))
        + 0.0625 * coarse_value(pi + si, pj + sj, parent, side || up);
}

// Loads the tile (with the coarse-grid correction added first when `correct`).
fn tile_load(wid: vec3<u32>, lid: u32, correct: bool) {
    let origin = tile_origin(wid);
    for (var k = 0u; k < OWN_CELLS; k++) {
        let q = lid + k * TILE_WG;
        let g = tile_cell(origin, q);
        var x = 0.0;
        var s = 0u;
        var r = 0.0;
        if inside(g) {
            s = mg_stencil[lidx(g.x, g.y)];
            x = mg_x[xidx(g.x, g.y)];
            r = mg_rhs[lidx(g.x, g.y)];
            if correct && stencil_count(s) > 0.0 { x += prolonged(g.x, g.y); }
        }
        own_st[k] = s;
        own_rhs[k] = r;
        tx[q] = x;
        let a = i32(q) % SPAN;
        let b = i32(q) / SPAN;
        let ring = min(min(a, b), min(SPAN - 1 - a, SPAN - 1 - b));
        own_key[k] = u32(colour(g.x, g.y, lnx(), lny())) | (u32(ring) << 2u);
    }
    workgroupBarrier();
}

// Sweeps of one tile dispatch: two red-black ones, or one of four colours on a level with an odd
// periodic seam (src/sim/multigrid.rs then dispatches twice).
fn tile_sweeps() -> i32 {
    return select(2, 1, sweep_colours(lnx(), lny()) == 4);
}

// `tile_sweeps()` sweeps over omega in the tile, each colour's sub-sweep in place: a cell reads
// only neighbours of other colours (the colouring is proper on the level, seam included), which
// that sub-sweep leaves alone, so the updates equal those computed before any is written, with
// one barrier a sub-sweep and no second buffer.
fn tile_relax(wid: vec3<u32>, lid: u32, omega: f32) {
    let colours = sweep_colours(lnx(), lny());
    for (var k = 0; k < colours * tile_sweeps(); k++) {
        for (var own = 0u; own < OWN_CELLS; own++) {
            let q = lid + own * TILE_WG;
            // sub-sweep k: its colour's cells k + 1 or more in from the border (the halo's are stale)
            let key = own_key[own];
            if i32(key & 3u) != k % colours || i32(key >> 2u) <= k { continue; }
            let s = own_st[own];
            let count = stencil_count(s);
            if count == 0.0 {
                tx[q] = 0.0;
                continue;
            }
            let xc = tx[q];
            var d = 0.0;
            var fluid = 0.0;
            if (s & STENCIL_LEFT) != 0u { d += tx[q - 1u] - xc; fluid += 1.0; }
            if (s & STENCIL_RIGHT) != 0u { d += tx[q + 1u] - xc; fluid += 1.0; }
            if (s & STENCIL_BOTTOM) != 0u { d += tx[q - u32(SPAN)] - xc; fluid += 1.0; }
            if (s & STENCIL_TOP) != 0u { d += tx[q + u32(SPAN)] - xc; fluid += 1.0; }
            let r = own_rhs[own] + (d - (count - fluid) * outflow_weight(level.index) * xc);
            tx[q] = xc + omega * r / (fluid + (count - fluid) * outflow_weight(level.index));
        }
        workgroupBarrier();
    }
}

// Writes the owned block to y: never in place, since neighbouring workgroups read it as halo.
fn tile_store(wid: vec3<u32>, lid: u32) {
    let origin = tile_origin(wid);
    for (var q = lid; q < TILE_CELLS; q += TILE_WG) {
        let a = i32(q) % SPAN;
        let b = i32(q) / SPAN;
        let cell = origin + vec2<i32>(a, b);
        let owned = a >= HALO && a < HALO + TILE && b >= HALO && b < HALO + TILE;
        if owned && cell.x >= 0 && cell.x < lnx() && cell.y >= 0 && cell.y < lny() {
            mg_y[xidx(cell.x, cell.y)] = tx[q];
        }
    }
}
