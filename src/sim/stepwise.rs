//! A step taken apart (the stage view, key T): the passes of one step (DESIGN.md §2), one stage
//! at a time, each encoded on its own so the overlays can show what it did. The stages are those
//! of `Simulation::encode_substep`, in its order: sources and forces, viscosity (ν > 0),
//! divergence, the pressure after 1, 2, 4, … units of the solve, the solve with its own stopping
//! rule, the edge-velocity correction, advection.
//!
//! The pressure stages before the solve are pictures, not steps: each puts back the pressure the
//! step started from (`p`, `p_prev`, `p_prev2`) and runs k units of a fixed count from the same
//! start, then the divergence that correcting with that pressure would leave is formed in the
//! divergence-after buffer, on a copy of u, v that is put back. The solve stage then puts the
//! pressures back once more and runs the very solve a step runs; the solver's memory is kept
//! (`Solvers::keeping_memory`), so a step taken by stages leaves the state bit for bit as one
//! taken at once (tests/stepwise.rs).
//!
//! With multigrid, the V-cycle's levels follow the pressure after one V-cycle (or the solve,
//! where that is its only one): the level buffers still hold that V-cycle's values, so each
//! level's restricted residual (going down) and correction (going up) is drawn from them
//! (src/sim/level_picture.rs) into the divergence-after buffer, nothing run again. Levels below
//! `Multigrid::levels_in_buffers` live only in workgroup memory and are not shown.

use super::level_picture::{LevelPart, LevelPicture};
use super::params::Splat;
use super::solver::{SolveSpec, unit_sweeps};
use super::stage::{copy_all, timed_pass};
use super::{Simulation, substeps};
use crate::config::SolverKind;
use crate::error::Result;

/// One stage of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Brush dabs and emitters, then buoyancy, damping and vorticity confinement.
    SourcesAndForces,
    /// Implicit viscosity (only where ν > 0).
    Viscosity,
    /// The divergence of the velocity so far: the solve's right-hand side.
    Divergence,
    /// The pressure after this many units (Jacobi or SOR sweeps, V-cycles, MGPCG iterations) of
    /// a fixed count from the step's start, and the divergence its correction would leave.
    Pressure(u32),
    /// A multigrid level (from 1, `nx` × `ny` cells) of the V-cycle just run: its rhs (the
    /// residual restricted onto it) or its x (its correction).
    Level { level: u32, nx: u32, ny: u32, part: LevelPart },
    /// The solve with its own stopping rule (its tolerance or its count).
    Solve,
    /// The edge-velocity correction u -= Δt/(ρh)·(p_right - p_left).
    Project,
    /// Velocity, ink and density carried along the flow.
    Advect,
}

/// What decides a sub-step's stages.
#[derive(Clone, Debug, PartialEq)]
pub struct StageSettings {
    pub kind: SolverKind,
    /// The solve's count (sweeps or V-cycles): its cap with a tolerance.
    pub iterations: u32,
    /// Relative residual at which the solve stops (0: it runs `iterations`).
    pub tolerance: f32,
    /// Sweeps or V-cycles the last solves needed, where known (the solver's prediction).
    pub needed: Option<u32>,
    /// ν > 0 and the flow not frozen.
    pub viscous: bool,
    /// The step projects: the flow is not frozen, or velocity was painted into it.
    pub projects: bool,
    /// Sizes of the multigrid levels 1.. whose values a V-cycle leaves in the level buffers
    /// (empty unless the solver is multigrid).
    pub levels: Vec<[u32; 2]>,
}

/// The V-cycle's levels: the residual restricted onto each going down, then each correction
/// going up.
fn level_stages(levels: &[[u32; 2]]) -> impl Iterator<Item = Stage> + '_ {
    let at = |(k, &[nx, ny]): (usize, &[u32; 2]), part| Stage::Level { level: k as u32 + 1, nx, ny, part };
    let down = levels.iter().enumerate().map(move |l| at(l, LevelPart::Residual));
    down.chain(levels.iter().enumerate().rev().map(move |l| at(l, LevelPart::Correction)))
}

