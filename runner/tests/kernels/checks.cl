// Kernels for dispatch's own checks (runner/tests/dispatch_checks.rs).
#include "rt.h"

// Writes one dword per work-item: a grid larger than `out` writes past it.
__kernel void copy_plus_one(__global u32 *out, __global const u32 *a) {
    u32 i = gid();
    out[i] = a[i] + 1u;
}

// Built for workgroups of 128: each work-item writes its local id and group.
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void fixed_block(__global u32 *out) {
    out[gid()] = (wgid() << 16) | lid();
}
