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

/// The unused src2 field of a two-source VOP3 word is 0, as llvm-mc-19 (LLVM 19.1.7) writes
/// it (hardware rows hold 0x80 there; both decode the same, see above).
#[test]
fn two_source_vop3_leaves_src2_zero() {
    assert_eq!(asm("v_add_f32_e64 v1, v2, v3"), [0xd5030001, 0x00020702]);
    assert_eq!(asm("v_min_u32_e64 v5, v1, v2"), [0xd5130005, 0x00020501]);
    assert_eq!(asm("v_mov_b32_e64 v5, v1"), [0xd5810005, 0x00000101]);
}

/// Words of the memory, export, interpolation and symbolic forms as llvm-mc-19 -mcpu=gfx1030
/// -show-encoding writes them.
#[test]
fn memory_forms_assemble_to_llvm_mc_words() {
    for (text, words) in [
        (
            "ds_add_u32 v1, v2 offset:4",
            &[0xd8000004u32, 0x00000201][..],
        ),
        ("ds_gws_init v7 gds", &[0xd8660000, 0x00000007]),
        ("ds_append v5", &[0xd8f80000, 0x05000000]),
        ("ds_write_addtid_b32 v5", &[0xdac00000, 0x00000500]),
        ("ds_gws_sema_v gds", &[0xd86a0000, 0x00000000]),
        (
            "ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"00p00\") gds",
            &[0xd8d60004, 0x01000002],
        ),
        (
            "buffer_load_dword off, s[8:11], s3 lds",
            &[0xe0310000, 0x03020000],
        ),
        (
            "buffer_load_dword v5, s[8:11], s3 offen lds",
            &[0xe0311000, 0x03020005],
        ),
        (
            "buffer_atomic_add v1, off, s[8:11], s3 glc",
            &[0xe0c84000, 0x03020100],
        ),
        (
            "buffer_load_dword v[1:2], off, s[8:11], s3 tfe",
            &[0xe0300000, 0x03820100],
        ),
        (
            "tbuffer_load_format_x v1, off, s[8:11], s3 format:22 offset:4",
            &[0xe8b00004, 0x03020100],
        ),
        (
            "buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 slc glc",
            &[0xe0305004, 0x01410102],
        ),
        (
            "global_load_dword v[2:3], off lds",
            &[0xdc30a000, 0x007d0002],
        ),
        ("scratch_load_dword off, s3 lds", &[0xdc306000, 0x00030000]),
        ("scratch_load_dword v1, off, m0", &[0xdc304000, 0x017c0000]),
        ("global_load_dword v1, v2, exec", &[0xdc308000, 0x017e0002]),
        ("s_load_dword s1, s[2:3]", &[0xf4000041, 0xfa000000]),
        (
            "s_load_dword s1, s[2:3], s5 offset:-0x1",
            &[0xf4000040 | 1, 0x0a1fffff],
        ),
        (
            "s_buffer_load_dword s1, s[0:3], 0xfffff",
            &[0xf4200040, 0xfa0fffff],
        ),
        (
            "s_load_dwordx2 null, s[0:1], 0x0",
            &[0xf4041f40, 0xfa000000],
        ),
        (
            "exp mrt0 v1, v1, v1, v1 done compr",
            &[0xf8000c0f, 0x00000101],
        ),
        (
            "v_interp_p1ll_f16 v95, -v186, attr4.y high clamp mul:2",
            &[0xd742805f, 0x48037544],
        ),
        (
            "v_interp_p2_f16 v1, |v2|, attr0.x, -|v3|",
            &[0xd75a0601, 0x840e0400],
        ),
        (
            "v_interp_mov_f32_e64 v1, p10, attr0.x mul:2",
            &[0xd6020001, 0x08000000],
        ),
        ("s_waitcnt vmcnt(0) & lgkmcnt(0)", &[0xbf8c0070]),
        ("s_waitcnt vmcnt(0), lgkmcnt(0)", &[0xbf8c0070]),
        ("s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)", &[0xbf8c0321]),
        ("s_waitcnt vmcnt_sat(64)", &[0xbf8cff7f]),
        ("s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)", &[0xbf900022]),
        (
            "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_TTRACE_PC)",
            &[0xbf90004f],
        ),
        (
            "s_waitcnt_depctr depctr_va_vdst(0) & depctr_sa_sdst(0)",
            &[0xbfa30f9e],
        ),
        (
            "s_getreg_b32 s0, hwreg(HW_REG_SHADER_CYCLES)",
            &[0xb900f81d],
        ),
        (
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0x3",
            &[0xba801801, 3],
        ),
        ("s_version 31|UC_VERSION_W64_BIT", &[0xb080201f]),
        ("s_endpgm 5", &[0xbf810005]),
        (
            "image_sample v[1:4], [v0, v5, v9], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_3D",
            &[0xf0800f12, 0x00400100, 0x00000905],
        ),
        (
            "image_sample_d v[1:4], v[0:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D",
            &[0xf0880f08, 0x00400100],
        ),
        (
            "image_bvh_intersect_ray v[4:7], v[9:16], s[4:7] a16",
            &[0xf1989f01, 0x40010409],
        ),
        (
            "image_load v1, v0, s[0:7] dim:SQ_RSRC_IMG_1D",
            &[0xf0000000, 0x00000100],
        ),
    ] {
        assert_eq!(asm(text), words, "{text}");
    }
}

