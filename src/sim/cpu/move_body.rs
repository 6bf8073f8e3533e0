//! CPU reference of shaders/move_body.wgsl: the dragged body's cells relabelled for the step's
//! stage (`Params::body_stage`).

use super::sources::empty_cell;
use crate::sim::fields::Fields;
use crate::sim::params::{BODY_DROP, BODY_MOVE, BODY_PICK, Params, SHAPE_RECT, SOLID_MOVING};

/// Whether the point lies in the body's shape (`Params::body_kind`, `body_shape`).
pub fn in_shape(p: &Params, x: f32, y: f32) -> bool {
    let s = p.body_shape;
    if p.body_kind == SHAPE_RECT {
        return x >= s[0] - s[2] && x <= s[0] + s[2] && y >= s[1] - s[3] && y <= s[1] + s[3];
    }
    let (dx, dy) = (x - s[0], y - s[1]);
    dx * dx + dy * dy <= s[2] * s[2]
}

/// What the step's stage (`Params::body_stage`) makes of cell (i, j), whose label is `now`: its
/// new label, and whether it is emptied (no ink, ambient density, p = 0); None: left as it is.
pub fn relabel(p: &Params, i: usize, j: usize, now: f32) -> Option<(f32, bool)> {
    let inside = in_shape(p, (i as f32 + 0.5) * p.h, (j as f32 + 0.5) * p.h);
    match p.body_stage {
        BODY_PICK if inside && now > 0.5 => Some((SOLID_MOVING, false)),
        BODY_MOVE if inside && now < 0.5 => Some((SOLID_MOVING, true)),
        BODY_MOVE if !inside && now > 1.5 => Some((0.0, true)),
        BODY_DROP if now > 1.5 => Some((1.0, false)),
        _ => None,
    }
}

pub fn move_body(f: &mut Fields, p: &Params) {
    for j in 0..f.ny {
        for i in 0..f.nx {
            let c = j * f.nx + i;
            if let Some((label, emptied)) = relabel(p, i, j, f.solid[c]) {
                if emptied {
                    empty_cell(f, i, j);
                }
                f.solid[c] = label;
            }
        }
    }
}
