//! Float instruction families: operand modifiers, the arithmetic, min/max, conversion,
//! transcendental and division-helper rules, and the result modifiers (omod, clamp, FP16_OVFL,
//! 16-bit results keeping the destination's upper half). Each rule is named in
//! docs/semantics.md; the code cites it as `rule: NAME`.

use super::unary::Unary;
use super::Lowerer;
use crate::build::{Builder, Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntCmp, IntUn, Ty};
use rdnaprobe_isa::table::flags;
use rdnaprobe_isa::{Encoding, Instruction, Operand, Round, Target};

/// Arithmetic kinds sharing the exact-then-round pipeline.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Arith {
    Add,
    Mul,
    Fma,
    /// DX9 multiply: a zero factor gives +0 whatever the other factor.
    MulLegacy,
    /// Fused legacy multiply-add (gfx103x v_fma_legacy_f32 / v_fmac_legacy_f32).
    FmaLegacy,
    /// Separately rounded legacy multiply-add (gfx1010/gfx1013 v_mad_legacy_f32 / v_mac_legacy_f32).
    MadLegacy,
}

const F32_BIN: &[&str] = &[
    "v_add_f32",
    "v_sub_f32",
    "v_subrev_f32",
    "v_mul_f32",
    "v_mul_legacy_f32",
    "v_fma_f32",
    "v_fmac_f32",
    "v_fmamk_f32",
    "v_fmaak_f32",
    "v_fma_legacy_f32",
    "v_fmac_legacy_f32",
    "v_mad_legacy_f32",
    "v_mac_legacy_f32",
    "v_min_f32",
    "v_max_f32",
    "v_min3_f32",
    "v_max3_f32",
    "v_med3_f32",
    "v_ldexp_f32",
    "v_mullit_f32",
    "v_div_scale_f32",
    "v_div_fmas_f32",
    "v_div_fixup_f32",
];
const F32_UN: &[&str] = &[
    "v_fract_f32",
    "v_trunc_f32",
    "v_ceil_f32",
    "v_rndne_f32",
    "v_floor_f32",
    "v_exp_f32",
    "v_log_f32",
    "v_rcp_f32",
    "v_rcp_iflag_f32",
    "v_rsq_f32",
    "v_sqrt_f32",
    "v_sin_f32",
    "v_cos_f32",
    "v_frexp_mant_f32",
    "v_frexp_exp_i32_f32",
    "v_cvt_flr_i32_f32",
    "v_cvt_rpi_i32_f32",
    "v_cvt_i32_f32",
    "v_cvt_u32_f32",
    "v_cvt_f32_i32",
    "v_cvt_f32_u32",
    "v_cvt_f16_f32",
    "v_cvt_f64_f32",
    "v_cvt_f32_f16",
    "v_cvt_f32_f64",
];
const F16_OPS: &[&str] = &[
    "v_add_f16",
    "v_sub_f16",
    "v_subrev_f16",
    "v_mul_f16",
    "v_fma_f16",
    "v_fmac_f16",
    "v_max_f16",
    "v_min_f16",
    "v_ldexp_f16",
    "v_frexp_mant_f16",
    "v_frexp_exp_i16_f16",
    "v_cvt_norm_i16_f16",
    "v_cvt_norm_u16_f16",
    "v_cvt_pknorm_i16_f16",
    "v_cvt_pknorm_u16_f16",
    "v_sat_pk_u8_i16",
    "v_div_fixup_f16",
    "v_exp_f16",
    "v_log_f16",
    "v_rcp_f16",
    "v_rsq_f16",
    "v_sqrt_f16",
    "v_sin_f16",
    "v_cos_f16",
    "v_ceil_f16",
    "v_floor_f16",
    "v_trunc_f16",
    "v_rndne_f16",
    "v_fract_f16",
    "v_cvt_f16_u16",
    "v_cvt_f16_i16",
    "v_cvt_u16_f16",
    "v_cvt_i16_f16",
    "v_pk_add_f16",
    "v_pk_mul_f16",
    "v_pk_fma_f16",
    "v_pk_max_f16",
    "v_pk_min_f16",
    "v_fma_mix_f32",
    "v_fma_mixlo_f16",
    "v_fma_mixhi_f16",
];
const F64_OPS: &[&str] = &[
    "v_fma_f64",
    "v_add_f64",
    "v_mul_f64",
    "v_div_fmas_f64",
    "v_ceil_f64",
    "v_floor_f64",
    "v_trunc_f64",
    "v_rndne_f64",
    "v_fract_f64",
    "v_frexp_mant_f64",
    "v_ldexp_f64",
    "v_rcp_f64",
    "v_rsq_f64",
    "v_sqrt_f64",
    "v_div_fixup_f64",
    "v_min_f64",
    "v_max_f64",
];

/// Whether `m` is lowered by this module.
pub(super) fn lowered(m: &str, _gfx: Target) -> bool {
    F32_BIN.contains(&m)
        || F32_UN.contains(&m)
        || F16_OPS.contains(&m)
        || F64_OPS.contains(&m)
        || m == "v_cmp_class_f32"
        || m == "v_cmp_class_f16"
        || m == "v_cmp_class_f64"
        || float_cmp(m).is_some()
}

/// Float compare mnemonics: (format, condition).
fn float_cmp(m: &str) -> Option<(Fmt, &str)> {
    let rest = m.strip_prefix("v_cmp_")?;
    let (cond, ty) = rest.rsplit_once('_')?;
    let fmt = match ty {
        "f16" => Fmt::F16,
        "f32" => Fmt::F32,
        "f64" => Fmt::F64,
        _ => return None,
    };
    const CONDS: [&str; 16] = [
        "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq",
        "nlt", "tru",
    ];
    CONDS.contains(&cond).then_some((fmt, cond))
}

/// Per-instruction context: the instruction, its operands and modifiers.
pub(super) struct Ctx<'a> {
    pub(super) inst: &'a Instruction,
    pub(super) srcs: Vec<Operand>,
    pub(super) mods: rdnaprobe_isa::Modifiers,
    pub(super) enc: Encoding,
}

impl Lowerer {
    pub(super) fn flush_in32(&self) -> bool {
        !self.mode.keep_in32()
    }
    pub(super) fn flush_out32(&self) -> bool {
        !self.mode.keep_out32()
    }
    pub(super) fn flush_in16(&self) -> bool {
        !self.mode.keep_in16()
    }
    pub(super) fn flush_out16(&self) -> bool {
        !self.mode.keep_out16()
    }

