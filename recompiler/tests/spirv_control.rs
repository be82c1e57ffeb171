//! Control flow in the wave module: a body whose block graph is reducible becomes structured
//! SPIR-V (`OpLoopMerge` / `OpSelectionMerge`, no dispatcher `OpSwitch`), an irreducible one
//! keeps the block dispatcher, and every module, structured or under the dispatcher, passes
//! `spirv-val --target-env vulkan1.1` (nested loops, loops with several exits or an early
//! continue, s_endpgm in the middle, a loop that never ends). Under `CI=true` a missing
//! spirv-val fails the test.

mod common;

use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
use rdnaprobe_recompiler::ir::cfg::Cfg;
use rdnaprobe_recompiler::ir::Kernel;
use rdnaprobe_recompiler::lower_wave_words;
use rdnaprobe_recompiler::spirv::{
    emit_wave, emit_wave_dispatcher, emit_wave_mem, emit_wave_resumable, resume_dwords,
    SpirvOptions,
};
use rspirv::spirv::Op;

use common::spirv_val::spirv_val;

/// An if/else (on SCC) and then a loop (on VCC).
pub const IF_ELSE_LOOP: &str = "s_cmp_eq_u32 s0, 0
s_cbranch_scc1 2
v_mov_b32 v10, 1
s_branch 1
v_mov_b32 v10, 2
v_add_nc_u32 v11, 3, v11
v_cmp_gt_u32 vcc_lo, 30, v11
s_cbranch_vccnz -3";

/// Nested loops; the inner one may leave both at once, past the code after the outer one.
pub const NESTED_LOOPS: &str = "v_mov_b32 v12, 0
v_mov_b32 v11, 0
v_add_nc_u32 v11, 1, v11
v_add_nc_u32 v10, v11, v10
v_cmp_gt_u32 vcc_lo, 50, v10
s_cbranch_vccz 6
v_cmp_gt_u32 vcc_lo, 4, v11
s_cbranch_vccnz -6
v_add_nc_u32 v12, 1, v12
v_cmp_gt_u32 vcc_lo, 3, v12
s_cbranch_vccnz -10
v_mov_b32 v13, 7
v_mov_b32 v14, 9";

/// A loop with an early continue, a latch that restarts it and s_endpgm in the middle (the
/// move after it never runs).
pub const CONTINUE_ENDPGM: &str = "v_add_nc_u32 v10, 1, v10
v_cmp_gt_u32 vcc_lo, 3, v10
s_cbranch_vccnz -3
v_add_nc_u32 v11, 1, v11
v_cmp_gt_u32 vcc_lo, 5, v11
s_cbranch_vccz 2
v_mov_b32 v10, 0
s_branch -8
s_endpgm
v_mov_b32 v12, 5";

/// A loop with two entries: the first block branches into its middle or falls into its top.
pub const TWO_ENTRY_LOOP: &str = "s_cmp_eq_u32 s0, 0
s_cbranch_scc1 1
v_add_nc_u32 v10, 1, v10
v_add_nc_u32 v11, 2, v11
v_cmp_gt_u32 vcc_lo, 10, v11
s_cbranch_vccnz -4";

/// Selections nested in a loop, with EXEC narrowed and restored around a skip.
pub const SELECTIONS_IN_LOOP: &str = "s_mov_b32 s1, 4
v_cmpx_lt_u32 1, v4
s_cbranch_execz 1
v_add_nc_u32 v10, 5, v10
s_mov_b32 exec_lo, -1
s_cmp_lt_u32 s1, 2
s_cbranch_scc0 2
v_add_nc_u32 v11, 1, v11
s_branch 1
v_add_nc_u32 v12, 1, v12
s_sub_u32 s1, s1, 1
s_cmp_eq_u32 s1, 0
s_cbranch_scc0 -12";

/// A loop that never ends (the watchdog stops it).
pub const ENDLESS: &str = "v_mov_b32 v10, 1\ns_branch -1";

