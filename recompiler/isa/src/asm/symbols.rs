//! Symbolic immediates, read back from the names `crate::symbolic` prints: `s_waitcnt`
//! counters, `s_waitcnt_depctr` fields, `hwreg(...)`, `sendmsg(...)`, the `ds_swizzle_b32`
//! offset and the MTBUF `format:`. Each parser takes the operand text and its column and gives
//! the 16-bit field or an error at the offending item, checked as llvm-mc-19 checks it.

use super::*;
use crate::symbolic::{self as sym, DEPCTR, GS_OPS};

/// `name(value)` items of a counter list, separated by spaces, `&` or `,`, with columns.
fn counter_items(text: &str, col: usize) -> Res<Vec<(String, i64, usize, usize)>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if matches!(b[i], b' ' | b'\t' | b'&' | b',') {
            i += 1;
            continue;
        }
        let start = i;
        let open = text[i..].find('(').map(|o| i + o).ok_or((
            col + start,
            format!("expected a counter name, got `{}`", &text[i..]),
        ))?;
        let close = text[open..]
            .find(')')
            .map(|c| open + c)
            .ok_or((col + open, "expected a closing parenthesis".to_string()))?;
        let name = text[start..open].trim().to_string();
        let v = text[open + 1..close].trim();
        let value = parse_int(v).ok_or((col + open + 1, format!("`{v}` is not an integer")))?;
        out.push((name, value, col + start, col + open + 1));
        i = close + 1;
    }
    if out.is_empty() {
        return Err((col, "expected a counter".into()));
    }
    Ok(out)
}

/// `s_waitcnt`: an integer, or counters (GFX10 vmcnt bits 3:0 and 15:14, expcnt 6:4, lgkmcnt
/// 13:8); unnamed counters stay at their maximum. `_sat` names clamp to the maximum.
pub(super) fn waitcnt(text: &str, col: usize) -> Res<u32> {
    if let Some(v) = parse_int(text.trim()) {
        return imm16(v, col);
    }
    let mut imm = 0xff7f_u32;
    for (name, value, c, _) in counter_items(text, col)? {
        let (base, sat) = match name.strip_suffix("_sat") {
            Some(b) => (b, true),
            None => (name.as_str(), false),
        };
        let max = match base {
            "vmcnt" | "lgkmcnt" => 63,
            "expcnt" => 7,
            _ => return Err((c, format!("invalid counter name {name}"))),
        };
        let v = match value {
            v if (0..=max).contains(&v) => v as u32,
            v if sat && v > max => max as u32,
            _ => return Err((c, format!("too large value for {base}"))),
        };
        imm = match base {
            "vmcnt" => (imm & !0xc00f) | (v & 0xf) | ((v >> 4) << 14),
            "expcnt" => (imm & !0x70) | (v << 4),
            _ => (imm & !0x3f00) | (v << 8),
        };
    }
    Ok(imm)
}

/// A plain 16-bit immediate operand.
pub(super) fn imm16_text(t: &str, col: usize) -> Res<u32> {
    let v = parse_int(t).ok_or((col, format!("`{t}` is not a 16-bit immediate")))?;
    imm16(v, col)
}

/// `s_version`: terms joined by `|` (parentheses allowed), each an integer or a
/// `UC_VERSION_*` name (the names `crate::symbolic::version` prints).
pub(super) fn version(text: &str, col: usize) -> Res<u32> {
    let mut v = 0i64;
    let mut at = col;
    for term in text.split('|') {
        let lead = term.len() - term.trim_start_matches([' ', '(']).len();
        let name = term.trim_matches([' ', '(', ')']);
        let x = match name {
            "UC_VERSION_GFX7" => 0,
            "UC_VERSION_GFX10" => 4,
            "UC_VERSION_GFX11" => 6,
            "UC_VERSION_GFX12" => 9,
            "UC_VERSION_W64_BIT" => 1 << 13,
            "UC_VERSION_W32_BIT" => 1 << 14,
            "UC_VERSION_MDP_BIT" => 1 << 15,
            _ => parse_int(name).ok_or((at + lead, format!("`{name}` is not a version term")))?,
        };
        v |= x;
        at += term.len() + 1;
    }
    imm16(v, col)
}

fn imm16(v: i64, col: usize) -> Res<u32> {
    if (-32768..=65535).contains(&v) {
        Ok(v as u32 & 0xffff)
    } else {
        Err((col, format!("`{v}` is not a 16-bit immediate")))
    }
}