    pub(super) fn src_op(&self, c: &Ctx, i: usize) -> Result<Operand, String> {
        c.srcs
            .get(i)
            .copied()
            .ok_or_else(|| format!("missing source {i}"))
    }

    /// f32 source `i` as bits, with SDWA select and abs/neg applied (rule: source-modifiers).
    pub(super) fn f32_src(&mut self, c: &Ctx, i: usize) -> Result<Handle, String> {
        let op = self.src_op(c, i)?;
        let mut v = self.read32(&op)?;
        if let Some(sd) = c.mods.sdwa {
            if i < 2 {
                let sel = if i == 0 { sd.src0_sel } else { sd.src1_sel };
                v = self.sdwa_sel(v, sel, false);
            }
        }
        Ok(self.apply_absneg(Fmt::F32, v, c, i))
    }

    pub(super) fn apply_absneg(&mut self, fmt: Fmt, v: Handle, c: &Ctx, i: usize) -> Handle {
        let mut v = v;
        if i < 3 && c.mods.abs[i] {
            v = self.b.abs_bits(fmt, v);
        }
        if i < 3 && c.mods.neg[i] {
            v = self.b.neg_bits(fmt, v);
        }
        v
    }

    /// f16 source `i` in the low 16 bits (VOP3 op_sel picks the high half; SDWA selects;
    /// abs/neg on bit 15).
    pub(super) fn f16_src(&mut self, c: &Ctx, i: usize) -> Result<Handle, String> {
        let op = self.src_op(c, i)?;
        let mut v = self.read32(&op)?;
        if c.enc == Encoding::VOP3 && c.mods.op_sel & (1 << i) != 0 {
            v = self.b.shrc(v, 16);
        }
        if let Some(sd) = c.mods.sdwa {
            if i < 2 {
                let sel = if i == 0 { sd.src0_sel } else { sd.src1_sel };
                v = self.sdwa_sel(v, sel, false);
            }
        }
        let v = self.b.andc(v, 0xffff);
        Ok(self.apply_absneg(Fmt::F16, v, c, i))
    }

    pub(super) fn f64_src(&mut self, c: &Ctx, i: usize) -> Result<Handle, String> {
        let op = self.src_op(c, i)?;
        let v = self.read64(&op, true)?;
        Ok(self.apply_absneg(Fmt::F64, v, c, i))
    }

    /// Result modifiers of an f32 result: omod then clamp (rules: output-modifier, clamp).
    pub(super) fn f32_result(&mut self, c: &Ctx, r: Handle) -> Handle {
        let mut r = r;
        // rule: output-modifier (docs/semantics.md): applied only with IEEE=0 and f32 output
        // denormals flushed, ignored otherwise.
        if c.mods.omod != 0 && !self.mode.ieee && self.flush_out32() {
            let k = match c.mods.omod {
                1 => 2.0,
                2 => 4.0,
                _ => 0.5,
            };
            let b = &mut self.b;
            let nan = b.is_nan(Fmt::F32, r);
            let x = b.f32_to_f64_exact(r);
            let kk = b.cf64(k);
            let y = b.fb(FloatBin::Mul, x, kk);
            let y = b.round_to(Fmt::F32, y, None, self.mode.round32(), true, Tiny::Result);
            r = b.sel(nan, r, y);
        }
        if c.mods.clamp {
            r = self.clamp(Fmt::F32, r);
        }
        r
    }

    /// rule: clamp (docs/semantics.md). Clamps to [0, 1]; a NaN gives +0 with DX10_CLAMP=1 and
    /// stays as it is with DX10_CLAMP=0.
    pub(super) fn clamp(&mut self, fmt: Fmt, r: Handle) -> Handle {
        let dx10 = self.mode.dx10_clamp;
        let b = &mut self.b;
        let nan = b.is_nan(fmt, r);
        let neg = b.sign_of(fmt, r);
        let one = b.cf(fmt, fmt.one());
        let above = b.icmp(IntCmp::GtU, r, one);
        let zero = b.cf(fmt, 0);
        let v = b.sel(above, one, r);
        let v = b.sel(neg, zero, v);
        if dx10 {
            b.sel(nan, zero, v)
        } else {
            b.sel(nan, r, v)
        }
    }

    /// Writes a 16-bit result: VOP3 op_sel[3] writes the high half; SDWA uses dst_sel;
    /// otherwise the low half, keeping bits 31:16 (rule: f16-keeps-high).
    pub(super) fn write16(&mut self, c: &Ctx, r: Handle) -> Result<(), String> {
        let r = self.b.andc(r, 0xffff);
        if c.mods.sdwa.is_some() {
            return self.write_result(c.inst, r);
        }
        let dsts = c.inst.dsts(self.wave);
        let d = *dsts.first().ok_or("no destination")?;
        let old = match d {
            Operand::Reg(reg) if reg.kind == rdnaprobe_isa::RegKind::Vgpr => {
                self.vgpr_get(reg.index)
            }
            _ => self.b.c32(0),
        };
        let hi = c.enc == Encoding::VOP3 && c.mods.op_sel & 8 != 0;
        let keep = c.inst.info().has(flags::KEEPS_HIGH) || c.enc == Encoding::VOP3;
        let v = if hi {
            let lo = self.b.andc(old, 0xffff);
            let s = self.b.shlc(r, 16);
            self.b.or(lo, s)
        } else if keep {
            let h = self.b.andc(old, 0xffff_0000);
            self.b.or(h, r)
        } else {
            r
        };
        self.write_vdst(&d, &[v])
    }

    pub(super) fn write64(&mut self, c: &Ctx, r: Handle) -> Result<(), String> {
        let lo = self.b.trunc64(r);
        let hi = self.b.hi32(r);
        let dsts = c.inst.dsts(self.wave);
        let d = *dsts.first().ok_or("no destination")?;
        self.write_vdst(&d, &[lo, hi])
    }

    /// rule: fp16-overflow (docs/semantics.md): with FP16_OVFL=1 an infinite f16 result from
    /// finite sources becomes ±65504.
    pub(super) fn fp16_ovfl(&mut self, r: Handle, src_inf: Handle) -> Handle {
        if !self.mode.fp16_overflow {
            return r;
        }
        let b = &mut self.b;
        let inf = b.is_inf(Fmt::F16, r);
        let nsi = b.bnot(src_inf);
        let clampit = b.band(inf, nsi);
        let s = b.andc(r, 0x8000);
        let mx = b.orc(s, 0x7bff);
        b.sel(clampit, mx, r)
    }

