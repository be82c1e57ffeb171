//! Workgroup barriers, and the ones that can be left out. A wave's lanes are the invocations
//! of one Vulkan workgroup, so every cross-lane exchange (the shared arrays, the LDS, the
//! memory region in the storage buffer) is fenced by `OpControlBarrier`. Two barriers with no
//! workgroup or storage-buffer access between them order exactly what the first one orders,
//! and a barrier in front of code that only reads is needed only when something was written
//! since the last one: such barriers are not emitted. Drivers pay for each one (lavapipe
//! compiles a compute shader with barriers as coroutines, a suspend point per barrier), and a
//! real kernel's memory instructions asked for two or three each.
//!
//! The decision reads the instructions of the current block after its last barrier, so it
//! does not depend on every helper declaring what it touched: an `OpLoad` or `OpStore` is
//! harmless only when its pointer is a `Private` or `Function` variable or a `NonWritable`
//! buffer (or an access chain into one made in the same block); anything else that may touch memory (other pointers,
//! atomics, calls) counts as an access. A block with no barrier yet is entered from
//! predecessors whose accesses are not known here: it always gets its barrier.

use std::collections::HashSet;

use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{Decoration, Op, StorageClass, Word};

use super::{build_err, Emitter, SpirvError};
use crate::ir::LdsOp;

/// What the code after a barrier does with the memory the barrier orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// Reads only: the barrier is needed when something was written since the last one.
    Read,
    /// Reads and writes: needed when anything was accessed since the last one.
    Any,
}

/// AcquireRelease (0x8) | WorkgroupMemory (0x100).
pub(super) const WORKGROUP: u32 = 0x108;
/// AcquireRelease (0x8) | UniformMemory (0x40) | WorkgroupMemory (0x100): also orders the
/// storage-buffer accesses of the memory region.
pub(super) const WORKGROUP_AND_BUFFER: u32 = 0x148;

impl Guard {
    /// The guard in front of an LDS or memory operation.
    pub(super) fn of(op: LdsOp) -> Guard {
        if op == LdsOp::Read {
            Guard::Read
        } else {
            Guard::Any
        }
    }
}

impl Emitter<'_> {
    /// `OpControlBarrier` at Workgroup scope with `semantics`, unless the current block
    /// already has one at least as strong with nothing after it that `guard` must be ordered
    /// against.
    pub(super) fn fence(&mut self, semantics: u32, guard: Guard) -> Result<(), SpirvError> {
        let strong = self.u32c(WORKGROUP_AND_BUFFER);
        let wanted = self.u32c(semantics);
        let enough = [wanted, strong];
        if !self.fence_needed(&enough, guard) {
            return Ok(());
        }
        let scope = self.u32c(2);
        self.b
            .control_barrier(scope, scope, wanted)
            .map_err(build_err(self.at))
    }

    fn fence_needed(&self, enough: &[Word], guard: Guard) -> bool {
        let (Some(f), Some(b)) = (self.b.selected_function(), self.b.selected_block()) else {
            return true;
        };
        let module = self.b.module_ref();
        let function = &module.functions[f];
        let block = &function.blocks[b].instructions;
        let Some(last) = block.iter().rposition(|i| {
            i.class.opcode == Op::ControlBarrier
                && i.operands
                    .get(2)
                    .and_then(id_of)
                    .is_some_and(|s| enough.contains(&s))
        }) else {
            return true;
        };
        // Variables only this invocation sees.
        let mut private: HashSet<Word> = module
            .types_global_values
            .iter()
            .chain(
                function
                    .blocks
                    .first()
                    .map_or(&[][..], |b| &b.instructions[..]),
            )
            .filter(|i| {
                i.class.opcode == Op::Variable
                    && matches!(
                        i.operands.first(),
                        Some(Operand::StorageClass(
                            StorageClass::Private | StorageClass::Function
                        ))
                    )
            })
            .filter_map(|i| i.result_id)
            .collect();
        // Buffers nothing writes: reading them orders nothing.
        private.extend(module.annotations.iter().filter_map(|i| {
            let target = i.operands.first().and_then(id_of)?;
            (i.class.opcode == Op::Decorate
                && i.operands.get(1) == Some(&Operand::Decoration(Decoration::NonWritable)))
            .then_some(target)
        }));
        let (mut read, mut written) = (false, false);
        for i in &block[last + 1..] {
            match access(i, &mut private) {
                Access::None => {}
                Access::Read => read = true,
                Access::Write => written = true,
            }
        }
        match guard {
            Guard::Read => written,
            Guard::Any => read || written,
        }
    }
}

enum Access {
    None,
    Read,
    Write,
}

/// What `i` may do to memory other invocations see; access chains into `private` variables
/// join it.
fn access(i: &Instruction, private: &mut HashSet<Word>) -> Access {
    let pointer = |n: usize| i.operands.get(n).and_then(id_of);
    let shared = |p: Option<Word>, private: &HashSet<Word>| p.is_none_or(|p| !private.contains(&p));
    match i.class.opcode {
        Op::AccessChain | Op::InBoundsAccessChain => {
            if let (Some(base), Some(r)) = (pointer(0), i.result_id) {
                if private.contains(&base) {
                    private.insert(r);
                }
            }
            Access::None
        }
        Op::Load if shared(pointer(0), private) => Access::Read,
        Op::Store if shared(pointer(0), private) => Access::Write,
        Op::Load | Op::Store => Access::None,
        Op::FunctionCall | Op::CopyMemory | Op::CopyMemorySized | Op::ControlBarrier => {
            Access::Write
        }
        op if is_atomic(op) => Access::Write,
        _ => Access::None,
    }
}

fn is_atomic(op: Op) -> bool {
    matches!(
        op,
        Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicCompareExchangeWeak
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT
    )
}

fn id_of(o: &Operand) -> Option<Word> {
    match *o {
        Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => Some(id),
        _ => None,
    }
}
