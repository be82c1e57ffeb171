//! Lowering coverage over the instruction table, read from the lowering's dispatch.
//!
//! - The VALU opcodes (VOP1, VOP2, VOPC, VOP3, VOP3P) with no lowering on gfx1030, each with
//!   the dispatch's reason, must match the committed tests/unlowered-valu.txt, so gaps stay
//!   visible (`BLESS=1` rewrites it).
//! - The dispatch must tell the truth: every opcode it lowers lowers its table probe (the
//!   words llvm-mc decoded when the table was generated), and every opcode it does not fails
//!   with the dispatch's reason.

use rdnaprobe_isa::{decode_stream, table, FloatMode, Target, Wave};
use rdnaprobe_recompiler::{
    is_lowered, lower, lower_wave, unlowered_reason, LowerError, RuleError,
};
use std::fmt::Write;
use std::path::Path;

mod common;

#[test]
fn valu_lowering_coverage() {
    let gfx = Target::Gfx1030;
    let mut valu: Vec<_> = table().rows.iter().filter(|r| r.family.is_valu()).collect();
    valu.sort_by_key(|r| r.mnemonic);
    let mut text = String::new();
    let mut missing = 0;
    for r in &valu {
        if let Some(reason) = unlowered_reason(r.op(), gfx) {
            let _ = writeln!(text, "{:<24} {reason}", r.mnemonic);
            missing += 1;
        }
    }
    eprintln!(
        "VALU opcodes lowered: {} of {} ({missing} unlowered)",
        valu.len() - missing,
        valu.len(),
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/unlowered-valu.txt");
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write unlowered-valu.txt");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/unlowered-valu.txt is stale: rerun with BLESS=1\n{}",
        common::line_diff::line_diff(&committed, &text, 80)
    );
}

