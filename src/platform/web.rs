//! The web page's side of the platform seam: the browser's event loop, downloads, localStorage,
//! the page's URL, a file input and drops on the page, and the message line over the canvas.

use super::FileData;
use crate::error::Result;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Runs `f` on the browser's event loop, after the current frame.
pub(super) fn spawn_raw(f: impl FnOnce() + 'static) {
    wasm_bindgen_futures::spawn_local(async move { f() });
}

/// Runs a future on the browser's event loop (GPU set-up is awaited there).
pub fn run_future(fut: impl Future<Output = ()> + 'static) {
    wasm_bindgen_futures::spawn_local(fut);
}

fn window() -> web_sys::Window {
    web_sys::window().expect("a page has a window")
}

fn document() -> web_sys::Document {
    window().document().expect("a page has a document")
}

/// Offers `bytes` as a download named `name`; returns the name.
pub fn save_file(name: &str, bytes: &[u8]) -> Result<String> {
    let fail = |e: JsValue| crate::error!("cannot offer {name} as a download: {e:?}");
    let parts = js_sys::Array::new();
    parts.push(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a").map_err(fail)?.dyn_into().map_err(|_| crate::error!("no anchor"))?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    LAST_SAVED.with(|l| l.borrow_mut().push((name.to_string(), bytes.len(), bytes[..bytes.len().min(16)].to_vec())));
    Ok(name.to_string())
}

thread_local! {
    /// Files offered as downloads (name, size, first bytes): the self-test checks them.
    static LAST_SAVED: RefCell<Vec<(String, usize, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    /// Files picked or dropped, waiting for the app.
    static INBOX: RefCell<Vec<Vec<FileData>>> = const { RefCell::new(Vec::new()) };
    /// The file input `pick_files` opened last (the self-test answers it as a person would).
    static PICKER: RefCell<Option<web_sys::HtmlInputElement>> = const { RefCell::new(None) };
}

/// Files offered as downloads so far (name, bytes).
pub fn saved_files() -> Vec<(String, usize)> {
    LAST_SAVED.with(|l| l.borrow().iter().map(|(name, size, _)| (name.clone(), *size)).collect())
}

/// The first bytes (at most 16) of the last download whose name ends with `ext`.
pub fn saved_head(ext: &str) -> Option<Vec<u8>> {
    LAST_SAVED.with(|l| l.borrow().iter().rev().find(|(name, ..)| name.ends_with(ext)).map(|(.., head)| head.clone()))
}

/// Where saved files go, for the panel.
pub fn save_place() -> String {
    "the browser's downloads".to_string()
}

/// Where a file named `name` goes: the browser's downloads.
pub fn save_target(name: &str) -> String {
    name.to_string()
}

/// A saved state: its files zipped into one download `name.zip`; meta.json names `scene.toml`
/// inside the zip.
pub fn save_folder(name: &str, mut files: Vec<(String, Vec<u8>)>, finish: impl FnOnce(&str) -> Vec<(String, Vec<u8>)>) -> Result<String> {
    files.extend(finish(""));
    save_file(&format!("{name}.zip"), &super::zip::write(&files))
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// A page has no environment: its start-up settings come from the URL.
pub fn var(_name: &str) -> Option<String> {
    None
}

/// A page reaches no file by path: files arrive picked or dropped.
pub fn path_kind(_path: &Path) -> super::PathKind {
    super::PathKind::Missing
}

/// Paths on a page stay as they are.
pub fn absolute(path: &Path) -> PathBuf {
    path.to_path_buf()
}

/// A setting from localStorage (key `dir/name`).
pub fn read_setting(dir: &Path, name: &str) -> Option<String> {
    storage()?.get_item(&format!("{}/{name}", dir.display())).ok().flatten()
}

/// Writes a setting to localStorage.
pub fn write_setting(dir: &Path, name: &str, text: &str) -> Result<()> {
    let s = storage().ok_or_else(|| crate::error!("this page cannot keep settings: localStorage is off"))?;
    s.set_item(&format!("{}/{name}", dir.display()), text).map_err(|e| crate::error!("cannot keep the settings in localStorage: {e:?}"))
}

/// The page's settings live in localStorage under `smokebox/`.
pub fn settings_store(_var: &str) -> Option<PathBuf> {
    Some(PathBuf::from("smokebox"))
}

/// A line for the user: on the console.
pub fn say(line: &str) {
    web_sys::console::log_1(&format!("smokebox: {line}").into());
}

/// Shows `line` in the page's message bar (over the canvas), or hides it when empty.
pub fn show_message(line: &str) {
    if let Some(el) = document().get_element_by_id("message") {
        el.set_text_content(Some(line));
        let _ = el.set_attribute("style", if line.is_empty() { "display:none" } else { "display:block" });
    }
}

thread_local! {
    /// Whether the status line (`show_status`) is shown.
    static STATUS_SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Shows what the page is doing before its first step (`#status`, over the canvas), or hides it
/// when `line` is empty. The page opens with "loading smokebox…" in it.
pub fn show_status(line: &str) {
    if line.is_empty() && !STATUS_SHOWN.get() {
        return;
    }
    STATUS_SHOWN.set(!line.is_empty());
    if let Some(el) = document().get_element_by_id("status") {
        el.set_text_content(Some(line));
        // (shown as index.html's style says: an embedded page hides it)
        let _ = if line.is_empty() { el.set_attribute("style", "display:none") } else { el.remove_attribute("style") };
    }
}

/// Lets the browser paint a frame (the status line) before work that holds the page's thread:
/// the work goes on in the animation frame after the next, which comes once the next is painted.
/// A timeout alone ran before any frame, and the first step's frame then held the thread (its
/// kernels compiling in the GPU process) with the line never painted.
pub async fn yield_to_page() {
    for _ in 0..2 {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().request_animation_frame(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}

thread_local! {
    /// GPU faults the page saw (the self-test fails on any).
    static FAULTS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A GPU fault (a validation error: a bug): shown on the page and on the console, and recorded
/// for the self-test. WebGPU drops the failed work and the page goes on.
pub fn gpu_fault(line: &str, _status: i32) {
    show_message(line);
    web_sys::console::error_1(&format!("smokebox: {line}").into());
    FAULTS.with(|f| f.borrow_mut().push(line.to_string()));
}

/// The GPU faults since the last call, and the page's own record of console errors and
/// uncaught exceptions (`window.smokeboxErrors`, kept by index.html).
pub fn take_faults() -> Vec<String> {
    let mut all = FAULTS.with(|f| std::mem::take(&mut *f.borrow_mut()));
    if let Ok(list) = js_sys::Reflect::get(&window(), &"smokeboxErrors".into())
        && let Ok(list) = list.dyn_into::<js_sys::Array>()
    {
        // (the page's own fault lines are already in FAULTS)
        all.extend(
            list.iter().map(|e| e.as_string().unwrap_or_else(|| format!("{e:?}"))).filter(|e| !e.starts_with("smokebox: GPU error")),
        );
        list.set_length(0);
    }
    all
}

/// The one line of a fault nothing can recover from: shown on the page, and the page stops.
pub fn fatal(line: &str, _status: i32) -> ! {
    show_message(line);
    web_sys::console::error_1(&format!("smokebox: {line}").into());
    wasm_bindgen::throw_str(line)
}

/// What the page's URL asks for: `?scene=NAME&KEY=VALUE...` (keys as for `--set`), and the
/// page's own switches.
#[derive(Clone, Debug, Default)]
pub struct UrlSetup {
    pub scene: Option<String>,
    /// `KEY=VALUE` as `--set` takes them (`view.` keys set the view settings).
    pub overrides: Vec<String>,
    /// `?selftest`: run the self-test and POST its result to `/result`.
    pub selftest: bool,
    /// `?selftest=reload`: the self-test's second part, after it reloaded the page: are the view
    /// settings it kept in localStorage back, and does the URL still win? POSTed to `/reload`.
    pub after_reload: bool,
    /// `?selftest=embed` (with `?embed`): the embedded page's own checks, hover painting and
    /// idle splats.
    pub embed_checks: bool,
    /// `?selftest=views`: the stage view driven by keys and an obstacle dragged by one finger,
    /// with the canvas of each stage sent along.
    pub views_checks: bool,
    /// `?bench`: time the step at 128² and 256², POSTed to `/result` as the self-test does.
    pub bench: bool,
    /// `?canvas=WxH`: the canvas's size in CSS pixels (else the whole page).
    pub canvas: Option<(u32, u32)>,
    /// `?steps=N`: run N steps, then pause and POST `/done` (the canvas comparison).
    pub steps: Option<u64>,
    /// `?embed`: the page as a part of another (an iframe, a background): the field alone,
    /// filling the frame (`View::embedded`), nothing kept in localStorage.
    pub embed: bool,
}

/// The page's URL, read.
pub fn url_setup() -> UrlSetup {
    let search = window().location().search().unwrap_or_default();
    parse_query(&search)
}

/// `?scene=drops&fluid.viscosity=0.001` → scene and `--set` overrides.
pub fn parse_query(search: &str) -> UrlSetup {
    let mut s = UrlSetup::default();
    for pair in search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k), decode(v));
        match k.as_str() {
            "scene" => s.scene = Some(v),
            "selftest" => (s.selftest, s.after_reload, s.embed_checks, s.views_checks) = (true, v == "reload", v == "embed", v == "views"),
            "bench" => s.bench = true,
            "canvas" => s.canvas = v.split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?))),
            "steps" => s.steps = v.parse().ok(),
            "embed" => s.embed = !(v == "0" || v == "false"),
            _ => s.overrides.push(format!("{k}={v}")),
        }
    }
    s
}

fn decode(text: &str) -> String {
    js_sys::decode_uri_component(&text.replace('+', " ")).map(String::from).unwrap_or_else(|_| text.to_string())
}

fn encode(text: &str) -> String {
    String::from(js_sys::encode_uri_component(text))
}

/// The page's address with this query (`scene` first, then `KEY=VALUE` pairs).
pub fn link(scene: &str, overrides: &[String]) -> String {
    let loc = window().location();
    let base = format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default());
    let mut q = vec![format!("scene={}", encode(scene))];
    for o in overrides {
        let (k, v) = o.split_once('=').unwrap_or((o, ""));
        q.push(format!("{k}={}", encode(v)));
    }
    format!("{base}?{}", q.join("&"))
}

