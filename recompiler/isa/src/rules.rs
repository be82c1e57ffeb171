//! Operand shapes and value types of table rows, derived by rules: operand counts and register
//! widths from the llvm-mc probe text of the row (a fact of the generated table), value types from
//! the mnemonic's suffixes (`_f16`, `_u32`, `cvt_<dst>_<src>`, `pk_`, `cmp` -> lane mask ...),
//! with a small override list for the irregular ones.

use crate::table::{flags, Family, OperandKind, OperandSpec, ValueType};

pub(crate) struct Shape {
    pub dsts: Vec<OperandSpec>,
    pub srcs: Vec<OperandSpec>,
    pub flags: u32,
}

/// Operand tokens of an llvm-mc text line: the first word of each comma-separated operand
/// after the mnemonic, with `/* ... */` comments removed. Commas inside parentheses and
/// brackets belong to one operand or modifier (`hwreg(52, 8, 3)`, `op_sel_hi:[0,0,0]`).
pub(crate) fn probe_operands(text: &str) -> Vec<String> {
    let mut clean = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        clean.push_str(&rest[..i]);
        match rest[i..].find("*/") {
            Some(j) => rest = &rest[i + j + 2..],
            None => rest = "",
        }
    }
    clean.push_str(rest);
    let Some((_, ops)) = clean.trim().split_once(char::is_whitespace) else {
        return Vec::new();
    };
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in ops.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&ops[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&ops[start..]);
    parts
        .into_iter()
        .filter_map(|o| o.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Register width in dwords of an llvm-mc operand token (`v[2:3]` -> 2, `s4` -> 1).
pub(crate) fn token_dwords(tok: &str) -> u8 {
    if let Some(i) = tok.find('[') {
        let inner = tok[i + 1..].trim_end_matches(']');
        if let Some((a, b)) = inner.split_once(':') {
            if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                return (b.saturating_sub(a) + 1).min(255) as u8;
            }
        }
    }
    1
}

fn type_token(t: &str) -> Option<ValueType> {
    Some(match t {
        "f16" => ValueType::F16,
        "f32" => ValueType::F32,
        "f64" => ValueType::F64,
        "b16" => ValueType::B16,
        "b32" => ValueType::B32,
        "b64" => ValueType::B64,
        "i16" => ValueType::I16,
        "u16" => ValueType::U16,
        "i32" | "i24" | "i8" | "i4" => ValueType::I32,
        "u32" | "u24" | "u8" | "u4" => ValueType::U32,
        "i64" => ValueType::I64,
        "u64" => ValueType::U64,
        _ => return None,
    })
}

fn widen(ty: ValueType, dwords: u8) -> ValueType {
    match (dwords, ty) {
        (2, ValueType::U32 | ValueType::U16) => ValueType::U64,
        (2, ValueType::I32 | ValueType::I16) => ValueType::I64,
        (2, ValueType::B32 | ValueType::B16) => ValueType::B64,
        (2, ValueType::F32) => ValueType::F64,
        (1, ValueType::U64) => ValueType::U32,
        (1, ValueType::I64) => ValueType::I32,
        (1, ValueType::B64) => ValueType::B32,
        (1, ValueType::F64) => ValueType::F32,
        (d, _) if d > 2 => ValueType::Untyped,
        _ => ty,
    }
}

