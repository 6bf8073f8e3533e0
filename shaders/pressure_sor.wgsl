// Red-black successive over-relaxation of the pressure Poisson equation, in place on p: the same
// reduced stencil as pressure.wgsl (packed by its stencil_pack), each cell moved params.sor_omega of
// the way past its Gauss-Seidel value. `red` updates cells with i + j even, `black` the others, so
// a half-sweep reads only cells it does not write (on a periodic axis of odd length the wrap joins
// two cells of one colour, which then update in either order; that still converges).

fn sor_half_sweep(id: vec3<u32>, parity: i32) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() || (i + j) % 2 != parity { return; }
    let c = cell_idx(i, j);
    let s = stencil[c];
    let count = f32(s >> 4u);
    if count == 0.0 {
        p[c] = 0.0;
        return;
    }
    let w = nx();
    let row = j * w;
    var sum = 0.0;
    if (s & STENCIL_LEFT) != 0u { sum += p[u32(row + select(i - 1, w - 1, i == 0))]; }
    if (s & STENCIL_RIGHT) != 0u { sum += p[u32(row + select(i + 1, 0, i == w - 1))]; }
    if (s & STENCIL_BOTTOM) != 0u { sum += p[u32(select(j - 1, ny() - 1, j == 0) * w + i)]; }
    if (s & STENCIL_TOP) != 0u { sum += p[u32(select(j + 1, 0, j == ny() - 1) * w + i)]; }
    let gs = (sum - params.rho * params.h * params.h * divergence[c] / params.dt) / count;
    p[c] = mix(p[c], gs, params.sor_omega);
}

@compute @workgroup_size(8, 8)
fn red(@builtin(global_invocation_id) id: vec3<u32>) { sor_half_sweep(id, 0); }

@compute @workgroup_size(8, 8)
fn black(@builtin(global_invocation_id) id: vec3<u32>) { sor_half_sweep(id, 1); }