/// Puts `url` in the address bar (no reload) and on the clipboard.
pub fn copy_link(url: &str) {
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(url));
    }
    // a refused clipboard (no permission, no focus) leaves the link in the address bar
    let promise = window().navigator().clipboard().write_text(url);
    wasm_bindgen_futures::spawn_local(async move {
        if wasm_bindgen_futures::JsFuture::from(promise).await.is_err() {
            say("the clipboard refused the link: copy it from the address bar");
        }
    });
}

/// Whether the browser offers WebGPU at all (`navigator.gpu`).
pub fn has_webgpu() -> bool {
    js_sys::Reflect::get(&window().navigator(), &"gpu".into()).is_ok_and(|g| !g.is_undefined() && !g.is_null())
}

async fn read_files(list: web_sys::FileList) -> Vec<FileData> {
    let mut files = Vec::new();
    for i in 0..list.length() {
        let Some(f) = list.get(i) else { continue };
        if let Ok(buf) = wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
            files.push(FileData { name: f.name(), bytes: js_sys::Uint8Array::new(&buf).to_vec() });
        }
    }
    files
}

fn deliver(list: web_sys::FileList, wake: std::rc::Rc<dyn Fn()>) {
    wasm_bindgen_futures::spawn_local(async move {
        let files = read_files(list).await;
        if !files.is_empty() {
            INBOX.with(|i| i.borrow_mut().push(files));
            wake();
        }
    });
}

