//! A dispatched program's spills through the private segment V# (`lower_program_words` with
//! the V# as entry constants, the way `rdnaprobe dispatch` sets up the user SGPRs): the
//! program adds its wave offset to the V# (a carry into word 1) and keeps the V# in other SGPRs
//! around a loop, as -O0 code does around calls. The known bits of word 1 (SWIZZLE_ENABLE)
//! and word 3 (ADD_TID, INDEX_STRIDE) survive, so every lane's `off` store has bytes of its
//! own ([`Space::RegionSwizzled`]) and the SPIR-V stores them without claims; a V# that does
//! not give each lane its own dword, or one a branch may replace, keeps the claims.
//! Expected memory from the swizzle formula of the RDNA2 ISA guide ("Buffer Addressing"),
//! computed here; modules pass `spirv-val` (under `CI=true` a missing spirv-val fails).

mod common;

use common::spirv_val::spirv_val;
use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
use rdnaprobe_recompiler::ir::{Expr, Kernel, LdsOp, Space};
use rdnaprobe_recompiler::spirv::{emit_wave_mem, SpirvOptions};
use rdnaprobe_recompiler::wave::{run_wave_mem, sgprs_in, WaveInput, MEM_BASE};
use rdnaprobe_recompiler::{lower_program_words, EntryState};
use rspirv::spirv::Op;

/// The region: 4 KiB; the private segment from byte 0x100; the wave's offset in s15.
const MEM_BYTES: u32 = 4096;
const SCRATCH: u64 = 0x100;
const WAVE_OFFSET: u32 = 0x80;
/// Word 3 of the V# with ADD_TID (bit 23) and INDEX_STRIDE 32 (bits 22:21 = 2).
const WORD3: u32 = 0x3101_6fac | 1 << 23 | 2 << 21;

/// The private segment V#: base, SWIZZLE_ENABLE with the base's high bits, num_records, word 3.
fn vsharp(word3: u32) -> [(u16, u32); 4] {
    let base = MEM_BASE + SCRATCH;
    [
        (0, base as u32),
        (1, (base >> 32) as u32 & 0xffff | 1 << 31),
        (2, u32::MAX),
        (3, word3),
    ]
}

/// Three rounds of a store of in0 at private dword `round + 1` (offset 4; s33, the frame, is
/// unswizzled bytes: one dword of every lane is 4 * 32 bytes), keeping the V# in s[20:23] and
/// back each round, then a load of dword 2 into v10. `between` goes after the copy back (it
/// may change the V#).
fn program(between: &str) -> String {
    format!(
        "s_add_u32 s0, s0, s15
s_addc_u32 s1, s1, 0
s_mov_b32 s33, 0
s_mov_b32 s34, 0
buffer_store_dword v4, off, s[0:3], s33 offset:4
s_mov_b64 s[20:21], s[0:1]
s_mov_b64 s[22:23], s[2:3]
s_mov_b64 s[0:1], s[20:21]
s_mov_b64 s[2:3], s[22:23]
{between}
s_add_u32 s33, s33, 0x80
s_add_u32 s34, s34, 1
s_cmp_lt_u32 s34, 3
s_cbranch_scc1 LOOP
buffer_load_dword v10, off, s[0:3], 0 offset:8
s_endpgm"
    )
}

/// Assembles `text`, with `LOOP` the word offset back to the store.
fn words(text: &str) -> Vec<u32> {
    let (head, _) = text.split_once("buffer_store_dword").unwrap();
    let (_, tail) = text.rsplit_once("s_cbranch_scc1").unwrap();
    let loop_part = &text[head.len()..text.len() - tail.len() - "s_cbranch_scc1".len()];
    let back = assemble(loop_part).expect("assembles").len() as i32 + 1;
    assemble(&text.replace("LOOP", &(-back).to_string())).expect("assembles")
}

fn lower(text: &str, word3: u32) -> Kernel {
    let k = lower_program_words(
        &words(text),
        FloatMode::DEFAULT,
        Wave::W32,
        Target::Gfx1030,
        MEM_BYTES,
        &[],
        &EntryState {
            registers: &vsharp(word3),
            read_only: &[],
        },
    )
    .expect("lowers");
    k.validate().expect("valid");
    k
}

