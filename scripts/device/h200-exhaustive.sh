#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU: the exhaustive streaming targets of
# docs/performance.md. Manifests come back in $OUT/exhaustive.tar.gz. Paths come from the
# environment (scripts/device/common.sh).
set -uo pipefail
source "$(dirname "$0")/common.sh"
work=$(mktemp -d)
nproc
# Every f16 input x the 16 denorm x round modes (F16_OPS overrides the list).
for op in ${F16_OPS:-v_sqrt_f16 v_rcp_f16 v_add_f16}; do
    args=(--input in0=f16:all)
    [[ $op == v_add_f16 ]] && args=(--input in0=f16:all --input in1=const:0x3c01)
    asm="$op v10, v4"
    [[ $op == v_add_f16 ]] && asm="$op v10, v4, v5"
    "$bin" exhaustive --asm "$asm" "${args[@]}" --modes all16 --backend vulkan:nvidia \
        --reference cpu -o "$work/f16-$op" 2>&1 | tail -n 4
done
# The 2^32 f32 unary targets (F32_OPS overrides the list).
for op in ${F32_OPS:-v_sqrt_f32 v_rcp_f32}; do
    timeout 280 "$bin" exhaustive --asm "$op v10, v4" --input in0=f32:all --modes default \
        --backend vulkan:nvidia --reference cpu --chunk 4194304 --max-mismatches 1000 \
        -o "$work/f32-$op" 2>&1 | tail -n 4
done
# The benchmark lines (recompile, replay, f16 x 16, AnyPS5 shape) for cpu and vulkan:nvidia.
if [[ "${BENCH:-1}" == 1 ]]; then
    RDNAPROBE=$bin BENCH_DIR=$work/bench scripts/bench-stream cpu vulkan:nvidia 2>&1 |
        tee "$out/bench-stream.txt"
    rm -rf "$work/bench/shape"
fi
find "$work" -name mismatches.csv -size +1M -delete
tar -C "$work" -czf "$out/exhaustive.tar.gz" .
