//! The unary float rules that f32 and f16 share: the value is computed exactly (or as closely as
//! f64 allows) from the flushed input, rounded once to the format, and the special inputs are
//! selected on the input's bits. Only the format's constants differ (default NaN, infinities,
//! sign, 1.0, the frexp exponent); `transcendental.rs`, `conversion.rs` and `float16.rs` keep
//! what is their own (conversions, the f32 denormal rule of the transcendental ops, the f16
//! result merge).

use super::transcendental::revolutions_trig;
use crate::builder::{Builder, Fmt, Tiny};
use crate::ir::{FloatBin, FloatUn, Handle, IntCmp};
use rdnaprobe_isa::Round;

/// The unary operations with one rule for f32 and f16 (`v_OP_f32`, `v_OP_f16`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum UnaryOp {
    Trunc,
    Ceil,
    Floor,
    /// v_rndne: round to nearest even integral value.
    Rndne,
    Fract,
    FrexpMant,
    Sqrt,
    Rsq,
    /// v_rcp and v_rcp_iflag (same result).
    Rcp,
    Log,
    Exp,
    Sin,
    Cos,
}

/// One unary instruction's input and the facts about it the rules select on.
pub(super) struct Unary {
    fmt: Fmt,
    /// The input's bits after denormal flushing.
    pub x: Handle,
    /// Its exact value in f64.
    pub w: Handle,
    pub nan: Handle,
    /// The NaN result for a NaN input (quieted as the IEEE mode says).
    pub q: Handle,
    pub zero: Handle,
    pub inf: Handle,
    /// Sign set and not a zero.
    negnz: Handle,
    neg: Handle,
    /// The input's sign bit alone.
    sgn: Handle,
    round: Round,
    flush_out: bool,
}

impl Unary {
    /// `x` is the flushed input in the bits of `fmt` (f32 or f16).
    pub fn new(
        b: &mut Builder,
        fmt: Fmt,
        x: Handle,
        ieee: bool,
        round: Round,
        flush_out: bool,
    ) -> Unary {
        let nan = b.is_nan(fmt, x);
        let q = b.nan_out(fmt, x, ieee);
        let w = match fmt {
            Fmt::F16 => b.f16_to_f64_exact(x),
            Fmt::F32 | Fmt::F64 => b.f32_to_f64_exact(x),
        };
        let neg = b.sign_of(fmt, x);
        let zero = b.is_zero(fmt, x);
        let inf = b.is_inf(fmt, x);
        let sgn = b.andc(x, fmt.sign_mask());
        let nz = b.bnot(zero);
        let negnz = b.band(neg, nz);
        Unary {
            fmt,
            x,
            w,
            nan,
            q,
            zero,
            inf,
            negnz,
            neg,
            sgn,
            round,
            flush_out,
        }
    }

    /// |w| with the zero, infinite and NaN inputs (whose results are selected on the bits)
    /// replaced by 1.0, so that the software sequences only see positive normal values.
    fn magnitude(&self, b: &mut Builder) -> Handle {
        let wb = b.bits_of_f64(self.w);
        let ab = b.andc(wb, !(1u64 << 63));
        let a = b.f64_of(ab);
        let special = b.bor(self.zero, self.inf);
        let special = b.bor(special, self.nan);
        let one = b.cf64(1.0);
        b.sel(special, one, a)
    }

    /// `w` with the infinite and NaN inputs replaced by 0.
    fn finite(&self, b: &mut Builder) -> Handle {
        let special = b.bor(self.inf, self.nan);
        let z = b.cf64(0.0);
        b.sel(special, z, self.w)
    }

    /// `v` (f64) rounded to the format in the instruction's rounding and output-denormal mode.
    pub fn round(&self, b: &mut Builder, v: Handle) -> Handle {
        b.round_to(self.fmt, v, None, self.round, self.flush_out, Tiny::Result)
    }

    fn bits(&self, b: &mut Builder, v: u64) -> Handle {
        b.c32(v as u32)
    }

    /// The default NaN (sign set, quiet bit set), +inf and -inf of the format.
    fn specials(&self, b: &mut Builder) -> (Handle, Handle, Handle) {
        let f = self.fmt;
        let pinf = f.exp_mask();
        let quiet = 1 << (f.mbits() - 1);
        let dn = self.bits(b, f.sign_mask() | pinf | quiet);
        let p = self.bits(b, pinf);
        let n = self.bits(b, f.sign_mask() | pinf);
        (dn, p, n)
    }

    /// `v_frexp_exp_*`: the exponent of the value as 2^e * [0.5, 1); 0 for zero, inf and NaN.
    pub fn frexp_exp(&self, b: &mut Builder) -> Handle {
        let wb = b.bits_of_f64(self.w);
        let e = b.shrc(wb, 52);
        let e = b.andc(e, 0x7ff);
        let e = b.trunc64(e);
        let k = b.c32(1022);
        let e = b.sub(e, k);
        let special = b.bor(self.nan, self.inf);
        let special = b.bor(special, self.zero);
        let z = b.c32(0);
        b.sel(special, z, e)
    }

