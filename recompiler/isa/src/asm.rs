//! Assembler: LLVM-syntax text to words, for the VALU (VOP1, VOP2, VOPC, VOP3, VOP3P, SDWA,
//! DPP16, DPP8) and SALU (SOP1, SOP2, SOPC, SOPK, SOPP) forms with their modifiers. Fields are
//! packed with the decoder's layouts, and every result is decoded again before it is returned.

use crate::decode::{decode_one, Decoded};
use crate::layout::{self, Field, Fields, Slot};
use crate::operand::{self, Operand, Reg, RegKind};
use crate::table::{self, flags, Family, OpInfo, OperandKind, ValueType};

/// An assembly error with its position (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Assemble one or more instructions separated by `;` or newlines.
pub fn assemble(text: &str) -> Result<Vec<u32>, AsmError> {
    let mut words = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let mut col = 1;
        for stmt in line.split(';') {
            let lead = stmt.len() - stmt.trim_start().len();
            let s = stmt.trim();
            if !s.is_empty() {
                let w = assemble_one(s).map_err(|(c, message)| AsmError {
                    line: ln + 1,
                    column: col + lead + c,
                    message,
                })?;
                words.extend(w);
            }
            col += stmt.len() + 1;
        }
    }
    Ok(words)
}

type Res<T> = Result<T, (usize, String)>;

struct Src {
    op: Operand,
    neg: bool,
    abs: bool,
    sext: bool,
    col: usize,
}

fn parse_reg(t: &str) -> Option<Reg> {
    let named = |kind, index, count| Some(Reg { kind, index, count });
    match t {
        "vcc_lo" => return named(RegKind::Vcc, 0, 1),
        "vcc_hi" => return named(RegKind::Vcc, 1, 1),
        "vcc" => return named(RegKind::Vcc, 0, 2),
        "exec_lo" => return named(RegKind::Exec, 0, 1),
        "exec_hi" => return named(RegKind::Exec, 1, 1),
        "exec" => return named(RegKind::Exec, 0, 2),
        "m0" => return named(RegKind::M0, 0, 1),
        "null" => return named(RegKind::Null, 0, 1),
        _ => {}
    }
    let (kind, rest) = if let Some(r) = t.strip_prefix("ttmp") {
        (RegKind::Ttmp, r)
    } else if let Some(r) = t.strip_prefix('v') {
        (RegKind::Vgpr, r)
    } else if let Some(r) = t.strip_prefix('s') {
        (RegKind::Sgpr, r)
    } else {
        return None;
    };
    if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = inner.split_once(':')?;
        let (a, b) = (a.trim().parse::<u16>().ok()?, b.trim().parse::<u16>().ok()?);
        if b < a || b - a >= 16 {
            return None;
        }
        return Some(Reg {
            kind,
            index: a,
            count: (b - a + 1) as u8,
        });
    }
    Some(Reg {
        kind,
        index: rest.parse().ok()?,
        count: 1,
    })
}

fn parse_int(t: &str) -> Option<i64> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

const FLOATS: [(&str, u16); 9] = [
    ("0.5", 240),
    ("-0.5", 241),
    ("1.0", 242),
    ("-1.0", 243),
    ("2.0", 244),
    ("-2.0", 245),
    ("4.0", 246),
    ("-4.0", 247),
    ("0.15915494", 248),
];

/// A constant operand: inline integer, inline float, or literal in the operand's type.
fn constant(t: &str, ty: ValueType) -> Option<Operand> {
    if let Some(&(_, code)) = FLOATS.iter().find(|(s, _)| *s == t) {
        return Some(Operand::InlineFloat {
            code,
            bits: operand::inline_float_bits(code, ty.bits()).unwrap_or(0),
        });
    }
    if let Some(v) = parse_int(t) {
        if (-16..=64).contains(&v) {
            return Some(Operand::InlineInt(v as i8));
        }
        if v < i64::from(i32::MIN) || v > i64::from(u32::MAX) {
            return None;
        }
        return Some(Operand::Literal(v as u32));
    }
    let f: f64 = t.parse().ok()?;
    Some(Operand::Literal(match ty {
        ValueType::F16 | ValueType::PackedF16 => u32::from(f16_bits(f as f32)),
        ValueType::F64 => ((f.to_bits()) >> 32) as u32,
        _ => (f as f32).to_bits(),
    }))
}