/// Opcodes whose lowering depends on an operand's value, and the refusal their table probe gets:
/// the probe's operand is a value the lowering does not model (hwreg 52 is no register).
const PROBE_OPERAND_REFUSED: &[(&str, &str)] = &[
    ("s_getreg_b32", "hardware register 52: not modelled"),
    ("s_setreg_b32", "hardware register 52: not modelled"),
    // the probe calls word 4661 of a one-word body
    ("s_call_b64", "is not an instruction of the body"),
    // the probes use format 1 (8_UNORM, one component) for every component count
    (
        "tbuffer_load_format_xy",
        "components of a 1-component format",
    ),
    (
        "tbuffer_load_format_xyz",
        "components of a 1-component format",
    ),
    (
        "tbuffer_load_format_xyzw",
        "components of a 1-component format",
    ),
    (
        "tbuffer_store_format_xy",
        "components of a 1-component format",
    ),
    (
        "tbuffer_store_format_xyz",
        "components of a 1-component format",
    ),
    (
        "tbuffer_store_format_xyzw",
        "components of a 1-component format",
    ),
    // the probes' V# is all zeros: DST_SEL 0 and FORMAT 0 (invalid)
    ("buffer_load_format_x", "V# DST_SEL 0x000"),
    ("buffer_load_format_xy", "V# DST_SEL 0x000"),
    ("buffer_load_format_xyz", "V# DST_SEL 0x000"),
    ("buffer_load_format_xyzw", "V# DST_SEL 0x000"),
    ("buffer_load_format_d16_hi_x", "V# DST_SEL 0x000"),
    ("buffer_load_format_d16_x", "V# DST_SEL 0x000"),
    ("buffer_load_format_d16_xy", "V# DST_SEL 0x000"),
    ("buffer_load_format_d16_xyz", "V# DST_SEL 0x000"),
    ("buffer_load_format_d16_xyzw", "V# DST_SEL 0x000"),
    (
        "buffer_store_format_d16_x",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_d16_xy",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_d16_xyz",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_d16_xyzw",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_x",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_xy",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_xyz",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_xyzw",
        "buffer format 0 is not a valid format",
    ),
    (
        "buffer_store_format_d16_hi_x",
        "buffer format 0 is not a valid format",
    ),
    (
        "tbuffer_load_format_d16_xy",
        "components of a 1-component format",
    ),
    (
        "tbuffer_load_format_d16_xyz",
        "components of a 1-component format",
    ),
    (
        "tbuffer_load_format_d16_xyzw",
        "components of a 1-component format",
    ),
    (
        "tbuffer_store_format_d16_xy",
        "components of a 1-component format",
    ),
    (
        "tbuffer_store_format_d16_xyz",
        "components of a 1-component format",
    ),
    (
        "tbuffer_store_format_d16_xyzw",
        "components of a 1-component format",
    ),
    // the probes leave SADDR off, whose address base the ISA guide does not give
    ("global_load_dword_addtid", "addtid without SADDR"),
    ("global_store_dword_addtid", "addtid without SADDR"),
    // the VOP3 probe's src1 is 257, not one of the parameter codes 0..2
    ("v_interp_mov_f32", "invalid parameter 257"),
    // the image probes' T# is all zeros (TYPE 0 is no image), and gfx101x T#s are refused
    ("image_load", "is not an image type"),
    ("image_load_mip", "is not an image type"),
    ("image_load_pck", "is not an image type"),
    ("image_load_pck_sgn", "is not an image type"),
    ("image_load_mip_pck", "is not an image type"),
    ("image_load_mip_pck_sgn", "is not an image type"),
    ("image_store", "is not an image type"),
    ("image_store_mip", "is not an image type"),
    ("image_store_pck", "is not an image type"),
    ("image_store_mip_pck", "is not an image type"),
    ("image_get_resinfo", "is not an image type"),
    ("image_load", "gfx101x T#s"),
    ("image_load_mip", "gfx101x T#s"),
    ("image_load_pck", "gfx101x T#s"),
    ("image_load_pck_sgn", "gfx101x T#s"),
    ("image_load_mip_pck", "gfx101x T#s"),
    ("image_load_mip_pck_sgn", "gfx101x T#s"),
    ("image_store", "gfx101x T#s"),
    ("image_store_mip", "gfx101x T#s"),
    ("image_store_pck", "gfx101x T#s"),
    ("image_store_mip_pck", "gfx101x T#s"),
    ("image_get_resinfo", "gfx101x T#s"),
    ("image_atomic_swap", "is not an image type"),
    ("image_atomic_swap", "gfx101x T#s"),
    ("image_atomic_cmpswap", "is not an image type"),
    ("image_atomic_cmpswap", "gfx101x T#s"),
    ("image_atomic_add", "is not an image type"),
    ("image_atomic_add", "gfx101x T#s"),
    ("image_atomic_sub", "is not an image type"),
    ("image_atomic_sub", "gfx101x T#s"),
    ("image_atomic_smin", "is not an image type"),
    ("image_atomic_smin", "gfx101x T#s"),
    ("image_atomic_umin", "is not an image type"),
    ("image_atomic_umin", "gfx101x T#s"),
    ("image_atomic_smax", "is not an image type"),
    ("image_atomic_smax", "gfx101x T#s"),
    ("image_atomic_umax", "is not an image type"),
    ("image_atomic_umax", "gfx101x T#s"),
    ("image_atomic_and", "is not an image type"),
    ("image_atomic_and", "gfx101x T#s"),
    ("image_atomic_or", "is not an image type"),
    ("image_atomic_or", "gfx101x T#s"),
    ("image_atomic_xor", "is not an image type"),
    ("image_atomic_xor", "gfx101x T#s"),
    ("image_atomic_inc", "is not an image type"),
    ("image_atomic_inc", "gfx101x T#s"),
    ("image_atomic_dec", "is not an image type"),
    ("image_atomic_dec", "gfx101x T#s"),
    ("image_atomic_fcmpswap", "is not an image type"),
    ("image_atomic_fcmpswap", "gfx101x T#s"),
    ("image_atomic_fmin", "is not an image type"),
    ("image_atomic_fmin", "gfx101x T#s"),
    ("image_atomic_fmax", "is not an image type"),
    ("image_atomic_fmax", "gfx101x T#s"),
];