    /// The result of `op` on the input, before the result modifiers.
    pub fn rule(&self, b: &mut Builder, op: UnaryOp) -> Handle {
        let (x, w, nan, q, zero, inf, sgn) = (
            self.x, self.w, self.nan, self.q, self.zero, self.inf, self.sgn,
        );
        let (dn, pinf, ninf) = self.specials(b);
        let inf_bits = self.fmt.exp_mask();
        // integral results keep the input's sign for zero
        let integral = |b: &mut Builder, fop: FloatUn| {
            let v = b.fu(fop, w);
            let r = self.round(b, v);
            let rz = b.is_zero(self.fmt, r);
            let r = b.sel(rz, sgn, r);
            let r = b.sel(inf, x, r);
            b.sel(nan, q, r)
        };
        match op {
            UnaryOp::Trunc => integral(b, FloatUn::Trunc),
            UnaryOp::Ceil => integral(b, FloatUn::Ceil),
            UnaryOp::Floor => integral(b, FloatUn::Floor),
            UnaryOp::Rndne => integral(b, FloatUn::RoundEven),
            UnaryOp::Fract => {
                // rule: fract: x - floor(x), below 1.0; fract(inf) = NaN
                let fl = b.fu(FloatUn::Floor, w);
                let d = b.fb(FloatBin::Sub, w, fl);
                let r = self.round(b, d);
                let one_bits = (self.fmt.bias() as u64) << self.fmt.mbits();
                let one = self.bits(b, one_bits);
                let ge1 = b.icmp(IntCmp::GeU, r, one);
                let below1 = self.bits(b, one_bits - 1);
                let r = b.sel(ge1, below1, r);
                let r = b.sel(inf, dn, r);
                b.sel(nan, q, r)
            }
            UnaryOp::FrexpMant => {
                // the significand as [0.5, 1) with the input's sign
                let mb = self.fmt.mbits();
                let wb = b.bits_of_f64(w);
                let m52 = b.andc(wb, (1 << 52) - 1);
                let m = b.shrc(m52, 52 - mb);
                let m = b.trunc64(m);
                let e = self.bits(b, ((self.fmt.bias() - 1) as u64) << mb);
                let r = b.or(e, m);
                let r = b.or(r, sgn);
                let r = b.sel(zero, x, r);
                let r = b.sel(inf, x, r);
                b.sel(nan, q, r)
            }
            UnaryOp::Sqrt => {
                let a = self.magnitude(b);
                let v = b.sqrt_settled(a);
                let r = self.round(b, v);
                let r = b.sel(zero, x, r);
                let r = b.sel(inf, x, r);
                let r = b.sel(self.negnz, dn, r);
                b.sel(nan, q, r)
            }
            UnaryOp::Rsq => {
                let a = self.magnitude(b);
                let v = b.rsqrt_settled(a);
                let r = self.round(b, v);
                let zi = b.orc(sgn, inf_bits);
                let r = b.sel(zero, zi, r);
                let pz = b.c32(0);
                let r = b.sel(inf, pz, r);
                let r = b.sel(self.negnz, dn, r);
                b.sel(nan, q, r)
            }
            UnaryOp::Rcp => {
                let a = self.magnitude(b);
                let v = b.recip_settled(a);
                let vb = b.bits_of_f64(v);
                let ws = b.bits_of_f64(w);
                let ws = b.andc(ws, 1 << 63);
                let vb = b.or(vb, ws);
                let v = b.f64_of(vb);
                let r = self.round(b, v);
                let zi = b.orc(sgn, inf_bits);
                let r = b.sel(zero, zi, r);
                let r = b.sel(inf, sgn, r);
                b.sel(nan, q, r)
            }
            UnaryOp::Log => {
                let a = self.magnitude(b);
                let v = b.log2_approx(a);
                let r = self.round(b, v);
                let r = b.sel(zero, ninf, r);
                let r = b.sel(inf, x, r);
                let r = b.sel(self.negnz, dn, r);
                b.sel(nan, q, r)
            }
            UnaryOp::Exp => {
                let finite = self.finite(b);
                let v = b.exp2_approx(finite);
                let r = self.round(b, v);
                let pz = b.c32(0);
                let ri = b.sel(self.neg, pz, pinf);
                let r = b.sel(inf, ri, r);
                b.sel(nan, q, r)
            }
            UnaryOp::Sin | UnaryOp::Cos => {
                let sine = op == UnaryOp::Sin;
                let v = revolutions_trig(b, w, sine);
                let r = self.round(b, v);
                // sin keeps a zero input's sign
                let r = if sine { b.sel(zero, x, r) } else { r };
                let r = b.sel(inf, dn, r);
                b.sel(nan, q, r)
            }
        }
    }
}