/// The stages of one sub-step. The pressure is shown after 1, 2, 4, … units, below the count
/// the solve runs (with a tolerance: what the last solves needed, else the cap).
pub fn stage_list(s: &StageSettings) -> Vec<Stage> {
    let mut stages = vec![Stage::SourcesAndForces];
    if s.viscous {
        stages.push(Stage::Viscosity);
    }
    if s.projects {
        stages.push(Stage::Divergence);
        let end = if s.tolerance > 0.0 { s.needed.unwrap_or(s.iterations).min(s.iterations) } else { s.iterations };
        let mut k = 1;
        while k < end {
            stages.push(Stage::Pressure(k));
            if k == 1 {
                stages.extend(level_stages(&s.levels));
            }
            k *= 2;
        }
        stages.push(Stage::Solve);
        if end <= 1 {
            // the solve's one V-cycle left its levels
            stages.extend(level_stages(&s.levels));
        }
        stages.push(Stage::Project);
    }
    stages.push(Stage::Advect);
    stages
}

/// The unit of a solver kind's count, singular and plural.
pub fn unit_name(kind: SolverKind) -> (&'static str, &'static str) {
    match kind {
        SolverKind::Jacobi => ("Jacobi sweep", "Jacobi sweeps"),
        SolverKind::Sor => ("SOR sweep", "SOR sweeps"),
        SolverKind::Multigrid => ("V-cycle", "V-cycles"),
        SolverKind::Mgpcg => ("MGPCG iteration", "MGPCG iterations"),
    }
}

/// The line on the field that names a stage.
pub fn stage_title(stage: Stage, kind: SolverKind) -> String {
    match stage {
        Stage::SourcesAndForces => "sources and forces: the brush, emitters, buoyancy and confinement push the edges".into(),
        Stage::Viscosity => "viscosity: implicit diffusion of the edge velocities".into(),
        Stage::Divergence => "divergence: ∇·u of the velocity so far, before the solve".into(),
        Stage::Pressure(k) => {
            let (one, many) = unit_name(kind);
            format!("pressure after {k} {}, and the divergence its correction would leave", if k == 1 { one } else { many })
        }
        Stage::Level { level, nx, ny, part } => {
            let size = side(nx, ny);
            match part {
                LevelPart::Residual => {
                    format!("V-cycle level {level} ({size}): the residual of level {} restricted onto it", level - 1)
                }
                LevelPart::Correction => format!("V-cycle level {level} ({size}): its correction, sent up to level {}", level - 1),
            }
        }
        Stage::Solve => "pressure solve to its stopping rule, and the divergence its correction leaves".into(),
        Stage::Project => "correction: the pressure's gradient taken off the edge velocities".into(),
        Stage::Advect => "advection: velocity, ink and density carried along the flow".into(),
    }
}