/// The sampling instructions (and image_get_lod): their probes' T# is all zeros too (TYPE 0),
/// and gfx101x T#s are refused, as for the image loads above.
const SAMPLES: &[&str] = &[
    "image_sample",
    "image_sample_cl",
    "image_sample_l",
    "image_sample_lz",
    "image_sample_o",
    "image_sample_cl_o",
    "image_sample_l_o",
    "image_sample_lz_o",
    "image_sample_c",
    "image_sample_c_cl",
    "image_sample_c_l",
    "image_sample_c_lz",
    "image_sample_c_o",
    "image_sample_c_cl_o",
    "image_sample_c_l_o",
    "image_sample_c_lz_o",
    "image_gather4",
    "image_gather4_cl",
    "image_gather4_l",
    "image_gather4_lz",
    "image_gather4_o",
    "image_gather4_cl_o",
    "image_gather4_l_o",
    "image_gather4_lz_o",
    "image_gather4_c",
    "image_gather4_c_cl",
    "image_gather4_c_l",
    "image_gather4_c_lz",
    "image_gather4_c_o",
    "image_gather4_c_cl_o",
    "image_gather4_c_l_o",
    "image_gather4_c_lz_o",
    // the user-derivative forms
    "image_sample_d",
    "image_sample_d_o",
    "image_sample_d_cl",
    "image_sample_d_cl_o",
    "image_sample_c_d",
    "image_sample_c_d_o",
    "image_sample_c_d_cl",
    "image_sample_c_d_cl_o",
    "image_sample_d_g16",
    "image_sample_d_o_g16",
    "image_sample_d_cl_g16",
    "image_sample_d_cl_o_g16",
    "image_sample_c_d_g16",
    "image_sample_c_d_o_g16",
    "image_sample_c_d_cl_g16",
    "image_sample_c_d_cl_o_g16",
    "image_sample_cd",
    "image_sample_cd_o",
    "image_sample_cd_cl",
    "image_sample_cd_cl_o",
    "image_sample_c_cd",
    "image_sample_c_cd_o",
    "image_sample_c_cd_cl",
    "image_sample_c_cd_cl_o",
    "image_sample_cd_g16",
    "image_sample_cd_o_g16",
    "image_sample_cd_cl_g16",
    "image_sample_cd_cl_o_g16",
    "image_sample_c_cd_g16",
    "image_sample_c_cd_o_g16",
    "image_sample_c_cd_cl_g16",
    "image_sample_c_cd_cl_o_g16",
    // the bias forms
    "image_sample_b",
    "image_sample_b_o",
    "image_sample_b_cl",
    "image_sample_b_cl_o",
    "image_sample_c_b",
    "image_sample_c_b_o",
    "image_sample_c_b_cl",
    "image_sample_c_b_cl_o",
    "image_gather4_b",
    "image_gather4_b_o",
    "image_gather4_b_cl",
    "image_gather4_b_cl_o",
    "image_gather4_c_b",
    "image_gather4_c_b_o",
    "image_gather4_c_b_cl",
    "image_gather4_c_b_cl_o",
    // the horizontal gather of image_gather4h_pck's window
    "image_gather4h",
    // the LOD query, read from the S# and T# as a sample reads them
    "image_get_lod",
];

/// Whether the probe of `mnemonic` may be refused for `reason` although it lowers.
fn probe_refused(mnemonic: &str, reason: &str) -> bool {
    let image = SAMPLES.contains(&mnemonic)
        && ["is not an image type", "gfx101x T#s"]
            .iter()
            .any(|why| reason.contains(why));
    image
        || PROBE_OPERAND_REFUSED
            .iter()
            .any(|(m, why)| *m == mnemonic && reason.contains(why))
}

#[test]
fn the_dispatch_agrees_with_the_lowering() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for gfx in [Target::Gfx1030, Target::Gfx1010] {
        for row in &table().rows {
            if row.probe_words.is_empty() {
                continue;
            }
            let Ok(body) = decode_stream(&row.probe_words) else {
                continue;
            };
            // Cross-lane instructions lower under the wave contract only.
            let got = match lower(&body, FloatMode::DEFAULT, Wave::W32, gfx) {
                Err(e) if e.to_string().contains("needs the wave contract") => {
                    lower_wave(&body, FloatMode::DEFAULT, Wave::W32, gfx)
                }
                got => got,
            };
            let op = row.op();
            checked += 1;
            match (unlowered_reason(op, gfx), got) {
                (None, Ok(k)) => assert_eq!(k.validate(), Ok(()), "{}", row.mnemonic),
                (None, Err(LowerError::Unsupported { reason: r, .. }))
                    if probe_refused(row.mnemonic, &r.to_string()) => {}
                (None, Err(e)) => {
                    failures.push(format!("{gfx} {}: lowered, but {e}", row.mnemonic))
                }
                (Some(reason), Err(LowerError::Unsupported { reason: r, .. }))
                    if r == RuleError::Unlowered(reason) => {}
                (Some(reason), got) => failures.push(format!(
                    "{gfx} {}: unlowered ({reason}), but {:?}",
                    row.mnemonic,
                    got.map(|_| "lowered")
                )),
            }
            assert_eq!(is_lowered(op, gfx), unlowered_reason(op, gfx).is_none());
        }
    }
    assert!(checked > 1000, "only {checked} probes decoded");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
