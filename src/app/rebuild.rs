//! A new grid: the cost asked about first when it would not run interactively, and the state
//! built on a worker thread, so a long build (initial fields, buffers, pipelines of a huge grid)
//! never holds the window: it keeps drawing the old state and closes at once when asked.

use crate::config::{Scene, Source};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::platform::Task;
use crate::sim::Simulation;

/// A step slower than this (estimated) is not interactive: ask first.
pub const SLOW_STEP_MS: f32 = 250.0;
/// State larger than this (GPU memory) is asked about too.
pub const BIG_STATE_BYTES: u64 = 1 << 30;

/// What a grid of `new_cells` would cost, when that is worth asking about: `step_ms` is the
/// measured GPU time a step on `old_cells` (0 when unknown; the time then goes unestimated).
pub fn cost_question(step_ms: f32, old_cells: usize, new_cells: usize, bytes: u64) -> Option<String> {
    let estimate = step_ms * new_cells as f32 / old_cells.max(1) as f32;
    let slow = step_ms > 0.0 && estimate > SLOW_STEP_MS;
    if !slow && bytes <= BIG_STATE_BYTES {
        return None;
    }
    let memory = crate::sim::limits::size_text(bytes);
    let time = if step_ms > 0.0 {
        format!(
            "about {estimate:.0} ms a step on this GPU (now {step_ms:.1} ms), so a frame every {:.1} s at one step a frame",
            estimate.max(1.0) / 1e3
        )
    } else {
        "a step time this GPU cannot estimate (no timestamp queries)".to_string()
    };
    Some(format!(
        "{:.0}× the cells of the running grid: {time}; {memory} of GPU memory for the state.",
        new_cells as f32 / old_cells.max(1) as f32
    ))
}

/// A fresh simulation of `scene` (new buffers and pipelines: for a new grid).
pub fn new_sim(gpu: &Gpu, scene: &Scene, source: &Source) -> Result<Simulation> {
    crate::sim::check_dye_fits(&gpu.device.limits(), scene.grid.nx as usize, scene.grid.ny as usize, scene.dye_scale())?;
    Simulation::from_scene(gpu, scene, source)
}

/// `scene`, or, where the device's buffers cannot hold it (a big grid on a small WebGPU
/// device), the same scene with a coarser dye grid and then a halved grid until it fits, with
/// the one line that says so.
pub fn fitting(limits: &wgpu::Limits, scene: &Scene) -> (Scene, Option<String>) {
    let mut s = scene.clone();
    while crate::sim::check_dye_fits(limits, s.grid.nx as usize, s.grid.ny as usize, s.dye_scale()).is_err() && s.grid.nx.max(s.grid.ny) > 8
    {
        if s.dye_scale() > 1 {
            s.grid.dye_scale = crate::config::DyeScale::Scale((s.dye_scale() / 2) as i64);
        } else {
            let nx = s.grid.nx / 2;
            s.refine(Some(nx.max(2)), None);
        }
    }
    if s == *scene {
        return (s, None);
    }
    let line = format!(
        "a {}x{} grid (dye scale {}) does not fit this GPU's buffers: running {}x{} (dye scale {}) instead",
        scene.grid.nx,
        scene.grid.ny,
        scene.dye_scale(),
        s.grid.nx,
        s.grid.ny,
        s.dye_scale()
    );
    (s, Some(line))
}

/// Dye cells across the longer side that "auto" aims for on a software adapter: a quarter of
/// auto's cells, so the default plume keeps the window smooth on a 2-core CPU (BENCHMARKS.md,
/// "lavapipe"), and still twice the flow's resolution at 128².
pub const SOFTWARE_DYE_TARGET: usize = 256;

/// The CFL limit a software adapter's window takes where the scene keeps the default (1): the
/// default plume's fastest fluid crosses 1.0–1.1 cells a step from about step 250, which at 1
/// splits every step in two, twice a step's cost on a CPU.
/// Semi-Lagrangian tracing is stable at any CFL number; 2 still keeps a trace within two cells.
pub const SOFTWARE_MAX_CFL: f32 = 2.0;

