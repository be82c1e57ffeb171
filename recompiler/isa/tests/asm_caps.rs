//! The assembler's form capabilities (src/table/gfx10-asm.txt) are what llvm-mc-19 accepts:
//! for every VALU row, which encodings (e32, e64, sdwa, dpp, dpp8) assemble, which modifiers each
//! takes, and which operand kinds each source takes. `BLESS=1` rewrites the file from llvm-mc-19;
//! otherwise the test fails when the file is stale.

#![allow(clippy::print_stdout)]

mod asm_llvm;

use rdnaprobe_isa::{table, Family, OpInfo, OperandKind};

/// The line diff the recompiler's golden tests print (recompiler/tests/common/line_diff.rs).
#[path = "../../tests/common/line_diff.rs"]
mod line_diff;

fn reg(prefix: &str, index: u32, dwords: u8) -> String {
    if dwords <= 1 {
        format!("{prefix}{index}")
    } else {
        format!("{prefix}[{index}:{}]", index + u32::from(dwords) - 1)
    }
}

/// Sources llvm-mc's probe text marks as scalar-only (`/*Invalid register, ... 'SReg_32' ...*/`).
fn scalar_only(info: &OpInfo) -> Vec<bool> {
    let Some((_, ops)) = info.probe_text.split_once(char::is_whitespace) else {
        return Vec::new();
    };
    // Operands split at commas outside `/* ... */` and `[...]`.
    let mut toks = vec![String::new()];
    let (mut comment, mut depth) = (false, 0);
    let b = ops.as_bytes();
    for (i, ch) in ops.char_indices() {
        if !comment && ch == '/' && b.get(i + 1) == Some(&b'*') {
            comment = true;
        } else if comment && ch == '/' && i > 0 && b[i - 1] == b'*' {
            comment = false;
        }
        match ch {
            '[' if !comment => depth += 1,
            ']' if !comment => depth -= 1,
            ',' if !comment && depth == 0 => {
                toks.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(t) = toks.last_mut() {
            t.push(ch);
        }
    }
    let nd = toks.len().saturating_sub(row_srcs(info).len());
    toks.iter()
        .skip(nd)
        .map(|t| t.contains("'SReg") || t.contains("'SRegOrLds"))
        .collect()
}

/// The row's sources (a VALU word has at most three; VOP3P probe texts with `op_sel_hi:[...]`
/// give the table row more).
fn row_srcs(info: &OpInfo) -> &[rdnaprobe_isa::OperandSpec] {
    &info.srcs[..info.srcs.len().min(3)]
}

#[derive(Clone, Copy, PartialEq)]
enum Form {
    E32,
    E64,
    Sdwa,
    Dpp,
    Dpp8,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::E32 => "e32",
            Form::E64 => "e64",
            Form::Sdwa => "sdwa",
            Form::Dpp => "dpp",
            Form::Dpp8 => "dpp8",
        }
    }
}

struct Base {
    mnemonic: String,
    dsts: Vec<String>,
    srcs: Vec<String>,
    /// Width of each source (for register variants).
    widths: Vec<u8>,
    tail: String,
}

impl Base {
    fn line(&self, srcs: &[String], extra: &str) -> String {
        let mut ops: Vec<String> = self.dsts.clone();
        ops.extend(srcs.iter().cloned());
        let mut l = self.mnemonic.clone();
        if !ops.is_empty() {
            l.push(' ');
            l.push_str(&ops.join(", "));
        }
        l.push_str(&self.tail);
        l.push_str(extra);
        l
    }
}

