//! Hand-computed cases for the scalar ALU (`salu`, `salu_unary`, `salu_mode`): results and SCC
//! at the carry, overflow, shift-width and sign edges, 64-bit pairs, EXEC and the MODE register.

use super::tests::{run, run_in};
use super::{lower_words, LowerError};
use crate::interp;
use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};

/// `SCC = scc` as a first instruction.
fn scc_pre(scc: bool) -> &'static str {
    if scc {
        "s_cmp_eq_u32 0, 0"
    } else {
        "s_cmp_eq_u32 0, 1"
    }
}

/// (D, SCC) of `op s2, s0, s1` with s0 = `a`, s1 = `b` and SCC = `scc` before it.
fn op2(op: &str, a: u32, b: u32, scc: bool) -> (u32, u32) {
    let t = format!(
        "{}\ns_mov_b32 s0, {a:#x}\ns_mov_b32 s1, {b:#x}\n{op} s2, s0, s1\nv_mov_b32 v10, s2\n\
         s_cselect_b32 s3, 1, 0\nv_mov_b32 v11, s3",
        scc_pre(scc)
    );
    let o = run(&t, [0; 6], 0);
    (o[0], o[1])
}

/// (D, SCC) of `op s[4:5], s[0:1], SRC1` with s[0:1] = `a`, s[2:3] = `b`; `src1` is the
/// second operand's text (`s[2:3]` or `s2`).
fn op2_64(op: &str, a: u64, b: u64, src1: &str, scc: bool) -> (u64, u32) {
    // s_bfm_b64 takes 32-bit sources (llvm-mc-19 rejects s[0:1] there)
    let src0 = if op == "s_bfm_b64" { "s0" } else { "s[0:1]" };
    let t = format!(
        "{}\ns_mov_b32 s0, {:#x}\ns_mov_b32 s1, {:#x}\ns_mov_b32 s2, {:#x}\ns_mov_b32 s3, {:#x}\n\
         {op} s[4:5], {src0}, {src1}\nv_mov_b32 v10, s4\nv_mov_b32 v11, s5\n\
         s_cselect_b32 s6, 1, 0\nv_mov_b32 v12, s6",
        scc_pre(scc),
        a as u32,
        (a >> 32) as u32,
        b as u32,
        (b >> 32) as u32,
    );
    let o = run(&t, [0; 6], 0);
    (u64::from(o[0]) | u64::from(o[1]) << 32, o[2])
}

/// (D, SCC) of a one-source op `op DST, SRC` on s0 (or s[0:1]) = `a`, reading D back from
/// s2 (and s3).
fn op1(op: &str, a: u64, dst: &str, src: &str, scc: bool) -> (u64, u32) {
    let t = format!(
        "{}\ns_mov_b32 s0, {:#x}\ns_mov_b32 s1, {:#x}\n{op} {dst}, {src}\nv_mov_b32 v10, s2\n\
         v_mov_b32 v11, s3\ns_cselect_b32 s6, 1, 0\nv_mov_b32 v12, s6",
        scc_pre(scc),
        a as u32,
        (a >> 32) as u32,
    );
    let o = run(&t, [0; 6], 0);
    (u64::from(o[0]) | u64::from(o[1]) << 32, o[2])
}

fn lower_err(text: &str) -> String {
    let words = assemble(text).expect("assembles");
    match lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036) {
        Err(e @ LowerError::Unsupported { .. }) => e.to_string(),
        other => panic!("{text}: expected unsupported, got {other:?}"),
    }
}

