// A cell a thread: the lanes of shared/lanes4.wgsl, one wide. A kernel written over `Lanes` is
// composed after this file or that one (src/sim/kernel/compose.rs), the same source for both
// layouts, and per lane the same arithmetic in the same order: the same bits either way.
const LANES: u32 = 1u;
alias Lanes = f32;
alias LaneWords = u32;
alias LaneFlags = bool;

// Each lane's neighbour on the left (right) in its row: the cell beside (`end`).
fn lanes_left(end: f32, mid: Lanes) -> Lanes { return end; }
fn lanes_right(mid: Lanes, end: f32) -> Lanes { return end; }
fn first_lane(x: Lanes) -> f32 { return x; }
fn last_lane(x: Lanes) -> f32 { return x; }

// Words read one by one into lanes (a row of faces, which is not one of whole quads).
fn lanes_of(x: array<f32, LANES>) -> Lanes { return x[0]; }
// Lane k of v, and the lanes added up in order.
fn lane(v: Lanes, k: u32) -> f32 { return v; }
fn lane_sum(v: Lanes) -> f32 { return v; }
// Whether each lane's packed stencil has `side`, and its neighbour count.
fn lanes_have(s: LaneWords, side: u32) -> LaneFlags { return (s & LaneWords(side)) != LaneWords(0u); }
fn lanes_count(s: LaneWords) -> Lanes { return Lanes((s >> LaneWords(4u)) & LaneWords(7u)); }
// Lane k's place in its unit; the even (odd) cells of two units side by side, as one unit (a
// restriction's children di = 0 and 1); the unit a thread takes in a half-sweep of colour `parity`
// (multigrid/plain.wgsl): here only the cells of that colour.
const LANE_INDEX: LaneWords = 0u;
fn lanes_even(a: Lanes, b: Lanes) -> Lanes { return a; }
fn lanes_odd(a: Lanes, b: Lanes) -> Lanes { return b; }
fn sweep_unit(x: i32, j: i32, parity: u32) -> i32 { return 2 * x + ((j + i32(parity)) & 1); }
// A unit from a texel (textures of units: multigrid/plain.wgsl `cells_in`).
fn lanes_texel(v: vec4<f32>) -> Lanes { return v.x; }
fn lane_words_texel(v: vec4<u32>) -> LaneWords { return v.x; }
