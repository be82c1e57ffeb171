//! Helpers shared by the recompiler's integration tests.

pub mod hwdata;
pub mod image;
pub mod line_diff;
pub mod spirv_val;
pub mod wavedata;

/// The transcendental mnemonics (f32, f16, f64): the ops `replay_hwdata` summarises (rows,
/// exact, max ULP) and the ones `spirv` checks are software sequences.
#[allow(dead_code)] // not every test binary uses it
pub const TRANSCENDENTAL: &[&str] = &[
    "v_rcp_f32",
    "v_rcp_iflag_f32",
    "v_rsq_f32",
    "v_sqrt_f32",
    "v_log_f32",
    "v_exp_f32",
    "v_sin_f32",
    "v_cos_f32",
    "v_rcp_f16",
    "v_rsq_f16",
    "v_sqrt_f16",
    "v_log_f16",
    "v_exp_f16",
    "v_sin_f16",
    "v_cos_f16",
    "v_rcp_f64",
    "v_rsq_f64",
    "v_sqrt_f64",
];
