//! The probe kernel template: the lane contract of ARCHITECTURE.md as gfx103x assembly.
//!
//! One lane runs one row. Kernel arguments (32 bytes, 8-byte aligned):
//!
//! | offset | argument |
//! |---|---|
//! | 0x00 | `in`: row inputs, [`INPUT_DWORDS`] dwords per row |
//! | 0x08 | `out`: row outputs, [`OUTPUT_DWORDS`] dwords per row |
//! | 0x10 | `done`: one dword per row, set to [`DONE_MARK`] after the row's outputs are stored |
//! | 0x18 | `rows`: number of rows in this dispatch |
//!
//! Before the body: v4..v9 hold in0..in5 (zero for lanes past `rows`), v10..v25 are zero, EXEC
//! has every lane of the wave, VCC is zero, the float mode comes from the kernel descriptor.
//! After the body the template sets EXEC to the lanes whose row exists and stores v10..v25 and
//! the done mark; lanes past `rows` never touch memory.
//!
//! The body may use every VGPR and SGPR except the template's reserved ones: **s100:s101** (the
//! kernel-argument pointer) and **v255** (the lane's row index). Everything the epilogue needs is
//! recomputed from those two, so a body may clobber EXEC, VCC, M0 and s0..s99, s102..s105.
//! A body that ends the program or branches away leaves its rows without the done mark, which the
//! executor reports as an error instead of returning stale memory.

use std::fmt::Write as _;

use crate::error::{OracleError, Result};
#[cfg(test)]
use crate::mode::FloatMode;
use crate::mode::{Mode, Target, Wave};

/// Input dwords per row (in0..in5 -> v4..v9).
pub const INPUT_DWORDS: usize = 6;
/// Output dwords per row (v10..v25 -> out0..out15).
pub const OUTPUT_DWORDS: usize = 16;
/// Lanes per workgroup. `v255 = workgroup_id * WORKGROUP_SIZE + local id`.
pub const WORKGROUP_SIZE: u32 = 256;
/// Size of the kernel-argument block.
pub const KERNARG_SIZE: usize = 32;
/// The value the template writes to `done[row]`.
pub const DONE_MARK: u32 = 0x600d_cafe;
/// SGPRs the body must not write.
pub const RESERVED_SGPRS: [u32; 2] = [100, 101];
/// VGPRs the body must not write.
pub const RESERVED_VGPRS: [u32; 1] = [255];
/// The kernel's symbol; its descriptor is `probe.kd`.
pub const KERNEL_NAME: &str = "probe";
/// Marker comments around the body in the generated source.
pub const BODY_BEGIN: &str = "; ---- body begin ----";
pub const BODY_END: &str = "; ---- body end ----";

/// The body's words as `.long` directives between [`BODY_BEGIN`] and [`BODY_END`].
pub(crate) fn write_body(s: &mut String, body: &[u32]) {
    let _ = writeln!(s, "  {BODY_BEGIN}");
    for w in body {
        let _ = writeln!(s, "  .long 0x{w:08x}");
    }
    let _ = writeln!(s, "  {BODY_END}");
}

/// The assembler options the template needs for `mode` (comgr's assemble action, clang driver
/// spelling). comgr 2.4 rejects `-mattr=`, but takes `-mwavefrontsize64`, which switches the
/// assembler's operand checks to wave64 (`vcc` instead of `vcc_lo`).
pub fn assembler_options(mode: &Mode) -> Vec<&'static str> {
    // Code object v4 is what ROCm 5.x loads and what ROCm 6 still accepts; fixing it keeps the
    // metadata below (amdhsa.version 1.1) consistent with the ELF header on every comgr.
    let mut o = vec!["-mcode-object-version=4"];
    if mode.wave == Wave::W64 {
        o.push("-mwavefrontsize64");
    }
    o
}

