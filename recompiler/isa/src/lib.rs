//! The RDNA2 (GFX10.3, gfx1030-gfx1036) instruction set: one instruction table, and the
//! decoder, encoder, assembler and LLVM-syntax printer derived from it.
//!
//! - [`table`]: the rows (mnemonic, family, opcode, operand kinds and value types, [`Flags`]);
//!   [`Opcode`]: the enum generated from them, one variant per row.
//! - [`decode_stream`]: words to [`Decoded`] items; [`encode`]: back to words.
//! - [`Instruction::to_llvm_text`]: llvm-mc's disassembly text.
//! - [`assemble`]: LLVM-syntax text to words (every family the printer writes), validated as
//!   llvm-mc-19 validates it.
//! - [`output_types`]: the value type of each lane-contract output dword after a body.

pub mod asm;
pub mod decode;
pub mod difftest;
pub mod display;
mod display_mem;
pub mod encode;
mod flags;
pub mod known;
pub mod layout;
pub mod mode;
pub mod opcode;
pub mod operand;
pub mod operands;
mod probe;
pub mod symbolic;
pub mod table;
pub mod target;
pub mod types;

pub use asm::{assemble, assemble_for, AsmError};
pub use decode::{
    decode_one, decode_stream, DecodeError, Decoded, Encoding, Instruction, Unsupported,
};
pub use encode::encode;
pub use mode::{FloatMode, Round, Wave};
pub use opcode::Opcode;
pub use operand::{Operand, Reg, RegKind, Special};
pub use operands::{Dpp, Modifiers, Sdwa};
pub use table::{
    lookup, table, Family, Flags, OpInfo, OperandKind, OperandSpec, Source, ValueType,
};
pub use target::{Target, UnknownTarget};
pub use types::{output_types, result_types, DwordType};
