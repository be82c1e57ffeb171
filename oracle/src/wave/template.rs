//! The wave-contract probe kernel: one workgroup is one wave, and every wave of a dispatch reads
//! its own inputs through a per-wave entry of the wave table.
//!
//! Kernel arguments ([`WAVE_KERNARG_SIZE`] bytes): `table` (u64 pointer to one
//! [`ENTRY_BYTES`]-byte entry per wave, indexed by the workgroup id) and `waves` (u32). The
//! entry's fields are the `ENTRY_*` offsets below; the executor ([`super::exec`]) fills them.
//!
//! Before the body, on every lane: v4..v9 = the lane's in0..in5, every other VGPR below v255 = 0;
//! s0..s15 = `s_in`, `s[16:17]` = the memory region's address, `s[20:23]` = a raw buffer resource for
//! the region (word3 [`RAW_BUFFER_WORD3`]), the other SGPRs below s100 = 0; M0 = 0, VCC = 0,
//! SCC = 0; LDS = `lds_in` then zeros up to the allocation; EXEC = `exec_in`. A body with a
//! scratch instruction ([`uses_scratch`]) gets [`SCRATCH_BYTES`] of private memory per lane,
//! zeroed: the descriptor asks for flat scratch init (s[2:3]) and the wave's scratch offset
//! (after the workgroup id, s5), and the prologue sets FLAT_SCRATCH from them.
//!
//! After the body the epilogue captures SCC, EXEC, VCC and s0..s15 (in that order, before it
//! changes any of them), stores v10..v25 of every lane of the wave, the uniform outputs, the LDS
//! allocation, and finally the done mark. Reserved: **s100:s101** (the wave's entry),
//! **s102..s105** (epilogue scratch) and **v255** (the lane id).

use std::fmt::Write as _;

use crate::error::{OracleError, Result};
use crate::mode::{Mode, Target, Wave};
use crate::template::{write_body, DONE_MARK, INPUT_DWORDS, KERNEL_NAME, OUTPUT_DWORDS};

/// Size of the kernel-argument block: `table` (u64) and `waves` (u32), padded.
pub const WAVE_KERNARG_SIZE: usize = 16;
/// Bytes of one wave's entry in the wave table.
pub const ENTRY_BYTES: usize = 128;
/// u64: the wave's lane inputs, [`INPUT_DWORDS`] dwords per lane, lane-major, every lane.
pub const ENTRY_LANES_IN: usize = 0x00;
/// u64: the wave's lane outputs (v10..v25), [`OUTPUT_DWORDS`] dwords per lane, every lane.
pub const ENTRY_LANES_OUT: usize = 0x08;
/// u64: the wave's uniform outputs, [`UNIFORM_OUT_DWORDS`] dwords (`UNIFORM_*` indices).
pub const ENTRY_UNIFORM_OUT: usize = 0x10;
/// u64: LDS contents before the body (the whole allocation); unused without LDS.
pub const ENTRY_LDS_IN: usize = 0x18;
/// u64: LDS contents after the body (the whole allocation); unused without LDS.
pub const ENTRY_LDS_OUT: usize = 0x20;
/// u64: the memory region's address (`s[16:17]` and the V# base).
pub const ENTRY_REGION: usize = 0x28;
/// u32: the memory region's size in bytes (the V#'s num_records).
pub const ENTRY_REGION_BYTES: usize = 0x30;
/// u64: EXEC before the body (wave32 uses the low half).
pub const ENTRY_EXEC_IN: usize = 0x38;
/// 16 x u32: s0..s15 before the body.
pub const ENTRY_S_IN: usize = 0x40;

/// Dwords of a wave's uniform-output area.
pub const UNIFORM_OUT_DWORDS: usize = 24;
/// Index of s0 in the uniform outputs (s0..s15 follow).
pub const UNIFORM_S: usize = 0;
/// Index of EXEC's low dword (the high dword follows; zero in wave32).
pub const UNIFORM_EXEC: usize = 16;
/// Index of VCC's low dword (the high dword follows; zero in wave32).
pub const UNIFORM_VCC: usize = 18;
/// Index of SCC (0 or 1).
pub const UNIFORM_SCC: usize = 20;
/// Index of the done mark ([`DONE_MARK`] once every other store of the wave has completed).
pub const UNIFORM_DONE: usize = 23;

