#!/usr/bin/env bash
# Gets a run of tools/gpu/check.sh ready for a GPU machine that has no Rust toolchain and may
# lack the Vulkan loader. Here: builds the release binary, strips it into .gpu/ (git-ignored),
# strips and gzips the test binaries named as arguments (e.g. `gpu_vs_cpu solvers`) into
# .gpu/tests/ (twelve fit in 64 MiB so), and downloads the amd64 loader packages into .gl/
# (git-ignored): the Vulkan loader and glvnd, without which NVIDIA's ICD (libGLX_nvidia) gave no
# vkCreateInstance on an H200. Then, on the GPU machine, with .gpu and .gl copied into the checkout:
#   bash tools/gpu/check.sh
# (and, where there is time, `bash tools/gpu/variants.sh default LABEL:VAR=VALUE ... default`)
# and the figures are written under $OUT (BENCHMARKS.md, "NVIDIA H200" and "NVIDIA H100", shows
# what is recorded).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release
mkdir -p .gpu
strip -o .gpu/smokebox target/release/smokebox
rm -rf .gpu/tests
if [ $# -gt 0 ]; then
  mkdir -p .gpu/tests
  cargo test --release --no-run
  for name in "$@"; do
    # the newest test executable of that name (cargo appends a hash)
    bin=$(find target/release/deps -maxdepth 1 -type f -executable -name "$name-*" -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2)
    [ -n "$bin" ] || { echo "prepare.sh: no test binary named $name (expected a file of tests/$name.rs)" >&2; exit 2; }
    strip -o ".gpu/tests/$name" "$bin"
    gzip -9 ".gpu/tests/$name"
  done
fi
if ! ls .gl/libglvnd0*.deb >/dev/null 2>&1; then
  mkdir -p .gl /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  apt-get $o update -q
  (cd .gl && apt-get $o download libvulkan1 libglvnd0 libegl1 libgl1 libglx0 libopengl0 libgles2)
fi
du -shc .gpu .gl