    pub(super) fn any_inf(&mut self, fmt: Fmt, xs: &[Handle]) -> Handle {
        let mut any = self.b.cb(false);
        for &x in xs {
            let i = self.b.is_inf(fmt, x);
            any = self.b.bor(any, i);
        }
        any
    }
}

/// The exact-then-round arithmetic of add/mul/fma and the legacy forms.
/// rules: nan-propagation, denormal-flush, tininess-after-rounding, legacy-zero, rounding.
#[allow(clippy::too_many_arguments)]
pub(super) fn arith(
    b: &mut Builder,
    fmt: Fmt,
    kind: Arith,
    srcs: &[Handle],
    round: Round,
    flush_in: bool,
    flush_out: bool,
    ieee: bool,
) -> Handle {
    let legacy = matches!(kind, Arith::MulLegacy | Arith::FmaLegacy | Arith::MadLegacy);
    // rule: legacy-mad: the legacy forms flush their sources in every denormal mode
    let flush_in = flush_in || kind == Arith::MadLegacy;
    let flush_out = flush_out || kind == Arith::MadLegacy;
    let s: Vec<Handle> = srcs.iter().map(|&x| b.flush_if(fmt, x, flush_in)).collect();
    let w: Vec<Handle> = s.iter().map(|&x| b.to_f64(fmt, x)).collect();
    let dn = b.cf(fmt, fmt.default_nan());
    match kind {
        Arith::Add => {
            let (any_nan, pick) = b.first_nan(fmt, &s, ieee);
            let ia = b.is_inf(fmt, s[0]);
            let ib = b.is_inf(fmt, s[1]);
            let x = b.xor(s[0], s[1]);
            let diff = b.bit(x, fmt.sign_mask());
            let both = b.band(ia, ib);
            let invalid = b.band(both, diff);
            let v = b.round_sum(fmt, w[0], w[1], round, flush_out, Tiny::Result);
            let v = b.sel(invalid, dn, v);
            b.sel(any_nan, pick, v)
        }
        Arith::Mul | Arith::MulLegacy => {
            let (any_nan, pick) = b.first_nan(fmt, &s[..2], ieee);
            let za = b.is_zero(fmt, s[0]);
            let zb = b.is_zero(fmt, s[1]);
            let ia = b.is_inf(fmt, s[0]);
            let ib = b.is_inf(fmt, s[1]);
            let i1 = b.band(za, ib);
            let i2 = b.band(ia, zb);
            let invalid = b.bor(i1, i2);
            let p = b.fb(FloatBin::Mul, w[0], w[1]);
            let v = b.round_to(fmt, p, None, round, flush_out, Tiny::AfterRounding);
            let v = b.sel(invalid, dn, v);
            let v = b.sel(any_nan, pick, v);
            if legacy {
                // rule: legacy-zero: a zero factor gives +0 even against inf or NaN
                let z = b.bor(za, zb);
                let pz = b.cf(fmt, 0);
                b.sel(z, pz, v)
            } else {
                v
            }
        }
        Arith::Fma | Arith::FmaLegacy | Arith::MadLegacy => {
            let (any_nan, pick) = b.first_nan(fmt, &s[..3], ieee);
            let za = b.is_zero(fmt, s[0]);
            let zb = b.is_zero(fmt, s[1]);
            let ia = b.is_inf(fmt, s[0]);
            let ib = b.is_inf(fmt, s[1]);
            let zc = b.is_zero(fmt, s[2]);
            let ic = b.is_inf(fmt, s[2]);
            let i1 = b.band(za, ib);
            let i2 = b.band(ia, zb);
            let inv_prod = b.bor(i1, i2);
            let pzero = b.bor(za, zb);
            let pinf0 = b.bor(ia, ib);
            let npz = b.bnot(pzero);
            let pinf = b.band(pinf0, npz);
            let x0 = b.xor(s[0], s[1]);
            let x3 = b.xor(x0, s[2]);
            let sd = b.bit(x3, fmt.sign_mask());
            let pi_ci = b.band(pinf, ic);
            let inv_sum = b.band(pi_ci, sd);
            let mut p = b.fb(FloatBin::Mul, w[0], w[1]);
            let mut pbits_zero = pzero;
            if legacy {
                // rule: legacy-zero: the product of a zero factor is +0
                let z = b.cf64(0.0);
                p = b.sel(pzero, z, p);
            }
            if kind == Arith::MadLegacy {
                // rule: legacy-mad: the product is rounded to f32 (tiny on its exact value:
                // flushed) before the add
                let prb = b.round_to(fmt, p, None, round, true, Tiny::BeforeRounding);
                pbits_zero = b.is_zero(fmt, prb);
                let pz = b.cf(fmt, 0);
                let prb = b.sel(pzero, pz, prb);
                p = b.to_f64(fmt, prb);
            }
            let sum = b.round_sum(fmt, p, w[2], round, flush_out, Tiny::Result);
            let mul_only = b.round_to(fmt, p, None, round, flush_out, Tiny::AfterRounding);
            // rule: tininess-after-rounding: with a zero addend the fused op flushes like a
            // multiply; a zero product takes the sum's zero sign rule
            let pz = if kind == Arith::MadLegacy {
                pbits_zero
            } else {
                pzero
            };
            let npz2 = b.bnot(pz);
            let use_mul = b.band(zc, npz2);
            let v = b.sel(use_mul, mul_only, sum);
            let v = b.sel(inv_sum, dn, v);
            let v = b.sel(any_nan, pick, v);
            if legacy {
                // legacy: a zero factor hides a NaN or infinite factor; a NaN src2 still wins
                let nan_c = b.is_nan(fmt, s[2]);
                let qc = b.nan_out(fmt, s[2], ieee);
                let zsum = b.round_sum(fmt, p, w[2], round, flush_out, Tiny::Result);
                let zr = b.sel(nan_c, qc, zsum);
                let zr = b.sel(ic, s[2], zr);
                b.sel(pzero, zr, v)
            } else {
                // an invalid product gives the default NaN even when src2 is a NaN
                b.sel(inv_prod, dn, v)
            }
        }
    }
}

