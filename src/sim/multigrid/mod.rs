//! Geometric multigrid V-cycles on the GPU (shaders/multigrid/*.wgsl). The level layout is in
//! `levels` (re-exported here), the buffers and each level's binding table in `buffers`, what
//! the two paths share in `hierarchy`; the tiled passes (a GPU's) in `tiled`, the plain ones (a
//! CPU adapter's) in `plain`; the convergence gate in src/sim/solver_check.rs. CPU twin:
//! src/sim/cpu/multigrid.rs.
//!
//! A V-cycle reads top to bottom in `encode_vcycle_tiled` and `encode_vcycle_plain`: on each
//! level above the coarse solve, smoothing then restriction; the levels from `coarse` down in one
//! dispatch of one workgroup (shaders/multigrid/coarse.wgsl, the bottom solved exactly); then,
//! back up, the coarse correction added and smoothing again.

pub mod buffers;
pub mod hierarchy;
pub mod levels;
pub mod plain;
pub mod shaders;
pub mod tiled;

pub use buffers::{BOTTOM_STEPS, LevelBuffers, bottom_words};
pub use hierarchy::quad_rows;
pub use levels::*;

use super::kernel::{Table, textures_fit};
use super::solver_check::{Launch, ctl};
use super::stage::Ctx;
use crate::error::Result;
use hierarchy::{Compiled, Hierarchy, PerLevel, coarse_constants};

/// The multigrid hierarchy on the GPU and its passes.
pub struct Multigrid {
    /// The levels, the coarse solve's first, the cell block, the periodic seams.
    pub h: Hierarchy,
    pub buffers: LevelBuffers,
    /// Solid masks and stencils of every level.
    mark: PerLevel,
    pack: PerLevel,
    /// The bottom's operator and pinned cells, then its Gauss-Jordan elimination by chunks of
    /// `BOTTOM_STEPS` columns, then M's copy into its texture (bound to the bottom level).
    assemble: PerLevel,
    eliminate: PerLevel,
    bottom_to_texture: PerLevel,
    /// Level 0's right-hand side for the correction (b - A p) and dp = 0, before the solve
    /// (shaders/multigrid/plain.wgsl), a cell or (`quad_load`) four a thread.
    load: PerLevel,
    quad_load: Compiled,
    /// The levels from `coarse` down in one workgroup.
    coarse_solve: PerLevel,
    tiles: tiled::Tiled,
    plain: plain::Plain,
    /// Whether the tiled passes run (else the plain ones, in place on x): the device's profile,
    /// which tests change to run the other path.
    pub tiled: bool,
}

impl Multigrid {
    /// The hierarchy of `ctx`'s grid and every pass of both paths; `control` is the solver control
    /// buffer and `args` the gated dispatches' arguments, both bound to every level.
    pub fn new(ctx: &Ctx, control: &wgpu::Buffer, args: &wgpu::Buffer) -> Result<Multigrid> {
        let target = ctx.target();
        let profile = target.profile();
        let levels = levels(ctx.nx, ctx.ny);
        let coarse = coarse_level(&levels, profile.coarse_side as usize);
        assert!(total_cells(&levels[coarse..]) <= COARSE_CELLS, "the coarse solve's levels fit its workgroup memory");
        let buffers = LevelBuffers::new(ctx.device, &levels, control, args);
        let tables = buffers.tables(ctx.buffers);
        // the same with x and y swapped
        let back: Vec<Table> = tables.iter().map(|t| t.swapped("mg_x", "mg_y")).collect();
        let h = Hierarchy::new(levels, coarse, profile.cell_block);
        // each level's description compiled into the plain path's quad kernels where it is the
        // device's path, and textures of quads where the device reads textures
        let per_level = !profile.solver_tiles;
        let textures = per_level && profile.textures && textures_fit(ctx.device, ctx.nx, ctx.ny, 1);
        let bottom = [("bottom_tex", &buffers.bottom_tex)];
        let last = &tables[tables.len() - 1..];
        // `load` reads the pressure where the levels read x
        let lift = [tables[0].clone().with("mg_x", &ctx.buffers.p)];
        Ok(Multigrid {
            mark: PerLevel::new(target, "multigrid/setup", "mark", &tables)?,
            pack: PerLevel::new(target, "multigrid/setup", "pack", &tables)?,
            assemble: PerLevel::shared(target, "multigrid/bottom", "assemble", last)?,
            eliminate: PerLevel::shared(target, "multigrid/bottom", "eliminate", last)?,
            bottom_to_texture: PerLevel::shared_with(target, "multigrid/bottom", "to_texture", last, &[], &bottom)?,
            load: PerLevel::new(target, "multigrid/plain", "load", &lift)?,
            quad_load: Compiled::new(target, per_level, ("multigrid/quad", "load"), &h.levels, &lift)?,
            coarse_solve: PerLevel::shared_with(
                target,
                "multigrid/coarse",
                "main",
                &tables[coarse..coarse + 1],
                &coarse_constants(&h.levels, coarse),
                &bottom,
            )?,
            tiles: tiled::Tiled::new(target, &tables, &back, coarse)?,
            plain: plain::Plain::new(target, &h, &tables, per_level, textures, &bottom)?,
            tiled: !per_level,
            h,
            buffers,
        })
    }

