//! Geometric multigrid V-cycles on the GPU (shaders/multigrid_*.wgsl); the level layout is in
//! src/sim/levels.rs (re-exported here), the convergence gate in src/sim/solver_check.rs.

use super::kernel::{Kernel, Target, slot, textures_fit};
pub use super::levels::*;
use super::params::BC_PERIODIC;
use super::solver_check::{self as check, Launch, ctl};
use super::stage::Ctx;
use crate::error::Result;
use wgpu::util::DeviceExt;

/// Per-level bind groups of one multigrid kernel.
struct PerLevel {
    kernel: Kernel,
    groups: Vec<wgpu::BindGroup>,
}

/// A kernel built once per level with that level's description compiled in
/// (`kernel::with_level_compiled`), where the plain path runs (a CPU adapter); elsewhere one
/// kernel, reading the level buffer, for every level (the quad kernels are only built there).
struct Compiled {
    kernels: Vec<Kernel>,
    groups: Vec<wgpu::BindGroup>,
}

impl Compiled {
    fn new(
        target: Target,
        per_level: bool,
        (shader, entry): (&str, &str),
        levels: &[LevelDesc],
        tables: &[[Option<&wgpu::Buffer>; slot::COUNT]],
    ) -> Result<Compiled> {
        let kernels = if per_level {
            let each = |l| super::kernel::with_level_compiled(l, || Kernel::new(target, shader, entry));
            levels.iter().take(tables.len()).map(each).collect::<Result<Vec<_>>>()?
        } else {
            vec![Kernel::new(target, shader, entry)?]
        };
        let mut built = Compiled { kernels, groups: vec![] };
        built.groups = tables.iter().enumerate().map(|(l, t)| built.kernel(l).bind(target.device, t)).collect();
        Ok(built)
    }

    /// Level `l`'s kernel.
    fn kernel(&self, l: usize) -> &Kernel {
        &self.kernels[l.min(self.kernels.len() - 1)]
    }
}

/// The plain sweeps' textures and kernels (CPU adapters): each quad level's x as two textures of
/// quads, a and b, so the half-sweeps inside a smoothing block read x through textures
/// (shaders/multigrid_quad.wgsl `red_to_tex` .. `red_black_from_tex`), two half-sweeps a dispatch
/// after the first. lavapipe gathers texels a pass over the lanes where it reads storage lane by
/// lane; a half-sweep at 128² took 0.17-0.21 ms from textures against 0.47-0.57 ms from storage
/// buffers (BENCHMARKS.md, "Where the time goes: lavapipe").
struct QuadTex {
    /// Each kernel's bind groups by the texture it writes (`to`: a = 0, b = 1), reading the
    /// other. A smoothing block leaves x in a, where the prolongation reads it: `red_to_tex`
    /// (x -> a texture, with rhs and stencil), `black_red_tex` by turns, then `black_from_tex`
    /// (-> x and a) or, before the restriction, `black_restriction_tex` (-> x and a, and the
    /// coarse rhs); `add_from_tex` (a -> b), `red_black_tex` by turns, `red_black_from_tex`
    /// (-> x and a texture: `Multigrid::level0_tex`).
    red_to: TexKernel,
    black_red: TexKernel,
    black_from: TexKernel,
    black_restriction: TexKernel,
    add: TexKernel,
    red_black: TexKernel,
    red_black_from: TexKernel,
    /// Each level's x (a, b), rhs and stencil.
    _textures: Vec<[wgpu::Texture; 4]>,
    views: Vec<[wgpu::TextureView; 4]>,
}

/// The texture a level's post-smoothing leaves x in (`Multigrid::encode_prolong_smoothed`): the
/// add writes b, the sweeps go by turns, the last writes the texture it does not read.
const LEVEL0_TEX: usize = ((POST_SMOOTH + 1) % 2) as usize;

/// A texture kernel of every quad level and its bind groups by the texture written (`QuadTex`).
struct TexKernel {
    kernels: Vec<Kernel>,
    groups: Vec<[wgpu::BindGroup; 2]>,
}

impl TexKernel {
    /// A dispatch on level `l` that writes texture `to` (or, writing none, reads 1 - `to`).
    fn go(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, to: usize, groups: [u32; 3], slot: usize) {
        launch.go(pass, &self.kernels[l], &self.groups[l][to], groups, slot);
    }
}

