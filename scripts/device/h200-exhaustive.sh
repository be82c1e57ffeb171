#!/usr/bin/env bash
# Runs on the NVIDIA H200 machine (see h200-replay.sh for what is carried): the exhaustive
# streaming targets of docs/performance.md. Manifests come back in $OUT/exhaustive.tar.gz.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
[[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]] &&
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
bin=.dev/rdnaprobe
out=${OUT:-/tmp/out}
work=$(mktemp -d)
nproc
for op in v_sqrt_f16 v_rcp_f16 v_add_f16; do
    args=(--input in0=f16:all)
    [[ $op == v_add_f16 ]] && args=(--input in0=f16:all --input in1=const:0x3c01)
    asm="$op v10, v4"
    [[ $op == v_add_f16 ]] && asm="$op v10, v4, v5"
    "$bin" exhaustive --asm "$asm" "${args[@]}" --modes all16 --backend vulkan:nvidia \
        --reference cpu -o "$work/f16-$op" 2>&1 | tail -n 4
done
for op in v_sqrt_f32 v_mul_f32; do
    asm="$op v10, v4"
    extra=()
    [[ $op == v_mul_f32 ]] && asm="$op v10, v4, v5" && extra=(--input in1=const:0x3fc00000)
    timeout 280 "$bin" exhaustive --asm "$asm" --input in0=f32:all "${extra[@]}" --modes default \
        --backend vulkan:nvidia --reference cpu --chunk 4194304 --max-mismatches 1000 \
        -o "$work/f32-$op" 2>&1 | tail -n 4
done
find "$work" -name mismatches.csv -size +1M -delete
tar -C "$work" -czf "$out/exhaustive.tar.gz" .
