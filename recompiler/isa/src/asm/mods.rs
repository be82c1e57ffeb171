//! Modifier words (clamp, omod, op_sel, SDWA and DPP fields) and the split of an operand list.

use super::*;

pub(super) fn bit_list(v: &str) -> Option<u32> {
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

pub(super) fn sel(v: &str) -> Option<u32> {
    [
        "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
    ]
    .iter()
    .position(|x| *x == v)
    .map(|i| i as u32)
}

#[derive(Default)]
pub(super) struct Mods {
    pub(super) clamp: bool,
    pub(super) omod: u32,
    pub(super) op_sel: Option<u32>,
    pub(super) op_sel_hi: Option<u32>,
    pub(super) neg_lo: Option<u32>,
    pub(super) neg_hi: Option<u32>,
    pub(super) dst_sel: Option<u32>,
    pub(super) dst_unused: Option<u32>,
    pub(super) src0_sel: Option<u32>,
    pub(super) src1_sel: Option<u32>,
    pub(super) dpp_ctrl: Option<u32>,
    pub(super) row_mask: Option<u32>,
    pub(super) bank_mask: Option<u32>,
    pub(super) bound_ctrl: bool,
    pub(super) fi: bool,
    pub(super) dpp8: Option<u32>,
}

pub(super) fn parse_mod(m: &mut Mods, t: &str, col: usize) -> Res<()> {
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
        "neg_lo" => m.neg_lo = Some(bit_list(v).ok_or_else(bad)?),
        "neg_hi" => m.neg_hi = Some(bit_list(v).ok_or_else(bad)?),
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

/// The order llvm-mc-19 reads VALU modifiers in (VOP3: op_sel, clamp, omod; VOP3P: op_sel,
/// op_sel_hi, neg_lo, neg_hi, clamp; SDWA: clamp, omod, dst_sel, dst_unused, src0_sel, src1_sel;
/// DPP: the control, row_mask, bank_mask, bound_ctrl, fi), one rank per modifier.
pub(super) fn valu_rank(t: &str) -> usize {
    let k = t.split_once(':').map_or(t, |x| x.0);
    match k {
        "op_sel" => 0,
        "op_sel_hi" => 1,
        "neg_lo" => 2,
        "neg_hi" => 3,
        "clamp" => 4,
        "mul" | "div" => 5,
        "dst_sel" => 6,
        "dst_unused" => 7,
        "src0_sel" => 8,
        "src1_sel" => 9,
        "row_mask" => 11,
        "bank_mask" => 12,
        "bound_ctrl" => 13,
        "fi" => 14,
        _ => 10,
    }
}

/// Modifiers must come in the order `rank` gives them, each at most once (`same` ranks may
/// repeat in any order, as llvm-mc-19 reads the cache-policy bits as one operand).
pub(super) fn check_order(mods: &[(String, usize)], rank: fn(&str) -> usize) -> Res<()> {
    for w in mods.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let (ra, rb) = (rank(&a.0), rank(&b.0));
        if rb < ra || (rb == ra && !shared_rank(&a.0, &b.0)) {
            return Err((
                b.1,
                format!(
                    "`{}` cannot follow `{}`: llvm-mc-19 reads each modifier once, in a fixed order",
                    b.0, a.0
                ),
            ));
        }
    }
    Ok(())
}

/// glc, slc and dlc share a rank and may come in any order.
fn shared_rank(a: &str, b: &str) -> bool {
    let cpol = |t: &str| matches!(t, "glc" | "slc" | "dlc");
    cpol(a) && cpol(b) && a != b
}

/// Split `a, b, c mod mod:x` into operand tokens (with columns) and modifier tokens.
/// Operand or modifier tokens with their byte offsets.
pub(super) type Tokens = Vec<(String, usize)>;

pub(super) fn split_operands(rest: &str, base: usize) -> (Tokens, Tokens) {
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
        // A `name:value` item (a colon outside brackets) is a modifier even with no operand
        // before it (`v_nop dpp8:[...]`).
        let modifier = t.split('[').next().is_some_and(|h| h.contains(':'));
        if in_ops && (!prev_comma || modifier) {
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
