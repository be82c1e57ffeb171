//! Structured control flow against the block dispatcher on lavapipe, for a loop-heavy wave
//! body (two nested counted loops of 100 passes with an if/else inside: about 30,000 blocks
//! per wave): both modules give the CPU model's bits on 64 waves. Ignored by default; run it
//! with `--ignored --nocapture` to print each module's pipeline-compile time and run times
//! (figures only, nothing asserted about them).

use std::time::{Duration, Instant};

use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
use rdnaprobe_recompiler::lower_wave_words;
use rdnaprobe_recompiler::spirv::{emit_wave, emit_wave_dispatcher};
use rdnaprobe_recompiler::wave::{run_wave, WaveInput};

use super::tests::lavapipe;
use super::WaveJob;
use crate::backend::wave::{module_inputs, module_outputs};

const LOOPS: &str = "s_mov_b32 s2, 0
s_mov_b32 s1, 0
v_add_nc_u32 v10, v4, v10
v_and_b32 v13, 1, v10
v_cmp_eq_u32 vcc_lo, 0, v13
s_cbranch_vccnz 2
v_xor_b32 v11, v10, v11
s_branch 1
v_add_nc_u32 v12, v10, v12
s_add_u32 s1, s1, 1
s_cmpk_lt_u32 s1, 100
s_cbranch_scc1 -10
s_add_u32 s2, s2, 1
s_cmpk_lt_u32 s2, 100
s_cbranch_scc1 -14";

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[test]
#[ignore = "prints timings; run with --ignored --nocapture"]
fn structured_and_dispatched_loops_agree_and_their_times_are_printed() {
    let Some(mut exec) = lavapipe() else { return };
    let wave = Wave::W32;
    let words = assemble(LOOPS).expect("assembles");
    let k = lower_wave_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030).expect("lowers");
    let inputs: Vec<WaveInput> = (0..64u32)
        .map(|w| WaveInput {
            lanes: (0..32u32).map(|l| [w * 32 + l, 0, 0, 0, 0, 0]).collect(),
            sgprs: [0; rdnaprobe_recompiler::wave::SGPR_INPUTS],
            exec: 0xffff_ffff,
            lds: vec![],
        })
        .collect();
    let want: Vec<_> = inputs.iter().map(|w| run_wave(&k, w)).collect();
    assert!(want.iter().all(|w| w.error.is_none()));
    let words: Vec<Vec<u32>> = inputs.iter().map(module_inputs).collect();
    let opts = exec.spirv_options();
    for (name, spv) in [
        ("structured", emit_wave(&k, wave, 0, &opts).unwrap()),
        (
            "dispatcher",
            emit_wave_dispatcher(&k, wave, 0, 0, &opts).unwrap(),
        ),
    ] {
        let t = Instant::now();
        let pipe = exec.wave_pipeline(&spv).expect("pipeline");
        let compile = t.elapsed();
        let job = [WaveJob {
            pipeline: pipe,
            wave,
            lds_dwords: 0,
            waves: &words,
        }];
        let mut runs = Vec::new();
        for _ in 0..6 {
            let t = Instant::now();
            let out = exec.run_waves(&job).expect("runs");
            runs.push(t.elapsed());
            for (got, w) in out[0].iter().zip(&want) {
                let (lanes, uni, _) = module_outputs(got, 32).expect("status 0");
                assert_eq!(lanes, w.lanes, "{name}");
                assert_eq!(Some(uni), w.uniform, "{name}");
            }
        }
        let first = runs.remove(0);
        runs.sort_unstable();
        eprintln!(
            "{name}: {} words, pipeline {:.1} ms, first run {:.1} ms, median of 5 runs {:.1} ms \
             (64 waves of 32 lanes)",
            spv.len(),
            ms(compile),
            ms(first),
            ms(runs[2])
        );
    }
}