#[test]
fn add_sub_carries_and_overflow() {
    assert_eq!(op2("s_add_u32", 0xffff_ffff, 2, false), (1, 1));
    assert_eq!(op2("s_add_u32", 1, 2, true), (3, 0));
    assert_eq!(op2("s_sub_u32", 1, 2, false), (0xffff_ffff, 1));
    assert_eq!(op2("s_sub_u32", 5, 3, true), (2, 0));
    assert_eq!(op2("s_add_i32", 0x7fff_ffff, 1, false), (0x8000_0000, 1));
    assert_eq!(op2("s_add_i32", 0xffff_ffff, 1, true), (0, 0));
    assert_eq!(op2("s_add_i32", 0x8000_0000, 0x8000_0000, false), (0, 1));
    assert_eq!(op2("s_sub_i32", 0x8000_0000, 1, false), (0x7fff_ffff, 1));
    assert_eq!(op2("s_sub_i32", 0, 0x8000_0000, false), (0x8000_0000, 1));
    assert_eq!(op2("s_sub_i32", 5, 7, true), (0xffff_fffe, 0));
    // carry in from SCC
    assert_eq!(op2("s_addc_u32", 0xffff_ffff, 0, true), (0, 1));
    assert_eq!(op2("s_addc_u32", 0xffff_fffe, 0, true), (0xffff_ffff, 0));
    assert_eq!(
        op2("s_addc_u32", 0xffff_ffff, 0xffff_ffff, true),
        (0xffff_ffff, 1)
    );
    assert_eq!(op2("s_addc_u32", 1, 1, false), (2, 0));
    assert_eq!(op2("s_subb_u32", 0, 0, true), (0xffff_ffff, 1));
    assert_eq!(op2("s_subb_u32", 5, 4, true), (0, 0));
    assert_eq!(op2("s_subb_u32", 5, 5, true), (0xffff_ffff, 1));
    assert_eq!(op2("s_subb_u32", 0xffff_ffff, 0xffff_ffff, false), (0, 0));
    assert_eq!(op2("s_absdiff_i32", 3, 10, false), (7, 1));
    assert_eq!(op2("s_absdiff_i32", 5, 5, true), (0, 0));
    assert_eq!(
        op2("s_absdiff_i32", 0xffff_ffff, 0x7fff_ffff, false),
        (0x8000_0000, 1)
    );
    assert_eq!(op2("s_lshl2_add_u32", 0x4000_0000, 1, false), (1, 1));
    assert_eq!(op2("s_lshl4_add_u32", 3, 4, true), (52, 0));
    assert_eq!(op2("s_lshl1_add_u32", 0xffff_ffff, 2, false), (0, 1));
}

#[test]
fn min_max_select_and_multiply() {
    assert_eq!(op2("s_min_i32", 0xffff_ffff, 1, false), (0xffff_ffff, 1));
    assert_eq!(op2("s_min_u32", 0xffff_ffff, 1, true), (1, 0));
    assert_eq!(op2("s_max_i32", 0xffff_ffff, 1, true), (1, 0));
    assert_eq!(op2("s_max_u32", 0xffff_ffff, 1, false), (0xffff_ffff, 1));
    assert_eq!(op2("s_min_i32", 3, 3, true), (3, 0));
    assert_eq!(op2("s_cselect_b32", 7, 9, true), (7, 1));
    assert_eq!(op2("s_cselect_b32", 7, 9, false), (9, 0));
    // multiplies leave SCC
    assert_eq!(op2("s_mul_i32", 0x1_0000, 0x1_0000, true), (0, 1));
    assert_eq!(op2("s_mul_i32", 0xffff_fffd, 7, false), (0xffff_ffeb, 0));
    assert_eq!(
        op2("s_mul_hi_u32", 0xffff_ffff, 0xffff_ffff, true),
        (0xffff_fffe, 1)
    );
    assert_eq!(op2("s_mul_hi_i32", 0xffff_ffff, 0xffff_ffff, false), (0, 0));
    assert_eq!(op2("s_mul_hi_i32", 0x8000_0000, 2, false), (0xffff_ffff, 0));
    assert_eq!(
        op2("s_pack_ll_b32_b16", 0x1111_aaaa, 0x2222_bbbb, true),
        (0xbbbb_aaaa, 1)
    );
    assert_eq!(
        op2("s_pack_lh_b32_b16", 0x1111_aaaa, 0x2222_bbbb, false),
        (0x2222_aaaa, 0)
    );
    assert_eq!(
        op2("s_pack_hh_b32_b16", 0x1111_aaaa, 0x2222_bbbb, false),
        (0x2222_1111, 0)
    );
}