/// A stage's equation in words, for the panel.
pub fn stage_equation(stage: Stage, kind: SolverKind, levels: &str) -> String {
    match stage {
        Stage::SourcesAndForces => "u ← u + Δt·f on every edge: the brush's push inside its disk, buoyancy −g·ρ′/ρ₀ on the \
             vertical edges, damping, and confinement ε·h·(N × ω) where set; ink and density are added where painted."
            .into(),
        Stage::Viscosity => "(I − νΔt∇²) u_new = u: each edge velocity is pulled toward the mean of its neighbours, solved \
             implicitly by Chebyshev sweeps."
            .into(),
        Stage::Divergence => "div = (u[j][i+1] − u[j][i] + v[j+1][i] − v[j][i]) / h: what flows out of each cell per second. \
             The solve looks for the pressure whose gradient removes it: ∇²p = (ρ/Δt)·div."
            .into(),
        Stage::Pressure(_) | Stage::Solve => {
            let how = match kind {
                SolverKind::Jacobi => "Jacobi: every cell at once takes the mean of its fluid neighbours' pressures less \
                     (ρh²/Δt)·div, weighted w against its old value (w = 0.8 keeps the checkerboard mode decaying)."
                    .to_string(),
                SolverKind::Sor => "SOR: the red cells, then the black, each moved ω times as far as to the mean of its \
                     neighbours less (ρh²/Δt)·div (over-relaxation, ω > 1)."
                    .to_string(),
                SolverKind::Multigrid => format!(
                    "A V-cycle: two red-black sweeps, the residual restricted to the coarser level, down the levels \
                     {levels}, the coarsest solved exactly, each correction prolonged back up and smoothed by two sweeps."
                ),
                SolverKind::Mgpcg => format!(
                    "Conjugate gradients, preconditioned by one V-cycle ({levels}) an iteration: a step to the energy's \
                     minimum along a direction made conjugate to the last."
                ),
            };
            let end = if stage == Stage::Solve {
                " The solve stops at its tolerance (max |residual| / max |div|) or its cap."
            } else {
                " Shown: the pressure after these units from the step's start, and the divergence left if the edges were \
                 corrected with it."
            };
            how + end
        }
        Stage::Level { level, part, .. } => {
            let what = match part {
                LevelPart::Residual => format!(
                    "r = b − A·x of level {} after its two red-black sweeps, each 2×2 block of it summed into one cell: \
                     the right-hand side of level {level}'s equation A·e = r for the error e.",
                    level - 1
                ),
                LevelPart::Correction => format!(
                    "e on level {level} after the levels below corrected it and two sweeps smoothed it: what is \
                     interpolated bilinearly onto level {} and added to its x.",
                    level - 1
                ),
            };
            let cover = 1u32 << level;
            format!(
                "{what} Shown after the first V-cycle, each cell of level {level} over the {cover}×{cover} cells it covers \
                 (Pa, signed scale); the levels below the last shown are solved in one workgroup's memory. V-cycle: {levels}."
            )
        }
        Stage::Project => "u −= Δt/(ρh)·(p_right − p_left) on every vertical edge, v likewise with p_top − p_bottom; \
             faces of solids keep zero normal velocity. The divergence left is what the solve did not remove."
            .into(),
        Stage::Advect => "u(x) ← u(x − Δt·u(x)): each edge velocity, ink and density value is traced back along the \
             flow and sampled there (semi-Lagrangian by default)."
            .into(),
    }
}

/// The multigrid levels' sizes, finest first: "128² → 64² → 32² → 16²".
pub fn level_sizes(nx: usize, ny: usize) -> String {
    super::multigrid::levels::levels(nx, ny).iter().map(|l| side(l.nx, l.ny)).collect::<Vec<_>>().join(" → ")
}

/// A level's size: "64²", or "64×32".
fn side(w: u32, h: u32) -> String {
    if w == h { format!("{w}²") } else { format!("{w}×{h}") }
}

/// The pressures the step started from and a copy of the velocity, kept while a stage looks
/// ahead.
struct Kept {
    p: wgpu::Buffer,
    /// The solve's p and dp apart (`Solvers::unmerged`), for the correction stage, while the
    /// solve stage shows their sum; `split` says they are there.
    base: wgpu::Buffer,
    dp: wgpu::Buffer,
    split: std::cell::Cell<bool>,
    p_prev: wgpu::Buffer,
    p_prev2: wgpu::Buffer,
    u: wgpu::Buffer,
    v: wgpu::Buffer,
}

/// A step under way, stage by stage.
pub struct Stepwise {
    /// This sub-step's stages.
    pub stages: Vec<Stage>,
    /// Stages of this sub-step taken.
    pub taken: usize,
    /// The last stage taken (None: none yet since the view opened).
    pub shown: Option<Stage>,
    /// The sub-step under way (from 0) and the step's plan, while a step is under way.
    pub substep: u32,
    pub plan: Option<substeps::Plan>,
    /// The scene's dt, put back when the step ends.
    dt: f32,
    splats: Vec<Splat>,
    kept: Kept,
    levels: LevelPicture,
}

impl Stepwise {
    /// Whether a step is under way (some of its stages taken, not all).
    pub fn in_step(&self) -> bool {
        self.plan.is_some()
    }

    /// Drops the step under way (the state was replaced: a restart, another scene); the next
    /// stage begins a step of the new state.
    pub fn forget_step(&mut self) {
        (self.plan, self.taken, self.substep, self.shown) = (None, 0, 0, None);
        self.splats.clear();
    }
}

fn spare(device: &wgpu::Device, like: &wgpu::Buffer, label: &str) -> wgpu::Buffer {
    let usage = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size: like.size(), usage, mapped_at_creation: false })
}