/// Lines llvm-mc-19 rejects, rejected with a reason.
#[test]
fn memory_forms_reject_as_llvm_mc() {
    for bad in [
        "ds_nop offset:4",
        "ds_permute_b32 v1, v2, v3 gds",
        "ds_write_b32 v1, v2 gds offset:4",
        "buffer_load_dword v1, off, s[8:11], s3 lds",
        "buffer_atomic_add v1, off, s[8:11], s3 tfe",
        "buffer_store_dword v1, off, s[4:7], s1 offset:4096",
        "buffer_load_dword v1, v2, s[4:7], s1 offset:4 offen",
        "tbuffer_load_format_x v1, off, s[4:7], s1 tfe",
        "tbuffer_load_format_x v1, off, s[8:11], s3 offset:4 format:22",
        "global_load_dwordx2 v[2:3], off lds",
        "flat_load_dword v1, v[2:3] offset:2048",
        "s_buffer_load_dword s1, s[0:3], -1",
        "s_load_dwordx4 null, s[0:1], 0",
        "s_memtime s[0:1] glc",
        "exp mrt0 v1, v1, v1, v1 vm done",
        "v_interp_p2_f16 v1, v2, attr0.x, v3 mul:2",
        "v_interp_p1ll_f16 v1, v2, attr0.x mul:2 high",
        "v_interp_p1_f32 v1, v2, attr33.x",
        "s_waitcnt vmcnt(64)",
        "s_getreg_b32 s[0:1], hwreg(HW_REG_MODE)",
        "s_wakeup 5",
        "image_load v1, v0, s[0:7] dmask:0x1",
        "image_load v1, v0, s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_1D r128",
        "image_sample v[1:2], v0, s[0:7], s[8:11] dmask:0x3 dim:SQ_RSRC_IMG_1D tfe",
        "image_gather4 v[1:4], v[0:1], s[0:7], s[8:11] dim:SQ_RSRC_IMG_2D",
        "image_atomic_add v1, v0, s[0:7] dmask:0x2 dim:SQ_RSRC_IMG_1D",
        "image_msaa_load v1, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "v_add_f32_e64 v1, v2, v3 mul:2 clamp",
        "v_add_f32_dpp v1, v2, v3 row_mask:0xf quad_perm:[0,1,2,3]",
    ] {
        let e = rejects(bad);
        assert!(!e.message.is_empty(), "{bad}");
    }
}

/// llvm-mc-19 takes src_vccz, src_execz, src_scc and src_pops_exiting_wave_id as the SGPR
/// destination of v_readfirstlane_b32 / v_readlane_b32, which the printer prints back.
#[test]
fn special_sources_as_valu_sgpr_destinations() {
    assert_eq!(asm("v_readfirstlane_b32 src_vccz, v1"), [0x7ff60501]);
    assert_eq!(
        asm("v_readlane_b32 src_pops_exiting_wave_id, v1, s2"),
        [0xd76000ef, 0x00000501]
    );
}

#[test]
fn memory_errors_point_at_the_modifier() {
    let e = rejects("buffer_atomic_add v1, off, s[8:11], s3 dlc");
    assert_eq!(e.column, 40, "{e}");
    let e = rejects("image_atomic_add v1, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D d16");
    assert_eq!(e.column, 62, "{e}");
    let e = rejects("ds_add_u32 v1, v2 offset:65536");
    assert_eq!(e.column, 26, "{e}");
}