#[test]
fn bitwise_shifts_and_fields() {
    assert_eq!(op2("s_and_b32", 0xf0, 0x0f, true), (0, 0));
    assert_eq!(op2("s_andn2_b32", 0xff, 0x0f, false), (0xf0, 1));
    assert_eq!(op2("s_orn2_b32", 0, 0xffff_ffff, true), (0, 0));
    assert_eq!(op2("s_nand_b32", 0xffff_ffff, 0xffff_ffff, true), (0, 0));
    assert_eq!(op2("s_nor_b32", 0, 0, false), (0xffff_ffff, 1));
    assert_eq!(op2("s_xnor_b32", 0x0f0f, 0xffff, false), (0xffff_0f0f, 1));
    // shift amounts take their low five bits
    assert_eq!(op2("s_lshl_b32", 1, 33, false), (2, 1));
    assert_eq!(op2("s_lshl_b32", 0x8000_0000, 1, true), (0, 0));
    assert_eq!(op2("s_lshr_b32", 0x8000_0000, 31, false), (1, 1));
    assert_eq!(op2("s_ashr_i32", 0x8000_0000, 63, false), (0xffff_ffff, 1));
    // s_bfm: low five bits of width and offset, SCC unchanged
    assert_eq!(op2("s_bfm_b32", 0x25, 0x24, true), (0x1f0, 1));
    assert_eq!(op2("s_bfm_b32", 0xffff_ffe0, 3, false), (0, 0));
    // s_bfe: offset [4:0], width [22:16], SCC = result != 0
    assert_eq!(op2("s_bfe_u32", 0x1234_5678, 8 << 16 | 4, false), (0x67, 1));
    assert_eq!(op2("s_bfe_u32", 0x1234_5678, 4, true), (0, 0));
    assert_eq!(
        op2("s_bfe_u32", 0x1234_5678, 40 << 16 | 4, false),
        (0x0123_4567, 1)
    );
    assert_eq!(op2("s_bfe_i32", 0xf0, 4 << 16 | 4, false), (0xffff_ffff, 1));
    assert_eq!(op2("s_bfe_i32", 0x70, 4 << 16 | 4, false), (7, 1));
    assert_eq!(op2("s_bfe_i32", 0xf0, 4, true), (0, 0));
    assert_eq!(
        op2("s_bfe_i32", 0x8000_0000, 40 << 16 | 28, false),
        (0xffff_fff8, 1)
    );
}

#[test]
fn sixty_four_bit_pairs() {
    let m = 0x8000_0000_0000_0000u64;
    assert_eq!(op2_64("s_lshl_b64", 1, 63, "s2", false), (m, 1));
    assert_eq!(op2_64("s_lshl_b64", 1, 64, "s2", false), (1, 1));
    assert_eq!(op2_64("s_lshl_b64", m, 1, "s2", true), (0, 0));
    assert_eq!(op2_64("s_lshr_b64", m, 32, "s2", false), (0x8000_0000, 1));
    assert_eq!(op2_64("s_ashr_i64", m, 63, "s2", false), (u64::MAX, 1));
    assert_eq!(
        op2_64(
            "s_and_b64",
            0xffff_0000_0000_ffff,
            0x0fff_0000_0000_0000,
            "s[2:3]",
            false
        ),
        (0x0fff_0000_0000_0000, 1)
    );
    assert_eq!(
        op2_64("s_and_b64", 1 << 40, 1 << 39, "s[2:3]", true),
        (0, 0)
    );
    assert_eq!(op2_64("s_xnor_b64", 0, 0, "s[2:3]", false), (u64::MAX, 1));
    assert_eq!(
        op2_64("s_andn2_b64", u64::MAX, 1 << 63, "s[2:3]", false),
        (!m, 1)
    );
    assert_eq!(
        op2_64("s_cselect_b64", 1 << 40, 5, "s[2:3]", true),
        (1 << 40, 1)
    );
    assert_eq!(op2_64("s_cselect_b64", 1 << 40, 5, "s[2:3]", false), (5, 0));
    let x = 0x1234_5678_9abc_def0u64;
    assert_eq!(
        op2_64("s_bfe_u64", x, 16 << 16 | 36, "s2", false),
        (0x4567, 1)
    );
    assert_eq!(op2_64("s_bfe_u64", x, 36, "s2", true), (0, 0));
    assert_eq!(
        op2_64("s_bfe_u64", x, 70 << 16 | 4, "s2", false),
        (x >> 4, 1)
    );
    assert_eq!(op2_64("s_bfe_i64", m, 64 << 16 | 60, "s2", false), (!7, 1));
    assert_eq!(
        op2_64("s_bfe_i64", 0x8_0000_0000, 4 << 16 | 32, "s2", false),
        (!7, 1)
    );
    // s_bfm_b64: width and offset modulo 64; SCC unchanged
    assert_eq!(
        op2_64("s_bfm_b64", 40, 8, "s2", true),
        (0xffff_ffff_ff00, 1)
    );
}

