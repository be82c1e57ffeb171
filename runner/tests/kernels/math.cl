#include "rt.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// f32 operands in [1/16, 16) with random signs: no denormals, no overflow
static inline float f32_of(u32 x) { return as_float((x & 0x807fffffu) | (((x >> 23) & 7) + 123) << 23); }
KERNEL(f32_ops) {
  u32 i = gid(); float x = f32_of(a[i]), y = f32_of(b[i]);
  out[4 * i] = as_uint(x * y + x);
  out[4 * i + 1] = as_uint(x / y);
  out[4 * i + 2] = as_uint(__builtin_sqrtf(__builtin_fabsf(x)));
  out[4 * i + 3] = as_uint(__builtin_fmaf(x, y, -x) - __builtin_fminf(x, y));
}
KERNEL(f32_convert) {
  u32 i = gid(); float x = f32_of(a[i]) * 1000.0f;
  out[4 * i] = (u32)(int)x;
  out[4 * i + 1] = as_uint((float)(int)b[i]);
  out[4 * i + 2] = as_uint((float)b[i]);
  out[4 * i + 3] = as_uint(__builtin_floorf(x) + __builtin_ceilf(-x) + __builtin_truncf(x * 0.5f));
}
KERNEL(f16_ops) {
  u32 i = gid();
  half x = as_half((ushort)((a[i] & 0x83ff) | ((((a[i] >> 10) & 7) + 12) << 10)));
  half y = as_half((ushort)((b[i] & 0x83ff) | ((((b[i] >> 10) & 7) + 12) << 10)));
  half s = x + y, p = x * y, d = x - y;
  out[2 * i] = (u32)as_ushort(s) | (u32)as_ushort(p) << 16;
  out[2 * i + 1] = (u32)as_ushort(d) | (u32)as_ushort((half)((float)x * 3.0f)) << 16;
}