fn kernel(text: &str, wave: Wave) -> Kernel {
    let text = if wave == Wave::W64 {
        text.replace("vcc_lo", "vcc")
            .replace("s_mov_b32 exec_lo", "s_mov_b64 exec")
            .replace("exec_lo", "exec")
    } else {
        text.to_string()
    };
    let words = assemble(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    lower_wave_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030)
        .unwrap_or_else(|e| panic!("{text} ({wave:?}): {e}"))
}

/// The opcodes of the module's instructions.
fn ops(words: &[u32]) -> Vec<Op> {
    let m = rspirv::dr::load_words(words).expect("parses");
    m.functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.instructions)
        .map(|i| i.class.opcode)
        .collect()
}

fn count(ops: &[Op], op: Op) -> usize {
    ops.iter().filter(|&&o| o == op).count()
}

#[test]
fn reducible_bodies_are_structured_and_irreducible_ones_dispatched() {
    let k = kernel(IF_ELSE_LOOP, Wave::W32);
    assert!(Cfg::of_kernel(&k).reducible());
    let o = ops(&emit_wave(&k, Wave::W32, 0, &SpirvOptions::DESKTOP).unwrap());
    assert!(
        count(&o, Op::LoopMerge) >= 2,
        "the loop and the body's block"
    );
    assert!(
        count(&o, Op::SelectionMerge) >= 2,
        "the if/else, the lane-0 store"
    );
    assert_eq!(count(&o, Op::Switch), 0, "no dispatcher");

    let k = kernel(TWO_ENTRY_LOOP, Wave::W32);
    assert!(!Cfg::of_kernel(&k).reducible());
    let o = ops(&emit_wave(&k, Wave::W32, 0, &SpirvOptions::DESKTOP).unwrap());
    assert_eq!(count(&o, Op::Switch), 1, "the dispatcher");
    // the body's one VOPC writes VCC: a wave-wide ballot, which is a counted loop of its own
    let ballot = kernel("v_cmp_gt_u32 vcc_lo, 10, v11", Wave::W32);
    let ballot = ops(&emit_wave(&ballot, Wave::W32, 0, &SpirvOptions::DESKTOP).unwrap());
    assert_eq!(
        count(&o, Op::LoopMerge),
        1 + count(&ballot, Op::LoopMerge),
        "the dispatcher's loop and the ballot's only"
    );

    // the comparison lowering keeps the dispatcher for every body with blocks
    let k = kernel(IF_ELSE_LOOP, Wave::W32);
    let o = ops(&emit_wave_dispatcher(&k, Wave::W32, 0, 0, &SpirvOptions::DESKTOP).unwrap());
    assert_eq!(count(&o, Op::Switch), 1);
}

#[test]
fn nested_loops_get_one_loop_merge_each() {
    let k = kernel(NESTED_LOOPS, Wave::W32);
    let cfg = Cfg::of_kernel(&k);
    assert_eq!(cfg.loops().len(), 2);
    let o = ops(&emit_wave(&k, Wave::W32, 0, &SpirvOptions::DESKTOP).unwrap());
    // two loops, and at least the block around the body
    assert!(
        count(&o, Op::LoopMerge) >= 3,
        "{}",
        count(&o, Op::LoopMerge)
    );
    assert_eq!(count(&o, Op::Switch), 0);
}

#[test]
fn control_flow_modules_pass_spirv_val() {
    let bodies = [
        IF_ELSE_LOOP,
        NESTED_LOOPS,
        CONTINUE_ENDPGM,
        TWO_ENTRY_LOOP,
        SELECTIONS_IN_LOOP,
        ENDLESS,
    ];
    for text in bodies {
        for wave in [Wave::W32, Wave::W64] {
            let k = kernel(text, wave);
            let opts = SpirvOptions::DESKTOP;
            for (lds, mem) in [(0, 0), (64, 0), (0, 32)] {
                let spv = emit_wave_mem(&k, wave, lds, mem, &opts).expect("emits");
                spirv_val(&spv, &format!("`{text}` ({wave:?}, {lds}, {mem})")).unwrap();
            }
            let spv = emit_wave_dispatcher(&k, wave, 0, 0, &opts).expect("emits");
            spirv_val(&spv, &format!("`{text}` ({wave:?}, dispatcher)")).unwrap();
        }
    }
}

