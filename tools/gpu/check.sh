#!/usr/bin/env bash
# The GPU figures of BENCHMARKS.md's GPU tables in one run on a GPU machine (tools/gpu/prepare.sh first).
# For each size: the plume's step with multigrid to 1e-4 (the default), with no pressure solve
# (Jacobi 0: the rest of the step) and with Jacobi 40, one sub-step a step (time.max_cfl=0, as
# BENCHMARKS.md's GPU figures are taken), `run --stats` medians of steps 21+; then `bench
# --dispatches` by kernel; then the carried test binaries. Everything goes to $OUT (out/gpu when
# unset, as in a dry run here on lavapipe: SIZES="64 128" STEPS=40 SMOKEBOX=target/release/smokebox).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tools/gpu/machine.sh
SIZES=${SIZES:-1024 4096}
STEPS=${STEPS:-150}
summary="$OUT/summary.txt"
runs="$OUT/runs.txt"
: >"$summary"
: >"$runs"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"; } >>"$summary"

# median, least and most of a field over steps 21+ of `run --stats` lines, and how many converged
stats() {
  awk -v key="\"$1\":" '
    /^\{/ { n++; if (n <= 20) next; i = index($0, key); if (!i) next
            v = substr($0, i + length(key)); sub(/[,}].*/, "", v); a[++m] = v + 0
            if ($0 ~ /"converged":true/) c++; if ($0 ~ /"converged":false/) f++ }
    END { if (!m) { print "none"; exit }
          for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
          printf "median %g (%g-%g) over %d steps", a[int((m + 1) / 2)], a[1], a[m], m
          if (c + f) printf ", %d of %d converged", c, c + f
          printf "\n" }'
}

for n in $SIZES; do
  h=$(awk -v n="$n" 'BEGIN { printf "%.10g", 1 / n }')
  grid=(--set "grid.nx=$n" --set "grid.ny=$n" --set "grid.cell_size=$h" --set time.max_cfl=0)
  for row in "multigrid-1e-4|" "jacobi-0|--set solver.kind=jacobi --set solver.tolerance=0 --set solver.iterations=0" \
             "jacobi-40|--set solver.kind=jacobi --set solver.tolerance=0 --set solver.iterations=40"; do
    name=${row%%|*}
    read -ra extra <<<"${row#*|}"
    echo "== $n $name" >>"$runs"
    "$SB" run --scene plume --steps "$STEPS" --stats "${grid[@]}" "${extra[@]}" >>"$runs" 2>&1
    lines=$(sed -n "/^== $n $name\$/,/^== /p" "$runs")
    echo "$n² $name: ms $(stats ms <<<"$lines"); residual $(stats residual <<<"$lines" | cut -d' ' -f1-2)" >>"$summary"
  done
done

sizes=$(tr ' ' ',' <<<"$SIZES")
"$SB" bench --sizes "$sizes" --solvers multigrid,jacobi --steps 20 --set time.max_cfl=0 --dispatches --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1
echo "bench: exit $? (bench.txt, bench.json)" >>"$summary"

if [ -d .gpu/tests ]; then
  tests=$(mktemp -d)
  for t in .gpu/tests/*.gz; do
    name=$(basename "$t" .gz)
    gunzip -c "$t" >"$tests/$name" && chmod +x "$tests/$name"
    echo "== $name" >>"$OUT/tests.txt"
    timeout 120 "$tests/$name" --test-threads=8 >>"$OUT/tests.txt" 2>&1
    echo "test $name: exit $?, $(grep '^test result' "$OUT/tests.txt" | tail -1)" >>"$summary"
  done
fi
cat "$summary"