/// f32 -> f16 bits, round to nearest even (finite values and infinities).
fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1 << (shift - 1);
        let mut r = m >> shift;
        let rem = m & ((1 << shift) - 1);
        if rem > half || (rem == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

fn parse_src(tok: &str, col: usize, ty: ValueType) -> Res<Src> {
    let mut t = tok.trim();
    let mut s = Src {
        op: Operand::InlineInt(0),
        neg: false,
        abs: false,
        sext: false,
        col,
    };
    if let Some(r) = t.strip_prefix("neg(").and_then(|r| r.strip_suffix(')')) {
        s.neg = true;
        t = r;
    } else if let Some(r) = t.strip_prefix('-') {
        if r.starts_with('|')
            || r.starts_with('v')
            || r.starts_with('s')
            || r.starts_with("ttmp")
            || r.starts_with("sext")
        {
            s.neg = true;
            t = r;
        }
    }
    if let Some(r) = t.strip_prefix("sext(").and_then(|r| r.strip_suffix(')')) {
        s.sext = true;
        t = r;
    }
    if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        s.abs = true;
        t = r;
    }
    if let Some(r) = parse_reg(t) {
        s.op = Operand::Reg(r);
        return Ok(s);
    }
    let special = [
        "src_shared_base",
        "src_shared_limit",
        "src_private_base",
        "src_private_limit",
        "src_pops_exiting_wave_id",
    ];
    if let Some(i) = special.iter().position(|x| *x == t) {
        s.op = operand::decode_src(235 + i as u16, ty, 1, None);
        return Ok(s);
    }
    match t {
        "src_vccz" | "vccz" => s.op = operand::decode_src(251, ty, 1, None),
        "src_execz" | "execz" => s.op = operand::decode_src(252, ty, 1, None),
        "src_scc" | "scc" => s.op = operand::decode_src(253, ty, 1, None),
        "src_lds_direct" | "lds_direct" => s.op = operand::decode_src(254, ty, 1, None),
        _ => match constant(t, ty) {
            Some(op) => s.op = op,
            None => return Err((col, format!("cannot read operand `{tok}`"))),
        },
    }
    Ok(s)
}

fn bit_list(v: &str) -> Option<u32> {
    let inner = v.strip_prefix('[')?.strip_suffix(']')?;
    let mut out = 0;
    for (i, b) in inner.split(',').enumerate() {
        match b.trim() {
            "0" => {}
            "1" => out |= 1 << i,
            _ => return None,
        }
    }
    Some(out)
}

fn sel(v: &str) -> Option<u32> {
    [
        "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
    ]
    .iter()
    .position(|x| *x == v)
    .map(|i| i as u32)
}

#[derive(Default)]
struct Mods {
    clamp: bool,
    omod: u32,
    op_sel: Option<u32>,
    op_sel_hi: Option<u32>,
    neg_lo: u32,
    neg_hi: u32,
    dst_sel: Option<u32>,
    dst_unused: Option<u32>,
    src0_sel: Option<u32>,
    src1_sel: Option<u32>,
    dpp_ctrl: Option<u32>,
    row_mask: Option<u32>,
    bank_mask: Option<u32>,
    bound_ctrl: bool,
    fi: bool,
    dpp8: Option<u32>,
}