fn swizzled_writes(k: &Kernel) -> usize {
    k.exprs
        .iter()
        .filter(|e| {
            matches!(
                e,
                Expr::Mem {
                    space: Space::RegionSwizzled,
                    op: LdsOp::Write,
                    ..
                }
            )
        })
        .count()
}

/// Runs one wave32 (in0 = 0x100 + lane, s15 the wave offset) over a zero region.
fn run(k: &Kernel) -> (Vec<u32>, Vec<u32>) {
    let lanes = (0..32).map(|l| [0x100 + l, 0, 0, 0, 0, 0]).collect();
    let mut input = WaveInput::new(lanes, u64::from(u32::MAX), vec![]);
    let mut s = [0u32; 16];
    s[15] = WAVE_OFFSET;
    input.sgprs = sgprs_in(&s);
    let (out, mem) = run_wave_mem(k, &input, &vec![0; MEM_BYTES as usize / 4]);
    assert_eq!(out.error, None);
    (out.lanes.iter().map(|l| l[0]).collect(), mem)
}

/// AtomicUMax instructions (claims) and whether the module passes spirv-val.
fn claims(k: &Kernel, what: &str) -> usize {
    let spv = emit_wave_mem(k, Wave::W32, 0, MEM_BYTES / 4, &SpirvOptions::DESKTOP).expect("emits");
    spirv_val(&spv, what).unwrap();
    let m = rspirv::dr::load_words(&spv).expect("parses");
    m.functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.instructions)
        .filter(|i| i.class.opcode == Op::AtomicUMax)
        .count()
}

#[test]
fn spills_through_the_private_vsharp_are_each_lanes_own() {
    let k = lower(&program(""), WORD3);
    assert_eq!(swizzled_writes(&k), 1, "the loop's store");
    let (v10, mem) = run(&k);
    // lane l's dword d of the wave's segment: base + wave offset + d * 4 * 32 + l * 4
    let scratch = (SCRATCH as u32 + WAVE_OFFSET) / 4;
    for l in 0..32u32 {
        for d in 1..=3 {
            assert_eq!(
                mem[(scratch + d * 32 + l) as usize],
                0x100 + l,
                "lane {l} dword {d}"
            );
        }
        assert_eq!(mem[(scratch + l) as usize], 0, "dword 0 is not written");
        assert_eq!(v10[l as usize], 0x100 + l, "lane {l} reads its dword 2");
    }
    assert_eq!(
        claims(&k, "private spills"),
        0,
        "no claims for an own-bytes store"
    );
}

#[test]
fn a_vsharp_that_may_share_dwords_keeps_the_claims() {
    // without ADD_TID every lane addresses the same dword: the highest lane's value stays
    let k = lower(&program(""), WORD3 & !(1 << 23));
    assert_eq!(swizzled_writes(&k), 0);
    let (v10, mem) = run(&k);
    let scratch = (SCRATCH as u32 + WAVE_OFFSET) / 4;
    for d in 1..=3 {
        assert_eq!(
            mem[(scratch + d * 32) as usize],
            0x100 + 31,
            "dword {d}: lane 31 last"
        );
    }
    assert!(v10.iter().all(|&v| v == 0x11f));
    assert!(claims(&k, "shared V#") > 0);
    // an index stride of 16 puts lanes 16..31 in the next row of a wave32: not known apart
    let k = lower(&program(""), WORD3 & !(3 << 21) | 1 << 21);
    assert_eq!(swizzled_writes(&k), 0, "index stride 16");
}

#[test]
fn a_vsharp_word_a_branch_may_replace_is_not_known() {
    // the loop may take word 3 from a VGPR (v_readfirstlane_b32) on a path it branches over
    let between = "s_cmp_lg_u32 s15, 0\ns_cbranch_scc0 1\nv_readfirstlane_b32 s3, v5";
    let k = lower(&program(between), WORD3);
    assert_eq!(swizzled_writes(&k), 0);
    // the same code where the replacement is the V#'s own word 3 again keeps it known
    let between = "s_cmp_lg_u32 s15, 0\ns_cbranch_scc0 1\ns_mov_b32 s3, s23";
    let k = lower(&program(between), WORD3);
    assert_eq!(swizzled_writes(&k), 1);
    let (v10, _) = run(&k);
    assert_eq!(v10[7], 0x107);
}