/// Value types of a VALU/SALU mnemonic: (destination type, source types for `nsrc` sources).
fn value_types(m: &str, nsrc: usize) -> (ValueType, Vec<ValueType>) {
    use ValueType::*;
    let toks: Vec<&str> = m.split('_').collect();
    let tys: Vec<ValueType> = toks.iter().filter_map(|t| type_token(t)).collect();
    let last = tys.last().copied().unwrap_or(B32);
    let has = |t: &str| toks.contains(&t);
    let mut dst = last;
    let mut src = vec![last; nsrc];
    let packed_of = |t: ValueType| match t {
        F16 => PackedF16,
        I16 => PackedI16,
        U16 | B16 => PackedU16,
        other => other,
    };
    if has("cvt") {
        dst = tys.first().copied().unwrap_or(F32);
        let s = if tys.len() >= 2 { tys[1] } else { U32 };
        src = vec![s; nsrc];
        if has("pkrtz") || has("pknorm") || (has("pk") && !m.contains("pk_u8")) {
            dst = packed_of(dst);
        }
        if m.contains("pk_u8_f32") {
            dst = U32;
            src = vec![F32, U32, U32];
        }
    } else if has("frexp") && has("exp") {
        dst = tys.first().copied().unwrap_or(I32);
        src = vec![tys.get(1).copied().unwrap_or(F32); nsrc];
    } else if m.starts_with("v_cmp") {
        dst = LaneMask;
        if has("class") {
            src = vec![last, U32];
        }
    } else if has("dot2")
        || has("dot4")
        || has("dot8")
        || has("dot2c")
        || has("dot4c")
        || has("dot8c")
    {
        dst = tys.first().copied().unwrap_or(I32);
        let s = tys.get(1).copied().unwrap_or(B32);
        let s = if has("dot2") || has("dot2c") {
            packed_of(s)
        } else {
            B32
        };
        src = vec![s, s, dst];
    } else if has("sat") && has("pk") {
        // v_sat_pk_u8_i16: two i16 in, two u8 out in the low half.
        dst = U16;
        src = vec![PackedI16; nsrc];
    } else if m.starts_with("v_pk_") {
        dst = packed_of(last);
        src = vec![dst; nsrc];
    } else if m.starts_with("v_fma_mix") {
        dst = if has("mixlo") || has("mixhi") {
            F16
        } else {
            F32
        };
        src = vec![F32; nsrc];
    } else if m.starts_with("v_interp_p1l") {
        // v_interp_p1ll_f16 / v_interp_p1lv_f16: P10 * I + P0 from f16 attributes, an f32
        // result (RDNA2 ISA, VINTRP/VOP3 interpolation; datasets/rdna2-interp).
        dst = F32;
    } else if has("pack") {
        dst = PackedF16;
        src = vec![F16; nsrc];
    } else if has("mad") && tys.len() >= 2 {
        // v_mad_u64_u32, v_mad_i64_i32, v_mad_u32_u24 ...
        dst = tys[0];
        src = vec![tys[1], tys[1], tys[0]];
    } else if tys.len() >= 2 && m.starts_with("s_") {
        // s_bcnt1_i32_b64, s_ff1_i32_b64, s_flbit_i32_b64 ...
        dst = tys[0];
        src = vec![tys[1]; nsrc];
    } else if has("sad") {
        // v_sad_u8/hi_u8/u16/u32 read and write whole dwords (u16 and u8 use the low bits of
        // 32-bit sources: inline constants are 32-bit, there is no op_sel) and accumulate
        // into a 32-bit result.
        dst = U32;
        src = vec![U32; nsrc];
    } else if tys.len() >= 2 && (has("bcnt") || has("mbcnt")) {
        dst = U32;
        src = vec![U32; nsrc];
    }
    // Second-source overrides: exponent, shift amounts, selectors.
    if nsrc >= 2 {
        if has("ldexp") {
            src[1] = if last == F16 { I16 } else { I32 };
        }
        if has("trig") || has("readlane") || has("writelane") {
            src[1] = U32;
        }
        if m.starts_with("s_")
            && (has("lshl") || has("lshr") || has("ashr") || has("bfe"))
            && last.bits() == 64
        {
            src[1] = U32;
        }
    }
    if m.starts_with("v_")
        && (has("lshlrev") || has("lshrrev") || has("ashrrev"))
        && last.bits() == 64
        && nsrc >= 2
    {
        src[0] = U32;
    }
    if has("cndmask") && nsrc == 3 {
        src[2] = LaneMask;
    }
    if (has("co") && has("ci")) && nsrc == 3 {
        src[2] = LaneMask;
    }
    src.truncate(nsrc);
    while src.len() < nsrc {
        src.push(last);
    }
    (dst, src)
}

const VOP3B_PREFIXES: [&str; 9] = [
    "v_div_scale_",
    "v_add_co_u32",
    "v_sub_co_u32",
    "v_subrev_co_u32",
    "v_add_co_ci_u32",
    "v_sub_co_ci_u32",
    "v_subrev_co_ci_u32",
    "v_mad_u64_u32",
    "v_mad_i64_i32",
];

fn spec(kind: OperandKind, ty: ValueType, tok: Option<&String>) -> OperandSpec {
    let dwords = tok.map(|t| token_dwords(t)).unwrap_or(1);
    OperandSpec {
        kind,
        ty: if kind == OperandKind::LaneMask || kind == OperandKind::Mem {
            ty
        } else {
            widen(ty, dwords)
        },
        dwords,
    }
}

