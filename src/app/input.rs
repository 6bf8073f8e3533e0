//! Input: keys become commands (or view toggles), and the mouse becomes brush dabs. A drag is
//! resampled into dabs evenly spaced along the path the cursor took since the last frame, so a
//! fast stroke is a continuous line, not a dotted one.

use crate::render::palette::ColourMode;
use crate::sim::params::{SPLAT_ADD, SPLAT_ERASE_SOLID, SPLAT_PAINT_SOLID, Splat};
use crate::ui::{self, Brush, BrushMode, Command, PanelState, View};
use winit::keyboard::{Key, NamedKey};

/// The most dabs one frame's stroke is resampled into.
const MAX_DABS: f32 = 120.0;
/// Drag speeds above this (m/s) are capped: a flick must not blow the flow up.
const MAX_DRAG_SPEED: f32 = 20.0;

#[derive(Default)]
pub struct Pointer {
    /// Cursor in physical pixels.
    pub pos: Option<[f32; 2]>,
    pub left: bool,
    pub right: bool,
    /// Cursor positions (metres) since the last frame, while a button is held.
    pub path: Vec<[f32; 2]>,
    /// Last position painted, metres.
    pub last: Option<[f32; 2]>,
    /// Strokes begun so far: the per-stroke colour's index.
    pub strokes: u64,
    /// The stroke began in the split view's right half (src/app/split.rs).
    pub in_right: bool,
    /// A button was held at the last frame (the stroke goes on).
    pub in_stroke: bool,
    /// The pointer paints by moving over the field, no button held (`view.hover_paint`).
    pub hovering: bool,
    /// Seconds the hovering pointer has rested: after `HOVER_STROKE_REST` its stroke ends, and
    /// the next move begins another (a new colour).
    pub rested: f32,
}

/// A hover stroke ends after the pointer rests this long, seconds.
const HOVER_STROKE_REST: f32 = 0.7;

/// What a key asks for: a command for the app, or a change of the view or panel made here.
/// Esc closes the help if it is open, else quits, as Ctrl+Q (Cmd+Q on macOS) does.
pub fn key(key: &Key, ctrl: bool, paused: bool, view: &mut View, panel: &mut PanelState) -> Option<Command> {
    if ctrl {
        return match key {
            Key::Character(c) if c.eq_ignore_ascii_case("q") => Some(Command::Quit),
            Key::Character(c) if c.eq_ignore_ascii_case("s") => Some(Command::SaveState),
            Key::Character(c) if c.eq_ignore_ascii_case("e") => Some(Command::SaveSeries),
            _ => None,
        };
    }
    match key {
        Key::Named(NamedKey::Space) => return Some(Command::SetPaused(!paused)),
        Key::Named(NamedKey::ArrowRight) => return Some(Command::Step),
        Key::Named(NamedKey::F1) => panel.show_help ^= true,
        Key::Named(NamedKey::Escape) if panel.show_help => panel.show_help = false,
        // Esc leaves the stage view before it quits
        Key::Named(NamedKey::Escape) if view.stage_view => view.stage_view = false,
        Key::Named(NamedKey::Escape) => return Some(Command::Quit),
        Key::Character(c) => match c.as_str() {
            "s" | "S" => return Some(Command::Step),
            // Shift+R undoes the panel's edits too: the scene as it was loaded
            "r" => return Some(Command::Reset),
            "R" => return Some(Command::RestartAsLoaded),
            "c" | "C" => return Some(Command::ClearInk),
            "h" | "H" => view.show_panel ^= true,
            "p" | "P" => return Some(Command::Screenshot),
            "g" | "G" => return Some(Command::ToggleRecording),
            "?" => panel.show_help ^= true,
            "9" => view.plots ^= true,
            "t" | "T" => view.stage_view ^= true,
            // the move tool, and back to painting
            "m" | "M" => {
                view.brush.mode = if view.brush.mode == BrushMode::Move { BrushMode::Paint } else { BrushMode::Move };
            }
            "v" | "V" => view.split ^= true,
            "d" | "D" => view.overlays.tracers ^= true,
            d => {
                if let Ok(n) = d.parse::<u32>() {
                    ui::toggle_overlay(&mut view.overlays, n);
                }
            }
        },
        _ => {}
    }
    None
}