/// LDS is allocated in granules of this many bytes (COMPUTE_PGM_RSRC2.LDS_SIZE counts 128-dword
/// blocks on gfx10); the template copies whole granules in and out.
pub const LDS_GRANULE: u32 = 512;
/// The largest LDS allocation of one workgroup on gfx10.
pub const MAX_LDS_BYTES: u32 = 65536;
/// SGPRs the body must not write.
pub const WAVE_RESERVED_SGPRS: [u32; 6] = [100, 101, 102, 103, 104, 105];
/// VGPRs the body must not write.
pub const WAVE_RESERVED_VGPRS: [u32; 1] = [255];

/// Word3 of the region's V# in s23: DST_SEL_XYZW = X,Y,Z,W (0xfac), FORMAT = 32_FLOAT (22, the
/// gfx10 unified format, bits 18:12), RESOURCE_LEVEL = 1 (bit 24, required on gfx10),
/// OOB_SELECT = 3 (raw: out of range when offset >= num_records, bits 29:28). This is the word
/// Mesa's `ac_build_raw_buffer_descriptor` and LLVM-compiled gfx10 code use for raw buffers.
pub const RAW_BUFFER_WORD3: u32 = 0x3101_6fac;

/// The LDS allocation the kernel gets for `lds_bytes` requested bytes: rounded up to
/// [`LDS_GRANULE`].
pub fn lds_alloc_bytes(lds_bytes: u32) -> u32 {
    lds_bytes.div_ceil(LDS_GRANULE) * LDS_GRANULE
}

/// What a wave kernel is built for besides its body and mode.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct WaveShape {
    pub wave: Wave,
    /// Requested LDS bytes (0 = no LDS); the kernel allocates [`lds_alloc_bytes`] of it.
    pub lds_bytes: u32,
}

impl WaveShape {
    pub fn lanes(&self) -> usize {
        self.wave.lanes() as usize
    }
    pub fn lds_alloc(&self) -> u32 {
        lds_alloc_bytes(self.lds_bytes)
    }
    pub fn validate(&self) -> Result<()> {
        if self.lds_bytes > MAX_LDS_BYTES {
            return Err(OracleError::InvalidWave(format!(
                "lds_bytes {} exceeds the {MAX_LDS_BYTES}-byte LDS of a workgroup",
                self.lds_bytes
            )));
        }
        Ok(())
    }
}

/// Wave-size spellings: EXEC/VCC halves and the "all lanes", "lanes 0..31" and "lane 0" masks.
struct Masks {
    w64: bool,
}

impl Masks {
    /// EXEC = `lo` (low 32 lanes) and, in wave64, `hi`.
    fn exec(&self, s: &mut String, lo: &str, hi: &str) {
        let _ = writeln!(s, "  s_mov_b32 exec_lo, {lo}");
        if self.w64 {
            let _ = writeln!(s, "  s_mov_b32 exec_hi, {hi}");
        }
    }
}