#[test]
fn compares() {
    let scc = |text: &str| {
        let t = format!("{text}\ns_cselect_b32 s3, 1, 0\nv_mov_b32 v10, s3");
        run(&t, [0; 6], 0)[0]
    };
    assert_eq!(scc("s_mov_b32 s0, -1\ns_cmp_lt_i32 s0, 0"), 1);
    assert_eq!(scc("s_mov_b32 s0, -1\ns_cmp_lt_u32 s0, 0"), 0);
    assert_eq!(scc("s_mov_b32 s0, 5\ns_cmp_ge_u32 s0, 5"), 1);
    assert_eq!(scc("s_mov_b32 s0, 5\ns_cmp_gt_i32 s0, 5"), 0);
    assert_eq!(scc("s_mov_b32 s0, 0x10\ns_bitcmp1_b32 s0, 36"), 1);
    assert_eq!(scc("s_mov_b32 s0, 0x10\ns_bitcmp0_b32 s0, 36"), 0);
    assert_eq!(scc("s_mov_b32 s1, 0x100\ns_bitcmp1_b64 s[0:1], 40"), 1);
    assert_eq!(scc("s_mov_b32 s1, 0x100\ns_bitcmp0_b64 s[0:1], 8"), 1);
    assert_eq!(
        scc("s_mov_b32 s1, 1\ns_mov_b32 s3, 1\ns_cmp_eq_u64 s[0:1], s[2:3]"),
        1
    );
    assert_eq!(scc("s_mov_b32 s1, 1\ns_cmp_lg_u64 s[0:1], 0"), 1);
    // SOPK: i32 forms sign-extend the immediate, u32 forms zero-extend it
    assert_eq!(scc("s_mov_b32 s0, 0x8000\ns_cmpk_eq_u32 s0, 0x8000"), 1);
    assert_eq!(scc("s_mov_b32 s0, 0x8000\ns_cmpk_eq_i32 s0, 0x8000"), 0);
    assert_eq!(scc("s_mov_b32 s0, -1\ns_cmpk_lt_i32 s0, 0"), 1);
    assert_eq!(scc("s_mov_b32 s0, -1\ns_cmpk_gt_u32 s0, 0xffff"), 1);
}

#[test]
fn sopk_forms() {
    let d = |text: &str| {
        run(
            &format!("{text}\nv_mov_b32 v10, s0\ns_cselect_b32 s3, 1, 0\nv_mov_b32 v11, s3"),
            [0; 6],
            0,
        )
    };
    assert_eq!(d("s_movk_i32 s0, 0x8000")[..2], [0xffff_8000, 0]);
    assert_eq!(
        d("s_mov_b32 s0, 4\ns_cmp_eq_u32 0, 1\ns_cmovk_i32 s0, 0x8001")[0],
        4
    );
    assert_eq!(
        d("s_mov_b32 s0, 4\ns_cmp_eq_u32 0, 0\ns_cmovk_i32 s0, 0x8001")[0],
        0xffff_8001
    );
    assert_eq!(
        d("s_mov_b32 s0, 0x7fffffff\ns_addk_i32 s0, 1")[..2],
        [0x8000_0000, 1]
    );
    assert_eq!(d("s_mov_b32 s0, 5\ns_addk_i32 s0, 0xffff")[..2], [4, 0]);
    assert_eq!(d("s_mov_b32 s0, 3\ns_mulk_i32 s0, 0xfffe")[0], 0xffff_fffa);
    // the waits and s_version do nothing
    assert_eq!(
        d("s_mov_b32 s0, 3\ns_version 0x1234\ns_waitcnt_vscnt null, 0x0")[0],
        3
    );
}