/// `scene` for the adapter it runs on, with the line the panel shows. On a software (CPU)
/// adapter an "auto" dye grid is the smallest scale with at least 256 dye cells across instead
/// of auto's 512, and the default CFL limit is `SOFTWARE_MAX_CFL`. A GPU, or a dye scale or CFL
/// limit the scene sets, keeps the scene as it is.
pub fn for_adapter(software: bool, mut scene: Scene) -> (Scene, Option<String>) {
    if !software {
        return (scene, None);
    }
    let mut picked = Vec::new();
    let mut keys = Vec::new();
    if matches!(scene.grid.dye_scale, crate::config::DyeScale::Word(_)) {
        let (nx, ny) = (scene.grid.nx.max(1) as usize, scene.grid.ny.max(1) as usize);
        let auto = scene.dye_scale();
        let k = SOFTWARE_DYE_TARGET.div_ceil(nx.max(ny)).clamp(1, auto);
        if k != auto {
            scene.grid.dye_scale = crate::config::DyeScale::Scale(k as i64);
            picked.push(format!("dye grid {}×{} (scale {k}; auto is {auto} on a GPU)", nx * k, ny * k));
            keys.push("Grid → dye grid");
        }
    }
    let default_cfl = crate::config::scene::TimeConfig::default().max_cfl;
    if scene.time.max_cfl == default_cfl {
        scene.time.max_cfl = SOFTWARE_MAX_CFL;
        picked.push(format!("up to {SOFTWARE_MAX_CFL} cells a sub-step ({default_cfl} on a GPU)"));
        keys.push("Simulation → max CFL");
    }
    if picked.is_empty() {
        return (scene, None);
    }
    let line = format!(
        "software adapter: {} so the window keeps up; {} set{}",
        picked.join(", "),
        keys.join(" and "),
        if keys.len() == 1 { "s it" } else { " them" }
    );
    (scene, Some(line))
}

/// The scene a window started with in place of the one asked for, and why: made smaller to fit
/// the device (`fitting`), or given lighter defaults for it (`for_adapter`).
pub struct Adjusted {
    pub scene: Scene,
    pub fitted: Option<String>,
    pub for_adapter: Option<String>,
    pub picks: Picks,
}

/// What the window chose in place of the scene's own defaults (for its adapter or canvas):
/// saved scenes and links carry the scene's values again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picks {
    /// The dye scale picked for the scene's "auto".
    pub dye: Option<usize>,
    /// The CFL limit picked for the scene's (asked, picked).
    pub max_cfl: Option<(f32, f32)>,
}

impl Picks {
    /// What `running` chose where `asked` left it to the window.
    pub fn new(asked: &Scene, running: &Scene) -> Picks {
        Picks {
            dye: matches!(asked.grid.dye_scale, crate::config::DyeScale::Word(_)).then(|| running.dye_scale()),
            max_cfl: (asked.time.max_cfl != running.time.max_cfl).then_some((asked.time.max_cfl, running.time.max_cfl)),
        }
    }

    /// `s` with the scene's own values where the window's picks still stand (the panel may have
    /// changed them since, and then they are the user's).
    pub fn undo(&self, s: &mut Scene) {
        if self.dye.is_some() && self.dye == Some(s.dye_scale()) {
            s.grid.dye_scale = crate::config::DyeScale::default();
        }
        if let Some((asked, picked)) = self.max_cfl
            && s.time.max_cfl == picked
        {
            s.time.max_cfl = asked;
        }
    }
}

/// A simulation of `scene` starting from `fields` (a saved state).
pub fn sim_from_fields(gpu: &Gpu, scene: &Scene, fields: &crate::sim::fields::Fields) -> Result<Simulation> {
    crate::sim::check_dye_fits(&gpu.device.limits(), fields.nx, fields.ny, fields.dye_scale)?;
    let mut sim = Simulation::new(gpu, fields, crate::sim::params::Params::from_scene(scene), scene.solver.clone())?;
    sim.configure(scene)?;
    Ok(sim)
}

/// A state being built off the frame (a worker thread natively, the page's event loop on the
/// web).
pub struct Building {
    task: Task<Result<Simulation>>,
    pub scene: Scene,
}

impl Building {
    pub fn start(gpu: &Gpu, scene: Scene, source: Source) -> Building {
        let gpu = gpu.clone();
        let s = scene.clone();
        let task = crate::platform::spawn(move || new_sim(&gpu, &s, &source), || {});
        Building { task, scene }
    }

    /// The finished state, if it is ready.
    pub fn poll(&self) -> Option<Result<Simulation>> {
        self.task.take()
    }
}

#[cfg(test)]
mod tests {
    use crate::app::rebuild::*;

    #[test]
    fn cheap_grids_pass_and_costly_ones_are_asked_about_with_figures() {
        assert_eq!(cost_question(2.0, 128 * 128, 256 * 256, 50 << 20), None);
        let q = cost_question(18.0, 128 * 128, 2048 * 2048, 3 << 30).expect("a 2048² grid at 18 ms / 128² is asked about");
        assert!(q.contains("256×") && q.contains("4608 ms") && q.contains("3.0 GB"), "{q}");
        // no timing: only memory can tell
        assert_eq!(cost_question(0.0, 128 * 128, 1024 * 1024, 500 << 20), None);
        assert!(cost_question(0.0, 128 * 128, 4096 * 4096, 2 << 30).is_some_and(|q| q.contains("cannot estimate")));
    }