/// Copies the LDS allocation between memory at `s[ptr:ptr+1]` and LDS, 16 bytes per lane of
/// lanes 0..31 per iteration (512 bytes: one granule), counter in `counter`, address in `vaddr`.
fn lds_loop(s: &mut String, label: &str, to_lds: bool, ptr: u32, counter: u32, alloc: u32) {
    s.push_str("  v_lshlrev_b32 v2, 4, v255\n");
    let _ = writeln!(s, "  s_mov_b32 s{counter}, 0");
    let _ = writeln!(s, "{label}:");
    if to_lds {
        let _ = writeln!(
            s,
            "  global_load_dwordx4 v[26:29], v2, s[{ptr}:{}]",
            ptr + 1
        );
        s.push_str("  s_waitcnt vmcnt(0)\n  ds_write_b128 v2, v[26:29]\n");
        s.push_str("  s_waitcnt lgkmcnt(0)\n");
    } else {
        s.push_str("  ds_read_b128 v[26:29], v2\n  s_waitcnt lgkmcnt(0)\n");
        let _ = writeln!(
            s,
            "  global_store_dwordx4 v2, v[26:29], s[{ptr}:{}]",
            ptr + 1
        );
    }
    let _ = writeln!(s, "  v_add_nc_u32 v2, 0x{LDS_GRANULE:x}, v2");
    let _ = writeln!(s, "  s_add_u32 s{counter}, s{counter}, 0x{LDS_GRANULE:x}");
    let _ = writeln!(s, "  s_cmp_lt_u32 s{counter}, 0x{alloc:x}");
    // An LDS access and a VMEM access on either side of a branch need a vscnt wait between
    // them on gfx10 (LLVM's LdsBranchVmemWARHazard).
    s.push_str("  s_waitcnt_vscnt null, 0x0\n");
    let _ = writeln!(s, "  s_cbranch_scc1 {label}");
}

/// Private (scratch) bytes of every lane when the body uses scratch: zero before the body
/// (the recompiler's model has the same size, `lower::scratch`).
pub const SCRATCH_BYTES: u32 = 256;

/// Whether `body` may hold a scratch instruction: a FLAT-format word (bits 31:26 0x37) with
/// SEG (bits 15:14) 1. A literal that looks like one only costs the private segment.
pub fn uses_scratch(body: &[u32]) -> bool {
    body.iter().any(|&w| w >> 26 == 0x37 && (w >> 14) & 3 == 1)
}

