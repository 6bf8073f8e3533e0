// Four cells of a row a thread, as the lanes of a vector (shared/lanes1.wgsl has the one-wide
// layout and how a kernel takes either). For grids whose rows are whole quads (nx a multiple of
// 4). Why: a CPU adapter (lavapipe) reads storage one lane at a time, every word of a vector in
// one pass over the lanes, so a thread that reads seven vec4s does the work of 28 scalar reads
// at about a quarter of the cost.
const LANES: u32 = 4u;
alias Lanes = vec4<f32>;
alias LaneWords = vec4<u32>;
alias LaneFlags = vec4<bool>;

// Each lane's neighbour on the left (right) in its row: the quad's own lanes shifted by one, the
// cell beside the quad (`end`) at lane 0 (3).
fn lanes_left(end: f32, mid: Lanes) -> Lanes { return vec4<f32>(end, mid.xyz); }
fn lanes_right(mid: Lanes, end: f32) -> Lanes { return vec4<f32>(mid.yzw, end); }
fn first_lane(x: Lanes) -> f32 { return x.x; }
fn last_lane(x: Lanes) -> f32 { return x.w; }

// Words read one by one into lanes (a row of faces, which is not one of whole quads).
fn lanes_of(x: array<f32, LANES>) -> Lanes { return vec4<f32>(x[0], x[1], x[2], x[3]); }
// Lane k of v, and the lanes added up in order.
fn lane(v: Lanes, k: u32) -> f32 { return v[k]; }
fn lane_sum(v: Lanes) -> f32 { return ((v.x + v.y) + v.z) + v.w; }
// Whether each lane's packed stencil has `side`, and its neighbour count.
fn lanes_have(s: LaneWords, side: u32) -> LaneFlags { return (s & LaneWords(side)) != LaneWords(0u); }
fn lanes_count(s: LaneWords) -> Lanes { return Lanes((s >> LaneWords(4u)) & LaneWords(7u)); }
// Lane k's place in its quad; the even (odd) cells of two quads side by side, as one quad (a
// restriction's children di = 0 and 1); the quad a thread takes in a half-sweep: every one.
const LANE_INDEX: LaneWords = vec4<u32>(0u, 1u, 2u, 3u);
fn lanes_even(a: Lanes, b: Lanes) -> Lanes { return vec4<f32>(a.xz, b.xz); }
fn lanes_odd(a: Lanes, b: Lanes) -> Lanes { return vec4<f32>(a.yw, b.yw); }
fn sweep_unit(x: i32, j: i32, parity: u32) -> i32 { return x; }
// A unit from a texel (textures of quads: multigrid/plain.wgsl `cells_in`).
fn lanes_texel(v: vec4<f32>) -> Lanes { return v; }
fn lane_words_texel(v: vec4<u32>) -> LaneWords { return v; }
