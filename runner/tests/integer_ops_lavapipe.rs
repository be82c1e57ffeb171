//! The 16-bit, packed, byte (sad, lerp, perm), dot-product and 64-bit mad integer ops give the
//! same bits on lavapipe as on the CPU model: `rdnaprobe exhaustive` over operands around the
//! 16- and 32-bit sign and carry boundaries reports no mismatching row (the ops that write a
//! lane mask in both wave sizes). Without lavapipe the test is skipped with a message, unless
//! `CI=true`.

mod common;

/// The bodies (with their clamp and op_sel forms).
const BODIES: &[&str] = &[
    "v_add_nc_u16 v10, v4, v5",
    "v_add_nc_u16 v10, v4, v5 op_sel:[1,1,1] clamp",
    "v_add_nc_i16 v10, v4, v5 clamp",
    "v_sub_nc_u16 v10, v4, v5 clamp",
    "v_sub_nc_u16 v10, v4, v5 op_sel:[0,1,0]",
    "v_sub_nc_i16 v10, v4, v5 clamp",
    "v_lshlrev_b16 v10, v4, v5",
    "v_lshrrev_b16 v10, v4, v5",
    "v_ashrrev_i16 v10, v4, v5",
    "v_mul_lo_u16 v10, v4, v5",
    "v_mad_u16 v10, v4, v5, v6",
    "v_mad_u16 v10, v4, v5, v6 op_sel:[1,0,1,1] clamp",
    "v_mad_i16 v10, v4, v5, v6 clamp",
    "v_mad_i16 v10, v4, v5, v6",
    "v_mad_u32_u16 v10, v4, v5, v6",
    "v_mad_u32_u16 v10, v4, v5, v6 op_sel:[1,1,0,0] clamp",
    "v_mad_i32_i16 v10, v4, v5, v6",
    "v_mad_i32_i16 v10, v4, v5, v6 clamp",
    "v_min_u16 v10, v4, v5",
    "v_min_i16 v10, v4, v5",
    "v_max_u16 v10, v4, v5",
    "v_max_i16 v10, v4, v5",
    "v_min3_u16 v10, v4, v5, v6",
    "v_min3_i16 v10, v4, v5, v6 clamp",
    "v_max3_u16 v10, v4, v5, v6",
    "v_max3_i16 v10, v4, v5, v6",
    "v_med3_u16 v10, v4, v5, v6",
    "v_med3_i16 v10, v4, v5, v6 op_sel:[1,0,1,0]",
    "v_cmp_eq_i16 vcc_lo, v4, v5; v_cndmask_b32 v10, 0, 1, vcc_lo",
    "v_cmp_ne_u16 vcc_lo, v4, v5; v_cndmask_b32 v10, 0, 1, vcc_lo",
    "v_cmp_lt_i16_e64 s0, v4, v5; v_cndmask_b32_e64 v10, 0, 1, s0",
    "v_cmp_le_u16_e64 s0, v4, v5; v_cndmask_b32_e64 v10, 0, 1, s0",
    "v_cmp_gt_i16_e64 s0, v4, v5; v_cndmask_b32_e64 v10, 0, 1, s0",
    "v_cmp_ge_u16_e64 s0, v4, v5; v_cndmask_b32_e64 v10, 0, 1, s0",
    "v_cmp_gt_u16_e64 s0, v4, v5; v_cndmask_b32_e64 v10, 0, 1, s0",
    "v_cmp_le_i16_e64 s0, v4, v5; v_cndmask_b32_e64 v10, 0, 1, s0",
    "v_cmpx_lt_u16 v4, v5; v_mov_b32 v10, 1",
    "v_cmp_lt_i16_sdwa vcc_lo, sext(v4), v5 src0_sel:BYTE_1 src1_sel:WORD_1; v_cndmask_b32 v10, 0, 1, vcc_lo",
    "v_cmpx_ge_i16 v4, v5; v_mov_b32 v10, 1",
    "v_cvt_pk_i16_i32 v10, v4, v5",
    "v_cvt_pk_u16_u32 v10, v4, v5",
    "v_pk_add_u16 v10, v4, v5",
    "v_pk_add_u16 v10, v4, v5 op_sel:[1,0] op_sel_hi:[0,1] clamp",
    "v_pk_add_i16 v10, v4, v5 clamp",
    "v_pk_sub_u16 v10, v4, v5 clamp",
    "v_pk_sub_i16 v10, v4, v5 clamp",
    "v_pk_sub_i16 v10, v4, v5",
    "v_pk_mul_lo_u16 v10, v4, v5",
    "v_pk_mad_u16 v10, v4, v5, v6 clamp",
    "v_pk_mad_i16 v10, v4, v5, v6 clamp",
    "v_pk_mad_i16 v10, v4, v5, v6 op_sel:[0,1,1]",
    "v_pk_min_u16 v10, v4, v5",
    "v_pk_min_i16 v10, v4, v5",
    "v_pk_max_u16 v10, v4, v5",
    "v_pk_max_i16 v10, v4, v5 clamp",
    "v_pk_lshlrev_b16 v10, v4, v5",
    "v_pk_lshrrev_b16 v10, v4, v5",
    "v_pk_ashrrev_i16 v10, v4, v5",
    "v_sad_u8 v10, v4, v5, v6",
    "v_sad_hi_u8 v10, v4, v5, v6",
    "v_sad_u16 v10, v4, v5, v6",
    "v_sad_u32 v10, v4, v5, v6",
    "v_msad_u8 v10, v4, v5, v6",
    "v_qsad_pk_u16_u8 v[10:11], v[4:5], v6, v[6:7]",
    "v_mqsad_pk_u16_u8 v[10:11], v[4:5], v6, v[6:7]",
    "v_mqsad_u32_u8 v[10:13], v[4:5], v6, v[4:7]",
    "v_lerp_u8 v10, v4, v5, v6",
    "v_perm_b32 v10, v4, v5, v6",
    "v_perm_b32 v10, v6, v4, v5",
    "v_mad_u64_u32 v[10:11], s0, v4, v5, v[6:7]; v_cndmask_b32_e64 v12, 0, 1, s0",
    "v_mad_i64_i32 v[10:11], s0, v4, v5, v[6:7]; v_cndmask_b32_e64 v12, 0, 1, s0",
    "v_mad_i64_i32 v[10:11], s[2:3], v4, v5, v[6:7]; v_cndmask_b32_e64 v12, 0, 1, s[2:3]",
    "v_dot2_i32_i16 v10, v4, v5, v6",
    "v_dot2_i32_i16 v10, v4, v5, v6 clamp",
    "v_dot2_u32_u16 v10, v4, v5, v6 op_sel:[1,0,0] clamp",
    "v_dot4_i32_i8 v10, v4, v5, v6 clamp",
    "v_dot4_i32_i8 v10, v4, v5, v6",
    "v_dot4_u32_u8 v10, v4, v5, v6 clamp",
    "v_dot8_i32_i4 v10, v4, v5, v6 clamp",
    "v_dot8_u32_u4 v10, v4, v5, v6",
    "v_dot4c_i32_i8 v10, v4, v5",
];

