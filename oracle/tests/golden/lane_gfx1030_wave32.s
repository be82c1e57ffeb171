; rdnaprobe probe kernel: gfx1030, wave32
.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
.text
.globl probe
.p2align 8
.type probe,@function
probe:
  s_mov_b64 s[100:101], s[0:1]
  s_load_dwordx2 s[4:5], s[100:101], 0x0
  s_load_dword s6, s[100:101], 0x18
  v_lshl_add_u32 v255, s2, 8, v0
  v_mov_b32 v4, 0
  v_mov_b32 v5, 0
  v_mov_b32 v6, 0
  v_mov_b32 v7, 0
  v_mov_b32 v8, 0
  v_mov_b32 v9, 0
  v_mov_b32 v10, 0
  v_mov_b32 v11, 0
  v_mov_b32 v12, 0
  v_mov_b32 v13, 0
  v_mov_b32 v14, 0
  v_mov_b32 v15, 0
  v_mov_b32 v16, 0
  v_mov_b32 v17, 0
  v_mov_b32 v18, 0
  v_mov_b32 v19, 0
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0
  v_mov_b32 v22, 0
  v_mov_b32 v23, 0
  v_mov_b32 v24, 0
  v_mov_b32 v25, 0
  s_waitcnt lgkmcnt(0)
  v_cmp_gt_u32 vcc_lo, s6, v255
  s_and_saveexec_b32 s8, vcc_lo
  v_mul_lo_u32 v1, v255, 24
  global_load_dwordx4 v[4:7], v1, s[4:5]
  global_load_dwordx2 v[8:9], v1, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  s_mov_b32 exec_lo, -1
  s_mov_b32 vcc_lo, 0
  v_mov_b32 v1, 0
  ; ---- body begin ----
  .long 0x7e140304
  .long 0x06160b04
  .long 0x7e1802ff
  .long 0xabcdabcd
  ; ---- body end ----
  s_load_dwordx4 s[0:3], s[100:101], 0x8
  s_load_dword s4, s[100:101], 0x18
  s_mov_b32 exec_lo, -1
  s_waitcnt lgkmcnt(0)
  v_cmp_gt_u32 vcc_lo, s4, v255
  s_mov_b32 exec_lo, vcc_lo
  v_lshlrev_b32 v254, 2, v255
  v_lshlrev_b32 v255, 6, v255
  global_store_dwordx4 v255, v[10:13], s[0:1] offset:0
  global_store_dwordx4 v255, v[14:17], s[0:1] offset:16
  global_store_dwordx4 v255, v[18:21], s[0:1] offset:32
  global_store_dwordx4 v255, v[22:25], s[0:1] offset:48
  v_mov_b32 v253, 0x600dcafe
  global_store_dword v254, v253, s[2:3]
  s_endpgm
.Lprobe_end:
.size probe, .Lprobe_end-probe

.rodata
.p2align 6
.amdhsa_kernel probe
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 32
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_next_free_vgpr 256
  .amdhsa_next_free_sgpr 106
  .amdhsa_reserve_vcc 1
  .amdhsa_ieee_mode 1
  .amdhsa_dx10_clamp 1
  .amdhsa_float_denorm_mode_32 0
  .amdhsa_float_denorm_mode_16_64 3
  .amdhsa_float_round_mode_32 0
  .amdhsa_float_round_mode_16_64 0
  .amdhsa_fp16_overflow 0
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: probe
    .symbol: probe.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 108
    .vgpr_count: 256
    .max_flat_workgroup_size: 256
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: done, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: rows, .offset: 24, .size: 4, .value_kind: by_value }
...
.end_amdgpu_metadata