    #[test]
    fn a_grid_the_device_cannot_hold_is_made_smaller_with_one_line() {
        let (scene, _) = Scene::load("plume", &["grid.nx=1024".to_string(), "grid.ny=1024".to_string()]).unwrap();
        // 4 MB bindings: 1024² at dye scale 1 needs 12 MB of ink
        let limits = wgpu::Limits { max_storage_buffer_binding_size: 4 << 20, ..wgpu::Limits::default() };
        let (fit, line) = fitting(&limits, &scene);
        assert!(
            fit.grid.nx < 1024 && crate::sim::check_dye_fits(&limits, fit.grid.nx as usize, fit.grid.ny as usize, fit.dye_scale()).is_ok()
        );
        let line = line.expect("a line says so");
        assert!(line.contains("1024x1024") && line.contains("instead") && !line.contains('\n'), "{line}");
        let (same, none) = fitting(&wgpu::Limits::default(), &Scene::load("plume", &[]).unwrap().0);
        assert_eq!((same, none), (Scene::load("plume", &[]).unwrap().0, None));
    }

    #[test]
    fn a_software_adapter_gets_a_dye_grid_of_at_least_256_across() {
        let plume = Scene::load("plume", &[]).unwrap().0;
        assert_eq!(plume.dye_scale(), 4, "auto at 128²");
        let (cpu, line) = for_adapter(true, plume.clone());
        assert_eq!(cpu.dye_scale(), 2);
        assert!(line.is_some_and(|l| l.contains("256×256") && l.contains("software") && l.contains("2 cells a sub-step")));
        // a GPU keeps auto; a set scale is the user's
        assert_eq!(for_adapter(false, plume.clone()), (plume.clone(), None));
        let (set, _) = Scene::load("plume", &["grid.dye_scale=4".to_string(), "time.max_cfl=0.5".to_string()]).unwrap();
        assert_eq!(for_adapter(true, set.clone()), (set, None));
        // never below 256 across: a 100² grid gets 3 (300²), a 512² grid auto's 1
        let (small, _) = Scene::load("plume", &["grid.nx=100".to_string(), "grid.ny=100".to_string()]).unwrap();
        assert_eq!(for_adapter(true, small).0.dye_scale(), 3);
        let (big, _) = Scene::load("plume", &["grid.nx=512".to_string(), "grid.ny=512".to_string()]).unwrap();
        let (cpu_big, line) = for_adapter(true, big.clone());
        assert_eq!(cpu_big.dye_scale(), big.dye_scale());
        assert!(line.is_some_and(|l| !l.contains("dye grid") && l.contains("Simulation → max CFL sets it")));
    }

    #[test]
    fn a_software_adapter_takes_two_cells_a_sub_step_where_the_scene_keeps_the_default() {
        let plume = Scene::load("plume", &[]).unwrap().0;
        assert_eq!(plume.time.max_cfl, 1.0);
        let (cpu, _) = for_adapter(true, plume.clone());
        assert_eq!(cpu.time.max_cfl, SOFTWARE_MAX_CFL);
        // no sub-steps at all (0) is the scene's choice too
        let (none, _) = Scene::load("plume", &["time.max_cfl=0".to_string()]).unwrap();
        assert_eq!(for_adapter(true, none.clone()).0.time.max_cfl, 0.0);
    }

    #[test]
    fn picks_are_undone_for_saving_unless_the_panel_changed_them() {
        let plume = Scene::load("plume", &[]).unwrap().0;
        let (cpu, _) = for_adapter(true, plume.clone());
        let picks = Picks::new(&plume, &cpu);
        assert_eq!(picks, Picks { dye: Some(2), max_cfl: Some((1.0, SOFTWARE_MAX_CFL)) });
        let mut saved = cpu.clone();
        picks.undo(&mut saved);
        assert_eq!(saved, plume, "a saved scene opens as the scene did");
        // the user moved the slider: their value is saved
        let mut edited = cpu.clone();
        edited.time.max_cfl = 1.5;
        picks.undo(&mut edited);
        assert_eq!(edited.time.max_cfl, 1.5);
        assert_eq!(Picks::new(&plume, &plume), Picks { dye: Some(4), max_cfl: None });
    }
}