/// Generates the wave kernel for `target`, `mode`, `shape` and `body` (words verbatim).
pub fn wave_kernel_source(
    target: Target,
    mode: &Mode,
    shape: &WaveShape,
    body: &[u32],
) -> Result<String> {
    mode.validate()?;
    shape.validate()?;
    if shape.wave != mode.wave {
        return Err(OracleError::InvalidWave(format!(
            "shape is wave{} but the mode is wave{}",
            shape.wave.lanes(),
            mode.wave.lanes()
        )));
    }
    if body.is_empty() {
        return Err(OracleError::EmptyBody);
    }
    let w64 = mode.wave == Wave::W64;
    let m = Masks { w64 };
    let lanes = shape.lanes();
    let alloc = shape.lds_alloc();
    let mut s = String::with_capacity(16384 + body.len() * 24);
    let _ = writeln!(
        s,
        "; rdnaprobe wave probe kernel: {target}, wave{lanes}, LDS {alloc} bytes"
    );
    let _ = writeln!(s, ".amdgcn_target \"{}\"", target.isa_name());
    s.push_str(".text\n.globl probe\n.p2align 8\n.type probe,@function\nprobe:\n");
    // Entry: s[0:1] = kernarg pointer, s2 = workgroup id (= wave index), v0 = lane id.
    m.exec(&mut s, "-1", "-1");
    s.push_str("  s_load_dwordx2 s[100:101], s[0:1], 0x0\n");
    s.push_str("  v_mov_b32 v255, v0\n");
    let scratch = uses_scratch(body);
    if scratch {
        // s[2:3] = the flat scratch base, s4 = workgroup id, s5 = the wave's scratch offset.
        s.push_str("  s_add_u32 s2, s2, s5\n  s_addc_u32 s3, s3, 0\n");
        s.push_str("  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2\n");
        s.push_str("  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s3\n");
        s.push_str("  s_mov_b32 s2, s4\n");
    }
    let _ = writeln!(s, "  s_mul_i32 s2, s2, 0x{ENTRY_BYTES:x}");
    s.push_str("  s_waitcnt lgkmcnt(0)\n");
    s.push_str("  s_add_u32 s100, s100, s2\n  s_addc_u32 s101, s101, 0\n");
    let _ = writeln!(
        s,
        "  s_load_dwordx2 s[4:5], s[100:101], 0x{ENTRY_LANES_IN:x}"
    );
    let _ = writeln!(s, "  s_load_dwordx2 s[6:7], s[100:101], 0x{ENTRY_LDS_IN:x}");
    s.push_str("  s_waitcnt lgkmcnt(0)\n");
    let _ = writeln!(s, "  v_mul_u32_u24 v1, {}, v255", INPUT_DWORDS * 4);
    s.push_str("  global_load_dwordx4 v[4:7], v1, s[4:5]\n");
    s.push_str("  global_load_dwordx2 v[8:9], v1, s[4:5] offset:16\n");
    if alloc > 0 {
        m.exec(&mut s, "-1", "0");
        lds_loop(&mut s, ".Llds_in", true, 6, 8, alloc);
        s.push_str("  s_barrier\n");
        m.exec(&mut s, "-1", "-1");
    }
    s.push_str("  s_waitcnt vmcnt(0) lgkmcnt(0)\n");
    for v in (0..255).filter(|v| !(4..=9).contains(v)) {
        let _ = writeln!(s, "  v_mov_b32 v{v}, 0");
    }
    if scratch {
        // Every lane's private bytes start at zero (v0 and v[10:13] are zero here).
        for k in 0..SCRATCH_BYTES / 16 {
            let _ = writeln!(
                s,
                "  scratch_store_dwordx4 v0, v[10:13], off offset:{}",
                16 * k
            );
        }
        s.push_str("  s_waitcnt_vscnt null, 0x0\n");
    }
    let _ = writeln!(s, "  s_load_dwordx16 s[0:15], s[100:101], 0x{ENTRY_S_IN:x}");
    let _ = writeln!(
        s,
        "  s_load_dwordx2 s[16:17], s[100:101], 0x{ENTRY_REGION:x}"
    );
    let _ = writeln!(
        s,
        "  s_load_dword s22, s[100:101], 0x{ENTRY_REGION_BYTES:x}"
    );
    let _ = writeln!(
        s,
        "  s_load_dwordx2 s[102:103], s[100:101], 0x{ENTRY_EXEC_IN:x}"
    );
    for p in (18..100).step_by(2).filter(|p| !(20..=23).contains(p)) {
        let _ = writeln!(s, "  s_mov_b64 s[{p}:{}], 0", p + 1);
    }
    s.push_str("  s_waitcnt lgkmcnt(0)\n");
    // The raw V#: base = region, stride 0 (word1 = base[47:32]), num_records = region bytes.
    s.push_str("  s_mov_b32 s20, s16\n  s_and_b32 s21, s17, 0xffff\n");
    let _ = writeln!(s, "  s_mov_b32 s23, 0x{RAW_BUFFER_WORD3:08x}");
    s.push_str("  s_mov_b32 m0, 0\n  s_mov_b32 vcc_lo, 0\n  s_mov_b32 vcc_hi, 0\n");
    if w64 {
        s.push_str("  s_mov_b64 exec, s[102:103]\n");
    } else {
        s.push_str("  s_mov_b32 exec_lo, s102\n");
    }
    s.push_str("  s_mov_b64 s[102:103], 0\n  s_mov_b64 s[104:105], 0\n");
    // SCC = 0 last: nothing after it writes SCC.
    s.push_str("  s_cmp_eq_u32 0, 1\n");
    write_body(&mut s, body);

    // Epilogue. First wait for the body's memory operations (its loads into v10..v25, its
    // stores to LDS and the region; this also clears the VMEM-reads-SGPR hazard before the
    // epilogue rewrites s0..s5); waits change no state. Then SCC (s_cselect reads it) and EXEC,
    // before anything changes them.
    s.push_str("  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n  s_waitcnt_vscnt null, 0x0\n");
    s.push_str("  s_cselect_b32 s102, 1, 0\n");
    if w64 {
        s.push_str("  s_mov_b64 s[104:105], exec\n");
    } else {
        s.push_str("  s_mov_b32 s104, exec_lo\n  s_mov_b32 s105, 0\n");
    }
    m.exec(&mut s, "-1", "-1");
    // The uniform outputs go to the lanes of v254 (v_writelane ignores EXEC), then one store.
    for k in 0..16 {
        let _ = writeln!(s, "  v_writelane_b32 v254, s{k}, {}", UNIFORM_S + k);
    }
    let _ = writeln!(s, "  v_writelane_b32 v254, s104, {UNIFORM_EXEC}");
    let _ = writeln!(s, "  v_writelane_b32 v254, s105, {}", UNIFORM_EXEC + 1);
    let _ = writeln!(s, "  v_writelane_b32 v254, vcc_lo, {UNIFORM_VCC}");
    let vcc_hi = if w64 { "vcc_hi" } else { "s105" };
    let _ = writeln!(s, "  v_writelane_b32 v254, {vcc_hi}, {}", UNIFORM_VCC + 1);
    let _ = writeln!(s, "  v_writelane_b32 v254, s102, {UNIFORM_SCC}");
    let _ = writeln!(
        s,
        "  s_load_dwordx2 s[0:1], s[100:101], 0x{ENTRY_LANES_OUT:x}"
    );
    let _ = writeln!(
        s,
        "  s_load_dwordx2 s[2:3], s[100:101], 0x{ENTRY_UNIFORM_OUT:x}"
    );
    let _ = writeln!(
        s,
        "  s_load_dwordx2 s[4:5], s[100:101], 0x{ENTRY_LDS_OUT:x}"
    );
    s.push_str("  s_waitcnt lgkmcnt(0)\n");
    let _ = writeln!(
        s,
        "  v_lshlrev_b32 v253, {}, v255",
        (OUTPUT_DWORDS * 4).trailing_zeros()
    );
    for q in 0..OUTPUT_DWORDS / 4 {
        let first = 10 + 4 * q;
        let _ = writeln!(
            s,
            "  global_store_dwordx4 v253, v[{first}:{}], s[0:1] offset:{}",
            first + 3,
            q * 16
        );
    }
    s.push_str("  v_lshlrev_b32 v252, 2, v255\n");
    m.exec(
        &mut s,
        &format!("0x{:x}", (1u32 << (UNIFORM_SCC + 1)) - 1),
        "0",
    );
    s.push_str("  global_store_dword v252, v254, s[2:3]\n");
    if alloc > 0 {
        m.exec(&mut s, "-1", "0");
        s.push_str("  s_waitcnt_vscnt null, 0x0\n");
        lds_loop(&mut s, ".Llds_out", false, 4, 6, alloc);
    }
    // The done mark goes out after every other store of the wave has completed.
    s.push_str("  s_waitcnt_vscnt null, 0x0\n");
    m.exec(&mut s, "1", "0");
    s.push_str("  v_mov_b32 v252, 0\n");
    let _ = writeln!(s, "  v_mov_b32 v253, 0x{DONE_MARK:08x}");
    let _ = writeln!(
        s,
        "  global_store_dword v252, v253, s[2:3] offset:{}",
        UNIFORM_DONE * 4
    );
    s.push_str("  s_endpgm\n.Lprobe_end:\n.size probe, .Lprobe_end-probe\n\n");
    descriptor(&mut s, mode, lanes, alloc, scratch);
    metadata(&mut s, mode, lanes, alloc, scratch);
    Ok(s)
}

