//! The multigrid's own buffers (every level's description, x below level 0, the second buffer,
//! rhs, stencil, the bottom's inverse) and the binding table each level's kernels take: the
//! simulation's buffers with the level's in place.

use super::levels::{BOTTOM, LevelDesc, total_cells};
use crate::sim::buffers::Buffers;
use crate::sim::kernel::Table;
use wgpu::util::DeviceExt;

/// Columns a dispatch of the bottom's elimination takes (shaders/multigrid/bottom.wgsl
/// `BOTTOM_STEPS`): lavapipe ends any loop nest after 65535 iterations in all, silently (gallivm's
/// `LP_MAX_TGSI_LOOP_ITERATIONS`), and 16 columns of a 256-cell bottom stay at half that.
pub const BOTTOM_STEPS: u32 = 16;

/// Words of the bottom level's inverse operator: its cells' columns, each padded to whole quads,
/// a column's worth of pinned flags and a quad that says whether it is ready
/// (shaders/multigrid/bottom.wgsl).
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

pub struct LevelBuffers {
    /// Each level's description (`level`).
    descs: Vec<wgpu::Buffer>,
    /// x of the levels below level 0 (level 0's x is the correction `dp`): level k's in `mg_x[k % 2]`, so a level
    /// and the next coarser one never share a buffer (WebGPU forbids binding one buffer twice
    /// where one binding writes); both at the offsets `x_off` of the levels.
    pub mg_x: [wgpu::Buffer; 2],
    /// The levels' second buffer (the tile smoothers write it; level 0's is `p_out`).
    pub mg_y: wgpu::Buffer,
    pub mg_rhs: wgpu::Buffer,
    pub mg_stencil: wgpu::Buffer,
    /// The bottom level's inverse operator (`bottom_words`), written at set-up
    /// (shaders/multigrid/bottom.wgsl).
    pub mg_bottom: wgpu::Buffer,
    /// `mg_bottom`'s columns as a texture of quads (`bottom_tex`), written after the last
    /// chunk of the elimination for the coarse solve's product.
    pub bottom_tex: wgpu::TextureView,
    /// The solver's control words and the gated dispatches' arguments, bound to every level.
    control: wgpu::Buffer,
    args: wgpu::Buffer,
}

impl LevelBuffers {
    pub fn new(d: &wgpu::Device, levels: &[LevelDesc], control: &wgpu::Buffer, args: &wgpu::Buffer) -> LevelBuffers {
        let total = total_cells(levels);
        let descs = levels
            .iter()
            .map(|l| {
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("multigrid level"),
                    contents: bytemuck::bytes_of(l),
                    usage: wgpu::BufferUsages::STORAGE,
                })
            })
            .collect();
        // each parity's buffer reaches to the end of its last level
        let x_words = |parity: usize| {
            levels.iter().enumerate().skip(1).filter(|(k, _)| k % 2 == parity).map(|(_, l)| l.x_off as usize + l.cells()).max().unwrap_or(0)
        };
        let bottom = &levels[levels.len() - 1];
        assert!(bottom.nx as usize <= BOTTOM && bottom.ny as usize <= BOTTOM, "the bottom level fits its exact solve");
        LevelBuffers {
            descs,
            mg_x: [level_buffer(d, "mg_x even", x_words(0)), level_buffer(d, "mg_x odd", x_words(1))],
            mg_y: level_buffer(d, "mg_y", total - levels[0].cells()),
            mg_rhs: level_buffer(d, "mg_rhs", total),
            mg_stencil: level_buffer(d, "mg_stencil", total),
            mg_bottom: level_buffer(d, "mg_bottom", bottom_words(bottom)),
            bottom_tex: crate::sim::buffers::vec4_texture(d, "mg_bottom texture", [bottom.cells().div_ceil(4), bottom.cells()]),
            control: control.clone(),
            args: args.clone(),
        }
    }

    /// Level `k`'s binding table: `state`'s buffers, with the level's description, its x (level
    /// 0's is `dp`), y (`p_out`), the coarser level's x, and the shared rhs, stencil, bottom
    /// inverse, control words and arguments.
    pub fn table<'a>(&'a self, state: &'a Buffers, k: usize) -> Table<'a> {
        let x = |k: usize| if k == 0 { &state.dp } else { &self.mg_x[k % 2] };
        state
            .table()
            .with("level", &self.descs[k])
            .with("mg_x", x(k))
            .with("mg_y", if k == 0 { &state.p_out } else { &self.mg_y })
            .with("mg_rhs", &self.mg_rhs)
            .with("mg_control", &self.control)
            .with("mg_args", &self.args)
            .with("mg_stencil", &self.mg_stencil)
            .with("mg_xc", x(k + 1))
            .with("mg_bottom", &self.mg_bottom)
    }

    /// Every level's table (`table`).
    pub fn tables<'a>(&'a self, state: &'a Buffers) -> Vec<Table<'a>> {
        (0..self.descs.len()).map(|k| self.table(state, k)).collect()
    }
}
