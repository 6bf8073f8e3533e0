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

pub fn move_body(f: &mut Fields, p: &Params) {
    for j in 0..f.ny {
        for i in 0..f.nx {
            let c = j * f.nx + i;
            let now = f.solid[c];
            let inside = in_shape(p, (i as f32 + 0.5) * p.h, (j as f32 + 0.5) * p.h);
            match p.body_stage {
                BODY_PICK if inside && now > 0.5 => f.solid[c] = SOLID_MOVING,
                BODY_MOVE if inside && now < 0.5 => {
                    empty_cell(f, i, j);
                    f.solid[c] = SOLID_MOVING;
                }
                BODY_MOVE if !inside && now > 1.5 => {
                    empty_cell(f, i, j);
                    f.solid[c] = 0.0;
                }
                BODY_DROP if now > 1.5 => f.solid[c] = 1.0,
                _ => {}
            }
        }
    }
}
