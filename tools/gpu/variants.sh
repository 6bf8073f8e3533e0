#!/usr/bin/env bash
# Times the plume's step under variables, one run after another, on a GPU machine (after
# tools/gpu/prepare.sh, with .gpu and .gl copied into the checkout). Each argument is LABEL or
# LABEL:VAR=VALUE[;VAR=VALUE...]; the first and last runs should be the default, so a drift of
# the GPU's clock shows. Per size: `run --stats` of STEPS steps (time.max_cfl=0), the median,
# least and most `ms` of steps 21+. Lines go to stdout and $OUT/variants.txt.
#   bash tools/gpu/variants.sh default cells8x8:SMOKEBOX_PROFILE=gpu,cell_block=8x8 checks-all:SMOKEBOX_PROFILE=gpu,checks=all default
# A dry run here: SIZES=64 STEPS=30 SMOKEBOX=target/release/smokebox bash tools/gpu/variants.sh default
set -uo pipefail
cd "$(dirname "$0")/../.."
. tools/gpu/machine.sh
[ $# -gt 0 ] || { echo "variants.sh: name at least one variant, e.g. default" >&2; exit 2; }
for n in ${SIZES:-1024 4096}; do
  h=$(awk -v n="$n" 'BEGIN { printf "%.10g", 1 / n }')
  for variant in "$@"; do
    label=${variant%%:*}
    sets=()
    if [ "$variant" != "$label" ]; then IFS=";" read -ra sets <<<"${variant#*:}"; fi
    line=$(env "${sets[@]}" timeout 120 "$SB" run --scene plume --steps "${STEPS:-80}" --stats --set "grid.nx=$n" \
        --set "grid.ny=$n" --set "grid.cell_size=$h" --set time.max_cfl=0 2>&1 |
      awk '/^\{/ { n++; if (n <= 20) next; i = index($0, "\"ms\":"); v = substr($0, i + 5); sub(/[,}].*/, "", v); print v + 0 }' |
      sort -g | awk '{ a[++m] = $1 } END { if (!m) { print "no steps"; exit } printf "median %g (%g-%g) over %d steps\n", a[int((m + 1) / 2)], a[1], a[m], m }')
    echo "$n² $label: $line" | tee -a "$OUT/variants.txt"
  done
done