#[test]
fn one_source_ops() {
    let one = |op: &str, a: u64| op1(op, a, "s2", "s0", false);
    let one64 = |op: &str, a: u64| op1(op, a, "s2", "s[0:1]", false);
    let pair = |op: &str, a: u64| op1(op, a, "s[2:3]", "s[0:1]", false);
    assert_eq!(one("s_not_b32", 0xffff_ffff), (0, 0));
    assert_eq!(pair("s_not_b64", 0), (u64::MAX, 1));
    assert_eq!(one("s_wqm_b32", 0x0000_0110), (0xff0, 1));
    assert_eq!(pair("s_wqm_b64", 1 << 61), (0xf << 60, 1));
    assert_eq!(one("s_quadmask_b32", 0x8000_0011), (0x83, 1));
    assert_eq!(pair("s_quadmask_b64", 1 << 63 | 2), (0x8001, 1));
    assert_eq!(one("s_quadmask_b32", 0), (0, 0));
    assert_eq!(one("s_brev_b32", 1), (0x8000_0000, 0));
    assert_eq!(pair("s_brev_b64", 1), (1 << 63, 0));
    assert_eq!(one("s_bcnt0_i32_b32", 0xff), (24, 1));
    assert_eq!(one64("s_bcnt1_i32_b64", u64::MAX), (64, 1));
    assert_eq!(one64("s_bcnt0_i32_b64", u64::MAX), (0, 0));
    assert_eq!(one("s_ff0_i32_b32", 0xffff), (16, 0));
    assert_eq!(one("s_ff0_i32_b32", 0xffff_ffff), (0xffff_ffff, 0));
    assert_eq!(one("s_ff1_i32_b32", 0), (0xffff_ffff, 0));
    assert_eq!(one64("s_ff1_i32_b64", 1 << 40), (40, 0));
    assert_eq!(one64("s_ff0_i32_b64", u64::MAX), (0xffff_ffff, 0));
    assert_eq!(one("s_flbit_i32_b32", 0x1_0000), (15, 0));
    assert_eq!(one("s_flbit_i32_b32", 0), (0xffff_ffff, 0));
    assert_eq!(one64("s_flbit_i32_b64", 1), (63, 0));
    assert_eq!(one("s_flbit_i32", 0xffff_0000), (16, 0));
    assert_eq!(one("s_flbit_i32", 0xffff_ffff), (0xffff_ffff, 0));
    assert_eq!(one("s_flbit_i32", 1), (31, 0));
    assert_eq!(one64("s_flbit_i32_i64", 0xffff_ffff_0000_0000), (32, 0));
    assert_eq!(one("s_sext_i32_i8", 0x80), (0xffff_ff80, 0));
    assert_eq!(one("s_sext_i32_i16", 0x1_7fff), (0x7fff, 0));
    assert_eq!(one("s_abs_i32", 0x8000_0000), (0x8000_0000, 1));
    assert_eq!(one("s_abs_i32", 0xffff_fffb), (5, 1));
    assert_eq!(one("s_abs_i32", 0), (0, 0));
    assert_eq!(
        op1("s_bitreplicate_b64_b32", 0x8000_0001, "s[2:3]", "s0", true),
        (0xc000_0000_0000_0003, 1)
    );
    // bitset reads the destination; the bit index takes its low five (six) bits
    let t = "s_mov_b32 s2, -1\ns_mov_b32 s0, 35\ns_bitset0_b32 s2, s0\nv_mov_b32 v10, s2\n\
             s_mov_b32 s4, 0\ns_mov_b32 s5, 0\ns_mov_b32 s0, 40\ns_bitset1_b64 s[4:5], s0\n\
             v_mov_b32 v11, s4\nv_mov_b32 v12, s5";
    assert_eq!(run(t, [0; 6], 0)[..3], [0xffff_fff7, 0, 0x100]);
    // s_cmov moves only when SCC is set
    let c = |scc: bool| {
        let t = format!(
            "{}\ns_mov_b32 s0, 7\ns_mov_b32 s2, 9\ns_cmov_b32 s2, s0\nv_mov_b32 v10, s2",
            scc_pre(scc)
        );
        run(&t, [0; 6], 0)[0]
    };
    assert_eq!((c(true), c(false)), (7, 9));
}

