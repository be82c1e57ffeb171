// The work-item and workgroup ids without device libraries: the descriptor's VGPR and SGPR
// ids, and the workgroup size from the dispatch packet.
typedef unsigned int u32;
typedef unsigned long u64;
static inline u32 lid(void) { return __builtin_amdgcn_workitem_id_x(); }
static inline u32 wgid(void) { return __builtin_amdgcn_workgroup_id_x(); }
static inline u32 lsize(void) {
  __constant unsigned short *p = (__constant unsigned short *)__builtin_amdgcn_dispatch_ptr();
  return p[2];
}
static inline u32 gid(void) { return wgid() * lsize() + lid(); }
static inline void barrier_lds(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
// Every kernel takes (out, a, b, n): n work-items, a and b random dwords.
#define KERNEL(name) __kernel void name(__global u32 *out, __global const u32 *a, __global const u32 *b, u32 n)