/// Generates the kernel source for `target`, `mode` and `body` (the body's words verbatim).
pub fn kernel_source(target: Target, mode: &Mode, body: &[u32]) -> Result<String> {
    mode.validate()?;
    if body.is_empty() {
        return Err(OracleError::EmptyBody);
    }
    let w64 = mode.wave == Wave::W64;
    // Wave-dependent spellings: the mask registers and their 32/64-bit scalar ops.
    let (exec, vcc, b, save) = if w64 {
        ("exec", "vcc", "b64", "s[8:9]")
    } else {
        ("exec_lo", "vcc_lo", "b32", "s8")
    };
    let mut s = String::with_capacity(4096 + body.len() * 24);
    let isa = target.isa_name();
    let _ = writeln!(
        s,
        "; rdnaprobe probe kernel: {target}, wave{}",
        mode.wave.lanes()
    );
    let _ = writeln!(s, ".amdgcn_target \"{isa}\"");
    s.push_str(".text\n.globl probe\n.p2align 8\n.type probe,@function\nprobe:\n");
    // s[0:1] = kernarg pointer (user SGPR), s2 = workgroup id x (system SGPR), v0 = local id.
    s.push_str("  s_mov_b64 s[100:101], s[0:1]\n");
    s.push_str("  s_load_dwordx2 s[4:5], s[100:101], 0x0\n");
    s.push_str("  s_load_dword s6, s[100:101], 0x18\n");
    let _ = writeln!(
        s,
        "  v_lshl_add_u32 v255, s2, {}, v0",
        WORKGROUP_SIZE.trailing_zeros()
    );
    for v in 4..=25 {
        let _ = writeln!(s, "  v_mov_b32 v{v}, 0");
    }
    s.push_str("  s_waitcnt lgkmcnt(0)\n");
    // Only lanes whose row exists read their inputs.
    let _ = writeln!(s, "  v_cmp_gt_u32 {vcc}, s6, v255");
    let _ = writeln!(s, "  s_and_saveexec_{b} {save}, {vcc}");
    let _ = writeln!(s, "  v_mul_lo_u32 v1, v255, {}", INPUT_DWORDS * 4);
    s.push_str("  global_load_dwordx4 v[4:7], v1, s[4:5]\n");
    s.push_str("  global_load_dwordx2 v[8:9], v1, s[4:5] offset:16\n");
    s.push_str("  s_waitcnt vmcnt(0)\n");
    let _ = writeln!(s, "  s_mov_{b} {exec}, -1");
    let _ = writeln!(s, "  s_mov_{b} {vcc}, 0");
    s.push_str("  v_mov_b32 v1, 0\n");
    write_body(&mut s, body);
    // Epilogue: everything is recomputed from s[100:101] and v255.
    s.push_str("  s_load_dwordx4 s[0:3], s[100:101], 0x8\n");
    s.push_str("  s_load_dword s4, s[100:101], 0x18\n");
    let _ = writeln!(s, "  s_mov_{b} {exec}, -1");
    s.push_str("  s_waitcnt lgkmcnt(0)\n");
    let _ = writeln!(s, "  v_cmp_gt_u32 {vcc}, s4, v255");
    let _ = writeln!(s, "  s_mov_{b} {exec}, {vcc}");
    s.push_str("  v_lshlrev_b32 v254, 2, v255\n");
    let _ = writeln!(
        s,
        "  v_lshlrev_b32 v255, {}, v255",
        (OUTPUT_DWORDS * 4).trailing_zeros()
    );
    for q in 0..OUTPUT_DWORDS / 4 {
        let first = 10 + 4 * q;
        let _ = writeln!(
            s,
            "  global_store_dwordx4 v255, v[{first}:{}], s[0:1] offset:{}",
            first + 3,
            q * 16
        );
    }
    let _ = writeln!(s, "  v_mov_b32 v253, 0x{DONE_MARK:08x}");
    s.push_str("  global_store_dword v254, v253, s[2:3]\n");
    s.push_str("  s_endpgm\n.Lprobe_end:\n.size probe, .Lprobe_end-probe\n\n");

    s.push_str(".rodata\n.p2align 6\n.amdhsa_kernel probe\n");
    s.push_str("  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n");
    let _ = writeln!(s, "  .amdhsa_kernarg_size {KERNARG_SIZE}");
    s.push_str("  .amdhsa_system_sgpr_workgroup_id_x 1\n");
    s.push_str("  .amdhsa_system_vgpr_workitem_id 0\n");
    // The whole register file is the body's: 256 VGPRs (the per-wave maximum on gfx10 for both
    // wave sizes) and all 106 addressable SGPRs plus VCC.
    s.push_str("  .amdhsa_next_free_vgpr 256\n");
    s.push_str("  .amdhsa_next_free_sgpr 106\n");
    s.push_str("  .amdhsa_reserve_vcc 1\n");
    let _ = writeln!(s, "  .amdhsa_ieee_mode {}", u8::from(mode.float.ieee));
    let _ = writeln!(
        s,
        "  .amdhsa_dx10_clamp {}",
        u8::from(mode.float.dx10_clamp)
    );
    let _ = writeln!(s, "  .amdhsa_float_denorm_mode_32 {}", mode.float.denorm32);
    let _ = writeln!(
        s,
        "  .amdhsa_float_denorm_mode_16_64 {}",
        mode.float.denorm16
    );
    let _ = writeln!(s, "  .amdhsa_float_round_mode_32 {}", mode.float.round32);
    let _ = writeln!(s, "  .amdhsa_float_round_mode_16_64 {}", mode.float.round16);
    // FP16_OVFL is a descriptor bit on gfx9+; LLVM in ROCm 5.2 (comgr 2.4) accepts the directive,
    // so no s_setreg is needed.
    let _ = writeln!(
        s,
        "  .amdhsa_fp16_overflow {}",
        u8::from(mode.float.fp16_overflow)
    );
    let _ = writeln!(s, "  .amdhsa_wavefront_size32 {}", u8::from(!w64));
    s.push_str(".end_amdhsa_kernel\n\n");

    // HIP's loader finds kernels through this metadata note (code object v4: amdhsa.version 1.1).
    s.push_str(".amdgpu_metadata\n---\namdhsa.version: [ 1, 1 ]\namdhsa.kernels:\n");
    s.push_str("  - .name: probe\n    .symbol: probe.kd\n");
    let _ = writeln!(s, "    .kernarg_segment_size: {KERNARG_SIZE}");
    s.push_str("    .kernarg_segment_align: 8\n");
    s.push_str("    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n");
    let _ = writeln!(s, "    .wavefront_size: {}", mode.wave.lanes());
    s.push_str("    .sgpr_count: 108\n    .vgpr_count: 256\n");
    let _ = writeln!(s, "    .max_flat_workgroup_size: {WORKGROUP_SIZE}");
    s.push_str("    .args:\n");
    for (name, offset) in [("in", 0), ("out", 8), ("done", 16)] {
        let _ = writeln!(
            s,
            "      - {{ .name: {name}, .offset: {offset}, .size: 8, .value_kind: global_buffer, .address_space: global }}"
        );
    }
    s.push_str("      - { .name: rows, .offset: 24, .size: 4, .value_kind: by_value }\n");
    s.push_str("...\n.end_amdgpu_metadata\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_words_appear_verbatim_between_markers() {
        let src = kernel_source(
            Target::Gfx1030,
            &Mode::default(),
            &[0x7e14_0280, 0xdeadbeef],
        )
        .unwrap();
        let begin = src.find(BODY_BEGIN).unwrap();
        let end = src.find(BODY_END).unwrap();
        assert_eq!(src[begin..end].matches(".long").count(), 2);
        assert!(src[begin..end].contains(".long 0xdeadbeef"));
    }

    #[test]
    fn wave_size_changes_mask_spelling() {
        let m64 = Mode {
            wave: Wave::W64,
            ..Mode::default()
        };
        let s64 = kernel_source(Target::Gfx1030, &m64, &[0]).unwrap();
        assert!(s64.contains("s_mov_b64 exec, -1") && s64.contains(".amdhsa_wavefront_size32 0"));
        let s32 = kernel_source(Target::Gfx1030, &Mode::default(), &[0]).unwrap();
        assert!(
            s32.contains("s_mov_b32 exec_lo, -1") && s32.contains(".amdhsa_wavefront_size32 1")
        );
        assert_eq!(
            assembler_options(&m64),
            ["-mcode-object-version=4", "-mwavefrontsize64"]
        );
    }

    /// The lane kernel is what lane datasets were measured with: its source must not change
    /// byte for byte (the golden files are its output before the wave contract was added).
    #[test]
    fn lane_template_source_is_unchanged() {
        let body = [0x7e14_0304, 0x0616_0b04, 0x7e18_02ff, 0xabcd_abcd];
        let m64 = Mode::new(
            FloatMode {
                denorm32: 3,
                round16: 2,
                ..FloatMode::DEFAULT
            },
            Wave::W64,
        );
        assert_eq!(
            kernel_source(Target::Gfx1030, &Mode::default(), &body).unwrap(),
            include_str!("../tests/golden/lane_gfx1030_wave32.s")
        );
        assert_eq!(
            kernel_source(Target::Gfx1036, &m64, &body).unwrap(),
            include_str!("../tests/golden/lane_gfx1036_wave64.s")
        );
    }

    #[test]
    fn rejects_empty_body_and_bad_mode() {
        assert!(matches!(
            kernel_source(Target::Gfx1030, &Mode::default(), &[]),
            Err(OracleError::EmptyBody)
        ));
        let bad = Mode::new(
            FloatMode {
                denorm16: 7,
                ..FloatMode::DEFAULT
            },
            Wave::W32,
        );
        assert!(kernel_source(Target::Gfx1030, &bad, &[0]).is_err());
    }
}
