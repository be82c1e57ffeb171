//! The bundled RDNA2 -> SPIR-V recompiler: lowering of decoded instructions to a per-lane IR
//! with the measured RDNA2 semantic rules, a bit-exact CPU model of that IR, and a SPIR-V
//! backend (rspirv). No GPU and no I/O here.

pub mod batch;
pub mod builder;
pub mod eval;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod native;
pub mod rules;
pub mod spirv;
pub mod wave;
pub mod workgroup;

pub use lower::{
    is_lowered, linear_image_bytes, lower, lower_program_words, lower_wave, lower_wave_mem,
    lower_wave_words, lower_wave_words_images, lower_wave_words_mem, lower_wave_words_sgprs,
    lower_words, specialises_on_sgprs, unlowered_reason, EntryState, ImagePath, LowerError,
    RuleError, SgprValues,
};
