#!/usr/bin/env bash
# The page's equal-work race (BENCHMARKS.md, "Equal work against the WebGL toy"): builds the page,
# then runs it in headless Chromium with WebGPU on SwiftShader and prints ms a step at 128² with
# 20 Jacobi sweeps and at 256² with 40 (tests/web_page.rs `equal_work_race`). Minutes.
# With TOY=DIR (a checkout of the WebGL toy) the toy races after it in the same minutes
# (tools/toy-race.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
web/build.sh
cargo test --release --test web_page -- --ignored --nocapture --exact equal_work_race 2>&1 | grep -E "^race|test result|panicked"
if [ -n "${TOY:-}" ]; then
    tools/toy-race.sh "$TOY"
fi
