//! The opcode enum: one variant per instruction-table row, spelled as the AMD/LLVM
//! mnemonic (with the family appended where two families share a mnemonic), in table
//! order. Generated from `table/gfx10.txt` by
//! `BLESS=1 cargo test -p rdnaprobe-isa --test opcode`; do not edit.
//! [`Opcode::info`] and [`OpInfo::op`](crate::OpInfo::op) lead from one to the other.

use crate::table::Family;

/// One instruction of the table (a family and an opcode number).
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    /// SOP2 0
    s_add_u32,
    /// SOP2 1
    s_sub_u32,
    /// SOP2 2
    s_add_i32,
    /// SOP2 3
    s_sub_i32,
    /// SOP2 4
    s_addc_u32,
    /// SOP2 5
    s_subb_u32,
    /// SOP2 6
    s_min_i32,
    /// SOP2 7
    s_min_u32,
    /// SOP2 8
    s_max_i32,
    /// SOP2 9
    s_max_u32,
    /// SOP2 10
    s_cselect_b32,
    /// SOP2 11
    s_cselect_b64,
    /// SOP2 14
    s_and_b32,
    /// SOP2 15
    s_and_b64,
    /// SOP2 16
    s_or_b32,
    /// SOP2 17
    s_or_b64,
    /// SOP2 18
    s_xor_b32,
    /// SOP2 19
    s_xor_b64,
    /// SOP2 20
    s_andn2_b32,
    /// SOP2 21
    s_andn2_b64,
    /// SOP2 22
    s_orn2_b32,
    /// SOP2 23
    s_orn2_b64,
    /// SOP2 24
    s_nand_b32,
    /// SOP2 25
    s_nand_b64,
    /// SOP2 26
    s_nor_b32,
    /// SOP2 27
    s_nor_b64,
    /// SOP2 28
    s_xnor_b32,
    /// SOP2 29
    s_xnor_b64,
    /// SOP2 30
    s_lshl_b32,
    /// SOP2 31
    s_lshl_b64,
    /// SOP2 32
    s_lshr_b32,
    /// SOP2 33
    s_lshr_b64,
    /// SOP2 34
    s_ashr_i32,
    /// SOP2 35
    s_ashr_i64,
    /// SOP2 36
    s_bfm_b32,
    /// SOP2 37
    s_bfm_b64,
    /// SOP2 38
    s_mul_i32,
    /// SOP2 39
    s_bfe_u32,
    /// SOP2 40
    s_bfe_i32,
    /// SOP2 41
    s_bfe_u64,
    /// SOP2 42
    s_bfe_i64,
    /// SOP2 44
    s_absdiff_i32,
    /// SOP2 46
    s_lshl1_add_u32,
    /// SOP2 47
    s_lshl2_add_u32,
    /// SOP2 48
    s_lshl3_add_u32,
    /// SOP2 49
    s_lshl4_add_u32,
    /// SOP2 50
    s_pack_ll_b32_b16,
    /// SOP2 51
    s_pack_lh_b32_b16,
    /// SOP2 52
    s_pack_hh_b32_b16,
    /// SOP2 53
    s_mul_hi_u32,
    /// SOP2 54
    s_mul_hi_i32,
    /// SOPK 0
    s_movk_i32,
    /// SOPK 1
    s_version,
    /// SOPK 2
    s_cmovk_i32,
    /// SOPK 3
    s_cmpk_eq_i32,
    /// SOPK 4
    s_cmpk_lg_i32,
    /// SOPK 5
    s_cmpk_gt_i32,
    /// SOPK 6
    s_cmpk_ge_i32,
    /// SOPK 7
    s_cmpk_lt_i32,
    /// SOPK 8
    s_cmpk_le_i32,
    /// SOPK 9
    s_cmpk_eq_u32,
    /// SOPK 10
    s_cmpk_lg_u32,
    /// SOPK 11
    s_cmpk_gt_u32,
    /// SOPK 12
    s_cmpk_ge_u32,
    /// SOPK 13
    s_cmpk_lt_u32,
    /// SOPK 14
    s_cmpk_le_u32,
    /// SOPK 15
    s_addk_i32,
    /// SOPK 16
    s_mulk_i32,
    /// SOPK 18
    s_getreg_b32,
    /// SOPK 19
    s_setreg_b32,
    /// SOPK 21
    s_setreg_imm32_b32,
    /// SOPK 22
    s_call_b64,
    /// SOPK 23
    s_waitcnt_vscnt,
    /// SOPK 24
    s_waitcnt_vmcnt,
    /// SOPK 25
    s_waitcnt_expcnt,
    /// SOPK 26
    s_waitcnt_lgkmcnt,
    /// SOPK 27
    s_subvector_loop_begin,
    /// SOPK 28
    s_subvector_loop_end,
    /// SOP1 3
    s_mov_b32,
    /// SOP1 4
    s_mov_b64,
    /// SOP1 5
    s_cmov_b32,
    /// SOP1 6
    s_cmov_b64,
    /// SOP1 7
    s_not_b32,
    /// SOP1 8
    s_not_b64,
    /// SOP1 9
    s_wqm_b32,
    /// SOP1 10
    s_wqm_b64,
    /// SOP1 11
    s_brev_b32,
    /// SOP1 12
    s_brev_b64,
    /// SOP1 13
    s_bcnt0_i32_b32,
    /// SOP1 14
    s_bcnt0_i32_b64,
    /// SOP1 15
    s_bcnt1_i32_b32,
    /// SOP1 16
    s_bcnt1_i32_b64,
    /// SOP1 17
    s_ff0_i32_b32,
    /// SOP1 18
    s_ff0_i32_b64,
    /// SOP1 19
    s_ff1_i32_b32,
    /// SOP1 20
    s_ff1_i32_b64,
    /// SOP1 21
    s_flbit_i32_b32,
    /// SOP1 22
    s_flbit_i32_b64,
    /// SOP1 23
    s_flbit_i32,
    /// SOP1 24
    s_flbit_i32_i64,
    /// SOP1 25
    s_sext_i32_i8,
    /// SOP1 26
    s_sext_i32_i16,
    /// SOP1 27
    s_bitset0_b32,
    /// SOP1 28
    s_bitset0_b64,
    /// SOP1 29
    s_bitset1_b32,
    /// SOP1 30
    s_bitset1_b64,
    /// SOP1 31
    s_getpc_b64,
    /// SOP1 32
    s_setpc_b64,
    /// SOP1 33
    s_swappc_b64,
    /// SOP1 34
    s_rfe_b64,
    /// SOP1 36
    s_and_saveexec_b64,
    /// SOP1 37
    s_or_saveexec_b64,
    /// SOP1 38
    s_xor_saveexec_b64,
    /// SOP1 39
    s_andn2_saveexec_b64,
    /// SOP1 40
    s_orn2_saveexec_b64,
    /// SOP1 41
    s_nand_saveexec_b64,
    /// SOP1 42
    s_nor_saveexec_b64,
    /// SOP1 43
    s_xnor_saveexec_b64,
    /// SOP1 44
    s_quadmask_b32,
    /// SOP1 45
    s_quadmask_b64,
    /// SOP1 46
    s_movrels_b32,
    /// SOP1 47
    s_movrels_b64,
    /// SOP1 48
    s_movreld_b32,
    /// SOP1 49
    s_movreld_b64,
    /// SOP1 52
    s_abs_i32,
    /// SOP1 55
    s_andn1_saveexec_b64,
    /// SOP1 56
    s_orn1_saveexec_b64,
    /// SOP1 57
    s_andn1_wrexec_b64,
    /// SOP1 58
    s_andn2_wrexec_b64,
    /// SOP1 59
    s_bitreplicate_b64_b32,
    /// SOP1 60
    s_and_saveexec_b32,
    /// SOP1 61
    s_or_saveexec_b32,
    /// SOP1 62
    s_xor_saveexec_b32,
    /// SOP1 63
    s_andn2_saveexec_b32,
    /// SOP1 64
    s_orn2_saveexec_b32,
    /// SOP1 65
    s_nand_saveexec_b32,
    /// SOP1 66
    s_nor_saveexec_b32,
    /// SOP1 67
    s_xnor_saveexec_b32,
    /// SOP1 68
    s_andn1_saveexec_b32,
    /// SOP1 69
    s_orn1_saveexec_b32,
    /// SOP1 70
    s_andn1_wrexec_b32,
    /// SOP1 71
    s_andn2_wrexec_b32,
    /// SOP1 73
    s_movrelsd_2_b32,
    /// SOPC 0
    s_cmp_eq_i32,
    /// SOPC 1
    s_cmp_lg_i32,
    /// SOPC 2
    s_cmp_gt_i32,
    /// SOPC 3
    s_cmp_ge_i32,
    /// SOPC 4
    s_cmp_lt_i32,
    /// SOPC 5
    s_cmp_le_i32,
    /// SOPC 6
    s_cmp_eq_u32,
    /// SOPC 7
    s_cmp_lg_u32,
    /// SOPC 8
    s_cmp_gt_u32,
    /// SOPC 9
    s_cmp_ge_u32,
    /// SOPC 10
    s_cmp_lt_u32,
    /// SOPC 11
    s_cmp_le_u32,
    /// SOPC 12
    s_bitcmp0_b32,
    /// SOPC 13
    s_bitcmp1_b32,
    /// SOPC 14
    s_bitcmp0_b64,
    /// SOPC 15
    s_bitcmp1_b64,
    /// SOPC 18
    s_cmp_eq_u64,
    /// SOPC 19
    s_cmp_lg_u64,
    /// SOPP 0
    s_nop,
    /// SOPP 1
    s_endpgm,
    /// SOPP 2
    s_branch,
    /// SOPP 3
    s_wakeup,
    /// SOPP 4
    s_cbranch_scc0,
    /// SOPP 5
    s_cbranch_scc1,
    /// SOPP 6
    s_cbranch_vccz,
    /// SOPP 7
    s_cbranch_vccnz,
    /// SOPP 8
    s_cbranch_execz,
    /// SOPP 9
    s_cbranch_execnz,
    /// SOPP 10
    s_barrier,
    /// SOPP 11
    s_setkill,
    /// SOPP 12
    s_waitcnt,
    /// SOPP 13
    s_sethalt,
    /// SOPP 14
    s_sleep,
    /// SOPP 15
    s_setprio,
    /// SOPP 16
    s_sendmsg,
    /// SOPP 17
    s_sendmsghalt,
    /// SOPP 18
    s_trap,
    /// SOPP 19
    s_icache_inv,
    /// SOPP 20
    s_incperflevel,
    /// SOPP 21
    s_decperflevel,
    /// SOPP 22
    s_ttracedata,
    /// SOPP 23
    s_cbranch_cdbgsys,
    /// SOPP 24
    s_cbranch_cdbguser,
    /// SOPP 25
    s_cbranch_cdbgsys_or_user,
    /// SOPP 26
    s_cbranch_cdbgsys_and_user,
    /// SOPP 27
    s_endpgm_saved,
    /// SOPP 30
    s_endpgm_ordered_ps_done,
    /// SOPP 31
    s_code_end,
    /// SOPP 32
    s_inst_prefetch,
    /// SOPP 33
    s_clause,
    /// SOPP 34
    s_wait_idle,
    /// SOPP 35
    s_waitcnt_depctr,
    /// SOPP 36
    s_round_mode,
    /// SOPP 37
    s_denorm_mode,
    /// SOPP 40
    s_ttracedata_imm,
    /// SMEM 0
    s_load_dword,
    /// SMEM 1
    s_load_dwordx2,
    /// SMEM 2
    s_load_dwordx4,
    /// SMEM 3
    s_load_dwordx8,
    /// SMEM 4
    s_load_dwordx16,
    /// SMEM 8
    s_buffer_load_dword,
    /// SMEM 9
    s_buffer_load_dwordx2,
    /// SMEM 10
    s_buffer_load_dwordx4,
    /// SMEM 11
    s_buffer_load_dwordx8,
    /// SMEM 12
    s_buffer_load_dwordx16,
    /// SMEM 31
    s_gl1_inv,
    /// SMEM 32
    s_dcache_inv,
    /// SMEM 36
    s_memtime,
    /// SMEM 37
    s_memrealtime,
    /// SMEM 38
    s_atc_probe,
    /// SMEM 39
    s_atc_probe_buffer,
    /// VOP1 0
    v_nop,
    /// VOP1 1
    v_mov_b32,
    /// VOP1 2
    v_readfirstlane_b32,
    /// VOP1 3
    v_cvt_i32_f64,
    /// VOP1 4
    v_cvt_f64_i32,
    /// VOP1 5
    v_cvt_f32_i32,
    /// VOP1 6
    v_cvt_f32_u32,
    /// VOP1 7
    v_cvt_u32_f32,
    /// VOP1 8
    v_cvt_i32_f32,
    /// VOP1 10
    v_cvt_f16_f32,
    /// VOP1 11
    v_cvt_f32_f16,
    /// VOP1 12
    v_cvt_rpi_i32_f32,
    /// VOP1 13
    v_cvt_flr_i32_f32,
    /// VOP1 14
    v_cvt_off_f32_i4,
    /// VOP1 15
    v_cvt_f32_f64,
    /// VOP1 16
    v_cvt_f64_f32,
    /// VOP1 17
    v_cvt_f32_ubyte0,
    /// VOP1 18
    v_cvt_f32_ubyte1,
    /// VOP1 19
    v_cvt_f32_ubyte2,
    /// VOP1 20
    v_cvt_f32_ubyte3,
    /// VOP1 21
    v_cvt_u32_f64,
    /// VOP1 22
    v_cvt_f64_u32,
    /// VOP1 23
    v_trunc_f64,
    /// VOP1 24
    v_ceil_f64,
    /// VOP1 25
    v_rndne_f64,
    /// VOP1 26
    v_floor_f64,
    /// VOP1 27
    v_pipeflush,
    /// VOP1 32
    v_fract_f32,
    /// VOP1 33
    v_trunc_f32,
    /// VOP1 34
    v_ceil_f32,
    /// VOP1 35
    v_rndne_f32,
    /// VOP1 36
    v_floor_f32,
    /// VOP1 37
    v_exp_f32,
    /// VOP1 39
    v_log_f32,
    /// VOP1 42
    v_rcp_f32,
    /// VOP1 43
    v_rcp_iflag_f32,
    /// VOP1 46
    v_rsq_f32,
    /// VOP1 47
    v_rcp_f64,
    /// VOP1 49
    v_rsq_f64,
    /// VOP1 51
    v_sqrt_f32,
    /// VOP1 52
    v_sqrt_f64,
    /// VOP1 53
    v_sin_f32,
    /// VOP1 54
    v_cos_f32,
    /// VOP1 55
    v_not_b32,
    /// VOP1 56
    v_bfrev_b32,
    /// VOP1 57
    v_ffbh_u32,
    /// VOP1 58
    v_ffbl_b32,
    /// VOP1 59
    v_ffbh_i32,
    /// VOP1 60
    v_frexp_exp_i32_f64,
    /// VOP1 61
    v_frexp_mant_f64,
    /// VOP1 62
    v_fract_f64,
    /// VOP1 63
    v_frexp_exp_i32_f32,
    /// VOP1 64
    v_frexp_mant_f32,
    /// VOP1 65
    v_clrexcp,
    /// VOP1 66
    v_movreld_b32,
    /// VOP1 67
    v_movrels_b32,
    /// VOP1 68
    v_movrelsd_b32,
    /// VOP1 72
    v_movrelsd_2_b32,
    /// VOP1 80
    v_cvt_f16_u16,
    /// VOP1 81
    v_cvt_f16_i16,
    /// VOP1 82
    v_cvt_u16_f16,
    /// VOP1 83
    v_cvt_i16_f16,
    /// VOP1 84
    v_rcp_f16,
    /// VOP1 85
    v_sqrt_f16,
    /// VOP1 86
    v_rsq_f16,
    /// VOP1 87
    v_log_f16,
    /// VOP1 88
    v_exp_f16,
    /// VOP1 89
    v_frexp_mant_f16,
    /// VOP1 90
    v_frexp_exp_i16_f16,
    /// VOP1 91
    v_floor_f16,
    /// VOP1 92
    v_ceil_f16,
    /// VOP1 93
    v_trunc_f16,
    /// VOP1 94
    v_rndne_f16,
    /// VOP1 95
    v_fract_f16,
    /// VOP1 96
    v_sin_f16,
    /// VOP1 97
    v_cos_f16,
    /// VOP1 98
    v_sat_pk_u8_i16,
    /// VOP1 99
    v_cvt_norm_i16_f16,
    /// VOP1 100
    v_cvt_norm_u16_f16,
    /// VOP1 101
    v_swap_b32,
    /// VOP1 104
    v_swaprel_b32,
    /// VOP2 1
    v_cndmask_b32,
    /// VOP2 2
    v_dot2c_f32_f16,
    /// VOP2 3
    v_add_f32,
    /// VOP2 4
    v_sub_f32,
    /// VOP2 5
    v_subrev_f32,
    /// VOP2 6
    v_fmac_legacy_f32,
    /// VOP2 7
    v_mul_legacy_f32,
    /// VOP2 8
    v_mul_f32,
    /// VOP2 9
    v_mul_i32_i24,
    /// VOP2 10
    v_mul_hi_i32_i24,
    /// VOP2 11
    v_mul_u32_u24,
    /// VOP2 12
    v_mul_hi_u32_u24,
    /// VOP2 13
    v_dot4c_i32_i8,
    /// VOP2 15
    v_min_f32,
    /// VOP2 16
    v_max_f32,
    /// VOP2 17
    v_min_i32,
    /// VOP2 18
    v_max_i32,
    /// VOP2 19
    v_min_u32,
    /// VOP2 20
    v_max_u32,
    /// VOP2 22
    v_lshrrev_b32,
    /// VOP2 24
    v_ashrrev_i32,
    /// VOP2 26
    v_lshlrev_b32,
    /// VOP2 27
    v_and_b32,
    /// VOP2 28
    v_or_b32,
    /// VOP2 29
    v_xor_b32,
    /// VOP2 30
    v_xnor_b32,
    /// VOP2 37
    v_add_nc_u32,
    /// VOP2 38
    v_sub_nc_u32,
    /// VOP2 39
    v_subrev_nc_u32,
    /// VOP2 40
    v_add_co_ci_u32,
    /// VOP2 41
    v_sub_co_ci_u32,
    /// VOP2 42
    v_subrev_co_ci_u32,
    /// VOP2 43
    v_fmac_f32,
    /// VOP2 44
    v_fmamk_f32,
    /// VOP2 45
    v_fmaak_f32,
    /// VOP2 47
    v_cvt_pkrtz_f16_f32,
    /// VOP2 50
    v_add_f16,
    /// VOP2 51
    v_sub_f16,
    /// VOP2 52
    v_subrev_f16,
    /// VOP2 53
    v_mul_f16,
    /// VOP2 54
    v_fmac_f16,
    /// VOP2 55
    v_fmamk_f16,
    /// VOP2 56
    v_fmaak_f16,
    /// VOP2 57
    v_max_f16,
    /// VOP2 58
    v_min_f16,
    /// VOP2 59
    v_ldexp_f16,
    /// VOP2 60
    v_pk_fmac_f16,
    /// VOPC 0
    v_cmp_f_f32,
    /// VOPC 1
    v_cmp_lt_f32,
    /// VOPC 2
    v_cmp_eq_f32,
    /// VOPC 3
    v_cmp_le_f32,
    /// VOPC 4
    v_cmp_gt_f32,
    /// VOPC 5
    v_cmp_lg_f32,
    /// VOPC 6
    v_cmp_ge_f32,
    /// VOPC 7
    v_cmp_o_f32,
    /// VOPC 8
    v_cmp_u_f32,
    /// VOPC 9
    v_cmp_nge_f32,
    /// VOPC 10
    v_cmp_nlg_f32,
    /// VOPC 11
    v_cmp_ngt_f32,
    /// VOPC 12
    v_cmp_nle_f32,
    /// VOPC 13
    v_cmp_neq_f32,
    /// VOPC 14
    v_cmp_nlt_f32,
    /// VOPC 15
    v_cmp_tru_f32,
    /// VOPC 16
    v_cmpx_f_f32,
    /// VOPC 17
    v_cmpx_lt_f32,
    /// VOPC 18
    v_cmpx_eq_f32,
    /// VOPC 19
    v_cmpx_le_f32,
    /// VOPC 20
    v_cmpx_gt_f32,
    /// VOPC 21
    v_cmpx_lg_f32,
    /// VOPC 22
    v_cmpx_ge_f32,
    /// VOPC 23
    v_cmpx_o_f32,
    /// VOPC 24
    v_cmpx_u_f32,
    /// VOPC 25
    v_cmpx_nge_f32,
    /// VOPC 26
    v_cmpx_nlg_f32,
    /// VOPC 27
    v_cmpx_ngt_f32,
    /// VOPC 28
    v_cmpx_nle_f32,
    /// VOPC 29
    v_cmpx_neq_f32,
    /// VOPC 30
    v_cmpx_nlt_f32,
    /// VOPC 31
    v_cmpx_tru_f32,
    /// VOPC 32
    v_cmp_f_f64,
    /// VOPC 33
    v_cmp_lt_f64,
    /// VOPC 34
    v_cmp_eq_f64,
    /// VOPC 35
    v_cmp_le_f64,
    /// VOPC 36
    v_cmp_gt_f64,
    /// VOPC 37
    v_cmp_lg_f64,
    /// VOPC 38
    v_cmp_ge_f64,
    /// VOPC 39
    v_cmp_o_f64,
    /// VOPC 40
    v_cmp_u_f64,
    /// VOPC 41
    v_cmp_nge_f64,
    /// VOPC 42
    v_cmp_nlg_f64,
    /// VOPC 43
    v_cmp_ngt_f64,
    /// VOPC 44
    v_cmp_nle_f64,
    /// VOPC 45
    v_cmp_neq_f64,
    /// VOPC 46
    v_cmp_nlt_f64,
    /// VOPC 47
    v_cmp_tru_f64,
    /// VOPC 48
    v_cmpx_f_f64,
    /// VOPC 49
    v_cmpx_lt_f64,
    /// VOPC 50
    v_cmpx_eq_f64,
    /// VOPC 51
    v_cmpx_le_f64,
    /// VOPC 52
    v_cmpx_gt_f64,
    /// VOPC 53
    v_cmpx_lg_f64,
    /// VOPC 54
    v_cmpx_ge_f64,
    /// VOPC 55
    v_cmpx_o_f64,
    /// VOPC 56
    v_cmpx_u_f64,
    /// VOPC 57
    v_cmpx_nge_f64,
    /// VOPC 58
    v_cmpx_nlg_f64,
    /// VOPC 59
    v_cmpx_ngt_f64,
    /// VOPC 60
    v_cmpx_nle_f64,
    /// VOPC 61
    v_cmpx_neq_f64,
    /// VOPC 62
    v_cmpx_nlt_f64,
    /// VOPC 63
    v_cmpx_tru_f64,
    /// VOPC 128
    v_cmp_f_i32,
    /// VOPC 129
    v_cmp_lt_i32,
    /// VOPC 130
    v_cmp_eq_i32,
    /// VOPC 131
    v_cmp_le_i32,
    /// VOPC 132
    v_cmp_gt_i32,
    /// VOPC 133
    v_cmp_ne_i32,
    /// VOPC 134
    v_cmp_ge_i32,
    /// VOPC 135
    v_cmp_t_i32,
    /// VOPC 136
    v_cmp_class_f32,
    /// VOPC 137
    v_cmp_lt_i16,
    /// VOPC 138
    v_cmp_eq_i16,
    /// VOPC 139
    v_cmp_le_i16,
    /// VOPC 140
    v_cmp_gt_i16,
    /// VOPC 141
    v_cmp_ne_i16,
    /// VOPC 142
    v_cmp_ge_i16,
    /// VOPC 143
    v_cmp_class_f16,
    /// VOPC 144
    v_cmpx_f_i32,
    /// VOPC 145
    v_cmpx_lt_i32,
    /// VOPC 146
    v_cmpx_eq_i32,
    /// VOPC 147
    v_cmpx_le_i32,
    /// VOPC 148
    v_cmpx_gt_i32,
    /// VOPC 149
    v_cmpx_ne_i32,
    /// VOPC 150
    v_cmpx_ge_i32,
    /// VOPC 151
    v_cmpx_t_i32,
    /// VOPC 152
    v_cmpx_class_f32,
    /// VOPC 153
    v_cmpx_lt_i16,
    /// VOPC 154
    v_cmpx_eq_i16,
    /// VOPC 155
    v_cmpx_le_i16,
    /// VOPC 156
    v_cmpx_gt_i16,
    /// VOPC 157
    v_cmpx_ne_i16,
    /// VOPC 158
    v_cmpx_ge_i16,
    /// VOPC 159
    v_cmpx_class_f16,
    /// VOPC 160
    v_cmp_f_i64,
    /// VOPC 161
    v_cmp_lt_i64,
    /// VOPC 162
    v_cmp_eq_i64,
    /// VOPC 163
    v_cmp_le_i64,
    /// VOPC 164
    v_cmp_gt_i64,
    /// VOPC 165
    v_cmp_ne_i64,
    /// VOPC 166
    v_cmp_ge_i64,
    /// VOPC 167
    v_cmp_t_i64,
    /// VOPC 168
    v_cmp_class_f64,
    /// VOPC 169
    v_cmp_lt_u16,
    /// VOPC 170
    v_cmp_eq_u16,
    /// VOPC 171
    v_cmp_le_u16,
    /// VOPC 172
    v_cmp_gt_u16,
    /// VOPC 173
    v_cmp_ne_u16,
    /// VOPC 174
    v_cmp_ge_u16,
    /// VOPC 176
    v_cmpx_f_i64,
    /// VOPC 177
    v_cmpx_lt_i64,
    /// VOPC 178
    v_cmpx_eq_i64,
    /// VOPC 179
    v_cmpx_le_i64,
    /// VOPC 180
    v_cmpx_gt_i64,
    /// VOPC 181
    v_cmpx_ne_i64,
    /// VOPC 182
    v_cmpx_ge_i64,
    /// VOPC 183
    v_cmpx_t_i64,
    /// VOPC 184
    v_cmpx_class_f64,
    /// VOPC 185
    v_cmpx_lt_u16,
    /// VOPC 186
    v_cmpx_eq_u16,
    /// VOPC 187
    v_cmpx_le_u16,
    /// VOPC 188
    v_cmpx_gt_u16,
    /// VOPC 189
    v_cmpx_ne_u16,
    /// VOPC 190
    v_cmpx_ge_u16,
    /// VOPC 192
    v_cmp_f_u32,
    /// VOPC 193
    v_cmp_lt_u32,
    /// VOPC 194
    v_cmp_eq_u32,
    /// VOPC 195
    v_cmp_le_u32,
    /// VOPC 196
    v_cmp_gt_u32,
    /// VOPC 197
    v_cmp_ne_u32,
    /// VOPC 198
    v_cmp_ge_u32,
    /// VOPC 199
    v_cmp_t_u32,
    /// VOPC 200
    v_cmp_f_f16,
    /// VOPC 201
    v_cmp_lt_f16,
    /// VOPC 202
    v_cmp_eq_f16,
    /// VOPC 203
    v_cmp_le_f16,
    /// VOPC 204
    v_cmp_gt_f16,
    /// VOPC 205
    v_cmp_lg_f16,
    /// VOPC 206
    v_cmp_ge_f16,
    /// VOPC 207
    v_cmp_o_f16,
    /// VOPC 208
    v_cmpx_f_u32,
    /// VOPC 209
    v_cmpx_lt_u32,
    /// VOPC 210
    v_cmpx_eq_u32,
    /// VOPC 211
    v_cmpx_le_u32,
    /// VOPC 212
    v_cmpx_gt_u32,
    /// VOPC 213
    v_cmpx_ne_u32,
    /// VOPC 214
    v_cmpx_ge_u32,
    /// VOPC 215
    v_cmpx_t_u32,
    /// VOPC 216
    v_cmpx_f_f16,
    /// VOPC 217
    v_cmpx_lt_f16,
    /// VOPC 218
    v_cmpx_eq_f16,
    /// VOPC 219
    v_cmpx_le_f16,
    /// VOPC 220
    v_cmpx_gt_f16,
    /// VOPC 221
    v_cmpx_lg_f16,
    /// VOPC 222
    v_cmpx_ge_f16,
    /// VOPC 223
    v_cmpx_o_f16,
    /// VOPC 224
    v_cmp_f_u64,
    /// VOPC 225
    v_cmp_lt_u64,
    /// VOPC 226
    v_cmp_eq_u64,
    /// VOPC 227
    v_cmp_le_u64,
    /// VOPC 228
    v_cmp_gt_u64,
    /// VOPC 229
    v_cmp_ne_u64,
    /// VOPC 230
    v_cmp_ge_u64,
    /// VOPC 231
    v_cmp_t_u64,
    /// VOPC 232
    v_cmp_u_f16,
    /// VOPC 233
    v_cmp_nge_f16,
    /// VOPC 234
    v_cmp_nlg_f16,
    /// VOPC 235
    v_cmp_ngt_f16,
    /// VOPC 236
    v_cmp_nle_f16,
    /// VOPC 237
    v_cmp_neq_f16,
    /// VOPC 238
    v_cmp_nlt_f16,
    /// VOPC 239
    v_cmp_tru_f16,
    /// VOPC 240
    v_cmpx_f_u64,
    /// VOPC 241
    v_cmpx_lt_u64,
    /// VOPC 242
    v_cmpx_eq_u64,
    /// VOPC 243
    v_cmpx_le_u64,
    /// VOPC 244
    v_cmpx_gt_u64,
    /// VOPC 245
    v_cmpx_ne_u64,
    /// VOPC 246
    v_cmpx_ge_u64,
    /// VOPC 247
    v_cmpx_t_u64,
    /// VOPC 248
    v_cmpx_u_f16,
    /// VOPC 249
    v_cmpx_nge_f16,
    /// VOPC 250
    v_cmpx_nlg_f16,
    /// VOPC 251
    v_cmpx_ngt_f16,
    /// VOPC 252
    v_cmpx_nle_f16,
    /// VOPC 253
    v_cmpx_neq_f16,
    /// VOPC 254
    v_cmpx_nlt_f16,
    /// VOPC 255
    v_cmpx_tru_f16,
    /// VOP3 320
    v_fma_legacy_f32,
    /// VOP3 322
    v_mad_i32_i24,
    /// VOP3 323
    v_mad_u32_u24,
    /// VOP3 324
    v_cubeid_f32,
    /// VOP3 325
    v_cubesc_f32,
    /// VOP3 326
    v_cubetc_f32,
    /// VOP3 327
    v_cubema_f32,
    /// VOP3 328
    v_bfe_u32,
    /// VOP3 329
    v_bfe_i32,
    /// VOP3 330
    v_bfi_b32,
    /// VOP3 331
    v_fma_f32,
    /// VOP3 332
    v_fma_f64,
    /// VOP3 333
    v_lerp_u8,
    /// VOP3 334
    v_alignbit_b32,
    /// VOP3 335
    v_alignbyte_b32,
    /// VOP3 336
    v_mullit_f32,
    /// VOP3 337
    v_min3_f32,
    /// VOP3 338
    v_min3_i32,
    /// VOP3 339
    v_min3_u32,
    /// VOP3 340
    v_max3_f32,
    /// VOP3 341
    v_max3_i32,
    /// VOP3 342
    v_max3_u32,
    /// VOP3 343
    v_med3_f32,
    /// VOP3 344
    v_med3_i32,
    /// VOP3 345
    v_med3_u32,
    /// VOP3 346
    v_sad_u8,
    /// VOP3 347
    v_sad_hi_u8,
    /// VOP3 348
    v_sad_u16,
    /// VOP3 349
    v_sad_u32,
    /// VOP3 350
    v_cvt_pk_u8_f32,
    /// VOP3 351
    v_div_fixup_f32,
    /// VOP3 352
    v_div_fixup_f64,
    /// VOP3 356
    v_add_f64,
    /// VOP3 357
    v_mul_f64,
    /// VOP3 358
    v_min_f64,
    /// VOP3 359
    v_max_f64,
    /// VOP3 360
    v_ldexp_f64,
    /// VOP3 361
    v_mul_lo_u32,
    /// VOP3 362
    v_mul_hi_u32,
    /// VOP3 364
    v_mul_hi_i32,
    /// VOP3 365
    v_div_scale_f32,
    /// VOP3 366
    v_div_scale_f64,
    /// VOP3 367
    v_div_fmas_f32,
    /// VOP3 368
    v_div_fmas_f64,
    /// VOP3 369
    v_msad_u8,
    /// VOP3 370
    v_qsad_pk_u16_u8,
    /// VOP3 371
    v_mqsad_pk_u16_u8,
    /// VOP3 372
    v_trig_preop_f64,
    /// VOP3 373
    v_mqsad_u32_u8,
    /// VOP3 374
    v_mad_u64_u32,
    /// VOP3 375
    v_mad_i64_i32,
    /// VOP3 376
    v_xor3_b32,
    /// VOP3 512
    v_interp_p1_f32_vop3,
    /// VOP3 513
    v_interp_p2_f32_vop3,
    /// VOP3 514
    v_interp_mov_f32_vop3,
    /// VOP3 767
    v_lshlrev_b64,
    /// VOP3 768
    v_lshrrev_b64,
    /// VOP3 769
    v_ashrrev_i64,
    /// VOP3 771
    v_add_nc_u16,
    /// VOP3 772
    v_sub_nc_u16,
    /// VOP3 773
    v_mul_lo_u16,
    /// VOP3 775
    v_lshrrev_b16,
    /// VOP3 776
    v_ashrrev_i16,
    /// VOP3 777
    v_max_u16,
    /// VOP3 778
    v_max_i16,
    /// VOP3 779
    v_min_u16,
    /// VOP3 780
    v_min_i16,
    /// VOP3 781
    v_add_nc_i16,
    /// VOP3 782
    v_sub_nc_i16,
    /// VOP3 783
    v_add_co_u32,
    /// VOP3 784
    v_sub_co_u32,
    /// VOP3 785
    v_pack_b32_f16,
    /// VOP3 786
    v_cvt_pknorm_i16_f16,
    /// VOP3 787
    v_cvt_pknorm_u16_f16,
    /// VOP3 788
    v_lshlrev_b16,
    /// VOP3 793
    v_subrev_co_u32,
    /// VOP3 832
    v_mad_u16,
    /// VOP3 834
    v_interp_p1ll_f16,
    /// VOP3 835
    v_interp_p1lv_f16,
    /// VOP3 836
    v_perm_b32,
    /// VOP3 837
    v_xad_u32,
    /// VOP3 838
    v_lshl_add_u32,
    /// VOP3 839
    v_add_lshl_u32,
    /// VOP3 843
    v_fma_f16,
    /// VOP3 849
    v_min3_f16,
    /// VOP3 850
    v_min3_i16,
    /// VOP3 851
    v_min3_u16,
    /// VOP3 852
    v_max3_f16,
    /// VOP3 853
    v_max3_i16,
    /// VOP3 854
    v_max3_u16,
    /// VOP3 855
    v_med3_f16,
    /// VOP3 856
    v_med3_i16,
    /// VOP3 857
    v_med3_u16,
    /// VOP3 858
    v_interp_p2_f16,
    /// VOP3 862
    v_mad_i16,
    /// VOP3 863
    v_div_fixup_f16,
    /// VOP3 864
    v_readlane_b32,
    /// VOP3 865
    v_writelane_b32,
    /// VOP3 866
    v_ldexp_f32,
    /// VOP3 867
    v_bfm_b32,
    /// VOP3 868
    v_bcnt_u32_b32,
    /// VOP3 869
    v_mbcnt_lo_u32_b32,
    /// VOP3 870
    v_mbcnt_hi_u32_b32,
    /// VOP3 872
    v_cvt_pknorm_i16_f32,
    /// VOP3 873
    v_cvt_pknorm_u16_f32,
    /// VOP3 874
    v_cvt_pk_u16_u32,
    /// VOP3 875
    v_cvt_pk_i16_i32,
    /// VOP3 877
    v_add3_u32,
    /// VOP3 879
    v_lshl_or_b32,
    /// VOP3 881
    v_and_or_b32,
    /// VOP3 882
    v_or3_b32,
    /// VOP3 883
    v_mad_u32_u16,
    /// VOP3 885
    v_mad_i32_i16,
    /// VOP3 886
    v_sub_nc_i32,
    /// VOP3 887
    v_permlane16_b32,
    /// VOP3 888
    v_permlanex16_b32,
    /// VOP3 895
    v_add_nc_i32,
    /// VOP3P 0
    v_pk_mad_i16,
    /// VOP3P 1
    v_pk_mul_lo_u16,
    /// VOP3P 2
    v_pk_add_i16,
    /// VOP3P 3
    v_pk_sub_i16,
    /// VOP3P 4
    v_pk_lshlrev_b16,
    /// VOP3P 5
    v_pk_lshrrev_b16,
    /// VOP3P 6
    v_pk_ashrrev_i16,
    /// VOP3P 7
    v_pk_max_i16,
    /// VOP3P 8
    v_pk_min_i16,
    /// VOP3P 9
    v_pk_mad_u16,
    /// VOP3P 10
    v_pk_add_u16,
    /// VOP3P 11
    v_pk_sub_u16,
    /// VOP3P 12
    v_pk_max_u16,
    /// VOP3P 13
    v_pk_min_u16,
    /// VOP3P 14
    v_pk_fma_f16,
    /// VOP3P 15
    v_pk_add_f16,
    /// VOP3P 16
    v_pk_mul_f16,
    /// VOP3P 17
    v_pk_min_f16,
    /// VOP3P 18
    v_pk_max_f16,
    /// VOP3P 19
    v_dot2_f32_f16,
    /// VOP3P 20
    v_dot2_i32_i16,
    /// VOP3P 21
    v_dot2_u32_u16,
    /// VOP3P 22
    v_dot4_i32_i8,
    /// VOP3P 23
    v_dot4_u32_u8,
    /// VOP3P 24
    v_dot8_i32_i4,
    /// VOP3P 25
    v_dot8_u32_u4,
    /// VOP3P 32
    v_fma_mix_f32,
    /// VOP3P 33
    v_fma_mixlo_f16,
    /// VOP3P 34
    v_fma_mixhi_f16,
    /// VINTRP 0
    v_interp_p1_f32_vintrp,
    /// VINTRP 1
    v_interp_p2_f32_vintrp,
    /// VINTRP 2
    v_interp_mov_f32_vintrp,
    /// DS 0
    ds_add_u32,
    /// DS 1
    ds_sub_u32,
    /// DS 2
    ds_rsub_u32,
    /// DS 3
    ds_inc_u32,
    /// DS 4
    ds_dec_u32,
    /// DS 5
    ds_min_i32,
    /// DS 6
    ds_max_i32,
    /// DS 7
    ds_min_u32,
    /// DS 8
    ds_max_u32,
    /// DS 9
    ds_and_b32,
    /// DS 10
    ds_or_b32,
    /// DS 11
    ds_xor_b32,
    /// DS 12
    ds_mskor_b32,
    /// DS 13
    ds_write_b32,
    /// DS 14
    ds_write2_b32,
    /// DS 15
    ds_write2st64_b32,
    /// DS 16
    ds_cmpst_b32,
    /// DS 17
    ds_cmpst_f32,
    /// DS 18
    ds_min_f32,
    /// DS 19
    ds_max_f32,
    /// DS 20
    ds_nop,
    /// DS 21
    ds_add_f32,
    /// DS 24
    ds_gws_sema_release_all,
    /// DS 25
    ds_gws_init,
    /// DS 26
    ds_gws_sema_v,
    /// DS 27
    ds_gws_sema_br,
    /// DS 28
    ds_gws_sema_p,
    /// DS 29
    ds_gws_barrier,
    /// DS 30
    ds_write_b8,
    /// DS 31
    ds_write_b16,
    /// DS 32
    ds_add_rtn_u32,
    /// DS 33
    ds_sub_rtn_u32,
    /// DS 34
    ds_rsub_rtn_u32,
    /// DS 35
    ds_inc_rtn_u32,
    /// DS 36
    ds_dec_rtn_u32,
    /// DS 37
    ds_min_rtn_i32,
    /// DS 38
    ds_max_rtn_i32,
    /// DS 39
    ds_min_rtn_u32,
    /// DS 40
    ds_max_rtn_u32,
    /// DS 41
    ds_and_rtn_b32,
    /// DS 42
    ds_or_rtn_b32,
    /// DS 43
    ds_xor_rtn_b32,
    /// DS 44
    ds_mskor_rtn_b32,
    /// DS 45
    ds_wrxchg_rtn_b32,
    /// DS 46
    ds_wrxchg2_rtn_b32,
    /// DS 47
    ds_wrxchg2st64_rtn_b32,
    /// DS 48
    ds_cmpst_rtn_b32,
    /// DS 49
    ds_cmpst_rtn_f32,
    /// DS 50
    ds_min_rtn_f32,
    /// DS 51
    ds_max_rtn_f32,
    /// DS 52
    ds_wrap_rtn_b32,
    /// DS 53
    ds_swizzle_b32,
    /// DS 54
    ds_read_b32,
    /// DS 55
    ds_read2_b32,
    /// DS 56
    ds_read2st64_b32,
    /// DS 57
    ds_read_i8,
    /// DS 58
    ds_read_u8,
    /// DS 59
    ds_read_i16,
    /// DS 60
    ds_read_u16,
    /// DS 61
    ds_consume,
    /// DS 62
    ds_append,
    /// DS 63
    ds_ordered_count,
    /// DS 64
    ds_add_u64,
    /// DS 65
    ds_sub_u64,
    /// DS 66
    ds_rsub_u64,
    /// DS 67
    ds_inc_u64,
    /// DS 68
    ds_dec_u64,
    /// DS 69
    ds_min_i64,
    /// DS 70
    ds_max_i64,
    /// DS 71
    ds_min_u64,
    /// DS 72
    ds_max_u64,
    /// DS 73
    ds_and_b64,
    /// DS 74
    ds_or_b64,
    /// DS 75
    ds_xor_b64,
    /// DS 76
    ds_mskor_b64,
    /// DS 77
    ds_write_b64,
    /// DS 78
    ds_write2_b64,
    /// DS 79
    ds_write2st64_b64,
    /// DS 80
    ds_cmpst_b64,
    /// DS 81
    ds_cmpst_f64,
    /// DS 82
    ds_min_f64,
    /// DS 83
    ds_max_f64,
    /// DS 85
    ds_add_rtn_f32,
    /// DS 96
    ds_add_rtn_u64,
    /// DS 97
    ds_sub_rtn_u64,
    /// DS 98
    ds_rsub_rtn_u64,
    /// DS 99
    ds_inc_rtn_u64,
    /// DS 100
    ds_dec_rtn_u64,
    /// DS 101
    ds_min_rtn_i64,
    /// DS 102
    ds_max_rtn_i64,
    /// DS 103
    ds_min_rtn_u64,
    /// DS 104
    ds_max_rtn_u64,
    /// DS 105
    ds_and_rtn_b64,
    /// DS 106
    ds_or_rtn_b64,
    /// DS 107
    ds_xor_rtn_b64,
    /// DS 108
    ds_mskor_rtn_b64,
    /// DS 109
    ds_wrxchg_rtn_b64,
    /// DS 110
    ds_wrxchg2_rtn_b64,
    /// DS 111
    ds_wrxchg2st64_rtn_b64,
    /// DS 112
    ds_cmpst_rtn_b64,
    /// DS 113
    ds_cmpst_rtn_f64,
    /// DS 114
    ds_min_rtn_f64,
    /// DS 115
    ds_max_rtn_f64,
    /// DS 118
    ds_read_b64,
    /// DS 119
    ds_read2_b64,
    /// DS 120
    ds_read2st64_b64,
    /// DS 126
    ds_condxchg32_rtn_b64,
    /// DS 160
    ds_write_b8_d16_hi,
    /// DS 161
    ds_write_b16_d16_hi,
    /// DS 162
    ds_read_u8_d16,
    /// DS 163
    ds_read_u8_d16_hi,
    /// DS 164
    ds_read_i8_d16,
    /// DS 165
    ds_read_i8_d16_hi,
    /// DS 166
    ds_read_u16_d16,
    /// DS 167
    ds_read_u16_d16_hi,
    /// DS 176
    ds_write_addtid_b32,
    /// DS 177
    ds_read_addtid_b32,
    /// DS 178
    ds_permute_b32,
    /// DS 179
    ds_bpermute_b32,
    /// DS 222
    ds_write_b96,
    /// DS 223
    ds_write_b128,
    /// DS 254
    ds_read_b96,
    /// DS 255
    ds_read_b128,
    /// EXP 0
    exp,
    /// MUBUF 0
    buffer_load_format_x,
    /// MUBUF 1
    buffer_load_format_xy,
    /// MUBUF 2
    buffer_load_format_xyz,
    /// MUBUF 3
    buffer_load_format_xyzw,
    /// MUBUF 4
    buffer_store_format_x,
    /// MUBUF 5
    buffer_store_format_xy,
    /// MUBUF 6
    buffer_store_format_xyz,
    /// MUBUF 7
    buffer_store_format_xyzw,
    /// MUBUF 8
    buffer_load_ubyte,
    /// MUBUF 9
    buffer_load_sbyte,
    /// MUBUF 10
    buffer_load_ushort,
    /// MUBUF 11
    buffer_load_sshort,
    /// MUBUF 12
    buffer_load_dword,
    /// MUBUF 13
    buffer_load_dwordx2,
    /// MUBUF 14
    buffer_load_dwordx4,
    /// MUBUF 15
    buffer_load_dwordx3,
    /// MUBUF 24
    buffer_store_byte,
    /// MUBUF 25
    buffer_store_byte_d16_hi,
    /// MUBUF 26
    buffer_store_short,
    /// MUBUF 27
    buffer_store_short_d16_hi,
    /// MUBUF 28
    buffer_store_dword,
    /// MUBUF 29
    buffer_store_dwordx2,
    /// MUBUF 30
    buffer_store_dwordx4,
    /// MUBUF 31
    buffer_store_dwordx3,
    /// MUBUF 32
    buffer_load_ubyte_d16,
    /// MUBUF 33
    buffer_load_ubyte_d16_hi,
    /// MUBUF 34
    buffer_load_sbyte_d16,
    /// MUBUF 35
    buffer_load_sbyte_d16_hi,
    /// MUBUF 36
    buffer_load_short_d16,
    /// MUBUF 37
    buffer_load_short_d16_hi,
    /// MUBUF 38
    buffer_load_format_d16_hi_x,
    /// MUBUF 39
    buffer_store_format_d16_hi_x,
    /// MUBUF 48
    buffer_atomic_swap,
    /// MUBUF 49
    buffer_atomic_cmpswap,
    /// MUBUF 50
    buffer_atomic_add,
    /// MUBUF 51
    buffer_atomic_sub,
    /// MUBUF 52
    buffer_atomic_csub,
    /// MUBUF 53
    buffer_atomic_smin,
    /// MUBUF 54
    buffer_atomic_umin,
    /// MUBUF 55
    buffer_atomic_smax,
    /// MUBUF 56
    buffer_atomic_umax,
    /// MUBUF 57
    buffer_atomic_and,
    /// MUBUF 58
    buffer_atomic_or,
    /// MUBUF 59
    buffer_atomic_xor,
    /// MUBUF 60
    buffer_atomic_inc,
    /// MUBUF 61
    buffer_atomic_dec,
    /// MUBUF 62
    buffer_atomic_fcmpswap,
    /// MUBUF 63
    buffer_atomic_fmin,
    /// MUBUF 64
    buffer_atomic_fmax,
    /// MUBUF 80
    buffer_atomic_swap_x2,
    /// MUBUF 81
    buffer_atomic_cmpswap_x2,
    /// MUBUF 82
    buffer_atomic_add_x2,
    /// MUBUF 83
    buffer_atomic_sub_x2,
    /// MUBUF 85
    buffer_atomic_smin_x2,
    /// MUBUF 86
    buffer_atomic_umin_x2,
    /// MUBUF 87
    buffer_atomic_smax_x2,
    /// MUBUF 88
    buffer_atomic_umax_x2,
    /// MUBUF 89
    buffer_atomic_and_x2,
    /// MUBUF 90
    buffer_atomic_or_x2,
    /// MUBUF 91
    buffer_atomic_xor_x2,
    /// MUBUF 92
    buffer_atomic_inc_x2,
    /// MUBUF 93
    buffer_atomic_dec_x2,
    /// MUBUF 94
    buffer_atomic_fcmpswap_x2,
    /// MUBUF 95
    buffer_atomic_fmin_x2,
    /// MUBUF 96
    buffer_atomic_fmax_x2,
    /// MUBUF 113
    buffer_gl0_inv,
    /// MUBUF 114
    buffer_gl1_inv,
    /// MUBUF 128
    buffer_load_format_d16_x,
    /// MUBUF 129
    buffer_load_format_d16_xy,
    /// MUBUF 130
    buffer_load_format_d16_xyz,
    /// MUBUF 131
    buffer_load_format_d16_xyzw,
    /// MUBUF 132
    buffer_store_format_d16_x,
    /// MUBUF 133
    buffer_store_format_d16_xy,
    /// MUBUF 134
    buffer_store_format_d16_xyz,
    /// MUBUF 135
    buffer_store_format_d16_xyzw,
    /// MTBUF 0
    tbuffer_load_format_x,
    /// MTBUF 1
    tbuffer_load_format_xy,
    /// MTBUF 2
    tbuffer_load_format_xyz,
    /// MTBUF 3
    tbuffer_load_format_xyzw,
    /// MTBUF 4
    tbuffer_store_format_x,
    /// MTBUF 5
    tbuffer_store_format_xy,
    /// MTBUF 6
    tbuffer_store_format_xyz,
    /// MTBUF 7
    tbuffer_store_format_xyzw,
    /// MTBUF 8
    tbuffer_load_format_d16_x,
    /// MTBUF 9
    tbuffer_load_format_d16_xy,
    /// MTBUF 10
    tbuffer_load_format_d16_xyz,
    /// MTBUF 11
    tbuffer_load_format_d16_xyzw,
    /// MTBUF 12
    tbuffer_store_format_d16_x,
    /// MTBUF 13
    tbuffer_store_format_d16_xy,
    /// MTBUF 14
    tbuffer_store_format_d16_xyz,
    /// MTBUF 15
    tbuffer_store_format_d16_xyzw,
    /// FLAT 8
    flat_load_ubyte,
    /// FLAT 9
    flat_load_sbyte,
    /// FLAT 10
    flat_load_ushort,
    /// FLAT 11
    flat_load_sshort,
    /// FLAT 12
    flat_load_dword,
    /// FLAT 13
    flat_load_dwordx2,
    /// FLAT 14
    flat_load_dwordx4,
    /// FLAT 15
    flat_load_dwordx3,
    /// FLAT 24
    flat_store_byte,
    /// FLAT 25
    flat_store_byte_d16_hi,
    /// FLAT 26
    flat_store_short,
    /// FLAT 27
    flat_store_short_d16_hi,
    /// FLAT 28
    flat_store_dword,
    /// FLAT 29
    flat_store_dwordx2,
    /// FLAT 30
    flat_store_dwordx4,
    /// FLAT 31
    flat_store_dwordx3,
    /// FLAT 32
    flat_load_ubyte_d16,
    /// FLAT 33
    flat_load_ubyte_d16_hi,
    /// FLAT 34
    flat_load_sbyte_d16,
    /// FLAT 35
    flat_load_sbyte_d16_hi,
    /// FLAT 36
    flat_load_short_d16,
    /// FLAT 37
    flat_load_short_d16_hi,
    /// FLAT 48
    flat_atomic_swap,
    /// FLAT 49
    flat_atomic_cmpswap,
    /// FLAT 50
    flat_atomic_add,
    /// FLAT 51
    flat_atomic_sub,
    /// FLAT 53
    flat_atomic_smin,
    /// FLAT 54
    flat_atomic_umin,
    /// FLAT 55
    flat_atomic_smax,
    /// FLAT 56
    flat_atomic_umax,
    /// FLAT 57
    flat_atomic_and,
    /// FLAT 58
    flat_atomic_or,
    /// FLAT 59
    flat_atomic_xor,
    /// FLAT 60
    flat_atomic_inc,
    /// FLAT 61
    flat_atomic_dec,
    /// FLAT 62
    flat_atomic_fcmpswap,
    /// FLAT 63
    flat_atomic_fmin,
    /// FLAT 64
    flat_atomic_fmax,
    /// FLAT 80
    flat_atomic_swap_x2,
    /// FLAT 81
    flat_atomic_cmpswap_x2,
    /// FLAT 82
    flat_atomic_add_x2,
    /// FLAT 83
    flat_atomic_sub_x2,
    /// FLAT 85
    flat_atomic_smin_x2,
    /// FLAT 86
    flat_atomic_umin_x2,
    /// FLAT 87
    flat_atomic_smax_x2,
    /// FLAT 88
    flat_atomic_umax_x2,
    /// FLAT 89
    flat_atomic_and_x2,
    /// FLAT 90
    flat_atomic_or_x2,
    /// FLAT 91
    flat_atomic_xor_x2,
    /// FLAT 92
    flat_atomic_inc_x2,
    /// FLAT 93
    flat_atomic_dec_x2,
    /// FLAT 94
    flat_atomic_fcmpswap_x2,
    /// FLAT 95
    flat_atomic_fmin_x2,
    /// FLAT 96
    flat_atomic_fmax_x2,
    /// GLOBAL 8
    global_load_ubyte,
    /// GLOBAL 9
    global_load_sbyte,
    /// GLOBAL 10
    global_load_ushort,
    /// GLOBAL 11
    global_load_sshort,
    /// GLOBAL 12
    global_load_dword,
    /// GLOBAL 13
    global_load_dwordx2,
    /// GLOBAL 14
    global_load_dwordx4,
    /// GLOBAL 15
    global_load_dwordx3,
    /// GLOBAL 22
    global_load_dword_addtid,
    /// GLOBAL 23
    global_store_dword_addtid,
    /// GLOBAL 24
    global_store_byte,
    /// GLOBAL 25
    global_store_byte_d16_hi,
    /// GLOBAL 26
    global_store_short,
    /// GLOBAL 27
    global_store_short_d16_hi,
    /// GLOBAL 28
    global_store_dword,
    /// GLOBAL 29
    global_store_dwordx2,
    /// GLOBAL 30
    global_store_dwordx4,
    /// GLOBAL 31
    global_store_dwordx3,
    /// GLOBAL 32
    global_load_ubyte_d16,
    /// GLOBAL 33
    global_load_ubyte_d16_hi,
    /// GLOBAL 34
    global_load_sbyte_d16,
    /// GLOBAL 35
    global_load_sbyte_d16_hi,
    /// GLOBAL 36
    global_load_short_d16,
    /// GLOBAL 37
    global_load_short_d16_hi,
    /// GLOBAL 48
    global_atomic_swap,
    /// GLOBAL 49
    global_atomic_cmpswap,
    /// GLOBAL 50
    global_atomic_add,
    /// GLOBAL 51
    global_atomic_sub,
    /// GLOBAL 52
    global_atomic_csub,
    /// GLOBAL 53
    global_atomic_smin,
    /// GLOBAL 54
    global_atomic_umin,
    /// GLOBAL 55
    global_atomic_smax,
    /// GLOBAL 56
    global_atomic_umax,
    /// GLOBAL 57
    global_atomic_and,
    /// GLOBAL 58
    global_atomic_or,
    /// GLOBAL 59
    global_atomic_xor,
    /// GLOBAL 60
    global_atomic_inc,
    /// GLOBAL 61
    global_atomic_dec,
    /// GLOBAL 62
    global_atomic_fcmpswap,
    /// GLOBAL 63
    global_atomic_fmin,
    /// GLOBAL 64
    global_atomic_fmax,
    /// GLOBAL 80
    global_atomic_swap_x2,
    /// GLOBAL 81
    global_atomic_cmpswap_x2,
    /// GLOBAL 82
    global_atomic_add_x2,
    /// GLOBAL 83
    global_atomic_sub_x2,
    /// GLOBAL 85
    global_atomic_smin_x2,
    /// GLOBAL 86
    global_atomic_umin_x2,
    /// GLOBAL 87
    global_atomic_smax_x2,
    /// GLOBAL 88
    global_atomic_umax_x2,
    /// GLOBAL 89
    global_atomic_and_x2,
    /// GLOBAL 90
    global_atomic_or_x2,
    /// GLOBAL 91
    global_atomic_xor_x2,
    /// GLOBAL 92
    global_atomic_inc_x2,
    /// GLOBAL 93
    global_atomic_dec_x2,
    /// GLOBAL 94
    global_atomic_fcmpswap_x2,
    /// GLOBAL 95
    global_atomic_fmin_x2,
    /// GLOBAL 96
    global_atomic_fmax_x2,
    /// SCRATCH 8
    scratch_load_ubyte,
    /// SCRATCH 9
    scratch_load_sbyte,
    /// SCRATCH 10
    scratch_load_ushort,
    /// SCRATCH 11
    scratch_load_sshort,
    /// SCRATCH 12
    scratch_load_dword,
    /// SCRATCH 13
    scratch_load_dwordx2,
    /// SCRATCH 14
    scratch_load_dwordx4,
    /// SCRATCH 15
    scratch_load_dwordx3,
    /// SCRATCH 24
    scratch_store_byte,
    /// SCRATCH 25
    scratch_store_byte_d16_hi,
    /// SCRATCH 26
    scratch_store_short,
    /// SCRATCH 27
    scratch_store_short_d16_hi,
    /// SCRATCH 28
    scratch_store_dword,
    /// SCRATCH 29
    scratch_store_dwordx2,
    /// SCRATCH 30
    scratch_store_dwordx4,
    /// SCRATCH 31
    scratch_store_dwordx3,
    /// SCRATCH 32
    scratch_load_ubyte_d16,
    /// SCRATCH 33
    scratch_load_ubyte_d16_hi,
    /// SCRATCH 34
    scratch_load_sbyte_d16,
    /// SCRATCH 35
    scratch_load_sbyte_d16_hi,
    /// SCRATCH 36
    scratch_load_short_d16,
    /// SCRATCH 37
    scratch_load_short_d16_hi,
    /// MIMG 0
    image_load,
    /// MIMG 1
    image_load_mip,
    /// MIMG 2
    image_load_pck,
    /// MIMG 3
    image_load_pck_sgn,
    /// MIMG 4
    image_load_mip_pck,
    /// MIMG 5
    image_load_mip_pck_sgn,
    /// MIMG 8
    image_store,
    /// MIMG 9
    image_store_mip,
    /// MIMG 10
    image_store_pck,
    /// MIMG 11
    image_store_mip_pck,
    /// MIMG 14
    image_get_resinfo,
    /// MIMG 15
    image_atomic_swap,
    /// MIMG 16
    image_atomic_cmpswap,
    /// MIMG 17
    image_atomic_add,
    /// MIMG 18
    image_atomic_sub,
    /// MIMG 20
    image_atomic_smin,
    /// MIMG 21
    image_atomic_umin,
    /// MIMG 22
    image_atomic_smax,
    /// MIMG 23
    image_atomic_umax,
    /// MIMG 24
    image_atomic_and,
    /// MIMG 25
    image_atomic_or,
    /// MIMG 26
    image_atomic_xor,
    /// MIMG 27
    image_atomic_inc,
    /// MIMG 28
    image_atomic_dec,
    /// MIMG 29
    image_atomic_fcmpswap,
    /// MIMG 30
    image_atomic_fmin,
    /// MIMG 31
    image_atomic_fmax,
    /// MIMG 32
    image_sample,
    /// MIMG 33
    image_sample_cl,
    /// MIMG 34
    image_sample_d,
    /// MIMG 35
    image_sample_d_cl,
    /// MIMG 36
    image_sample_l,
    /// MIMG 37
    image_sample_b,
    /// MIMG 38
    image_sample_b_cl,
    /// MIMG 39
    image_sample_lz,
    /// MIMG 40
    image_sample_c,
    /// MIMG 41
    image_sample_c_cl,
    /// MIMG 42
    image_sample_c_d,
    /// MIMG 43
    image_sample_c_d_cl,
    /// MIMG 44
    image_sample_c_l,
    /// MIMG 45
    image_sample_c_b,
    /// MIMG 46
    image_sample_c_b_cl,
    /// MIMG 47
    image_sample_c_lz,
    /// MIMG 48
    image_sample_o,
    /// MIMG 49
    image_sample_cl_o,
    /// MIMG 50
    image_sample_d_o,
    /// MIMG 51
    image_sample_d_cl_o,
    /// MIMG 52
    image_sample_l_o,
    /// MIMG 53
    image_sample_b_o,
    /// MIMG 54
    image_sample_b_cl_o,
    /// MIMG 55
    image_sample_lz_o,
    /// MIMG 56
    image_sample_c_o,
    /// MIMG 57
    image_sample_c_cl_o,
    /// MIMG 58
    image_sample_c_d_o,
    /// MIMG 59
    image_sample_c_d_cl_o,
    /// MIMG 60
    image_sample_c_l_o,
    /// MIMG 61
    image_sample_c_b_o,
    /// MIMG 62
    image_sample_c_b_cl_o,
    /// MIMG 63
    image_sample_c_lz_o,
    /// MIMG 64
    image_gather4,
    /// MIMG 65
    image_gather4_cl,
    /// MIMG 68
    image_gather4_l,
    /// MIMG 69
    image_gather4_b,
    /// MIMG 70
    image_gather4_b_cl,
    /// MIMG 71
    image_gather4_lz,
    /// MIMG 72
    image_gather4_c,
    /// MIMG 73
    image_gather4_c_cl,
    /// MIMG 76
    image_gather4_c_l,
    /// MIMG 77
    image_gather4_c_b,
    /// MIMG 78
    image_gather4_c_b_cl,
    /// MIMG 79
    image_gather4_c_lz,
    /// MIMG 80
    image_gather4_o,
    /// MIMG 81
    image_gather4_cl_o,
    /// MIMG 84
    image_gather4_l_o,
    /// MIMG 85
    image_gather4_b_o,
    /// MIMG 86
    image_gather4_b_cl_o,
    /// MIMG 87
    image_gather4_lz_o,
    /// MIMG 88
    image_gather4_c_o,
    /// MIMG 89
    image_gather4_c_cl_o,
    /// MIMG 92
    image_gather4_c_l_o,
    /// MIMG 93
    image_gather4_c_b_o,
    /// MIMG 94
    image_gather4_c_b_cl_o,
    /// MIMG 95
    image_gather4_c_lz_o,
    /// MIMG 96
    image_get_lod,
    /// MIMG 97
    image_gather4h,
    /// MIMG 104
    image_sample_cd,
    /// MIMG 105
    image_sample_cd_cl,
    /// MIMG 106
    image_sample_c_cd,
    /// MIMG 107
    image_sample_c_cd_cl,
    /// MIMG 108
    image_sample_cd_o,
    /// MIMG 109
    image_sample_cd_cl_o,
    /// MIMG 110
    image_sample_c_cd_o,
    /// MIMG 111
    image_sample_c_cd_cl_o,
    /// MIMG 128
    image_msaa_load,
    /// MIMG 162
    image_sample_d_g16,
    /// MIMG 163
    image_sample_d_cl_g16,
    /// MIMG 170
    image_sample_c_d_g16,
    /// MIMG 171
    image_sample_c_d_cl_g16,
    /// MIMG 178
    image_sample_d_o_g16,
    /// MIMG 179
    image_sample_d_cl_o_g16,
    /// MIMG 186
    image_sample_c_d_o_g16,
    /// MIMG 187
    image_sample_c_d_cl_o_g16,
    /// MIMG 230
    image_bvh_intersect_ray,
    /// MIMG 231
    image_bvh64_intersect_ray,
    /// MIMG 232
    image_sample_cd_g16,
    /// MIMG 233
    image_sample_cd_cl_g16,
    /// MIMG 234
    image_sample_c_cd_g16,
    /// MIMG 235
    image_sample_c_cd_cl_g16,
    /// MIMG 236
    image_sample_cd_o_g16,
    /// MIMG 237
    image_sample_cd_cl_o_g16,
    /// MIMG 238
    image_sample_c_cd_o_g16,
    /// MIMG 239
    image_sample_c_cd_cl_o_g16,
    /// MIMG 98
    image_gather4h_pck,
    /// MIMG 99
    image_gather8h_pck,
    /// MIMG 66
    image_load_by2,
    /// MIMG 67
    image_load_by4,
    /// MIMG 74
    image_load_mip_by2,
    /// MIMG 75
    image_load_mip_by4,
    /// MIMG 82
    image_store_by2,
    /// MIMG 83
    image_store_by4,
    /// MIMG 90
    image_store_mip_by2,
    /// MIMG 91
    image_store_mip_by4,
    /// MIMG 112
    image_load_pck2,
    /// MIMG 113
    image_load_pck4,
    /// MIMG 115
    image_load_mip_pck2,
    /// MIMG 116
    image_load_mip_pck4,
    /// MIMG 118
    image_store_pck2,
    /// MIMG 119
    image_store_pck4,
    /// MIMG 121
    image_store_mip_pck2,
    /// MIMG 122
    image_store_mip_pck4,
}

