// A flow cell emptied of what the fluid carries: ink in each of its dye cells, density and
// pressure zero. A cell made solid holds nothing (sources.wgsl `paint_solid`, move_body.wgsl),
// and a cell a moving body leaves starts so. A pass that takes this part declares `p`, `ink` and
// `density` (read_write) itself. CPU twin: src/sim/cpu/sources.rs `empty_cell`.
fn empty_cell(i: i32, j: i32) {
    let k = dye_k();
    for (var b = j * k; b < (j + 1) * k; b++) {
        for (var a = i * k; a < (i + 1) * k; a++) {
            let d = dye_idx(a, b);
            ink[3u * d] = 0.0;
            ink[3u * d + 1u] = 0.0;
            ink[3u * d + 2u] = 0.0;
        }
    }
    density[cell_idx(i, j)] = 0.0;
    p[cell_idx(i, j)] = 0.0;
}
