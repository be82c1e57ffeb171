//! The packing conversions, the f64 <-> integer conversions, v_frexp_exp_i32_f64,
//! v_div_scale_f64, the three-operand and fmamk/fmaak f16 forms, v_pk_fmac_f16 and the register
//! moves give the same bits on lavapipe as on the CPU model: `rdnaprobe exhaustive` over
//! operands at their boundaries (overflow, denormals, NaNs, the saturation limits) reports no
//! mismatching row. Without lavapipe the test is skipped with a message, unless `CI=true`.

mod common;

/// (body, inputs, modes, rows per run)
const RUNS: &[(&str, &[&str], &str, u64)] = &[
    (
        "v_cvt_pkrtz_f16_f32 v10, v4, v5",
        &["in0=range:0x477fe000:0x4780ffff", "in1=const:0x7f802000"],
        "all16",
        0x12000 * 16,
    ),
    (
        "v_cvt_pkrtz_f16_f32 v10, v4, v5",
        &[
            "in0=range:0x00000000:0x0000ffff",
            "in1=range:0x337ffff0:0x3380000f",
        ],
        "denorm=all",
        0x10000 * 32 * 4,
    ),
    (
        "v_cvt_pkrtz_f16_f32_e64 v10, -v4, |v5| clamp",
        &["in0=range:0x3f7f8000:0x3f807fff", "in1=const:0xffc00001"],
        "dx10_clamp=0/1",
        0x10000 * 2,
    ),
    (
        "v_pack_b32_f16 v10, v4, -v5 op_sel:[1,0,0]",
        &["in0=f16:all", "in1=const:0x7c01"],
        "ieee=0/1",
        0x10000 * 2,
    ),
    (
        "v_cvt_pknorm_i16_f32 v10, v4, v5",
        &["in0=range:0xbf7f8000:0xbf807fff", "in1=const:0x7fc00000"],
        "denorm32=0/3",
        0x10000 * 2,
    ),
    (
        "v_cvt_pknorm_u16_f32 v10, v4, v5",
        &["in0=range:0x3efff000:0x3f00ffff", "in1=const:0x00000001"],
        "default",
        0x11000,
    ),
    (
        "v_cvt_off_f32_i4_e64 v10, v4 mul:2",
        &["in0=range:0:255"],
        "ieee=0/1",
        512,
    ),
    (
        "v_cvt_f64_i32 v[10:11], v4",
        &["in0=range:0x7fff8000:0x80007fff"],
        "default",
        0x10000,
    ),
    (
        "v_cvt_i32_f64 v10, v[4:5]",
        &["in0=range:0:0xfff", "in1=range:0x41dffff8:0x41e00007"],
        "denorm16=0/3",
        0x1000 * 16 * 2,
    ),
    (
        "v_cvt_u32_f64 v10, -v[4:5]",
        &["in0=range:0:0xfff", "in1=range:0xc1effff8:0xc1f00007"],
        "default",
        0x1000 * 16,
    ),
    (
        "v_frexp_exp_i32_f64 v10, v[4:5]",
        &["in0=range:0:0xfff", "in1=range:0:0x1f"],
        "denorm16=0/3",
        0x1000 * 32 * 2,
    ),
    (
        "v_div_scale_f64 v[10:11], s20, v[4:5], v[6:7], v[8:9]; v_cndmask_b32 v12, 0, 1, s20",
        &[
            "in0=const:3",
            "in1=range:0x7fdff000:0x7ff00fff",
            "in3=const:0x7fe00000",
            "in5=const:0x3ff00000",
        ],
        "denorm16=0/3",
        0x102000 * 2,
    ),
    (
        "v_div_scale_f64 v[10:11], s20, v[4:5], v[6:7], v[8:9]; v_cndmask_b32 v12, 0, 1, s20",
        &[
            "in0=range:0:3",
            "in1=range:0:0x3fff",
            "in2=const:1",
            "in5=const:0x3ff00000",
        ],
        "denorm16=0/3",
        4 * 0x4000 * 2,
    ),
    (
        // every exponent field (v6 << 20 is S0's high word) with every S1
        "v_lshlrev_b32 v5, 20, v6; v_trig_preop_f64 v[10:11], v[4:5], v7",
        &["in0=const:0x12345678", "in2=range:0:2047", "in3=range:0:31"],
        "default",
        2048 * 32,
    ),
    (
        "v_max3_f16 v10, v4, v5, v6",
        &["in0=f16:all", "in1=const:0x7c01", "in2=const:0x03ff"],
        "ieee=0/1,denorm16=0/3",
        0x10000 * 4,
    ),
    (
        "v_med3_f16 v10, v4, v5, v6 op_sel:[0,1,0,1]",
        &["in0=f16:all", "in1=const:0x7e00bc00", "in2=const:0x8001"],
        "ieee=0/1,denorm16=0/3",
        0x10000 * 4,
    ),
    (
        "v_fmamk_f16 v10, v4, 0x3bff, v5",
        &["in0=f16:all", "in1=const:0xbc00"],
        "all16",
        0x10000 * 16,
    ),
    (
        "v_fmaak_f16 v10, v4, v5, 0x7bff",
        &["in0=f16:all", "in1=const:0x3c01"],
        "fp16_overflow=0/1",
        0x10000 * 2,
    ),
    (
        "v_mov_b32 v10, v6; v_pk_fmac_f16 v10, v4, v5",
        &[
            "in0=f16:all",
            "in1=const:0x3c017bff",
            "in2=const:0x80010400",
        ],
        "all16",
        0x10000 * 16,
    ),
    (
        "v_mov_b32 v10, v4; v_swap_b32 v10, v5; v_mov_b32 v11, v5; v_clrexcp; v_pipeflush",
        &["in0=range:0:255", "in1=const:7"],
        "default",
        256,
    ),
    (
        "s_mov_b32 m0, 0x10002; v_movrelsd_2_b32 v11, v4; v_swaprel_b32 v12, v5; \
         s_mov_b32 m0, 3; v_movrels_b32 v13, v4; v_movreld_b32 v10, v5; v_movrelsd_b32 v11, v4",
        &[
            "in0=range:0:255",
            "in1=const:7",
            "in2=const:9",
            "in3=const:11",
        ],
        "default",
        256,
    ),
];

#[test]
fn lavapipe_matches_the_cpu_model_on_the_new_valu_forms() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    for (n, (body, inputs, modes, rows)) in RUNS.iter().enumerate() {
        let name = format!("valu-forms-{n}");
        common::exhaustive_on_lavapipe_agrees(&name, body, inputs, modes, "32", *rows);
    }
}
