#!/usr/bin/env bash
# Runs in the repository on a machine with an NVIDIA GPU: the NVIDIA case of
# runner/tests/vulkan_vs_cpu.rs, from a test binary built elsewhere with
#   cargo test --release -p rdnaprobe --no-default-features --test vulkan_vs_cpu --no-run
# Paths come from the environment (scripts/device/common.sh), plus
#   RDNAPROBE_TEST_BIN  the vulkan_vs_cpu test binary (required)
# The test takes the rdnaprobe binary, the repository (this directory) and a scratch
# directory from RDNAPROBE_BIN, RDNAPROBE_REPO and RDNAPROBE_SCRATCH, set here.
set -euo pipefail
source "$(dirname "$0")/common.sh"
test_bin=${RDNAPROBE_TEST_BIN:?set RDNAPROBE_TEST_BIN to the vulkan_vs_cpu test binary}
RDNAPROBE_BIN=$(realpath "$bin")
RDNAPROBE_REPO=${RDNAPROBE_REPO:-$PWD}
RDNAPROBE_SCRATCH=$(mktemp -d)
export RDNAPROBE_BIN RDNAPROBE_REPO RDNAPROBE_SCRATCH
RDNAPROBE_REQUIRE_NVIDIA=1 "$test_bin" --nocapture --test-threads 1 nvidia 2>&1 |
    tee "$out/vulkan_vs_cpu.txt"
