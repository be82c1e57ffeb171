//! Wave datasets on the `hip` backend: each wave of rows (the dataset schema's
//! [`group_waves`]) becomes one [`rdnaprobe_oracle::wave::WaveInput`] of the oracle's wave
//! kernel (docs/oracle.md, "The wave kernel"), and each [`WaveResult`] goes back to the wave's
//! rows: every row its lane's out0..out15, the first row the uniform outputs.
//!
//! Waves with one body, resolved float mode, wave size and LDS size share a code object and
//! run as one batch through the supervisor (same watchdog and errors as lane rows). A wave
//! whose epilogue did not run to its done mark gets the lane template's status
//! ([`NOT_DONE`]).

use rdnaprobe_dataset::{group_waves, Row, WaveLayout, WaveRows};
use rdnaprobe_oracle::wave::{WaveInput, WaveResult, WaveShape};
use rdnaprobe_oracle::Mode;
use rdnaprobe_recompiler::wave::UniformValues;

use super::hip::row_mode;
use super::{Status, WaveResults};

/// The status of a row whose body ended the program or branched past the template's stores.
pub const NOT_DONE: &str =
    "the body did not reach the template's stores (it ended the program or branched away)";

/// The kernel a wave runs on the oracle: body words, mode (float mode and wave size) and shape.
pub type WaveKernel = (Vec<u32>, Mode, WaveShape);

/// One wave ready for the oracle.
pub struct HipWave {
    pub rows: WaveRows,
    pub kernel: WaveKernel,
    pub input: WaveInput,
}

/// Cuts `rows` into waves for the oracle. Waves that cannot run (no words, a bad mode or
/// cell, a hazard the user did not allow: [`super::hazards`]) get their status in `results`
/// and are left out.
pub fn prepare(
    rows: &[Row],
    layout: &WaveLayout,
    results: &mut WaveResults,
    allow_hazards: bool,
) -> Vec<HipWave> {
    let waves = match group_waves(rows, layout) {
        Ok(w) => w,
        Err(e) => {
            *results = WaveResults::all(rows.len(), Status::Error(e));
            return vec![];
        }
    };
    let mut out = Vec::with_capacity(waves.len());
    for w in waves {
        let first = &rows[w.start];
        if first.encoding.is_empty() {
            results.fail(
                &w,
                &Status::Unsupported("the row has no instruction words".into()),
            );
            continue;
        }
        let mode = match row_mode(first) {
            Ok(m) => m,
            Err(s) => {
                results.fail(&w, &s);
                continue;
            }
        };
        if let Some(why) = super::hazards::refusal(&first.encoding, &w.inputs.sgprs) {
            if !allow_hazards {
                results.fail(&w, &Status::Unsupported(format!("hazard: {why}")));
                continue;
            }
        }
        let lanes = mode.wave.lanes();
        let (low, high) = w.inputs.sgprs.split_at(16);
        if let Some(k) = high.iter().position(|&d| d != 0) {
            results.fail(
                &w,
                &Status::Unsupported(format!(
                    "hip: the wave kernel sets s0..s15 from s_in, not s{} (s24..s103 are not \
                     loaded yet)",
                    k + 16
                )),
            );
            continue;
        }
        let mut s_in = [0u32; 16];
        s_in.copy_from_slice(low);
        let mut input = WaveInput {
            lanes: Vec::new(),
            s_in,
            exec_in: w.inputs.exec_mask(lanes),
            lds_in: w.inputs.lds.clone(),
            mem_in: w.inputs.mem.clone(),
            mem_bytes: 4 * w.inputs.mem.len() as u32,
        };
        for (r, &lane) in (w.start..w.end).zip(&w.lanes) {
            input.set_lane(lane as usize, rows[r].inputs);
        }
        let shape = WaveShape {
            wave: mode.wave,
            lds_bytes: 4 * w.inputs.lds.len() as u32,
        };
        out.push(HipWave {
            kernel: (first.encoding.clone(), mode, shape),
            rows: w,
            input,
        });
    }
    out
}