fn descriptor(s: &mut String, mode: &Mode, lanes: usize, alloc: u32, scratch: bool) {
    s.push_str(".rodata\n.p2align 6\n.amdhsa_kernel probe\n");
    s.push_str("  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n");
    if scratch {
        s.push_str("  .amdhsa_user_sgpr_flat_scratch_init 1\n");
        s.push_str("  .amdhsa_system_sgpr_private_segment_wavefront_offset 1\n");
        let _ = writeln!(s, "  .amdhsa_private_segment_fixed_size {SCRATCH_BYTES}");
    }
    let _ = writeln!(s, "  .amdhsa_kernarg_size {WAVE_KERNARG_SIZE}");
    let _ = writeln!(s, "  .amdhsa_group_segment_fixed_size {alloc}");
    s.push_str("  .amdhsa_system_sgpr_workgroup_id_x 1\n");
    s.push_str("  .amdhsa_system_vgpr_workitem_id 0\n");
    s.push_str("  .amdhsa_next_free_vgpr 256\n  .amdhsa_next_free_sgpr 106\n");
    s.push_str("  .amdhsa_reserve_vcc 1\n");
    let f = &mode.float;
    let _ = writeln!(s, "  .amdhsa_ieee_mode {}", u8::from(f.ieee));
    let _ = writeln!(s, "  .amdhsa_dx10_clamp {}", u8::from(f.dx10_clamp));
    let _ = writeln!(s, "  .amdhsa_float_denorm_mode_32 {}", f.denorm32);
    let _ = writeln!(s, "  .amdhsa_float_denorm_mode_16_64 {}", f.denorm16);
    let _ = writeln!(s, "  .amdhsa_float_round_mode_32 {}", f.round32);
    let _ = writeln!(s, "  .amdhsa_float_round_mode_16_64 {}", f.round16);
    let _ = writeln!(s, "  .amdhsa_fp16_overflow {}", u8::from(f.fp16_overflow));
    let _ = writeln!(s, "  .amdhsa_wavefront_size32 {}", u8::from(lanes == 32));
    s.push_str(".end_amdhsa_kernel\n\n");
}