/// Waves that meet at barriers in a loop, through the LDS.
pub const BARRIER_LOOP: &str = "s_mov_b32 s1, 3
v_lshlrev_b32 v1, 2, v4
ds_write_b32 v1, v4
s_waitcnt lgkmcnt(0)
s_barrier
ds_read_b32 v10, v1 offset:4
s_waitcnt lgkmcnt(0)
v_add_nc_u32 v4, v4, v10
s_sub_u32 s1, s1, 1
s_cmp_eq_u32 s1, 0
s_cbranch_scc0 -9";

#[test]
fn resumable_modules_stop_at_barriers_and_pass_spirv_val() {
    let bodies = [BARRIER_LOOP, IF_ELSE_LOOP, TWO_ENTRY_LOOP, ENDLESS];
    for text in bodies {
        for wave in [Wave::W32, Wave::W64] {
            let k = kernel(text, wave);
            let opts = SpirvOptions::DESKTOP;
            let vars = (resume_dwords(&k, wave) - 2) / wave.lanes();
            assert!(vars >= 1, "`{text}`: the registers are the state");
            for (lds, mem) in [(0, 0), (64, 0), (64, 32)] {
                let spv = emit_wave_resumable(&k, wave, lds, mem, &opts).expect("emits");
                let o = ops(&spv);
                assert_eq!(count(&o, Op::Switch), 1, "`{text}`: the dispatcher");
                spirv_val(
                    &spv,
                    &format!("`{text}` ({wave:?}, {lds}, {mem}, resumable)"),
                )
                .unwrap();
            }
        }
    }
    // every barrier's block ends the dispatcher's loop: one more test of the suspension flag
    // per barrier than without it
    let k = kernel(BARRIER_LOOP, Wave::W32);
    assert_eq!(k.blocks.iter().filter(|b| b.barrier).count(), 1);
    let plain = ops(&emit_wave_dispatcher(&k, Wave::W32, 64, 0, &SpirvOptions::DESKTOP).unwrap());
    let resumable =
        ops(&emit_wave_resumable(&k, Wave::W32, 64, 0, &SpirvOptions::DESKTOP).unwrap());
    assert!(count(&resumable, Op::Store) > count(&plain, Op::Store) + 2 * vars_of(&k));
}

/// Register variables a kernel's resumable module saves per lane.
fn vars_of(k: &Kernel) -> usize {
    ((resume_dwords(k, Wave::W32) - 2) / 32) as usize
}

/// Barriers of a memory region of 64 dwords in a straight-line body.
fn barriers(text: &str) -> usize {
    let k = kernel(text, Wave::W32);
    let spv = emit_wave_mem(&k, Wave::W32, 64, 64, &SpirvOptions::DESKTOP).expect("emits");
    spirv_val(&spv, text).unwrap();
    count(&ops(&spv), Op::ControlBarrier)
}

