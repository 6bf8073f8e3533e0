//! CPU reference of shaders/mgpcg.wgsl: conjugate gradients on multigrid level 0's operator,
//! preconditioned by one V-cycle (McAdams, Sifakis & Teran 2010). The same order of steps as the
//! GPU; its dot products are sums in cell order where the GPU's are reductions, so the two agree
//! to round-off.
//!
//! The V-cycle with red-black smoothing in the same order before and after the coarse correction
//! is not a symmetric operator, so the directions are made A-conjugate to the last one
//! explicitly (flexible CG, Notay 2000: β = −z·q / d·q of the last direction), and each step
//! moves to the minimum of the energy along its direction (α = r·d / d·Ad): the energy-norm
//! error then falls at every iteration, whatever the preconditioner.

use super::multigrid::Mg;
use crate::sim::params::Params;

/// What the iterations carry between them: the right-hand side b, the iterate x (the V-cycles
/// use level 0's x, `dp`, for z), the direction d, q = A d and the last direction's d·q; the
/// residual r is level 0's rhs, which the V-cycle reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Pcg {
    pub b: Vec<f32>,
    pub x: Vec<f32>,
    pub d: Vec<f32>,
    pub q: Vec<f32>,
    /// d·q of the last direction; 0 before the first (β = 0).
    pub dq: f32,
    /// No outflow side: the operator's null space is the constants, which the directions are
    /// kept free of (`iterate`).
    pub singular: bool,
}

/// `A v` at every cell of level 0 (zero on solid cells): count v_c − the fluid neighbours' v,
/// outflow ghosts at v = 0, in the difference form of shaders/multigrid/plain.wgsl
/// `lanes_residual` with a zero right-hand side.
pub fn apply(mg: &Mg, v: &[f32]) -> Vec<f32> {
    residual(mg, v, &vec![0.0; v.len()]).iter().map(|r| -r).collect()
}

/// b − A v at every cell of level 0 (zero on solid cells), as `local_residual`.
pub fn residual(mg: &Mg, v: &[f32], b: &[f32]) -> Vec<f32> {
    let n = mg.levels[0].cells();
    let mut probe = mg.clone();
    probe.x[..n].copy_from_slice(&v[..n]);
    probe.rhs[..n].copy_from_slice(&b[..n]);
    probe.residual(0);
    probe.res[..n].to_vec()
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn fluid(mg: &Mg, c: usize) -> bool {
    (mg.stencil[c] >> 4) & 7 != 0
}

impl Pcg {
    /// `start`: b = level 0's rhs (the correction's, from `Mg::load`) and x = 0; level 0's x is
    /// zero from the load, for the first V-cycle. `singular`: no side is an outflow.
    pub fn start(mg: &Mg, singular: bool) -> Pcg {
        let n = mg.levels[0].cells();
        Pcg { b: mg.rhs[..n].to_vec(), x: vec![0.0; n], d: vec![0.0; n], q: vec![0.0; n], dq: 0.0, singular }
    }

    /// One iteration; returns max |r| over the fluid cells after it. Level 0's x is zero again
    /// after it. In the order of the GPU's dispatches:
    /// - the V-cycle: z = V(r), level 0's x from zero;
    /// - `direction`: d = z − mean(z) + β d with β = −z·q / d·q of the last direction (the mean
    ///   only where the operator is singular: there a residual at round-off gives a z mostly
    ///   constant, and a direction along the null space takes a step of any size);
    /// - `apply`: q = A d, and r = b − A x afresh (so r never drifts from the true residual, and
    ///   the check sees where f32 leaves it);
    /// - `update`: α = r·d / d·q, the minimum of the energy along d; x += α d, r −= α q.
    pub fn iterate(&mut self, mg: &mut Mg, p: &Params) -> f32 {
        let n = mg.levels[0].cells();
        mg.vcycle(p);
        let z = mg.x[..n].to_vec();
        let cells: Vec<usize> = (0..n).filter(|&c| fluid(mg, c)).collect();
        let mean = if self.singular { cells.iter().map(|&c| z[c]).sum::<f32>() / cells.len().max(1) as f32 } else { 0.0 };
        let beta = if self.dq > 0.0 { -dot(&z, &self.q) / self.dq } else { 0.0 };
        for &c in &cells {
            self.d[c] = (z[c] - mean) + beta * self.d[c];
        }
        mg.x[..n].fill(0.0);
        self.q = apply(mg, &self.d);
        let r = residual(mg, &self.x, &self.b);
        mg.rhs[..n].copy_from_slice(&r);
        let dq = dot(&self.d, &self.q);
        let alpha = if dq > 0.0 { dot(&r, &self.d) / dq } else { 0.0 };
        let mut m = 0.0f32;
        for &c in &cells {
            self.x[c] += alpha * self.d[c];
            mg.rhs[c] -= alpha * self.q[c];
            m = m.max(mg.rhs[c].abs());
        }
        self.dq = dq;
        m
    }
}
