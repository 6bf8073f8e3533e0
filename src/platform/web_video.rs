//! The page's video: its canvas recorded as WebM by the browser's own encoder (MediaRecorder on
//! `canvas.captureStream()`), offered as a download when the recording stops. The desktop has
//! no such encoder and records GIFs, as the page also does.

use super::web::{canvas, save_file};
use crate::error::Result;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Frames a second the canvas is sampled at (at most: a canvas that does not change gives none).
const FPS: f64 = 30.0;

/// What the browser is asked to encode, best first.
const TYPES: &[&str] = &["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"];

struct Recording {
    recorder: web_sys::MediaRecorder,
    name: String,
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

fn js_line(e: JsValue) -> String {
    e.as_string().or_else(|| js_sys::JSON::stringify(&e).ok().map(String::from)).unwrap_or_else(|| format!("{e:?}"))
}

/// Whether this browser has a MediaRecorder at all.
fn supported() -> bool {
    web_sys::window().is_some_and(|w| js_sys::Reflect::has(&w, &"MediaRecorder".into()).unwrap_or(false))
}

/// Whether a video is being recorded; None where the browser cannot record one.
pub fn video_recording() -> Option<bool> {
    supported().then(|| RECORDING.with(|r| r.borrow().is_some()))
}

/// Starts recording the canvas into `name` (a `.webm`), or stops the recording under way, which
/// then arrives as a download. Returns a line for the user.
pub fn toggle_video(name: &str) -> Result<String> {
    if let Some(r) = RECORDING.with(|r| r.borrow_mut().take()) {
        r.recorder.stop().map_err(|e| crate::error!("cannot stop the video: {}", js_line(e)))?;
        return Ok(format!("video stopped: {} comes as a download", r.name));
    }
    if !supported() {
        crate::fail!("this browser cannot record video (no MediaRecorder): record a GIF instead");
    }
    let fail = |e: JsValue| crate::error!("cannot record a video of the page: {}", js_line(e));
    let c = canvas(None).ok_or_else(|| crate::error!("cannot record a video: the page has no canvas"))?;
    let stream = c.capture_stream_with_frame_request_rate(FPS).map_err(fail)?;
    let options = web_sys::MediaRecorderOptions::new();
    let kind = TYPES.iter().find(|t| web_sys::MediaRecorder::is_type_supported(t)).copied();
    if let Some(kind) = kind {
        options.set_mime_type(kind);
    }
    let recorder = web_sys::MediaRecorder::new_with_media_stream_and_media_recorder_options(&stream, &options).map_err(fail)?;
    let chunks: Rc<RefCell<Vec<web_sys::Blob>>> = Rc::default();
    let kept = chunks.clone();
    let on_data = Closure::<dyn FnMut(web_sys::BlobEvent)>::new(move |e: web_sys::BlobEvent| {
        if let Some(b) = e.data().filter(|b| b.size() > 0.0) {
            kept.borrow_mut().push(b);
        }
    });
    recorder.set_ondataavailable(Some(on_data.as_ref().unchecked_ref()));
    on_data.forget();
    let file = name.to_string();
    let on_stop = Closure::<dyn FnMut()>::new(move || {
        let parts = js_sys::Array::new();
        for b in chunks.borrow_mut().drain(..) {
            parts.push(&b);
        }
        let file = file.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let joined = web_sys::Blob::new_with_blob_sequence(&parts).map_err(js_line);
            let bytes = match joined {
                Ok(b) => wasm_bindgen_futures::JsFuture::from(b.array_buffer()).await.map_err(js_line),
                Err(e) => Err(e),
            };
            let saved = bytes.map_err(|e| crate::error!("{e}")).and_then(|b| save_file(&file, &js_sys::Uint8Array::new(&b).to_vec()));
            if let Err(e) = saved {
                super::web::say(&format!("the video could not be saved: {e}"));
            }
        });
    });
    recorder.set_onstop(Some(on_stop.as_ref().unchecked_ref()));
    on_stop.forget();
    // (a chunk a second: a long recording is not held as one piece by the encoder)
    recorder.start_with_time_slice(1000).map_err(fail)?;
    RECORDING.with(|r| *r.borrow_mut() = Some(Recording { recorder, name: name.to_string() }));
    Ok(format!("recording a video ({}): press Stop video to save it", kind.unwrap_or("the browser's default format")))
}