impl Simulation {
    /// Opens the stage view: the buffers it keeps, the divergence after the correction, and the
    /// stages of the next step.
    pub fn stepwise(&mut self) -> Result<Stepwise> {
        self.enable_div_after()?;
        let b = &self.buffers;
        let d = &self.device;
        let kept = Kept {
            p: spare(d, &b.p, "kept p"),
            base: spare(d, &b.p, "kept p before the correction"),
            dp: spare(d, &b.dp, "kept dp"),
            split: std::cell::Cell::new(false),
            p_prev: spare(d, &b.p_prev, "kept p_prev"),
            p_prev2: spare(d, &b.p_prev2, "kept p_prev2"),
            u: spare(d, &b.u, "kept u"),
            v: spare(d, &b.v, "kept v"),
        };
        let mut pending = self.emitters.clone();
        pending.extend_from_slice(&self.pending_splats);
        let stages = stage_list(&self.stage_settings(&pending));
        let (mg, picture) = (&self.stages.solvers.mg, &self.div_after.as_ref().expect("enabled above").buffer);
        let levels = LevelPicture::new(&self.ctx(), mg.levels(), &mg.buffers, picture)?;
        let dt = self.params.dt;
        Ok(Stepwise { stages, taken: 0, shown: None, substep: 0, plan: None, dt, splats: Vec::new(), kept, levels })
    }

    /// What decides the stages of a sub-step with `splats`.
    pub fn stage_settings(&self, splats: &[Splat]) -> StageSettings {
        let spec = self.solve_spec();
        let freeze = self.freeze_velocity;
        let mg = &self.stages.solvers.mg;
        let shown = if spec.kind == SolverKind::Multigrid { mg.levels_in_buffers() } else { 0 };
        StageSettings {
            kind: spec.kind,
            iterations: spec.iterations,
            tolerance: spec.tolerance,
            needed: self.stages.solvers.units_now().map(|u| u * unit_sweeps(spec.kind)),
            viscous: !freeze && self.params.viscosity > 0.0,
            projects: !freeze || substeps::speed_with_splats(0.0, splats) > 0.0,
            levels: mg.levels()[1..=shown].iter().map(|l| [l.nx, l.ny]).collect(),
        }
    }

    /// Encodes the next stage (beginning a step where none is under way) and returns it.
    pub fn encode_stage(&mut self, w: &mut Stepwise, encoder: &mut wgpu::CommandEncoder) -> Stage {
        if w.plan.is_none() {
            let (splats, dt, plan) = self.begin_step(encoder);
            w.dt = dt;
            (w.plan, w.substep, w.taken, w.splats) = (Some(plan), 0, 0, splats);
        }
        let splats = if w.substep == 0 { w.splats.clone() } else { self.emitters.clone() };
        if w.taken == 0 {
            w.stages = stage_list(&self.stage_settings(&splats));
        }
        let stage = w.stages[w.taken];
        self.encode_one(stage, w, &splats, encoder);
        w.taken += 1;
        w.shown = Some(stage);
        if w.taken == w.stages.len() {
            self.time += self.params.dt as f64;
            w.taken = 0;
            w.substep += 1;
            // as `encode_step`: the body's cells move once, in the first sub-step
            self.params.body_stage = super::params::BODY_NONE;
            let plan = w.plan.expect("a step under way");
            if w.substep == plan.substeps {
                self.params.dt = w.dt;
                self.last_plan = plan;
                self.step_index += 1;
                (w.plan, w.substep) = (None, 0);
                if self.max_cfl > 0.0 {
                    // the speeds that plan the next step's sub-steps, as a frame reduces them
                    timed_pass(encoder, None, "stats", |pass| self.stages.stats.encode_speeds(pass));
                    self.readback.encode_copy(encoder, &self.buffers.stats, super::Figures::Speeds, self.step_index, self.time);
                }
            }
        }
        stage
    }

    /// Encodes the rest of the step under way, if any (leaving the view mid-step).
    pub fn finish_stages(&mut self, w: &mut Stepwise, encoder: &mut wgpu::CommandEncoder) {
        while w.in_step() {
            self.encode_stage(w, encoder);
        }
    }

