#include "rt.h"
KERNEL(mul64) {
  u32 i = gid();
  u64 p = (u64)a[i] * (u64)b[i] + ((u64)a[i] << 32 | b[i]);
  u64 q = p * 0x9e3779b97f4a7c15ul;
  out[4 * i] = (u32)p; out[4 * i + 1] = (u32)(p >> 32);
  out[4 * i + 2] = (u32)q; out[4 * i + 3] = (u32)(q >> 32);
}
KERNEL(div32) {
  u32 i = gid(); u32 d = (b[i] >> (a[i] & 15)) | 1; int sd = (int)d * ((a[i] & 1) ? -1 : 1);
  out[4 * i] = a[i] / d; out[4 * i + 1] = a[i] % d;
  out[4 * i + 2] = (u32)((int)a[i] / sd); out[4 * i + 3] = (u32)((int)a[i] % sd);
}
KERNEL(div64) {
  u32 i = gid(); u64 x = (u64)a[i] << 32 | b[i]; u64 d = ((u64)b[i] >> (a[i] & 31)) | 1;
  u64 q = x / d, r = x % d;
  out[4 * i] = (u32)q; out[4 * i + 1] = (u32)(q >> 32); out[4 * i + 2] = (u32)r; out[4 * i + 3] = (u32)(r >> 32);
}
