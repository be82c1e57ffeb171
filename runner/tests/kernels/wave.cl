#include "rt.h"
// Cross-lane builtins, as clang lowers them (DPP, ds_swizzle, readlane, ballot).
KERNEL(dpp_shift) {
  u32 i = gid();
  // row_shr:1 with bound_ctrl (0 where no source), and a quad permute [3,2,1,0]
  out[2 * i] = __builtin_amdgcn_update_dpp(0u, a[i], 0x111, 0xf, 0xf, true);
  out[2 * i + 1] = __builtin_amdgcn_mov_dpp(a[i], 0x1b, 0xf, 0xf, false);
}
KERNEL(wave_reduce) {
  u32 i = gid(); u32 v = a[i] & 0xffff;
  // row reduction: the sum of each row of 16 lanes in its lane 15
  v += __builtin_amdgcn_update_dpp(0u, v, 0x111, 0xf, 0xf, true);
  v += __builtin_amdgcn_update_dpp(0u, v, 0x112, 0xf, 0xf, true);
  v += __builtin_amdgcn_update_dpp(0u, v, 0x114, 0xf, 0xf, true);
  v += __builtin_amdgcn_update_dpp(0u, v, 0x118, 0xf, 0xf, true);
  out[2 * i] = v;
  out[2 * i + 1] = __builtin_amdgcn_readlane(v, 15) + __builtin_amdgcn_readfirstlane(a[i]);
}
KERNEL(ballot) {
  u32 i = gid();
#if __AMDGCN_WAVEFRONT_SIZE == 64
  u64 m = __builtin_amdgcn_ballot_w64((a[i] & 1) != 0);
#else
  u64 m = __builtin_amdgcn_ballot_w32((a[i] & 1) != 0);
#endif
  out[2 * i] = (u32)m ^ (u32)(m >> 32);
  out[2 * i + 1] = __builtin_amdgcn_ds_swizzle(a[i], 0x041f);  // quad swap pattern
}