    fn encode_one(&mut self, stage: Stage, w: &Stepwise, splats: &[Splat], encoder: &mut wgpu::CommandEncoder) {
        let kept = &w.kept;
        if stage == Stage::SourcesAndForces {
            self.prepare(encoder, splats);
        }
        let s = &self.stages;
        let b = &self.buffers;
        let freeze = self.freeze_velocity;
        let pressures = [(&b.p, &kept.p), (&b.p_prev, &kept.p_prev), (&b.p_prev2, &kept.p_prev2)];
        match stage {
            Stage::SourcesAndForces => {
                if self.params.splat_count > 0 {
                    s.sources.encode(encoder, None, self.edits_solids, &self.reach, freeze);
                }
                if !freeze {
                    s.encode_forces(encoder, None, self.params.vorticity != 0.0);
                }
                self.last_step_solved |= !freeze || substeps::speed_with_splats(0.0, splats) > 0.0;
            }
            Stage::Viscosity => s.viscosity.encode(encoder, None, b, &self.params, self.viscosity_iterations),
            Stage::Divergence => {
                timed_pass(encoder, None, "divergence", |pass| s.divergence.encode(pass));
                pressures.iter().for_each(|(from, to)| copy_all(encoder, from, to));
            }
            Stage::Pressure(k) => {
                pressures.iter().for_each(|(to, from)| copy_all(encoder, from, to));
                let spec = SolveSpec { iterations: k, tolerance: 0.0, ..self.solve_spec() };
                s.solvers.keeping_memory(|solvers| solvers.encode_solve(encoder, None, b, spec, self.params.bc_kind));
                self.encode_divergence_left(kept, encoder);
                timed_pass(encoder, None, "pressure", |pass| s.solvers.encode_merge(pass));
            }
            Stage::Solve => {
                pressures.iter().for_each(|(to, from)| copy_all(encoder, from, to));
                s.solvers.encode_solve(encoder, None, b, self.solve_spec(), self.params.bc_kind);
                self.encode_divergence_left(kept, encoder);
                // the pressure shown is p + dp; the correction stage takes the two apart, as a step does
                kept.split.set(s.solvers.unmerged());
                if kept.split.get() {
                    copy_all(encoder, &b.p, &kept.base);
                    copy_all(encoder, &b.dp, &kept.dp);
                    timed_pass(encoder, None, "pressure", |pass| s.solvers.encode_merge(pass));
                }
            }
            Stage::Level { level, part, .. } => {
                timed_pass(encoder, None, "level_picture", |pass| w.levels.encode(pass, level as usize, part))
            }
            Stage::Project => {
                if kept.split.replace(false) {
                    copy_all(encoder, &kept.base, &b.p);
                    copy_all(encoder, &kept.dp, &b.dp);
                    s.solvers.set_unmerged(true);
                }
                timed_pass(encoder, None, "project", |pass| {
                    s.project.encode(pass);
                    s.solvers.encode_merge(pass);
                    if let Some(d) = &self.div_after {
                        d.encode(pass);
                    }
                });
            }
            Stage::Advect => {
                s.advection.encode(encoder, None, b, freeze, self.params.schemes);
                // the tracers ride the same velocity, as in `encode_substep`
                if s.tracers.active() {
                    timed_pass(encoder, None, "tracers", |pass| s.tracers.encode(pass));
                }
            }
        }
    }

