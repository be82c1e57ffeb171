//! Two small image-sweep runs for the texture report's tests (reports/tests/texture.rs and
//! runner/tests/texture_report.rs): a reference (`cpu`, every row `ok`) and a candidate
//! (`vulkan:test+native-images`) of two waves of `image_sample_l`, whose out0 values differ by
//! known amounts.
//!
//! - wave `a` (T# 8_UNORM 2D, S# point, wrap), lanes 0..4: candidate exact, +1 ULP, +300 ULP,
//!   NaN, and `unsupported: native image: test reason` (no outputs);
//! - wave `b` (T# 32_FLOAT 2D, S# bilinear, border of opaque white), lanes 0..3: exact, exact,
//!   -1 ULP, -300 ULP; out1 (v11, not written by the body) differs on every lane and must not
//!   be compared.
//!
//! Both waves have the same lane inputs, so the join pairs them by occurrence.
#![allow(dead_code)]

use std::path::Path;

use rdnaprobe_dataset::{Row, Writer};

pub const BODY: &str = "image_sample_l v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D";
pub const REASON: &str = "native image: test reason";
pub const GROUP_A: &str = "image_sample_l 2D 8_UNORM point wrap";
pub const GROUP_B: &str = "image_sample_l 2D 32_FLOAT bilinear border (opaque white)";

/// s0..s15 of a wave: the S# in s[0:3], the T# in s[8:15].
fn s_in(format: u32, s0: u32, s2: u32, s3: u32) -> String {
    let mut s = [0u32; 16];
    s[0] = s0;
    s[2] = s2;
    s[3] = s3;
    s[9] = format << 20; // T# word1 FORMAT
    s[11] = 9 << 28; // T# word3 TYPE 2D
    s.iter()
        .map(|w| format!("0x{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One lane: (wave, lane, reference out0, candidate out0 or a status, out1 on each side).
struct Lane {
    wave: &'static str,
    reference: u32,
    candidate: Result<u32, &'static str>,
    out1: (u32, u32),
}

fn lanes() -> Vec<Lane> {
    let half = 0x3f00_0000;
    let two = 0x4000_0000;
    let l = |wave, reference, candidate, out1| Lane {
        wave,
        reference,
        candidate,
        out1,
    };
    vec![
        l("a", half, Ok(half), (0, 0)),
        l("a", half, Ok(half + 1), (0, 0)),
        l("a", half, Ok(half + 300), (0, 0)),
        l("a", half, Ok(0x7fc0_0000), (0, 0)),
        l("a", half, Err(REASON), (0, 0)),
        l("b", two, Ok(two), (0, 0xdead_beef)),
        l("b", two, Ok(two), (0, 0xdead_beef)),
        l("b", two, Ok(two - 1), (0, 0xdead_beef)),
        l("b", two, Ok(two - 300), (0, 0xdead_beef)),
    ]
}

/// Writes the reference and candidate runs; `body` replaces the image instruction's words.
pub fn write_runs(reference: &Path, candidate: &Path, body: Option<&[u32]>) {
    let encoding = match body {
        Some(b) => b.to_vec(),
        None => rdnaprobe_isa::assemble(BODY).expect("the body assembles"),
    };
    let extra: Vec<String> = ["wave_id", "lane", "s_in"].map(String::from).to_vec();
    for (path, is_candidate) in [(reference, false), (candidate, true)] {
        let file = std::fs::File::create(path).expect("create");
        let mut w = Writer::new(file, "test", &["backend", "status"], &extra).expect("header");
        let mut lane_in_wave = 0;
        let mut last = "";
        for lane in lanes() {
            let first = lane.wave != last;
            lane_in_wave = if first { 0 } else { lane_in_wave + 1 };
            last = lane.wave;
            let s = match (first, lane.wave) {
                (false, _) => String::new(),
                (true, "a") => s_in(1, 0, 0, 0),
                // CLAMP_X/Y/Z border, XY_MAG/MIN bilinear, BORDER_COLOR_TYPE opaque white.
                (true, _) => s_in(22, 6 | 6 << 3 | 6 << 6, 1 << 20 | 1 << 22, 2 << 30),
            };
            let mut row = Row {
                instruction: BODY.into(),
                encoding: encoding.clone(),
                wave: Some(32),
                inputs: [
                    (0.25f32 * lane_in_wave as f32).to_bits(),
                    0x3f00_0000,
                    0,
                    0,
                    0,
                    0,
                ],
                gfx: "gfx1030".into(),
                // The lane cell on the wave's first row only: the others follow it.
                extra: vec![
                    lane.wave.to_string(),
                    if first { "0".into() } else { String::new() },
                    s,
                ],
                ..Row::default()
            };
            let (backend, status) = if is_candidate {
                match lane.candidate {
                    Ok(v) => {
                        row.outputs[0] = Some(v);
                        row.outputs[1] = Some(lane.out1.1);
                        ("vulkan:test+native-images", "ok".to_string())
                    }
                    Err(reason) => (
                        "vulkan:test+native-images",
                        format!("unsupported: {reason}"),
                    ),
                }
            } else {
                row.outputs[0] = Some(lane.reference);
                row.outputs[1] = Some(lane.out1.0);
                ("cpu", "ok".to_string())
            };
            w.write_row(&row, &[backend, &status]).expect("row");
        }
        w.finish().expect("flush");
    }
}