/// Particles a dab of the tracers brush drops.
pub const TRACERS_A_DAB: usize = 24;

/// The tracer seeds of the tracers brush's dabs: `TRACERS_A_DAB` in each one's disc, spread
/// evenly (a sunflower spiral, turned a little from dab to dab so strokes show no rows).
pub fn tracer_seeds(splats: &[Splat]) -> Vec<[f32; 2]> {
    const GOLDEN_ANGLE: f32 = 2.399_963;
    let n = TRACERS_A_DAB as f32;
    splats
        .iter()
        .enumerate()
        .flat_map(|(d, s)| {
            (0..TRACERS_A_DAB).map(move |k| {
                let r = s.radius * ((k as f32 + 0.5) / n).sqrt();
                let a = k as f32 * GOLDEN_ANGLE + d as f32 * 0.7;
                [s.x + r * a.cos(), s.y + r * a.sin()]
            })
        })
        .collect()
}

/// A dab of the stroke: position (metres), drag velocity (m/s) and weight (its share of the
/// stroke's strength, so denser dabs each add less).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dab {
    pub at: [f32; 2],
    pub velocity: [f32; 2],
    pub weight: f32,
}

/// Dabs half a radius apart along `path` from `last` (the previous frame's end), at most
/// `MAX_DABS`. A button held still gives one gentle dab where the cursor rests.
pub fn stroke(last: Option<[f32; 2]>, path: &[[f32; 2]], radius: f32, frame_dt: f32) -> Vec<Dab> {
    let Some(mut prev) = last.or_else(|| path.first().copied()) else { return Vec::new() };
    let still = |at| vec![Dab { at, velocity: [0.0, 0.0], weight: 0.25 }];
    let Some(&end) = path.last() else { return still(prev) };
    let total = [end[0] - prev[0], end[1] - prev[1]];
    let mut velocity = [total[0] / frame_dt.max(1e-3), total[1] / frame_dt.max(1e-3)];
    let speed = velocity[0].hypot(velocity[1]);
    if speed > MAX_DRAG_SPEED {
        velocity = [velocity[0] * MAX_DRAG_SPEED / speed, velocity[1] * MAX_DRAG_SPEED / speed];
    }
    let mut length = 0.0f32;
    let mut a = prev;
    for q in path {
        length += (q[0] - a[0]).hypot(q[1] - a[1]);
        a = *q;
    }
    if length < 1e-6 {
        return still(end);
    }
    let spacing = (0.5 * radius).max(length / MAX_DABS);
    let weight = (spacing / radius).min(1.0);
    let mut out = Vec::new();
    // distance already covered past the last dab, carried from segment to segment
    let mut carry = 0.0f32;
    for q in path {
        let seg = (q[0] - prev[0]).hypot(q[1] - prev[1]);
        let mut t = spacing - carry;
        while t <= seg {
            let f = t / seg;
            out.push(Dab { at: [prev[0] + f * (q[0] - prev[0]), prev[1] + f * (q[1] - prev[1])], velocity, weight });
            t += spacing;
        }
        carry = seg - (t - spacing);
        prev = *q;
    }
    out
}

impl Pointer {
    /// This frame's brush splats (empty when no button is held and no hover stroke moves).
    pub fn splats(&mut self, brush: &Brush, radius: f32, frame_dt: f32) -> Vec<Splat> {
        if !(self.left || self.right || self.hovering) {
            self.path.clear();
            self.last = None;
            self.in_stroke = false;
            return Vec::new();
        }
        if !(self.left || self.right) && self.path.is_empty() {
            // a resting pointer paints nothing; resting long enough ends its stroke
            self.rested += frame_dt;
            if self.rested > HOVER_STROKE_REST {
                self.hovering = false;
            }
            return Vec::new();
        }
        self.rested = 0.0;
        if !self.in_stroke {
            self.strokes += 1;
            self.in_stroke = true;
        }
        let path = std::mem::take(&mut self.path);
        let dabs = stroke(self.last, &path, radius.max(1e-6), frame_dt);
        if let Some(&end) = path.last() {
            self.last = Some(end);
        }
        let colour = match brush.colour_mode {
            ColourMode::Fixed => brush.colour,
            ColourMode::PerStroke => crate::render::palette::stroke_colour(self.strokes),
        };
        dabs.iter().map(|d| splat(brush, colour, self.right, radius, d)).collect()
    }
}

