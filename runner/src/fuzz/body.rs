//! Random VALU instructions from the instruction table. Each table row's probe text (the form
//! llvm-mc printed for it) gives the operand shapes; the fuzzer fills them with the lane
//! contract's registers (destinations from v10, sources v4..v9 or earlier results), inline
//! constants and literals, adds source and result modifiers, and keeps what the project's own
//! assembler encodes and the recompiler lowers under the row's float mode. Ops whose lowering
//! leaves bits to a driver's approximation ([`FloatUn::is_approximate`]) are skipped, so they
//! join the fuzzer as soon as their IR is exact.

use rand::Rng;
use rdnaprobe_isa::{table, Family, FloatMode, OpInfo, OperandKind, Source, Target, Wave};
use rdnaprobe_recompiler::ir::{Expr, Kernel};
use rdnaprobe_recompiler::{is_lowered, lower_words};

use super::values;

/// The target the fuzzer's bodies are written for.
pub const GFX: Target = Target::Gfx1030;

/// One table row the fuzzer can draw: its printed mnemonic, operands and trailing modifiers.
#[derive(Clone, Debug)]
pub struct Template {
    pub row: &'static OpInfo,
    mnemonic: String,
    operands: Vec<String>,
    trailing: String,
    /// Printed destinations (the operands before the sources).
    ndst: usize,
    /// The VOP3 form of a VOP1/VOP2/VOPC row (`_e64`).
    promoted: bool,
}

