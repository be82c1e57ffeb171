//! The IR as text: [`Kernel`]'s `Display`, what `rdnaprobe lower` prints and the golden lowering
//! tests pin (`recompiler/tests/lower_golden.rs`).
//!
//! One line per expression, `%N: TYPE = EXPR`, with operands as `%M` and constants in hex;
//! blocks as headers with their terminators, register stores and barriers; the exit code, the
//! sixteen outputs and the uniform outputs after them; the native images last.
//!
//! ```text
//! %0: U32 = Input(0)
//! %1: U32 = Const(0x3f800000)
//! %2: U32 = FBin { op: Add, a: %0, b: %1, .. }
//! outputs: %2 %2 ...
//! ```

use std::fmt;

use super::{Expr, Kernel, Terminator};

/// An expression's `Debug` text with handles as `%N` and constants in hex.
fn expr_text(e: &Expr) -> String {
    if let Expr::Const { ty, bits } = e {
        return format!("Const({bits:#x}: {ty:?})");
    }
    let debug = format!("{e:?}");
    // `Handle(N)` -> `%N`
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(i) = rest.find("Handle(") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "Handle(".len()..];
        let end = after.find(')').unwrap_or(after.len());
        out.push('%');
        out.push_str(&after[..end]);
        rest = after.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = |f: &mut fmt::Formatter<'_>, i: usize| -> fmt::Result {
            let h = super::Handle(i as u32);
            writeln!(f, "  {h}: {:?} = {}", self.ty(h), expr_text(&self.exprs[i]))
        };
        if self.blocks.is_empty() {
            for i in 0..self.exprs.len() {
                line(f, i)?;
            }
        } else {
            let first = self.blocks.first().map_or(0, |b| b.exprs.start as usize);
            for i in 0..first {
                line(f, i)?;
            }
            for (n, b) in self.blocks.iter().enumerate() {
                writeln!(f, "block {n}:")?;
                for i in b.exprs.start as usize..b.exprs.end as usize {
                    line(f, i)?;
                }
                for (id, h) in &b.stores {
                    writeln!(f, "  r{id} <- {h}")?;
                }
                if b.barrier {
                    writeln!(f, "  barrier")?;
                }
                match b.term {
                    Terminator::Jump(t) if t as usize == self.blocks.len() => {
                        writeln!(f, "  -> exit")?
                    }
                    Terminator::Jump(t) => writeln!(f, "  -> block {t}")?,
                    Terminator::Branch { cond, then, other } => {
                        let name = |t: u32| {
                            if t as usize == self.blocks.len() {
                                "exit".to_string()
                            } else {
                                format!("block {t}")
                            }
                        };
                        writeln!(f, "  -> {cond} ? {} : {}", name(then), name(other))?
                    }
                }
            }
            let exit = self.blocks.last().map_or(0, |b| b.exprs.end as usize);
            writeln!(f, "exit:")?;
            for i in exit..self.exprs.len() {
                line(f, i)?;
            }
        }
        let outs: Vec<String> = self.outputs.iter().map(|h| h.to_string()).collect();
        writeln!(f, "outputs: {}", outs.join(" "))?;
        if let Some(u) = &self.uniform {
            let s: Vec<String> = u.sgprs.iter().map(|h| h.to_string()).collect();
            writeln!(
                f,
                "uniform: sgprs {} exec {} vcc {} scc {}",
                s.join(" "),
                u.exec,
                u.vcc,
                u.scc
            )?;
        }
        for (i, img) in self.images.iter().enumerate() {
            writeln!(f, "image {i}: {img:?}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Convert, IntBin, Ty};

    #[test]
    fn a_kernel_prints_one_line_per_expression() {
        let mut k = Kernel::default();
        let a = k.push(Expr::Input(0));
        let c = k.push(Expr::Const {
            ty: Ty::U32,
            bits: 0x3f80_0000,
        });
        let s = k.push(Expr::IntBin {
            op: IntBin::Add,
            a,
            b: c,
        });
        let w = k.push(Expr::Convert {
            op: Convert::ZextU32,
            a: s,
            to: Ty::U64,
        });
        k.outputs = vec![s; 16];
        let _ = w;
        let text = k.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  %0: U32 = Input(0)");
        assert_eq!(lines[1], "  %1: U32 = Const(0x3f800000: U32)");
        assert_eq!(lines[2], "  %2: U32 = IntBin { op: Add, a: %0, b: %1 }");
        assert_eq!(
            lines[3],
            "  %3: U64 = Convert { op: ZextU32, a: %2, to: U64 }"
        );
        assert!(lines[4].starts_with("outputs: %2 %2 "), "{}", lines[4]);
    }
}
