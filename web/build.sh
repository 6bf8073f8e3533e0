#!/usr/bin/env bash
# Builds the web page into target/web/: index.html, smokebox_web.js and smokebox_web_bg.wasm,
# static files any web server can host. Installs what it needs when missing: the wasm32 target
# (rustup) and the wasm-bindgen CLI of exactly the version Cargo.lock pins (crates.io, ~2-5 min
# once):
#   rustup target add wasm32-unknown-unknown
#   cargo install wasm-bindgen-cli --version 0.2.130   # = wasm-bindgen in Cargo.lock
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || {
  echo "web/build.sh: adding the wasm32 target (rustup target add wasm32-unknown-unknown)" >&2
  rustup target add wasm32-unknown-unknown
}
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "web/build.sh: installing wasm-bindgen-cli $want (found: ${have:-none})" >&2
  cargo install wasm-bindgen-cli --version "$want"
fi
# No debug info for the page: wasm-bindgen drops it from the .wasm anyway, so writing it would
# only cost build time. The code is the release profile's all the same.
CARGO_PROFILE_RELEASE_DEBUG=false cargo build --release --target wasm32-unknown-unknown --bin smokebox-web
out=target/web
rm -rf "$out"
mkdir -p "$out"
# Without the function names (266 KiB of the gzipped .wasm): a panic's message still reaches the
# console, its stack lists functions by index.
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$out" --out-name smokebox_web \
  target/wasm32-unknown-unknown/release/smokebox-web.wasm
cp web/index.html "$out/index.html"
raw=$(stat -c %s "$out/smokebox_web_bg.wasm")
gz=$(gzip -9 -c "$out/smokebox_web_bg.wasm" | wc -c)
echo "web/build.sh: built $out (wasm $((raw / 1024)) KiB, $((gz / 1024)) KiB gzipped); serve it with: python3 -m http.server -d $out 8000"