/// Removes `/* ... */` comments.
fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        match rest[i..].find("*/") {
            Some(j) => rest = &rest[i + j + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

impl Template {
    fn parse(row: &'static OpInfo) -> Option<Template> {
        let text = strip_comments(row.probe_text);
        let text = text.trim();
        let (mnemonic, rest) = text.split_once(' ').unwrap_or((text, ""));
        let mut operands: Vec<String> = rest
            .split(", ")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        let mut trailing = String::new();
        if let Some(last) = operands.last_mut() {
            if let Some((op, mods)) = last.clone().split_once(' ') {
                *last = op.to_string();
                trailing = mods.to_string();
            }
        }
        let ndst = operands.len().checked_sub(row.srcs.len())?;
        Some(Template {
            row,
            mnemonic: mnemonic.to_string(),
            operands,
            trailing,
            ndst,
            promoted: false,
        })
    }

    fn is_vop3(&self) -> bool {
        matches!(self.row.family, Family::VOP3 | Family::VOP3P) || self.promoted
    }
}

/// Every VALU row that llvm-mc knows, that the recompiler lowers on [`GFX`] and whose probe
/// text parses, in its 32-bit and its promoted 64-bit form.
pub fn templates() -> Vec<Template> {
    table()
        .rows
        .iter()
        .filter(|r| r.family.is_valu() && r.source == Source::Llvm && !r.probe_text.is_empty())
        .filter(|r| is_lowered(r.op(), GFX))
        .filter_map(|r| Template::parse(r))
        .flat_map(|t| {
            // a VOP1/VOP2/VOPC row with a VOP3 opcode also has its promoted form, where
            // every source takes constants and the float ones take modifiers
            let promoted = t.row.vop3_opcode.is_some() && !t.is_vop3();
            let e64 = promoted.then(|| {
                let base = t.mnemonic.strip_suffix("_e32").unwrap_or(&t.mnemonic);
                Template {
                    mnemonic: format!("{base}_e64"),
                    promoted: true,
                    ..t.clone()
                }
            });
            std::iter::once(t).chain(e64)
        })
        .collect()
}

/// Register width of a printed register token (`v3` 1, `v[2:3]` 2).
fn width(tok: &str) -> Option<u32> {
    let t = tok.strip_prefix('v')?;
    if let Some(r) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = r.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        return Some(b.checked_sub(a)? + 1);
    }
    t.parse::<u32>().ok().map(|_| 1)
}

fn vreg(base: u32, w: u32) -> String {
    if w == 1 {
        format!("v{base}")
    } else {
        format!("v[{base}:{}]", base + w - 1)
    }
}

fn bits(rng: &mut impl Rng, n: usize, p: f64) -> String {
    let v: Vec<&str> = (0..n)
        .map(|_| if rng.gen_bool(p) { "1" } else { "0" })
        .collect();
    format!("[{}]", v.join(","))
}

/// One random instance of `t` as assembly text; `chained` lets sources read v10.. (results of
/// earlier instructions of the body).
pub fn instance(t: &Template, rng: &mut impl Rng, chained: bool) -> String {
    let vop3 = t.is_vop3();
    let mut literal_used = false;
    let mut ops = Vec::new();
    for (j, tok) in t.operands.iter().enumerate() {
        if j < t.ndst {
            ops.push(match width(tok) {
                Some(w) => vreg(10 + rng.gen_range(0..=3u32.min(16 - w)), w),
                None => tok.clone(),
            });
            continue;
        }
        let k = j - t.ndst;
        let spec = t.row.srcs[k];
        let w = width(tok);
        let op = match (spec.kind, w) {
            (OperandKind::Imm, _) => format!("0x{:x}", crate::specials::dword(rng)),
            (OperandKind::LaneMask | OperandKind::Sgpr, Some(_)) => {
                if rng.gen_bool(0.5) { "vcc_lo" } else { "s10" }.to_string()
            }
            (_, None) => tok.clone(),
            (kind, Some(w)) => {
                let may_const = kind == OperandKind::Src && (vop3 || k == 0);
                if may_const && rng.gen_bool(0.25) {
                    let lit = !literal_used && w == 1 && rng.gen_bool(0.5);
                    let c = values::constant(rng, lit);
                    literal_used |= c.starts_with("0x");
                    c
                } else if chained && rng.gen_bool(0.2) {
                    vreg(10 + rng.gen_range(0..=3u32.min(16 - w)), w)
                } else {
                    vreg(rng.gen_range(4..=10 - w), w)
                }
            }
        };
        let float = spec.ty.is_float();
        let op = if vop3 && float && t.row.family != Family::VOP3P {
            let op = if rng.gen_bool(0.1) {
                format!("|{op}|")
            } else {
                op
            };
            if rng.gen_bool(0.15) {
                format!("-{op}")
            } else {
                op
            }
        } else {
            op
        };
        ops.push(op);
    }
    let mut text = t.mnemonic.clone();
    if !ops.is_empty() {
        text.push(' ');
        text.push_str(&ops.join(", "));
    }
    let n = t.row.srcs.len();
    if t.row.family == Family::VOP3P {
        if rng.gen_bool(0.5) {
            for (name, p) in [
                ("op_sel", 0.3),
                ("op_sel_hi", 0.7),
                ("neg_lo", 0.2),
                ("neg_hi", 0.2),
            ] {
                if rng.gen_bool(0.5) {
                    text.push_str(&format!(" {name}:{}", bits(rng, n, p)));
                }
            }
        } else if !t.trailing.is_empty() {
            text.push(' ');
            text.push_str(&t.trailing);
        }
        if rng.gen_bool(0.1) {
            text.push_str(" clamp");
        }
    } else if vop3 {
        if !t.trailing.is_empty() {
            text.push(' ');
            text.push_str(&t.trailing);
        }
        if rng.gen_bool(0.15) {
            text.push_str(&format!(" op_sel:{}", bits(rng, n + 1, 0.4)));
        }
        if rng.gen_bool(0.1) {
            text.push_str(" clamp");
        }
        if rng.gen_bool(0.08) {
            text.push_str([" mul:2", " mul:4", " div:2"][rng.gen_range(0..3)]);
        }
    }
    text
}

/// Whether the kernel computes anything a driver may approximate.
pub fn is_approximate(k: &Kernel) -> bool {
    k.exprs
        .iter()
        .any(|e| matches!(e, Expr::FloatUn { op, .. } if op.is_approximate()))
}

/// Assembles `text` and lowers it in `mode`: the words when both succeed and the IR is exact.
pub fn accept(text: &str, mode: FloatMode, wave: Wave) -> Option<Vec<u32>> {
    let words = rdnaprobe_isa::assemble(text).ok()?;
    let k = lower_words(&words, mode, wave, GFX).ok()?;
    (!is_approximate(&k)).then_some(words)
}
