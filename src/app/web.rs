//! The app as a web page: the URL gives the scene and its `--set` overrides (and `view.` keys
//! for the view settings, which win over those kept in localStorage), winit runs on the page's
//! canvas, and without WebGPU the page says so in one sentence. `?embed` makes it a part of
//! another page (the field alone, filling its frame); a narrow or touch screen opens with the
//! panel folded.

use super::{App, DEFAULT_SCENE, selftest};
use crate::config::Scene;
use crate::platform;
use winit::event_loop::EventLoop;
use winit::platform::web::EventLoopExtWebSys;

/// The page's entry point (src/bin/smokebox-web.rs).
pub fn run_web() {
    console_error_panic_hook::set_once();
    let page = platform::url_setup();
    if !platform::has_webgpu() {
        no_webgpu(page.selftest);
        return;
    }
    let (view_sets, scene_sets): (Vec<String>, Vec<String>) = page.overrides.iter().cloned().partition(|o| o.starts_with("view."));
    let name = page.scene.clone().unwrap_or_else(|| DEFAULT_SCENE.to_string());
    let loaded = Scene::load(&name, &scene_sets).and_then(|(s, src)| s.validate_geometry(&src).map(|()| (s, src)));
    let (scene, source) = match loaded {
        Ok(x) => x,
        Err(e) => {
            platform::show_message(&format!("{e} (the page opened {DEFAULT_SCENE} instead)"));
            Scene::load(DEFAULT_SCENE, &[]).expect("the default scene loads")
        }
    };
    // an embedded page is what its URL says, whatever this browser kept for the page itself
    let store = if page.embed { None } else { crate::ui::view::config_dir() };
    let mut app = App::new(scene, source, None, store);
    if page.embed {
        app.view = app.view.clone().embedded();
        platform::mark_page("embed");
    } else if platform::small_screen() {
        // the panel would take most of a phone's width: it opens folded, behind its button
        app.view.show_panel = false;
        // (folded for this screen, not kept for the next visit)
        app.saved_view.0.show_panel = false;
    }
    for o in &view_sets {
        match app.view.with_override(o.trim_start_matches("view.")) {
            Ok(v) => app.view = v,
            Err(e) => platform::show_message(&e.to_string()),
        }
    }
    if app.view.background_alpha < 1.0 {
        platform::mark_page("see-through");
    }
    if page.after_reload {
        app.selftest = Some(selftest::SelfTest::after_reload());
    } else if page.embed_checks {
        app.selftest = Some(selftest::SelfTest::embedded());
    } else if page.views_checks {
        app.selftest = Some(selftest::SelfTest::views());
    } else if page.selftest {
        app.selftest = Some(selftest::SelfTest::default());
    } else if page.bench {
        app.selftest = Some(selftest::SelfTest::bench());
    }
    app.page = page;
    let event_loop = match EventLoop::new() {
        Ok(l) => l,
        Err(e) => return platform::show_message(&format!("cannot start the page's event loop: {e}")),
    };
    app.wake = Some(event_loop.create_proxy());
    event_loop.spawn_app(app);
}

/// The page's dye grid: where the scene leaves `grid.dye_scale` to "auto", about one dye cell a
/// device pixel of the field the page can show, and never more than auto gives the desktop (the
/// device's limits are checked when the grid is made; `rebuild::fitting`).
pub(super) fn page_dye(mut scene: Scene) -> Scene {
    if !matches!(scene.grid.dye_scale, crate::config::DyeScale::Word(_)) {
        return scene;
    }
    let (w, h) = platform::screen_px();
    // the panel takes about 300 px of the width when shown
    let field = (w - 300.0).max(h).min(w).max(64.0);
    let longest = scene.grid.nx.max(scene.grid.ny).max(1) as f64;
    let k = ((field / longest).ceil() as usize).clamp(1, scene.dye_scale());
    scene.grid.dye_scale = crate::config::DyeScale::Scale(k as i64);
    scene
}

/// No WebGPU: the one sentence (and the self-test's answer).
fn no_webgpu(selftest: bool) {
    platform::show_message(platform::NO_WEBGPU);
    if selftest {
        let body =
            serde_json::json!({ "ok": false, "no_webgpu": true, "navigator_gpu": platform::has_webgpu(), "message": platform::NO_WEBGPU });
        platform::post("/result", &body.to_string());
    }
}

impl App {
    /// The window's device is open: files may be dropped on the page; the self-test starts.
    pub(super) fn on_started(&mut self) {
        let wake = self.wake.clone();
        platform::accept_drops(move || {
            if let Some(w) = &wake {
                let _ = w.send_event(());
            }
        });
        platform::say(&format!("{} on {}", self.source.label(), self.stats.adapter));
        if let Some(steps) = self.page.steps {
            self.stepper.set_paused(false);
            self.view.every_step = true;
            self.run_until = Some(steps);
        }
    }

    /// The device or window could not be made: with no adapter the one sentence; the self-test
    /// reports.
    pub(super) fn on_failed(&mut self, e: &crate::Error) {
        if e.to_string() == platform::NO_WEBGPU {
            no_webgpu(self.selftest.is_some());
        } else if self.selftest.is_some() {
            platform::post("/result", &serde_json::json!({ "ok": false, "error": e.to_string() }).to_string());
        }
    }

    /// Before each frame on the page: the self-test's next move.
    pub(super) fn page_frame(&mut self) {
        if let Some(mut t) = self.selftest.take() {
            t.tick(self);
            self.selftest = Some(t);
        }
    }

    /// After each frame is drawn (and before the browser presents it, so the canvas can still be
    /// read): the self-test keeps the canvas where a check asked for it; `?steps=N` pauses at
    /// step N and tells the browser test, with the canvas.
    pub(super) fn page_frame_drawn(&mut self) {
        if let Some(mut t) = self.selftest.take() {
            t.drawn(self);
            self.selftest = Some(t);
        }
        if self.running.as_ref().is_some_and(|r| r.sim.step_index > 0) {
            platform::show_status("");
            self.first_step_at.get_or_insert_with(crate::platform::Instant::now);
        }
        if let (Some(n), Some(r)) = (self.run_until, &self.running)
            && r.sim.step_index >= n
        {
            self.run_until = None;
            self.stepper.set_paused(true);
            let body = serde_json::json!({
                "step": r.sim.step_index,
                "scene": self.source.label(),
                "solver": toml::Value::try_from(&self.scene.solver.kind).map(|v| v.as_str().unwrap_or_default().to_string()).unwrap_or_default(),
                "nx": r.sim.nx,
                "ny": r.sim.ny,
                "viewport": [self.viewport.x, self.viewport.y, self.viewport.w, self.viewport.h],
                "canvas_size": [r.config.width, r.config.height],
                // the frames after the first step's, as the page's clock saw them
                "ms_after_first_step": self.first_step_at.map(|t| t.elapsed().as_secs_f64() * 1e3),
                "show_panel": self.view.show_panel,
                "field_text": self.view.field_text,
                "canvas_png": platform::canvas_png(),
                "faults": platform::take_faults(),
            });
            platform::post("/done", &body.to_string());
        }
    }
}
