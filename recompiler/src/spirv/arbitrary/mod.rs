//! Random well-typed IR kernels for differential testing of the IR's executors (SPIR-V on a
//! Vulkan driver against the CPU model). A kernel is a deterministic function of its seed and
//! [`GenOptions`], so a failing seed printed by a test reproduces exactly.
//!
//! The generator draws every [`Expr`] variant with every operand type the IR allows, feeds it
//! with the lane's inputs, the lane id and special constants (signed zeros, infinities, NaNs,
//! denormals, extreme integers), and routes the last values of every type into the sixteen
//! outputs. Half of the `F64ToS32`/`F64ToU32` conversions get their operand clamped first, as
//! the lowering does; the others reach the IR's saturation and NaN-to-zero rules.

mod pools;
mod wave;

pub use pools::{Rng, F32_SPECIALS, F64_SPECIALS, U32_SPECIALS};
pub use wave::with_cross_lane;

use crate::ir::{Convert, Expr, FloatBin, FloatCmp, FloatUn, Handle, IntBin, IntCmp};
use crate::ir::{Kernel, Ty};
use pools::{FLOAT_CMPS, FLOAT_UNS, INT_BINS, INT_CMPS, INT_UNS};

/// What the generated kernels may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// Number of random operations per kernel (the scaffolding adds a few more).
    pub ops: usize,
    /// Allow `F64` and `U64` values.
    pub wide: bool,
    /// Allow the approximate unary operations ([`FloatUn::is_approximate`]).
    pub approximate: bool,
    /// Allow `FloatBin::Div` and `FloatUn::Sqrt` (correctly rounded in the IR, but Vulkan
    /// only requires 2.5 ULP and drivers derive sqrt from inverse sqrt).
    pub div_sqrt: bool,
    /// Allow `Fma`. Vulkan lets a driver evaluate GLSL.std.450 Fma as a multiply and an add
    /// with two roundings (its precision is "inherited from OpFMul followed by OpFAdd").
    pub fma: bool,
    /// Replace every NaN that float arithmetic produces by the canonical quiet NaN with
    /// explicit IR selects (the shape the lowering uses). The IR itself pins NaN payloads
    /// ([`crate::eval`]), so this is a choice of kernel shape, not a need of the backends.
    pub canonical_nan: bool,
    /// Allow `F32`/`F64` constants, and float values computed from constants only (a bitcast
    /// of an integer constant). Off keeps special float values to the inputs, so that a
    /// driver's constant folding (lavapipe folds `x * 0.0` to `+0.0` and `x + 0.0` to `x`)
    /// does not hide what the arithmetic itself computes.
    pub float_consts: bool,
    /// Allow `Floor`/`Ceil`/`Trunc`/`RoundEven` on `F64` (lavapipe's f64 rounding returns
    /// some non-integral inputs unchanged and loses the sign of zero; see docs/backends.md).
    pub round_f64: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            ops: 48,
            wide: true,
            approximate: true,
            div_sqrt: true,
            fma: true,
            canonical_nan: false,
            float_consts: true,
            round_f64: true,
        }
    }
}

struct Gen<'o> {
    k: Kernel,
    rng: Rng,
    opts: &'o GenOptions,
    /// Raw float results replaced by their canonicalised form: never used as operands.
    hidden: std::collections::HashSet<Handle>,
}

/// A random well-typed kernel (it passes [`Kernel::validate`]).
pub fn random_kernel(seed: u64, opts: &GenOptions) -> Kernel {
    let mut g = Gen {
        k: Kernel::default(),
        rng: Rng::new(seed),
        opts,
        hidden: std::collections::HashSet::new(),
    };
    g.seed_values();
    for _ in 0..opts.ops {
        g.step();
    }
    g.outputs();
    g.k
}

