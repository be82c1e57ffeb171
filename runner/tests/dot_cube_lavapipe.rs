//! v_dot2_f32_f16, v_dot2c_f32_f16, the v_cube* helpers and v_cvt_pk_u8_f32 give the same bits
//! on lavapipe as on the CPU model: `rdnaprobe exhaustive` over operands at their boundaries
//! (every f16 element, ties, overflow, NaNs, denormals, the byte saturation limits) reports no
//! mismatching row. Without lavapipe the test is skipped with a message, unless `CI=true`.

mod common;

/// (body, inputs, modes, rows per run)
const RUNS: &[(&str, &[&str], &str, u64)] = &[
    (
        "v_dot2_f32_f16 v10, v4, v5, v6",
        &[
            "in0=f16:all",
            "in1=const:0x3c01bc00",
            "in2=const:0x3f800001",
        ],
        "all16",
        0x10000 * 16,
    ),
    (
        "v_dot2_f32_f16 v10, v4, v5, v6 op_sel:[1,0,0] neg_lo:[0,1,1]",
        &[
            "in0=range:0x00000000:0x0000ffff",
            "in1=const:0x7bff0001",
            "in2=const:0x80800001",
        ],
        "denorm=all,ieee=0/1",
        0x10000 * 8,
    ),
    (
        "v_mov_b32 v10, v6\nv_dot2c_f32_f16 v10, v4, v5",
        &[
            "in0=range:0x3c000000:0x3c00ffff",
            "in1=const:0x0001fc00",
            "in2=const:0x7f812345",
        ],
        "ieee=0/1",
        0x10000 * 2,
    ),
    (
        "v_cubeid_f32 v10, v4, v5, v6",
        &[
            "in0=range:0x3f7ff000:0x3f800fff",
            "in1=const:0xbf800000",
            "in2=range:0x7f7ffffe:0x7f800001",
        ],
        "ieee=0/1,denorm32=0/3",
        0x2000 * 4 * 4,
    ),
    (
        "v_cubesc_f32 v10, v4, v5, v6",
        &[
            "in0=range:0xbf7ff000:0xbf800fff",
            "in1=range:0x7f800000:0x7f800001",
            "in2=const:0x3f800000",
        ],
        "ieee=0/1,denorm32=0/3",
        0x2000 * 2 * 4,
    ),
    (
        "v_cubetc_f32_e64 v10, v4, -v5, |v6|",
        &[
            "in0=range:0x00000000:0x00000fff",
            "in1=const:0x807fffff",
            "in2=range:0x807ffffe:0x80800001",
        ],
        "ieee=0/1,denorm32=0/3",
        0x1000 * 4 * 4,
    ),
    (
        "v_cubema_f32_e64 v10, v4, v5, v6 mul:2",
        &[
            "in0=range:0x7f7ff000:0x7f800fff",
            "in1=const:0x3f800000",
            "in2=const:0xff7fffff",
        ],
        "denorm=all,round=all,ieee=0/1",
        0x2000 * 32,
    ),
    (
        "v_cvt_pk_u8_f32 v10, v4, v5, v6",
        &[
            "in0=range:0x437f0000:0x4380ffff",
            "in1=range:0:3",
            "in2=const:0x12345678",
        ],
        "denorm32=0/3,round32=all",
        0x20000 * 4 * 8,
    ),
    (
        "v_cvt_pk_u8_f32_e64 v10, -v4, v5, v6",
        &[
            "in0=range:0xbf000000:0xbf00ffff",
            "in1=const:0x00000002",
            "in2=const:0xffffffff",
        ],
        "default",
        0x10000,
    ),
];

#[test]
fn dot_cube_and_pk_u8_match_the_cpu_model_on_lavapipe() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    for (i, (body, inputs, modes, rows)) in RUNS.iter().enumerate() {
        common::exhaustive_on_lavapipe_agrees(
            &format!("dot_cube_{i}"),
            body,
            inputs,
            modes,
            "32",
            *rows,
        );
    }
}