/// Asks for files with the browser's file picker (several at once: a state's loose .npy files
/// and meta.json); they arrive through [`take_files`], and `wake` is called then.
pub fn pick_files(wake: impl Fn() + 'static) {
    let Ok(el) = document().create_element("input") else { return };
    let Ok(input) = el.dyn_into::<web_sys::HtmlInputElement>() else { return };
    input.set_type("file");
    input.set_multiple(true);
    input.set_accept(".toml,.zip,.npy,.json");
    let wake: std::rc::Rc<dyn Fn()> = std::rc::Rc::new(wake);
    let i2 = input.clone();
    let on_change = Closure::<dyn FnMut()>::new(move || {
        if let Some(list) = i2.files() {
            deliver(list, wake.clone());
        }
    });
    input.set_onchange(Some(on_change.as_ref().unchecked_ref()));
    on_change.forget();
    input.click();
    PICKER.with(|p| *p.borrow_mut() = Some(input));
}

/// Files dropped anywhere on the page are opened: they arrive through [`take_files`].
pub fn accept_drops(wake: impl Fn() + 'static) {
    let doc = document();
    let over = Closure::<dyn FnMut(web_sys::DragEvent)>::new(|e: web_sys::DragEvent| e.prevent_default());
    let _ = doc.add_event_listener_with_callback("dragover", over.as_ref().unchecked_ref());
    over.forget();
    let wake: std::rc::Rc<dyn Fn()> = std::rc::Rc::new(wake);
    let drop = Closure::<dyn FnMut(web_sys::DragEvent)>::new(move |e: web_sys::DragEvent| {
        e.prevent_default();
        if let Some(list) = e.data_transfer().and_then(|d| d.files()) {
            deliver(list, wake.clone());
        }
    });
    let _ = doc.add_event_listener_with_callback("drop", drop.as_ref().unchecked_ref());
    drop.forget();
}

