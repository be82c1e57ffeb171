#include "rt.h"
// Workgroups of several waves meet at barriers (block 128: 4 waves of 32 or 2 of 64).
KERNEL(lds_reduce) {
  __local u32 s[128];
  u32 l = lid(), i = gid();
  s[l] = a[i];
  barrier_lds();
  for (u32 w = 64; w > 0; w >>= 1) { if (l < w) s[l] += s[l + w]; barrier_lds(); }
  if (l == 0) out[wgid()] = s[0];
}
KERNEL(lds_scan) {
  __local u32 s[2][128];
  u32 l = lid(), i = gid(), p = 0;
  s[0][l] = a[i] & 0xffff;
  barrier_lds();
  for (u32 d = 1; d < 128; d <<= 1) {
    u32 v = s[p][l] + (l >= d ? s[p][l - d] : 0);
    s[p ^ 1][l] = v; p ^= 1; barrier_lds();
  }
  out[i] = s[p][l];
}
KERNEL(bitonic) {
  __local u32 s[128];
  u32 l = lid(), i = gid();
  s[l] = a[i];
  barrier_lds();
  for (u32 k = 2; k <= 128; k <<= 1)
    for (u32 j = k >> 1; j > 0; j >>= 1) {
      u32 x = l ^ j;
      if (x > l) {
        u32 u = s[l], v = s[x];
        int up = (l & k) == 0;
        if ((u > v) == up) { s[l] = v; s[x] = u; }
      }
      barrier_lds();
    }
  out[i] = s[l];
}
KERNEL(atomics) {
  __local u32 hist[16];
  u32 l = lid(), i = gid();
  if (l < 16) hist[l] = 0;
  barrier_lds();
  __atomic_fetch_add(&hist[a[i] & 15], 1u, __ATOMIC_RELAXED);
  __atomic_fetch_max(&out[n + 16], a[i], __ATOMIC_RELAXED);
  barrier_lds();
  if (l < 16) __atomic_fetch_add(&out[n + l], hist[l], __ATOMIC_RELAXED);
  out[i] = __atomic_fetch_add(&out[n + 17], 1u, __ATOMIC_RELAXED) < n ? (a[i] & 15) : 0xdead;
}