/// The splat of one dab in ink `colour`: right button stirs (or erases walls), the mode decides
/// the rest.
fn splat(b: &Brush, colour: [f32; 3], right: bool, radius: f32, d: &Dab) -> Splat {
    let [x, y] = d.at;
    if b.mode == BrushMode::Wall {
        let mode = if right { SPLAT_ERASE_SOLID } else { SPLAT_PAINT_SOLID };
        return Splat { x, y, radius, mode, ..Splat::default() };
    }
    let stir_only = right || b.mode == BrushMode::Stir;
    let ink = if stir_only { 0.0 } else { b.amount * d.weight };
    let push = if b.mode == BrushMode::Ink { 0.0 } else { b.strength * d.weight };
    Splat {
        x,
        y,
        radius,
        mode: SPLAT_ADD,
        vx: d.velocity[0] * push,
        vy: d.velocity[1] * push,
        density: if stir_only { 0.0 } else { b.density * d.weight },
        ink_r: ink * colour[0],
        ink_g: ink * colour[1],
        ink_b: ink * colour[2],
        ..Splat::default()
    }
}

#[cfg(test)]
mod tests {
    use crate::app::input::*;

    #[test]
    fn esc_closes_the_help_first_then_quits_and_ctrl_q_quits() {
        let (mut view, mut panel) = (View::default(), PanelState { show_help: true, ..PanelState::default() });
        let esc = Key::Named(NamedKey::Escape);
        assert_eq!(key(&esc, false, false, &mut view, &mut panel), None);
        assert!(!panel.show_help);
        assert_eq!(key(&esc, false, false, &mut view, &mut panel), Some(Command::Quit));
        assert_eq!(key(&Key::Character("q".into()), true, false, &mut view, &mut panel), Some(Command::Quit));
        // plain q does nothing, Ctrl+C does not clear the ink
        assert_eq!(key(&Key::Character("q".into()), false, false, &mut view, &mut panel), None);
        assert_eq!(key(&Key::Character("c".into()), true, false, &mut view, &mut panel), None);
        assert_eq!(key(&Key::Character("c".into()), false, false, &mut view, &mut panel), Some(Command::ClearInk));
    }

    #[test]
    fn t_opens_and_closes_the_stage_view_and_esc_leaves_it_before_quitting() {
        let (mut view, mut panel) = (View::default(), PanelState::default());
        assert_eq!(key(&Key::Character("t".into()), false, false, &mut view, &mut panel), None);
        assert!(view.stage_view);
        // S still asks for a step: the app takes the next stage instead while the view is on
        assert_eq!(key(&Key::Character("s".into()), false, true, &mut view, &mut panel), Some(Command::Step));
        let esc = Key::Named(NamedKey::Escape);
        assert_eq!(key(&esc, false, true, &mut view, &mut panel), None);
        assert!(!view.stage_view);
        assert_eq!(key(&esc, false, true, &mut view, &mut panel), Some(Command::Quit));
        key(&Key::Character("T".into()), false, false, &mut view, &mut panel);
        key(&Key::Character("T".into()), false, false, &mut view, &mut panel);
        assert!(!view.stage_view);
    }