#[test]
fn saveexec_masks_later_writes() {
    // EXEC = 0xf & EXEC: lanes 0..3 write, lane 5 keeps 0; D holds the old EXEC; SCC = 1
    let t = "s_mov_b32 s0, 0xf\ns_and_saveexec_b32 s2, s0\nv_mov_b32 v10, 7\n\
             v_mov_b32 v11, s2\ns_cselect_b32 s3, 1, 0\nv_mov_b32 v12, s3\n\
             s_mov_b32 s4, exec_lo\nv_mov_b32 v13, s4";
    assert_eq!(run(t, [0; 6], 2)[..4], [7, 0xffff_ffff, 1, 0xf]);
    assert_eq!(run(t, [0; 6], 5)[..4], [0, 0, 0, 0]);
    // wrexec: D = the new EXEC (0 here), SCC = 0; nothing after it writes
    let w = "s_mov_b32 s0, -1\ns_andn2_wrexec_b32 s2, s0\nv_mov_b32 v10, 7\n\
             s_mov_b32 exec_lo, -1\nv_mov_b32 v11, s2\ns_cselect_b32 s3, 1, 0\nv_mov_b32 v12, s3";
    assert_eq!(run(w, [0; 6], 0)[..3], [0, 0, 0]);
    // orn1: EXEC = ~S0 | EXEC
    let o = "s_mov_b32 exec_lo, 1\ns_mov_b32 s0, -3\ns_orn1_saveexec_b32 s2, s0\n\
             v_mov_b32 v10, 7\ns_mov_b32 exec_lo, -1\nv_mov_b32 v11, s2";
    assert_eq!(run(o, [0; 6], 2)[..2], [0, 1]);
    assert_eq!(run(o, [0; 6], 1)[..2], [7, 1]);
    assert_eq!(run(o, [0; 6], 0)[..2], [7, 1]);
    // wave64: the upper lanes follow exec_hi
    let t64 = "s_mov_b32 s0, 0\ns_mov_b32 s1, 0x10\ns_and_saveexec_b64 s[2:3], s[0:1]\n\
               v_mov_b32 v10, 7\ns_mov_b64 exec, -1\nv_mov_b32 v11, s3";
    let words = assemble(t64).expect("assembles");
    let k = lower_words(&words, FloatMode::DEFAULT, Wave::W64, Target::Gfx1036).expect("lowers");
    assert_eq!(interp::run(&k, [0; 6], 36)[..2], [7, 0xffff_ffff]);
    assert_eq!(interp::run(&k, [0; 6], 4)[..2], [0, 0xffff_ffff]);
}

#[test]
fn relative_sgpr_moves_with_a_constant_m0() {
    let t = "s_mov_b32 m0, 2\ns_mov_b32 s5, 0x55\ns_movrels_b32 s1, s3\nv_mov_b32 v10, s1\n\
             s_mov_b32 s0, 0x66\ns_movreld_b32 s1, s0\nv_mov_b32 v11, s3\n\
             s_mov_b32 m0, 0x10002\ns_movrelsd_2_b32 s6, s3\nv_mov_b32 v12, s7";
    assert_eq!(run(t, [0; 6], 0)[..3], [0x55, 0x66, 0x55]);
    assert!(lower_err("s_mov_b32 m0, 200\ns_movrels_b32 s1, s3").contains("SGPR file"));
}

#[test]
fn lane_masks_from_valu_ops() {
    // bitwise ops keep this lane's bit of a VALU-written mask
    let t = "v_cmp_lt_u32 vcc_lo, v4, v5\ns_and_b32 s0, vcc_lo, -1\n\
             v_cndmask_b32_e64 v10, 0, 1, s0";
    assert_eq!(run(t, [1, 2, 0, 0, 0, 0], 3)[0], 1);
    assert_eq!(run(t, [2, 1, 0, 0, 0, 0], 3)[0], 0);
    // an op that mixes bits, or SCC of such a mask, needs the whole-wave mask
    let e = lower_err("v_cmp_lt_u32 vcc_lo, v4, v5\ns_add_u32 s0, vcc_lo, 1");
    assert!(e.contains("s_add_u32") && e.contains("lane mask"), "{e}");
    let e =
        lower_err("v_cmp_lt_u32 vcc_lo, v4, v5\ns_and_b32 s0, vcc_lo, -1\ns_cselect_b32 s1, 1, 0");
    assert!(
        e.contains("s_cselect_b32") && e.contains("lane mask"),
        "{e}"
    );
}

