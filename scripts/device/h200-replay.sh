#!/usr/bin/env bash
# Runs on the NVIDIA H200 machine (no Rust there): a stripped `rdnaprobe` built here with
#   cargo build --release -p rdnaprobe --no-default-features
# is carried as .dev/rdnaprobe, the Vulkan loader as .gl/*.deb.
# Replays every shipped dataset on vulkan:nvidia and on cpu (16 cores), writing to $OUT.
set -euo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if [[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
bin=.dev/rdnaprobe
out=${OUT:-/tmp/out}
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