fn parse_mod(m: &mut Mods, t: &str, col: usize) -> Res<()> {
    let bad = || (col, format!("cannot read modifier `{t}`"));
    let (k, v) = t.split_once(':').unwrap_or((t, ""));
    let num = |v: &str| parse_int(v).map(|x| x as u32).ok_or_else(bad);
    match k {
        "clamp" => m.clamp = true,
        "mul" if v == "2" => m.omod = 1,
        "mul" if v == "4" => m.omod = 2,
        "div" if v == "2" => m.omod = 3,
        "op_sel" => m.op_sel = Some(bit_list(v).ok_or_else(bad)?),
        "op_sel_hi" => m.op_sel_hi = Some(bit_list(v).ok_or_else(bad)?),
        "neg_lo" => m.neg_lo = bit_list(v).ok_or_else(bad)?,
        "neg_hi" => m.neg_hi = bit_list(v).ok_or_else(bad)?,
        "dst_sel" => m.dst_sel = Some(sel(v).ok_or_else(bad)?),
        "src0_sel" => m.src0_sel = Some(sel(v).ok_or_else(bad)?),
        "src1_sel" => m.src1_sel = Some(sel(v).ok_or_else(bad)?),
        "dst_unused" => {
            m.dst_unused = Some(
                ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"]
                    .iter()
                    .position(|x| *x == v)
                    .ok_or_else(bad)? as u32,
            )
        }
        "quad_perm" => {
            let inner = v
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(bad)?;
            let mut c = 0;
            for (i, x) in inner.split(',').enumerate() {
                let x = num(x.trim())?;
                if x > 3 || i > 3 {
                    return Err(bad());
                }
                c |= x << (2 * i);
            }
            m.dpp_ctrl = Some(c);
        }
        "row_shl" | "row_shr" | "row_ror" | "row_share" | "row_xmask" => {
            let x = num(v)?;
            let base = match k {
                "row_shl" => 0x100,
                "row_shr" => 0x110,
                "row_ror" => 0x120,
                "row_share" => 0x150,
                _ => 0x160,
            };
            if x > 15 || (x == 0 && base < 0x150) {
                return Err(bad());
            }
            m.dpp_ctrl = Some(base + x);
        }
        "row_mirror" => m.dpp_ctrl = Some(0x140),
        "row_half_mirror" => m.dpp_ctrl = Some(0x141),
        "row_mask" => m.row_mask = Some(num(v)? & 0xf),
        "bank_mask" => m.bank_mask = Some(num(v)? & 0xf),
        "bound_ctrl" => m.bound_ctrl = true,
        "fi" => m.fi = num(v)? != 0,
        "dpp8" => {
            let inner = v
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(bad)?;
            let mut s = 0;
            for (i, x) in inner.split(',').enumerate() {
                let x = num(x.trim())?;
                if x > 7 || i > 7 {
                    return Err(bad());
                }
                s |= x << (3 * i);
            }
            m.dpp8 = Some(s);
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// Split `a, b, c mod mod:x` into operand tokens (with columns) and modifier tokens.
/// Operand or modifier tokens with their byte offsets.
type Tokens = Vec<(String, usize)>;

fn split_operands(rest: &str, base: usize) -> (Tokens, Tokens) {
    let mut ops = Vec::new();
    let mut mods = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    let mut start = base;
    let mut items = Vec::new();
    for (i, ch) in rest.char_indices() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 && (ch == ',' || ch == ' ') {
            if !cur.is_empty() {
                items.push((cur.clone(), start, ch == ','));
                cur.clear();
            } else if ch == ',' {
                if let Some(last) = items.last_mut() {
                    last.2 = true;
                }
            }
            continue;
        }
        if cur.is_empty() {
            start = base + i;
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        items.push((cur, start, false));
    }
    // Operands run until the first item not preceded by a comma after the first operand.
    let mut in_ops = true;
    let mut prev_comma = true;
    for (t, c, comma) in items {
        if in_ops && !prev_comma {
            in_ops = false;
        }
        if in_ops {
            ops.push((t, c));
        } else {
            mods.push((t, c));
        }
        prev_comma = comma;
    }
    (ops, mods)
}

fn assemble_one(s: &str) -> Res<Vec<u32>> {
    let (mn, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    let rest_col = mn.len() + (s.len() - mn.len() - rest.len());
    let mut base = mn;
    let mut forced = None;
    for suf in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(b) = mn.strip_suffix(suf) {
            base = b;
            forced = Some(suf);
        }
    }
    let rows = table::lookup_name(base);
    let info = *rows
        .first()
        .ok_or((0, format!("unknown mnemonic `{mn}`")))?;
    let (ops, mods_t) = split_operands(rest, rest_col);
    let mut mods = Mods::default();
    for (t, c) in &mods_t {
        parse_mod(&mut mods, t, *c)?;
    }
    match info.family {
        Family::SOP1 | Family::SOP2 | Family::SOPC | Family::SOPK | Family::SOPP => {
            salu(info, &ops)
        }
        Family::VOP1 | Family::VOP2 | Family::VOPC | Family::VOP3 | Family::VOP3P => {
            valu(info, forced, &ops, &mods)
        }
        f => Err((
            0,
            format!("the assembler handles VALU and SALU forms; `{mn}` is {f}"),
        )),
    }
}

fn finish(
    layouts: &[&[Slot]],
    fields: &Fields,
    nwords: usize,
    literal: Option<u32>,
    col: usize,
) -> Res<Vec<u32>> {
    let mut words = vec![0u32; nwords];
    for l in layouts {
        fields.pack(l, &mut words);
    }
    if let Some(l) = literal {
        words.push(l);
    }
    match decode_one(&words, 0) {
        Ok(Decoded::Inst(i)) if i.len() == words.len() => Ok(words),
        Ok(Decoded::Inst(i)) => Err((
            col,
            format!(
                "encoded {} words but they decode as {} words",
                words.len(),
                i.len()
            ),
        )),
        Ok(Decoded::Unsupported(u)) => Err((col, u.to_string())),
        Err(e) => Err((col, e.to_string())),
    }
}

struct Lit(Option<u32>);

impl Lit {
    fn code(&mut self, op: &Operand, col: usize) -> Res<u32> {
        if let Operand::Literal(v) = op {
            match self.0 {
                Some(x) if x != *v => {
                    return Err((col, "only one literal constant per instruction".into()))
                }
                _ => self.0 = Some(*v),
            }
        }
        Ok(u32::from(operand::encode_src(op)))
    }
}

fn salu(info: &'static OpInfo, ops: &[(String, usize)]) -> Res<Vec<u32>> {
    let mut f = Fields::default();
    let mut lit = Lit(None);
    let nd = info.dsts.len();
    let want = nd + info.srcs.len();
    if ops.len() != want {
        return Err((
            ops.first().map(|o| o.1).unwrap_or(0),
            format!("{} takes {want} operands, got {}", info.mnemonic, ops.len()),
        ));
    }
    if nd == 1 {
        let (t, c) = &ops[0];
        let r = parse_reg(t)
            .filter(|r| r.kind != RegKind::Vgpr)
            .ok_or((*c, format!("`{t}` is not a scalar register")))?;
        f.set(
            Field::Sdst,
            u32::from(operand::encode_src(&Operand::Reg(r))),
        );
    }
    let (layout, enc): (&[Slot], u32) = match info.family {
        Family::SOP1 => (layout::SOP1, 0x17d),
        Family::SOP2 => (layout::SOP2, 2),
        Family::SOPC => (layout::SOPC, 0x17e),
        Family::SOPK => (layout::SOPK, 0xb),
        _ => (layout::SOPP, 0x17f),
    };
    f.set(Field::Enc, enc);
    f.set(Field::Op, u32::from(info.opcode));
    for (i, (t, c)) in ops.iter().skip(nd).enumerate() {
        let spec = info.srcs[i];
        if matches!(info.family, Family::SOPK | Family::SOPP) {
            if spec.kind == OperandKind::Sgpr {
                let r = parse_reg(t).ok_or((*c, format!("`{t}` is not a scalar register")))?;
                f.set(
                    Field::Sdst,
                    u32::from(operand::encode_src(&Operand::Reg(r))),
                );
            } else {
                let v = parse_int(t)
                    .filter(|v| (-32768..=65535).contains(v))
                    .ok_or((*c, format!("`{t}` is not a 16-bit immediate")))?;
                f.set(Field::Simm16, (v as u32) & 0xffff);
            }
            continue;
        }
        let s = parse_src(t, *c, spec.ty)?;
        let code = lit.code(&s.op, *c)?;
        if code > 255 {
            return Err((*c, format!("`{t}`: scalar instructions cannot read VGPRs")));
        }
        f.set(if i == 0 { Field::Src0 } else { Field::Src1 }, code);
    }
    finish(&[layout], &f, 1, lit.0, 0)
}

fn valu(
    info: &'static OpInfo,
    forced: Option<&str>,
    ops: &[(String, usize)],
    m: &Mods,
) -> Res<Vec<u32>> {
    let col0 = ops.first().map(|o| o.1).unwrap_or(0);
    let specs = &info.srcs;
    // Destinations as written: VOPC e32 writes vcc implicitly but prints it; cmpx has none.
    let short_forms = matches!(info.family, Family::VOP1 | Family::VOP2 | Family::VOPC);
    let sdwa = forced == Some("_sdwa") || m.dst_sel.is_some() || m.src0_sel.is_some();
    let dpp = forced == Some("_dpp") || m.dpp_ctrl.is_some() || m.dpp8.is_some();
    let nd_written = if info.family == Family::VOPC && info.has(flags::CMPX) {
        0
    } else {
        info.dsts.len()
    };
    if ops.len() < nd_written {
        return Err((
            col0,
            format!("{} needs {nd_written} destination operands", info.mnemonic),
        ));
    }
    let (dst_t, src_t) = ops.split_at(nd_written);
    let mut srcs = Vec::new();
    for (i, (t, c)) in src_t.iter().enumerate() {
        let ty = specs.get(i).map(|s| s.ty).unwrap_or(ValueType::B32);
        srcs.push(parse_src(t, *c, ty)?);
    }
    let dst_regs: Vec<(Reg, usize)> = dst_t
        .iter()
        .map(|(t, c)| {
            parse_reg(t)
                .map(|r| (r, *c))
                .ok_or((*c, format!("`{t}` is not a register")))
        })
        .collect::<Res<_>>()?;
    let is_vgpr = |s: &Src| matches!(s.op, Operand::Reg(r) if r.kind == RegKind::Vgpr);
    let implicit_vcc =
        |s: &Src| matches!(s.op, Operand::Reg(r) if r.kind == RegKind::Vcc && r.index == 0);
    // Can the 32-bit form express it?
    let e32_srcs: usize = specs
        .iter()
        .filter(|s| s.kind != OperandKind::LaneMask)
        .count();
    let e32_ok = short_forms
        && forced != Some("_e64")
        && !m.clamp
        && m.omod == 0
        && m.op_sel.is_none()
        && (info.family != Family::VOP2
            || srcs.len() < 2
            || is_vgpr(&srcs[1])
            || info.has(flags::LITERAL_OPERAND))
        && (info.family != Family::VOPC || srcs.len() < 2 || is_vgpr(&srcs[1]))
        && srcs
            .iter()
            .take(e32_srcs)
            .all(|s| !s.neg && !s.abs && !s.sext)
        && srcs.iter().skip(e32_srcs).all(implicit_vcc)
        && dst_regs
            .iter()
            .skip(if info.family == Family::VOPC { 0 } else { 1 })
            .all(|(r, _)| r.kind == RegKind::Vcc);
    let mut f = Fields::default();
    let mut lit = Lit(None);
    if short_forms && (sdwa || dpp) {
        return short_ext(info, &dst_regs, &srcs, m, sdwa);
    }
    if short_forms && (e32_ok || info.vop3_opcode.is_none()) {
        let (layout, enc): (&[Slot], u32) = match info.family {
            Family::VOP1 => (layout::VOP1, 0x3f),
            Family::VOP2 => (layout::VOP2, 0),
            _ => (layout::VOPC, 0x3e),
        };
        f.set(Field::Enc, enc);
        f.set(Field::Op, u32::from(info.opcode));
        if info.family != Family::VOPC {
            if let Some((r, _)) = dst_regs.first() {
                f.set(Field::Vdst, u32::from(r.index));
            }
        }
        let mut order: Vec<&Src> = srcs
            .iter()
            .take(e32_srcs.max(if info.has(flags::LITERAL_OPERAND) {
                3
            } else {
                0
            }))
            .collect();
        if info.has(flags::LITERAL_OPERAND) {
            // fmamk: src0, K, vsrc1; fmaak: src0, vsrc1, K.
            let k_at = if info.mnemonic.contains("mk") { 1 } else { 2 };
            let k = order
                .get(k_at)
                .ok_or((col0, "missing literal operand".to_string()))?;
            match k.op {
                Operand::Literal(v) => lit.0 = Some(v),
                Operand::InlineInt(v) => lit.0 = Some(v as i32 as u32),
                Operand::InlineFloat { bits, .. } => lit.0 = Some(bits as u32),
                _ => return Err((k.col, "expected a constant".into())),
            }
            order.remove(k_at);
        }
        if let Some(s0) = order.first() {
            f.set(Field::Src0, lit.code(&s0.op, s0.col)?);
        }
        if let Some(s1) = order.get(1) {
            match s1.op {
                Operand::Reg(r) if r.kind == RegKind::Vgpr => {
                    f.set(Field::Vsrc1, u32::from(r.index))
                }
                _ => {
                    return Err((
                        s1.col,
                        "the second source of a 32-bit VOP must be a VGPR".into(),
                    ))
                }
            }
        }
        return finish(&[layout], &f, 1, lit.0, col0);
    }
    // VOP3 / VOP3P.
    let vop3p = info.family == Family::VOP3P;
    f.set(Field::Enc, if vop3p { 0x33 } else { 0x35 });
    f.set(
        Field::Op,
        u32::from(if vop3p {
            info.opcode
        } else {
            info.vop3_opcode.unwrap_or(info.opcode)
        }),
    );
    if let Some((r, _)) = dst_regs.first() {
        f.set(
            Field::Vdst,
            u32::from(operand::encode_src(&Operand::Reg(*r)) & 0xff),
        );
    }
    if info.has(flags::VOP3B) {
        if let Some((r, _)) = dst_regs.get(1) {
            f.set(
                Field::Sdst,
                u32::from(operand::encode_src(&Operand::Reg(*r))),
            );
        }
    }
    let mut neg = 0;
    let mut abs = 0;
    // Unused source fields hold inline 0, as the hardware rows and LLVM's assembler write them.
    f.set(Field::Src1, 128);
    f.set(Field::Src2, 128);
    for (i, s) in srcs.iter().enumerate().take(3) {
        let fl = [Field::Src0, Field::Src1, Field::Src2][i];
        f.set(fl, lit.code(&s.op, s.col)?);
        neg |= u32::from(s.neg) << i;
        abs |= u32::from(s.abs) << i;
    }
    if srcs.len() > 3 {
        return Err((srcs[3].col, "too many operands".into()));
    }
    f.set(Field::Clamp, u32::from(m.clamp));
    let n = specs.len().min(3) as u32;
    if vop3p {
        f.set(Field::NegLo, m.neg_lo | neg);
        f.set(Field::NegHi, m.neg_hi);
        f.set(Field::OpSel, m.op_sel.unwrap_or(0));
        let mix = info.mnemonic.starts_with("v_fma_mix");
        let hi = m.op_sel_hi.unwrap_or(if mix { 0 } else { (1 << n) - 1 });
        f.set(Field::OpSelHi, hi & 3);
        f.set(Field::OpSelHi2, (hi >> 2) & 1);
        return finish(&[layout::VOP3P], &f, 2, lit.0, col0);
    }
    f.set(Field::Neg, neg);
    f.set(Field::Omod, m.omod);
    if !info.has(flags::VOP3B) {
        f.set(Field::Abs, abs);
        // op_sel lists the sources, then the destination.
        let os = m.op_sel.unwrap_or(0);
        f.set(Field::OpSel, (os & ((1 << n) - 1)) | (((os >> n) & 1) << 3));
    }
    finish(
        &[if info.has(flags::VOP3B) {
            layout::VOP3B
        } else {
            layout::VOP3
        }],
        &f,
        2,
        lit.0,
        col0,
    )
}

fn short_ext(
    info: &'static OpInfo,
    dst: &[(Reg, usize)],
    srcs: &[Src],
    m: &Mods,
    sdwa: bool,
) -> Res<Vec<u32>> {
    let mut f = Fields::default();
    let (layout, enc): (&[Slot], u32) = match info.family {
        Family::VOP1 => (layout::VOP1, 0x3f),
        Family::VOP2 => (layout::VOP2, 0),
        _ => (layout::VOPC, 0x3e),
    };
    let col0 = srcs.first().map(|s| s.col).unwrap_or(0);
    f.set(Field::Enc, enc);
    f.set(Field::Op, u32::from(info.opcode));
    if info.family != Family::VOPC {
        if let Some((r, _)) = dst.first() {
            f.set(Field::Vdst, u32::from(r.index));
        }
    }
    let s0 = srcs.first().ok_or((col0, "missing source".to_string()))?;
    let reg_code = |s: &Src| -> Res<(u32, bool)> {
        match s.op {
            Operand::Reg(r) if r.kind == RegKind::Vgpr => Ok((u32::from(r.index), false)),
            Operand::Reg(_)
            | Operand::InlineInt(_)
            | Operand::InlineFloat { .. }
            | Operand::Special(_)
                if sdwa =>
            {
                Ok((u32::from(operand::encode_src(&s.op)), true))
            }
            _ => Err((s.col, "SDWA/DPP sources must be registers".into())),
        }
    };
    let (c0, sg0) = reg_code(s0)?;
    f.set(Field::Src0Neg, u32::from(s0.neg));
    f.set(Field::Src0Abs, u32::from(s0.abs));
    if let Some(s1) = srcs.get(1).filter(|_| info.family != Family::VOP1) {
        let (c1, sg1) = reg_code(s1)?;
        f.set(Field::Vsrc1, c1);
        f.set(Field::S1, u32::from(sg1));
        f.set(Field::Src1Neg, u32::from(s1.neg));
        f.set(Field::Src1Abs, u32::from(s1.abs));
        f.set(Field::Src1Sext, u32::from(s1.sext));
    }
    if sdwa {
        f.set(Field::Src0, u32::from(operand::SDWA));
        f.set(Field::SdwaSrc0, c0);
        f.set(Field::S0, u32::from(sg0));
        f.set(Field::Src0Sext, u32::from(s0.sext));
        f.set(Field::Src0Sel, m.src0_sel.unwrap_or(6));
        f.set(Field::Src1Sel, m.src1_sel.unwrap_or(6));
        let ext = if info.family == Family::VOPC {
            if let Some((r, _)) = dst
                .first()
                .filter(|(r, _)| !(r.kind == RegKind::Vcc && r.index == 0))
            {
                f.set(Field::Sd, 1);
                f.set(
                    Field::SdwaSdst,
                    u32::from(operand::encode_src(&Operand::Reg(*r))),
                );
            }
            layout::SDWA_VOPC
        } else {
            f.set(Field::DstSel, m.dst_sel.unwrap_or(6));
            f.set(Field::DstUnused, m.dst_unused.unwrap_or(0));
            f.set(Field::SdwaClamp, u32::from(m.clamp));
            f.set(Field::SdwaOmod, m.omod);
            layout::SDWA
        };
        return finish(&[layout, ext], &f, 2, None, col0);
    }
    f.set(Field::DppSrc0, c0);
    if let Some(sel) = m.dpp8 {
        f.set(
            Field::Src0,
            u32::from(if m.fi {
                operand::DPP8_FI
            } else {
                operand::DPP8
            }),
        );
        f.set(Field::Dpp8Sel, sel);
        return finish(&[layout, layout::DPP8], &f, 2, None, col0);
    }
    f.set(Field::Src0, u32::from(operand::DPP16));
    f.set(Field::DppCtrl, m.dpp_ctrl.unwrap_or(0xe4));
    f.set(Field::RowMask, m.row_mask.unwrap_or(0xf));
    f.set(Field::BankMask, m.bank_mask.unwrap_or(0xf));
    f.set(Field::BoundCtrl, u32::from(m.bound_ctrl));
    f.set(Field::Fi, u32::from(m.fi));
    finish(&[layout, layout::DPP16], &f, 2, None, col0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asm(s: &str) -> Vec<u32> {
        assemble(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn hardware_rows_assemble_to_their_words() {
        assert_eq!(asm("v_add_f32 v10, v4, v5"), [0x06140b04]);
        assert_eq!(asm("v_mul_f32 v17, -v4, v5"), [0xd5080011, 0x22020b04]);
        assert_eq!(asm("v_mul_f32 v25, |v4|, -v5"), [0xd5080119, 0x42020b04]);
        assert_eq!(asm("v_mov_b32 v10, 0xabcdabcd"), [0x7e1402ff, 0xabcdabcd]);
        assert_eq!(
            asm("v_fma_f32 v12, v4, v5, v6 clamp"),
            [0xd54b800c, 0x041a0b04]
        );
        assert_eq!(
            asm("v_mul_f32_e64 v17, v4, v6 clamp mul:2"),
            [0xd5088011, 0x0a020d04]
        );
        assert_eq!(
            asm("v_fmamk_f32 v14, v4, 0x3f7ffffe, v6"),
            [0x581c0d04, 0x3f7ffffe]
        );
        assert_eq!(
            asm("v_fmaak_f32 v15, v4, v5, 0x80000000"),
            [0x5a1e0b04, 0x80000000]
        );
        assert_eq!(asm("v_cmp_lt_f32 vcc_lo, v4, v5"), [0x7c020b04]);
        assert_eq!(
            asm("v_cndmask_b32_e64 v17, 0, 1, vcc_lo"),
            [0xd5010011, 0x01a90280]
        );
        assert_eq!(
            asm("v_div_scale_f32 v10, s20, v4, v5, v6"),
            [0xd56d140a, 0x041a0b04]
        );
        assert_eq!(
            asm("v_fma_f16 v20, v7, v7, v7 op_sel:[0,1,0,0] clamp"),
            [0xd74b9014, 0x041e0f07]
        );
        assert_eq!(
            asm("v_fma_mix_f32 v12, v4, v5, v6 op_sel:[0,1,0] op_sel_hi:[0,1,0]"),
            [0xcc20100c, 0x141a0b04]
        );
        assert_eq!(
            asm("v_add_f16_sdwa v18, v4, v5 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0"),
            [0x64240af9, 0x04041504]
        );
        assert_eq!(
            asm("s_mov_b32 s1, -1 ; s_add_u32 s0, s1, 0x12345"),
            [0xbe8103c1, 0x8000ff01, 0x12345]
        );
    }

    #[test]
    fn errors_have_columns() {
        let e = assemble("v_add_f32 v10, v4, v5\nv_add_f32 v10, q4, v5").unwrap_err();
        assert_eq!((e.line, e.column), (2, 16));
        let e = assemble("s_nop 0; v_bogus v1").unwrap_err();
        assert_eq!((e.line, e.column), (1, 10));
    }
}