impl QuadTex {
    fn new(target: Target, levels: &[LevelDesc], tables: &[[Option<&wgpu::Buffer>; slot::COUNT]]) -> Result<QuadTex> {
        let d = target.device;
        let textures: Vec<[wgpu::Texture; 4]> = levels
            .iter()
            .take(tables.len())
            .map(|l| {
                std::array::from_fn(|k| {
                    d.create_texture(&wgpu::TextureDescriptor {
                        label: Some(["multigrid x a", "multigrid x b", "multigrid rhs", "multigrid stencil"][k]),
                        size: wgpu::Extent3d { width: (l.nx / 4).max(1), height: l.ny.max(1), depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format: if k == 3 { wgpu::TextureFormat::Rgba32Uint } else { wgpu::TextureFormat::Rgba32Float },
                        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::STORAGE_BINDING,
                        view_formats: &[],
                    })
                })
            })
            .collect();
        let views: Vec<[wgpu::TextureView; 4]> =
            textures.iter().map(|t| std::array::from_fn(|k| t[k].create_view(&Default::default()))).collect();
        // (entry, whether it reads a texture of x, whether it writes one)
        let build = |entry: &str, reads: bool, writes: bool| -> Result<TexKernel> {
            let kernels = levels
                .iter()
                .take(tables.len())
                .map(|l| super::kernel::with_level_compiled(l, || Kernel::new(target, "multigrid_quad", entry)))
                .collect::<Result<Vec<_>>>()?;
            let groups = tables
                .iter()
                .enumerate()
                .map(|(l, t)| {
                    let v = &views[l];
                    std::array::from_fn(|to| {
                        let mut bound =
                            vec![(slot::RHS_IN, &v[2]), (slot::RHS_OUT, &v[2]), (slot::STENCIL_IN, &v[3]), (slot::STENCIL_OUT, &v[3])];
                        if reads {
                            bound.push((slot::X_IN, &v[1 - to]));
                        }
                        if writes {
                            bound.push((slot::X_OUT, &v[to]));
                        }
                        kernels[l].bind_with(d, t, &bound)
                    })
                })
                .collect();
            Ok(TexKernel { kernels, groups })
        };
        Ok(QuadTex {
            red_to: build("red_to_tex", false, true)?,
            black_red: build("black_red_tex", true, true)?,
            black_from: build("black_from_tex", true, true)?,
            black_restriction: build("black_restriction_tex", true, true)?,
            add: build("add_from_tex", true, true)?,
            red_black: build("red_black_tex", true, true)?,
            red_black_from: build("red_black_from_tex", true, true)?,
            _textures: textures,
            views,
        })
    }

    /// Level 0's x after a V-cycle (`LEVEL0_TEX`), rhs and stencil as the texture slots of
    /// `quad_in` (shaders/multigrid_quad.wgsl).
    fn level0_views(&self) -> Option<[(u32, &wgpu::TextureView); 3]> {
        self.views.first().map(|v| [(slot::X_IN, &v[LEVEL0_TEX]), (slot::RHS_IN, &v[2]), (slot::STENCIL_IN, &v[3])])
    }
}

impl PerLevel {
    fn new(target: Target, shader: &str, entry: &str, tables: &[[Option<&wgpu::Buffer>; slot::COUNT]]) -> Result<PerLevel> {
        let kernel = Kernel::new(target, shader, entry)?;
        let groups = tables.iter().map(|t| kernel.bind(target.device, t)).collect();
        Ok(PerLevel { kernel, groups })
    }

    /// A workgroup-memory kernel: sized by `DeviceProfile::solver_workgroup`, memory not cleared.
    fn shared(target: Target, shader: &str, entry: &str, tables: &[[Option<&wgpu::Buffer>; slot::COUNT]]) -> Result<PerLevel> {
        Self::shared_with(target, shader, entry, tables, &[], &[])
    }