#[test]
fn a_barrier_is_left_out_only_where_nothing_was_accessed_since_the_last() {
    const LOAD: &str = "global_load_dword v1, v[2:3], off\n";
    const LOAD2: &str = "global_load_dword v4, v[2:3], off offset:4\n";
    const STORE: &str = "global_store_dword v[2:3], v5, off offset:8\n";
    const DS_READ: &str = "ds_read_b32 v6, v7\n";
    let none = barriers("v_mov_b32 v1, 0");
    let load = barriers(LOAD);
    // reads after reads: no barrier between them
    assert_eq!(barriers(&[LOAD, LOAD2].concat()), load);
    assert_eq!(
        barriers(&[LOAD, "v_add_nc_u32 v4, v1, v1\n", LOAD2].concat()),
        load
    );
    // a store after a read keeps the one in front of it (the read must be done first), and
    // the read after the store waits for the store's writes, made after its claims' barrier
    let store = barriers(STORE);
    // (the barrier before its claims is the region copy's: nothing was accessed since)
    assert_eq!(
        store,
        none + 1,
        "a store: one barrier between its claims and its writes"
    );
    let load_store = barriers(&[LOAD, STORE].concat());
    assert!(
        load_store > store,
        "{load_store} barriers for a load and a store, {store} for a store"
    );
    assert_eq!(barriers(&[STORE, LOAD].concat()), store + 1);
    assert_eq!(barriers(&[STORE, STORE].concat()), store + 2);
    // the LDS and the memory region are fenced with their own semantics: an LDS read after a
    // region read shares its barrier, one after a store does not need one either
    assert_eq!(barriers(&[LOAD, DS_READ].concat()), load);
    assert_eq!(barriers(&[STORE, DS_READ].concat()), store + 1);
}

#[test]
fn stores_nothing_reads_run_on_every_lane_without_a_loop_and_the_others_stay_serialised() {
    // loops in a module of a region of 64 dwords and an LDS of 64 dwords
    let loops = |text: &str| {
        let k = kernel(text, Wave::W32);
        let spv = emit_wave_mem(&k, Wave::W32, 64, 64, &SpirvOptions::DESKTOP).expect("emits");
        spirv_val(&spv, text).unwrap();
        let o = ops(&spv);
        (count(&o, Op::LoopMerge), count(&o, Op::AtomicUMax))
    };
    let (none, _) = loops("v_mov_b32 v1, 0");
    // stores to the region and dword stores to the LDS: claims, no lane-0 loop
    for store in [
        "global_store_dword v[2:3], v5, off offset:8",
        "global_store_short v[2:3], v5, off",
        "global_store_byte v[2:3], v5, off offset:3",
        "ds_write_b32 v6, v7",
    ] {
        let text = format!("{store}\n{store}\n{store}\n");
        assert_eq!(loops(&text).0, none, "{store}");
        assert!(loops(&text).1 >= 3, "{store}: a claim per store");
    }
    // an exchange returns the old value (lane order decides it): the lane-0 loop stays
    for serial in [
        "global_atomic_swap v1, v[2:3], v5, off glc",
        "ds_wrxchg_rtn_b32 v1, v6, v7",
    ] {
        assert!(loops(serial).0 > none, "{serial}");
        assert_eq!(loops(serial).1, 0, "{serial}");
    }
}

/// Cross-lane exchanges (ballots, lane reads) rotate through three shared slots: one barrier
/// each, where one slot took two (three for a ballot, which cleared its words in between).
/// Whether the values are right is the wave fixtures' business (datasets/wave/crosslane.csv
/// on cpu and every Vulkan driver); this counts what the drivers are given.
#[test]
fn a_cross_lane_exchange_takes_one_barrier() {
    let none = barriers("v_mov_b32 v1, 0");
    for (one, what) in [
        ("v_cmp_eq_u32_e32 vcc_lo, v1, v2\n", "a ballot"),
        ("v_readlane_b32 s4, v1, 3\n", "a lane read"),
        ("v_add_co_u32 v1, vcc_lo, v2, v3\n", "a carry-out mask"),
    ] {
        let once = barriers(one);
        assert_eq!(once, none + 1, "{what}");
        let four = barriers(&one.repeat(4));
        assert_eq!(four, none + 4, "{what} x4");
    }
    // alternating kinds share the rotation
    let mixed = barriers("v_cmp_eq_u32_e32 vcc_lo, v1, v2\nv_readlane_b32 s4, v1, 3\nv_cmp_lt_u32_e32 vcc_lo, v1, v2\nv_readlane_b32 s5, v1, 7\n");
    assert_eq!(mixed, none + 4);
}
