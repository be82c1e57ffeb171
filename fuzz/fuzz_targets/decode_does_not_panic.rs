//! Any bytes, read as little-endian words, decode without panicking; every decoded instruction
//! re-encodes to its words and prints in both wave sizes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdnaprobe_isa::{decode_stream, encode, Decoded, Wave};

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Ok(items) = decode_stream(&words) {
        for d in items {
            if let Decoded::Inst(i) = d {
                assert_eq!(encode(&i), i.words());
                let _ = i.to_llvm_text(Wave::W32);
                let _ = i.to_llvm_text(Wave::W64);
            }
        }
    }
    let _ = rdnaprobe_isa::output_types(&words);
});