/// (inputs, rows): around the 16-bit boundaries, the top of the 16-bit halves, and the 32-bit
/// sign boundary.
const SETS: &[(&[&str], u64)] = &[
    (
        &[
            "in0=range:0:4095",
            "in1=range:0x7ffe:0x8001",
            "in2=const:0x80007fff",
            "in3=const:0xfffe0003",
        ],
        4096 * 4,
    ),
    (
        &[
            "in0=range:0xffff7800:0xffff87ff",
            "in1=range:0x80000000:0x80000003",
            "in2=range:0x7fffffff:0x80000000",
            "in3=const:0x0d0c0b08",
        ],
        4096 * 4 * 2,
    ),
    (
        &[
            "in0=range:0x7fff8000:0x80007fff",
            "in1=const:0x00ff8001",
            "in2=const:0xffffffff",
            "in3=const:0x80000000",
        ],
        65536,
    ),
];

#[test]
fn lavapipe_matches_the_cpu_model_on_the_integer_ops() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let mut n = 0;
    for body in BODIES {
        let masks = body.contains("cmp") || body.contains("mad_u64") || body.contains("mad_i64");
        let waves: &[&str] = if masks { &["32", "64"] } else { &["32"] };
        for wave in waves {
            for (inputs, rows) in SETS {
                let name = format!("integer-ops-{n}");
                n += 1;
                common::exhaustive_on_lavapipe_agrees(&name, body, inputs, "default", wave, *rows);
            }
        }
    }
}
