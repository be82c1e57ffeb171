//! Source operands: registers, inline constants and literals, with their neg/abs/sext wrappers.

use super::*;

pub(super) struct Src {
    pub(super) op: Operand,
    pub(super) neg: bool,
    pub(super) abs: bool,
    pub(super) sext: bool,
    pub(super) col: usize,
}

pub(super) fn parse_reg(t: &str) -> Option<Reg> {
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

pub(super) fn parse_int(t: &str) -> Option<i64> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t),
    };
    if body.starts_with(['-', '+']) {
        return None;
    }
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

pub(super) const FLOATS: [(&str, u16); 10] = [
    ("0.5", 240),
    ("-0.5", 241),
    ("1.0", 242),
    ("-1.0", 243),
    ("2.0", 244),
    ("-2.0", 245),
    ("4.0", 246),
    ("-4.0", 247),
    ("0.15915494", 248),
    // 1/(2*pi) as llvm-mc-19 prints it for a 64-bit operand (it takes it for any width).
    ("0.15915494309189532", 248),
];

/// A constant operand: inline integer, inline float, or literal in the operand's type.
pub(super) fn constant(t: &str, ty: ValueType) -> Option<Operand> {
    // The short spelling of 1/(2*pi) is not the f64 inline value; llvm-mc-19 rejects it there.
    if t == "0.15915494" && ty.bits() == 64 {
        return None;
    }
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
        // A negative literal of a 16-bit operand is its 16-bit two's complement.
        if v < 0 && ty.bits() == 16 && v >= -32768 {
            return Some(Operand::Literal(u32::from(v as i16 as u16)));
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
pub(super) fn f16_bits(x: f32) -> u16 {
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

pub(super) fn parse_src(tok: &str, col: usize, ty: ValueType) -> Res<Src> {
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
        // `-` before a register, `|x|` or `sext(x)` is neg; before a number it is the sign.
        if r.starts_with('|') || r.starts_with(|c: char| c.is_ascii_alphabetic()) {
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
