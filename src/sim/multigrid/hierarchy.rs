//! What the multigrid's two paths share: the levels and the cell block, which levels take the
//! quad kernels or have an odd periodic seam, and a kernel with a bind group per level.

use super::levels::{LevelDesc, cell_groups, tile_groups};
use crate::error::Result;
use crate::sim::kernel::{Kernel, Table, Target};
use crate::sim::params::BC_PERIODIC;
use crate::sim::solver_check::{Launch, ctl};

/// The levels and how this step's boundaries shape them.
pub struct Hierarchy {
    pub levels: Vec<LevelDesc>,
    /// The first level of the one-dispatch coarse solve.
    pub coarse: usize,
    /// The cell kernels' block (`DeviceProfile::cell_block`).
    pub block: [u32; 2],
    /// Whether the x and y sides are periodic (`set_periodic`, from the step's boundaries).
    periodic: std::cell::Cell<[bool; 2]>,
}

impl Hierarchy {
    pub fn new(levels: Vec<LevelDesc>, coarse: usize, block: [u32; 2]) -> Hierarchy {
        Hierarchy { levels, coarse, block, periodic: std::cell::Cell::new([false; 2]) }
    }

    /// The step's boundary kinds: which levels have an odd periodic seam (`odd_seam`).
    pub fn set_periodic(&self, bc_kind: [u32; 4]) {
        self.periodic.set([bc_kind[0] == BC_PERIODIC, bc_kind[2] == BC_PERIODIC]);
    }

    /// Whether level `l` has an odd periodic axis: its sweeps then have four colours
    /// (multigrid/level.wgsl `colour`), and its tile dispatches are one sweep each.
    pub fn odd_seam(&self, l: usize) -> bool {
        let [px, py] = self.periodic.get();
        let d = &self.levels[l];
        (px && d.nx % 2 == 1) || (py && d.ny % 2 == 1)
    }

    /// Whether level `l`'s plain sweeps take the quad kernels: rows of whole quads at offsets of
    /// whole quads, and no odd seam (its cells have colours of their own).
    pub fn quad_sweeps(&self, l: usize) -> bool {
        quad_rows(&self.levels[l]) && !self.odd_seam(l)
    }

    /// Whether the plain restriction of level `l` takes the quad kernel: pairs of quads a row, an
    /// even count of rows, and the coarse level's rows whole quads too.
    pub fn quad_restrict(&self, l: usize) -> bool {
        restrict_quads(&self.levels[l], &self.levels[l + 1])
    }

    /// Whether the plain prolongation onto level `l` takes the quad kernel: rows of whole quads,
    /// the coarse level's too.
    pub fn quad_prolong(&self, l: usize) -> bool {
        prolong_quads(&self.levels[l], &self.levels[l + 1])
    }

    /// Whether the tiled smoothing leaves level `l`'s iterate in its second buffer (y), as the
    /// tiled restriction reads it: two sweeps in one dispatch. On an odd seam the second
    /// dispatch brings it back to x.
    pub fn smoothed_in_y(&self, l: usize) -> bool {
        !self.odd_seam(l)
    }

    /// Workgroups covering level `l`'s cells, and its argument slot when gated.
    pub fn cells(&self, l: usize) -> ([u32; 3], usize) {
        (cell_groups(&self.levels[l], self.block), ctl::cells_slot(l))
    }

    /// A tile dispatch of `k` on level `l`.
    pub fn tile(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, k: &PerLevel, l: usize) {
        let d = &self.levels[l];
        launch.go(pass, &k.kernel, &k.groups[l], tile_groups(d.nx, d.ny), ctl::tile_slot(l));
    }
}

/// The binding tables of the levels, level 0's first.
pub type Tables<'a> = [Table<'a>];

/// Per-level bind groups of one multigrid kernel.
pub struct PerLevel {
    pub kernel: Kernel,
    pub groups: Vec<wgpu::BindGroup>,
}

/// A kernel built once per level with that level's description compiled in
/// (`kernel::with_level_compiled`), where the plain path runs (a CPU adapter); elsewhere one
/// kernel, reading the level buffer, for every level (the quad kernels are only built there).
pub struct Compiled {
    kernels: Vec<Kernel>,
    pub groups: Vec<wgpu::BindGroup>,
}

impl Compiled {
    pub fn new(target: Target, per_level: bool, kernel: (&str, &str), levels: &[LevelDesc], tables: &Tables) -> Result<Compiled> {
        Compiled::with_constants(target, per_level, kernel, &[], levels, tables)
    }

    /// `new` with values for the kernel's pipeline constants.
    pub fn with_constants(
        target: Target,
        per_level: bool,
        (shader, entry): (&str, &str),
        constants: &[(&str, f64)],
        levels: &[LevelDesc],
        tables: &Tables,
    ) -> Result<Compiled> {
        let make = || Kernel::with_options(target, shader, entry, constants, true);
        let kernels = if per_level {
            let each = |l| crate::sim::kernel::with_level_compiled(l, make);
            levels.iter().take(tables.len()).map(each).collect::<Result<Vec<_>>>()?
        } else {
            vec![make()?]
        };
        let mut built = Compiled { kernels, groups: vec![] };
        built.groups = tables.iter().enumerate().map(|(l, t)| built.kernel(l).bind(target.device, t)).collect();
        Ok(built)
    }