/// `s_waitcnt_depctr`: an integer, or `depctr_*(n)` fields; unnamed fields stay at their
/// default (all ones), bits outside the fields are zero.
pub(super) fn depctr(text: &str, col: usize) -> Res<u32> {
    if let Some(v) = parse_int(text.trim()) {
        return imm16(v, col);
    }
    let mut imm: u32 = DEPCTR
        .iter()
        .map(|&(_, lo, w)| ((1 << w) - 1) << lo)
        .fold(0, |a, b| a | b);
    let mut seen = Vec::new();
    for (name, value, c, vc) in counter_items(text, col)? {
        let &(_, lo, w) = DEPCTR
            .iter()
            .find(|d| d.0 == name)
            .ok_or((c, format!("invalid counter name {name}")))?;
        if seen.contains(&name) {
            return Err((c, format!("duplicate counter name {name}")));
        }
        let max = (1i64 << w) - 1;
        if !(0..=max).contains(&value) {
            return Err((vc, format!("invalid value for {name}")));
        }
        imm = (imm & !((max as u32) << lo)) | ((value as u32) << lo);
        seen.push(name);
    }
    Ok(imm)
}

/// The comma-separated arguments of `name(...)`, trimmed, with columns.
fn call_args<'a>(t: &'a str, name: &str, col: usize) -> Option<Vec<(&'a str, usize)>> {
    let inner = t.strip_prefix(name)?.strip_prefix('(')?.strip_suffix(')')?;
    let mut out = Vec::new();
    let mut at = col + name.len() + 1;
    for a in inner.split(',') {
        let lead = a.len() - a.trim_start().len();
        out.push((a.trim(), at + lead));
        at += a.len() + 1;
    }
    Some(out)
}

/// `hwreg(id[, offset, size])` or an integer: id [5:0] (a name or 0..63), offset [10:6],
/// size - 1 [15:11].
pub(super) fn hwreg(t: &str, col: usize) -> Res<u32> {
    if let Some(v) = parse_int(t) {
        return imm16(v, col);
    }
    let args = call_args(t, "hwreg", col).ok_or((col, format!("`{t}` is not hwreg(...)")))?;
    let (idt, ic) = args[0];
    let id = match parse_int(idt) {
        Some(v) if (0..64).contains(&v) => v as u32,
        Some(_) => {
            return Err((
                ic,
                "invalid hardware register: only 6-bit values are legal".into(),
            ))
        }
        None => (0..64)
            .find(|&i| sym::hwreg_name(i) == Some(idt))
            .ok_or((ic, format!("unknown hardware register `{idt}`")))?,
    };
    let (offset, size) = match args[1..] {
        [] => (0, 32),
        [(o, oc), (s, sc)] => {
            let off = parse_int(o).filter(|v| (0..32).contains(v)).ok_or((
                oc,
                "invalid bit offset: only 5-bit values are legal".to_string(),
            ))?;
            let size = parse_int(s).filter(|v| (1..=32).contains(v)).ok_or((
                sc,
                "invalid bitfield width: only values from 1 to 32 are legal".to_string(),
            ))?;
            (off as u32, size as u32)
        }
        [(_, c), ..] => return Err((c, "hwreg takes an id, or an id, offset and size".into())),
    };
    Ok(id | offset << 6 | (size - 1) << 11)
}

/// `sendmsg(msg[, op[, stream]])` or an integer: message [3:0], operation [6:4], stream [9:8].
/// A named message is checked strictly (which operations it takes, whether a stream); a
/// numeric one only for field widths, as llvm-mc-19 does.
pub(super) fn sendmsg(t: &str, col: usize) -> Res<u32> {
    if let Some(v) = parse_int(t) {
        return imm16(v, col);
    }
    let args = call_args(t, "sendmsg", col).ok_or((col, format!("`{t}` is not sendmsg(...)")))?;
    if args.len() > 3 {
        return Err((args[3].1, "sendmsg takes at most 3 arguments".into()));
    }
    let (mt, mc) = args[0];
    let (id, strict) = match parse_int(mt) {
        Some(v) if (0..16).contains(&v) => (v as u32, false),
        Some(_) => return Err((mc, "invalid message id".into())),
        None => (
            (0..16)
                .find(|&i| sym::msg_name(i) == Some(mt))
                .ok_or((mc, format!("invalid message id `{mt}`")))?,
            true,
        ),
    };
    let op = match args.get(1) {
        None => None,
        Some(&(o, oc)) => {
            let v = match parse_int(o) {
                Some(v) => v,
                None => GS_OPS
                    .iter()
                    .position(|g| *g == o)
                    .map(|p| p as i64)
                    .or_else(|| {
                        (0..8)
                            .find(|&i| sym::sysmsg_op(i) == Some(o))
                            .map(i64::from)
                    })
                    .ok_or((oc, format!("invalid operation id `{o}`")))?,
            };
            Some((v, oc))
        }
    };
    let stream = args.get(2).map(|&(s, sc)| (parse_int(s), sc));
    let gs = matches!(id, 2 | 3);
    let needs_op = gs || id == 15;
    if strict {
        match (&op, needs_op) {
            (Some((_, oc)), false) => {
                return Err((*oc, "message does not support operations".into()))
            }
            (None, true) => return Err((mc, "missing message operation".into())),
            _ => {}
        }
    }
    let opv = op.map_or(0, |o| o.0);
    let op_ok = if !strict {
        (0..8).contains(&opv)
    } else if id == 15 {
        sym::sysmsg_op(opv.clamp(0, 7) as u32).is_some() && (0..8).contains(&opv)
    } else if id == 3 {
        (0..4).contains(&opv)
    } else if id == 2 {
        (1..4).contains(&opv)
    } else {
        opv == 0
    };
    if !op_ok {
        return Err((op.map_or(mc, |o| o.1), "invalid operation id".into()));
    }
    let sv = match stream {
        None => 0,
        Some((Some(v), sc)) => {
            if strict && !(gs && opv != 0) {
                return Err((sc, "message operation does not support streams".into()));
            }
            if !(0..4).contains(&v) {
                return Err((sc, "invalid message stream id".into()));
            }
            v
        }
        Some((None, sc)) => return Err((sc, "invalid message stream id".into())),
    };
    Ok(id | (opv as u32) << 4 | (sv as u32) << 8)
}

