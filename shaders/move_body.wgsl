// The dragged obstacle (the brush's "move" mode): one thread a flow cell relabels the body's cells
// for this step's stage (params.body_stage). Its faces then impose its velocity in every pass
// that reads them (shared/solid.wgsl `face_speed`), the divergence and the projection above all.
//   BODY_PICK: the solid cells inside the shape become the moving body's (SOLID_MOVING, 2).
//   BODY_MOVE: fluid cells inside the shape become the body's and lose their ink, density and
//     pressure, as a painted obstacle's do (sources.wgsl `paint_solid`); the body's cells outside
//     it become fluid, emptied the same way: no ink, ambient density (the body carried none),
//     p = 0 for the warm start. Their faces keep the velocity the last projection gave them, the
//     body's own: the fluid that takes the body's place moves on as the body did (zero or a
//     neighbour's velocity there would be a jump the next projection has to remove). Still
//     solids (1) are never changed.
//   BODY_DROP: the body's cells become still solids (1).

// empty_cell: shared/empty_cell.wgsl.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read_write> p: array<f32>;
@group(0) @binding(1) var<storage, read_write> ink: array<f32>;
@group(0) @binding(2) var<storage, read_write> density: array<f32>;
@group(0) @binding(3) var<storage, read_write> solid: array<f32>;

const BODY_PICK: u32 = 1u;
const BODY_MOVE: u32 = 2u;
const BODY_DROP: u32 = 3u;
const SHAPE_RECT: u32 = 1u;
const SOLID_MOVING: f32 = 2.0;

// Whether a cell centre lies in the body's shape, by the test the scene's obstacles are
// rasterised with (src/config/mask.rs `solid_mask`).
fn in_shape(pos: vec2<f32>) -> bool {
    let s = params.body_shape;
    if params.body_kind == SHAPE_RECT {
        let lo = s.xy - s.zw;
        let hi = s.xy + s.zw;
        return pos.x >= lo.x && pos.x <= hi.x && pos.y >= lo.y && pos.y <= hi.y;
    }
    let d = pos - s.xy;
    return d.x * d.x + d.y * d.y <= s.z * s.z;
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let c = cell_idx(i, j);
    let now = solid[c];
    let inside = in_shape(vec2<f32>((f32(i) + 0.5) * params.h, (f32(j) + 0.5) * params.h));
    let stage = params.body_stage;
    if stage == BODY_PICK && inside && now > 0.5 {
        solid[c] = SOLID_MOVING;
    } else if stage == BODY_MOVE && inside && now < 0.5 {
        empty_cell(i, j);
        solid[c] = SOLID_MOVING;
    } else if stage == BODY_MOVE && !inside && now > 1.5 {
        empty_cell(i, j);
        solid[c] = 0.0;
    } else if stage == BODY_DROP && now > 1.5 {
        solid[c] = 1.0;
    }
}