/// The shape of one row. `text` is the llvm-mc text of its fullest form (VOP3 for promoted rows).
pub(crate) fn shape(family: Family, m: &'static str, text: &str, promoted: bool) -> Shape {
    let ops = probe_operands(text);
    let mut fl = 0;
    match family {
        Family::VOP1 | Family::VOP2 | Family::VOPC | Family::VOP3 | Family::VOP3P => {
            let cmpx = m.starts_with("v_cmpx");
            let vop3b = VOP3B_PREFIXES.iter().any(|p| m.starts_with(p));
            if cmpx {
                fl |= flags::CMPX;
            }
            if vop3b {
                fl |= flags::VOP3B;
            }
            if m.starts_with("v_interp") {
                fl |= flags::INTERP;
            }
            if m == "v_cndmask_b32" || m.contains("_co_ci_") {
                fl |= flags::READS_VCC;
            }
            if m.starts_with("v_cmp") && !cmpx || m.contains("_co_") {
                fl |= flags::WRITES_VCC;
            }
            if m.contains("fmamk")
                || m.contains("fmaak")
                || m.contains("madmk")
                || m.contains("madak")
            {
                fl |= flags::LITERAL_OPERAND;
            }
            let ndst = if ops.is_empty() || (cmpx && family == Family::VOPC) {
                0
            } else if vop3b {
                2
            } else {
                1
            };
            // Promoted VOPC/VOP2 e64 text lists every operand; the VOP2 e32-only text of
            // fmamk/fmaak lists the literal as an operand.
            let src_toks: Vec<&String> = ops.iter().skip(ndst).collect();
            let nsrc = src_toks.len();
            let _ = promoted;
            let (dty, stys) = value_types(m, nsrc);
            let mut dsts = Vec::new();
            if ndst >= 1 {
                let kind = if m.starts_with("v_cmp") {
                    OperandKind::LaneMask
                } else if ops[0].starts_with('s') {
                    OperandKind::Sgpr
                } else {
                    OperandKind::Vgpr
                };
                dsts.push(spec(kind, dty, ops.first()));
            }
            if ndst == 2 {
                dsts.push(OperandSpec {
                    kind: OperandKind::LaneMask,
                    ty: ValueType::LaneMask,
                    dwords: 1,
                });
            }
            let mut srcs = Vec::new();
            for (i, t) in src_toks.iter().enumerate() {
                let ty = stys.get(i).copied().unwrap_or(ValueType::B32);
                let kind = if ty == ValueType::LaneMask {
                    OperandKind::LaneMask
                } else if t.starts_with("0x") {
                    OperandKind::Imm
                } else if t.starts_with("attr") {
                    OperandKind::Mem
                } else {
                    OperandKind::Src
                };
                srcs.push(spec(kind, ty, Some(t)));
            }
            let res = dsts.first().map(|d| d.ty).unwrap_or(ValueType::Untyped);
            if matches!(
                res,
                ValueType::F16 | ValueType::I16 | ValueType::U16 | ValueType::B16
            ) && family != Family::VOP3P
            {
                fl |= flags::KEEPS_HIGH;
            }
            Shape {
                dsts,
                srcs,
                flags: fl,
            }
        }
        Family::SOP2 | Family::SOP1 | Family::SOPC | Family::SOPK | Family::SOPP => {
            // Probe fields: sdst = s4, ssrc0 = s2 (SOPC: s2, s0).
            let ndst = match family {
                Family::SOP2 => 1,
                Family::SOP1 => usize::from(
                    ops.first()
                        .is_some_and(|t| t == "s4" || t.starts_with("s[4:")),
                ),
                Family::SOPK => usize::from(
                    ops.first().is_some_and(|t| t.starts_with('s'))
                        && !m.starts_with("s_cmpk")
                        && !m.starts_with("s_setreg"),
                ),
                _ => 0,
            };
            let nsrc = ops.len().saturating_sub(ndst);
            let (dty, stys) = value_types(m, nsrc);
            let dsts = ops
                .iter()
                .take(ndst)
                .map(|t| spec(OperandKind::Sgpr, dty, Some(t)))
                .collect();
            let srcs = ops
                .iter()
                .skip(ndst)
                .enumerate()
                .map(|(i, t)| {
                    let kind = if family == Family::SOPK || family == Family::SOPP {
                        if t.starts_with('s') {
                            OperandKind::Sgpr
                        } else {
                            OperandKind::Imm
                        }
                    } else {
                        OperandKind::Src
                    };
                    spec(
                        kind,
                        stys.get(i).copied().unwrap_or(ValueType::B32),
                        Some(t),
                    )
                })
                .collect();
            Shape {
                dsts,
                srcs,
                flags: fl,
            }
        }
        _ => {
            // Memory, interpolation and export: operands as llvm-mc prints them, untyped; the
            // first one is the data/destination register list.
            let srcs = ops
                .iter()
                .map(|t| spec(OperandKind::Mem, ValueType::Untyped, Some(t)))
                .collect();
            Shape {
                dsts: Vec::new(),
                srcs,
                flags: fl,
            }
        }
    }
}