impl Opcode {
    /// Every opcode in table order: `Opcode::ALL[op as usize] == op`.
    pub const ALL: [Opcode; 1159] = [
        Opcode::s_add_u32,
        Opcode::s_sub_u32,
        Opcode::s_add_i32,
        Opcode::s_sub_i32,
        Opcode::s_addc_u32,
        Opcode::s_subb_u32,
        Opcode::s_min_i32,
        Opcode::s_min_u32,
        Opcode::s_max_i32,
        Opcode::s_max_u32,
        Opcode::s_cselect_b32,
        Opcode::s_cselect_b64,
        Opcode::s_and_b32,
        Opcode::s_and_b64,
        Opcode::s_or_b32,
        Opcode::s_or_b64,
        Opcode::s_xor_b32,
        Opcode::s_xor_b64,
        Opcode::s_andn2_b32,
        Opcode::s_andn2_b64,
        Opcode::s_orn2_b32,
        Opcode::s_orn2_b64,
        Opcode::s_nand_b32,
        Opcode::s_nand_b64,
        Opcode::s_nor_b32,
        Opcode::s_nor_b64,
        Opcode::s_xnor_b32,
        Opcode::s_xnor_b64,
        Opcode::s_lshl_b32,
        Opcode::s_lshl_b64,
        Opcode::s_lshr_b32,
        Opcode::s_lshr_b64,
        Opcode::s_ashr_i32,
        Opcode::s_ashr_i64,
        Opcode::s_bfm_b32,
        Opcode::s_bfm_b64,
        Opcode::s_mul_i32,
        Opcode::s_bfe_u32,
        Opcode::s_bfe_i32,
        Opcode::s_bfe_u64,
        Opcode::s_bfe_i64,
        Opcode::s_absdiff_i32,
        Opcode::s_lshl1_add_u32,
        Opcode::s_lshl2_add_u32,
        Opcode::s_lshl3_add_u32,
        Opcode::s_lshl4_add_u32,
        Opcode::s_pack_ll_b32_b16,
        Opcode::s_pack_lh_b32_b16,
        Opcode::s_pack_hh_b32_b16,
        Opcode::s_mul_hi_u32,
        Opcode::s_mul_hi_i32,
        Opcode::s_movk_i32,
        Opcode::s_version,
        Opcode::s_cmovk_i32,
        Opcode::s_cmpk_eq_i32,
        Opcode::s_cmpk_lg_i32,
        Opcode::s_cmpk_gt_i32,
        Opcode::s_cmpk_ge_i32,
        Opcode::s_cmpk_lt_i32,
        Opcode::s_cmpk_le_i32,
        Opcode::s_cmpk_eq_u32,
        Opcode::s_cmpk_lg_u32,
        Opcode::s_cmpk_gt_u32,
        Opcode::s_cmpk_ge_u32,
        Opcode::s_cmpk_lt_u32,
        Opcode::s_cmpk_le_u32,
        Opcode::s_addk_i32,
        Opcode::s_mulk_i32,
        Opcode::s_getreg_b32,
        Opcode::s_setreg_b32,
        Opcode::s_setreg_imm32_b32,
        Opcode::s_call_b64,
        Opcode::s_waitcnt_vscnt,
        Opcode::s_waitcnt_vmcnt,
        Opcode::s_waitcnt_expcnt,
        Opcode::s_waitcnt_lgkmcnt,
        Opcode::s_subvector_loop_begin,
        Opcode::s_subvector_loop_end,
        Opcode::s_mov_b32,
        Opcode::s_mov_b64,
        Opcode::s_cmov_b32,
        Opcode::s_cmov_b64,
        Opcode::s_not_b32,
        Opcode::s_not_b64,
        Opcode::s_wqm_b32,
        Opcode::s_wqm_b64,
        Opcode::s_brev_b32,
        Opcode::s_brev_b64,
        Opcode::s_bcnt0_i32_b32,
        Opcode::s_bcnt0_i32_b64,
        Opcode::s_bcnt1_i32_b32,
        Opcode::s_bcnt1_i32_b64,
        Opcode::s_ff0_i32_b32,
        Opcode::s_ff0_i32_b64,
        Opcode::s_ff1_i32_b32,
        Opcode::s_ff1_i32_b64,
        Opcode::s_flbit_i32_b32,
        Opcode::s_flbit_i32_b64,
        Opcode::s_flbit_i32,
        Opcode::s_flbit_i32_i64,
        Opcode::s_sext_i32_i8,
        Opcode::s_sext_i32_i16,
        Opcode::s_bitset0_b32,
        Opcode::s_bitset0_b64,
        Opcode::s_bitset1_b32,
        Opcode::s_bitset1_b64,
        Opcode::s_getpc_b64,
        Opcode::s_setpc_b64,
        Opcode::s_swappc_b64,
        Opcode::s_rfe_b64,
        Opcode::s_and_saveexec_b64,
        Opcode::s_or_saveexec_b64,
        Opcode::s_xor_saveexec_b64,
        Opcode::s_andn2_saveexec_b64,
        Opcode::s_orn2_saveexec_b64,
        Opcode::s_nand_saveexec_b64,
        Opcode::s_nor_saveexec_b64,
        Opcode::s_xnor_saveexec_b64,
        Opcode::s_quadmask_b32,
        Opcode::s_quadmask_b64,
        Opcode::s_movrels_b32,
        Opcode::s_movrels_b64,
        Opcode::s_movreld_b32,
        Opcode::s_movreld_b64,
        Opcode::s_abs_i32,
        Opcode::s_andn1_saveexec_b64,
        Opcode::s_orn1_saveexec_b64,
        Opcode::s_andn1_wrexec_b64,
        Opcode::s_andn2_wrexec_b64,
        Opcode::s_bitreplicate_b64_b32,
        Opcode::s_and_saveexec_b32,
        Opcode::s_or_saveexec_b32,
        Opcode::s_xor_saveexec_b32,
        Opcode::s_andn2_saveexec_b32,
        Opcode::s_orn2_saveexec_b32,
        Opcode::s_nand_saveexec_b32,
        Opcode::s_nor_saveexec_b32,
        Opcode::s_xnor_saveexec_b32,
        Opcode::s_andn1_saveexec_b32,
        Opcode::s_orn1_saveexec_b32,
        Opcode::s_andn1_wrexec_b32,
        Opcode::s_andn2_wrexec_b32,
        Opcode::s_movrelsd_2_b32,
        Opcode::s_cmp_eq_i32,
        Opcode::s_cmp_lg_i32,
        Opcode::s_cmp_gt_i32,
        Opcode::s_cmp_ge_i32,
        Opcode::s_cmp_lt_i32,
        Opcode::s_cmp_le_i32,
        Opcode::s_cmp_eq_u32,
        Opcode::s_cmp_lg_u32,
        Opcode::s_cmp_gt_u32,
        Opcode::s_cmp_ge_u32,
        Opcode::s_cmp_lt_u32,
        Opcode::s_cmp_le_u32,
        Opcode::s_bitcmp0_b32,
        Opcode::s_bitcmp1_b32,
        Opcode::s_bitcmp0_b64,
        Opcode::s_bitcmp1_b64,
        Opcode::s_cmp_eq_u64,
        Opcode::s_cmp_lg_u64,
        Opcode::s_nop,
        Opcode::s_endpgm,
        Opcode::s_branch,
        Opcode::s_wakeup,
        Opcode::s_cbranch_scc0,
        Opcode::s_cbranch_scc1,
        Opcode::s_cbranch_vccz,
        Opcode::s_cbranch_vccnz,
        Opcode::s_cbranch_execz,
        Opcode::s_cbranch_execnz,
        Opcode::s_barrier,
        Opcode::s_setkill,
        Opcode::s_waitcnt,
        Opcode::s_sethalt,
        Opcode::s_sleep,
        Opcode::s_setprio,
        Opcode::s_sendmsg,
        Opcode::s_sendmsghalt,
        Opcode::s_trap,
        Opcode::s_icache_inv,
        Opcode::s_incperflevel,
        Opcode::s_decperflevel,
        Opcode::s_ttracedata,
        Opcode::s_cbranch_cdbgsys,
        Opcode::s_cbranch_cdbguser,
        Opcode::s_cbranch_cdbgsys_or_user,
        Opcode::s_cbranch_cdbgsys_and_user,
        Opcode::s_endpgm_saved,
        Opcode::s_endpgm_ordered_ps_done,
        Opcode::s_code_end,
        Opcode::s_inst_prefetch,
        Opcode::s_clause,
        Opcode::s_wait_idle,
        Opcode::s_waitcnt_depctr,
        Opcode::s_round_mode,
        Opcode::s_denorm_mode,
        Opcode::s_ttracedata_imm,
        Opcode::s_load_dword,
        Opcode::s_load_dwordx2,
        Opcode::s_load_dwordx4,
        Opcode::s_load_dwordx8,
        Opcode::s_load_dwordx16,
        Opcode::s_buffer_load_dword,
        Opcode::s_buffer_load_dwordx2,
        Opcode::s_buffer_load_dwordx4,
        Opcode::s_buffer_load_dwordx8,
        Opcode::s_buffer_load_dwordx16,
        Opcode::s_gl1_inv,
        Opcode::s_dcache_inv,
        Opcode::s_memtime,
        Opcode::s_memrealtime,
        Opcode::s_atc_probe,
        Opcode::s_atc_probe_buffer,
        Opcode::v_nop,
        Opcode::v_mov_b32,
        Opcode::v_readfirstlane_b32,
        Opcode::v_cvt_i32_f64,
        Opcode::v_cvt_f64_i32,
        Opcode::v_cvt_f32_i32,
        Opcode::v_cvt_f32_u32,
        Opcode::v_cvt_u32_f32,
        Opcode::v_cvt_i32_f32,
        Opcode::v_cvt_f16_f32,
        Opcode::v_cvt_f32_f16,
        Opcode::v_cvt_rpi_i32_f32,
        Opcode::v_cvt_flr_i32_f32,
        Opcode::v_cvt_off_f32_i4,
        Opcode::v_cvt_f32_f64,
        Opcode::v_cvt_f64_f32,
        Opcode::v_cvt_f32_ubyte0,
        Opcode::v_cvt_f32_ubyte1,
        Opcode::v_cvt_f32_ubyte2,
        Opcode::v_cvt_f32_ubyte3,
        Opcode::v_cvt_u32_f64,
        Opcode::v_cvt_f64_u32,
        Opcode::v_trunc_f64,
        Opcode::v_ceil_f64,
        Opcode::v_rndne_f64,
        Opcode::v_floor_f64,
        Opcode::v_pipeflush,
        Opcode::v_fract_f32,
        Opcode::v_trunc_f32,
        Opcode::v_ceil_f32,
        Opcode::v_rndne_f32,
        Opcode::v_floor_f32,
        Opcode::v_exp_f32,
        Opcode::v_log_f32,
        Opcode::v_rcp_f32,
        Opcode::v_rcp_iflag_f32,
        Opcode::v_rsq_f32,
        Opcode::v_rcp_f64,
        Opcode::v_rsq_f64,
        Opcode::v_sqrt_f32,
        Opcode::v_sqrt_f64,
        Opcode::v_sin_f32,
        Opcode::v_cos_f32,
        Opcode::v_not_b32,
        Opcode::v_bfrev_b32,
        Opcode::v_ffbh_u32,
        Opcode::v_ffbl_b32,
        Opcode::v_ffbh_i32,
        Opcode::v_frexp_exp_i32_f64,
        Opcode::v_frexp_mant_f64,
        Opcode::v_fract_f64,
        Opcode::v_frexp_exp_i32_f32,
        Opcode::v_frexp_mant_f32,
        Opcode::v_clrexcp,
        Opcode::v_movreld_b32,
        Opcode::v_movrels_b32,
        Opcode::v_movrelsd_b32,
        Opcode::v_movrelsd_2_b32,
        Opcode::v_cvt_f16_u16,
        Opcode::v_cvt_f16_i16,
        Opcode::v_cvt_u16_f16,
        Opcode::v_cvt_i16_f16,
        Opcode::v_rcp_f16,
        Opcode::v_sqrt_f16,
        Opcode::v_rsq_f16,
        Opcode::v_log_f16,
        Opcode::v_exp_f16,
        Opcode::v_frexp_mant_f16,
        Opcode::v_frexp_exp_i16_f16,
        Opcode::v_floor_f16,
        Opcode::v_ceil_f16,
        Opcode::v_trunc_f16,
        Opcode::v_rndne_f16,
        Opcode::v_fract_f16,
        Opcode::v_sin_f16,
        Opcode::v_cos_f16,
        Opcode::v_sat_pk_u8_i16,
        Opcode::v_cvt_norm_i16_f16,
        Opcode::v_cvt_norm_u16_f16,
        Opcode::v_swap_b32,
        Opcode::v_swaprel_b32,
        Opcode::v_cndmask_b32,
        Opcode::v_dot2c_f32_f16,
        Opcode::v_add_f32,
        Opcode::v_sub_f32,
        Opcode::v_subrev_f32,
        Opcode::v_fmac_legacy_f32,
        Opcode::v_mul_legacy_f32,
        Opcode::v_mul_f32,
        Opcode::v_mul_i32_i24,
        Opcode::v_mul_hi_i32_i24,
        Opcode::v_mul_u32_u24,
        Opcode::v_mul_hi_u32_u24,
        Opcode::v_dot4c_i32_i8,
        Opcode::v_min_f32,
        Opcode::v_max_f32,
        Opcode::v_min_i32,
        Opcode::v_max_i32,
        Opcode::v_min_u32,
        Opcode::v_max_u32,
        Opcode::v_lshrrev_b32,
        Opcode::v_ashrrev_i32,
        Opcode::v_lshlrev_b32,
        Opcode::v_and_b32,
        Opcode::v_or_b32,
        Opcode::v_xor_b32,
        Opcode::v_xnor_b32,
        Opcode::v_add_nc_u32,
        Opcode::v_sub_nc_u32,
        Opcode::v_subrev_nc_u32,
        Opcode::v_add_co_ci_u32,
        Opcode::v_sub_co_ci_u32,
        Opcode::v_subrev_co_ci_u32,
        Opcode::v_fmac_f32,
        Opcode::v_fmamk_f32,
        Opcode::v_fmaak_f32,
        Opcode::v_cvt_pkrtz_f16_f32,
        Opcode::v_add_f16,
        Opcode::v_sub_f16,
        Opcode::v_subrev_f16,
        Opcode::v_mul_f16,
        Opcode::v_fmac_f16,
        Opcode::v_fmamk_f16,
        Opcode::v_fmaak_f16,
        Opcode::v_max_f16,
        Opcode::v_min_f16,
        Opcode::v_ldexp_f16,
        Opcode::v_pk_fmac_f16,
        Opcode::v_cmp_f_f32,
        Opcode::v_cmp_lt_f32,
        Opcode::v_cmp_eq_f32,
        Opcode::v_cmp_le_f32,
        Opcode::v_cmp_gt_f32,
        Opcode::v_cmp_lg_f32,
        Opcode::v_cmp_ge_f32,
        Opcode::v_cmp_o_f32,
        Opcode::v_cmp_u_f32,
        Opcode::v_cmp_nge_f32,
        Opcode::v_cmp_nlg_f32,
        Opcode::v_cmp_ngt_f32,
        Opcode::v_cmp_nle_f32,
        Opcode::v_cmp_neq_f32,
        Opcode::v_cmp_nlt_f32,
        Opcode::v_cmp_tru_f32,
        Opcode::v_cmpx_f_f32,
        Opcode::v_cmpx_lt_f32,
        Opcode::v_cmpx_eq_f32,
        Opcode::v_cmpx_le_f32,
        Opcode::v_cmpx_gt_f32,
        Opcode::v_cmpx_lg_f32,
        Opcode::v_cmpx_ge_f32,
        Opcode::v_cmpx_o_f32,
        Opcode::v_cmpx_u_f32,
        Opcode::v_cmpx_nge_f32,
        Opcode::v_cmpx_nlg_f32,
        Opcode::v_cmpx_ngt_f32,
        Opcode::v_cmpx_nle_f32,
        Opcode::v_cmpx_neq_f32,
        Opcode::v_cmpx_nlt_f32,
        Opcode::v_cmpx_tru_f32,
        Opcode::v_cmp_f_f64,
        Opcode::v_cmp_lt_f64,
        Opcode::v_cmp_eq_f64,
        Opcode::v_cmp_le_f64,
        Opcode::v_cmp_gt_f64,
        Opcode::v_cmp_lg_f64,
        Opcode::v_cmp_ge_f64,
        Opcode::v_cmp_o_f64,
        Opcode::v_cmp_u_f64,
        Opcode::v_cmp_nge_f64,
        Opcode::v_cmp_nlg_f64,
        Opcode::v_cmp_ngt_f64,
        Opcode::v_cmp_nle_f64,
        Opcode::v_cmp_neq_f64,
        Opcode::v_cmp_nlt_f64,
        Opcode::v_cmp_tru_f64,
        Opcode::v_cmpx_f_f64,
        Opcode::v_cmpx_lt_f64,
        Opcode::v_cmpx_eq_f64,
        Opcode::v_cmpx_le_f64,
        Opcode::v_cmpx_gt_f64,
        Opcode::v_cmpx_lg_f64,
        Opcode::v_cmpx_ge_f64,
        Opcode::v_cmpx_o_f64,
        Opcode::v_cmpx_u_f64,
        Opcode::v_cmpx_nge_f64,
        Opcode::v_cmpx_nlg_f64,
        Opcode::v_cmpx_ngt_f64,
        Opcode::v_cmpx_nle_f64,
        Opcode::v_cmpx_neq_f64,
        Opcode::v_cmpx_nlt_f64,
        Opcode::v_cmpx_tru_f64,
        Opcode::v_cmp_f_i32,
        Opcode::v_cmp_lt_i32,
        Opcode::v_cmp_eq_i32,
        Opcode::v_cmp_le_i32,
        Opcode::v_cmp_gt_i32,
        Opcode::v_cmp_ne_i32,
        Opcode::v_cmp_ge_i32,
        Opcode::v_cmp_t_i32,
        Opcode::v_cmp_class_f32,
        Opcode::v_cmp_lt_i16,
        Opcode::v_cmp_eq_i16,
        Opcode::v_cmp_le_i16,
        Opcode::v_cmp_gt_i16,
        Opcode::v_cmp_ne_i16,
        Opcode::v_cmp_ge_i16,
        Opcode::v_cmp_class_f16,
        Opcode::v_cmpx_f_i32,
        Opcode::v_cmpx_lt_i32,
        Opcode::v_cmpx_eq_i32,
        Opcode::v_cmpx_le_i32,
        Opcode::v_cmpx_gt_i32,
        Opcode::v_cmpx_ne_i32,
        Opcode::v_cmpx_ge_i32,
        Opcode::v_cmpx_t_i32,
        Opcode::v_cmpx_class_f32,
        Opcode::v_cmpx_lt_i16,
        Opcode::v_cmpx_eq_i16,
        Opcode::v_cmpx_le_i16,
        Opcode::v_cmpx_gt_i16,
        Opcode::v_cmpx_ne_i16,
        Opcode::v_cmpx_ge_i16,
        Opcode::v_cmpx_class_f16,
        Opcode::v_cmp_f_i64,
        Opcode::v_cmp_lt_i64,
        Opcode::v_cmp_eq_i64,
        Opcode::v_cmp_le_i64,
        Opcode::v_cmp_gt_i64,
        Opcode::v_cmp_ne_i64,
        Opcode::v_cmp_ge_i64,
        Opcode::v_cmp_t_i64,
        Opcode::v_cmp_class_f64,
        Opcode::v_cmp_lt_u16,
        Opcode::v_cmp_eq_u16,
        Opcode::v_cmp_le_u16,
        Opcode::v_cmp_gt_u16,
        Opcode::v_cmp_ne_u16,
        Opcode::v_cmp_ge_u16,
        Opcode::v_cmpx_f_i64,
        Opcode::v_cmpx_lt_i64,
        Opcode::v_cmpx_eq_i64,
        Opcode::v_cmpx_le_i64,
        Opcode::v_cmpx_gt_i64,
        Opcode::v_cmpx_ne_i64,
        Opcode::v_cmpx_ge_i64,
        Opcode::v_cmpx_t_i64,
        Opcode::v_cmpx_class_f64,
        Opcode::v_cmpx_lt_u16,
        Opcode::v_cmpx_eq_u16,
        Opcode::v_cmpx_le_u16,
        Opcode::v_cmpx_gt_u16,
        Opcode::v_cmpx_ne_u16,
        Opcode::v_cmpx_ge_u16,
        Opcode::v_cmp_f_u32,
        Opcode::v_cmp_lt_u32,
        Opcode::v_cmp_eq_u32,
        Opcode::v_cmp_le_u32,
        Opcode::v_cmp_gt_u32,
        Opcode::v_cmp_ne_u32,
        Opcode::v_cmp_ge_u32,
        Opcode::v_cmp_t_u32,
        Opcode::v_cmp_f_f16,
        Opcode::v_cmp_lt_f16,
        Opcode::v_cmp_eq_f16,
        Opcode::v_cmp_le_f16,
        Opcode::v_cmp_gt_f16,
        Opcode::v_cmp_lg_f16,
        Opcode::v_cmp_ge_f16,
        Opcode::v_cmp_o_f16,
        Opcode::v_cmpx_f_u32,
        Opcode::v_cmpx_lt_u32,
        Opcode::v_cmpx_eq_u32,
        Opcode::v_cmpx_le_u32,
        Opcode::v_cmpx_gt_u32,
        Opcode::v_cmpx_ne_u32,
        Opcode::v_cmpx_ge_u32,
        Opcode::v_cmpx_t_u32,
        Opcode::v_cmpx_f_f16,
        Opcode::v_cmpx_lt_f16,
        Opcode::v_cmpx_eq_f16,
        Opcode::v_cmpx_le_f16,
        Opcode::v_cmpx_gt_f16,
        Opcode::v_cmpx_lg_f16,
        Opcode::v_cmpx_ge_f16,
        Opcode::v_cmpx_o_f16,
        Opcode::v_cmp_f_u64,
        Opcode::v_cmp_lt_u64,
        Opcode::v_cmp_eq_u64,
        Opcode::v_cmp_le_u64,
        Opcode::v_cmp_gt_u64,
        Opcode::v_cmp_ne_u64,
        Opcode::v_cmp_ge_u64,
        Opcode::v_cmp_t_u64,
        Opcode::v_cmp_u_f16,
        Opcode::v_cmp_nge_f16,
        Opcode::v_cmp_nlg_f16,
        Opcode::v_cmp_ngt_f16,
        Opcode::v_cmp_nle_f16,
        Opcode::v_cmp_neq_f16,
        Opcode::v_cmp_nlt_f16,
        Opcode::v_cmp_tru_f16,
        Opcode::v_cmpx_f_u64,
        Opcode::v_cmpx_lt_u64,
        Opcode::v_cmpx_eq_u64,
        Opcode::v_cmpx_le_u64,
        Opcode::v_cmpx_gt_u64,
        Opcode::v_cmpx_ne_u64,
        Opcode::v_cmpx_ge_u64,
        Opcode::v_cmpx_t_u64,
        Opcode::v_cmpx_u_f16,
        Opcode::v_cmpx_nge_f16,
        Opcode::v_cmpx_nlg_f16,
        Opcode::v_cmpx_ngt_f16,
        Opcode::v_cmpx_nle_f16,
        Opcode::v_cmpx_neq_f16,
        Opcode::v_cmpx_nlt_f16,
        Opcode::v_cmpx_tru_f16,
        Opcode::v_fma_legacy_f32,
        Opcode::v_mad_i32_i24,
        Opcode::v_mad_u32_u24,
        Opcode::v_cubeid_f32,
        Opcode::v_cubesc_f32,
        Opcode::v_cubetc_f32,
        Opcode::v_cubema_f32,
        Opcode::v_bfe_u32,
        Opcode::v_bfe_i32,
        Opcode::v_bfi_b32,
        Opcode::v_fma_f32,
        Opcode::v_fma_f64,
        Opcode::v_lerp_u8,
        Opcode::v_alignbit_b32,
        Opcode::v_alignbyte_b32,
        Opcode::v_mullit_f32,
        Opcode::v_min3_f32,
        Opcode::v_min3_i32,
        Opcode::v_min3_u32,
        Opcode::v_max3_f32,
        Opcode::v_max3_i32,
        Opcode::v_max3_u32,
        Opcode::v_med3_f32,
        Opcode::v_med3_i32,
        Opcode::v_med3_u32,
        Opcode::v_sad_u8,
        Opcode::v_sad_hi_u8,
        Opcode::v_sad_u16,
        Opcode::v_sad_u32,
        Opcode::v_cvt_pk_u8_f32,
        Opcode::v_div_fixup_f32,
        Opcode::v_div_fixup_f64,
        Opcode::v_add_f64,
        Opcode::v_mul_f64,
        Opcode::v_min_f64,
        Opcode::v_max_f64,
        Opcode::v_ldexp_f64,
        Opcode::v_mul_lo_u32,
        Opcode::v_mul_hi_u32,
        Opcode::v_mul_hi_i32,
        Opcode::v_div_scale_f32,
        Opcode::v_div_scale_f64,
        Opcode::v_div_fmas_f32,
        Opcode::v_div_fmas_f64,
        Opcode::v_msad_u8,
        Opcode::v_qsad_pk_u16_u8,
        Opcode::v_mqsad_pk_u16_u8,
        Opcode::v_trig_preop_f64,
        Opcode::v_mqsad_u32_u8,
        Opcode::v_mad_u64_u32,
        Opcode::v_mad_i64_i32,
        Opcode::v_xor3_b32,
        Opcode::v_interp_p1_f32_vop3,
        Opcode::v_interp_p2_f32_vop3,
        Opcode::v_interp_mov_f32_vop3,
        Opcode::v_lshlrev_b64,
        Opcode::v_lshrrev_b64,
        Opcode::v_ashrrev_i64,
        Opcode::v_add_nc_u16,
        Opcode::v_sub_nc_u16,
        Opcode::v_mul_lo_u16,
        Opcode::v_lshrrev_b16,
        Opcode::v_ashrrev_i16,
        Opcode::v_max_u16,
        Opcode::v_max_i16,
        Opcode::v_min_u16,
        Opcode::v_min_i16,
        Opcode::v_add_nc_i16,
        Opcode::v_sub_nc_i16,
        Opcode::v_add_co_u32,
        Opcode::v_sub_co_u32,
        Opcode::v_pack_b32_f16,
        Opcode::v_cvt_pknorm_i16_f16,
        Opcode::v_cvt_pknorm_u16_f16,
        Opcode::v_lshlrev_b16,
        Opcode::v_subrev_co_u32,
        Opcode::v_mad_u16,
        Opcode::v_interp_p1ll_f16,
        Opcode::v_interp_p1lv_f16,
        Opcode::v_perm_b32,
        Opcode::v_xad_u32,
        Opcode::v_lshl_add_u32,
        Opcode::v_add_lshl_u32,
        Opcode::v_fma_f16,
        Opcode::v_min3_f16,
        Opcode::v_min3_i16,
        Opcode::v_min3_u16,
        Opcode::v_max3_f16,
        Opcode::v_max3_i16,
        Opcode::v_max3_u16,
        Opcode::v_med3_f16,
        Opcode::v_med3_i16,
        Opcode::v_med3_u16,
        Opcode::v_interp_p2_f16,
        Opcode::v_mad_i16,
        Opcode::v_div_fixup_f16,
        Opcode::v_readlane_b32,
        Opcode::v_writelane_b32,
        Opcode::v_ldexp_f32,
        Opcode::v_bfm_b32,
        Opcode::v_bcnt_u32_b32,
        Opcode::v_mbcnt_lo_u32_b32,
        Opcode::v_mbcnt_hi_u32_b32,
        Opcode::v_cvt_pknorm_i16_f32,
        Opcode::v_cvt_pknorm_u16_f32,
        Opcode::v_cvt_pk_u16_u32,
        Opcode::v_cvt_pk_i16_i32,
        Opcode::v_add3_u32,
        Opcode::v_lshl_or_b32,
        Opcode::v_and_or_b32,
        Opcode::v_or3_b32,
        Opcode::v_mad_u32_u16,
        Opcode::v_mad_i32_i16,
        Opcode::v_sub_nc_i32,
        Opcode::v_permlane16_b32,
        Opcode::v_permlanex16_b32,
        Opcode::v_add_nc_i32,
        Opcode::v_pk_mad_i16,
        Opcode::v_pk_mul_lo_u16,
        Opcode::v_pk_add_i16,
        Opcode::v_pk_sub_i16,
        Opcode::v_pk_lshlrev_b16,
        Opcode::v_pk_lshrrev_b16,
        Opcode::v_pk_ashrrev_i16,
        Opcode::v_pk_max_i16,
        Opcode::v_pk_min_i16,
        Opcode::v_pk_mad_u16,
        Opcode::v_pk_add_u16,
        Opcode::v_pk_sub_u16,
        Opcode::v_pk_max_u16,
        Opcode::v_pk_min_u16,
        Opcode::v_pk_fma_f16,
        Opcode::v_pk_add_f16,
        Opcode::v_pk_mul_f16,
        Opcode::v_pk_min_f16,
        Opcode::v_pk_max_f16,
        Opcode::v_dot2_f32_f16,
        Opcode::v_dot2_i32_i16,
        Opcode::v_dot2_u32_u16,
        Opcode::v_dot4_i32_i8,
        Opcode::v_dot4_u32_u8,
        Opcode::v_dot8_i32_i4,
        Opcode::v_dot8_u32_u4,
        Opcode::v_fma_mix_f32,
        Opcode::v_fma_mixlo_f16,
        Opcode::v_fma_mixhi_f16,
        Opcode::v_interp_p1_f32_vintrp,
        Opcode::v_interp_p2_f32_vintrp,
        Opcode::v_interp_mov_f32_vintrp,
        Opcode::ds_add_u32,
        Opcode::ds_sub_u32,
        Opcode::ds_rsub_u32,
        Opcode::ds_inc_u32,
        Opcode::ds_dec_u32,
        Opcode::ds_min_i32,
        Opcode::ds_max_i32,
        Opcode::ds_min_u32,
        Opcode::ds_max_u32,
        Opcode::ds_and_b32,
        Opcode::ds_or_b32,
        Opcode::ds_xor_b32,
        Opcode::ds_mskor_b32,
        Opcode::ds_write_b32,
        Opcode::ds_write2_b32,
        Opcode::ds_write2st64_b32,
        Opcode::ds_cmpst_b32,
        Opcode::ds_cmpst_f32,
        Opcode::ds_min_f32,
        Opcode::ds_max_f32,
        Opcode::ds_nop,
        Opcode::ds_add_f32,
        Opcode::ds_gws_sema_release_all,
        Opcode::ds_gws_init,
        Opcode::ds_gws_sema_v,
        Opcode::ds_gws_sema_br,
        Opcode::ds_gws_sema_p,
        Opcode::ds_gws_barrier,
        Opcode::ds_write_b8,
        Opcode::ds_write_b16,
        Opcode::ds_add_rtn_u32,
        Opcode::ds_sub_rtn_u32,
        Opcode::ds_rsub_rtn_u32,
        Opcode::ds_inc_rtn_u32,
        Opcode::ds_dec_rtn_u32,
        Opcode::ds_min_rtn_i32,
        Opcode::ds_max_rtn_i32,
        Opcode::ds_min_rtn_u32,
        Opcode::ds_max_rtn_u32,
        Opcode::ds_and_rtn_b32,
        Opcode::ds_or_rtn_b32,
        Opcode::ds_xor_rtn_b32,
        Opcode::ds_mskor_rtn_b32,
        Opcode::ds_wrxchg_rtn_b32,
        Opcode::ds_wrxchg2_rtn_b32,
        Opcode::ds_wrxchg2st64_rtn_b32,
        Opcode::ds_cmpst_rtn_b32,
        Opcode::ds_cmpst_rtn_f32,
        Opcode::ds_min_rtn_f32,
        Opcode::ds_max_rtn_f32,
        Opcode::ds_wrap_rtn_b32,
        Opcode::ds_swizzle_b32,
        Opcode::ds_read_b32,
        Opcode::ds_read2_b32,
        Opcode::ds_read2st64_b32,
        Opcode::ds_read_i8,
        Opcode::ds_read_u8,
        Opcode::ds_read_i16,
        Opcode::ds_read_u16,
        Opcode::ds_consume,
        Opcode::ds_append,
        Opcode::ds_ordered_count,
        Opcode::ds_add_u64,
        Opcode::ds_sub_u64,
        Opcode::ds_rsub_u64,
        Opcode::ds_inc_u64,
        Opcode::ds_dec_u64,
        Opcode::ds_min_i64,
        Opcode::ds_max_i64,
        Opcode::ds_min_u64,
        Opcode::ds_max_u64,
        Opcode::ds_and_b64,
        Opcode::ds_or_b64,
        Opcode::ds_xor_b64,
        Opcode::ds_mskor_b64,
        Opcode::ds_write_b64,
        Opcode::ds_write2_b64,
        Opcode::ds_write2st64_b64,
        Opcode::ds_cmpst_b64,
        Opcode::ds_cmpst_f64,
        Opcode::ds_min_f64,
        Opcode::ds_max_f64,
        Opcode::ds_add_rtn_f32,
        Opcode::ds_add_rtn_u64,
        Opcode::ds_sub_rtn_u64,
        Opcode::ds_rsub_rtn_u64,
        Opcode::ds_inc_rtn_u64,
        Opcode::ds_dec_rtn_u64,
        Opcode::ds_min_rtn_i64,
        Opcode::ds_max_rtn_i64,
        Opcode::ds_min_rtn_u64,
        Opcode::ds_max_rtn_u64,
        Opcode::ds_and_rtn_b64,
        Opcode::ds_or_rtn_b64,
        Opcode::ds_xor_rtn_b64,
        Opcode::ds_mskor_rtn_b64,
        Opcode::ds_wrxchg_rtn_b64,
        Opcode::ds_wrxchg2_rtn_b64,
        Opcode::ds_wrxchg2st64_rtn_b64,
        Opcode::ds_cmpst_rtn_b64,
        Opcode::ds_cmpst_rtn_f64,
        Opcode::ds_min_rtn_f64,
        Opcode::ds_max_rtn_f64,
        Opcode::ds_read_b64,
        Opcode::ds_read2_b64,
        Opcode::ds_read2st64_b64,
        Opcode::ds_condxchg32_rtn_b64,
        Opcode::ds_write_b8_d16_hi,
        Opcode::ds_write_b16_d16_hi,
        Opcode::ds_read_u8_d16,
        Opcode::ds_read_u8_d16_hi,
        Opcode::ds_read_i8_d16,
        Opcode::ds_read_i8_d16_hi,
        Opcode::ds_read_u16_d16,
        Opcode::ds_read_u16_d16_hi,
        Opcode::ds_write_addtid_b32,
        Opcode::ds_read_addtid_b32,
        Opcode::ds_permute_b32,
        Opcode::ds_bpermute_b32,
        Opcode::ds_write_b96,
        Opcode::ds_write_b128,
        Opcode::ds_read_b96,
        Opcode::ds_read_b128,
        Opcode::exp,
        Opcode::buffer_load_format_x,
        Opcode::buffer_load_format_xy,
        Opcode::buffer_load_format_xyz,
        Opcode::buffer_load_format_xyzw,
        Opcode::buffer_store_format_x,
        Opcode::buffer_store_format_xy,
        Opcode::buffer_store_format_xyz,
        Opcode::buffer_store_format_xyzw,
        Opcode::buffer_load_ubyte,
        Opcode::buffer_load_sbyte,
        Opcode::buffer_load_ushort,
        Opcode::buffer_load_sshort,
        Opcode::buffer_load_dword,
        Opcode::buffer_load_dwordx2,
        Opcode::buffer_load_dwordx4,
        Opcode::buffer_load_dwordx3,
        Opcode::buffer_store_byte,
        Opcode::buffer_store_byte_d16_hi,
        Opcode::buffer_store_short,
        Opcode::buffer_store_short_d16_hi,
        Opcode::buffer_store_dword,
        Opcode::buffer_store_dwordx2,
        Opcode::buffer_store_dwordx4,
        Opcode::buffer_store_dwordx3,
        Opcode::buffer_load_ubyte_d16,
        Opcode::buffer_load_ubyte_d16_hi,
        Opcode::buffer_load_sbyte_d16,
        Opcode::buffer_load_sbyte_d16_hi,
        Opcode::buffer_load_short_d16,
        Opcode::buffer_load_short_d16_hi,
        Opcode::buffer_load_format_d16_hi_x,
        Opcode::buffer_store_format_d16_hi_x,
        Opcode::buffer_atomic_swap,
        Opcode::buffer_atomic_cmpswap,
        Opcode::buffer_atomic_add,
        Opcode::buffer_atomic_sub,
        Opcode::buffer_atomic_csub,
        Opcode::buffer_atomic_smin,
        Opcode::buffer_atomic_umin,
        Opcode::buffer_atomic_smax,
        Opcode::buffer_atomic_umax,
        Opcode::buffer_atomic_and,
        Opcode::buffer_atomic_or,
        Opcode::buffer_atomic_xor,
        Opcode::buffer_atomic_inc,
        Opcode::buffer_atomic_dec,
        Opcode::buffer_atomic_fcmpswap,
        Opcode::buffer_atomic_fmin,
        Opcode::buffer_atomic_fmax,
        Opcode::buffer_atomic_swap_x2,
        Opcode::buffer_atomic_cmpswap_x2,
        Opcode::buffer_atomic_add_x2,
        Opcode::buffer_atomic_sub_x2,
        Opcode::buffer_atomic_smin_x2,
        Opcode::buffer_atomic_umin_x2,
        Opcode::buffer_atomic_smax_x2,
        Opcode::buffer_atomic_umax_x2,
        Opcode::buffer_atomic_and_x2,
        Opcode::buffer_atomic_or_x2,
        Opcode::buffer_atomic_xor_x2,
        Opcode::buffer_atomic_inc_x2,
        Opcode::buffer_atomic_dec_x2,
        Opcode::buffer_atomic_fcmpswap_x2,
        Opcode::buffer_atomic_fmin_x2,
        Opcode::buffer_atomic_fmax_x2,
        Opcode::buffer_gl0_inv,
        Opcode::buffer_gl1_inv,
        Opcode::buffer_load_format_d16_x,
        Opcode::buffer_load_format_d16_xy,
        Opcode::buffer_load_format_d16_xyz,
        Opcode::buffer_load_format_d16_xyzw,
        Opcode::buffer_store_format_d16_x,
        Opcode::buffer_store_format_d16_xy,
        Opcode::buffer_store_format_d16_xyz,
        Opcode::buffer_store_format_d16_xyzw,
        Opcode::tbuffer_load_format_x,
        Opcode::tbuffer_load_format_xy,
        Opcode::tbuffer_load_format_xyz,
        Opcode::tbuffer_load_format_xyzw,
        Opcode::tbuffer_store_format_x,
        Opcode::tbuffer_store_format_xy,
        Opcode::tbuffer_store_format_xyz,
        Opcode::tbuffer_store_format_xyzw,
        Opcode::tbuffer_load_format_d16_x,
        Opcode::tbuffer_load_format_d16_xy,
        Opcode::tbuffer_load_format_d16_xyz,
        Opcode::tbuffer_load_format_d16_xyzw,
        Opcode::tbuffer_store_format_d16_x,
        Opcode::tbuffer_store_format_d16_xy,
        Opcode::tbuffer_store_format_d16_xyz,
        Opcode::tbuffer_store_format_d16_xyzw,
        Opcode::flat_load_ubyte,
        Opcode::flat_load_sbyte,
        Opcode::flat_load_ushort,
        Opcode::flat_load_sshort,
        Opcode::flat_load_dword,
        Opcode::flat_load_dwordx2,
        Opcode::flat_load_dwordx4,
        Opcode::flat_load_dwordx3,
        Opcode::flat_store_byte,
        Opcode::flat_store_byte_d16_hi,
        Opcode::flat_store_short,
        Opcode::flat_store_short_d16_hi,
        Opcode::flat_store_dword,
        Opcode::flat_store_dwordx2,
        Opcode::flat_store_dwordx4,
        Opcode::flat_store_dwordx3,
        Opcode::flat_load_ubyte_d16,
        Opcode::flat_load_ubyte_d16_hi,
        Opcode::flat_load_sbyte_d16,
        Opcode::flat_load_sbyte_d16_hi,
        Opcode::flat_load_short_d16,
        Opcode::flat_load_short_d16_hi,
        Opcode::flat_atomic_swap,
        Opcode::flat_atomic_cmpswap,
        Opcode::flat_atomic_add,
        Opcode::flat_atomic_sub,
        Opcode::flat_atomic_smin,
        Opcode::flat_atomic_umin,
        Opcode::flat_atomic_smax,
        Opcode::flat_atomic_umax,
        Opcode::flat_atomic_and,
        Opcode::flat_atomic_or,
        Opcode::flat_atomic_xor,
        Opcode::flat_atomic_inc,
        Opcode::flat_atomic_dec,
        Opcode::flat_atomic_fcmpswap,
        Opcode::flat_atomic_fmin,
        Opcode::flat_atomic_fmax,
        Opcode::flat_atomic_swap_x2,
        Opcode::flat_atomic_cmpswap_x2,
        Opcode::flat_atomic_add_x2,
        Opcode::flat_atomic_sub_x2,
        Opcode::flat_atomic_smin_x2,
        Opcode::flat_atomic_umin_x2,
        Opcode::flat_atomic_smax_x2,
        Opcode::flat_atomic_umax_x2,
        Opcode::flat_atomic_and_x2,
        Opcode::flat_atomic_or_x2,
        Opcode::flat_atomic_xor_x2,
        Opcode::flat_atomic_inc_x2,
        Opcode::flat_atomic_dec_x2,
        Opcode::flat_atomic_fcmpswap_x2,
        Opcode::flat_atomic_fmin_x2,
        Opcode::flat_atomic_fmax_x2,
        Opcode::global_load_ubyte,
        Opcode::global_load_sbyte,
        Opcode::global_load_ushort,
        Opcode::global_load_sshort,
        Opcode::global_load_dword,
        Opcode::global_load_dwordx2,
        Opcode::global_load_dwordx4,
        Opcode::global_load_dwordx3,
        Opcode::global_load_dword_addtid,
        Opcode::global_store_dword_addtid,
        Opcode::global_store_byte,
        Opcode::global_store_byte_d16_hi,
        Opcode::global_store_short,
        Opcode::global_store_short_d16_hi,
        Opcode::global_store_dword,
        Opcode::global_store_dwordx2,
        Opcode::global_store_dwordx4,
        Opcode::global_store_dwordx3,
        Opcode::global_load_ubyte_d16,
        Opcode::global_load_ubyte_d16_hi,
        Opcode::global_load_sbyte_d16,
        Opcode::global_load_sbyte_d16_hi,
        Opcode::global_load_short_d16,
        Opcode::global_load_short_d16_hi,
        Opcode::global_atomic_swap,
        Opcode::global_atomic_cmpswap,
        Opcode::global_atomic_add,
        Opcode::global_atomic_sub,
        Opcode::global_atomic_csub,
        Opcode::global_atomic_smin,
        Opcode::global_atomic_umin,
        Opcode::global_atomic_smax,
        Opcode::global_atomic_umax,
        Opcode::global_atomic_and,
        Opcode::global_atomic_or,
        Opcode::global_atomic_xor,
        Opcode::global_atomic_inc,
        Opcode::global_atomic_dec,
        Opcode::global_atomic_fcmpswap,
        Opcode::global_atomic_fmin,
        Opcode::global_atomic_fmax,
        Opcode::global_atomic_swap_x2,
        Opcode::global_atomic_cmpswap_x2,
        Opcode::global_atomic_add_x2,
        Opcode::global_atomic_sub_x2,
        Opcode::global_atomic_smin_x2,
        Opcode::global_atomic_umin_x2,
        Opcode::global_atomic_smax_x2,
        Opcode::global_atomic_umax_x2,
        Opcode::global_atomic_and_x2,
        Opcode::global_atomic_or_x2,
        Opcode::global_atomic_xor_x2,
        Opcode::global_atomic_inc_x2,
        Opcode::global_atomic_dec_x2,
        Opcode::global_atomic_fcmpswap_x2,
        Opcode::global_atomic_fmin_x2,
        Opcode::global_atomic_fmax_x2,
        Opcode::scratch_load_ubyte,
        Opcode::scratch_load_sbyte,
        Opcode::scratch_load_ushort,
        Opcode::scratch_load_sshort,
        Opcode::scratch_load_dword,
        Opcode::scratch_load_dwordx2,
        Opcode::scratch_load_dwordx4,
        Opcode::scratch_load_dwordx3,
        Opcode::scratch_store_byte,
        Opcode::scratch_store_byte_d16_hi,
        Opcode::scratch_store_short,
        Opcode::scratch_store_short_d16_hi,
        Opcode::scratch_store_dword,
        Opcode::scratch_store_dwordx2,
        Opcode::scratch_store_dwordx4,
        Opcode::scratch_store_dwordx3,
        Opcode::scratch_load_ubyte_d16,
        Opcode::scratch_load_ubyte_d16_hi,
        Opcode::scratch_load_sbyte_d16,
        Opcode::scratch_load_sbyte_d16_hi,
        Opcode::scratch_load_short_d16,
        Opcode::scratch_load_short_d16_hi,
        Opcode::image_load,
        Opcode::image_load_mip,
        Opcode::image_load_pck,
        Opcode::image_load_pck_sgn,
        Opcode::image_load_mip_pck,
        Opcode::image_load_mip_pck_sgn,
        Opcode::image_store,
        Opcode::image_store_mip,
        Opcode::image_store_pck,
        Opcode::image_store_mip_pck,
        Opcode::image_get_resinfo,
        Opcode::image_atomic_swap,
        Opcode::image_atomic_cmpswap,
        Opcode::image_atomic_add,
        Opcode::image_atomic_sub,
        Opcode::image_atomic_smin,
        Opcode::image_atomic_umin,
        Opcode::image_atomic_smax,
        Opcode::image_atomic_umax,
        Opcode::image_atomic_and,
        Opcode::image_atomic_or,
        Opcode::image_atomic_xor,
        Opcode::image_atomic_inc,
        Opcode::image_atomic_dec,
        Opcode::image_atomic_fcmpswap,
        Opcode::image_atomic_fmin,
        Opcode::image_atomic_fmax,
        Opcode::image_sample,
        Opcode::image_sample_cl,
        Opcode::image_sample_d,
        Opcode::image_sample_d_cl,
        Opcode::image_sample_l,
        Opcode::image_sample_b,
        Opcode::image_sample_b_cl,
        Opcode::image_sample_lz,
        Opcode::image_sample_c,
        Opcode::image_sample_c_cl,
        Opcode::image_sample_c_d,
        Opcode::image_sample_c_d_cl,
        Opcode::image_sample_c_l,
        Opcode::image_sample_c_b,
        Opcode::image_sample_c_b_cl,
        Opcode::image_sample_c_lz,
        Opcode::image_sample_o,
        Opcode::image_sample_cl_o,
        Opcode::image_sample_d_o,
        Opcode::image_sample_d_cl_o,
        Opcode::image_sample_l_o,
        Opcode::image_sample_b_o,
        Opcode::image_sample_b_cl_o,
        Opcode::image_sample_lz_o,
        Opcode::image_sample_c_o,
        Opcode::image_sample_c_cl_o,
        Opcode::image_sample_c_d_o,
        Opcode::image_sample_c_d_cl_o,
        Opcode::image_sample_c_l_o,
        Opcode::image_sample_c_b_o,
        Opcode::image_sample_c_b_cl_o,
        Opcode::image_sample_c_lz_o,
        Opcode::image_gather4,
        Opcode::image_gather4_cl,
        Opcode::image_gather4_l,
        Opcode::image_gather4_b,
        Opcode::image_gather4_b_cl,
        Opcode::image_gather4_lz,
        Opcode::image_gather4_c,
        Opcode::image_gather4_c_cl,
        Opcode::image_gather4_c_l,
        Opcode::image_gather4_c_b,
        Opcode::image_gather4_c_b_cl,
        Opcode::image_gather4_c_lz,
        Opcode::image_gather4_o,
        Opcode::image_gather4_cl_o,
        Opcode::image_gather4_l_o,
        Opcode::image_gather4_b_o,
        Opcode::image_gather4_b_cl_o,
        Opcode::image_gather4_lz_o,
        Opcode::image_gather4_c_o,
        Opcode::image_gather4_c_cl_o,
        Opcode::image_gather4_c_l_o,
        Opcode::image_gather4_c_b_o,
        Opcode::image_gather4_c_b_cl_o,
        Opcode::image_gather4_c_lz_o,
        Opcode::image_get_lod,
        Opcode::image_gather4h,
        Opcode::image_sample_cd,
        Opcode::image_sample_cd_cl,
        Opcode::image_sample_c_cd,
        Opcode::image_sample_c_cd_cl,
        Opcode::image_sample_cd_o,
        Opcode::image_sample_cd_cl_o,
        Opcode::image_sample_c_cd_o,
        Opcode::image_sample_c_cd_cl_o,
        Opcode::image_msaa_load,
        Opcode::image_sample_d_g16,
        Opcode::image_sample_d_cl_g16,
        Opcode::image_sample_c_d_g16,
        Opcode::image_sample_c_d_cl_g16,
        Opcode::image_sample_d_o_g16,
        Opcode::image_sample_d_cl_o_g16,
        Opcode::image_sample_c_d_o_g16,
        Opcode::image_sample_c_d_cl_o_g16,
        Opcode::image_bvh_intersect_ray,
        Opcode::image_bvh64_intersect_ray,
        Opcode::image_sample_cd_g16,
        Opcode::image_sample_cd_cl_g16,
        Opcode::image_sample_c_cd_g16,
        Opcode::image_sample_c_cd_cl_g16,
        Opcode::image_sample_cd_o_g16,
        Opcode::image_sample_cd_cl_o_g16,
        Opcode::image_sample_c_cd_o_g16,
        Opcode::image_sample_c_cd_cl_o_g16,
        Opcode::image_gather4h_pck,
        Opcode::image_gather8h_pck,
        Opcode::image_load_by2,
        Opcode::image_load_by4,
        Opcode::image_load_mip_by2,
        Opcode::image_load_mip_by4,
        Opcode::image_store_by2,
        Opcode::image_store_by4,
        Opcode::image_store_mip_by2,
        Opcode::image_store_mip_by4,
        Opcode::image_load_pck2,
        Opcode::image_load_pck4,
        Opcode::image_load_mip_pck2,
        Opcode::image_load_mip_pck4,
        Opcode::image_store_pck2,
        Opcode::image_store_pck4,
        Opcode::image_store_mip_pck2,
        Opcode::image_store_mip_pck4,
    ];