    /// Level `l`'s kernel.
    pub fn kernel(&self, l: usize) -> &Kernel {
        &self.kernels[l.min(self.kernels.len() - 1)]
    }
}

impl PerLevel {
    pub fn new(target: Target, shader: &str, entry: &str, tables: &Tables) -> Result<PerLevel> {
        Self::with_constants(target, shader, entry, &[], tables)
    }

    /// `new` with values for the kernel's pipeline constants.
    pub fn with_constants(target: Target, shader: &str, entry: &str, constants: &[(&str, f64)], tables: &Tables) -> Result<PerLevel> {
        let kernel = Kernel::with_options(target, shader, entry, constants, true)?;
        let groups = tables.iter().map(|t| kernel.bind(target.device, t)).collect();
        Ok(PerLevel { kernel, groups })
    }

    /// A kernel of the fused smoothers' tile (shaders/multigrid/tile.wgsl): its workgroup is the
    /// tile's 16 x 16 on every device, memory not cleared.
    /// The pipeline constants choose which (shaders/multigrid/smooth.wgsl: PROLONG, SOR).
    pub fn tiled(target: Target, constants: &[(&str, f64)], tables: &Tables) -> Result<PerLevel> {
        let kernel = Kernel::with_options(target, "multigrid/smooth", "main", constants, false)?;
        let groups = tables.iter().map(|t| kernel.bind(target.device, t)).collect();
        Ok(PerLevel { kernel, groups })
    }

    /// A workgroup-memory kernel: sized by `DeviceProfile::solver_workgroup`, memory not cleared.
    pub fn shared(target: Target, shader: &str, entry: &str, tables: &Tables) -> Result<PerLevel> {
        Self::shared_with(target, shader, entry, tables, &[], &[])
    }

    /// `shared` with more pipeline constants, and views for the textures it uses, by name.
    pub fn shared_with(
        target: Target,
        shader: &str,
        entry: &str,
        tables: &Tables,
        constants: &[(&str, f64)],
        views: &[(&str, &wgpu::TextureView)],
    ) -> Result<PerLevel> {
        let mut all = vec![("WG", target.profile().solver_workgroup as f64)];
        all.extend_from_slice(constants);
        let kernel = Kernel::with_options(target, shader, entry, &all, false)?;
        let groups = tables.iter().map(|t| kernel.bind_with(target.device, t, views)).collect();
        Ok(PerLevel { kernel, groups })
    }
}

/// The coarse solve's levels as its pipeline constants (shaders/multigrid/coarse.wgsl): the first,
/// from `coarse`, and the bottom, the last level (the same one, or the next), and their cells.
pub fn coarse_constants(levels: &[LevelDesc], coarse: usize) -> [(&'static str, f64); 7] {
    let last = levels.len() - 1;
    let (first, bottom) = (&levels[coarse], &levels[last]);
    assert!(last - coarse <= 1, "a level that fits the coarse solve coarsens to the bottom at once");
    [
        ("FIRST", coarse as f64),
        ("LAST", last as f64),
        ("FIRST_NX", first.nx as f64),
        ("FIRST_NY", first.ny as f64),
        ("BOTTOM_NX", bottom.nx as f64),
        ("BOTTOM_NY", bottom.ny as f64),
        ("COARSE_CELLS", super::levels::total_cells(&levels[coarse..]) as f64),
    ]
}

/// Whether the quad restriction can take fine level `d` onto `c`: pairs of quads a row, an even
/// count of rows, and both levels' rows whole quads at offsets of whole quads.
pub fn restrict_quads(d: &LevelDesc, c: &LevelDesc) -> bool {
    d.ny.is_multiple_of(2) && prolong_quads(d, c)
}

/// Whether the quad prolongation can take `c`'s correction onto `d`: rows of whole quads (the
/// coarse level's too) at offsets of whole quads.
pub fn prolong_quads(d: &LevelDesc, c: &LevelDesc) -> bool {
    d.nx.is_multiple_of(8) && [d.off, d.x_off, c.off, c.x_off].iter().all(|o| o.is_multiple_of(4))
}

/// Whether a level's rows are whole quads at offsets of whole quads (the quad kernels read it as
/// vec4s: shaders/multigrid/plain.wgsl over lanes4 and quad.wgsl, shaders/solver_check_mg.wgsl).
pub fn quad_rows(d: &LevelDesc) -> bool {
    d.nx.is_multiple_of(4) && d.off.is_multiple_of(4) && d.x_off.is_multiple_of(4)
}

/// Workgroups of a plain half-sweep (one colour: half the columns). Gated, it takes the level's
/// full counts; the surplus threads return.
pub fn colour_groups(l: &LevelDesc, block: [u32; 2]) -> [u32; 3] {
    [l.nx.div_ceil(2).div_ceil(block[0]), l.ny.div_ceil(block[1]), 1]
}

/// Workgroups of a seam colour (one thread a seam cell: a column and a row at most).
pub fn seam_groups(l: &LevelDesc, block: [u32; 2]) -> [u32; 3] {
    [(l.nx + l.ny).div_ceil(block[0] * block[1]), 1, 1]
}
