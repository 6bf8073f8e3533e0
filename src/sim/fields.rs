//! The simulation state as plain arrays on the CPU: what dumps write, loads read, tests build and
//! the CPU reference works on. Layout of DESIGN.md §1: flat, row-major, f32.

/// All fields of one state. `u` is (ny, nx+1), `v` is (ny+1, nx), cell fields are (ny, nx) and
/// `ink` lives on the dye grid, `dye_scale` = k times finer: (k ny, k nx, 3).
#[derive(Clone, Debug, PartialEq)]
pub struct Fields {
    pub nx: usize,
    pub ny: usize,
    pub dye_scale: usize,
    pub u: Vec<f32>,
    pub v: Vec<f32>,
    pub p: Vec<f32>,
    /// The pressure of the step before `p`'s: the warm start extrapolates along p - p_prev
    /// (shaders/warm_start.wgsl). Zero where unknown (a new state, a state file without it).
    pub p_prev: Vec<f32>,
    /// The pressure of the step before `p_prev`'s: with it the warm start also follows the bend of
    /// p's change (shaders/warm_start_mix.wgsl). Zero where unknown.
    pub p_prev2: Vec<f32>,
    pub divergence: Vec<f32>,
    pub ink: Vec<f32>,
    pub density: Vec<f32>,
    pub solid: Vec<f32>,
}

impl Fields {
    /// Zero fields with the dye on the flow grid (k = 1).
    pub fn zeros(nx: usize, ny: usize) -> Fields {
        Fields::zeros_dye(nx, ny, 1)
    }

    /// Zero fields with a dye grid k times finer than the flow grid.
    pub fn zeros_dye(nx: usize, ny: usize, k: usize) -> Fields {
        Fields {
            nx,
            ny,
            dye_scale: k,
            u: vec![0.0; ny * (nx + 1)],
            v: vec![0.0; (ny + 1) * nx],
            p: vec![0.0; nx * ny],
            p_prev: vec![0.0; nx * ny],
            p_prev2: vec![0.0; nx * ny],
            divergence: vec![0.0; nx * ny],
            ink: vec![0.0; nx * ny * k * k * 3],
            density: vec![0.0; nx * ny],
            solid: vec![0.0; nx * ny],
        }
    }

    /// Every array, in the order of `Buffers::field_buffers` (uploads, downloads, read-backs).
    pub fn arrays(&self) -> [&Vec<f32>; 9] {
        [&self.u, &self.v, &self.p, &self.p_prev, &self.p_prev2, &self.divergence, &self.ink, &self.density, &self.solid]
    }

    /// `arrays`, to write into.
    pub fn arrays_mut(&mut self) -> [&mut Vec<f32>; 9] {
        [
            &mut self.u,
            &mut self.v,
            &mut self.p,
            &mut self.p_prev,
            &mut self.p_prev2,
            &mut self.divergence,
            &mut self.ink,
            &mut self.density,
            &mut self.solid,
        ]
    }

    pub fn cell(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }
    pub fn ui(&self, i: usize, j: usize) -> usize {
        j * (self.nx + 1) + i
    }
    pub fn vi(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }
    pub fn is_solid(&self, i: usize, j: usize) -> bool {
        self.solid[self.cell(i, j)] > 0.5
    }
    /// Dye cells across and up.
    pub fn dye_nx(&self) -> usize {
        self.dye_scale * self.nx
    }
    pub fn dye_ny(&self) -> usize {
        self.dye_scale * self.ny
    }
    /// Index of dye cell (a, b) (times 3 for its first channel in `ink`).
    pub fn dye_cell(&self, a: usize, b: usize) -> usize {
        b * self.dye_nx() + a
    }
    /// The flow cell a dye cell lies in.
    pub fn flow_cell_of_dye(&self, a: usize, b: usize) -> usize {
        self.cell(a / self.dye_scale, b / self.dye_scale)
    }
    /// The ink of flow cell (i, j): the mean over its k × k dye cells.
    pub fn ink_in_cell(&self, i: usize, j: usize) -> [f32; 3] {
        let k = self.dye_scale;
        let mut rgb = [0.0f32; 3];
        for b in j * k..(j + 1) * k {
            for a in i * k..(i + 1) * k {
                let d = self.dye_cell(a, b);
                for (ch, c) in rgb.iter_mut().enumerate() {
                    *c += self.ink[3 * d + ch];
                }
            }
        }
        rgb.map(|x| x / (k * k) as f32)
    }

    /// Total ink (all channels) times the dye cell area, as the GPU statistics report it.
    pub fn ink_total(&self, h: f32) -> f64 {
        let dh = h as f64 / self.dye_scale as f64;
        self.ink.iter().map(|&x| x as f64).sum::<f64>() * dh * dh
    }
}
