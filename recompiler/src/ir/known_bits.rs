//! Known bits of a kernel's integer values: which bits of a value are the same on every run,
//! whatever the inputs, and what they are. [`Kernel::bits_in`] walks a block's expressions in
//! order (an operand always comes first) with the block variables' bits given;
//! [`Kernel::entry_bits`] finds the bits each block variable holds whenever a block begins,
//! by forward data flow over the blocks (every variable is 0 before the first block; a block's
//! stores give the bits of what it stores; where paths join, the bits they agree on): a
//! register the body copies away and back (a V#'s word kept in other SGPRs around a call), or
//! adds a carry to, keeps the bits the copies and the carry cannot change.
//!
//! The lowering uses it to fold what a real program's prologue sets up once, such as the
//! private segment V#'s swizzle and ADD_TID bits (`lower::buffer_addr`).

use super::{Convert, Expr, Handle, IntBin, IntCmp, Kernel, Terminator, Ty};
use std::collections::HashMap;

/// The known bits of a value: `zero` the bits known to be 0, `one` those known to be 1 (never
/// both). A `U32` or `Bool` value's bits past its width are known 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    pub zero: u64,
    pub one: u64,
}

impl Bits {
    /// Nothing known of a value of type `ty` but its width.
    pub fn unknown(ty: Ty) -> Bits {
        Bits {
            zero: !width_mask(ty),
            one: 0,
        }
    }

    /// Every bit of constant `v` of type `ty`.
    pub fn constant(ty: Ty, v: u64) -> Bits {
        let m = width_mask(ty);
        Bits {
            zero: !(v & m),
            one: v & m,
        }
    }

    /// The bits both `self` and `o` know, with the same value.
    pub fn meet(self, o: Bits) -> Bits {
        Bits {
            zero: self.zero & o.zero,
            one: self.one & o.one,
        }
    }

    /// The value, when every bit is known.
    pub fn value(self) -> Option<u64> {
        (self.zero | self.one == u64::MAX).then_some(self.one)
    }

    /// Whether bit `i` is known to be 1.
    pub fn is_one(self, i: u32) -> bool {
        self.one >> i & 1 == 1
    }

    /// The bits of `self & o`.
    fn and(self, o: Bits) -> Bits {
        Bits {
            zero: self.zero | o.zero,
            one: self.one & o.one,
        }
    }

    /// The bits of `self | o`.
    fn or(self, o: Bits) -> Bits {
        Bits {
            zero: self.zero & o.zero,
            one: self.one | o.one,
        }
    }
}

fn width_mask(ty: Ty) -> u64 {
    match ty {
        Ty::Bool => 1,
        Ty::U32 | Ty::F32 => u64::from(u32::MAX),
        Ty::U64 | Ty::F64 => u64::MAX,
    }
}

/// `a + b + carry` (carry 0 or 1) within `mask`: the sum's bits that the known bits of the
/// operands decide, through the carries they decide.
fn add(a: Bits, b: Bits, carry: u64, mask: u64) -> Bits {
    // the largest and the smallest sums the unknown bits allow, bit by bit
    let max = (!a.zero & mask)
        .wrapping_add(!b.zero & mask)
        .wrapping_add(carry)
        & mask;
    let min = (a.one.wrapping_add(b.one).wrapping_add(carry)) & mask;
    // the carry into each bit, where both sums agree on it
    let carry_zero = !(max ^ a.zero ^ b.zero) & mask;
    let carry_one = (min ^ a.one ^ b.one) & mask;
    let known = (a.zero | a.one) & (b.zero | b.one) & (carry_zero | carry_one) & mask;
    Bits {
        zero: (!max & known) | !mask,
        one: min & known,
    }
}

