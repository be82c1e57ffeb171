#!/usr/bin/env bash
# Runs on the NVIDIA H200 machine: the NVIDIA case of runner/tests/vulkan_vs_cpu.rs, built here
#   CARGO_TARGET_DIR=/tmp/rel cargo test --release -p rdnaprobe --no-default-features \
#       --test vulkan_vs_cpu --no-run
# and carried stripped as .dev/vulkan_vs_cpu next to .dev/rdnaprobe. The test binary has the
# paths of the build machine compiled in (the rdnaprobe binary, the repository, a scratch
# directory); they are recreated here.
set -euo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
[[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]] &&
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
bin_path=${RDNAPROBE_BUILD_BIN:-/tmp/rel/release/rdnaprobe}
repo_path=${RDNAPROBE_BUILD_REPO:-/work/main}
mkdir -p "$(dirname "$bin_path")" /tmp/rel/tmp
cp .dev/rdnaprobe "$bin_path"
if [[ ! -e $repo_path ]]; then
    mkdir -p "$(dirname "$repo_path")"
    ln -s "$PWD" "$repo_path"
fi
RDNAPROBE_REQUIRE_NVIDIA=1 .dev/vulkan_vs_cpu --nocapture --test-threads 1 nvidia 2>&1