/// The `ds_swizzle_b32` `offset:`: an integer (0..65535) or `swizzle(MODE,...)`.
pub(super) fn swizzle(t: &str, col: usize) -> Res<u32> {
    if let Some(v) = parse_int(t) {
        return if (0..=65535).contains(&v) {
            Ok(v as u32)
        } else {
            Err((col, "expected a 16-bit unsigned offset".into()))
        };
    }
    let args = call_args(t, "swizzle", col).ok_or((col, format!("`{t}` is not swizzle(...)")))?;
    let num = |i: usize, lo: i64, hi: i64| -> Res<u32> {
        let (a, c) = *args
            .get(i)
            .ok_or((col, "too few swizzle arguments".to_string()))?;
        parse_int(a)
            .filter(|v| (lo..=hi).contains(v))
            .map(|v| v as u32)
            .ok_or((c, format!("`{a}` must be in [{lo}, {hi}]")))
    };
    let want = |n: usize| -> Res<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err((col, format!("{} takes {} argument(s)", args[0].0, n - 1)))
        }
    };
    match args[0].0 {
        "QUAD_PERM" => {
            want(5)?;
            let mut v = 0x8000;
            for i in 0..4 {
                v |= num(i + 1, 0, 3)? << (2 * i);
            }
            Ok(v)
        }
        "SWAP" => {
            want(2)?;
            let x = num(1, 1, 16)?;
            if !x.is_power_of_two() {
                return Err((args[1].1, "group size must be a power of two".into()));
            }
            Ok(0x1f | x << 10)
        }
        "REVERSE" => {
            want(2)?;
            let x = num(1, 2, 32)?;
            if !x.is_power_of_two() {
                return Err((args[1].1, "group size must be a power of two".into()));
            }
            Ok(0x1f | (x - 1) << 10)
        }
        "BROADCAST" => {
            want(3)?;
            let g = num(1, 2, 32)?;
            if !g.is_power_of_two() {
                return Err((args[1].1, "group size must be a power of two".into()));
            }
            let lane = num(2, 0, i64::from(g) - 1)?;
            Ok((0x20 - g) | lane << 5)
        }
        "BITMASK_PERM" => {
            want(2)?;
            let (m, c) = args[1];
            let m = m
                .strip_prefix('"')
                .and_then(|m| m.strip_suffix('"'))
                .filter(|m| m.len() == 5)
                .ok_or((c, "expected a 5-character mask".to_string()))?;
            let (mut and, mut or, mut xor) = (0, 0, 0);
            for (i, ch) in m.chars().enumerate() {
                let bit = 1 << (4 - i);
                match ch {
                    '0' => {}
                    '1' => or |= bit,
                    'p' => and |= bit,
                    'i' => {
                        and |= bit;
                        xor |= bit;
                    }
                    _ => return Err((c, "invalid mask".into())),
                }
            }
            Ok(and | or << 5 | xor << 10)
        }
        m => Err((args[0].1, format!("unknown swizzle mode `{m}`"))),
    }
}

/// The MTBUF `format:`: a number (0..127) or `[BUF_FMT_...]`.
pub(super) fn buffer_format(v: &str, col: usize) -> Res<u32> {
    if let Some(n) = parse_int(v) {
        return if (0..128).contains(&n) {
            Ok(n as u32)
        } else {
            Err((col, "out of range format".into()))
        };
    }
    let name = v
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .map(str::trim)
        .ok_or((col, format!("`{v}` is not a format")))?;
    sym::buffer_format_code(name).ok_or((col, format!("unsupported format `{name}`")))
}