fn base(info: &OpInfo, form: Form) -> Option<Base> {
    let short = matches!(info.family, Family::VOP1 | Family::VOP2 | Family::VOPC);
    if row_srcs(info).iter().any(|s| s.kind == OperandKind::Mem) {
        return None;
    }
    let promoted = short && info.vop3_opcode.is_some();
    let mnemonic = match form {
        Form::E32 if short => format!("{}_e32", info.mnemonic),
        Form::E64 if promoted => format!("{}_e64", info.mnemonic),
        Form::E64 if matches!(info.family, Family::VOP3 | Family::VOP3P) => {
            info.mnemonic.to_string()
        }
        Form::Sdwa if short => format!("{}_sdwa", info.mnemonic),
        Form::Dpp if short => format!("{}_dpp", info.mnemonic),
        Form::Dpp8 if short => info.mnemonic.to_string(),
        _ => return None,
    };
    let long = form == Form::E64;
    let cmpx = info.mnemonic.starts_with("v_cmpx");
    let mut dsts = Vec::new();
    if !(cmpx && info.family == Family::VOPC) {
        for (i, d) in info.dsts.iter().enumerate() {
            dsts.push(match d.kind {
                OperandKind::LaneMask if long => format!("s{}", 10 + 2 * i),
                OperandKind::LaneMask => "vcc_lo".to_string(),
                OperandKind::Sgpr => reg("s", 10, d.dwords),
                _ => reg("v", 10, d.dwords),
            });
        }
    }
    let so = scalar_only(info);
    let mut srcs = Vec::new();
    let mut widths = Vec::new();
    for (i, s) in row_srcs(info).iter().enumerate() {
        widths.push(s.dwords);
        srcs.push(match s.kind {
            OperandKind::LaneMask if long => "s14".to_string(),
            OperandKind::LaneMask => "vcc_lo".to_string(),
            OperandKind::Imm => "0x1234".to_string(),
            _ if so.get(i).copied().unwrap_or(false) => reg("s", 20 + 2 * i as u32, s.dwords),
            _ => reg("v", 2 * i as u32, s.dwords),
        });
    }
    let tail = match form {
        Form::Dpp => " quad_perm:[0,1,2,3]".to_string(),
        Form::Dpp8 => " dpp8:[0,1,2,3,4,5,6,7]".to_string(),
        _ => String::new(),
    };
    Some(Base {
        mnemonic,
        dsts,
        srcs,
        widths,
        tail,
    })
}

/// (flag, line) variants of a form's base line.
fn variants(info: &OpInfo, form: Form, b: &Base) -> Vec<(String, String)> {
    let mut v = Vec::new();
    let n = b.srcs.len();
    let list = |k: usize, x: &str| format!("[{}]", vec![x; k].join(","));
    match form {
        Form::E64 => {
            v.push(("clamp".into(), b.line(&b.srcs, " clamp")));
            v.push(("omod".into(), b.line(&b.srcs, " mul:2")));
            if info.family == Family::VOP3P {
                v.push((
                    "opsel".into(),
                    b.line(&b.srcs, &format!(" op_sel:{}", list(n, "0"))),
                ));
                v.push((
                    "opselhi".into(),
                    b.line(&b.srcs, &format!(" op_sel_hi:{}", list(n, "0"))),
                ));
                v.push((
                    "neglo".into(),
                    b.line(&b.srcs, &format!(" neg_lo:{}", list(n, "0"))),
                ));
                v.push((
                    "neghi".into(),
                    b.line(&b.srcs, &format!(" neg_hi:{}", list(n, "0"))),
                ));
            } else {
                v.push((
                    "opsel".into(),
                    b.line(&b.srcs, &format!(" op_sel:{}", list(n + 1, "0"))),
                ));
            }
        }
        Form::Sdwa if info.family != Family::VOPC => {
            v.push(("clamp".into(), b.line(&b.srcs, " clamp")));
            v.push(("omod".into(), b.line(&b.srcs, " mul:2")));
        }
        _ => {}
    }
    for i in 0..n {
        if row_srcs(info)[i].kind != OperandKind::Src {
            continue;
        }
        let w = b.widths[i];
        let mut kinds = vec![
            ("v", reg("v", 30, w)),
            ("s", reg("s", 30, w)),
            ("i", "1".to_string()),
            ("l", "0x1234".to_string()),
        ];
        let t = &b.srcs[i];
        kinds.push(("n", format!("-{t}")));
        kinds.push(("a", format!("|{t}|")));
        if form == Form::Sdwa {
            kinds.push(("x", format!("sext({t})")));
        }
        for (k, tok) in kinds {
            let mut s = b.srcs.clone();
            s[i] = tok;
            v.push((format!("{i}={k}"), b.line(&s, "")));
        }
    }
    v
}

