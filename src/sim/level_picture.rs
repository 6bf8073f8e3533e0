//! A multigrid level drawn over the whole field for the stage view (shaders/level_picture.wgsl,
//! CPU twin src/sim/cpu/level_picture.rs): level l's rhs (the residual restricted onto it) or x
//! (the correction it sends up), each of its cells spread over the 2^l × 2^l cells of the grid it
//! covers, into the divergence-after buffer, which the divergence overlay draws with its signed
//! scale. A picture only: no state of the step is touched.

use super::kernel::{Bound, Table};
use super::multigrid::{LevelBuffers, LevelDesc};
use super::stage::Ctx;
use crate::error::Result;
use wgpu::util::DeviceExt;

/// Which of a level's values a picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelPart {
    /// rhs: the finer level's residual summed over each 2×2 block (on the way down).
    Residual,
    /// x: the level's correction after the levels below it and its sweeps (on the way up).
    Correction,
}

/// [nx, ny, where the values start, l]: shaders/level_picture.wgsl `level_place`.
pub fn place(level: &LevelDesc, part: LevelPart) -> [u32; 4] {
    let start = match part {
        LevelPart::Residual => level.off,
        LevelPart::Correction => level.x_off,
    };
    [level.nx, level.ny, start, level.index]
}

pub struct LevelPicture {
    /// Levels 1.. (level 0 is the grid itself): the residual's kernel, then the correction's.
    kernels: Vec<[Bound; 2]>,
    cells: [u32; 2],
}

impl LevelPicture {
    /// The pictures of every level below level 0 of `levels`, whose values lie in `mg`, into
    /// `picture` (nx·ny floats).
    pub fn new(ctx: &Ctx, levels: &[LevelDesc], mg: &LevelBuffers, picture: &wgpu::Buffer) -> Result<LevelPicture> {
        let mut kernels = Vec::new();
        for (k, level) in levels.iter().enumerate().skip(1) {
            let bound = |part: LevelPart, values: &wgpu::Buffer| {
                let place = ctx.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("level_place"),
                    contents: bytemuck::cast_slice(&place(level, part)),
                    usage: wgpu::BufferUsages::STORAGE,
                });
                let table = Table::default().with("level_values", values).with("level_place", &place).with("level_picture", picture);
                Bound::new(ctx.target(), "level_picture", "main", &table)
            };
            kernels.push([bound(LevelPart::Residual, &mg.mg_rhs)?, bound(LevelPart::Correction, &mg.mg_x[k % 2])?]);
        }
        Ok(LevelPicture { kernels, cells: ctx.cells() })
    }

    /// Level `level`'s `part` over the field (one dispatch).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>, level: usize, part: LevelPart) {
        self.kernels[level - 1][part as usize].dispatch(pass, self.cells);
    }
}
