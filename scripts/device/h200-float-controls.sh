#!/usr/bin/env bash
# H200: replay the shipped datasets on vulkan:nvidia with and without float-controls execution
# modes (RDNAPROBE_FLOAT_CONTROLS=0), to separate the driver's f64 div/sqrt paths.
set -euo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
out=${OUT:-/tmp/out}
work=$(mktemp -d)
mkdir -p "$work/fc-on" "$work/fc-off"
.dev/rdnaprobe replay datasets/rdna2/*.csv --backend vulkan:nvidia -o "$work/fc-on/" 2>/dev/null
RDNAPROBE_FLOAT_CONTROLS=0 .dev/rdnaprobe replay datasets/rdna2/*.csv --backend vulkan:nvidia -o "$work/fc-off/" 2>/dev/null
RDNAPROBE_FLOAT_CONTROLS=0 .dev/rdnaprobe exhaustive --asm "v_sqrt_f16 v10, v4" --input in0=f16:all --modes all16 \
    --backend vulkan:nvidia --reference cpu -o "$work/sqrt16-fc-off" 2>&1 | tail -n 1 || true
tar -C "$work" -czf "$out/fc.tar.gz" .
