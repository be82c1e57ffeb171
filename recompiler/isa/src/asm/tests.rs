//! Assembler tests: round trips through the decoder and the error positions.

use super::*;

fn asm(s: &str) -> Vec<u32> {
    assemble(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn hardware_rows_assemble_to_their_words() {
    assert_eq!(asm("v_add_f32 v10, v4, v5"), [0x06140b04]);
    assert_eq!(asm("v_mul_f32 v17, -v4, v5"), [0xd5080011, 0x22020b04]);
    assert_eq!(asm("v_mul_f32 v25, |v4|, -v5"), [0xd5080119, 0x42020b04]);
    assert_eq!(asm("v_mov_b32 v10, 0xabcdabcd"), [0x7e1402ff, 0xabcdabcd]);
    assert_eq!(
        asm("v_fma_f32 v12, v4, v5, v6 clamp"),
        [0xd54b800c, 0x041a0b04]
    );
    assert_eq!(
        asm("v_mul_f32_e64 v17, v4, v6 clamp mul:2"),
        [0xd5088011, 0x0a020d04]
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
