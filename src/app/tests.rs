//! The note about an overlay that cannot draw where it was switched on.

use super::overlay_switched_on;
use crate::render::Overlays;

/// Keys 4, 6 and 7 switched on where they cannot draw leave a note on the field that names
/// the key, why and what to do; where they can draw, or an overlay that was already on, none.
#[test]
fn an_overlay_switched_on_where_it_cannot_draw_leaves_a_note_on_the_field() {
    let off = Overlays::default();
    assert!(!off.arrows_mac && !off.grid_lines && !off.numbers, "keys 4, 6 and 7 are off by default");
    let on = |f: fn(&mut Overlays)| {
        let mut o = off.clone();
        f(&mut o);
        o
    };
    // 512² in an 800-px field: cells 1.6 px wide, 262 144 cells
    let (small, cells) = (1.6, 512 * 512);
    for (overlays, key) in
        [(on(|o| o.arrows_mac = true), "key 4"), (on(|o| o.grid_lines = true), "key 6"), (on(|o| o.numbers = true), "key 7")]
    {
        let note = overlay_switched_on(&off, &overlays, small, 1.0, cells).unwrap_or_else(|| panic!("no note for {key}"));
        assert!(note.starts_with(&format!("{key} draws nothing here")), "{note}");
        assert!(note.contains("px") && note.contains("coarser grid"), "{note}");
        // an overlay already on says nothing again
        assert_eq!(overlay_switched_on(&overlays, &overlays, small, 1.0, cells), None);
        // big cells (the teaching scene's 16 × 12 at 50 px): it draws, no note
        assert_eq!(overlay_switched_on(&off, &overlays, 50.0, 1.0, 16 * 12), None, "{key}");
    }
    // numbers are sized in points: at 2 pixels a point a 30-px cell is 15 points
    let numbers = on(|o| o.numbers = true);
    assert!(overlay_switched_on(&off, &numbers, 30.0, 2.0, 16 * 12).is_some());
    // too many cells, however wide
    let note = overlay_switched_on(&off, &numbers, 50.0, 1.0, 1 << 20).expect("a note for a million cells");
    assert!(note.contains("cells; numbers are printed for at most"), "{note}");
}