/// The known bits of expression `e` of type `ty`, its operands' from `of` and the block
/// variables' from `var`.
fn eval(e: &Expr, ty: Ty, of: &dyn Fn(Handle) -> Bits, var: &dyn Fn(u16) -> Bits) -> Bits {
    let mask = width_mask(ty);
    match *e {
        Expr::Const { ty, bits } => Bits::constant(ty, bits),
        Expr::Var(id) => var(id),
        Expr::IntBin { op, a, b } => {
            let (x, y) = (of(a), of(b));
            match op {
                IntBin::And => x.and(y),
                IntBin::Or => x.or(y),
                IntBin::Xor => Bits {
                    zero: (x.zero & y.zero) | (x.one & y.one),
                    one: (x.zero & y.one) | (x.one & y.zero),
                },
                IntBin::Add => add(x, y, 0, mask),
                IntBin::Sub => {
                    let not_y = Bits {
                        zero: y.one | !mask,
                        one: y.zero & mask,
                    };
                    add(x, not_y, 1, mask)
                }
                IntBin::Shl | IntBin::ShrU => {
                    // the meet over every shift the amount's known bits allow
                    let width = u64::from(mask.count_ones());
                    let mut r: Option<Bits> = None;
                    for s in 0..width {
                        // the amount is taken modulo the width: only its low bits matter
                        let low = width - 1;
                        if (y.one & low) & !s != 0 || (y.zero & low) & s != 0 {
                            continue;
                        }
                        let s = s as u32;
                        let (zero, one) = if op == IntBin::Shl {
                            (x.zero << s | ((1 << s) - 1), x.one << s)
                        } else {
                            (x.zero >> s | !(mask >> s), x.one >> s)
                        };
                        let b = Bits {
                            zero: zero | !mask,
                            one: one & mask,
                        };
                        r = Some(r.map_or(b, |r| r.meet(b)));
                    }
                    r.unwrap_or(Bits::unknown(ty))
                }
                _ => Bits::unknown(ty),
            }
        }
        Expr::IntCmp { op, a, b } if matches!(op, IntCmp::Eq | IntCmp::Ne) => {
            let (x, y) = (of(a), of(b));
            // a bit known to differ decides it; so do two known values
            let differ = (x.one & y.zero) | (x.zero & y.one) != 0;
            let equal = match (x.value(), y.value()) {
                (Some(p), Some(q)) => Some(p == q),
                _ if differ => Some(false),
                _ => None,
            };
            match equal {
                Some(e) => Bits::constant(Ty::Bool, u64::from(e == (op == IntCmp::Eq))),
                None => Bits::unknown(Ty::Bool),
            }
        }
        Expr::BoolAnd(a, b) => of(a).and(of(b)),
        Expr::BoolOr(a, b) => of(a).or(of(b)),
        Expr::BoolNot(a) => {
            let x = of(a);
            Bits {
                zero: !1 | x.one,
                one: x.zero & 1,
            }
        }
        Expr::Select { cond, a, b } => {
            let c = of(cond);
            match c.value() {
                Some(0) => of(b),
                Some(_) => of(a),
                None => of(a).meet(of(b)),
            }
        }
        Expr::Convert { op, a, .. } => {
            let x = of(a);
            match op {
                Convert::ZextU32 | Convert::BoolToU32 | Convert::Bitcast => x,
                Convert::TruncU64 => Bits {
                    zero: x.zero | !mask,
                    one: x.one & mask,
                },
                _ => Bits::unknown(ty),
            }
        }
        Expr::Pack64 { lo, hi } => {
            let (l, h) = (of(lo), of(hi));
            Bits {
                zero: (l.zero & 0xffff_ffff) | h.zero << 32,
                one: l.one | h.one << 32,
            }
        }
        _ => Bits::unknown(ty),
    }
}

impl Kernel {
    /// The bits of expression `h` as an operand from outside the expressions evaluated: a
    /// constant's, or nothing but the width (an input; validation keeps other values in
    /// their block).
    pub fn leaf_bits(&self, h: Handle) -> Bits {
        match *self.expr(h) {
            Expr::Const { ty, bits } => Bits::constant(ty, bits),
            _ => Bits::unknown(self.ty(h)),
        }
    }