/// Files picked or dropped since the last call (one batch).
pub fn take_files() -> Option<Vec<FileData>> {
    INBOX.with(|i| {
        let mut i = i.borrow_mut();
        if i.is_empty() { None } else { Some(i.remove(0)) }
    })
}

/// Hands files to the app as if they were dropped (the self-test's round trip).
pub fn offer_files(files: Vec<FileData>) {
    INBOX.with(|i| i.borrow_mut().push(files));
}

// The self-test's hands: real DOM events, made as the browser makes them for a mouse, a finger,
// a drop or a file chosen in the picker, so they pass through winit's and the page's own
// listeners and the browser's file reading, not around them.

fn js_error(e: JsValue) -> String {
    e.as_string().or_else(|| js_sys::JSON::stringify(&e).ok().map(String::from)).unwrap_or_else(|| format!("{e:?}"))
}

/// A pointer event on the canvas at `css` (CSS pixels from the canvas's corner): `kind` is
/// "pointerdown", "pointermove" or "pointerup", `pointer` is "mouse" or "touch" (one finger).
pub fn pointer_event(kind: &str, pointer: &str, css: [f64; 2], pressed: bool) -> std::result::Result<(), String> {
    let c = canvas(None).ok_or("no canvas")?;
    let rect = c.get_bounding_client_rect();
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_pointer_type(pointer);
    init.set_pointer_id(if pointer == "touch" { 7 } else { 1 });
    init.set_is_primary(true);
    init.set_client_x((rect.left() + css[0]).round() as i32);
    init.set_client_y((rect.top() + css[1]).round() as i32);
    // a move changes no button (-1); down and up are the left button (or the finger)
    init.set_button(if kind == "pointermove" { -1 } else { 0 });
    init.set_buttons(u16::from(pressed));
    init.set_pressure(if pressed { 0.5 } else { 0.0 });
    if kind == "pointermove" {
        // winit reads a move's positions from getCoalescedEvents(), as browsers fill it
        let one = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).map_err(js_error)?;
        js_sys::Reflect::set(&init, &"coalescedEvents".into(), &js_sys::Array::of1(&one)).map_err(js_error)?;
    }
    let e = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).map_err(js_error)?;
    c.dispatch_event(&e).map_err(js_error)?;
    Ok(())
}

/// A key pressed and let go on the canvas, as a keyboard makes it: `key` is the DOM's key value
/// ("t", "s", "ArrowRight", "Escape"), `code` the physical key ("KeyT", "ArrowRight").
pub fn key_event(key: &str, code: &str) -> std::result::Result<(), String> {
    let c = canvas(None).ok_or("no canvas")?;
    for kind in ["keydown", "keyup"] {
        let init = web_sys::KeyboardEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_composed(true);
        init.set_key(key);
        init.set_code(code);
        let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init).map_err(js_error)?;
        c.dispatch_event(&e).map_err(js_error)?;
    }
    Ok(())
}

fn data_transfer(files: &[FileData]) -> std::result::Result<web_sys::DataTransfer, String> {
    let dt = web_sys::DataTransfer::new().map_err(js_error)?;
    for f in files {
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(f.bytes.as_slice()));
        let file = web_sys::File::new_with_u8_array_sequence(&parts, &f.name).map_err(js_error)?;
        dt.items().add_with_file(&file).map_err(js_error)?;
    }
    Ok(dt)
}

/// Drops `files` on the canvas, as a file manager's drag does.
pub fn drop_on_page(files: &[FileData]) -> std::result::Result<(), String> {
    let c = canvas(None).ok_or("no canvas")?;
    let init = web_sys::DragEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_data_transfer(Some(&data_transfer(files)?));
    let e = web_sys::DragEvent::new_with_event_init_dict("drop", &init).map_err(js_error)?;
    c.dispatch_event(&e).map_err(js_error)?;
    Ok(())
}

/// Chooses `files` in the file picker the page opened last, as a person would.
pub fn choose_in_picker(files: &[FileData]) -> std::result::Result<(), String> {
    let input = PICKER.with(|p| p.borrow_mut().take()).ok_or("the page opened no file picker")?;
    input.set_files(data_transfer(files)?.files().as_ref());
    input.dispatch_event(&web_sys::Event::new("change").map_err(js_error)?).map_err(js_error)?;
    Ok(())
}