/// Total-order key of float bits for min/max (-0 below +0); NaNs must be handled apart.
fn order_key(b: &mut Builder, fmt: Fmt, x: Handle) -> Handle {
    let s = b.sign_of(fmt, x);
    let m = b.abs_bits(fmt, x);
    let nm = b.iu(IntUn::Not, m);
    b.sel(s, nm, m)
}

/// rule: minmax-nan (docs/semantics.md). With IEEE=1 a signaling NaN operand wins, quieted;
/// otherwise a NaN operand is ignored (the first operand is returned when both are NaN).
pub(super) fn minmax(
    b: &mut Builder,
    fmt: Fmt,
    x: Handle,
    y: Handle,
    max: bool,
    ieee: bool,
) -> Handle {
    let kx = order_key(b, fmt, x);
    let ky = order_key(b, fmt, y);
    let op = if max { IntCmp::GtS } else { IntCmp::LtS };
    let c = b.icmp(op, ky, kx);
    let plain = b.sel(c, y, x);
    let nx = b.is_nan(fmt, x);
    let ny = b.is_nan(fmt, y);
    let r = b.sel(nx, y, plain);
    let r = b.sel(ny, x, r);
    if ieee {
        let sx = b.is_snan(fmt, x);
        let sy = b.is_snan(fmt, y);
        let qx = b.quiet(fmt, x);
        let qy = b.quiet(fmt, y);
        let r = b.sel(sy, qy, r);
        b.sel(sx, qx, r)
    } else {
        r
    }
}

/// Median of three (rule: minmax-nan): a NaN operand makes it min3, as the ISA manual says.
pub(super) fn med3(
    b: &mut Builder,
    fmt: Fmt,
    x: Handle,
    y: Handle,
    z: Handle,
    ieee: bool,
) -> Handle {
    let n0 = b.is_nan(fmt, x);
    let n1 = b.is_nan(fmt, y);
    let n2 = b.is_nan(fmt, z);
    let a = b.bor(n0, n1);
    let any = b.bor(a, n2);
    let mn = minmax(b, fmt, x, y, false, ieee);
    let min3 = minmax(b, fmt, mn, z, false, ieee);
    let mx = minmax(b, fmt, x, y, true, ieee);
    let t = minmax(b, fmt, mx, z, false, ieee);
    let med = minmax(b, fmt, mn, t, true, ieee);
    b.sel(any, min3, med)
}

/// Sign-magnitude ordering compare of float bits with the NaN cases apart
/// (rule: float-compare).
fn fcompare(b: &mut Builder, fmt: Fmt, x: Handle, y: Handle, cond: &str) -> Handle {
    let nx = b.is_nan(fmt, x);
    let ny = b.is_nan(fmt, y);
    let un = b.bor(nx, ny);
    // ±0 compare equal
    let zx = b.is_zero(fmt, x);
    let zy = b.is_zero(fmt, y);
    let zz = b.band(zx, zy);
    let zero = b.cf(fmt, 0);
    let x = b.sel(zz, zero, x);
    let y = b.sel(zz, zero, y);
    let kx = order_key(b, fmt, x);
    let ky = order_key(b, fmt, y);
    let lt = b.icmp(IntCmp::LtS, kx, ky);
    let eq = b.icmp(IntCmp::Eq, kx, ky);
    let gt = b.icmp(IntCmp::GtS, kx, ky);
    let ord = b.bnot(un);
    let le = b.bor(lt, eq);
    let ge = b.bor(gt, eq);
    let ne = b.bnot(eq);
    let (base, unordered_true) = match cond {
        "f" => return b.cb(false),
        "tru" => return b.cb(true),
        "lt" => (lt, false),
        "eq" => (eq, false),
        "le" => (le, false),
        "gt" => (gt, false),
        "lg" => (ne, false),
        "ge" => (ge, false),
        "o" => return ord,
        "u" => return un,
        "nge" => (lt, true),
        "nlg" => (eq, true),
        "ngt" => (le, true),
        "nle" => (gt, true),
        "neq" => (ne, true),
        _ => (ge, true), // nlt
    };
    if unordered_true {
        b.bor(un, base)
    } else {
        b.band(ord, base)
    }
}

/// v_cmp_class_*: bit tests of the class mask (0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
/// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
fn class_bits(b: &mut Builder, fmt: Fmt, x: Handle, mask: Handle) -> Handle {
    let snan = b.is_snan(fmt, x);
    let nan = b.is_nan(fmt, x);
    let qnan = {
        let ns = b.bnot(snan);
        b.band(nan, ns)
    };
    let inf = b.is_inf(fmt, x);
    let zero = b.is_zero(fmt, x);
    let den = b.is_denorm(fmt, x);
    let neg = b.sign_of(fmt, x);
    let pos = b.bnot(neg);
    let a = b.bor(nan, inf);
    let a = b.bor(a, zero);
    let a = b.bor(a, den);
    let normal = b.bnot(a);
    let classes = [
        snan,
        qnan,
        b.band(neg, inf),
        b.band(neg, normal),
        b.band(neg, den),
        b.band(neg, zero),
        b.band(pos, zero),
        b.band(pos, den),
        b.band(pos, normal),
        b.band(pos, inf),
    ];
    let mut any = b.cb(false);
    for (i, c) in classes.into_iter().enumerate() {
        let bit = b.bit(mask, 1 << i);
        let t = b.band(bit, c);
        any = b.bor(any, t);
    }
    any
}

