#!/usr/bin/env bash
# H200: replay the shipped datasets on vulkan:nvidia with and without float-controls execution
# modes (RDNAPROBE_FLOAT_CONTROLS=0), to separate the driver's f64 div/sqrt paths.
# Paths come from the environment (scripts/device/common.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
work=$(mktemp -d)
mkdir -p "$work/fc-on" "$work/fc-off"
"$bin" replay datasets/rdna2/*.csv --backend vulkan:nvidia -o "$work/fc-on/" 2>/dev/null
RDNAPROBE_FLOAT_CONTROLS=0 "$bin" replay datasets/rdna2/*.csv --backend vulkan:nvidia -o "$work/fc-off/" 2>/dev/null
RDNAPROBE_FLOAT_CONTROLS=0 "$bin" exhaustive --asm "v_sqrt_f16 v10, v4" --input in0=f16:all --modes all16 \
    --backend vulkan:nvidia --reference cpu -o "$work/sqrt16-fc-off" 2>&1 | tail -n 1 || true
tar -C "$work" -czf "$out/fc.tar.gz" .