    /// `shared` with more pipeline constants, and views for the texture slots it uses.
    fn shared_with(
        target: Target,
        shader: &str,
        entry: &str,
        tables: &[[Option<&wgpu::Buffer>; slot::COUNT]],
        constants: &[(&str, f64)],
        views: &[(u32, &wgpu::TextureView)],
    ) -> Result<PerLevel> {
        let mut all = vec![("WG", target.profile().solver_workgroup as f64)];
        all.extend_from_slice(constants);
        let kernel = Kernel::with_options(target, shader, entry, &all, false)?;
        let groups = tables.iter().map(|t| kernel.bind_with(target.device, t, views)).collect();
        Ok(PerLevel { kernel, groups })
    }
}

/// The coarse solve's levels as its pipeline constants (shaders/multigrid_coarse.wgsl): the first,
/// from `coarse`, and the bottom, the last level (the same one, or the next).
fn coarse_constants(levels: &[LevelDesc], coarse: usize) -> [(&'static str, f64); 6] {
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
    ]
}

/// Columns a dispatch of the bottom's elimination takes (shaders/multigrid_bottom.wgsl
/// `BOTTOM_STEPS`): lavapipe ends any loop nest after 65535 iterations in all, silently (gallivm's
/// `LP_MAX_TGSI_LOOP_ITERATIONS`), and 16 columns of a 256-cell bottom stay at half that.
pub const BOTTOM_STEPS: u32 = 16;

/// Words of the bottom level's inverse operator: its cells' columns, each padded to whole quads,
/// a column's worth of pinned flags and a quad that says whether it is ready
/// (shaders/multigrid_bottom.wgsl).
pub fn bottom_words(bottom: &LevelDesc) -> usize {
    let n = bottom.cells();
    n.div_ceil(4) * 4 * (n + 1) + 4
}

fn level_buffer(device: &wgpu::Device, label: &str, words: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (words.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The CPU adapter's dispatch of the level above the coarse solve and the solve below it
/// (shaders/multigrid_lower.wgsl).
struct Lower {
    level: usize,
    kernel: Kernel,
    group: wgpu::BindGroup,
}

/// Whether the quad restriction can take fine level `d` onto `c`: pairs of quads a row, an even
/// count of rows, and both levels' rows whole quads at offsets of whole quads.
fn restrict_quads(d: &LevelDesc, c: &LevelDesc) -> bool {
    d.ny.is_multiple_of(2) && prolong_quads(d, c)
}

/// Whether the quad prolongation can take `c`'s correction onto `d`: rows of whole quads (the
/// coarse level's too) at offsets of whole quads.
fn prolong_quads(d: &LevelDesc, c: &LevelDesc) -> bool {
    d.nx.is_multiple_of(8) && [d.off, d.x_off, c.off, c.x_off].iter().all(|o| o.is_multiple_of(4))
}

/// Whether a level's rows are whole quads at offsets of whole quads (the quad kernels read it as
/// vec4s: shaders/multigrid_quad.wgsl, shaders/solver_check_quad.wgsl).
pub fn quad_rows(d: &LevelDesc) -> bool {
    d.nx.is_multiple_of(4) && d.off.is_multiple_of(4) && d.x_off.is_multiple_of(4)
}

/// Workgroups of a plain half-sweep (one colour: half the columns). Gated, it takes the level's
/// full counts; the surplus threads return.
fn colour_groups(l: &LevelDesc, block: [u32; 2]) -> [u32; 3] {
    [l.nx.div_ceil(2).div_ceil(block[0]), l.ny.div_ceil(block[1]), 1]
}

/// Workgroups of a seam colour (one thread a seam cell: a column and a row at most).
fn seam_groups(l: &LevelDesc, block: [u32; 2]) -> [u32; 3] {
    [(l.nx + l.ny).div_ceil(block[0] * block[1]), 1, 1]
}

/// The multigrid hierarchy on the GPU and its passes.
pub struct Multigrid {
    pub levels: Vec<LevelDesc>,
    /// The first level of the one-dispatch coarse solve.
    pub coarse: usize,
    /// x of the levels below level 0 (level 0's x is `p`): level k's in `mg_x[k % 2]`, so a level
    /// and the next coarser one never share a buffer (WebGPU forbids binding one buffer twice
    /// where one binding writes); both at the offsets `x_off` of the levels.
    pub mg_x: [wgpu::Buffer; 2],
    /// The levels' second buffer (the tile smoothers write it; level 0's is `p_out`).
    pub mg_y: wgpu::Buffer,
    pub mg_rhs: wgpu::Buffer,
    pub mg_stencil: wgpu::Buffer,
    /// The bottom level's inverse operator (`bottom_words`), written at set-up
    /// (shaders/multigrid_bottom.wgsl).
    pub mg_bottom: wgpu::Buffer,
    /// `mg_bottom`'s columns as a texture of quads (`slot::BOTTOM_TEX`), written after the last
    /// chunk of the elimination (`bottom_to_texture`) for the coarse solve's product.
    _bottom_tex: wgpu::TextureView,
    mark: PerLevel,
    pack: PerLevel,
    /// The bottom's operator and pinned cells, then its Gauss-Jordan elimination by chunks of
    /// `BOTTOM_STEPS` columns (bound to the bottom level).
    assemble: PerLevel,
    eliminate: PerLevel,
    bottom_to_texture: PerLevel,
    load: PerLevel,
    smooth: PerLevel,
    restrict: PerLevel,
    prolong: PerLevel,
    coarse_solve: PerLevel,
    /// p -> p_out, then p_out -> p.
    sor: [PerLevel; 2],
    /// On a level with an odd periodic seam a tile dispatch is one sweep (four colours), so its
    /// two sweeps take a second dispatch back, y -> x, and restriction reads x: `smooth_back`, and
    /// `prolong_fwd` (x -> y) before it.
    smooth_back: PerLevel,
    prolong_fwd: PerLevel,
    /// Whether the x and y sides are periodic (`set_periodic`, from the step's boundaries).
    periodic: std::cell::Cell<[bool; 2]>,
    /// Whether the tiled kernels run (else the plain ones below, in place on x).
    pub tiled: bool,
    red: PerLevel,
    black: PerLevel,
    sor_red: PerLevel,
    sor_black: PerLevel,
    /// The seam's two colours (plain, in place), on levels with an odd periodic axis.
    seam: [PerLevel; 2],
    sor_seam: [PerLevel; 2],
    restrict_in_place: PerLevel,
    prolong_add: PerLevel,
    /// The plain kernels four cells a thread (shaders/multigrid_quad.wgsl): red, black, sor_red,
    /// sor_black, restriction, add.
    quad: [Compiled; 6],
    /// `load` four cells a thread (level 0 only).
    quad_load: Compiled,
    /// The quad sweeps through textures, where the plain path runs.
    quad_tex: Option<QuadTex>,
    /// The level above the coarse solve and the solve in one dispatch, on a CPU adapter where
    /// that level is small (`lower_level`).
    lower: Option<Lower>,
    /// Whether the plain path takes the quad kernels where a level allows (`quad_sweeps`,
    /// `quad_restrict`, `quad_prolong`); false forces the scalar ones.
    pub quads: bool,
    /// The cell kernels' block (`DeviceProfile::cell_block`).
    block: [u32; 2],
    /// Kept alive for the bind groups.
    _descs: Vec<wgpu::Buffer>,
    _table: wgpu::Buffer,
}

impl Multigrid {
    /// Builds the hierarchy; `control` is the solver control buffer and `args` the gated
    /// dispatches' arguments, both bound to every level, and `with_tables` receives the per-level
    /// binding tables (level 0's first) for other passes, and level 0's textures as `quad_in`
    /// reads them where the V-cycle goes through them (`level0_tex`).
    pub fn new(
        ctx: &Ctx,
        control: &wgpu::Buffer,
        args: &wgpu::Buffer,
        with_tables: impl FnOnce(&[[Option<&wgpu::Buffer>; slot::COUNT]], Option<&[(u32, &wgpu::TextureView)]>) -> Result<()>,
    ) -> Result<Multigrid> {
        let d = ctx.device;
        let target = ctx.target();
        let levels = levels(ctx.nx, ctx.ny);
        let total = total_cells(&levels);
        let descs: Vec<wgpu::Buffer> = levels
            .iter()
            .map(|l| {
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("multigrid level"),
                    contents: bytemuck::bytes_of(l),
                    usage: wgpu::BufferUsages::STORAGE,
                })
            })
            .collect();
        let table_buffer = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("multigrid levels"),
            contents: bytemuck::cast_slice(&levels),
            usage: wgpu::BufferUsages::STORAGE,
        });
        // each parity's buffer reaches to the end of its last level
        let x_words = |parity: usize| {
            levels.iter().enumerate().skip(1).filter(|(k, _)| k % 2 == parity).map(|(_, l)| l.x_off as usize + l.cells()).max().unwrap_or(0)
        };
        let mg_x = [level_buffer(d, "mg_x even", x_words(0)), level_buffer(d, "mg_x odd", x_words(1))];
        let mg_y = level_buffer(d, "mg_y", total - levels[0].cells());
        let mg_rhs = level_buffer(d, "mg_rhs", total);
        let mg_stencil = level_buffer(d, "mg_stencil", total);
        let bottom = &levels[levels.len() - 1];
        assert!(bottom.nx as usize <= BOTTOM && bottom.ny as usize <= BOTTOM, "the bottom level fits its exact solve");
        let mg_bottom = level_buffer(d, "mg_bottom", bottom_words(bottom));
        let bottom_view = super::buffers::vec4_texture(d, "mg_bottom texture", [bottom.cells().div_ceil(4), bottom.cells()]);
        let bottom_views = [(slot::BOTTOM_TEX, &bottom_view)];
        let tables: Vec<[Option<&wgpu::Buffer>; slot::COUNT]> = descs
            .iter()
            .enumerate()
            .map(|(k, desc)| {
                let mut t = ctx.buffers.table();
                t[check::LEVEL as usize] = Some(desc);
                let x = |k: usize| if k == 0 { &ctx.buffers.p } else { &mg_x[k % 2] };
                t[check::MG_X as usize] = Some(x(k));
                t[check::MG_Y as usize] = Some(if k == 0 { &ctx.buffers.p_out } else { &mg_y });
                t[check::MG_RHS as usize] = Some(&mg_rhs);
                t[check::CONTROL as usize] = Some(control);
                t[slot::MG_ARGS as usize] = Some(args);
                t[check::MG_STENCIL as usize] = Some(&mg_stencil);
                t[check::MG_XC as usize] = Some(x(k + 1));
                t[check::MG_LEVELS as usize] = Some(&table_buffer);
                t[slot::MG_BOTTOM as usize] = Some(&mg_bottom);
                t
            })
            .collect();
        // the same with x and y swapped
        let back: Vec<[Option<&wgpu::Buffer>; slot::COUNT]> = tables
            .iter()
            .map(|t| {
                let mut b = *t;
                b.swap(check::MG_X as usize, check::MG_Y as usize);
                b
            })
            .collect();
        let coarse = coarse_level(&levels);
        // the plain path's quad kernels, each level's compiled in (unused where the tiles run)
        let profile = target.profile();
        let per_level = !profile.solver_tiles;
        assert!(total_cells(&levels[coarse..]) <= COARSE_CELLS, "the coarse solve's levels fit its workgroup memory");
        let quad_tex =
            if per_level && profile.textures && textures_fit(d, ctx.nx, ctx.ny, 1) { Some(QuadTex::new(target, &levels, &tables[..coarse])?) } else { None };
        with_tables(&tables, quad_tex.as_ref().and_then(|t| t.level0_views()).as_ref().map(|v| &v[..]))?;
        let fine = &tables[..1];
        Ok(Multigrid {
            mark: PerLevel::new(target, "multigrid_setup", "mark", &tables)?,
            pack: PerLevel::new(target, "multigrid_setup", "pack", &tables)?,
            assemble: PerLevel::shared(target, "multigrid_bottom", "assemble", &tables[tables.len() - 1..])?,
            eliminate: PerLevel::shared(target, "multigrid_bottom", "eliminate", &tables[tables.len() - 1..])?,
            bottom_to_texture: PerLevel::shared_with(
                target,
                "multigrid_bottom",
                "to_texture",
                &tables[tables.len() - 1..],
                &[],
                &bottom_views,
            )?,
            load: PerLevel::new(target, "multigrid_setup", "load", fine)?,
            smooth: PerLevel::shared(target, "multigrid_smooth", "main", &tables[..coarse])?,
            restrict: PerLevel::new(target, "multigrid_restrict", "main", &back[..coarse])?,
            prolong: PerLevel::shared(target, "multigrid_prolong", "main", &back[..coarse])?,
            coarse_solve: PerLevel::shared_with(
                target,
                "multigrid_coarse",
                "main",
                &tables[coarse..coarse + 1],
                &coarse_constants(&levels, coarse),
                &bottom_views,
            )?,
            sor: [PerLevel::shared(target, "pressure_sor", "main", fine)?, PerLevel::shared(target, "pressure_sor", "main", &back[..1])?],
            smooth_back: PerLevel::shared(target, "multigrid_smooth", "main", &back[..coarse])?,
            prolong_fwd: PerLevel::shared(target, "multigrid_prolong", "main", &tables[..coarse])?,
            periodic: std::cell::Cell::new([false; 2]),
            tiled: !per_level,
            red: PerLevel::new(target, "multigrid_smooth", "red", &tables[..coarse])?,
            black: PerLevel::new(target, "multigrid_smooth", "black", &tables[..coarse])?,
            sor_red: PerLevel::new(target, "multigrid_smooth", "sor_red", fine)?,
            sor_black: PerLevel::new(target, "multigrid_smooth", "sor_black", fine)?,
            seam: [
                PerLevel::new(target, "multigrid_smooth", "seam_red", &tables[..coarse])?,
                PerLevel::new(target, "multigrid_smooth", "seam_black", &tables[..coarse])?,
            ],
            sor_seam: [
                PerLevel::new(target, "multigrid_smooth", "sor_seam_red", fine)?,
                PerLevel::new(target, "multigrid_smooth", "sor_seam_black", fine)?,
            ],
            restrict_in_place: PerLevel::new(target, "multigrid_restrict", "main", &tables[..coarse])?,
            prolong_add: PerLevel::new(target, "multigrid_prolong", "add", &tables[..coarse])?,
            quad: [
                Compiled::new(target, per_level, ("multigrid_quad", "red"), &levels[..coarse], &tables[..coarse])?,
                Compiled::new(target, per_level, ("multigrid_quad", "black"), &levels[..coarse], &tables[..coarse])?,
                Compiled::new(target, per_level, ("multigrid_quad", "sor_red"), &levels, fine)?,
                Compiled::new(target, per_level, ("multigrid_quad", "sor_black"), &levels, fine)?,
                Compiled::new(target, per_level, ("multigrid_quad", "restriction"), &levels[..coarse], &tables[..coarse])?,
                Compiled::new(target, per_level, ("multigrid_quad", "add"), &levels[..coarse], &tables[..coarse])?,
            ],
            quad_load: Compiled::new(target, per_level, ("multigrid_quad", "load"), &levels, fine)?,
            quad_tex,
            lower: match coarse.checked_sub(1) {
                Some(l)
                    if per_level
                        && levels[l].cells() <= LOWER_CELLS
                        && quad_rows(&levels[l])
                        && restrict_quads(&levels[l], &levels[coarse]) =>
                {
                    let mut constants = vec![("WG", profile.solver_workgroup as f64)];
                    constants.extend_from_slice(&coarse_constants(&levels, coarse));
                    let kernel = super::kernel::with_level_compiled(&levels[l], || {
                        Kernel::with_options(target, "multigrid_lower", "main", &constants, false)
                    })?;
                    let group = kernel.bind_with(d, &tables[l], &bottom_views);
                    Some(Lower { level: l, kernel, group })
                }
                _ => None,
            },
            quads: true,
            block: profile.cell_block,
            levels,
            coarse,
            mg_x,
            mg_y,
            mg_rhs,
            mg_stencil,
            mg_bottom,
            _bottom_tex: bottom_view,
            _descs: descs,
            _table: table_buffer,
        })
    }

    /// The step's boundary kinds: which levels have an odd periodic seam (`odd_seam`).
    pub fn set_periodic(&self, bc_kind: [u32; 4]) {
        self.periodic.set([bc_kind[0] == BC_PERIODIC, bc_kind[2] == BC_PERIODIC]);
    }

    /// Whether level `l` has an odd periodic axis: its sweeps then have four colours
    /// (multigrid_level.wgsl `colour`), and its tile dispatches are one sweep each.
    pub fn odd_seam(&self, l: usize) -> bool {
        let [px, py] = self.periodic.get();
        let d = &self.levels[l];
        (px && d.nx % 2 == 1) || (py && d.ny % 2 == 1)
    }

    /// Whether level `l`'s plain sweeps take the quad kernels: rows of whole quads at offsets of
    /// whole quads, and no odd seam (its cells have colours of their own).
    pub fn quad_sweeps(&self, l: usize) -> bool {
        self.quads && quad_rows(&self.levels[l]) && !self.odd_seam(l)
    }

    /// Whether the plain restriction of level `l` takes the quad kernel: pairs of quads a row, an
    /// even count of rows, and the coarse level's rows whole quads too.
    pub fn quad_restrict(&self, l: usize) -> bool {
        self.quads && restrict_quads(&self.levels[l], &self.levels[l + 1])
    }

    /// Whether the plain prolongation onto level `l` takes the quad kernel: rows of whole quads,
    /// the coarse level's too.
    pub fn quad_prolong(&self, l: usize) -> bool {
        self.quads && prolong_quads(&self.levels[l], &self.levels[l + 1])
    }

    /// The level the plain V-cycle's one-workgroup dispatch takes with the coarse solve below it
    /// (`encode_lower`), where this adapter built it and the level takes the quad kernels now (no
    /// odd seam).
    pub fn lower_level(&self) -> Option<usize> {
        let l = self.lower.as_ref()?.level;
        (self.quad_sweeps(l) && self.quad_restrict(l) && self.quad_prolong(l)).then_some(l)
    }

    /// Whether `encode_smooth` leaves level `l`'s iterate in its second buffer (y), as
    /// `encode_restrict` reads it: two sweeps in one dispatch. On an odd seam the second
    /// dispatch brings it back to x.
    pub fn smoothed_in_y(&self, l: usize) -> bool {
        !self.odd_seam(l)
    }

    /// Solid masks and stencils of every level, and the bottom level's operator (only when solids
    /// or boundaries changed), to be inverted by `encode_eliminate`.
    pub fn encode_setup(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        for (k, l) in self.levels.iter().enumerate() {
            launch.go(pass, &self.mark.kernel, &self.mark.groups[k], cell_groups(l, self.block), ctl::cells_slot(k));
            launch.go(pass, &self.pack.kernel, &self.pack.groups[k], cell_groups(l, self.block), ctl::cells_slot(k));
        }
        launch.go(pass, &self.assemble.kernel, &self.assemble.groups[0], [1, 1, 1], ctl::COARSE_SLOT);
    }

    /// Dispatches of the bottom's elimination (`encode_eliminate`).
    pub fn bottom_chunks(&self) -> u32 {
        (self.levels[self.levels.len() - 1].cells() as u32).div_ceil(BOTTOM_STEPS)
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

    /// Level 0's right-hand side from the divergence (every solve).
    pub fn encode_load(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        // the quad kernel's workgroup covers the same cell block, so the counts serve both
        let g = cell_groups(&self.levels[0], self.block);
        if self.quads && quad_rows(&self.levels[0]) {
            launch.go(pass, self.quad_load.kernel(0), &self.quad_load.groups[0], g, ctl::cells_slot(0));
        } else {
            launch.go(pass, &self.load.kernel, &self.load.groups[0], g, ctl::cells_slot(0));
        }
    }

    fn tile(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, k: &PerLevel, l: usize) {
        let d = &self.levels[l];
        launch.go(pass, &k.kernel, &k.groups[l], tile_groups(d.nx, d.ny), ctl::tile_slot(l));
    }

    /// Two sweeps on level `l` (a level above the coarse solve): one dispatch, x -> y, or on an
    /// odd seam two, x -> y -> x (`smoothed_in_y`).
    pub fn encode_smooth(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.tile(pass, launch, &self.smooth, l);
        if self.odd_seam(l) {
            self.tile(pass, launch, &self.smooth_back, l);
        }
    }

    /// Level `l`'s smoothed iterate (y, or x on an odd seam) restricted onto level `l + 1` (its x
    /// zeroed), one dispatch.
    pub fn encode_restrict(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        if !self.smoothed_in_y(l) {
            return self.encode_plain_restrict(pass, launch, l);
        }
        let c = &self.levels[l + 1];
        launch.go(pass, &self.restrict.kernel, &self.restrict.groups[l], cell_groups(c, self.block), ctl::cells_slot(l + 1));
    }

    /// Level `l + 1`'s correction added to level `l`, then two sweeps: one dispatch, y -> x, or
    /// on an odd seam two, x -> y -> x.
    pub fn encode_prolong(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        if self.odd_seam(l) {
            self.tile(pass, launch, &self.prolong_fwd, l);
            self.tile(pass, launch, &self.smooth_back, l);
        } else {
            self.tile(pass, launch, &self.prolong, l);
        }
    }

    /// One V-cycle of the levels from `self.coarse` down, in one workgroup.
    pub fn encode_coarse(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        launch.go(pass, &self.coarse_solve.kernel, &self.coarse_solve.groups[0], [1, 1, 1], ctl::COARSE_SLOT);
    }

    /// One V-cycle on level 0: 3 dispatches per level above the coarse solve, plus one (tiled);
    /// with the plain kernels 6 per level above the one dispatch of the bottom (the coarse solve,
    /// or `encode_lower` from `lower_level`) where they go through the textures, else 10.
    pub fn encode_vcycle(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        if self.tiled { self.encode_vcycle_tiled(pass, launch) } else { self.encode_vcycle_plain(pass, launch) }
    }

    /// One V-cycle with the tiled kernels (whatever `tiled` says).
    pub fn encode_vcycle_tiled(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        for l in 0..self.coarse {
            self.encode_smooth(pass, launch, l);
            self.encode_restrict(pass, launch, l);
        }
        self.encode_coarse(pass, launch);
        for l in (0..self.coarse).rev() {
            self.encode_prolong(pass, launch, l);
        }
    }

    /// One smoothing sweep in place on level `l`'s x (plain kernels: red and black, and on an
    /// odd seam the seam's two colours).
    pub fn encode_plain_sweep(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.encode_plain_sweeps(pass, launch, l, 1);
    }

    /// `n` smoothing sweeps on level `l`'s x; on quad levels through its textures where they
    /// exist (`QuadTex`): x -> a texture (red), then black and red in one dispatch by turns,
    /// then black into x, the block's textures chosen so that x ends in a.
    pub fn encode_plain_sweeps(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        if let (Some(tex), true, true) = (&self.quad_tex, self.quad_sweeps(l), n > 0) {
            self.encode_tex_sweeps_open(tex, pass, launch, l, n);
            let (g, s) = (cell_groups(&self.levels[l], self.block), ctl::cells_slot(l));
            tex.black_from.go(pass, launch, l, 0, g, s);
            return;
        }
        for _ in 0..n {
            self.encode_plain_sweep_buffer(pass, launch, l);
        }
    }

    /// `n` sweeps through level `l`'s textures but the last half-sweep (black), which is to read
    /// b and write a: x -> a texture (red), then black and red in one dispatch by turns.
    fn encode_tex_sweeps_open(&self, tex: &QuadTex, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        let (g, s) = (cell_groups(&self.levels[l], self.block), ctl::cells_slot(l));
        // n textures written by turns, the last b
        let mut to = (n % 2) as usize;
        tex.red_to.go(pass, launch, l, to, g, s);
        for _ in 1..n {
            to = 1 - to;
            tex.black_red.go(pass, launch, l, to, g, s);
        }
    }

    /// One sweep in place on x's buffer.
    fn encode_plain_sweep_buffer(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        if self.quad_sweeps(l) {
            // BLOCK_X / 4 x BLOCK_Y threads a workgroup over a cell block: the gated counts serve both
            let g = cell_groups(&self.levels[l], self.block);
            for k in &self.quad[..2] {
                launch.go(pass, k.kernel(l), &k.groups[l], g, ctl::cells_slot(l));
            }
            return;
        }
        let g = colour_groups(&self.levels[l], self.block);
        launch.go(pass, &self.red.kernel, &self.red.groups[l], g, ctl::cells_slot(l));
        launch.go(pass, &self.black.kernel, &self.black.groups[l], g, ctl::cells_slot(l));
        self.encode_seam(pass, launch, &self.seam, l);
    }

    /// The seam's two colours on level `l`, where it has an odd periodic axis.
    fn encode_seam(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, colours: &[PerLevel; 2], l: usize) {
        if self.odd_seam(l) {
            for k in colours {
                launch.go(pass, &k.kernel, &k.groups[l], seam_groups(&self.levels[l], self.block), ctl::cells_slot(l));
            }
        }
    }

    /// Restriction of level `l`'s x (plain path: the pre-smoothed iterate stays in x).
    pub fn encode_plain_restrict(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        let c = &self.levels[l + 1];
        if self.quad_restrict(l) {
            let k = &self.quad[4];
            return launch.go(pass, k.kernel(l), &k.groups[l], cell_groups(c, self.block), ctl::cells_slot(l + 1));
        }
        launch.go(
            pass,
            &self.restrict_in_place.kernel,
            &self.restrict_in_place.groups[l],
            cell_groups(c, self.block),
            ctl::cells_slot(l + 1),
        );
    }

    /// `n` sweeps on level `l` (`encode_plain_sweeps`), then its restriction: from the level's
    /// textures where the sweeps left x there.
    pub fn encode_smoothed_restrict(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        match &self.quad_tex {
            Some(tex) if n > 0 && self.quad_sweeps(l) && self.quad_restrict(l) => {
                // the last black and the restriction in one dispatch, over the coarse level
                self.encode_tex_sweeps_open(tex, pass, launch, l, n);
                let c = cell_groups(&self.levels[l + 1], self.block);
                tex.black_restriction.go(pass, launch, l, 0, c, ctl::cells_slot(l + 1));
            }
            _ => {
                self.encode_plain_sweeps(pass, launch, l, n);
                self.encode_plain_restrict(pass, launch, l);
            }
        }
    }

    /// Level `l + 1`'s correction added to level `l`'s x in place.
    pub fn encode_plain_prolong(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        let d = &self.levels[l];
        if self.quad_prolong(l) {
            let k = &self.quad[5];
            return launch.go(pass, k.kernel(l), &k.groups[l], cell_groups(d, self.block), ctl::cells_slot(l));
        }
        launch.go(pass, &self.prolong_add.kernel, &self.prolong_add.groups[l], cell_groups(d, self.block), ctl::cells_slot(l));
    }

    fn encode_vcycle_plain(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        let top = self.lower_level().unwrap_or(self.coarse);
        for l in 0..top {
            self.encode_smoothed_restrict(pass, launch, l, PRE_SMOOTH);
        }
        if top < self.coarse {
            self.encode_lower(pass, launch);
        } else {
            self.encode_coarse(pass, launch);
        }
        for l in (0..top).rev() {
            self.encode_prolong_smoothed(pass, launch, l, POST_SMOOTH);
        }
    }

    /// The V-cycle from `lower_level` down in one dispatch: its pre-smoothing, restriction, the
    /// coarse solve, prolongation and post-smoothing (plain kernels, x in its buffer).
    pub fn encode_lower(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        let lower = self.lower.as_ref().expect("a lower dispatch built for this adapter and grid");
        launch.go(pass, &lower.kernel, &lower.group, [1, 1, 1], ctl::COARSE_SLOT);
    }

    /// Level `l + 1`'s correction added to level `l`'s x, then `n` sweeps. After this V-cycle's
    /// pre-smoothing through the level's textures (x in a, rhs and stencil there), the correction
    /// reads a and goes into b, and the sweeps start from it, red and black in one dispatch, by
    /// turns, the last into x.
    pub fn encode_prolong_smoothed(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        match &self.quad_tex {
            Some(tex) if n > 0 && PRE_SMOOTH > 0 && self.quad_sweeps(l) && self.quad_prolong(l) => {
                let (g, s) = (cell_groups(&self.levels[l], self.block), ctl::cells_slot(l));
                let mut to = 1;
                tex.add.go(pass, launch, l, to, g, s);
                for _ in 1..n {
                    to = 1 - to;
                    tex.red_black.go(pass, launch, l, to, g, s);
                }
                // reads `to`
                tex.red_black_from.go(pass, launch, l, 1 - to, g, s);
            }
            _ => {
                self.encode_plain_prolong(pass, launch, l);
                self.encode_plain_sweeps(pass, launch, l, n);
            }
        }
    }

    /// Which of level 0's textures holds x after a V-cycle, with its texels of rhs and stencil,
    /// where the plain V-cycle's level 0 goes through them (`QuadTex`): its post-smoothing's
    /// last dispatch writes x there as well as into p, so the polish that follows a V-cycle
    /// starts there (`encode_polish`).
    pub fn level0_tex(&self) -> Option<usize> {
        let top = self.lower_level().unwrap_or(self.coarse);
        let through = !self.tiled && top > 0 && PRE_SMOOTH > 0 && POST_SMOOTH > 0 && self.quad_sweeps(0) && self.quad_prolong(0);
        self.quad_tex.as_ref().filter(|_| through).map(|_| LEVEL0_TEX)
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
        if let (Some(tex), Some(f)) = (&self.quad_tex, self.level0_tex()) {
            // from the texture the V-cycle left x in, back into it and p: a sweep a dispatch
            let (g, s) = (cell_groups(&self.levels[0], self.block), ctl::cells_slot(0));
            tex.red_black.go(pass, launch, 0, 1 - f, g, s);
            return tex.red_black_from.go(pass, launch, 0, f, g, s);
        }
        if !self.tiled {
            return self.encode_plain_sweeps(pass, launch, 0, 2);
        }
        if self.odd_seam(0) {
            // each smoothing block two sweeps, x -> y -> x
            self.encode_smooth(pass, launch, 0);
            self.encode_smooth(pass, launch, 0);
        } else {
            self.tile(pass, launch, &self.smooth, 0);
            self.tile(pass, launch, &self.smooth_back, 0);
        }
    }

    /// Dispatches of one V-cycle.
    pub fn vcycle_dispatches(&self) -> u32 {
        let tex = |l: usize| self.quad_tex.is_some() && self.quad_sweeps(l);
        let per_level = |l: usize| match (self.tiled, self.odd_seam(l)) {
            (true, false) => 3,
            (true, true) => 5,
            // through the textures: n sweeps n + 1 dispatches (the last with the restriction in it),
            // the prolongation's add one more
            (false, false) if tex(l) => {
                (PRE_SMOOTH + 1) + (!self.quad_restrict(l)) as u32 + (POST_SMOOTH + 1) + (!self.quad_prolong(l)) as u32
            }
            (false, seam) => (if seam { 4 } else { 2 }) * (PRE_SMOOTH + POST_SMOOTH) + 2,
        };
        let top = if self.tiled { self.coarse } else { self.lower_level().unwrap_or(self.coarse) };
        (0..top).map(per_level).sum::<u32>() + 1
    }

    /// Dispatches of two SOR sweeps (`encode_sor`).
    pub fn sor_dispatches(&self) -> u32 {
        match (self.tiled, self.odd_seam(0)) {
            (true, seam) => 1 + seam as u32,
            (false, seam) => 2 * (2 + 2 * seam as u32),
        }
    }

    /// Two SOR sweeps on level 0 (stencil packed, rhs loaded), one dispatch: p -> p_out when
    /// `in_out` is false, else back; flips it. On an odd seam a dispatch is one sweep: two, there
    /// and back.
    pub fn encode_sor(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, in_out: &mut bool) {
        if !self.tiled {
            // the same two sweeps in place, one dispatch per colour
            if self.quad_sweeps(0) {
                let g = cell_groups(&self.levels[0], self.block);
                for _ in 0..2 {
                    for k in &self.quad[2..4] {
                        launch.go(pass, k.kernel(0), &k.groups[0], g, ctl::cells_slot(0));
                    }
                }
                return;
            }
            let g = colour_groups(&self.levels[0], self.block);
            for _ in 0..2 {
                launch.go(pass, &self.sor_red.kernel, &self.sor_red.groups[0], g, ctl::cells_slot(0));
                launch.go(pass, &self.sor_black.kernel, &self.sor_black.groups[0], g, ctl::cells_slot(0));
                self.encode_seam(pass, launch, &self.sor_seam, 0);
            }
            return;
        }
        for _ in 0..1 + self.odd_seam(0) as u32 {
            self.tile(pass, launch, &self.sor[*in_out as usize], 0);
            *in_out = !*in_out;
        }
    }

    /// Estimated bytes a V-cycle moves. Tiled: per tile dispatch x, rhs, stencil read over the
    /// tile and its halo (32² / 24² of the level) and x written; restriction reads the fine x, rhs
    /// and stencil and writes the coarse rhs and x; prolongation reads the coarse x. Plain: each
    /// half-sweep reads x, rhs and stencil and writes half of x. The coarse solve reads and writes
    /// its levels once.
    pub fn vcycle_bytes(&self) -> u64 {
        let halo = (32.0 * 32.0) / (24.0 * 24.0);
        let sweeps = (PRE_SMOOTH + POST_SMOOTH) as f64;
        let mut bytes = 0.0;
        for l in 0..self.coarse {
            let n = self.levels[l].cells() as f64;
            let nc = self.levels[l + 1].cells() as f64;
            bytes +=
                if self.tiled { 2.0 * (12.0 * n * halo + 4.0 * n) + 4.0 * nc * halo } else { sweeps * 2.0 * 14.0 * n + 8.0 * n + 4.0 * nc };
            bytes += 12.0 * n + 12.0 * nc; // restriction
        }
        let coarse: usize = self.levels[self.coarse..].iter().map(LevelDesc::cells).sum();
        (bytes + (12 * coarse + 4 * self.levels[self.coarse].cells()) as f64) as u64
    }
}