pub(super) fn lower(l: &mut Lowerer, inst: &Instruction, m: &str) -> Result<(), String> {
    let c = Ctx {
        inst,
        srcs: inst.srcs(l.wave),
        mods: inst.modifiers(),
        enc: inst.encoding(),
    };
    if let Some((fmt, cond)) = float_cmp(m) {
        let (x, y) = match fmt {
            Fmt::F16 => (l.f16_src(&c, 0)?, l.f16_src(&c, 1)?),
            Fmt::F32 => (l.f32_src(&c, 0)?, l.f32_src(&c, 1)?),
            Fmt::F64 => (l.f64_src(&c, 0)?, l.f64_src(&c, 1)?),
        };
        // rule: f32-denormals: compares flush their inputs with input flushing
        let fl = if fmt == Fmt::F32 {
            l.flush_in32()
        } else {
            l.flush_in16()
        };
        let x = l.b.flush_if(fmt, x, fl);
        let y = l.b.flush_if(fmt, y, fl);
        let r = fcompare(&mut l.b, fmt, x, y, cond);
        let d = l.cmp_dst(inst)?;
        return l.write_mask(&d, r);
    }
    if m.starts_with("v_cmp_class_") {
        let fmt = match m {
            "v_cmp_class_f16" => Fmt::F16,
            "v_cmp_class_f32" => Fmt::F32,
            _ => Fmt::F64,
        };
        let x = match fmt {
            Fmt::F16 => l.f16_src(&c, 0)?,
            Fmt::F32 => l.f32_src(&c, 0)?,
            Fmt::F64 => l.f64_src(&c, 0)?,
        };
        let op1 = l.src_op(&c, 1)?;
        let mask = l.read32(&op1)?;
        let r = class_bits(&mut l.b, fmt, x, mask);
        let d = l.cmp_dst(inst)?;
        return l.write_mask(&d, r);
    }
    if F32_BIN.contains(&m) {
        return f32_bin(l, &c, m);
    }
    if F32_UN.contains(&m) {
        return f32_un(l, &c, m);
    }
    if F16_OPS.contains(&m) {
        return super::float16::lower16(l, &c, m);
    }
    if F64_OPS.contains(&m) {
        return super::float64::lower64(l, &c, m);
    }
    Err(format!("{m} has no lowering"))
}

fn f32_bin(l: &mut Lowerer, c: &Ctx, m: &str) -> Result<(), String> {
    let ieee = l.mode.ieee;
    let round = l.mode.round32();
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let rdna1 = l.gfx.is_rdna1();
    let r = match m {
        "v_add_f32" | "v_sub_f32" | "v_subrev_f32" => {
            let mut a = l.f32_src(c, 0)?;
            let mut bb = l.f32_src(c, 1)?;
            if m == "v_subrev_f32" {
                std::mem::swap(&mut a, &mut bb);
            }
            if m != "v_add_f32" {
                // the hardware adds the negated subtrahend (rule: nan-propagation)
                bb = l.b.neg_bits(Fmt::F32, bb);
            }
            arith(
                &mut l.b,
                Fmt::F32,
                Arith::Add,
                &[a, bb],
                round,
                fi,
                fo,
                ieee,
            )
        }
        "v_mul_f32" | "v_mul_legacy_f32" => {
            let a = l.f32_src(c, 0)?;
            let bb = l.f32_src(c, 1)?;
            let k = if m == "v_mul_f32" {
                Arith::Mul
            } else {
                Arith::MulLegacy
            };
            arith(&mut l.b, Fmt::F32, k, &[a, bb], round, fi, fo, ieee)
        }
        "v_fma_f32" | "v_fmac_f32" | "v_fmamk_f32" | "v_fmaak_f32" | "v_fma_legacy_f32"
        | "v_fmac_legacy_f32" | "v_mad_legacy_f32" | "v_mac_legacy_f32" => {
            let a = l.f32_src(c, 0)?;
            let bb = l.f32_src(c, 1)?;
            let cc = if m.contains("fmac") || m.contains("mac_legacy") {
                // the accumulator is the destination register
                let dsts = c.inst.dsts(l.wave);
                let d = *dsts.first().ok_or("no destination")?;
                l.read32(&d)?
            } else {
                l.f32_src(c, 2)?
            };
            let kind = match m {
                "v_fma_legacy_f32" | "v_fmac_legacy_f32" if rdna1 => Arith::MadLegacy,
                "v_mad_legacy_f32" | "v_mac_legacy_f32" => Arith::MadLegacy,
                "v_fma_legacy_f32" | "v_fmac_legacy_f32" => Arith::FmaLegacy,
                _ => Arith::Fma,
            };
            arith(&mut l.b, Fmt::F32, kind, &[a, bb, cc], round, fi, fo, ieee)
        }
        "v_min_f32" | "v_max_f32" => {
            let a = l.f32_src(c, 0)?;
            let bb = l.f32_src(c, 1)?;
            let a = l.b.flush_if(Fmt::F32, a, fi);
            let bb = l.b.flush_if(Fmt::F32, bb, fi);
            let r = minmax(&mut l.b, Fmt::F32, a, bb, m == "v_max_f32", ieee);
            l.b.flush_if(Fmt::F32, r, fo)
        }
        "v_min3_f32" | "v_max3_f32" | "v_med3_f32" => {
            let mut s = Vec::new();
            for i in 0..3 {
                let x = l.f32_src(c, i)?;
                s.push(l.b.flush_if(Fmt::F32, x, fi));
            }
            let b = &mut l.b;
            let r = match m {
                "v_med3_f32" => med3(b, Fmt::F32, s[0], s[1], s[2], ieee),
                _ => {
                    let mx = m == "v_max3_f32";
                    let t = minmax(b, Fmt::F32, s[0], s[1], mx, ieee);
                    minmax(b, Fmt::F32, t, s[2], mx, ieee)
                }
            };
            l.b.flush_if(Fmt::F32, r, fo)
        }
        "v_ldexp_f32" => {
            let a = l.f32_src(c, 0)?;
            let op1 = l.src_op(c, 1)?;
            let n = l.read32(&op1)?;
            ldexp(l, Fmt::F32, a, n, fi, fo, round, Tiny::Result)
        }
        "v_mullit_f32" => mullit(l, c)?,
        "v_div_scale_f32" => return div_scale32(l, c),
        "v_div_fmas_f32" => {
            let a = l.f32_src(c, 0)?;
            let bb = l.f32_src(c, 1)?;
            let cc = l.f32_src(c, 2)?;
            let vcc_op = rdnaprobe_isa::Operand::Reg(rdnaprobe_isa::Reg {
                kind: rdnaprobe_isa::RegKind::Vcc,
                index: 0,
                count: if l.wave == rdnaprobe_isa::Wave::W64 {
                    2
                } else {
                    1
                },
            });
            let vcc = l.read_mask(&vcc_op)?;
            div_fmas32(l, a, bb, cc, vcc)
        }
        "v_div_fixup_f32" => {
            let a = l.f32_src(c, 0)?;
            let bb = l.f32_src(c, 1)?;
            let cc = l.f32_src(c, 2)?;
            div_fixup(l, Fmt::F32, a, bb, cc)
        }
        _ => return Err(format!("{m} has no lowering")),
    };
    let r = l.f32_result(c, r);
    l.write_result(c.inst, r)
}

