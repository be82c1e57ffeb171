#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU: the reference-digest targets of
# docs/performance.md ("Reference digests"). Paths come from the environment
# (scripts/device/common.sh); besides those:
#   STEPS    which steps to run, in order (default `unary save16 check16`). One device call
#            has 10 minutes: run `unary`, `save16` and `check16` as separate calls on the same
#            warm machine (the digests stay in $DIGESTS between them).
#   DIGESTS  the digest store (default target/h200-digests, an ignored path that stays on a
#            warm machine between calls)
#   CHUNK    rows per chunk of the saves (default 4194304)
#   RECHECK_CHUNK  rows per chunk of the device re-checks (default 67108864: one submission
#            and one fence per 64 Mi rows; only the hash words and differing blocks come back)
#   BACKEND  the candidate (default vulkan:nvidia); INPUT the generator (default in0=f32:all):
#            a smaller INPUT and vulkan:lavapipe try the script on any machine
#   SAVE_BACKEND  the trusted backend whose digests `save16` stores (default cpu, the CPU
#            model; another backend is only as trustworthy as its own check against it)
# Steps:
#   unary    for v_sqrt_f32 and v_rcp_f32 over 2^32 inputs, default mode: save the CPU model's
#            digests and device hashes (`--backend cpu --reference none --save-digests`, every
#            core; a store saved before device hashes existed lacks `*.dhash` and is re-checked
#            on the host path, so `save` again), then
#            re-check vulkan:nvidia against them (`--against-digests`: blocks hashed on the
#            device, those that differ read back, recomputed by the CPU model and diffed)
#   save16   the CPU model's digests of v_sqrt_f32 in all 16 denorm x round modes (2^36 rows:
#            about 6 minutes on 16 cores)
#   check16  the re-check of vulkan:nvidia in those 16 modes against them
# Every run prints its wall time and the manifest's timings (candidate_s: the device thread's
# busy time, dispatch + fence + read-back), rows/s, mismatches and blocks recomputed, one line
# each, into $OUT/digests.txt; the manifests come back in $OUT/digests.tar.gz.
# The bound to set them against: the H200's 4.8 TB/s of HBM moves the 2^32 x 4 B outputs of one
# mode (17.2 GB written, and as much read by the device-side hash: 34 GB) in about 7 ms; a
# re-check moves 8 bytes a block (8 MB a mode) to the host (`bytes_read_back`).
set -uo pipefail
source "$(dirname "$0")/common.sh"
digests=${DIGESTS:-target/h200-digests}
chunk=${CHUNK:-4194304}
recheck_chunk=${RECHECK_CHUNK:-67108864}
backend=${BACKEND:-vulkan:nvidia}
input=${INPUT:-in0=f32:all}
work=$out/runs
mkdir -p "$work" "$digests"
log=$out/digests.txt
echo "cores: $(nproc)" | tee -a "$log"

# run NAME TIMEOUT ARGS...: one exhaustive run into $work/NAME, timed, summarised (a NAME
# starting with `recheck` runs with RECHECK_CHUNK rows per chunk).
run() {
    local name=$1 limit=$2 chunk=$chunk
    [[ $name == recheck* ]] && chunk=$recheck_chunk
    shift 2
    local start end rc
    start=$(date +%s%N)
    timeout "$limit" "$bin" exhaustive "$@" --chunk "$chunk" --max-mismatches 1000 \
        -o "$work/$name" > "$work/$name.log" 2>&1
    rc=$?
    end=$(date +%s%N)
    local summary
    summary=$(python3 - "$work/$name/manifest.json" <<'EOF' 2>/dev/null
import json, sys
m = json.load(open(sys.argv[1]))
t = m.get("timings", {})
a = m.get("against_digests") or {}
print("rows %s, wall_s %.2f, candidate_s (device thread) %.2f, check_s %.2f, wait_s %.2f, "
      "rows/s %.3g, mismatches %s, blocks_recomputed %s, device_hash %s, bytes_read_back %s, "
      "digest %s" % (
    m.get("rows"), t.get("wall_s", 0), t.get("candidate_s", 0), t.get("check_s", 0),
    t.get("wait_s", 0), m.get("rows_per_s", 0), (m.get("mismatches") or {}).get("total"),
    a.get("blocks_recomputed"), a.get("device_hash"), m.get("bytes_read_back"),
    str((m.get("digest") or {}).get("sha256", ""))[:16]))
EOF
    )
    echo "$name: exit $rc, process wall $(( (end - start) / 1000000 )) ms; ${summary:-no manifest: $(tail -n 2 "$work/$name.log")}" |
        tee -a "$log"
}

for step in ${STEPS:-unary save16 check16}; do
    case $step in
    unary)
        for op in v_sqrt_f32 v_rcp_f32; do
            run "save-$op" 280 --asm "$op v10, v4" --input "$input" --modes default \
                --backend cpu --reference none --save-digests "$digests"
            run "recheck-$op" 280 --asm "$op v10, v4" --input "$input" --modes default \
                --backend "$backend" --reference cpu --against-digests "$digests"
        done
        ;;
    save16)
        run save16-v_sqrt_f32 580 --asm "v_sqrt_f32 v10, v4" --input "$input" --modes all16 \
            --backend "${SAVE_BACKEND:-cpu}" --reference none --save-digests "$digests"
        ;;
    check16)
        run recheck16-v_sqrt_f32 580 --asm "v_sqrt_f32 v10, v4" --input "$input" \
            --modes all16 --backend "$backend" --reference cpu --against-digests "$digests"
        ;;
    *)
        echo "unknown step $step (expected unary, save16, check16)" >&2
        exit 2
        ;;
    esac
done
find "$work" -name mismatches.csv -size +1M -delete
find "$work" -name journal.jsonl -delete
tar -C "$work" -czf "$out/digests.tar.gz" .
rm -rf "$work"
