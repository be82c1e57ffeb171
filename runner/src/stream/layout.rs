//! Which output dwords a run reads back and hashes, and the constants the others are.

use rdnaprobe_recompiler::ir::Kernel;

/// The output dwords a run reads back, hashes and compares as values, and the constants the
/// others are. An output the kernel computes as a constant (every register the body does not
/// write keeps the lane contract's zero) is the same on every row and every backend of the
/// recompiler, so a device need not store it: the host fills it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLayout {
    /// Output dwords that some mode's kernel computes, in increasing order (out0 at least).
    pub live: Vec<usize>,
    /// Per mode, the sixteen outputs with every constant one filled in (live ones are 0).
    pub constants: Vec<[u32; 16]>,
}

impl OutputLayout {
    pub fn of(kernels: &[Kernel]) -> OutputLayout {
        let constant = |k: &Kernel, o: usize| match *k.expr(k.outputs[o]) {
            rdnaprobe_recompiler::ir::Expr::Const { bits, .. } => Some(bits as u32),
            _ => None,
        };
        let mut live: Vec<usize> = (0..16)
            .filter(|&o| kernels.iter().any(|k| constant(k, o).is_none()))
            .collect();
        if live.is_empty() {
            live.push(0);
        }
        let constants = kernels
            .iter()
            .map(|k| {
                std::array::from_fn(|o| {
                    if live.contains(&o) {
                        0
                    } else {
                        constant(k, o).unwrap_or(0)
                    }
                })
            })
            .collect();
        OutputLayout { live, constants }
    }

    /// The live dwords as a bit mask (bit k: out k).
    pub fn mask(&self) -> u16 {
        self.live.iter().fold(0, |m, &k| m | 1 << k)
    }

    /// Expands packed device rows (the live dwords of each row) into full rows of `mode`.
    pub(super) fn unpack(&self, mode: usize, packed: &[u32], out: &mut Vec<[u32; 16]>) {
        let stride = self.live.len();
        out.clear();
        out.extend(packed.chunks_exact(stride).map(|p| {
            let mut row = self.constants[mode];
            for (&k, &v) in self.live.iter().zip(p) {
                row[k] = v;
            }
            row
        }));
    }
}