/// rule: ldexp: the exact x * 2^n rounded once in the mode (denormal results too).
#[allow(clippy::too_many_arguments)]
pub(super) fn ldexp(
    l: &mut Lowerer,
    fmt: Fmt,
    x: Handle,
    n: Handle,
    fi: bool,
    fo: bool,
    round: Round,
    tiny: Tiny,
) -> Handle {
    let ieee = l.mode.ieee;
    let b = &mut l.b;
    let x = b.flush_if(fmt, x, fi);
    // clamp n to [-400, 400]: beyond that every finite result has already over/underflowed
    let lo = b.c32((-400i32) as u32);
    let hi = b.c32(400);
    let below = b.icmp(IntCmp::LtS, n, lo);
    let n = b.sel(below, lo, n);
    let above = b.icmp(IntCmp::GtS, n, hi);
    let n = b.sel(above, hi, n);
    let e = b.addc(n, 1023);
    let e64 = b.zext(e);
    let p = b.shlc(e64, 52);
    let p = b.f64_of(p);
    let w = b.to_f64(fmt, x);
    let v = b.fb(FloatBin::Mul, w, p);
    let r = b.round_to(fmt, v, None, round, fo, tiny);
    let nan = b.is_nan(fmt, x);
    let q = b.nan_out(fmt, x, ieee);
    let r = b.sel(nan, q, r);
    let inf = b.is_inf(fmt, x);
    let r = b.sel(inf, x, r);
    let z = b.is_zero(fmt, x);
    b.sel(z, x, r)
}

/// rule: mullit: v_mullit_f32 (the LIT helper). D = S0 * S1 unless S1 or S2 says "unlit": a
/// NaN S2 or S2 <= 0, or S1 equal to -max/-inf/NaN gives -max (0xff7fffff).
fn mullit(l: &mut Lowerer, c: &Ctx) -> Result<Handle, String> {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let round = l.mode.round32();
    let a = l.f32_src(c, 0)?;
    let s1 = l.f32_src(c, 1)?;
    let s2 = l.f32_src(c, 2)?;
    let b = &mut l.b;
    let s1f = b.flush_if(Fmt::F32, s1, fi);
    let s2f = b.flush_if(Fmt::F32, s2, fi);
    let p = arith(b, Fmt::F32, Arith::MulLegacy, &[a, s1], round, fi, fo, ieee);
    let nan2 = b.is_nan(Fmt::F32, s2f);
    let neg2 = b.sign_of(Fmt::F32, s2f);
    let z2 = b.is_zero(Fmt::F32, s2f);
    let le0 = b.bor(neg2, z2);
    let n1 = b.is_nan(Fmt::F32, s1f);
    let m1 = b.eqc(s1f, 0xff7f_ffff);
    let i1 = b.eqc(s1f, 0xff80_0000);
    let bad1 = b.bor(n1, m1);
    let bad1 = b.bor(bad1, i1);
    let unlit = b.bor(nan2, le0);
    let unlit = b.bor(unlit, bad1);
    let nm = b.c32(0xff7f_ffff);
    Ok(b.sel(unlit, nm, p))
}

/// rule: div-scale (docs/semantics.md). S1 is the denominator, S2 the numerator; with
/// d = exponent(S2) - exponent(S1) on the biased exponent fields (255 for inf/NaN), the first
/// matching case decides: d >= 96: VCC, S0 == S1 scaled by 2^64; S1 denormal: 2^64;
/// exponent(S1) >= 253 and d <= -96: VCC, S0 == S1 scaled by 2^-64; exponent(S1) >= 253: 2^-64;
/// d <= -96: VCC, S0 != S1 scaled by 2^64; exponent(S2) <= 23: 2^64. A zero S1 or S2 gives the
/// default NaN (VCC still from the cases). Inputs are flushed with f32 input flushing; NaNs are
/// never quietened.
fn div_scale32(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    let fi = l.flush_in32();
    let s0 = l.f32_src(c, 0)?;
    let s1 = l.f32_src(c, 1)?;
    let s2 = l.f32_src(c, 2)?;
    let b = &mut l.b;
    let s0 = b.flush_if(Fmt::F32, s0, fi);
    let s1 = b.flush_if(Fmt::F32, s1, fi);
    let s2 = b.flush_if(Fmt::F32, s2, fi);
    let exp = |b: &mut Builder, x: Handle| {
        let e = b.shrc(x, 23);
        b.andc(e, 0xff)
    };
    let e1 = exp(b, s1);
    let e2 = exp(b, s2);
    let scale = |b: &mut Builder, x: Handle, k: i32| {
        // x * 2^k rounded to f32 (NaN, infinity and zero unchanged)
        let w = b.f32_to_f64_exact(x);
        let f = b.cf64(2f64.powi(k));
        let v = b.fb(FloatBin::Mul, w, f);
        let r = b.round_to(Fmt::F32, v, None, Round::NearestEven, false, Tiny::Result);
        let n = b.is_nan(Fmt::F32, x);
        b.sel(n, x, r)
    };
    let up = scale(b, s0, 64);
    let down = scale(b, s0, -64);
    let d = b.sub(e2, e1);
    let big = b.icmpc(IntCmp::GeS, d, 96);
    let small = b.icmpc(IntCmp::LeS, d, (-96i32) as u32 as u64);
    let den1 = b.is_denorm(Fmt::F32, s1);
    let huge1 = b.icmpc(IntCmp::GeU, e1, 253);
    let tiny2 = b.icmpc(IntCmp::LeU, e2, 23);
    let eq01 = b.icmp(IntCmp::Eq, s0, s1);
    let t = b.cb(true);
    let f = b.cb(false);
    // the chain, evaluated from its last case to its first
    let mut r = b.sel(tiny2, up, s0);
    let mut vcc = f;
    let r6 = b.sel(eq01, s0, up);
    r = b.sel(small, r6, r);
    vcc = b.sel(small, t, vcc);
    r = b.sel(huge1, down, r);
    vcc = b.sel(huge1, f, vcc);
    let c4 = b.band(huge1, small);
    let r4 = b.sel(eq01, down, s0);
    r = b.sel(c4, r4, r);
    vcc = b.sel(c4, t, vcc);
    r = b.sel(den1, up, r);
    vcc = b.sel(den1, f, vcc);
    let r2 = b.sel(eq01, up, s0);
    r = b.sel(big, r2, r);
    vcc = b.sel(big, t, vcc);
    let z1 = b.is_zero(Fmt::F32, s1);
    let z2 = b.is_zero(Fmt::F32, s2);
    let zero = b.bor(z1, z2);
    let dnan = b.c32(0xffc0_0000);
    r = b.sel(zero, dnan, r);
    l.write_result(c.inst, r)?;
    let dsts = c.inst.dsts(l.wave);
    let sd = *dsts
        .get(1)
        .ok_or("v_div_scale_f32 without a mask destination")?;
    l.write_mask(&sd, vcc)
}

