# Sourced by tools/gpu/check.sh and variants.sh from the repository root: unpacks the carried
# loader packages (.gl) where the machine lacks them, points Vulkan at NVIDIA's driver where
# there is one, and sets OUT (out/gpu when unset) and SB (the binary: $SMOKEBOX or .gpu/smokebox).
OUT=${OUT:-out/gpu}
mkdir -p "$OUT"
if ls .gl/*.deb >/dev/null 2>&1 && ! ldconfig -p | grep -q libGLdispatch.so.0; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$icd" ]; then export VK_DRIVER_FILES=${VK_DRIVER_FILES:-$icd}; fi
SB=${SMOKEBOX:-.gpu/smokebox}
