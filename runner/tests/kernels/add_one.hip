// A HIP kernel built without the HIP headers: the attribute and the launch declaration the host
// side of a HIP compile needs.
#define __global__ __attribute__((global))
struct dim3 { unsigned x, y, z; };
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *f, dim3 grid, dim3 block, void **args,
                               unsigned long shared, hipStream_t stream);
extern "C" __global__ void add_one(unsigned *out, const unsigned *a) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  out[i] = a[i] + 1;
}
