#include "rt.h"
KERNEL(mad_u32) { u32 i = gid(); out[i] = a[i] * 2654435761u + (b[i] ^ n); }
KERNEL(minmax) {
  u32 i = gid(); int x = (int)a[i], y = (int)b[i];
  out[2 * i] = (u32)(x < y ? x : y) ^ (a[i] > b[i] ? a[i] : b[i]);
  out[2 * i + 1] = (u32)((x >> (b[i] & 31)) + (int)(a[i] >> (b[i] & 31)));
}
KERNEL(mul_hi24) {
  u32 i = gid();
  out[2 * i] = (u32)(((u64)a[i] * b[i]) >> 32);
  int x = (int)(a[i] << 8) >> 8, y = (int)(b[i] << 8) >> 8;
  out[2 * i + 1] = (u32)x * (u32)y + n;
}
KERNEL(sat_add) {
  u32 i = gid();
  u32 s = a[i] + b[i];
  out[2 * i] = s < a[i] ? 0xffffffffu : s;
  long d = (long)(int)a[i] - (long)(int)b[i];
  out[2 * i + 1] = (u32)(int)(d > 2147483647l ? 2147483647l : d < -2147483648l ? -2147483648l : d);
}