    #[test]
    fn m_takes_the_move_brush_and_gives_the_paint_brush_back() {
        let (mut view, mut panel) = (View::default(), PanelState::default());
        view.brush.mode = BrushMode::Wall;
        assert_eq!(key(&Key::Character("m".into()), false, false, &mut view, &mut panel), None);
        assert_eq!(view.brush.mode, BrushMode::Move);
        key(&Key::Character("M".into()), false, false, &mut view, &mut panel);
        assert_eq!(view.brush.mode, BrushMode::Paint);
    }

    #[test]
    fn a_drag_is_evenly_resampled_along_its_path() {
        // an L-shaped drag of 0.4 m with radius 0.04: dabs every 0.02 m, on the path, up to the end
        let path = [[0.1, 0.0], [0.2, 0.0], [0.2, 0.1], [0.2, 0.2]];
        let dabs = stroke(Some([0.0, 0.0]), &path, 0.04, 0.1);
        // 20 dabs, the last exactly at the end unless rounding puts it a hair beyond
        assert!((19..=20).contains(&dabs.len()), "{dabs:?}");
        let mut prev = [0.0f32, 0.0];
        for d in &dabs {
            let on_path = (d.at[1].abs() < 1e-5 && d.at[0] <= 0.2 + 1e-5) || ((d.at[0] - 0.2).abs() < 1e-5 && d.at[1] <= 0.2 + 1e-5);
            assert!(on_path, "dab off the path at {:?}", d.at);
            // distance along the path between neighbours (L1 works on an axis-aligned L)
            let step = (d.at[0] - prev[0]).abs() + (d.at[1] - prev[1]).abs();
            assert!((step - 0.02).abs() < 1e-4, "spacing {step}");
            prev = d.at;
        }
        // drag velocity: 0.2 m across and up in 0.1 s
        assert!((dabs[0].velocity[0] - 2.0).abs() < 1e-4 && (dabs[0].velocity[1] - 2.0).abs() < 1e-4);
    }

    #[test]
    fn a_still_button_gives_one_gentle_dab_and_fast_flicks_are_capped() {
        assert_eq!(stroke(Some([0.5, 0.5]), &[], 0.04, 0.016), vec![Dab { at: [0.5, 0.5], velocity: [0.0, 0.0], weight: 0.25 }]);
        // 1 m with a tiny brush: spacing grows so the frame holds at most MAX_DABS dabs
        let dabs = stroke(Some([0.0, 0.0]), &[[1.0, 0.0]], 0.004, 0.01);
        assert!((119..=120).contains(&dabs.len()), "{}", dabs.len());
        assert!((dabs[0].velocity[0] - MAX_DRAG_SPEED).abs() < 1e-3);
    }

    #[test]
    fn d_and_0_toggle_the_tracers_and_streamlines() {
        let (mut view, mut panel) = (View::default(), PanelState::default());
        key(&Key::Character("d".into()), false, false, &mut view, &mut panel);
        key(&Key::Character("0".into()), false, false, &mut view, &mut panel);
        assert!(view.overlays.tracers && view.overlays.streamlines);
        key(&Key::Character("D".into()), false, false, &mut view, &mut panel);
        assert!(!view.overlays.tracers);
    }

    #[test]
    fn the_tracers_brush_drops_its_particles_in_each_dabs_disc() {
        let dabs = [Splat { x: 1.0, y: 2.0, radius: 0.3, ..Splat::default() }, Splat { x: -1.0, y: 0.5, radius: 0.1, ..Splat::default() }];
        let seeds = tracer_seeds(&dabs);
        assert_eq!(seeds.len(), 2 * TRACERS_A_DAB);
        for (n, p) in seeds.iter().enumerate() {
            let d = &dabs[n / TRACERS_A_DAB];
            assert!((p[0] - d.x).hypot(p[1] - d.y) <= d.radius, "seed {p:?} outside the disc of {d:?}");
        }
        // spread over the disc, not heaped at its centre
        let far = seeds[..TRACERS_A_DAB].iter().filter(|p| (p[0] - 1.0).hypot(p[1] - 2.0) > 0.15).count();
        assert!(far >= TRACERS_A_DAB / 2, "{far} of {TRACERS_A_DAB} in the outer part of the disc");
    }
}