#[test]
fn mode_register() {
    // default mode: IEEE 1, DX10_CLAMP 1, f32 denormals flushed, f16/f64 kept, nearest even
    let g = "s_getreg_b32 s0, hwreg(1, 0, 32)\nv_mov_b32 v10, s0";
    assert_eq!(run(g, [0; 6], 0)[0], 0x3c0);
    let fp16 = FloatMode {
        fp16_overflow: true,
        round16: 2,
        ..FloatMode::DEFAULT
    };
    assert_eq!(run_in(g, fp16, Target::Gfx1036, [0; 6], 0)[0], 0x80_03c8);
    let field = "s_getreg_b32 s0, hwreg(1, 6, 2)\nv_mov_b32 v10, s0";
    assert_eq!(run(field, [0; 6], 0)[0], 3);
    // 1 + 2^-24 rounds to 1 to nearest even, to 1 + 2^-23 toward +inf after the write
    let ins = [0x3f80_0000, 0x3380_0000, 0, 0, 0, 0];
    let r = "v_add_f32 v10, v4, v5\ns_round_mode 0x1\nv_add_f32 v11, v4, v5\n\
             s_setreg_imm32_b32 hwreg(1, 0, 2), 0\nv_add_f32 v12, v4, v5\n\
             s_mov_b32 s0, 1\ns_setreg_b32 hwreg(1, 0, 2), s0\nv_add_f32 v13, v4, v5\n\
             s_getreg_b32 s1, hwreg(1, 0, 32)\nv_mov_b32 v14, s1";
    assert_eq!(
        run(r, ins, 0)[..5],
        [0x3f80_0000, 0x3f80_0001, 0x3f80_0000, 0x3f80_0001, 0x3c1]
    );
    // f32 denormals: flushed by default, kept after s_denorm_mode / a setreg of bits 5:4
    let d = "v_mul_f32 v10, v4, 1.0\ns_denorm_mode 0xf\nv_mul_f32 v11, v4, 1.0\n\
             s_setreg_imm32_b32 hwreg(1, 4, 2), 0\nv_mul_f32 v12, v4, 1.0\n\
             s_mov_b32 s0, 3\ns_lshl_b32 s0, s0, 4\ns_setreg_b32 hwreg(1, 0, 8), s0\n\
             v_mul_f32 v13, v4, 1.0";
    assert_eq!(run(d, [1, 0, 0, 0, 0, 0], 0)[..4], [0, 1, 0, 1]);
    // f16/f64 round (bits 3:2) and FP16_OVFL (bit 23)
    let f64r = "v_add_f64 v[10:11], v[4:5], v[6:7]\ns_round_mode 0x4\n\
                v_add_f64 v[12:13], v[4:5], v[6:7]";
    let ins64 = [0, 0x3ff0_0000, 0, 0x3c30_0000, 0, 0];
    assert_eq!(run(f64r, ins64, 0)[..4], [0, 0x3ff0_0000, 1, 0x3ff0_0000]);
    let ovfl = "v_add_f16 v10, v4, v5\ns_setreg_imm32_b32 hwreg(1, 23, 1), 1\n\
                v_add_f16 v11, v4, v5";
    assert_eq!(
        run(ovfl, [0x7bff, 0x7bff, 0, 0, 0, 0], 0)[..2],
        [0x7c00, 0x7bff]
    );
    // values unknown while lowering, other registers and other MODE fields are refused
    let e = lower_err("v_cmp_lt_u32 vcc_lo, v4, v5\ns_setreg_b32 hwreg(1, 0, 4), vcc_lo");
    assert!(e.contains("not a constant"), "{e}");
    assert!(lower_err("s_getreg_b32 s0, hwreg(4, 0, 32)").contains("hardware register 4"));
    assert!(lower_err("s_setreg_imm32_b32 hwreg(1, 12, 1), 1").contains("0x00001000"));
    assert!(lower_err("s_sethalt 1").contains("halts"));
    assert_eq!(run("s_sethalt 0\nv_mov_b32 v10, 3", [0; 6], 0)[0], 3);
}

#[test]
fn valu_reads_scc() {
    let m = "s_cmp_eq_u32 0, 0\nv_mov_b32 v10, src_scc\ns_cmp_eq_u32 0, 1\nv_mov_b32 v11, src_scc";
    assert_eq!(run(m, [0; 6], 0)[..2], [1, 0]);
}