    /// The known bits of the expressions in `range` (a block's, or the whole kernel's), the
    /// block variables' from `vars` (a variable it does not name is unconstrained); an
    /// operand outside the range is a leaf ([`Self::leaf_bits`]).
    pub fn bits_in(&self, range: std::ops::Range<u32>, vars: &HashMap<u16, Bits>) -> Vec<Bits> {
        let start = range.start as usize;
        let mut out: Vec<Bits> = Vec::with_capacity(range.len());
        let mut types: Vec<Ty> = Vec::with_capacity(range.len());
        let var = |id: u16| vars.get(&id).copied().unwrap_or(Bits::unknown(Ty::U32));
        for i in range {
            let e = &self.exprs[i as usize];
            let done = types.len();
            let local = move |h: Handle| h.index().checked_sub(start).filter(|&j| j < done);
            // Kernel::ty, with the operand's type from `types` where it would recurse
            let ty = match *e {
                Expr::IntBin { a, .. }
                | Expr::IntUn { a, .. }
                | Expr::FloatBin { a, .. }
                | Expr::Fma { a, .. }
                | Expr::FloatUn { a, .. }
                | Expr::Select { a, .. } => local(a).map_or_else(|| self.ty(a), |j| types[j]),
                _ => self.ty(Handle(i)),
            };
            types.push(ty);
            let of = |h: Handle| local(h).map_or_else(|| self.leaf_bits(h), |j| out[j]);
            let b = eval(e, ty, &of, &var);
            out.push(b);
        }
        out
    }

    /// The known bits of every expression where it is evaluated: in its block, with the
    /// variables' bits when the block begins ([`Self::entry_bits`]); a leaf's for an
    /// expression of no block.
    pub fn expr_bits(&self) -> Vec<Bits> {
        if self.blocks.is_empty() {
            return self.bits_in(0..self.exprs.len() as u32, &HashMap::new());
        }
        let mut out: Vec<Bits> = (0..self.exprs.len() as u32)
            .map(|i| self.leaf_bits(Handle(i)))
            .collect();
        for (b, vars) in self.blocks.iter().zip(self.entry_bits()) {
            let start = b.exprs.start as usize;
            let bits = self.bits_in(b.exprs.clone(), &vars);
            out[start..start + bits.len()].copy_from_slice(&bits);
        }
        out
    }

    /// The bits of each block variable whenever each block begins (a variable a map does not
    /// name is unconstrained there, and a block no path reaches has an empty map).
    pub fn entry_bits(&self) -> Vec<HashMap<u16, Bits>> {
        let n = self.blocks.len();
        if n == 0 {
            return Vec::new();
        }
        let mut ids: Vec<u16> = self
            .blocks
            .iter()
            .flat_map(|b| b.stores.iter().map(|&(id, _)| id))
            .chain(self.exprs.iter().filter_map(|e| match *e {
                Expr::Var(id) => Some(id),
                _ => None,
            }))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        // None: no path reaches the block yet; every variable is 0 before the first block
        let mut entry: Vec<Option<HashMap<u16, Bits>>> = vec![None; n];
        entry[0] = Some(
            ids.iter()
                .map(|&id| (id, Bits::constant(Ty::U32, 0)))
                .collect(),
        );
        let mut work = vec![0usize];
        let mut visits = 0usize;
        while let Some(bi) = work.pop() {
            visits += 1;
            if visits > MAX_VISITS * n {
                // a guard against a transfer function that is not monotone: claim nothing
                return vec![HashMap::new(); n];
            }
            let b = &self.blocks[bi];
            let Some(vars) = entry[bi].clone() else {
                continue;
            };
            let bits = self.bits_in(b.exprs.clone(), &vars);
            let start = b.exprs.start as usize;
            let mut exit = vars;
            for &(id, h) in &b.stores {
                let v = h
                    .index()
                    .checked_sub(start)
                    .and_then(|j| bits.get(j).copied())
                    .unwrap_or_else(|| self.leaf_bits(h));
                exit.insert(id, v);
            }
            let next: Vec<u32> = match b.term {
                Terminator::Jump(t) => vec![t],
                Terminator::Branch { then, other, .. } => vec![then, other],
            };
            for t in next.into_iter().map(|t| t as usize).filter(|&t| t < n) {
                let joined = match &entry[t] {
                    None => exit.clone(),
                    Some(old) => old
                        .iter()
                        .map(|(&id, &o)| {
                            let x = exit.get(&id).copied();
                            (id, x.map_or(Bits::unknown(Ty::U32), |x| o.meet(x)))
                        })
                        .collect(),
                };
                if entry[t].as_ref() != Some(&joined) {
                    entry[t] = Some(joined);
                    work.push(t);
                }
            }
        }
        entry.into_iter().map(Option::unwrap_or_default).collect()
    }
}

/// The most times [`Kernel::entry_bits`] visits each block on average (each visit after the
/// first follows a loss of at least one bit of one variable at the block's start).
const MAX_VISITS: usize = 4096;

#[cfg(test)]
#[path = "known_bits_tests.rs"]
mod tests;
