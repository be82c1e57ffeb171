//! The RDNA2 (GFX10.3, gfx1030-gfx1036) instruction set: one instruction table, and the
//! decoder, encoder, assembler and LLVM-syntax printer derived from it.

pub mod mode;

pub use mode::{FloatMode, Round, Wave};