/// rule: div-fmas: fma(S0, S1, S2), scaled by 2^64 (|S2| >= 2) or 2^-64 when VCC is set, rounded
/// once; only the result is flushed.
fn div_fmas32(l: &mut Lowerer, a: Handle, bb: Handle, cc: Handle, vcc: Handle) -> Handle {
    let ieee = l.mode.ieee;
    let fo = l.flush_out32();
    let round = l.mode.round32();
    let b = &mut l.b;
    let plain = arith(
        b,
        Fmt::F32,
        Arith::Fma,
        &[a, bb, cc],
        round,
        false,
        fo,
        ieee,
    );
    let wa = b.f32_to_f64_exact(a);
    let wb = b.f32_to_f64_exact(bb);
    let wc = b.f32_to_f64_exact(cc);
    let ec = b.shrc(cc, 23);
    let ec = b.andc(ec, 0xff);
    let big = b.icmpc(IntCmp::GeU, ec, 128);
    let up = b.cf64(2f64.powi(64));
    let dn = b.cf64(2f64.powi(-64));
    let k = b.sel(big, up, dn);
    let p = b.fb(FloatBin::Mul, wa, wb);
    let (s, err) = b.two_sum(p, wc);
    let s = b.fb(FloatBin::Mul, s, k);
    let err = b.fb(FloatBin::Mul, err, k);
    let scaled = b.round_to(Fmt::F32, s, Some(err), round, fo, Tiny::Result);
    let sp = b.is_nan(Fmt::F32, plain);
    let ia = b.is_inf(Fmt::F32, a);
    let ib = b.is_inf(Fmt::F32, bb);
    let ic = b.is_inf(Fmt::F32, cc);
    let special = b.bor(sp, ia);
    let special = b.bor(special, ib);
    let special = b.bor(special, ic);
    let zf = b.cf64(0.0);
    let zs = b.fcmp(FloatCmp::OrdEq, s, zf);
    let special = b.bor(special, zs);
    let scaled = b.sel(special, plain, scaled);
    b.sel(vcc, scaled, plain)
}

/// rule: div-fixup (ISA manual V_DIV_FIXUP): S0 quotient, S1 denominator, S2 numerator.
pub(super) fn div_fixup(l: &mut Lowerer, fmt: Fmt, s0: Handle, s1: Handle, s2: Handle) -> Handle {
    let ieee = l.mode.ieee;
    let fi = match fmt {
        Fmt::F32 => l.flush_in32(),
        _ => l.flush_in16(),
    };
    let b = &mut l.b;
    // rule: f32-denormals: div_fixup flushes S1 and S2, keeps S0 and the result
    let s1 = b.flush_if(fmt, s1, fi);
    let s2 = b.flush_if(fmt, s2, fi);
    let x = b.xor(s1, s2);
    let sign_out = b.andc(x, fmt.sign_mask());
    let n2 = b.is_nan(fmt, s2);
    let n1 = b.is_nan(fmt, s1);
    let n0 = b.is_nan(fmt, s0);
    let z1 = b.is_zero(fmt, s1);
    let z2 = b.is_zero(fmt, s2);
    let i1 = b.is_inf(fmt, s1);
    let i2 = b.is_inf(fmt, s2);
    let dn = b.cf(fmt, fmt.default_nan());
    let inf = b.cf(fmt, fmt.exp_mask());
    let sinf = b.or(sign_out, inf);
    let a0 = b.abs_bits(fmt, s0);
    let plain = b.or(sign_out, a0);
    let mut r = plain;
    // a NaN quotient from ordinary operands becomes the signed infinity (overflow)
    r = b.sel(n0, sinf, r);
    // exponent(S2) - exponent(S1) below -(bias + mantissa bits): the signed zero (underflow)
    let sh = fmt.mbits();
    let em = fmt.exp_mask();
    let e1 = b.andc(s1, em);
    let e1 = b.shrc(e1, sh);
    let e2 = b.andc(s2, em);
    let e2 = b.shrc(e2, sh);
    let d = b.sub(e2, e1);
    let lim = -(fmt.bias() + i64::from(fmt.mbits())) as u64;
    let lim = if fmt.ity() == Ty::U32 {
        lim & 0xffff_ffff
    } else {
        lim
    };
    let under = b.icmpc(IntCmp::LtS, d, lim);
    r = b.sel(under, sign_out, r);
    // |S1| inf or S2 zero: signed zero
    let zc = b.bor(i1, z2);
    r = b.sel(zc, sign_out, r);
    // S1 zero or |S2| inf: signed infinity
    let ic = b.bor(z1, i2);
    r = b.sel(ic, sinf, r);
    let both_inf = b.band(i1, i2);
    r = b.sel(both_inf, dn, r);
    let both_zero = b.band(z1, z2);
    r = b.sel(both_zero, dn, r);
    let q1 = b.nan_out(fmt, s1, ieee);
    r = b.sel(n1, q1, r);
    let q2 = b.nan_out(fmt, s2, ieee);
    b.sel(n2, q2, r)
}

/// sin or cos of `w` revolutions (an F64), the argument reduced exactly to [0, 1) before the
/// driver's function, with exact zeros at the half and whole turns (sine) and the odd quarter
/// turns (cosine). Shared by the f32 and f16 forms.
// rule: trig-revolutions (docs/semantics.md)
pub(super) fn revolutions_trig(b: &mut Builder, w: Handle, sine: bool) -> Handle {
    let fl = b.fu(FloatUn::Floor, w);
    let fr = b.fb(FloatBin::Sub, w, fl);
    let tp = b.cf64(std::f64::consts::TAU);
    let ang = b.fb(FloatBin::Mul, fr, tp);
    let op = if sine { FloatUn::Sin } else { FloatUn::Cos };
    let v = b.fu(op, ang);
    let four = b.cf64(4.0);
    let f4 = b.fb(FloatBin::Mul, fr, four);
    let f4r = b.fu(FloatUn::RoundEven, f4);
    let on_quarter = b.fcmp(FloatCmp::OrdEq, f4, f4r);
    let q4 = b.cvt(Convert::F64ToU32, f4r, Ty::U32);
    let odd = b.bit(q4, 1);
    let is_zero_pt = if sine { b.bnot(odd) } else { odd };
    let z_here = b.band(on_quarter, is_zero_pt);
    let zf = b.cf64(0.0);
    b.sel(z_here, zf, v)
}

