//! Exhaustive f16 checks: every lowered scalar f16 VALU instruction with one 16-bit source
//! (all 65,536 inputs) or two sources (all 65,536 values of the first against a fixed grid of
//! three for the second, three instructions per row) runs in the 16 modes of denorm16 x round16
//! (`all16`) on lavapipe and on the CPU model, and `rdnaprobe exhaustive` reports no
//! mismatching row. The instruction list comes from the table; ops whose IR is approximate
//! ([`FloatUn::is_approximate`]) are skipped until it is exact, and picked up then without an
//! edit here. Without lavapipe the test is skipped with a message, unless `CI=true`.

mod common;

use rdnaprobe_isa::{table, Family, FloatMode, OpInfo, Source, Target, ValueType, Wave};
use rdnaprobe_recompiler::ir::{Expr, FloatUn};
use rdnaprobe_recompiler::{is_lowered, lower_words};

/// Second-operand grid: float sources (1 + ulp, the smallest negative denormal, -max; the
/// first operand runs through every NaN) and integer sources (the ldexp exponents -1, 15, -25:
/// halving, overflow, underflow past the denormals).
const FLOAT_GRID: [u32; 3] = [0x3c01, 0x8001, 0xfbff];
const INT_GRID: [u32; 3] = [0xffff_ffff, 15, 0xffff_ffe7];

fn is16(t: ValueType) -> bool {
    matches!(
        t,
        ValueType::F16 | ValueType::I16 | ValueType::U16 | ValueType::B16
    )
}

/// The printed mnemonic of a row (`v_add_f16_e32`, `v_pack_b32_f16`).
fn printed(row: &OpInfo) -> &str {
    row.probe_text
        .split_whitespace()
        .next()
        .unwrap_or(row.mnemonic)
}

/// The `--modes` argument of the denorm x round modes in which the body lowers, and their
/// count, or why it is not checked: `None` when no mode lowers, `Some(Err)` when the IR is
/// approximate or the lowered modes are not a product of denorm and round values.
fn modes(body: &str) -> Option<Result<(String, u64), String>> {
    let words = rdnaprobe_isa::assemble(&body.replace(';', "\n")).ok()?;
    let mut ok = [[false; 4]; 4];
    for (d, row) in ok.iter_mut().enumerate() {
        for (r, cell) in row.iter_mut().enumerate() {
            let (d, r) = (d as u8, r as u8);
            let mode = FloatMode {
                denorm32: d,
                denorm16: d,
                round32: r,
                round16: r,
                ..FloatMode::DEFAULT
            };
            if let Ok(k) = lower_words(&words, mode, Wave::W32, Target::Gfx1030) {
                if k.exprs
                    .iter()
                    .any(|e| matches!(e, Expr::FloatUn { op, .. } if FloatUn::is_approximate(*op)))
                {
                    return Some(Err("approximate IR".into()));
                }
                *cell = true;
            }
        }
    }
    let ds: Vec<usize> = (0..4).filter(|&d| ok[d].iter().any(|&x| x)).collect();
    let rs: Vec<usize> = (0..4).filter(|&r| ok.iter().any(|row| row[r])).collect();
    if ds.is_empty() {
        return None;
    }
    if !ds.iter().all(|&d| rs.iter().all(|&r| ok[d][r])) {
        return Some(Err(
            "the modes that lower are not a denorm x round product".into()
        ));
    }
    let list = |v: &[usize]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("/")
    };
    Some(Ok((
        format!("denorm={},round={}", list(&ds), list(&rs)),
        (ds.len() * rs.len()) as u64,
    )))
}

/// One `rdnaprobe exhaustive` run.
struct Run {
    body: String,
    inputs: Vec<String>,
    modes: String,
    /// Modes in `modes`.
    count: u64,
}

/// Every run, and what is not checked (and why).
fn runs() -> (Vec<Run>, Vec<String>) {
    let mut runs = Vec::new();
    let mut skipped = Vec::new();
    for row in &table().rows {
        let f16 = row.result == ValueType::F16 || row.srcs.iter().any(|s| s.ty == ValueType::F16);
        let fam = matches!(row.family, Family::VOP1 | Family::VOP2 | Family::VOP3);
        if !f16 || !fam || row.source != Source::Llvm || !is_lowered(row.op(), Target::Gfx1030) {
            continue;
        }
        let m = printed(row);
        let (body, inputs) = match row.srcs.len() {
            1 if is16(row.srcs[0].ty) => (format!("{m} v10, v4"), vec!["in0=f16:all".into()]),
            2 if is16(row.srcs[0].ty) && row.dsts.len() == 1 => {
                let grid = if row.srcs[1].ty.is_float() {
                    FLOAT_GRID
                } else {
                    INT_GRID
                };
                let body: Vec<String> = (0..grid.len())
                    .map(|i| format!("{m} v{}, v4, v{}", 10 + i, 5 + i))
                    .collect();
                let mut inputs = vec!["in0=f16:all".to_string()];
                inputs.extend(
                    grid.iter()
                        .enumerate()
                        .map(|(i, g)| format!("in{}=const:0x{g:x}", i + 1)),
                );
                (body.join(" ; "), inputs)
            }
            _ => {
                skipped.push(format!(
                    "{m}: not a unary or binary op on a 16-bit first source"
                ));
                continue;
            }
        };
        match modes(&body) {
            Some(Ok((modes, n))) => {
                if n < 16 {
                    skipped.push(format!("{m}: only in {modes}, the modes it lowers in"));
                }
                runs.push(Run {
                    body,
                    inputs,
                    modes,
                    count: n,
                });
            }
            Some(Err(why)) => skipped.push(format!("{m}: {why}")),
            None => skipped.push(format!("{m}: `{body}` does not lower")),
        }
    }
    (runs, skipped)
}

#[test]
fn every_f16_op_matches_the_cpu_model_on_lavapipe_in_all_16_modes() {
    let (runs, skipped) = runs();
    for s in &skipped {
        eprintln!("not checked (or partly): {s}");
    }
    assert!(runs.len() >= 20, "only {} f16 ops found", runs.len());
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let start = std::time::Instant::now();
    for (i, r) in runs.iter().enumerate() {
        let t = std::time::Instant::now();
        let inputs: Vec<&str> = r.inputs.iter().map(String::as_str).collect();
        common::exhaustive_on_lavapipe_agrees(
            &format!("f16_exhaustive_{i}"),
            &r.body,
            &inputs,
            &r.modes,
            "32",
            0x10000 * r.count,
        );
        eprintln!("{}: {:.1} s", r.body, t.elapsed().as_secs_f64());
    }
    eprintln!(
        "{} f16 ops x 65,536 inputs x up to 16 modes in {:.1} s",
        runs.len(),
        start.elapsed().as_secs_f64()
    );
}
