//! Splats that come by themselves while nobody touches the field (`view.idle_splats`, on in a
//! page embedded as a background): after that many seconds without input, a few at a time at
//! random places, each in a random bright colour and pushing in a random direction, until the
//! next input.

use crate::platform::{Duration, Instant};
use crate::sim::params::{SPLAT_ADD, Splat};

/// The gap between two bursts of idle splats, at its shortest; each gap adds up to as much again.
const GAP: Duration = Duration::from_millis(700);
/// Ink added at a splat's centre, per colour (its palette colour times this).
const INK: f32 = 1.5;
/// A splat's push, in domain sides a second.
const SPEED: f32 = 1.2;
/// Its radius, as a multiple of the brush's.
const RADIUS: f32 = 1.5;

pub struct IdleSplats {
    last_input: Instant,
    /// When the next burst comes, once the field is idle.
    next: Option<Instant>,
    /// The random stream (xorshift64*).
    seed: u64,
}

impl Default for IdleSplats {
    fn default() -> Self {
        let nanos = crate::platform::SystemTime::now().duration_since(crate::platform::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        IdleSplats { last_input: Instant::now(), next: None, seed: nanos | 1 }
    }
}

impl IdleSplats {
    /// Input came: the idle time starts again.
    pub fn input(&mut self) {
        self.last_input = Instant::now();
        self.next = None;
    }

    /// A number in 0..1.
    fn random(&mut self) -> f32 {
        let mut x = self.seed;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.seed = x;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }

    /// This frame's splats in a domain `size` metres wide and high (none unless the field has
    /// been idle `after_s` seconds, 0 meaning never), `radius` the brush's in metres.
    pub fn due(&mut self, after_s: f32, size: [f32; 2], radius: f32) -> Vec<Splat> {
        let now = Instant::now();
        if after_s <= 0.0 || !after_s.is_finite() || now.duration_since(self.last_input).as_secs_f32() < after_s {
            self.next = None;
            return Vec::new();
        }
        if self.next.is_some_and(|at| now < at) {
            return Vec::new();
        }
        self.next = Some(now + GAP.mul_f32(1.0 + self.random()));
        let side = size[0].max(size[1]);
        let burst = 1 + (self.random() * 3.0) as usize;
        (0..burst)
            .map(|_| {
                let (x, y) = ((0.1 + 0.8 * self.random()) * size[0], (0.1 + 0.8 * self.random()) * size[1]);
                let angle = std::f32::consts::TAU * self.random();
                let speed = SPEED * side * (0.5 + self.random());
                let colour = crate::render::palette::stroke_colour((self.random() * 1000.0) as u64);
                Splat {
                    x,
                    y,
                    radius: RADIUS * radius,
                    mode: SPLAT_ADD,
                    vx: speed * angle.cos(),
                    vy: speed * angle.sin(),
                    ink_r: INK * colour[0],
                    ink_g: INK * colour[1],
                    ink_b: INK * colour[2],
                    ..Splat::default()
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_splats_come_only_after_the_idle_time_and_stop_at_input() {
        // never, at 0
        let mut idle = IdleSplats { last_input: Instant::now() - Duration::from_secs(100), ..Default::default() };
        assert!(idle.due(0.0, [1.0, 1.0], 0.04).is_empty());
        // not before the idle time
        idle.input();
        assert!(idle.due(5.0, [1.0, 1.0], 0.04).is_empty());
        // after it: a burst inside the domain, then nothing until the gap has passed
        idle.last_input = Instant::now() - Duration::from_secs(6);
        let burst = idle.due(5.0, [2.0, 1.0], 0.04);
        assert!((1..=3).contains(&burst.len()), "{burst:?}");
        for s in &burst {
            assert!((0.0..2.0).contains(&s.x) && (0.0..1.0).contains(&s.y), "{s:?}");
            assert!(s.ink_r + s.ink_g + s.ink_b > 1.0 && s.vx.hypot(s.vy) > 0.5, "{s:?}");
        }
        assert!(idle.due(5.0, [2.0, 1.0], 0.04).is_empty(), "the next burst waits its gap");
        idle.input();
        assert!(idle.due(5.0, [2.0, 1.0], 0.04).is_empty(), "input stops them");
    }
}
