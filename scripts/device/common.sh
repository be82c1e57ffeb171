# Sourced by the device scripts: every path comes from the environment, none is built in.
#
#   RDNAPROBE_BIN     the rdnaprobe binary to run (required), e.g. a stripped build of
#                     `cargo build --release -p rdnaprobe --no-default-features` carried along
#   OUT               directory the results are written to (required)
#   RDNAPROBE_DEBS    optional directory of .deb packages (the Vulkan loader) unpacked into /
#                     first, for machines without them
#   RDNAPROBE_VK_ICD  optional Vulkan ICD manifest to use (exported as VK_DRIVER_FILES), e.g.
#                     the NVIDIA driver's nvidia_icd.json where the loader does not find it
bin=${RDNAPROBE_BIN:?set RDNAPROBE_BIN to the rdnaprobe binary}
out=${OUT:?set OUT to the directory for the results}
mkdir -p "$out"
if [[ -n ${RDNAPROBE_DEBS:-} ]]; then
    for f in "$RDNAPROBE_DEBS"/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
if [[ -n ${RDNAPROBE_VK_ICD:-} ]]; then
    export VK_DRIVER_FILES=$RDNAPROBE_VK_ICD
fi