fn probe() -> String {
    let rows: Vec<&OpInfo> = table()
        .rows
        .iter()
        .copied()
        .filter(|r| r.family.is_valu() && r.source == rdnaprobe_isa::Source::Llvm)
        .collect();
    let forms = [Form::E32, Form::E64, Form::Sdwa, Form::Dpp, Form::Dpp8];
    let mut bases = Vec::new();
    for r in &rows {
        for f in forms {
            if let Some(b) = base(r, f) {
                bases.push((*r, f, b));
            }
        }
    }
    let lines: Vec<String> = bases.iter().map(|(_, _, b)| b.line(&b.srcs, "")).collect();
    let ok = asm_llvm::assemble(&lines, false);
    let mut jobs = Vec::new();
    let mut vlines = Vec::new();
    for ((r, f, b), o) in bases.iter().zip(&ok) {
        if o.is_err() {
            continue;
        }
        let vs = variants(r, *f, b);
        jobs.push((r.mnemonic, *f, vs.len()));
        vlines.extend(vs.iter().map(|(_, l)| l.clone()));
        vlines.extend(vs.into_iter().map(|(flag, _)| flag));
    }
    // Lines and flags were interleaved per job: split them again.
    let mut lines2 = Vec::new();
    let mut flags = Vec::new();
    let mut at = 0;
    for (_, _, n) in &jobs {
        lines2.extend_from_slice(&vlines[at..at + n]);
        flags.extend_from_slice(&vlines[at + n..at + 2 * n]);
        at += 2 * n;
    }
    let res = asm_llvm::assemble(&lines2, false);
    let mut out = String::from(
        "# Generated by `BLESS=1 cargo test -p rdnaprobe-isa --test asm_caps` from llvm-mc-19 \
         -mcpu=gfx1030 (wave32); do not edit.\n\
         # mnemonic form[:flags] ...: the encodings llvm-mc-19 assembles for the row, and per form\n\
         # the modifiers it takes (clamp omod opsel opselhi neglo neghi) and, per source N, N=letters:\n\
         # v VGPR, s SGPR, i inline constant, l literal, n neg, a abs, x sext.\n",
    );
    let mut at = 0;
    let mut cur: Option<&str> = None;
    for (mn, f, n) in &jobs {
        if cur != Some(mn) {
            if cur.is_some() {
                out.push('\n');
            }
            out.push_str(mn);
            cur = Some(mn);
        }
        let mut fl: Vec<String> = Vec::new();
        let mut per_src: Vec<(String, String)> = Vec::new();
        for k in at..at + n {
            if res[k].is_err() {
                continue;
            }
            match flags[k].split_once('=') {
                Some((i, l)) => match per_src.iter_mut().find(|(j, _)| j == i) {
                    Some((_, s)) => s.push_str(l),
                    None => per_src.push((i.to_string(), l.to_string())),
                },
                None => fl.push(flags[k].clone()),
            }
        }
        at += n;
        fl.extend(per_src.into_iter().map(|(i, l)| format!("{i}={l}")));
        out.push(' ');
        out.push_str(f.name());
        if !fl.is_empty() {
            out.push(':');
            out.push_str(&fl.join(","));
        }
    }
    out.push('\n');
    out
}

#[test]
fn asm_caps_match_llvm_mc() {
    if !asm_llvm::or_skip() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/table/gfx10-asm.txt");
    let text = probe();
    if std::env::var("BLESS").is_ok() {
        std::fs::write(&path, &text).expect("write caps");
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        old == text,
        "{} is stale: BLESS=1 cargo test -p rdnaprobe-isa --test asm_caps\n{}",
        path.display(),
        line_diff::line_diff(&old, &text, 80)
    );
}
