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
