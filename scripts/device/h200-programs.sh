#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU (no Rust or clang needed there):
# 1. replays the wave-contract fixtures (datasets/wave, datasets/notes/*_notes.csv: the
#    image rules' evidence rows among them) on vulkan:nvidia and cpu
#    and counts the rows whose outputs differ;
# 2. dispatches the real-kernel corpus (code objects compiled here by clang-19, see
#    runner/tests/real_programs.rs) on vulkan:nvidia and cpu, one wave per workgroup (the LDS
#    kernels four or two), and compares the buffers (the cpu buffers are the ones the tests check against host references);
# 3. runs progfuzz on vulkan:nvidia.
# Paths come from the environment (scripts/device/common.sh) and CORPUS (a directory of .co
# files named FILE_wWAVE_OPT.co); STEPS (default "fixtures corpus progfuzz"), OPT (default
# O2: the corpus variants to run), FILES (default every file: the corpus files to run, e.g.
# "lds") and PF_SEED/PF_PROGRAMS/PF_WAVES/PF_TIMEOUT (progfuzz, default 777000/400/4/420 s)
# pick the work, e.g.
#   RDNAPROBE_BIN=.dev/rdnaprobe RDNAPROBE_DEBS=.gl CORPUS=.dev/corpus OUT=/tmp/out \
#       scripts/device/h200-programs.sh
set -uo pipefail
source "$(dirname "$0")/common.sh"
corpus=${CORPUS:?set CORPUS to the directory of compiled kernels}
steps=${STEPS:-fixtures corpus progfuzz}
opt=${OPT:-O2}
work=$(mktemp -d)
"$bin" devices > "$out/devices.txt" 2>&1
# 1. fixtures: outputs (everything but the backend/status columns) compared row by row
[[ $steps == *fixtures* ]] && for f in datasets/wave/*.csv datasets/notes/*_notes.csv; do
    name=$(basename "$f" .csv)
    for b in cpu vulkan:nvidia; do
        mkdir -p "$work/fix/${b#vulkan:}"
        "$bin" replay "$f" --backend "$b" -o "$work/fix/${b#vulkan:}/" 2>>"$work/fix/replay.log"
    done
    python3 - "$work/fix/cpu/$name.csv" "$work/fix/nvidia/$name.csv" "$name" <<'EOF' | tee -a "$out/summary.txt"
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
cols = [c for c in a[0] if c.startswith("out") or c.endswith("_out") or c in ("status",)]
bad = [r["note"] if "note" in r else i for i, (r, s) in enumerate(zip(a, b)) if any(r[c] != s[c] for c in cols)]
print(f"fixture {sys.argv[3]}: {len(a)} rows, {len(bad)} differ nvidia vs cpu {bad[:5]}")
EOF
done
# 2. the corpus
[[ $steps == *corpus* ]] && for co in $(for o in $opt; do ls "$corpus"/*_"$o".co; done); do
    base=$(basename "$co" .co)
    file=${base%%_w*}
    wave=$(echo "$base" | sed 's/.*_w\([0-9]*\)_.*/\1/')
    # the LDS kernels' references are for workgroups of 128 work-items (4 wave32 or 2 wave64
    # waves meeting at barriers: the resumable modules); the others run one wave per workgroup
    block=$wave
    [[ $file == lds ]] && block=128
    [[ " ${FILES:-$file} " == *" $file "* ]] || continue
    for k in $(grep -o 'KERNEL([a-z0-9_]*)' "runner/tests/kernels/$file.cl" | sed 's/KERNEL(\(.*\))/\1/'); do
        for b in cpu vulkan:nvidia; do
            d=$work/corpus/${b#vulkan:}/${base}_$k
            mkdir -p "$(dirname "$d")"
            s=$(date +%s%N)
            timeout 240 "$bin" dispatch "$co" --kernel "$k" --grid 256 --block "$block" --backend "$b" \
                --arg out=zeros:4224 --arg a=random:1:1024 --arg b=random:2:1024 --arg n=256 \
                -o "$d" >/dev/null 2>"$d.log"
            rc=$?
            e=$(date +%s%N)
            echo "$base $k $b rc=$rc $(( (e - s) / 1000000 )) ms" >> "$out/corpus-times.txt"
        done
        if cmp -s "$work/corpus/cpu/${base}_$k/out.bin" "$work/corpus/nvidia/${base}_$k/out.bin"; then
            echo "corpus $base $k: same" >> "$out/summary.txt"
        else
            echo "corpus $base $k: DIFFERENT" | tee -a "$out/summary.txt"
        fi
    done
done
# 3. progfuzz with LDS float adds among the drawn ops
if [[ $steps == *progfuzz* ]]; then
    mkdir -p "$work/progfuzz"
    timeout "${PF_TIMEOUT:-420}" "$bin" progfuzz --seed "${PF_SEED:-777000}" --programs "${PF_PROGRAMS:-400}" \
        --waves "${PF_WAVES:-4}" --backend vulkan:nvidia \
        --out "$work/progfuzz" \
        > "$out/progfuzz.txt" 2>&1
    rc=$?
    { echo "progfuzz rc=$rc"; tail -5 "$out/progfuzz.txt"; } >> "$out/summary.txt"
fi
tar -C "$work" -czf "$out/programs.tar.gz" .