fn metadata(s: &mut String, mode: &Mode, lanes: usize, alloc: u32, scratch: bool) {
    s.push_str(".amdgpu_metadata\n---\namdhsa.version: [ 1, 1 ]\namdhsa.kernels:\n");
    let _ = writeln!(s, "  - .name: {KERNEL_NAME}\n    .symbol: {KERNEL_NAME}.kd");
    let _ = writeln!(s, "    .kernarg_segment_size: {WAVE_KERNARG_SIZE}");
    s.push_str("    .kernarg_segment_align: 8\n");
    let _ = writeln!(s, "    .group_segment_fixed_size: {alloc}");
    let private = if scratch { SCRATCH_BYTES } else { 0 };
    let _ = writeln!(s, "    .private_segment_fixed_size: {private}");
    let _ = writeln!(s, "    .wavefront_size: {}", mode.wave.lanes());
    s.push_str("    .sgpr_count: 108\n    .vgpr_count: 256\n");
    let _ = writeln!(s, "    .max_flat_workgroup_size: {lanes}");
    s.push_str("    .args:\n");
    s.push_str("      - { .name: table, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }\n");
    s.push_str("      - { .name: waves, .offset: 8, .size: 4, .value_kind: by_value }\n");
    s.push_str("...\n.end_amdgpu_metadata\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::FloatMode;
    use crate::template::{BODY_BEGIN, BODY_END};

    fn shape(wave: Wave, lds_bytes: u32) -> WaveShape {
        WaveShape { wave, lds_bytes }
    }

    #[test]
    fn word3_fields_are_the_raw_buffer_ones() {
        let w = RAW_BUFFER_WORD3;
        let sel: Vec<u32> = (0..4).map(|i| (w >> (3 * i)) & 7).collect();
        assert_eq!(sel, [4, 5, 6, 7], "DST_SEL X, Y, Z, W");
        assert_eq!((w >> 12) & 0x7f, 22, "FORMAT 32_FLOAT");
        assert_eq!((w >> 24) & 1, 1, "RESOURCE_LEVEL");
        assert_eq!((w >> 28) & 3, 3, "OOB_SELECT raw");
    }

    #[test]
    fn lds_is_allocated_in_granules() {
        assert_eq!(lds_alloc_bytes(0), 0);
        assert_eq!(lds_alloc_bytes(1), 512);
        assert_eq!(lds_alloc_bytes(512), 512);
        assert_eq!(lds_alloc_bytes(513), 1024);
        assert!(shape(Wave::W32, MAX_LDS_BYTES).validate().is_ok());
        assert!(shape(Wave::W32, MAX_LDS_BYTES + 1).validate().is_err());
    }

    #[test]
    fn lds_code_only_with_lds() {
        let m = Mode::default();
        let none = wave_kernel_source(Target::Gfx1030, &m, &shape(Wave::W32, 0), &[0]).unwrap();
        assert!(!none.contains("ds_write") && !none.contains("ds_read"));
        assert!(none.contains(".amdhsa_group_segment_fixed_size 0"));
        let some = wave_kernel_source(Target::Gfx1030, &m, &shape(Wave::W32, 100), &[0]).unwrap();
        assert!(some.contains("ds_write_b128") && some.contains("ds_read_b128"));
        assert!(some.contains(".amdhsa_group_segment_fixed_size 512"));
        assert!(some.contains("s_cmp_lt_u32 s8, 0x200"));
    }

    #[test]
    fn body_sits_between_scc_reset_and_scc_capture() {
        let m64 = Mode::new(FloatMode::DEFAULT, Wave::W64);
        let src =
            wave_kernel_source(Target::Gfx1032, &m64, &shape(Wave::W64, 0), &[1, 2, 3]).unwrap();
        let begin = src.find(BODY_BEGIN).unwrap();
        let end = src.find(BODY_END).unwrap();
        assert_eq!(src[begin..end].matches(".long").count(), 3);
        let before: Vec<&str> = src[..begin].lines().rev().take(2).collect();
        assert_eq!(before[1].trim(), "s_cmp_eq_u32 0, 1");
        let after: Vec<&str> = src[end..].lines().skip(1).take(4).collect();
        assert!(after[0].trim().starts_with("s_waitcnt vmcnt(0)"));
        assert_eq!(after[1].trim(), "s_waitcnt_vscnt null, 0x0");
        assert_eq!(after[2].trim(), "s_cselect_b32 s102, 1, 0");
        assert_eq!(after[3].trim(), "s_mov_b64 s[104:105], exec");
        assert!(src.contains(".amdhsa_wavefront_size32 0"));
        assert!(src.contains(".max_flat_workgroup_size: 64"));
    }

    #[test]
    fn scratch_setup_only_with_a_scratch_body() {
        let m = Mode::default();
        // scratch_store_dword v6, v4, off ; scratch_load_dword v10, v6, off
        let body = [0xdc70_4000, 0x007d_0406, 0xdc30_4000, 0x0a7d_0006];
        assert!(uses_scratch(&body));
        // global_load_dword v10, v7, s[16:17] is SEG 2, flat_load_dword SEG 0
        assert!(!uses_scratch(&[
            0xdc30_8000,
            0x0a10_0007,
            0xdc30_0004,
            0x0a7d_0008
        ]));
        let src = wave_kernel_source(Target::Gfx1030, &m, &shape(Wave::W32, 0), &body).unwrap();
        assert!(src.contains("s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2"));
        assert!(src.contains(".amdhsa_private_segment_fixed_size 256"));
        assert!(src.contains(".private_segment_fixed_size: 256"));
        assert_eq!(src.matches("scratch_store_dwordx4").count(), 16);
        let plain = wave_kernel_source(Target::Gfx1030, &m, &shape(Wave::W32, 0), &[0]).unwrap();
        assert!(!plain.contains("scratch") && !plain.contains("FLAT_SCR"));
        assert!(plain.contains(".private_segment_fixed_size: 0"));
    }

    #[test]
    fn mismatched_shape_and_bad_input_are_errors() {
        let m = Mode::default();
        assert!(wave_kernel_source(Target::Gfx1030, &m, &shape(Wave::W64, 0), &[0]).is_err());
        assert!(matches!(
            wave_kernel_source(Target::Gfx1030, &m, &shape(Wave::W32, 0), &[]),
            Err(OracleError::EmptyBody)
        ));
    }
}
