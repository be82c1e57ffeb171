//! The software transcendental sequences give the same bits on lavapipe as on the CPU model:
//! `rdnaprobe exhaustive` over every f16 input in the 16 denormal x rounding modes for the f16
//! forms, and over f64 inputs around 1, the denormals, the largest values and the specials for
//! v_rcp/rsq/sqrt_f64, reports no mismatching row. The f32 forms are checked on 2^24-row slices
//! outside the test suite (docs/backends.md). Without lavapipe the test is skipped with a
//! message, unless `CI=true`.

mod common;

const F16_OPS: &[&str] = &["rcp", "rsq", "sqrt", "log", "exp", "sin", "cos"];

#[test]
fn lavapipe_matches_the_cpu_model_on_every_f16_input_in_every_mode() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    for op in F16_OPS {
        let body = format!("v_{op}_f16 v10, v4");
        let name = format!("transcendental-f16-{op}");
        common::exhaustive_on_lavapipe_agrees(
            &name,
            &body,
            &["in0=f16:all"],
            "all16",
            "32",
            0x10000 * 16,
        );
    }
}

/// (low dword range, high dword range, rows)
const F64_INPUTS: &[(&str, &str, u64)] = &[
    // around 1 and 2 (both exponent parities)
    (
        "in0=range:0xfffffffc:0xffffffff",
        "in1=range:0x3ffff000:0x40000fff",
        4 * 0x2000,
    ),
    // the smallest normals and the largest denormals
    (
        "in0=range:0:3",
        "in1=range:0x000ff000:0x00100fff",
        4 * 0x2000,
    ),
    // the smallest denormals and zero
    ("in0=range:0:0xffff", "in1=const:0", 0x1_0000),
    // the largest finite values, infinity and the first NaNs
    (
        "in0=range:0:3",
        "in1=range:0x7fefe000:0x7ff01fff",
        4 * 0x4000,
    ),
    // negative values
    (
        "in0=range:0x12345670:0x12345673",
        "in1=range:0xbff00000:0xbff01fff",
        4 * 0x2000,
    ),
];

#[test]
fn lavapipe_matches_the_cpu_model_on_the_f64_reciprocal_forms() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    for op in ["rcp", "rsq", "sqrt"] {
        let body = format!("v_{op}_f64 v[10:11], v[4:5]");
        for (n, (lo, hi, rows)) in F64_INPUTS.iter().enumerate() {
            let name = format!("transcendental-f64-{op}-{n}");
            common::exhaustive_on_lavapipe_agrees(
                &name,
                &body,
                &[lo, hi],
                "ieee=0/1",
                "32",
                rows * 2,
            );
        }
    }
}
