#!/usr/bin/env bash
# The WebGL toy's side of the equal-work race (BENCHMARKS.md, "Equal work against the WebGL toy").
#
#   tools/toy-race.sh TOY_DIR [SIDE/SWEEPS ...]     (default: 128/20 256/40)
#
# TOY_DIR is a checkout of https://github.com/PavelDoGreat/WebGL-Fluid-Simulation (its script.js
# as of a2d2929). A copy of it runs in headless Chromium with the page tests' flags (WebGL and
# WebGPU on SwiftShader) in a 512 x 512 window: the simulation at SIDE², dye at the grid's size,
# SWEEPS pressure iterations, bloom and sunrays off. The copy's animation loop is replaced by a
# bench: `step(0.016)` 24 times, a 1 x 1 `readPixels` to wait for the GPU, then up to step 264
# (128² and below) or 120, and another `readPixels`. Prints ms a step over the timed steps.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/script.js" ] || [ ! -f "$1/index.html" ]; then
    echo "toy-race.sh: expected a checkout of PavelDoGreat/WebGL-Fluid-Simulation (with script.js and index.html) as the first argument" >&2
    exit 2
fi
toy=$1
shift
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(128/20 256/40)
for row in "${rows[@]}"; do
    if ! [[ $row =~ ^[0-9]+/[0-9]+$ ]]; then
        echo "toy-race.sh: '$row' is not SIDE/SWEEPS (e.g. 128/20)" >&2
        exit 2
    fi
done
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chromium" ]; then
    echo "toy-race.sh: no Chromium on PATH (apt-get install chromium)" >&2
    exit 2
fi

work=$(mktemp -d)
server=
browser=
cleanup() {
    [ -n "$browser" ] && kill "$browser" 2>/dev/null
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
cp -r "$toy/." "$work/site"

# The bench in place of the animation loop's first call: the toy's own step() and render().
python3 - "$work/site/script.js" <<'EOF'
import sys
path = sys.argv[1]
src = open(path).read()
anchor = "update();\n\nfunction update () {"
if anchor not in src:
    sys.exit("toy-race.sh: script.js does not start its loop as the toy at a2d2929 does (update(); then function update)")
bench = """const RACE = new URLSearchParams(location.search);
config.SIM_RESOLUTION = +RACE.get('n');
config.DYE_RESOLUTION = +RACE.get('n');
config.PRESSURE_ITERATIONS = +RACE.get('sweeps');
config.BLOOM = false;
config.SUNRAYS = false;
updateKeywords();
initFramebuffers();
function raceSync () {
    const px = new Uint8Array(4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
}
setTimeout(() => {
    const n1 = +RACE.get('n1'), n2 = +RACE.get('n2');
    for (let i = 0; i < n1; i++) step(0.016);
    raceSync();
    const t0 = performance.now();
    for (let i = n1; i < n2; i++) step(0.016);
    raceSync();
    const ms = (performance.now() - t0) / (n2 - n1);
    console.log('TOY_RACE ' + ms.toFixed(2));
}, 1500);

function update () {"""
open(path, "w").write(src.replace(anchor, bench, 1))
EOF

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" >/dev/null 2>&1 &
server=$!
sleep 1

for row in "${rows[@]}"; do
    n=${row%/*}
    sweeps=${row#*/}
    n2=$([ "$n" -le 128 ] && echo 264 || echo 120)
    log="$work/chromium-$n.log"
    "$chromium" --headless=new --no-sandbox --enable-logging=stderr --v=0 --no-first-run --mute-audio \
        --enable-unsafe-webgpu --enable-features=Vulkan --use-vulkan=swiftshader --use-angle=swiftshader \
        --enable-unsafe-swiftshader --user-data-dir="$work/profile-$n" --window-size=512,512 \
        "http://127.0.0.1:$port/index.html?n=$n&sweeps=$sweeps&n1=24&n2=$n2" >"$log" 2>&1 &
    browser=$!
    for _ in $(seq 600); do
        grep -q 'TOY_RACE' "$log" && break
        kill -0 "$browser" 2>/dev/null || break
        sleep 1
    done
    ms=$(grep -o 'TOY_RACE [0-9.]*' "$log" | head -1 | cut -d' ' -f2 || true)
    kill "$browser" 2>/dev/null || true
    wait "$browser" 2>/dev/null || true
    browser=
    if [ -z "$ms" ]; then
        echo "toy-race.sh: the toy gave no figure at $row (Chromium's log: no TOY_RACE line)" >&2
        exit 1
    fi
    echo "toy $n² / $sweeps sweeps: steps 24 to $n2, $ms ms a step"
done
