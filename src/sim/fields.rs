//! The simulation state as plain arrays on the CPU: what dumps write, loads read, tests build and
//! the CPU reference works on. Layout of DESIGN.md §1: flat, row-major, f32.

/// All fields of one state. `u` is (ny, nx+1), `v` is (ny+1, nx), cell fields are (ny, nx) and
/// `ink` is (ny, nx, 3).
#[derive(Clone, Debug, PartialEq)]
pub struct Fields {
    pub nx: usize,
    pub ny: usize,
    pub u: Vec<f32>,
    pub v: Vec<f32>,
    pub p: Vec<f32>,
    pub divergence: Vec<f32>,
    pub ink: Vec<f32>,
    pub density: Vec<f32>,
    pub solid: Vec<f32>,
}

impl Fields {
    pub fn zeros(nx: usize, ny: usize) -> Fields {
        Fields {
            nx,
            ny,
            u: vec![0.0; ny * (nx + 1)],
            v: vec![0.0; (ny + 1) * nx],
            p: vec![0.0; nx * ny],
            divergence: vec![0.0; nx * ny],
            ink: vec![0.0; nx * ny * 3],
            density: vec![0.0; nx * ny],
            solid: vec![0.0; nx * ny],
        }
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

    /// Total ink (all channels) times the cell area, as the GPU statistics report it.
    pub fn ink_total(&self, h: f32) -> f64 {
        self.ink.iter().map(|&x| x as f64).sum::<f64>() * (h as f64) * (h as f64)
    }
}