    /// (family, opcode number) of each opcode, in table order.
    pub(crate) const KEYS: [(Family, u16); 1159] = [
        (Family::SOP2, 0),
        (Family::SOP2, 1),
        (Family::SOP2, 2),
        (Family::SOP2, 3),
        (Family::SOP2, 4),
        (Family::SOP2, 5),
        (Family::SOP2, 6),
        (Family::SOP2, 7),
        (Family::SOP2, 8),
        (Family::SOP2, 9),
        (Family::SOP2, 10),
        (Family::SOP2, 11),
        (Family::SOP2, 14),
        (Family::SOP2, 15),
        (Family::SOP2, 16),
        (Family::SOP2, 17),
        (Family::SOP2, 18),
        (Family::SOP2, 19),
        (Family::SOP2, 20),
        (Family::SOP2, 21),
        (Family::SOP2, 22),
        (Family::SOP2, 23),
        (Family::SOP2, 24),
        (Family::SOP2, 25),
        (Family::SOP2, 26),
        (Family::SOP2, 27),
        (Family::SOP2, 28),
        (Family::SOP2, 29),
        (Family::SOP2, 30),
        (Family::SOP2, 31),
        (Family::SOP2, 32),
        (Family::SOP2, 33),
        (Family::SOP2, 34),
        (Family::SOP2, 35),
        (Family::SOP2, 36),
        (Family::SOP2, 37),
        (Family::SOP2, 38),
        (Family::SOP2, 39),
        (Family::SOP2, 40),
        (Family::SOP2, 41),
        (Family::SOP2, 42),
        (Family::SOP2, 44),
        (Family::SOP2, 46),
        (Family::SOP2, 47),
        (Family::SOP2, 48),
        (Family::SOP2, 49),
        (Family::SOP2, 50),
        (Family::SOP2, 51),
        (Family::SOP2, 52),
        (Family::SOP2, 53),
        (Family::SOP2, 54),
        (Family::SOPK, 0),
        (Family::SOPK, 1),
        (Family::SOPK, 2),
        (Family::SOPK, 3),
        (Family::SOPK, 4),
        (Family::SOPK, 5),
        (Family::SOPK, 6),
        (Family::SOPK, 7),
        (Family::SOPK, 8),
        (Family::SOPK, 9),
        (Family::SOPK, 10),
        (Family::SOPK, 11),
        (Family::SOPK, 12),
        (Family::SOPK, 13),
        (Family::SOPK, 14),
        (Family::SOPK, 15),
        (Family::SOPK, 16),
        (Family::SOPK, 18),
        (Family::SOPK, 19),
        (Family::SOPK, 21),
        (Family::SOPK, 22),
        (Family::SOPK, 23),
        (Family::SOPK, 24),
        (Family::SOPK, 25),
        (Family::SOPK, 26),
        (Family::SOPK, 27),
        (Family::SOPK, 28),
        (Family::SOP1, 3),
        (Family::SOP1, 4),
        (Family::SOP1, 5),
        (Family::SOP1, 6),
        (Family::SOP1, 7),
        (Family::SOP1, 8),
        (Family::SOP1, 9),
        (Family::SOP1, 10),
        (Family::SOP1, 11),
        (Family::SOP1, 12),
        (Family::SOP1, 13),
        (Family::SOP1, 14),
        (Family::SOP1, 15),
        (Family::SOP1, 16),
        (Family::SOP1, 17),
        (Family::SOP1, 18),
        (Family::SOP1, 19),
        (Family::SOP1, 20),
        (Family::SOP1, 21),
        (Family::SOP1, 22),
        (Family::SOP1, 23),
        (Family::SOP1, 24),
        (Family::SOP1, 25),
        (Family::SOP1, 26),
        (Family::SOP1, 27),
        (Family::SOP1, 28),
        (Family::SOP1, 29),
        (Family::SOP1, 30),
        (Family::SOP1, 31),
        (Family::SOP1, 32),
        (Family::SOP1, 33),
        (Family::SOP1, 34),
        (Family::SOP1, 36),
        (Family::SOP1, 37),
        (Family::SOP1, 38),
        (Family::SOP1, 39),
        (Family::SOP1, 40),
        (Family::SOP1, 41),
        (Family::SOP1, 42),
        (Family::SOP1, 43),
        (Family::SOP1, 44),
        (Family::SOP1, 45),
        (Family::SOP1, 46),
        (Family::SOP1, 47),
        (Family::SOP1, 48),
        (Family::SOP1, 49),
        (Family::SOP1, 52),
        (Family::SOP1, 55),
        (Family::SOP1, 56),
        (Family::SOP1, 57),
        (Family::SOP1, 58),
        (Family::SOP1, 59),
        (Family::SOP1, 60),
        (Family::SOP1, 61),
        (Family::SOP1, 62),
        (Family::SOP1, 63),
        (Family::SOP1, 64),
        (Family::SOP1, 65),
        (Family::SOP1, 66),
        (Family::SOP1, 67),
        (Family::SOP1, 68),
        (Family::SOP1, 69),
        (Family::SOP1, 70),
        (Family::SOP1, 71),
        (Family::SOP1, 73),
        (Family::SOPC, 0),
        (Family::SOPC, 1),
        (Family::SOPC, 2),
        (Family::SOPC, 3),
        (Family::SOPC, 4),
        (Family::SOPC, 5),
        (Family::SOPC, 6),
        (Family::SOPC, 7),
        (Family::SOPC, 8),
        (Family::SOPC, 9),
        (Family::SOPC, 10),
        (Family::SOPC, 11),
        (Family::SOPC, 12),
        (Family::SOPC, 13),
        (Family::SOPC, 14),
        (Family::SOPC, 15),
        (Family::SOPC, 18),
        (Family::SOPC, 19),
        (Family::SOPP, 0),
        (Family::SOPP, 1),
        (Family::SOPP, 2),
        (Family::SOPP, 3),
        (Family::SOPP, 4),
        (Family::SOPP, 5),
        (Family::SOPP, 6),
        (Family::SOPP, 7),
        (Family::SOPP, 8),
        (Family::SOPP, 9),
        (Family::SOPP, 10),
        (Family::SOPP, 11),
        (Family::SOPP, 12),
        (Family::SOPP, 13),
        (Family::SOPP, 14),
        (Family::SOPP, 15),
        (Family::SOPP, 16),
        (Family::SOPP, 17),
        (Family::SOPP, 18),
        (Family::SOPP, 19),
        (Family::SOPP, 20),
        (Family::SOPP, 21),
        (Family::SOPP, 22),
        (Family::SOPP, 23),
        (Family::SOPP, 24),
        (Family::SOPP, 25),
        (Family::SOPP, 26),
        (Family::SOPP, 27),
        (Family::SOPP, 30),
        (Family::SOPP, 31),
        (Family::SOPP, 32),
        (Family::SOPP, 33),
        (Family::SOPP, 34),
        (Family::SOPP, 35),
        (Family::SOPP, 36),
        (Family::SOPP, 37),
        (Family::SOPP, 40),
        (Family::SMEM, 0),
        (Family::SMEM, 1),
        (Family::SMEM, 2),
        (Family::SMEM, 3),
        (Family::SMEM, 4),
        (Family::SMEM, 8),
        (Family::SMEM, 9),
        (Family::SMEM, 10),
        (Family::SMEM, 11),
        (Family::SMEM, 12),
        (Family::SMEM, 31),
        (Family::SMEM, 32),
        (Family::SMEM, 36),
        (Family::SMEM, 37),
        (Family::SMEM, 38),
        (Family::SMEM, 39),
        (Family::VOP1, 0),
        (Family::VOP1, 1),
        (Family::VOP1, 2),
        (Family::VOP1, 3),
        (Family::VOP1, 4),
        (Family::VOP1, 5),
        (Family::VOP1, 6),
        (Family::VOP1, 7),
        (Family::VOP1, 8),
        (Family::VOP1, 10),
        (Family::VOP1, 11),
        (Family::VOP1, 12),
        (Family::VOP1, 13),
        (Family::VOP1, 14),
        (Family::VOP1, 15),
        (Family::VOP1, 16),
        (Family::VOP1, 17),
        (Family::VOP1, 18),
        (Family::VOP1, 19),
        (Family::VOP1, 20),
        (Family::VOP1, 21),
        (Family::VOP1, 22),
        (Family::VOP1, 23),
        (Family::VOP1, 24),
        (Family::VOP1, 25),
        (Family::VOP1, 26),
        (Family::VOP1, 27),
        (Family::VOP1, 32),
        (Family::VOP1, 33),
        (Family::VOP1, 34),
        (Family::VOP1, 35),
        (Family::VOP1, 36),
        (Family::VOP1, 37),
        (Family::VOP1, 39),
        (Family::VOP1, 42),
        (Family::VOP1, 43),
        (Family::VOP1, 46),
        (Family::VOP1, 47),
        (Family::VOP1, 49),
        (Family::VOP1, 51),
        (Family::VOP1, 52),
        (Family::VOP1, 53),
        (Family::VOP1, 54),
        (Family::VOP1, 55),
        (Family::VOP1, 56),
        (Family::VOP1, 57),
        (Family::VOP1, 58),
        (Family::VOP1, 59),
        (Family::VOP1, 60),
        (Family::VOP1, 61),
        (Family::VOP1, 62),
        (Family::VOP1, 63),
        (Family::VOP1, 64),
        (Family::VOP1, 65),
        (Family::VOP1, 66),
        (Family::VOP1, 67),
        (Family::VOP1, 68),
        (Family::VOP1, 72),
        (Family::VOP1, 80),
        (Family::VOP1, 81),
        (Family::VOP1, 82),
        (Family::VOP1, 83),
        (Family::VOP1, 84),
        (Family::VOP1, 85),
        (Family::VOP1, 86),
        (Family::VOP1, 87),
        (Family::VOP1, 88),
        (Family::VOP1, 89),
        (Family::VOP1, 90),
        (Family::VOP1, 91),
        (Family::VOP1, 92),
        (Family::VOP1, 93),
        (Family::VOP1, 94),
        (Family::VOP1, 95),
        (Family::VOP1, 96),
        (Family::VOP1, 97),
        (Family::VOP1, 98),
        (Family::VOP1, 99),
        (Family::VOP1, 100),
        (Family::VOP1, 101),
        (Family::VOP1, 104),
        (Family::VOP2, 1),
        (Family::VOP2, 2),
        (Family::VOP2, 3),
        (Family::VOP2, 4),
        (Family::VOP2, 5),
        (Family::VOP2, 6),
        (Family::VOP2, 7),
        (Family::VOP2, 8),
        (Family::VOP2, 9),
        (Family::VOP2, 10),
        (Family::VOP2, 11),
        (Family::VOP2, 12),
        (Family::VOP2, 13),
        (Family::VOP2, 15),
        (Family::VOP2, 16),
        (Family::VOP2, 17),
        (Family::VOP2, 18),
        (Family::VOP2, 19),
        (Family::VOP2, 20),
        (Family::VOP2, 22),
        (Family::VOP2, 24),
        (Family::VOP2, 26),
        (Family::VOP2, 27),
        (Family::VOP2, 28),
        (Family::VOP2, 29),
        (Family::VOP2, 30),
        (Family::VOP2, 37),
        (Family::VOP2, 38),
        (Family::VOP2, 39),
        (Family::VOP2, 40),
        (Family::VOP2, 41),
        (Family::VOP2, 42),
        (Family::VOP2, 43),
        (Family::VOP2, 44),
        (Family::VOP2, 45),
        (Family::VOP2, 47),
        (Family::VOP2, 50),
        (Family::VOP2, 51),
        (Family::VOP2, 52),
        (Family::VOP2, 53),
        (Family::VOP2, 54),
        (Family::VOP2, 55),
        (Family::VOP2, 56),
        (Family::VOP2, 57),
        (Family::VOP2, 58),
        (Family::VOP2, 59),
        (Family::VOP2, 60),
        (Family::VOPC, 0),
        (Family::VOPC, 1),
        (Family::VOPC, 2),
        (Family::VOPC, 3),
        (Family::VOPC, 4),
        (Family::VOPC, 5),
        (Family::VOPC, 6),
        (Family::VOPC, 7),
        (Family::VOPC, 8),
        (Family::VOPC, 9),
        (Family::VOPC, 10),
        (Family::VOPC, 11),
        (Family::VOPC, 12),
        (Family::VOPC, 13),
        (Family::VOPC, 14),
        (Family::VOPC, 15),
        (Family::VOPC, 16),
        (Family::VOPC, 17),
        (Family::VOPC, 18),
        (Family::VOPC, 19),
        (Family::VOPC, 20),
        (Family::VOPC, 21),
        (Family::VOPC, 22),
        (Family::VOPC, 23),
        (Family::VOPC, 24),
        (Family::VOPC, 25),
        (Family::VOPC, 26),
        (Family::VOPC, 27),
        (Family::VOPC, 28),
        (Family::VOPC, 29),
        (Family::VOPC, 30),
        (Family::VOPC, 31),
        (Family::VOPC, 32),
        (Family::VOPC, 33),
        (Family::VOPC, 34),
        (Family::VOPC, 35),
        (Family::VOPC, 36),
        (Family::VOPC, 37),
        (Family::VOPC, 38),
        (Family::VOPC, 39),
        (Family::VOPC, 40),
        (Family::VOPC, 41),
        (Family::VOPC, 42),
        (Family::VOPC, 43),
        (Family::VOPC, 44),
        (Family::VOPC, 45),
        (Family::VOPC, 46),
        (Family::VOPC, 47),
        (Family::VOPC, 48),
        (Family::VOPC, 49),
        (Family::VOPC, 50),
        (Family::VOPC, 51),
        (Family::VOPC, 52),
        (Family::VOPC, 53),
        (Family::VOPC, 54),
        (Family::VOPC, 55),
        (Family::VOPC, 56),
        (Family::VOPC, 57),
        (Family::VOPC, 58),
        (Family::VOPC, 59),
        (Family::VOPC, 60),
        (Family::VOPC, 61),
        (Family::VOPC, 62),
        (Family::VOPC, 63),
        (Family::VOPC, 128),
        (Family::VOPC, 129),
        (Family::VOPC, 130),
        (Family::VOPC, 131),
        (Family::VOPC, 132),
        (Family::VOPC, 133),
        (Family::VOPC, 134),
        (Family::VOPC, 135),
        (Family::VOPC, 136),
        (Family::VOPC, 137),
        (Family::VOPC, 138),
        (Family::VOPC, 139),
        (Family::VOPC, 140),
        (Family::VOPC, 141),
        (Family::VOPC, 142),
        (Family::VOPC, 143),
        (Family::VOPC, 144),
        (Family::VOPC, 145),
        (Family::VOPC, 146),
        (Family::VOPC, 147),
        (Family::VOPC, 148),
        (Family::VOPC, 149),
        (Family::VOPC, 150),
        (Family::VOPC, 151),
        (Family::VOPC, 152),
        (Family::VOPC, 153),
        (Family::VOPC, 154),
        (Family::VOPC, 155),
        (Family::VOPC, 156),
        (Family::VOPC, 157),
        (Family::VOPC, 158),
        (Family::VOPC, 159),
        (Family::VOPC, 160),
        (Family::VOPC, 161),
        (Family::VOPC, 162),
        (Family::VOPC, 163),
        (Family::VOPC, 164),
        (Family::VOPC, 165),
        (Family::VOPC, 166),
        (Family::VOPC, 167),
        (Family::VOPC, 168),
        (Family::VOPC, 169),
        (Family::VOPC, 170),
        (Family::VOPC, 171),
        (Family::VOPC, 172),
        (Family::VOPC, 173),
        (Family::VOPC, 174),
        (Family::VOPC, 176),
        (Family::VOPC, 177),
        (Family::VOPC, 178),
        (Family::VOPC, 179),
        (Family::VOPC, 180),
        (Family::VOPC, 181),
        (Family::VOPC, 182),
        (Family::VOPC, 183),
        (Family::VOPC, 184),
        (Family::VOPC, 185),
        (Family::VOPC, 186),
        (Family::VOPC, 187),
        (Family::VOPC, 188),
        (Family::VOPC, 189),
        (Family::VOPC, 190),
        (Family::VOPC, 192),
        (Family::VOPC, 193),
        (Family::VOPC, 194),
        (Family::VOPC, 195),
        (Family::VOPC, 196),
        (Family::VOPC, 197),
        (Family::VOPC, 198),
        (Family::VOPC, 199),
        (Family::VOPC, 200),
        (Family::VOPC, 201),
        (Family::VOPC, 202),
        (Family::VOPC, 203),
        (Family::VOPC, 204),
        (Family::VOPC, 205),
        (Family::VOPC, 206),
        (Family::VOPC, 207),
        (Family::VOPC, 208),
        (Family::VOPC, 209),
        (Family::VOPC, 210),
        (Family::VOPC, 211),
        (Family::VOPC, 212),
        (Family::VOPC, 213),
        (Family::VOPC, 214),
        (Family::VOPC, 215),
        (Family::VOPC, 216),
        (Family::VOPC, 217),
        (Family::VOPC, 218),
        (Family::VOPC, 219),
        (Family::VOPC, 220),
        (Family::VOPC, 221),
        (Family::VOPC, 222),
        (Family::VOPC, 223),
        (Family::VOPC, 224),
        (Family::VOPC, 225),
        (Family::VOPC, 226),
        (Family::VOPC, 227),
        (Family::VOPC, 228),
        (Family::VOPC, 229),
        (Family::VOPC, 230),
        (Family::VOPC, 231),
        (Family::VOPC, 232),
        (Family::VOPC, 233),
        (Family::VOPC, 234),
        (Family::VOPC, 235),
        (Family::VOPC, 236),
        (Family::VOPC, 237),
        (Family::VOPC, 238),
        (Family::VOPC, 239),
        (Family::VOPC, 240),
        (Family::VOPC, 241),
        (Family::VOPC, 242),
        (Family::VOPC, 243),
        (Family::VOPC, 244),
        (Family::VOPC, 245),
        (Family::VOPC, 246),
        (Family::VOPC, 247),
        (Family::VOPC, 248),
        (Family::VOPC, 249),
        (Family::VOPC, 250),
        (Family::VOPC, 251),
        (Family::VOPC, 252),
        (Family::VOPC, 253),
        (Family::VOPC, 254),
        (Family::VOPC, 255),
        (Family::VOP3, 320),
        (Family::VOP3, 322),
        (Family::VOP3, 323),
        (Family::VOP3, 324),
        (Family::VOP3, 325),
        (Family::VOP3, 326),
        (Family::VOP3, 327),
        (Family::VOP3, 328),
        (Family::VOP3, 329),
        (Family::VOP3, 330),
        (Family::VOP3, 331),
        (Family::VOP3, 332),
        (Family::VOP3, 333),
        (Family::VOP3, 334),
        (Family::VOP3, 335),
        (Family::VOP3, 336),
        (Family::VOP3, 337),
        (Family::VOP3, 338),
        (Family::VOP3, 339),
        (Family::VOP3, 340),
        (Family::VOP3, 341),
        (Family::VOP3, 342),
        (Family::VOP3, 343),
        (Family::VOP3, 344),
        (Family::VOP3, 345),
        (Family::VOP3, 346),
        (Family::VOP3, 347),
        (Family::VOP3, 348),
        (Family::VOP3, 349),
        (Family::VOP3, 350),
        (Family::VOP3, 351),
        (Family::VOP3, 352),
        (Family::VOP3, 356),
        (Family::VOP3, 357),
        (Family::VOP3, 358),
        (Family::VOP3, 359),
        (Family::VOP3, 360),
        (Family::VOP3, 361),
        (Family::VOP3, 362),
        (Family::VOP3, 364),
        (Family::VOP3, 365),
        (Family::VOP3, 366),
        (Family::VOP3, 367),
        (Family::VOP3, 368),
        (Family::VOP3, 369),
        (Family::VOP3, 370),
        (Family::VOP3, 371),
        (Family::VOP3, 372),
        (Family::VOP3, 373),
        (Family::VOP3, 374),
        (Family::VOP3, 375),
        (Family::VOP3, 376),
        (Family::VOP3, 512),
        (Family::VOP3, 513),
        (Family::VOP3, 514),
        (Family::VOP3, 767),
        (Family::VOP3, 768),
        (Family::VOP3, 769),
        (Family::VOP3, 771),
        (Family::VOP3, 772),
        (Family::VOP3, 773),
        (Family::VOP3, 775),
        (Family::VOP3, 776),
        (Family::VOP3, 777),
        (Family::VOP3, 778),
        (Family::VOP3, 779),
        (Family::VOP3, 780),
        (Family::VOP3, 781),
        (Family::VOP3, 782),
        (Family::VOP3, 783),
        (Family::VOP3, 784),
        (Family::VOP3, 785),
        (Family::VOP3, 786),
        (Family::VOP3, 787),
        (Family::VOP3, 788),
        (Family::VOP3, 793),
        (Family::VOP3, 832),
        (Family::VOP3, 834),
        (Family::VOP3, 835),
        (Family::VOP3, 836),
        (Family::VOP3, 837),
        (Family::VOP3, 838),
        (Family::VOP3, 839),
        (Family::VOP3, 843),
        (Family::VOP3, 849),
        (Family::VOP3, 850),
        (Family::VOP3, 851),
        (Family::VOP3, 852),
        (Family::VOP3, 853),
        (Family::VOP3, 854),
        (Family::VOP3, 855),
        (Family::VOP3, 856),
        (Family::VOP3, 857),
        (Family::VOP3, 858),
        (Family::VOP3, 862),
        (Family::VOP3, 863),
        (Family::VOP3, 864),
        (Family::VOP3, 865),
        (Family::VOP3, 866),
        (Family::VOP3, 867),
        (Family::VOP3, 868),
        (Family::VOP3, 869),
        (Family::VOP3, 870),
        (Family::VOP3, 872),
        (Family::VOP3, 873),
        (Family::VOP3, 874),
        (Family::VOP3, 875),
        (Family::VOP3, 877),
        (Family::VOP3, 879),
        (Family::VOP3, 881),
        (Family::VOP3, 882),
        (Family::VOP3, 883),
        (Family::VOP3, 885),
        (Family::VOP3, 886),
        (Family::VOP3, 887),
        (Family::VOP3, 888),
        (Family::VOP3, 895),
        (Family::VOP3P, 0),
        (Family::VOP3P, 1),
        (Family::VOP3P, 2),
        (Family::VOP3P, 3),
        (Family::VOP3P, 4),
        (Family::VOP3P, 5),
        (Family::VOP3P, 6),
        (Family::VOP3P, 7),
        (Family::VOP3P, 8),
        (Family::VOP3P, 9),
        (Family::VOP3P, 10),
        (Family::VOP3P, 11),
        (Family::VOP3P, 12),
        (Family::VOP3P, 13),
        (Family::VOP3P, 14),
        (Family::VOP3P, 15),
        (Family::VOP3P, 16),
        (Family::VOP3P, 17),
        (Family::VOP3P, 18),
        (Family::VOP3P, 19),
        (Family::VOP3P, 20),
        (Family::VOP3P, 21),
        (Family::VOP3P, 22),
        (Family::VOP3P, 23),
        (Family::VOP3P, 24),
        (Family::VOP3P, 25),
        (Family::VOP3P, 32),
        (Family::VOP3P, 33),
        (Family::VOP3P, 34),
        (Family::VINTRP, 0),
        (Family::VINTRP, 1),
        (Family::VINTRP, 2),
        (Family::DS, 0),
        (Family::DS, 1),
        (Family::DS, 2),
        (Family::DS, 3),
        (Family::DS, 4),
        (Family::DS, 5),
        (Family::DS, 6),
        (Family::DS, 7),
        (Family::DS, 8),
        (Family::DS, 9),
        (Family::DS, 10),
        (Family::DS, 11),
        (Family::DS, 12),
        (Family::DS, 13),
        (Family::DS, 14),
        (Family::DS, 15),
        (Family::DS, 16),
        (Family::DS, 17),
        (Family::DS, 18),
        (Family::DS, 19),
        (Family::DS, 20),
        (Family::DS, 21),
        (Family::DS, 24),
        (Family::DS, 25),
        (Family::DS, 26),
        (Family::DS, 27),
        (Family::DS, 28),
        (Family::DS, 29),
        (Family::DS, 30),
        (Family::DS, 31),
        (Family::DS, 32),
        (Family::DS, 33),
        (Family::DS, 34),
        (Family::DS, 35),
        (Family::DS, 36),
        (Family::DS, 37),
        (Family::DS, 38),
        (Family::DS, 39),
        (Family::DS, 40),
        (Family::DS, 41),
        (Family::DS, 42),
        (Family::DS, 43),
        (Family::DS, 44),
        (Family::DS, 45),
        (Family::DS, 46),
        (Family::DS, 47),
        (Family::DS, 48),
        (Family::DS, 49),
        (Family::DS, 50),
        (Family::DS, 51),
        (Family::DS, 52),
        (Family::DS, 53),
        (Family::DS, 54),
        (Family::DS, 55),
        (Family::DS, 56),
        (Family::DS, 57),
        (Family::DS, 58),
        (Family::DS, 59),
        (Family::DS, 60),
        (Family::DS, 61),
        (Family::DS, 62),
        (Family::DS, 63),
        (Family::DS, 64),
        (Family::DS, 65),
        (Family::DS, 66),
        (Family::DS, 67),
        (Family::DS, 68),
        (Family::DS, 69),
        (Family::DS, 70),
        (Family::DS, 71),
        (Family::DS, 72),
        (Family::DS, 73),
        (Family::DS, 74),
        (Family::DS, 75),
        (Family::DS, 76),
        (Family::DS, 77),
        (Family::DS, 78),
        (Family::DS, 79),
        (Family::DS, 80),
        (Family::DS, 81),
        (Family::DS, 82),
        (Family::DS, 83),
        (Family::DS, 85),
        (Family::DS, 96),
        (Family::DS, 97),
        (Family::DS, 98),
        (Family::DS, 99),
        (Family::DS, 100),
        (Family::DS, 101),
        (Family::DS, 102),
        (Family::DS, 103),
        (Family::DS, 104),
        (Family::DS, 105),
        (Family::DS, 106),
        (Family::DS, 107),
        (Family::DS, 108),
        (Family::DS, 109),
        (Family::DS, 110),
        (Family::DS, 111),
        (Family::DS, 112),
        (Family::DS, 113),
        (Family::DS, 114),
        (Family::DS, 115),
        (Family::DS, 118),
        (Family::DS, 119),
        (Family::DS, 120),
        (Family::DS, 126),
        (Family::DS, 160),
        (Family::DS, 161),
        (Family::DS, 162),
        (Family::DS, 163),
        (Family::DS, 164),
        (Family::DS, 165),
        (Family::DS, 166),
        (Family::DS, 167),
        (Family::DS, 176),
        (Family::DS, 177),
        (Family::DS, 178),
        (Family::DS, 179),
        (Family::DS, 222),
        (Family::DS, 223),
        (Family::DS, 254),
        (Family::DS, 255),
        (Family::EXP, 0),
        (Family::MUBUF, 0),
        (Family::MUBUF, 1),
        (Family::MUBUF, 2),
        (Family::MUBUF, 3),
        (Family::MUBUF, 4),
        (Family::MUBUF, 5),
        (Family::MUBUF, 6),
        (Family::MUBUF, 7),
        (Family::MUBUF, 8),
        (Family::MUBUF, 9),
        (Family::MUBUF, 10),
        (Family::MUBUF, 11),
        (Family::MUBUF, 12),
        (Family::MUBUF, 13),
        (Family::MUBUF, 14),
        (Family::MUBUF, 15),
        (Family::MUBUF, 24),
        (Family::MUBUF, 25),
        (Family::MUBUF, 26),
        (Family::MUBUF, 27),
        (Family::MUBUF, 28),
        (Family::MUBUF, 29),
        (Family::MUBUF, 30),
        (Family::MUBUF, 31),
        (Family::MUBUF, 32),
        (Family::MUBUF, 33),
        (Family::MUBUF, 34),
        (Family::MUBUF, 35),
        (Family::MUBUF, 36),
        (Family::MUBUF, 37),
        (Family::MUBUF, 38),
        (Family::MUBUF, 39),
        (Family::MUBUF, 48),
        (Family::MUBUF, 49),
        (Family::MUBUF, 50),
        (Family::MUBUF, 51),
        (Family::MUBUF, 52),
        (Family::MUBUF, 53),
        (Family::MUBUF, 54),
        (Family::MUBUF, 55),
        (Family::MUBUF, 56),
        (Family::MUBUF, 57),
        (Family::MUBUF, 58),
        (Family::MUBUF, 59),
        (Family::MUBUF, 60),
        (Family::MUBUF, 61),
        (Family::MUBUF, 62),
        (Family::MUBUF, 63),
        (Family::MUBUF, 64),
        (Family::MUBUF, 80),
        (Family::MUBUF, 81),
        (Family::MUBUF, 82),
        (Family::MUBUF, 83),
        (Family::MUBUF, 85),
        (Family::MUBUF, 86),
        (Family::MUBUF, 87),
        (Family::MUBUF, 88),
        (Family::MUBUF, 89),
        (Family::MUBUF, 90),
        (Family::MUBUF, 91),
        (Family::MUBUF, 92),
        (Family::MUBUF, 93),
        (Family::MUBUF, 94),
        (Family::MUBUF, 95),
        (Family::MUBUF, 96),
        (Family::MUBUF, 113),
        (Family::MUBUF, 114),
        (Family::MUBUF, 128),
        (Family::MUBUF, 129),
        (Family::MUBUF, 130),
        (Family::MUBUF, 131),
        (Family::MUBUF, 132),
        (Family::MUBUF, 133),
        (Family::MUBUF, 134),
        (Family::MUBUF, 135),
        (Family::MTBUF, 0),
        (Family::MTBUF, 1),
        (Family::MTBUF, 2),
        (Family::MTBUF, 3),
        (Family::MTBUF, 4),
        (Family::MTBUF, 5),
        (Family::MTBUF, 6),
        (Family::MTBUF, 7),
        (Family::MTBUF, 8),
        (Family::MTBUF, 9),
        (Family::MTBUF, 10),
        (Family::MTBUF, 11),
        (Family::MTBUF, 12),
        (Family::MTBUF, 13),
        (Family::MTBUF, 14),
        (Family::MTBUF, 15),
        (Family::FLAT, 8),
        (Family::FLAT, 9),
        (Family::FLAT, 10),
        (Family::FLAT, 11),
        (Family::FLAT, 12),
        (Family::FLAT, 13),
        (Family::FLAT, 14),
        (Family::FLAT, 15),
        (Family::FLAT, 24),
        (Family::FLAT, 25),
        (Family::FLAT, 26),
        (Family::FLAT, 27),
        (Family::FLAT, 28),
        (Family::FLAT, 29),
        (Family::FLAT, 30),
        (Family::FLAT, 31),
        (Family::FLAT, 32),
        (Family::FLAT, 33),
        (Family::FLAT, 34),
        (Family::FLAT, 35),
        (Family::FLAT, 36),
        (Family::FLAT, 37),
        (Family::FLAT, 48),
        (Family::FLAT, 49),
        (Family::FLAT, 50),
        (Family::FLAT, 51),
        (Family::FLAT, 53),
        (Family::FLAT, 54),
        (Family::FLAT, 55),
        (Family::FLAT, 56),
        (Family::FLAT, 57),
        (Family::FLAT, 58),
        (Family::FLAT, 59),
        (Family::FLAT, 60),
        (Family::FLAT, 61),
        (Family::FLAT, 62),
        (Family::FLAT, 63),
        (Family::FLAT, 64),
        (Family::FLAT, 80),
        (Family::FLAT, 81),
        (Family::FLAT, 82),
        (Family::FLAT, 83),
        (Family::FLAT, 85),
        (Family::FLAT, 86),
        (Family::FLAT, 87),
        (Family::FLAT, 88),
        (Family::FLAT, 89),
        (Family::FLAT, 90),
        (Family::FLAT, 91),
        (Family::FLAT, 92),
        (Family::FLAT, 93),
        (Family::FLAT, 94),
        (Family::FLAT, 95),
        (Family::FLAT, 96),
        (Family::GLOBAL, 8),
        (Family::GLOBAL, 9),
        (Family::GLOBAL, 10),
        (Family::GLOBAL, 11),
        (Family::GLOBAL, 12),
        (Family::GLOBAL, 13),
        (Family::GLOBAL, 14),
        (Family::GLOBAL, 15),
        (Family::GLOBAL, 22),
        (Family::GLOBAL, 23),
        (Family::GLOBAL, 24),
        (Family::GLOBAL, 25),
        (Family::GLOBAL, 26),
        (Family::GLOBAL, 27),
        (Family::GLOBAL, 28),
        (Family::GLOBAL, 29),
        (Family::GLOBAL, 30),
        (Family::GLOBAL, 31),
        (Family::GLOBAL, 32),
        (Family::GLOBAL, 33),
        (Family::GLOBAL, 34),
        (Family::GLOBAL, 35),
        (Family::GLOBAL, 36),
        (Family::GLOBAL, 37),
        (Family::GLOBAL, 48),
        (Family::GLOBAL, 49),
        (Family::GLOBAL, 50),
        (Family::GLOBAL, 51),
        (Family::GLOBAL, 52),
        (Family::GLOBAL, 53),
        (Family::GLOBAL, 54),
        (Family::GLOBAL, 55),
        (Family::GLOBAL, 56),
        (Family::GLOBAL, 57),
        (Family::GLOBAL, 58),
        (Family::GLOBAL, 59),
        (Family::GLOBAL, 60),
        (Family::GLOBAL, 61),
        (Family::GLOBAL, 62),
        (Family::GLOBAL, 63),
        (Family::GLOBAL, 64),
        (Family::GLOBAL, 80),
        (Family::GLOBAL, 81),
        (Family::GLOBAL, 82),
        (Family::GLOBAL, 83),
        (Family::GLOBAL, 85),
        (Family::GLOBAL, 86),
        (Family::GLOBAL, 87),
        (Family::GLOBAL, 88),
        (Family::GLOBAL, 89),
        (Family::GLOBAL, 90),
        (Family::GLOBAL, 91),
        (Family::GLOBAL, 92),
        (Family::GLOBAL, 93),
        (Family::GLOBAL, 94),
        (Family::GLOBAL, 95),
        (Family::GLOBAL, 96),
        (Family::SCRATCH, 8),
        (Family::SCRATCH, 9),
        (Family::SCRATCH, 10),
        (Family::SCRATCH, 11),
        (Family::SCRATCH, 12),
        (Family::SCRATCH, 13),
        (Family::SCRATCH, 14),
        (Family::SCRATCH, 15),
        (Family::SCRATCH, 24),
        (Family::SCRATCH, 25),
        (Family::SCRATCH, 26),
        (Family::SCRATCH, 27),
        (Family::SCRATCH, 28),
        (Family::SCRATCH, 29),
        (Family::SCRATCH, 30),
        (Family::SCRATCH, 31),
        (Family::SCRATCH, 32),
        (Family::SCRATCH, 33),
        (Family::SCRATCH, 34),
        (Family::SCRATCH, 35),
        (Family::SCRATCH, 36),
        (Family::SCRATCH, 37),
        (Family::MIMG, 0),
        (Family::MIMG, 1),
        (Family::MIMG, 2),
        (Family::MIMG, 3),
        (Family::MIMG, 4),
        (Family::MIMG, 5),
        (Family::MIMG, 8),
        (Family::MIMG, 9),
        (Family::MIMG, 10),
        (Family::MIMG, 11),
        (Family::MIMG, 14),
        (Family::MIMG, 15),
        (Family::MIMG, 16),
        (Family::MIMG, 17),
        (Family::MIMG, 18),
        (Family::MIMG, 20),
        (Family::MIMG, 21),
        (Family::MIMG, 22),
        (Family::MIMG, 23),
        (Family::MIMG, 24),
        (Family::MIMG, 25),
        (Family::MIMG, 26),
        (Family::MIMG, 27),
        (Family::MIMG, 28),
        (Family::MIMG, 29),
        (Family::MIMG, 30),
        (Family::MIMG, 31),
        (Family::MIMG, 32),
        (Family::MIMG, 33),
        (Family::MIMG, 34),
        (Family::MIMG, 35),
        (Family::MIMG, 36),
        (Family::MIMG, 37),
        (Family::MIMG, 38),
        (Family::MIMG, 39),
        (Family::MIMG, 40),
        (Family::MIMG, 41),
        (Family::MIMG, 42),
        (Family::MIMG, 43),
        (Family::MIMG, 44),
        (Family::MIMG, 45),
        (Family::MIMG, 46),
        (Family::MIMG, 47),
        (Family::MIMG, 48),
        (Family::MIMG, 49),
        (Family::MIMG, 50),
        (Family::MIMG, 51),
        (Family::MIMG, 52),
        (Family::MIMG, 53),
        (Family::MIMG, 54),
        (Family::MIMG, 55),
        (Family::MIMG, 56),
        (Family::MIMG, 57),
        (Family::MIMG, 58),
        (Family::MIMG, 59),
        (Family::MIMG, 60),
        (Family::MIMG, 61),
        (Family::MIMG, 62),
        (Family::MIMG, 63),
        (Family::MIMG, 64),
        (Family::MIMG, 65),
        (Family::MIMG, 68),
        (Family::MIMG, 69),
        (Family::MIMG, 70),
        (Family::MIMG, 71),
        (Family::MIMG, 72),
        (Family::MIMG, 73),
        (Family::MIMG, 76),
        (Family::MIMG, 77),
        (Family::MIMG, 78),
        (Family::MIMG, 79),
        (Family::MIMG, 80),
        (Family::MIMG, 81),
        (Family::MIMG, 84),
        (Family::MIMG, 85),
        (Family::MIMG, 86),
        (Family::MIMG, 87),
        (Family::MIMG, 88),
        (Family::MIMG, 89),
        (Family::MIMG, 92),
        (Family::MIMG, 93),
        (Family::MIMG, 94),
        (Family::MIMG, 95),
        (Family::MIMG, 96),
        (Family::MIMG, 97),
        (Family::MIMG, 104),
        (Family::MIMG, 105),
        (Family::MIMG, 106),
        (Family::MIMG, 107),
        (Family::MIMG, 108),
        (Family::MIMG, 109),
        (Family::MIMG, 110),
        (Family::MIMG, 111),
        (Family::MIMG, 128),
        (Family::MIMG, 162),
        (Family::MIMG, 163),
        (Family::MIMG, 170),
        (Family::MIMG, 171),
        (Family::MIMG, 178),
        (Family::MIMG, 179),
        (Family::MIMG, 186),
        (Family::MIMG, 187),
        (Family::MIMG, 230),
        (Family::MIMG, 231),
        (Family::MIMG, 232),
        (Family::MIMG, 233),
        (Family::MIMG, 234),
        (Family::MIMG, 235),
        (Family::MIMG, 236),
        (Family::MIMG, 237),
        (Family::MIMG, 238),
        (Family::MIMG, 239),
        (Family::MIMG, 98),
        (Family::MIMG, 99),
        (Family::MIMG, 66),
        (Family::MIMG, 67),
        (Family::MIMG, 74),
        (Family::MIMG, 75),
        (Family::MIMG, 82),
        (Family::MIMG, 83),
        (Family::MIMG, 90),
        (Family::MIMG, 91),
        (Family::MIMG, 112),
        (Family::MIMG, 113),
        (Family::MIMG, 115),
        (Family::MIMG, 116),
        (Family::MIMG, 118),
        (Family::MIMG, 119),
        (Family::MIMG, 121),
        (Family::MIMG, 122),
    ];
}