/// Opens the page again at its address with this query (the self-test's reload).
pub fn reload_with(query: &str) {
    let loc = window().location();
    let _ = loc.replace(&format!("{}{}?{query}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default()));
}

/// POSTs `body` to `path` on the page's own server (the browser test's results); fire and forget.
pub fn post(path: &str, body: &str) {
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    // (kept alive: the self-test reloads the page right after its first report)
    let _ = js_sys::Reflect::set(&init, &"keepalive".into(), &JsValue::from_bool(body.len() < 60_000));
    init.set_body(&JsValue::from_str(body));
    let _ = window().fetch_with_str_and_init(path, &init);
}

/// The canvas the app draws into (`<canvas id="smokebox">` of index.html), sized by `?canvas=`.
pub fn canvas(size: Option<(u32, u32)>) -> Option<web_sys::HtmlCanvasElement> {
    let c: web_sys::HtmlCanvasElement = document().get_element_by_id("smokebox")?.dyn_into().ok()?;
    if let Some((w, h)) = size {
        let _ = c.set_attribute("style", &format!("width:{w}px;height:{h}px;position:absolute;left:0;top:0"));
    }
    Some(c)
}

/// The browser's own words for the adapter WebGPU gives the page (`GPUAdapter.info`: vendor,
/// architecture, device, description), which wgpu's WebGPU back end leaves empty, and whether it
/// is the fallback (CPU) adapter. Asks for a second adapter of the same kind; None without one.
pub async fn browser_adapter() -> Option<super::BrowserAdapter> {
    use js_sys::Reflect;
    let gpu = Reflect::get(&window().navigator(), &"gpu".into()).ok().filter(|g| !g.is_undefined() && !g.is_null())?;
    let request: js_sys::Function = Reflect::get(&gpu, &"requestAdapter".into()).ok()?.dyn_into().ok()?;
    let promise: js_sys::Promise = request.call0(&gpu).ok()?.dyn_into().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok().filter(|a| !a.is_undefined() && !a.is_null())?;
    let info = Reflect::get(&adapter, &"info".into()).ok().filter(|i| !i.is_undefined() && !i.is_null())?;
    let word = |key: &str| Reflect::get(&info, &key.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let name: Vec<String> =
        ["vendor", "architecture", "device", "description"].map(word).into_iter().filter(|w| !w.trim().is_empty()).collect();
    // (newer browsers say it in `info`, older ones on the adapter)
    let flag = |o: &JsValue| Reflect::get(o, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool());
    let fallback = flag(&info).or_else(|| flag(&adapter)).unwrap_or(false);
    Some(super::BrowserAdapter { name: name.join(" "), fallback })
}

/// The adapter's name for the panel (WebGPU tells little).
pub fn user_agent() -> String {
    window().navigator().user_agent().unwrap_or_default()
}

/// The canvas's picture as a `data:image/png;base64,…` address (the browser test compares it).
pub fn canvas_png() -> Option<String> {
    let c: web_sys::HtmlCanvasElement = document().get_element_by_id("smokebox")?.dyn_into().ok()?;
    c.to_data_url().ok()
}

/// Whether the page is used by touch: the browser's main pointer is coarse (a finger).
pub fn touch_screen() -> bool {
    window().match_media("(pointer: coarse)").ok().flatten().is_some_and(|m| m.matches())
}

/// Narrower than this (CSS pixels), the page opens with its panel folded: the panel would take
/// most of the width.
const NARROW: f64 = 720.0;

/// Whether the page opens on a narrow or touch screen (a phone, a tablet, a small window).
pub fn small_screen() -> bool {
    let width = window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(f64::MAX);
    width < NARROW || touch_screen()
}

/// Marks the page's root element with `class` (index.html's style: `embed` hides the status
/// line, `see-through` and `embed` make the page's own background transparent).
pub fn mark_page(class: &str) {
    if let Some(root) = document().document_element() {
        let now = root.class_name();
        if !now.split_whitespace().any(|c| c == class) {
            root.set_class_name(format!("{now} {class}").trim());
        }
    }
}

/// Device pixels a CSS pixel.
pub fn device_pixel_ratio() -> f64 {
    window().device_pixel_ratio().max(1.0)
}

/// The page's size in device pixels.
pub fn screen_px() -> (f64, f64) {
    let w = window();
    let px = |v: std::result::Result<JsValue, JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(800.0);
    let dpr = w.device_pixel_ratio().max(1.0);
    (px(w.inner_width()) * dpr, px(w.inner_height()) * dpr)
}

/// Never set on the page: a hidden tab gets no animation frames, and winit reports a canvas out
/// of view as `Occluded` (the desktop watches X11 for an unmapped window).
pub fn watch_unmapped(_window: &winit::window::Window, _wake: impl Fn() + 'static) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    std::sync::Arc::default()
}
