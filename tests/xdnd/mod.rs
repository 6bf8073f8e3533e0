//! An XDND drag source (freedesktop XDND version 5), enough to drop one file on a window under
//! Xvfb: xdotool can move and click but not drop. It does what a file manager does: owns
//! `XdndSelection`, sends XdndEnter (with `text/uri-list` as the one type) and XdndPosition to
//! the target, hands the `file://` address over when the target converts the selection (winit
//! does so on the first XdndPosition and reads it before the drop), waits for XdndStatus, sends
//! XdndDrop and waits for XdndFinished.

use std::path::Path;
use std::time::{Duration, Instant};
use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::*;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// How long each answer of the target may take (a loaded machine, an app busy building a grid).
const PATIENCE: Duration = Duration::from_secs(30);

struct Atoms {
    aware: Atom,
    selection: Atom,
    enter: Atom,
    position: Atom,
    status: Atom,
    drop: Atom,
    leave: Atom,
    finished: Atom,
    copy: Atom,
    uri_list: Atom,
    net_wm_name: Atom,
}

fn atom(conn: &RustConnection, name: &str) -> Atom {
    conn.intern_atom(false, name.as_bytes()).unwrap().reply().unwrap().atom
}

/// The address of `path` as text/uri-list carries it: `file:///…` with bytes outside the
/// unreserved set percent-encoded, ended by CR LF.
pub fn uri_list(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.to_str().expect("a UTF-8 path").as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri + "\r\n"
}

/// A window's property as bytes (empty when it has none).
fn property(conn: &RustConnection, window: Window, name: Atom) -> Vec<u8> {
    conn.get_property(false, window, name, AtomEnum::ANY, 0, 1024).unwrap().reply().map(|r| r.value).unwrap_or_default()
}

/// The XdndAware window whose name contains `title`: a child of the root, or one level down (a
/// window manager's frame).
fn find_target(conn: &RustConnection, root: Window, a: &Atoms, title: &str) -> Option<Window> {
    let named = |w: Window| {
        let names = [property(conn, w, a.net_wm_name), property(conn, w, AtomEnum::WM_NAME.into())];
        names.iter().any(|n| String::from_utf8_lossy(n).contains(title))
    };
    let aware = |w: Window| !property(conn, w, a.aware).is_empty();
    for top in conn.query_tree(root).unwrap().reply().unwrap().children {
        let below = conn.query_tree(top).unwrap().reply().map(|r| r.children).unwrap_or_default();
        if let Some(w) = std::iter::once(top).chain(below).find(|&w| named(w) && aware(w)) {
            return Some(w);
        }
    }
    None
}

/// What the target answered.
#[derive(Debug, Default)]
pub struct Answer {
    /// XdndStatus: the target would take the drop.
    pub status_accepted: bool,
    /// The target asked for the data (converted the selection) and got it.
    pub data_sent: bool,
    /// XdndFinished: the drop was performed.
    pub finished_accepted: bool,
}

/// Drops `path` on the window whose title contains `title`, at the fraction (fx, fy) of its size.
pub fn drop_file(display: &str, title: &str, path: &Path, (fx, fy): (f32, f32)) -> Result<Answer, String> {
    let (conn, screen) = x11rb::connect(Some(display)).map_err(|e| format!("cannot connect to {display}: {e}"))?;
    let root = conn.setup().roots[screen].root;
    let a = Atoms {
        aware: atom(&conn, "XdndAware"),
        selection: atom(&conn, "XdndSelection"),
        enter: atom(&conn, "XdndEnter"),
        position: atom(&conn, "XdndPosition"),
        status: atom(&conn, "XdndStatus"),
        drop: atom(&conn, "XdndDrop"),
        leave: atom(&conn, "XdndLeave"),
        finished: atom(&conn, "XdndFinished"),
        copy: atom(&conn, "XdndActionCopy"),
        uri_list: atom(&conn, "text/uri-list"),
        net_wm_name: atom(&conn, "_NET_WM_NAME"),
    };
    let target = find_target(&conn, root, &a, title).ok_or(format!("no XdndAware window named '{title}'"))?;
    let version = property(&conn, target, a.aware).first().copied().unwrap_or(0);
    if version < 5 {
        return Err(format!("the target speaks XDND version {version}, not 5"));
    }
    // the drop point in root coordinates
    let g = conn.get_geometry(target).unwrap().reply().unwrap();
    let at = conn.translate_coordinates(target, root, 0, 0).unwrap().reply().unwrap();
    let x = (at.dst_x as f32 + fx * g.width as f32) as u32;
    let y = (at.dst_y as f32 + fy * g.height as f32) as u32;

    // the source: a small unmapped window that owns the drag's selection
    let source = conn.generate_id().unwrap();
    conn.create_window(x11rb::COPY_DEPTH_FROM_PARENT, source, root, 0, 0, 8, 8, 0, WindowClass::INPUT_OUTPUT, 0, &CreateWindowAux::new())
        .unwrap();
    conn.set_selection_owner(source, a.selection, x11rb::CURRENT_TIME).unwrap();
    let send = |kind: Atom, data: [u32; 5]| {
        conn.send_event(false, target, EventMask::NO_EVENT, ClientMessageEvent::new(32, target, kind, data)).unwrap();
        conn.flush().unwrap();
    };
    // version 5 in the high byte; bit 0 clear: the three types are all there are
    send(a.enter, [source, 5 << 24, a.uri_list, 0, 0]);
    send(a.position, [source, 0, (x << 16) | y, x11rb::CURRENT_TIME, a.copy]);

    let mut answer = Answer::default();
    let data = uri_list(path);
    let mut dropped = false;
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        let Some(event) = conn.poll_for_event().map_err(|e| e.to_string())? else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        match event {
            Event::SelectionRequest(r) if r.selection == a.selection => {
                let property = if r.target == a.uri_list {
                    conn.change_property8(PropMode::REPLACE, r.requestor, r.property, a.uri_list, data.as_bytes()).unwrap();
                    answer.data_sent = true;
                    r.property
                } else {
                    x11rb::NONE
                };
                let notify = SelectionNotifyEvent {
                    response_type: SELECTION_NOTIFY_EVENT,
                    sequence: 0,
                    time: r.time,
                    requestor: r.requestor,
                    selection: r.selection,
                    target: r.target,
                    property,
                };
                conn.send_event(false, r.requestor, EventMask::NO_EVENT, notify).unwrap();
                conn.flush().unwrap();
            }
            Event::ClientMessage(m) if m.type_ == a.status => {
                answer.status_accepted = m.data.as_data32()[1] & 1 == 1;
                if !answer.status_accepted {
                    send(a.leave, [source, 0, 0, 0, 0]);
                    return Err(format!("the target refused the drag (so far: {answer:?})"));
                }
                // drop once the target has the data: winit takes the path it read before the drop
                if !dropped && answer.data_sent {
                    send(a.drop, [source, 0, x11rb::CURRENT_TIME, 0, 0]);
                    dropped = true;
                }
            }
            Event::ClientMessage(m) if m.type_ == a.finished => {
                answer.finished_accepted = m.data.as_data32()[1] & 1 == 1;
                conn.destroy_window(source).unwrap();
                conn.flush().unwrap();
                return Ok(answer);
            }
            _ => {}
        }
    }
    Err(format!("no XdndFinished in {PATIENCE:?} (so far: {answer:?})"))
}
