#include "rt.h"
KERNEL(diverge) {
  u32 i = gid(); u32 x = a[i], r;
  if (x & 1) { r = x * 3 + 1; if (r & 2) r ^= b[i]; else r += 7; }
  else if (x & 2) { r = 0; for (u32 k = 0; k < (b[i] & 15); k++) r += k * x; }
  else r = b[i] >> 3;
  out[i] = r;
}
KERNEL(collatz) {
  u32 i = gid(); u32 x = (a[i] & 0xfff) + 1, steps = 0;
  while (x != 1 && steps < 300) { x = (x & 1) ? 3 * x + 1 : x >> 1; steps++; }
  out[i] = steps;
}
__attribute__((noinline)) u32 mix(u32 x, u32 y) { return (x ^ (y << 5)) + (y >> 3) * 7; }
KERNEL(calls) {
  u32 i = gid(); u32 h = a[i];
  for (u32 k = 0; k < 3; k++) h = mix(h, b[(i + k) % n]);
  out[i] = h;
}
KERNEL(private_array) {
  u32 i = gid(); u32 t[16];
  for (int k = 0; k < 16; k++) t[k] = a[(i + k) % n] ^ k;
  u32 s = 0;
  for (int k = 0; k < 8; k++) s += t[(b[i] >> (4 * k)) & 15];
  out[i] = s;
}