/// Stores what the oracle gave for wave `w` in `results`.
pub fn store(results: &mut WaveResults, w: &WaveRows, r: WaveResult) {
    if !r.done {
        results.fail(w, &Status::Error(NOT_DONE.into()));
        return;
    }
    let uniform = UniformValues {
        sgprs: r.s_out,
        exec: r.exec_out,
        vcc: r.vcc_out,
        scc: r.scc_out,
    };
    results.store(w, &r.lanes, Some(uniform), r.lds_out);
    results.set_mem(w, r.mem_out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdnaprobe_dataset::{WaveCol, WAVE_COLUMNS};
    use rdnaprobe_oracle::wave::exec::pack;
    use rdnaprobe_oracle::Wave;

    /// Two waves of one body (lanes 0, 3 of `a`; lane 1 of `b`, wave64, another LDS size).
    fn rows() -> (Vec<Row>, WaveLayout) {
        let columns: Vec<String> = WAVE_COLUMNS.iter().map(|c| c.to_string()).collect();
        let layout = WaveLayout::from_columns(&columns).unwrap();
        let row = |id: &str, lane: u32, wave: u32, uniform: [&str; 6]| {
            let mut extra = vec![String::new(); WAVE_COLUMNS.len()];
            extra[WaveCol::WaveId as usize] = id.into();
            extra[WaveCol::Lane as usize] = lane.to_string();
            for (c, v) in WaveCol::UNIFORM_IN.into_iter().zip(uniform) {
                extra[c as usize] = v.into();
            }
            Row {
                encoding: vec![0x7e14_0281],
                wave: Some(wave),
                inputs: [lane + 1, 0, 0, 0, 0, 7],
                extra,
                ..Row::default()
            }
        };
        let rows = vec![
            row(
                "a",
                0,
                32,
                ["0x9", "0x5 0x6", "0x11", "", "0x21 0x22", "16"],
            ),
            row("a", 3, 32, [""; 6]),
            row("b", 1, 64, ["", "", "", "1024", "", ""]),
        ];
        (rows, layout)
    }

    #[test]
    fn waves_map_to_oracle_inputs() {
        let (rows, layout) = rows();
        let mut results = WaveResults::all(3, Status::Error("not scheduled".into()));
        let waves = prepare(&rows, &layout, &mut results, false);
        assert_eq!(waves.len(), 2);
        let a = &waves[0];
        assert_eq!(a.kernel.0, [0x7e14_0281]);
        assert_eq!(a.kernel.2.wave, Wave::W32);
        assert_eq!(a.kernel.2.lds_bytes, 512, "lds_in rounds up to 512 bytes");
        assert_eq!(
            a.input.lanes,
            [[1, 0, 0, 0, 0, 7], [0; 6], [0; 6], [4, 0, 0, 0, 0, 7]]
        );
        assert_eq!(a.input.exec_in, 9);
        assert_eq!(&a.input.s_in[..3], [5, 6, 0]);
        assert_eq!(a.input.lds_in.len(), 128);
        assert_eq!(a.input.lds_in[0], 0x11);
        assert_eq!(a.input.mem_in, [0x21, 0x22, 0, 0]);
        assert_eq!(a.input.mem_bytes, 16);
        let b = &waves[1];
        assert_eq!(
            b.kernel.2,
            WaveShape {
                wave: Wave::W64,
                lds_bytes: 1024
            }
        );
        assert_eq!(b.kernel.1.wave, Wave::W64);
        assert_eq!(b.input.exec_in, u64::MAX, "an empty exec_in is every lane");
        assert_eq!(b.input.lanes.len(), 2);
        assert_eq!((b.input.mem_in.len(), b.input.mem_bytes), (0, 0));
        for w in &waves {
            let shape = w.kernel.2;
            let packed = pack(&shape, std::slice::from_ref(&w.input)).unwrap();
            assert_eq!(
                packed.lds_in.len(),
                shape.lds_alloc() as usize,
                "LDS packed whole"
            );
            assert_eq!(packed.lanes_in.len(), shape.lanes() * 6 * 4);
        }
    }

    #[test]
    fn a_hazard_is_refused_unless_allowed() {
        let (mut rows, layout) = rows();
        // image_store_pck2 with a 32_32_32_32_FLOAT T# (format 77) in s[8:15]
        let pck2 = rdnaprobe_isa::assemble(
            "image_store_pck2 v0, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm",
        )
        .unwrap();
        let mut s_in = vec!["0x0"; 16];
        s_in[9] = "0x04d00000";
        let s_in = s_in.join(" ");
        for r in &mut rows {
            r.encoding = pck2.clone();
        }
        rows[0].extra[WaveCol::SIn as usize] = s_in;
        let mut results = WaveResults::all(3, Status::Error("not scheduled".into()));
        let waves = prepare(&rows, &layout, &mut results, false);
        assert_eq!(
            waves.len(),
            1,
            "wave b, whose s_in gives a T# of format 0, runs"
        );
        let Status::Unsupported(why) = &results.rows[0].status else {
            panic!("{:?}", results.rows[0].status)
        };
        assert!(why.starts_with("hazard: image_store_pck2"), "{why}");
        let mut results = WaveResults::all(3, Status::Error("not scheduled".into()));
        assert_eq!(prepare(&rows, &layout, &mut results, true).len(), 2);
    }

    #[test]
    fn results_go_back_to_the_rows_and_unfinished_waves_fail() {
        let (rows, layout) = rows();
        let mut results = WaveResults::all(3, Status::Error("not scheduled".into()));
        let waves = prepare(&rows, &layout, &mut results, false);
        let lanes: Vec<[u32; 16]> = (0..32u32).map(|l| [l * 10; 16]).collect();
        let done = WaveResult {
            lanes,
            s_out: [3; 16],
            exec_out: 9,
            vcc_out: 1,
            scc_out: true,
            lds_out: vec![0x11; 128],
            mem_out: vec![1, 2, 3, 4],
            done: true,
        };
        store(&mut results, &waves[0].rows, done);
        store(&mut results, &waves[1].rows, WaveResult::default());
        assert_eq!(results.rows[0].status, Status::Ok);
        assert_eq!(results.rows[0].outputs, [Some(0); 16]);
        assert_eq!(results.rows[1].outputs, [Some(30); 16], "row 2 is lane 3");
        let u = results.uniform[0].as_ref().unwrap();
        assert_eq!((u.exec, u.vcc, u.scc), (9, 1, true));
        assert_eq!(u.mem, [1, 2, 3, 4]);
        assert_eq!(u.lds.len(), 128);
        assert!(results.uniform[1].is_none());
        assert_eq!(results.rows[2].status, Status::Error(NOT_DONE.into()));
        assert_eq!(results.rows[2].outputs, [None; 16]);
    }

    /// The memory waves of datasets/wave/memory.csv become wave kernels that comgr assembles
    /// for gfx1030 and gfx1036 (up to the GPU boundary: no device needed).
    #[test]
    fn memory_waves_assemble_with_comgr() {
        let comgr = match rdnaprobe_oracle::Comgr::load() {
            Ok(c) => c,
            Err(e) if std::env::var("CI").is_err() => {
                eprintln!("skipped: {e}");
                return;
            }
            Err(e) => panic!("comgr is required on CI: {e}"),
        };
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../datasets/wave/memory.csv");
        let ds = rdnaprobe_dataset::read_dataset(std::path::Path::new(path)).unwrap();
        let layout = WaveLayout::from_columns(&ds.extra_columns).unwrap();
        let mut results = WaveResults::all(ds.rows.len(), Status::Error("not scheduled".into()));
        let waves = prepare(&ds.rows, &layout, &mut results, false);
        assert!(waves.len() >= 10);
        assert!(waves.iter().all(|w| w.input.mem_bytes > 0));
        let mut kernels: Vec<&WaveKernel> = waves.iter().map(|w| &w.kernel).collect();
        kernels.dedup();
        for (words, mode, shape) in kernels {
            for target in [
                rdnaprobe_oracle::Target::Gfx1030,
                rdnaprobe_oracle::Target::Gfx1036,
            ] {
                let k = rdnaprobe_oracle::assemble_wave_probe(&comgr, target, mode, shape, words)
                    .unwrap_or_else(|e| panic!("{words:x?} on {target}: {e}"));
                assert!(!k.code_object.is_empty());
            }
        }
    }
}
