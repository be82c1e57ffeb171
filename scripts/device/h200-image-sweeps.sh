#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU: every image sweep spec of
# datasets/specs/images (docs/sweeps.md, "Image sweeps") on vulkan:nvidia and on cpu, and the
# rows whose outputs (out0..out15, the region after the body, the status) differ; then the
# texture-unit campaign's specs (texture_units_*, cube_edges) once more with --images native (the
# driver's texture unit), both datasets gzipped into OUT/texture-units.tar for
# `rdnaprobe texture-report` (docs/backends.md, "Native images"); last `fuzz --images` (FUZZ_IMAGES specs, default 300, FUZZ_SEED) against
# vulkan:nvidia. Paths come from the environment (scripts/device/common.sh), e.g.
#   RDNAPROBE_BIN=.dev/rdnaprobe RDNAPROBE_DEBS=.gl OUT=/tmp/out scripts/device/h200-image-sweeps.sh
set -uo pipefail
source "$(dirname "$0")/common.sh"
work=$(mktemp -d)
for spec in datasets/specs/images/*.toml; do
    name=$(basename "$spec" .toml)
    for b in cpu vulkan:nvidia; do
        s=$(date +%s%N)
        "$bin" sweep "$spec" --backend "$b" -o "$work/$name-${b#vulkan:}.csv" 2>>"$work/log"
        e=$(date +%s%N)
        echo "$name $b rc=$? $(( (e - s) / 1000000 )) ms" >> "$out/times.txt"
    done
    python3 - "$work/$name-cpu.csv" "$work/$name-nvidia.csv" "$name" <<'PY' | tee -a "$out/summary.txt"
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
cols = [c for c in a[0] if c.startswith("out") or c in ("mem_out", "status")]
bad = [i for i, (r, s) in enumerate(zip(a, b)) if any(r[c] != s[c] for c in cols)]
ok = sum(r["status"] == "ok" for r in b)
print(f"image sweep {sys.argv[3]}: {len(a)} rows ({ok} ok on nvidia), {len(bad)} differ nvidia vs cpu {bad[:5]}")
PY
done
mkdir -p "$work/tu"
for spec in datasets/specs/images/texture_units_*.toml datasets/specs/images/cube_edges.toml; do
    name=$(basename "$spec" .toml)
    s=$(date +%s%N)
    "$bin" sweep "$spec" --backend vulkan:nvidia --images native -o "$work/$name-native.csv" 2>>"$work/log"
    rc=$?
    e=$(date +%s%N)
    echo "$name vulkan:nvidia --images native rc=$rc $(( (e - s) / 1000000 )) ms" >> "$out/times.txt"
    gzip -c "$work/$name-nvidia.csv" > "$work/tu/$name-nvidia-software.csv.gz"
    gzip -c "$work/$name-native.csv" > "$work/tu/$name-nvidia-native.csv.gz"
done
tar -C "$work/tu" -cf "$out/texture-units.tar" .
# random image sweep specs (issue-style fuzzing of the image half): cpu against vulkan:nvidia
s=$(date +%s%N)
timeout "${FUZZ_TIMEOUT:-200}" "$bin" fuzz --images "${FUZZ_IMAGES:-300}" --seed "${FUZZ_SEED:-4242}" \
    --backend vulkan:nvidia --repro-dir "$work/repros" > "$out/fuzz-images.txt" 2>&1
rc=$?
e=$(date +%s%N)
echo "fuzz --images ${FUZZ_IMAGES:-300} rc=$rc $(( (e - s) / 1000000 )) ms" >> "$out/times.txt"
cp "$work/log" "$out/log.txt"