    /// The divergence a correction with the pressure as it is would leave, into the
    /// divergence-after buffer, the velocity put back as it was.
    fn encode_divergence_left(&self, kept: &Kept, encoder: &mut wgpu::CommandEncoder) {
        let b = &self.buffers;
        copy_all(encoder, &b.u, &kept.u);
        copy_all(encoder, &b.v, &kept.v);
        timed_pass(encoder, None, "project", |pass| {
            self.stages.project.encode(pass);
            if let Some(d) = &self.div_after {
                d.encode(pass);
            }
        });
        copy_all(encoder, &kept.u, &b.u);
        copy_all(encoder, &kept.v, &b.v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(kind: SolverKind, iterations: u32, tolerance: f32, needed: Option<u32>) -> StageSettings {
        StageSettings { kind, iterations, tolerance, needed, viscous: false, projects: true, levels: Vec::new() }
    }

    #[test]
    fn a_fixed_count_shows_the_pressure_after_powers_of_two_below_it() {
        use Stage::*;
        let list = stage_list(&settings(SolverKind::Jacobi, 40, 0.0, Some(8)));
        let want = [SourcesAndForces, Divergence, Pressure(1), Pressure(2), Pressure(4), Pressure(8), Pressure(16), Pressure(32)];
        assert_eq!(list[..8], want);
        assert_eq!(list[8..], [Solve, Project, Advect]);
        // 32 is a power of two: the solve itself is its last picture
        let list = stage_list(&settings(SolverKind::Sor, 32, 0.0, None));
        assert_eq!(list.iter().filter(|s| matches!(s, Pressure(_))).count(), 5);
    }

    #[test]
    fn a_tolerance_shows_the_units_the_last_solves_needed_else_the_cap() {
        use Stage::*;
        let mg = stage_list(&settings(SolverKind::Multigrid, 20, 1e-4, Some(3)));
        assert_eq!(mg, [SourcesAndForces, Divergence, Pressure(1), Pressure(2), Solve, Project, Advect]);
        let first = stage_list(&settings(SolverKind::Mgpcg, 40, 1e-4, None));
        assert_eq!(first.iter().filter(|s| matches!(s, Pressure(_))).count(), 6, "{first:?}");
        // a prediction above the cap is cut to it
        let jacobi = stage_list(&settings(SolverKind::Jacobi, 100, 1e-4, Some(800)));
        assert_eq!(jacobi.iter().rfind(|s| matches!(s, Pressure(_))), Some(&Pressure(64)));
    }

    #[test]
    fn multigrid_shows_its_levels_after_its_first_vcycle() {
        use LevelPart::*;
        use Stage::*;
        let lv = |level, n, part| Level { level, nx: n, ny: n, part };
        let levels = vec![[64, 64], [32, 32]];
        let list = stage_list(&StageSettings { levels: levels.clone(), ..settings(SolverKind::Multigrid, 4, 0.0, None) });
        let down_and_up = [lv(1, 64, Residual), lv(2, 32, Residual), lv(2, 32, Correction), lv(1, 64, Correction)];
        assert_eq!(list[..3], [SourcesAndForces, Divergence, Pressure(1)]);
        assert_eq!(list[3..7], down_and_up);
        assert_eq!(list[7..], [Pressure(2), Solve, Project, Advect]);
        // a solve of one V-cycle: its levels follow it
        let one = stage_list(&StageSettings { levels, ..settings(SolverKind::Multigrid, 1, 0.0, None) });
        assert_eq!(one[2..7], [Solve, down_and_up[0], down_and_up[1], down_and_up[2], down_and_up[3]]);
        assert_eq!(
            stage_title(lv(1, 64, Residual), SolverKind::Multigrid),
            "V-cycle level 1 (64²): the residual of level 0 restricted onto it"
        );
    }

    #[test]
    fn viscosity_and_a_frozen_flow_change_the_list() {
        use Stage::*;
        let viscous = StageSettings { viscous: true, ..settings(SolverKind::Multigrid, 1, 0.0, None) };
        assert_eq!(stage_list(&viscous), [SourcesAndForces, Viscosity, Divergence, Solve, Project, Advect]);
        let frozen = StageSettings { projects: false, ..settings(SolverKind::Multigrid, 20, 1e-4, None) };
        assert_eq!(stage_list(&frozen), [SourcesAndForces, Advect]);
    }

    #[test]
    fn every_stage_has_a_title_and_an_equation() {
        let levels = level_sizes(128, 128);
        assert_eq!(levels, "128² → 64² → 32² → 16²");
        for kind in [SolverKind::Jacobi, SolverKind::Sor, SolverKind::Multigrid, SolverKind::Mgpcg] {
            let sizes = vec![[64, 64], [32, 32]];
            for stage in stage_list(&StageSettings { viscous: true, levels: sizes, ..settings(kind, 8, 0.0, None) }) {
                assert!(!stage_title(stage, kind).is_empty() && stage_equation(stage, kind, &levels).len() > 40);
            }
        }
        assert!(stage_equation(Stage::Solve, SolverKind::Multigrid, &levels).contains("64²"));
        assert_eq!(
            stage_title(Stage::Pressure(2), SolverKind::Sor),
            "pressure after 2 SOR sweeps, and the divergence its correction would leave"
        );
    }
}
