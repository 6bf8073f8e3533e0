// Non-finite values (inf or NaN), for the solver's reductions (solver_reduce.wgsl) and the warm
// start (warm_start_mix.wgsl): a blown-up state must never read as solved.

// Whether x is finite, by its bits: WGSL may assume floats are finite, so no comparison tells.
fn finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

// The larger of a and b, or whichever is not finite.
fn max_nf(a: f32, b: f32) -> f32 {
    if !finite(a) { return a; }
    if !finite(b) { return b; }
    return max(a, b);
}