    /// Level `k`'s binding table (for the passes that read the levels: the checks, the warm
    /// start).
    pub fn table<'a>(&'a self, state: &'a super::buffers::Buffers, k: usize) -> Table<'a> {
        self.buffers.table(state, k)
    }

    /// Level 0's textures as the checks read them after a V-cycle that left x there
    /// (`level0_tex`): x, rhs and stencil under the names of shaders/multigrid/plain.wgsl `cells_in`.
    pub fn level0_views(&self) -> Option<[(&'static str, &wgpu::TextureView); 3]> {
        self.plain.level0_views()
    }

    pub fn levels(&self) -> &[LevelDesc] {
        &self.h.levels
    }

    /// The first level of the one-dispatch coarse solve.
    pub fn coarse(&self) -> usize {
        self.h.coarse
    }

    /// The step's boundary kinds: which levels have an odd periodic seam.
    pub fn set_periodic(&self, bc_kind: [u32; 4]) {
        self.h.set_periodic(bc_kind);
    }

    /// Solid masks and stencils of every level, and the bottom level's operator (only when solids
    /// or boundaries changed), to be inverted by `encode_eliminate`.
    pub fn encode_setup(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        for (k, l) in self.h.levels.iter().enumerate() {
            launch.go(pass, &self.mark.kernel, &self.mark.groups[k], cell_groups(l, self.h.block), ctl::cells_slot(k));
            launch.go(pass, &self.pack.kernel, &self.pack.groups[k], cell_groups(l, self.h.block), ctl::cells_slot(k));
        }
        launch.go(pass, &self.assemble.kernel, &self.assemble.groups[0], [1, 1, 1], ctl::COARSE_SLOT);
    }

    /// Dispatches of the bottom's elimination (`encode_eliminate`).
    pub fn bottom_chunks(&self) -> u32 {
        (self.h.levels[self.h.levels.len() - 1].cells() as u32).div_ceil(BOTTOM_STEPS)
    }

    /// Chunk `chunk` of the bottom's elimination (its count of workgroups says which: `launch`
    /// direct); after the last, M's copy into its texture, and the coarse solve takes the exact
    /// solve.
    pub fn encode_eliminate(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, chunk: u32) {
        launch.go(pass, &self.eliminate.kernel, &self.eliminate.groups[0], [chunk + 1, 1, 1], ctl::COARSE_SLOT);
        if chunk + 1 == self.bottom_chunks() {
            launch.go(pass, &self.bottom_to_texture.kernel, &self.bottom_to_texture.groups[0], [1, 1, 1], ctl::COARSE_SLOT);
        }
    }

    /// Level 0's right-hand side for the correction, b - A p, and dp = 0 (every solve but
    /// Jacobi's, after the warm start).
    pub fn encode_load(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        // the quad kernel's workgroup covers the same cell block, so the counts serve both
        let (g, s) = self.h.cells(0);
        if quad_rows(&self.h.levels[0]) {
            launch.go(pass, self.quad_load.kernel(0), &self.quad_load.groups[0], g, s);
        } else {
            launch.go(pass, &self.load.kernel, &self.load.groups[0], g, s);
        }
    }

    /// One V-cycle on level 0: 3 dispatches per level above the coarse solve, plus one (tiled);
    /// with the plain kernels 6 per level above the one dispatch of the bottom (the coarse solve,
    /// or `encode_lower` from `lower_level`) where they go through the textures, else 10.
    pub fn encode_vcycle(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        if self.tiled { self.encode_vcycle_tiled(pass, launch) } else { self.encode_vcycle_plain(pass, launch) }
    }

    /// One V-cycle with the tiled kernels (whatever `tiled` says).
    pub fn encode_vcycle_tiled(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        for l in 0..self.h.coarse {
            self.encode_smooth(pass, launch, l);
            self.encode_restrict(pass, launch, l);
        }
        self.encode_coarse(pass, launch);
        for l in (0..self.h.coarse).rev() {
            self.encode_prolong(pass, launch, l);
        }
    }

    /// One V-cycle with the plain kernels: from the top down to the lower dispatch where there is
    /// one, else to the coarse solve.
    fn encode_vcycle_plain(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        let top = self.lower_level().unwrap_or(self.h.coarse);
        for l in 0..top {
            self.encode_smoothed_restrict(pass, launch, l, PRE_SMOOTH);
        }
        if top < self.h.coarse {
            self.encode_lower(pass, launch);
        } else {
            self.encode_coarse(pass, launch);
        }
        for l in (0..top).rev() {
            self.encode_prolong_smoothed(pass, launch, l, POST_SMOOTH);
        }
    }

    /// The levels from `coarse` down: one V-cycle in one workgroup.
    pub fn encode_coarse(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        launch.go(pass, &self.coarse_solve.kernel, &self.coarse_solve.groups[0], [1, 1, 1], ctl::COARSE_SLOT);
    }

    /// Tiled: two sweeps on level `l`, x -> y (`Tiled::encode_smooth`).
    pub fn encode_smooth(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.tiles.encode_smooth(&self.h, pass, launch, l);
    }

    /// Tiled: level `l`'s smoothed iterate restricted onto level `l + 1`: from y, or from x in
    /// place where an odd seam's smoothing brought it back there.
    pub fn encode_restrict(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        if self.h.smoothed_in_y(l) {
            self.tiles.encode_restrict(&self.h, pass, launch, l);
        } else {
            self.plain.encode_restrict(&self.h, pass, launch, l);
        }
    }

    /// Tiled: level `l + 1`'s correction added to level `l`, then two sweeps.
    pub fn encode_prolong(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.tiles.encode_prolong(&self.h, pass, launch, l);
    }

    /// Plain: one smoothing sweep in place on level `l`'s x.
    pub fn encode_plain_sweep(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.plain.encode_sweep(&self.h, pass, launch, l);
    }

    /// Plain: `n` smoothing sweeps on level `l`'s x.
    pub fn encode_plain_sweeps(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        self.plain.encode_sweeps(&self.h, pass, launch, l, n);
    }

    /// Plain: restriction of level `l`'s x.
    pub fn encode_plain_restrict(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.plain.encode_restrict(&self.h, pass, launch, l);
    }

    /// Plain: `n` sweeps on level `l`, then its restriction.
    pub fn encode_smoothed_restrict(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        self.plain.encode_smoothed_restrict(&self.h, pass, launch, l, n);
    }

    /// Plain: level `l + 1`'s correction added to level `l`'s x in place.
    pub fn encode_plain_prolong(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.plain.encode_prolong(&self.h, pass, launch, l);
    }

    /// Plain: level `l + 1`'s correction added to level `l`'s x, then `n` sweeps.
    pub fn encode_prolong_smoothed(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        self.plain.encode_prolong_smoothed(&self.h, pass, launch, l, n);
    }

    /// Plain: the V-cycle from `lower_level` down in one dispatch.
    pub fn encode_lower(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        self.plain.encode_lower(pass, launch);
    }

    /// The level the plain V-cycle's one-workgroup dispatch takes with the coarse solve below it.
    pub fn lower_level(&self) -> Option<usize> {
        self.plain.lower_level(&self.h)
    }

    /// The deepest level whose rhs and x a V-cycle leaves in the level buffers (0: none); the
    /// levels below it live only in the one-workgroup dispatch's workgroup memory.
    pub fn levels_in_buffers(&self) -> usize {
        if self.tiled { self.h.coarse } else { self.lower_level().map_or(self.h.coarse, |l| l + 1) }
    }

    /// Whether level `l` has an odd periodic axis (four colours, one sweep a tile dispatch).
    pub fn odd_seam(&self, l: usize) -> bool {
        self.h.odd_seam(l)
    }

    /// Whether `encode_smooth` leaves level `l`'s iterate in y, as `encode_restrict` reads it.
    pub fn smoothed_in_y(&self, l: usize) -> bool {
        self.h.smoothed_in_y(l)
    }

    /// Which of level 0's textures holds x after a V-cycle, where the plain V-cycle's level 0
    /// goes through them (`Plain::level0_tex`): the checks and the polish after it read it there.
    pub fn level0_tex(&self) -> Option<usize> {
        if self.tiled { None } else { self.plain.level0_tex(&self.h) }
    }

    /// Sweeps of the polish (`encode_polish`): two with the plain kernels, four tiled (a tile
    /// dispatch is two sweeps, and a level's x must end where it started).
    pub fn polish_sweeps(&self) -> u32 {
        if self.tiled { 4 } else { 2 }
    }

    /// The polish of a solve to a tolerance (src/sim/solver.rs `polish_at`): `polish_sweeps`
    /// smoothing sweeps on level 0, x in p before and after. Needs a level above the coarse
    /// solve (`coarse` > 0).
    pub fn encode_polish(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        if self.tiled { self.tiles.encode_polish(&self.h, pass, launch) } else { self.plain.encode_polish(&self.h, pass, launch) }
    }

    /// Dispatches of one V-cycle.
    pub fn vcycle_dispatches(&self) -> u32 {
        let per_level = |l: usize| match (self.tiled, self.h.odd_seam(l)) {
            (true, false) => 3,
            (true, true) => 5,
            (false, _) => self.plain.level_dispatches(&self.h, l),
        };
        let top = if self.tiled { self.h.coarse } else { self.lower_level().unwrap_or(self.h.coarse) };
        (0..top).map(per_level).sum::<u32>() + 1
    }

    /// Dispatches of two SOR sweeps (`encode_sor`).
    pub fn sor_dispatches(&self) -> u32 {
        match (self.tiled, self.h.odd_seam(0)) {
            (true, seam) => 1 + seam as u32,
            (false, seam) => 2 * (2 + 2 * seam as u32),
        }
    }

    /// Two SOR sweeps on level 0 (stencil packed, rhs loaded). Tiled: one dispatch, p -> p_out
    /// when `in_out` is false, else back, flipping it (two on an odd seam, there and back);
    /// plain: in place, one dispatch per colour.
    pub fn encode_sor(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, in_out: &mut bool) {
        if self.tiled { self.tiles.encode_sor(&self.h, pass, launch, in_out) } else { self.plain.encode_sor(&self.h, pass, launch) }
    }

    /// Estimated bytes a V-cycle moves. Tiled: per tile dispatch x, rhs, stencil read over the
    /// tile and its halo (32² / 24² of the level) and x written; restriction reads the fine x, rhs
    /// and stencil and writes the coarse rhs and x; prolongation reads the coarse x. Plain: each
    /// half-sweep reads x, rhs and stencil and writes half of x. The coarse solve reads and writes
    /// its levels once.
    pub fn vcycle_bytes(&self) -> u64 {
        let (levels, coarse) = (&self.h.levels, self.h.coarse);
        let halo = (32.0 * 32.0) / (24.0 * 24.0);
        let sweeps = (PRE_SMOOTH + POST_SMOOTH) as f64;
        let mut bytes = 0.0;
        for l in 0..coarse {
            let n = levels[l].cells() as f64;
            let nc = levels[l + 1].cells() as f64;
            bytes +=
                if self.tiled { 2.0 * (12.0 * n * halo + 4.0 * n) + 4.0 * nc * halo } else { sweeps * 2.0 * 14.0 * n + 8.0 * n + 4.0 * nc };
            bytes += 12.0 * n + 12.0 * nc; // restriction
        }
        let below: usize = levels[coarse..].iter().map(LevelDesc::cells).sum();
        (bytes + (12 * below + 4 * levels[coarse].cells()) as f64) as u64
    }
}
