#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU: replays every shipped dataset (lane
# and wave contract) on vulkan:nvidia and on cpu, runs the differential VALU fuzzer against the
# CPU model, and times wave-contract replays against lane-contract replays of the same rows.
# Paths come from the environment (scripts/device/common.sh); also:
#   FUZZ_ROWS   rows for `rdnaprobe fuzz` (default 1000000; 0 skips it), FUZZ_SEED its seed
#   BENCH_DIR   optional directory of *.csv.gz datasets to time on both backends
set -uo pipefail
source "$(dirname "$0")/common.sh"
work=$(mktemp -d)
"$bin" devices > "$out/devices.txt" 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
sets=(datasets/rdna2/*.csv datasets/reference-facts.csv datasets/wave/*.csv)
for backend in vulkan:nvidia cpu; do
    dir=$work/replay/${backend#vulkan:}
    mkdir -p "$dir"
    t0=$(date +%s%N)
    "$bin" replay "${sets[@]}" --backend "$backend" -o "$dir/" 2> "$dir/replay.log"
    rc=$?
    echo "$backend replay of the shipped datasets: $(ms "$t0") ms (exit $rc)" | tee -a "$out/timings.txt"
done
rows=${FUZZ_ROWS:-1000000}
if [[ $rows != 0 ]]; then
    t0=$(date +%s%N)
    "$bin" fuzz --seed "${FUZZ_SEED:-20261201}" --rows "$rows" --backend vulkan:nvidia \
        > "$out/fuzz.txt" 2>&1
    rc=$?
    echo "fuzz $rows rows on vulkan:nvidia: $(ms "$t0") ms (exit $rc)" | tee -a "$out/timings.txt"
fi
if [[ -n ${BENCH_DIR:-} ]]; then
    for gz in "$BENCH_DIR"/*.csv.gz; do
        name=$(basename "$gz" .csv.gz)
        gzip -dc "$gz" > "$work/$name.csv"
        for backend in vulkan:nvidia cpu; do
            t0=$(date +%s%N)
            "$bin" replay "$work/$name.csv" --backend "$backend" -o "$work/bench-$name-${backend#vulkan:}.csv" 2> /dev/null
            rc=$?
            echo "$name on $backend: $(ms "$t0") ms (exit $rc)" | tee -a "$out/timings.txt"
        done
        rm -f "$work/$name.csv" "$work"/bench-*.csv
    done
fi
tar -C "$work" -czf "$out/conformance.tar.gz" .