/// The f32 unary operations; the transcendentals are computed in f64 and rounded once.
// rule: transcendental-approximation
fn f32_un(l: &mut Lowerer, c: &Ctx, m: &str) -> Result<(), String> {
    let ieee = l.mode.ieee;
    let round = l.mode.round32();
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    // sources of another type
    match m {
        "v_cvt_f32_i32" | "v_cvt_f32_u32" => {
            let op = l.src_op(c, 0)?;
            let x = l.read32(&op)?;
            let b = &mut l.b;
            let cv = if m == "v_cvt_f32_i32" {
                Convert::S32ToF64
            } else {
                Convert::U32ToF64
            };
            let w = b.cvt(cv, x, Ty::F64);
            let r = b.round_to(Fmt::F32, w, None, round, fo, Tiny::Result);
            let r = l.f32_result(c, r);
            return l.write_result(c.inst, r);
        }
        "v_cvt_f32_f16" => {
            let x = l.f16_src(c, 0)?;
            let x = l.b.flush_if(Fmt::F16, x, l.flush_in16());
            let nan = l.b.is_nan(Fmt::F16, x);
            let r = l.b.f16_to_f32_bits(x);
            let q = l.b.nan_out(Fmt::F32, r, ieee);
            let r = l.b.sel(nan, q, r);
            let r = l.f32_result(c, r);
            return l.write_result(c.inst, r);
        }
        "v_cvt_f32_f64" => {
            let x = l.f64_src(c, 0)?;
            let b = &mut l.b;
            let x = b.flush_if(Fmt::F64, x, !l.mode.keep_in16());
            let w = b.f64_of(x);
            let r = b.round_to(Fmt::F32, w, None, round, fo, Tiny::Result);
            let nan = b.is_nan(Fmt::F64, x);
            // rule: snan-ieee: v_cvt_f32_f64 always quiets
            let hi = b.hi32(x);
            let sgn = b.andc(hi, 0x8000_0000);
            let pay = b.shrc(x, 29);
            let pay = b.trunc64(pay);
            let pay = b.andc(pay, 0x3f_ffff);
            let q = b.orc(pay, 0x7fc0_0000);
            let q = b.or(q, sgn);
            let r = b.sel(nan, q, r);
            let r = l.f32_result(c, r);
            return l.write_result(c.inst, r);
        }
        _ => {}
    }
    let x0 = l.f32_src(c, 0)?;
    let b = &mut l.b;
    // rule: transcendental-denormal-input: rcp, rsq, sqrt and log read a denormal as zero in
    // every mode
    let always = matches!(
        m,
        "v_rcp_f32" | "v_rcp_iflag_f32" | "v_rsq_f32" | "v_sqrt_f32" | "v_log_f32"
    );
    let x = b.flush_if(Fmt::F32, x0, fi || always);
    let u = Unary::new(b, Fmt::F32, x, ieee, round, fo);
    let (w, nan, inf) = (u.w, u.nan, u.inf);
    let int_result = match m {
        "v_frexp_exp_i32_f32" => Some(u.frexp_exp(b)),
        "v_cvt_flr_i32_f32" | "v_cvt_rpi_i32_f32" | "v_cvt_i32_f32" | "v_cvt_u32_f32" => {
            let v = match m {
                "v_cvt_flr_i32_f32" => b.fu(FloatUn::Floor, w),
                "v_cvt_rpi_i32_f32" => {
                    let h = b.cf64(0.5);
                    let s = b.fb(FloatBin::Add, w, h);
                    b.fu(FloatUn::Floor, s)
                }
                _ => b.fu(FloatUn::Trunc, w),
            };
            let (lo, hi, cv) = if m == "v_cvt_u32_f32" {
                (0.0, 4294967295.0, Convert::F64ToU32)
            } else {
                (-2147483648.0, 2147483647.0, Convert::F64ToS32)
            };
            let lo_c = b.cf64(lo);
            let hi_c = b.cf64(hi);
            let below = b.fcmp(FloatCmp::OrdLt, v, lo_c);
            let v = b.sel(below, lo_c, v);
            let above = b.fcmp(FloatCmp::OrdGt, v, hi_c);
            let v = b.sel(above, hi_c, v);
            let r = b.cvt(cv, v, Ty::U32);
            let nan_v = if matches!(m, "v_cvt_flr_i32_f32" | "v_cvt_rpi_i32_f32") {
                0x7fff_ffff
            } else {
                0
            };
            let z = b.c32(nan_v);
            Some(b.sel(nan, z, r))
        }
        _ => None,
    };
    if let Some(r) = int_result {
        return l.write_result(c.inst, r);
    }
    let r = match m.strip_suffix("_f32").and_then(|op| u.rule(b, op)) {
        Some(r) => r,
        None => match m {
            "v_cvt_f16_f32" => {
                // rule: f16-directed-rounding: round16 applies only with f16 denormals kept
                let r16 = if l.mode.denorm16 == 3 {
                    l.mode.round16()
                } else {
                    Round::NearestEven
                };
                let fo16 = !l.mode.keep_out16();
                let r = b.round_to(Fmt::F16, w, None, r16, fo16, Tiny::Result);
                let qn = b.nan32_to_16(x);
                let r = b.sel(nan, qn, r);
                let r = l.fp16_ovfl(r, inf);
                let r = if c.mods.clamp {
                    l.clamp(Fmt::F16, r)
                } else {
                    r
                };
                return l.write16(c, r);
            }
            "v_cvt_f64_f32" => {
                // exact widening; NaN quieted only with IEEE=1
                let wb = b.bits_of_f64(w);
                let qb = b.orc(wb, 1 << 51);
                let nr = if ieee { qb } else { wb };
                let r = b.sel(nan, nr, wb);
                return l.write64(c, r);
            }
            _ => return Err(format!("{m} has no lowering")),
        },
    };
    let r = l.f32_result(c, r);
    l.write_result(c.inst, r)
}
