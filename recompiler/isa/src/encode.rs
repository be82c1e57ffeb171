//! Encoder: an [`Instruction`] back to words, by packing its fields with the same layouts the
//! decoder read them with. `decode(encode(i)) == i` for every decoded instruction.

use crate::decode::{layouts, Encoding, Instruction};

/// The words of an instruction (literal and extra words included).
pub fn encode(inst: &Instruction) -> Vec<u32> {
    let (base, extra) = layouts(inst.encoding, inst.info);
    let fixed = match inst.encoding {
        Encoding::SDWA | Encoding::DPP16 | Encoding::DPP8 => 2,
        _ => base.iter().map(|s| s.1 as usize + 1).max().unwrap_or(1),
    };
    let mut words = vec![0u32; fixed];
    inst.fields.pack(base, &mut words);
    inst.fields.pack(extra, &mut words);
    if let Some(l) = inst.literal {
        words.push(l);
    }
    words.extend_from_slice(&inst.nsa);
    words
}
