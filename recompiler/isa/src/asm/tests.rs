//! Assembler tests: round trips through the decoder and the error positions.

use super::*;

fn asm(s: &str) -> Vec<u32> {
    assemble(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Words as llvm-mc-19 -mcpu=gfx1030 -show-encoding writes them (unused VOP3 source fields 0).
#[test]
fn rows_assemble_to_llvm_mc_words() {
    assert_eq!(asm("v_add_f32 v10, v4, v5"), [0x06140b04]);
    assert_eq!(asm("v_mul_f32 v17, -v4, v5"), [0xd5080011, 0x20020b04]);
    assert_eq!(asm("v_mul_f32 v25, |v4|, -v5"), [0xd5080119, 0x40020b04]);
    assert_eq!(asm("v_mov_b32 v10, 0xabcdabcd"), [0x7e1402ff, 0xabcdabcd]);
    assert_eq!(
        asm("v_fma_f32 v12, v4, v5, v6 clamp"),
        [0xd54b800c, 0x041a0b04]
    );
    assert_eq!(
        asm("v_mul_f32_e64 v17, v4, v6 clamp mul:2"),
        [0xd5088011, 0x08020d04]
    );
    assert_eq!(
        asm("v_fmamk_f32 v14, v4, 0x3f7ffffe, v6"),
        [0x581c0d04, 0x3f7ffffe]
    );
    assert_eq!(
        asm("v_fmaak_f32 v15, v4, v5, 0x80000000"),
        [0x5a1e0b04, 0x80000000]
    );
    assert_eq!(asm("v_cmp_lt_f32 vcc_lo, v4, v5"), [0x7c020b04]);
    assert_eq!(
        asm("v_cndmask_b32_e64 v17, 0, 1, vcc_lo"),
        [0xd5010011, 0x01a90280]
    );
    assert_eq!(
        asm("v_div_scale_f32 v10, s20, v4, v5, v6"),
        [0xd56d140a, 0x041a0b04]
    );
    assert_eq!(
        asm("v_fma_f16 v20, v7, v7, v7 op_sel:[0,1,0,0] clamp"),
        [0xd74b9014, 0x041e0f07]
    );
    assert_eq!(
        asm("v_fma_mix_f32 v12, v4, v5, v6 op_sel:[0,1,0] op_sel_hi:[0,1,0]"),
        [0xcc20100c, 0x141a0b04]
    );
    assert_eq!(
        asm("v_add_f16_sdwa v18, v4, v5 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0"),
        [0x64240af9, 0x04041504]
    );
    assert_eq!(
        asm("s_mov_b32 s1, -1 ; s_add_u32 s0, s1, 0x12345"),
        [0xbe8103c1, 0x8000ff01, 0x12345]
    );
}

#[test]
fn errors_have_columns() {
    let e = assemble("v_add_f32 v10, v4, v5\nv_add_f32 v10, q4, v5").unwrap_err();
    assert_eq!((e.line, e.column), (2, 16));
    let e = assemble("s_nop 0; v_bogus v1").unwrap_err();
    assert_eq!((e.line, e.column), (1, 10));
}

#[test]
fn hwreg_operands_pack_into_simm16() {
    // words as llvm-mc-19 -mcpu=gfx1030 -show-encoding gives them
    assert_eq!(asm("s_getreg_b32 s0, hwreg(1, 0, 32)"), [0xb900f801]);
    assert_eq!(asm("s_setreg_b32 hwreg(1, 4, 2), s0"), [0xb9800901]);
    assert_eq!(
        asm("s_setreg_imm32_b32 hwreg(1, 0, 2), 1"),
        [0xba800801, 0x00000001]
    );
    for bad in [
        "s_getreg_b32 s0, hwreg(1, 0, 33)",
        "s_getreg_b32 s0, hwreg(64, 0, 1)",
        "s_setreg_b32 hwreg(1, 0, 4), v0",
        "s_getreg_b32 s0, hwreg(1, 0)",
    ] {
        assert!(assemble(bad).is_err(), "{bad}");
    }
}

/// Hardware rows hold inline 0 (0x80) in unused VOP3 source fields, llvm-mc-19 writes 0: both
/// decode to the same instruction, and each round-trips to its own words.
#[test]
fn unused_vop3_sources_decode_either_way() {
    use crate::decode::{decode_one, Decoded};
    use crate::mode::Wave;
    let text = |w: &[u32]| match decode_one(w, 0) {
        Ok(Decoded::Inst(i)) => {
            assert_eq!(crate::encode(&i), w, "round trip");
            i.to_llvm_text(Wave::W32)
        }
        other => panic!("{w:08x?}: {other:?}"),
    };
    for (old, new) in [
        ([0xd5080011u32, 0x22020b04], [0xd5080011u32, 0x20020b04]),
        ([0xd5088011, 0x0a020d04], [0xd5088011, 0x08020d04]),
    ] {
        assert_eq!(text(&old), text(&new));
    }
}

fn rejects(s: &str) -> AsmError {
    match assemble(s) {
        Ok(w) => panic!("`{s}` assembled to {w:08x?}; llvm-mc-19 rejects it"),
        Err(e) => e,
    }
}

#[test]
fn operand_count_is_exact() {
    let e = rejects("v_add_f32 v10, v4");
    assert!(e.message.contains("too few operands"), "{e}");
    let e = rejects("v_add_f32 v10, v4, v5, v6");
    assert_eq!(e.column, 24, "{e}");
    let e = rejects("v_dot4c_i32_i8 v0, v1, v2, v3 op_sel:[0,0,0,0]");
    assert_eq!(e.column, 28, "{e}");
    rejects("v_dot4c_i32_i8 v0, v1, v2 op_sel:[0,0,0]");
    assert_eq!(asm("v_dot4c_i32_i8 v0, v1, v2"), [0x1a000501]);
    rejects("s_add_u32 s0, s1");
    // Register widths: s_bfm_b64 reads 32-bit sources; `null` has any width.
    rejects("s_bfm_b64 s[4:5], s[0:1], s2");
    rejects("s_and_b64 s[0:1], s2, s[2:3]");
    assert_eq!(asm("s_swappc_b64 null, s[0:1]"), [0xbefd2100]);
    rejects("s_add_u32 s0, s1, s2, s3");
}

#[test]
fn constant_bus_limits() {
    // 64-bit shifts read one scalar value; a literal counts as one.
    rejects("v_ashrrev_i64 v[0:1], s2, s[0:1]");
    rejects("v_ashrrev_i64 v[0:1], s1, 0x1234");
    assert_eq!(
        asm("v_ashrrev_i64 v[0:1], 0x1234, v[0:1]"),
        [0xd7010000, 0x000200ff, 0x1234]
    );
    // Others read two; the same SGPR twice counts once; v_div_fmas reads VCC.
    rejects("v_fma_f32 v5, s3, s2, s1");
    rejects("v_fma_f32 v5, s3, 0x1234, s2");
    assert_eq!(asm("v_fma_f32 v5, s3, s2, s2"), [0xd54b0005, 0x00080403]);
    rejects("v_div_fmas_f32 v5, s3, s3, s2");
    assert_eq!(
        asm("v_div_fmas_f32 v5, s3, s3, v2"),
        [0xd56f0005, 0x04080603]
    );
    assert_eq!(
        asm("v_div_fmas_f32 v5, vcc_lo, v3, v2"),
        [0xd56f0005, 0x040a066a]
    );
    rejects("v_cndmask_b32_e64 v0, s1, s2, s3");
    rejects("v_add_co_ci_u32_e64 v5, s0, s1, s2, s3");
    // `null` is not read through the bus.
    assert_eq!(asm("v_fma_f32 v0, null, s1, s2"), [0xd54b0000, 0x0008027d]);
}

#[test]
fn literals() {
    rejects("v_fma_f32 v5, 0x1234, 0x1235, v2");
    assert_eq!(
        asm("v_fma_f32 v5, 0x1234, 0x1234, s2"),
        [0xd54b0005, 0x0009feff, 0x1234]
    );
    rejects("v_fmamk_f32 v0, 0x1235, 0x1234, v2");
    rejects("v_add_f32_sdwa v0, 0x1234, v2");
    rejects("s_add_u32 s0, 0x1234, 0x1235");
}

#[test]
fn constant_carry_in_and_lane_masks() {
    rejects("v_add_co_ci_u32 v5, vcc_lo, v1, v2, 0");
    rejects("v_add_co_ci_u32_e64 v5, s0, v1, v2, 0");
    rejects("v_cndmask_b32_e64 v0, v1, v2, -1");
    assert_eq!(
        asm("v_add_co_ci_u32 v5, vcc_lo, v1, v2, vcc_lo"),
        [0x500a0501]
    );
    // Wave sizes: the lane mask is one SGPR in wave32, a pair in wave64.
    use crate::mode::Wave;
    assert!(assemble_for("v_cmp_lt_f32_e64 s[0:1], v1, v2", Wave::W32).is_err());
    assert!(assemble_for("v_cmp_lt_f32_e64 s0, v1, v2", Wave::W64).is_err());
    assert_eq!(
        assemble_for("v_cmp_lt_f32_e64 s[0:1], v1, v2", Wave::W64).unwrap(),
        asm("v_cmp_lt_f32_e64 s0, v1, v2")
    );
}

#[test]
fn modifiers_per_form() {
    rejects("v_add_f32 v0, v1, v2 op_sel:[0,0,0]");
    rejects("v_add_f16_e64 v0, v1, v2 op_sel:[0,0,0]");
    rejects("v_fma_f32 v0, v1, v2, v3 op_sel:[0,0,0,0]");
    rejects("v_and_b32_e64 v0, v1, v2 mul:2");
    rejects("v_and_b32_e64 v0, -v1, v2");
    rejects("v_mov_b32_e64 v0, v1 clamp");
    rejects("v_readlane_b32 s0, v1, v2");
    assert_eq!(
        asm("v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0,0]"),
        [0xd74b0800, 0x040e0501]
    );
    // Two-source VOP3P: op_sel_hi defaults to ones for all three fields.
    assert_eq!(asm("v_pk_add_f16 v0, v1, v2"), [0xcc0f4000, 0x18020501]);
}

#[test]
fn sdwa_dst_unused_defaults_to_preserve() {
    assert_eq!(
        asm("v_min_u32_sdwa v5, v1, v2 dst_sel:DWORD src0_sel:DWORD src1_sel:DWORD"),
        [0x260a04f9, 0x06061601]
    );
}

#[test]
fn two_source_vop3_leaves_src2_zero() {
    assert_eq!(asm("v_min_u32_e64 v5, v1, v2"), [0xd5130005, 0x00020501]);
    assert_eq!(asm("v_mov_b32_e64 v5, v1"), [0xd5810005, 0x00000101]);
}
