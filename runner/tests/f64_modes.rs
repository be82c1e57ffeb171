//! The f64 rounding-mode and denormal rules (rules f64-rounding-mode and f64-denormals) give
//! the same bits on lavapipe as on the CPU model: `rdnaprobe exhaustive` over operands near
//! the overflow and denormal boundaries in all 16 round16 x denorm16 modes reports no
//! mismatching row. Without lavapipe the test is skipped with a message, unless `CI=true`.

mod common;

/// (body, inputs, rows per mode)
const RUNS: &[(&str, &[&str], u64)] = &[
    (
        "v_ldexp_f64 v[10:11], v[4:5], v6",
        &[
            "in0=range:0:7",
            "in1=range:0x800ffff8:0x80100007",
            "in2=range:0xffffffe0:0xffffffff",
        ],
        8 * 16 * 32,
    ),
    (
        "v_ldexp_f64 v[10:11], v[4:5], v6",
        &[
            "in0=range:0xfffffffc:0xffffffff",
            "in1=range:0xbfeffffc:0xbff00003",
            "in2=range:1020:1027",
        ],
        4 * 8 * 8,
    ),
    (
        "v_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]",
        &[
            "in0=range:0xfffffffc:0xffffffff",
            "in1=range:0x3feffffe:0x3ff00001",
            "in2=range:0:3",
            "in3=range:0x000ffffe:0x00100001",
            "in4=range:0:3",
            "in5=range:0x800ffffe:0x80100001",
        ],
        4096,
    ),
    (
        "v_mul_f64 v[10:11], v[4:5], v[6:7]",
        &[
            "in0=range:0xfffffff8:0xffffffff",
            "in1=range:0x7feffffc:0x7ff00003",
            "in2=range:0:3",
            "in3=range:0x3ffffffe:0x40000001",
        ],
        8 * 8 * 4 * 4,
    ),
    (
        "v_add_f64 v[10:11], v[4:5], v[6:7]",
        &[
            "in0=range:0:7",
            "in1=range:0x000ffffc:0x00100003",
            "in2=range:0:7",
            "in3=range:0x800ffffc:0x80100003",
        ],
        8 * 8 * 8 * 8,
    ),
    (
        "s_mov_b32 vcc_lo, -1; v_div_fmas_f64 v[10:11], v[4:5], v[6:7], v[8:9]",
        &[
            "in0=range:0xfffffffc:0xffffffff",
            "in1=range:0x3feffffe:0x3ff00001",
            "in2=range:0:3",
            "in3=range:0x080ffffe:0x08100001",
            "in4=range:0:3",
            "in5=range:0x880ffffe:0x88100001",
        ],
        4096,
    ),
];

#[test]
fn lavapipe_matches_the_cpu_model_in_every_f64_mode() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    for (n, (body, inputs, rows)) in RUNS.iter().enumerate() {
        let name = format!("f64-modes-{n}");
        let modes = "round16=all,denorm16=all";
        common::exhaustive_on_lavapipe_agrees(&name, body, inputs, modes, "32", rows * 16);
    }
}