impl Gen<'_> {
    fn push(&mut self, e: Expr) -> Handle {
        self.k.push(e)
    }

    fn types(&self) -> &'static [Ty] {
        if self.opts.wide {
            &[Ty::Bool, Ty::U32, Ty::U64, Ty::F32, Ty::F64]
        } else {
            &[Ty::Bool, Ty::U32, Ty::F32]
        }
    }

    fn seed_values(&mut self) {
        for i in 0..6 {
            let x = self.push(Expr::Input(i));
            self.push(Expr::Convert {
                op: Convert::Bitcast,
                a: x,
                to: Ty::F32,
            });
        }
        self.push(Expr::LaneId);
        let f = self.rng.pick(&F32_SPECIALS);
        if self.opts.float_consts {
            self.push(Expr::Const {
                ty: Ty::F32,
                bits: u64::from(f),
            });
        }
        let u = self.rng.pick(&U32_SPECIALS);
        self.push(Expr::Const {
            ty: Ty::U32,
            bits: u64::from(u),
        });
        let bit = self.rng.next_u64() & 1;
        let c = self.push(Expr::Const {
            ty: Ty::Bool,
            bits: bit,
        });
        let (a, b) = (self.any(Ty::U32), self.any(Ty::U32));
        let lt = self.push(Expr::IntCmp {
            op: IntCmp::LtU,
            a,
            b,
        });
        self.push(Expr::BoolAnd(c, lt));
        if self.opts.wide {
            let (lo, hi) = (self.any(Ty::U32), self.any(Ty::U32));
            let p = self.push(Expr::Pack64 { lo, hi });
            self.push(Expr::Convert {
                op: Convert::Bitcast,
                a: p,
                to: Ty::F64,
            });
            let d = self.rng.pick(&F64_SPECIALS);
            if self.opts.float_consts {
                self.push(Expr::Const {
                    ty: Ty::F64,
                    bits: d,
                });
            }
            let w = self.rng.next_u64();
            self.push(Expr::Const {
                ty: Ty::U64,
                bits: w,
            });
        }
    }

    /// A random existing value of type `ty`, preferring recent ones so that values chain.
    /// The seeding guarantees one exists for every type in use.
    fn any(&mut self, ty: Ty) -> Handle {
        let n = self.k.exprs.len();
        let float = matches!(ty, Ty::F32 | Ty::F64);
        let folded = self.folded();
        let candidates: Vec<Handle> = (0..n)
            .map(|i| Handle(i as u32))
            .filter(|&h| self.k.ty(h) == ty)
            .filter(|&h| self.opts.float_consts || !(float && folded[h.index()]))
            .filter(|h| !self.hidden.contains(h))
            .collect();
        if candidates.is_empty() {
            // A fresh value of the type from an input (a constant where no float constant
            // may be used would fold).
            return self.fresh(ty);
        }
        let recent = candidates.len().min(8);
        if self.rng.below(3) == 0 {
            self.rng.pick(&candidates)
        } else {
            candidates[candidates.len() - 1 - self.rng.below(recent)]
        }
    }

    /// Which expressions are constants to a driver: `Const`s and everything computed from
    /// constants only (a bitcast of an integer constant is a float constant to its folding).
    fn folded(&self) -> Vec<bool> {
        let mut folded = Vec::with_capacity(self.k.exprs.len());
        for e in &self.k.exprs {
            let f = match e {
                Expr::Const { .. } => true,
                Expr::Input(_) | Expr::LaneId => false,
                e => Kernel::operands(e).iter().all(|h| folded[h.index()]),
            };
            folded.push(f);
        }
        folded
    }

    /// A new value of type `ty` computed from a random input.
    fn fresh(&mut self, ty: Ty) -> Handle {
        let i = self.rng.below(6) as u8;
        let x = self.push(Expr::Input(i));
        let wide = if matches!(ty, Ty::U64 | Ty::F64) {
            self.push(Expr::Pack64 { lo: x, hi: x })
        } else {
            x
        };
        match ty {
            Ty::U32 | Ty::U64 => wide,
            Ty::F32 | Ty::F64 => self.push(Expr::Convert {
                op: Convert::Bitcast,
                a: wide,
                to: ty,
            }),
            Ty::Bool => self.push(Expr::IntCmp {
                op: IntCmp::LtU,
                a: x,
                b: x,
            }),
        }
    }

    fn int_ty(&mut self) -> Ty {
        if self.opts.wide && self.rng.below(3) == 0 {
            Ty::U64
        } else {
            Ty::U32
        }
    }

    fn float_ty(&mut self) -> Ty {
        if self.opts.wide && self.rng.below(3) == 0 {
            Ty::F64
        } else {
            Ty::F32
        }
    }

    fn step(&mut self) {
        match self.rng.below(16) {
            0 => {
                let mut ty = self.rng.pick(self.types());
                if !self.opts.float_consts && matches!(ty, Ty::F32 | Ty::F64) {
                    ty = Ty::U32;
                }
                let bits = match ty {
                    Ty::F32 => u64::from(self.rng.pick(&F32_SPECIALS)),
                    Ty::F64 => self.rng.pick(&F64_SPECIALS),
                    Ty::U32 => u64::from(self.rng.pick(&U32_SPECIALS)),
                    Ty::U64 => self.rng.next_u64(),
                    Ty::Bool => self.rng.next_u64() & 1,
                };
                self.push(Expr::Const { ty, bits });
            }
            1 => {
                let i = self.rng.below(6) as u8;
                self.push(Expr::Input(i));
            }
            2 => {
                self.push(Expr::LaneId);
            }
            3 | 4 => {
                let ty = self.int_ty();
                let op = self.rng.pick(&INT_BINS);
                let (a, b) = (self.any(ty), self.any(ty));
                self.push(Expr::IntBin { op, a, b });
            }
            5 => {
                let ty = self.int_ty();
                let op = self.rng.pick(&INT_UNS);
                let a = self.any(ty);
                self.push(Expr::IntUn { op, a });
            }
            6 => {
                let ty = self.int_ty();
                let op = self.rng.pick(&INT_CMPS);
                let (a, b) = (self.any(ty), self.any(ty));
                self.push(Expr::IntCmp { op, a, b });
            }
            7 | 8 => {
                let ty = self.float_ty();
                let ops: &[FloatBin] = if self.opts.div_sqrt {
                    &[FloatBin::Add, FloatBin::Sub, FloatBin::Mul, FloatBin::Div]
                } else {
                    &[FloatBin::Add, FloatBin::Sub, FloatBin::Mul]
                };
                let op = self.rng.pick(ops);
                let (a, b) = (self.any(ty), self.any(ty));
                self.float_result(Expr::FloatBin { op, a, b });
            }
            9 if self.opts.fma => {
                let ty = self.float_ty();
                let (a, b, c) = (self.any(ty), self.any(ty), self.any(ty));
                self.float_result(Expr::Fma { a, b, c });
            }
            9 => {
                let ty = self.float_ty();
                let (a, b) = (self.any(ty), self.any(ty));
                self.float_result(Expr::FloatBin {
                    op: FloatBin::Mul,
                    a,
                    b,
                });
            }
            10 => {
                let ty = self.float_ty();
                let ops: Vec<FloatUn> = FLOAT_UNS
                    .iter()
                    .copied()
                    .filter(|op| self.opts.approximate || !op.is_approximate())
                    .filter(|op| self.opts.div_sqrt || *op != FloatUn::Sqrt)
                    .filter(|op| {
                        let rounding = matches!(
                            op,
                            FloatUn::Floor | FloatUn::Ceil | FloatUn::Trunc | FloatUn::RoundEven
                        );
                        self.opts.round_f64 || ty != Ty::F64 || !rounding
                    })
                    .collect();
                let a = self.any(ty);
                if ops.is_empty() {
                    // Every unary operation is excluded for this type.
                    self.float_result(Expr::FloatBin {
                        op: FloatBin::Add,
                        a,
                        b: a,
                    });
                } else {
                    let op = self.rng.pick(&ops);
                    self.float_result(Expr::FloatUn { op, a });
                }
            }
            11 => {
                let ty = self.float_ty();
                let op = self.rng.pick(&FLOAT_CMPS);
                let (a, b) = (self.any(ty), self.any(ty));
                self.push(Expr::FloatCmp { op, a, b });
            }
            12 => {
                let (a, b) = (self.any(Ty::Bool), self.any(Ty::Bool));
                match self.rng.below(3) {
                    0 => self.push(Expr::BoolAnd(a, b)),
                    1 => self.push(Expr::BoolOr(a, b)),
                    _ => self.push(Expr::BoolNot(a)),
                };
            }
            13 => {
                let ty = self.rng.pick(self.types());
                let cond = self.any(Ty::Bool);
                let (a, b) = (self.any(ty), self.any(ty));
                self.push(Expr::Select { cond, a, b });
            }
            14 => self.convert(),
            _ => {
                if self.opts.wide {
                    let (lo, hi) = (self.any(Ty::U32), self.any(Ty::U32));
                    self.push(Expr::Pack64 { lo, hi });
                } else {
                    self.convert();
                }
            }
        }
    }

    fn convert(&mut self) {
        let narrow: &[Convert] = &[Convert::BoolToU32, Convert::Bitcast];
        let all: &[Convert] = &[
            Convert::ZextU32,
            Convert::SextU32,
            Convert::TruncU64,
            Convert::BoolToU32,
            Convert::Bitcast,
            Convert::F32ToF64,
            Convert::F64ToF32,
            Convert::S32ToF64,
            Convert::U32ToF64,
            Convert::F64ToS32,
            Convert::F64ToU32,
        ];
        let op = self.rng.pick(if self.opts.wide { all } else { narrow });
        let (from, to) = match op {
            Convert::ZextU32 | Convert::SextU32 => (Ty::U32, Ty::U64),
            Convert::TruncU64 => (Ty::U64, Ty::U32),
            Convert::BoolToU32 => (Ty::Bool, Ty::U32),
            Convert::Bitcast => {
                let pairs: &[(Ty, Ty)] = if self.opts.wide {
                    &[
                        (Ty::U32, Ty::F32),
                        (Ty::F32, Ty::U32),
                        (Ty::U64, Ty::F64),
                        (Ty::F64, Ty::U64),
                    ]
                } else {
                    &[(Ty::U32, Ty::F32), (Ty::F32, Ty::U32)]
                };
                self.rng.pick(pairs)
            }
            Convert::F32ToF64 => (Ty::F32, Ty::F64),
            Convert::F64ToF32 => (Ty::F64, Ty::F32),
            Convert::S32ToF64 | Convert::U32ToF64 => (Ty::U32, Ty::F64),
            Convert::F64ToS32 | Convert::F64ToU32 => (Ty::F64, Ty::U32),
        };
        let mut a = self.any(from);
        let to_float = matches!(op, Convert::S32ToF64 | Convert::U32ToF64 | Convert::Bitcast)
            && matches!(to, Ty::F32 | Ty::F64);
        if !self.opts.float_consts && to_float && self.folded()[a.index()] {
            // A converted integer constant is a float constant to a driver's folding.
            a = self.fresh(from);
        }
        if matches!(op, Convert::F64ToS32 | Convert::F64ToU32) && self.rng.below(2) == 0 {
            let (lo, hi) = if op == Convert::F64ToS32 {
                (-2_147_483_648.0f64, 2_147_483_647.0f64)
            } else {
                (0.0, 4_294_967_295.0)
            };
            a = self.clamp_f64(a, lo, hi);
        }
        if matches!(op, Convert::F32ToF64 | Convert::F64ToF32) {
            self.float_result(Expr::Convert { op, a, to });
        } else {
            self.push(Expr::Convert { op, a, to });
        }
    }

    /// Pushes a float operation, canonicalising a NaN result when the options ask for it.
    fn float_result(&mut self, e: Expr) -> Handle {
        let x = self.push(e);
        if !self.opts.canonical_nan {
            return x;
        }
        let ty = self.k.ty(x);
        let qnan = if ty == Ty::F64 {
            0x7ff8_0000_0000_0000
        } else {
            0x7fc0_0000
        };
        let q = self.push(Expr::Const { ty, bits: qnan });
        let nan = self.push(Expr::FloatCmp {
            op: FloatCmp::Unord,
            a: x,
            b: x,
        });
        self.hidden.insert(x);
        self.push(Expr::Select {
            cond: nan,
            a: q,
            b: x,
        })
    }

    /// `x` clamped into `[lo, hi]`, NaN replaced by 0.
    fn clamp_f64(&mut self, x: Handle, lo: f64, hi: f64) -> Handle {
        let clo = self.push(Expr::Const {
            ty: Ty::F64,
            bits: lo.to_bits(),
        });
        let chi = self.push(Expr::Const {
            ty: Ty::F64,
            bits: hi.to_bits(),
        });
        let zero = self.push(Expr::Const {
            ty: Ty::F64,
            bits: 0,
        });
        let below = self.push(Expr::FloatCmp {
            op: FloatCmp::OrdLt,
            a: x,
            b: clo,
        });
        let x1 = self.push(Expr::Select {
            cond: below,
            a: clo,
            b: x,
        });
        let above = self.push(Expr::FloatCmp {
            op: FloatCmp::OrdGt,
            a: x1,
            b: chi,
        });
        let x2 = self.push(Expr::Select {
            cond: above,
            a: chi,
            b: x1,
        });
        let nan = self.push(Expr::FloatCmp {
            op: FloatCmp::Unord,
            a: x2,
            b: x2,
        });
        self.push(Expr::Select {
            cond: nan,
            a: zero,
            b: x2,
        })
    }

    /// Sixteen U32 outputs drawn from the latest values of every type.
    fn outputs(&mut self) {
        let mut outs = Vec::with_capacity(16);
        for k in 0..16 {
            let types = self.types();
            let ty = types[k % types.len()];
            let v = self.any(ty);
            let o = match ty {
                Ty::U32 => v,
                Ty::Bool => self.push(Expr::Convert {
                    op: Convert::BoolToU32,
                    a: v,
                    to: Ty::U32,
                }),
                Ty::F32 => self.push(Expr::Convert {
                    op: Convert::Bitcast,
                    a: v,
                    to: Ty::U32,
                }),
                Ty::U64 | Ty::F64 => {
                    let w = if ty == Ty::F64 {
                        self.push(Expr::Convert {
                            op: Convert::Bitcast,
                            a: v,
                            to: Ty::U64,
                        })
                    } else {
                        v
                    };
                    if k % 2 == 0 {
                        self.push(Expr::Convert {
                            op: Convert::TruncU64,
                            a: w,
                            to: Ty::U32,
                        })
                    } else {
                        let c = self.push(Expr::Const {
                            ty: Ty::U64,
                            bits: 32,
                        });
                        let s = self.push(Expr::IntBin {
                            op: IntBin::ShrU,
                            a: w,
                            b: c,
                        });
                        self.push(Expr::Convert {
                            op: Convert::TruncU64,
                            a: s,
                            to: Ty::U32,
                        })
                    }
                }
            };
            outs.push(o);
        }
        self.k.outputs = outs;
    }
}
