#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU (no Rust needed there): replays every
# shipped dataset on vulkan:nvidia and on cpu, writing to $OUT. Paths come from the
# environment (scripts/device/common.sh), e.g.
#   RDNAPROBE_BIN=.dev/rdnaprobe RDNAPROBE_DEBS=.gl OUT=/tmp/out scripts/device/h200-replay.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
work=$(mktemp -d)
"$bin" devices | tee "$out/devices.txt"
for backend in vulkan:nvidia cpu; do
    dir=$work/${backend#vulkan:}
    mkdir -p "$dir"
    start=$(date +%s%N)
    "$bin" replay datasets/rdna2/*.csv --backend "$backend" -o "$dir/" 2> "$dir/replay.log"
    end=$(date +%s%N)
    echo "$backend replay of all shipped datasets: $(( (end - start) / 1000000 )) ms" | tee -a "$out/timings.txt"
done
# The device tool brings back at most 8 files: one archive of everything.
tar -C "$work" -czf "$out/replay.tar.gz" .
