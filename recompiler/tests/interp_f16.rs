//! Checks the v_interp_*_f16 arithmetic (`lower::interp16::interp_f16`) against the hardware
//! rows of datasets/rdna2-interp/interp_f16_modes.csv (operands as f32 bits: delta, coordinate, base; the p2 result
//! is the f16 in the low 16 bits). The file is datasets/rdna2-interp/interp_f16_modes.csv, or where
//! `RDNAPROBE_INTERP_CSV` points.

use rdnaprobe_isa::FloatMode;
use rdnaprobe_recompiler::builder::Builder;
use rdnaprobe_recompiler::interp;
use rdnaprobe_recompiler::ir::Expr;
use rdnaprobe_recompiler::lower::interp16::{interp_f16, InterpStep};
use std::path::{Path, PathBuf};

fn csv_path() -> PathBuf {
    if let Ok(p) = std::env::var("RDNAPROBE_INTERP_CSV") {
        return PathBuf::from(p);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/rdna2-interp/interp_f16_modes.csv")
}

fn hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.trim().trim_start_matches("0x"), 16).ok()
}

#[test]
fn interp_f16_arithmetic_matches_hardware_rows() {
    let path = csv_path();
    let mut rd = csv::Reader::from_path(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let hdr: Vec<String> = rd
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let col = |n: &str| hdr.iter().position(|h| h == n).unwrap_or(usize::MAX);
    let (mut n, mut ok) = (0, 0);
    let mut bad = Vec::new();
    for rec in rd.records() {
        let rec = rec.expect("record");
        let get = |c: &str| rec.get(col(c)).unwrap_or("").to_string();
        let ins = get("instruction");
        let step = if ins.starts_with("v_interp_p2_f16") {
            InterpStep::P2
        } else {
            InterpStep::P1
        };
        let d = FloatMode::DEFAULT;
        let cell = |c: &str, dflt: u8| get(c).trim().parse::<u8>().unwrap_or(dflt);
        let mode = FloatMode {
            ieee: cell("ieee", 0) != 0,
            denorm32: cell("denorm32", 3),
            denorm16: cell("denorm16", 3),
            dx10_clamp: cell("dx10_clamp", u8::from(d.dx10_clamp)) != 0,
            ..d
        };
        let ins_v = [hex(&get("in0")), hex(&get("in1")), hex(&get("in2"))];
        let (Some(a), Some(c), Some(bs), Some(want)) =
            (ins_v[0], ins_v[1], ins_v[2], hex(&get("out0")))
        else {
            continue;
        };
        let mut b = Builder::new();
        let i = [
            b.push(Expr::Input(0)),
            b.push(Expr::Input(1)),
            b.push(Expr::Input(2)),
        ];
        let r = interp_f16(&mut b, step, mode, i[0], i[1], i[2]);
        let z = b.c32(0);
        let mut outs = vec![z; 16];
        outs[0] = r;
        b.k.outputs = outs;
        let got = interp::run(&b.k, [a, c, bs, 0, 0, 0], 0)[0];
        let (got, want) = if step == InterpStep::P2 {
            (got & 0xffff, want & 0xffff)
        } else {
            (got, want)
        };
        n += 1;
        if got == want {
            ok += 1;
        } else {
            bad.push(format!("{ins:.20} ieee={} d32={} d16={} {a:#x} {c:#x} {bs:#x}: got {got:#x} want {want:#x}", mode.ieee, mode.denorm32, mode.denorm16));
        }
    }
    eprintln!("interp_f16_modes: {ok}/{n} rows exact");
    for l in bad.iter().take(20) {
        eprintln!("  {l}");
    }
    assert!(n > 0, "no rows read from {}", path.display());
    assert!(bad.is_empty(), "{} interpolation rows differ", bad.len());
}
