#include "rt.h"
KERNEL(bitops) {
  u32 i = gid(); u32 x = a[i], y = b[i];
  out[4 * i] = __builtin_popcount(x) + (__builtin_clz(x | 1) << 8) + (__builtin_ctz(y | 0x80000000u) << 16);
  out[4 * i + 1] = __builtin_rotateleft32(x, y & 31) ^ __builtin_bitreverse32(y);
  out[4 * i + 2] = ((x >> (y & 7)) & 0xff) | (((x & ~0x0f0f0f0fu) | (y & 0x0f0f0f0fu)) << 8);
  u64 w = (u64)x << 32 | y;
  out[4 * i + 3] = (u32)(__builtin_popcountl(w) + __builtin_clzl(w | 1) + (w >> (x & 63)));
}
KERNEL(crc32) {
  u32 i = gid(); u32 crc = 0xffffffffu;
  for (int k = 0; k < 8; k++) {
    u32 byte = ((k < 4 ? a[i] : b[i]) >> (8 * (k & 3))) & 0xff;
    crc ^= byte;
    for (int j = 0; j < 8; j++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  out[i] = ~crc;
}
KERNEL(fnv1a) {
  u32 i = gid(); u32 h = 2166136261u;
  for (u32 k = 0; k < 4 + (a[i] & 7); k++) { h ^= (b[(i + k) % n] >> (k & 3)); h *= 16777619u; }
  out[i] = h;
}
