//! The SPIR-V of the device block hash (`stream::dhash` defines the function): a compute
//! module that reads the packed live output dwords a kernel just wrote (binding 1) and adds
//! every row's terms into per-block slots (binding 0, the input binding that modules with
//! generated inputs leave unused) with one atomic xor and one atomic add per invocation.
//!
//! Shape: workgroups of [`LOCAL`] invocations, each invocation hashing [`PER_INVOCATION`] rows
//! `group * GROUP_ROWS + k * LOCAL + local` (coalesced reads), so a workgroup takes
//! [`GROUP_ROWS`] rows, all inside one 4,096-row block as long as every dispatch starts on a
//! block boundary. Push constants as the kernel's: `{ rows, base_lo, base_hi }`; `base` is
//! the dispatch's first row within the mode and must be a multiple of 4,096. Block
//! `(base + row) / 4096` goes to slot pair `block % slots` (`slots` a power of two at least
//! the blocks of one chunk): words `2s` (xor half) and `2s + 1` (sum half), zeroed beforehand.
//!
//! `flip_every = Some(k)` reproduces the test hook `RDNAPROBE_EXHAUSTIVE_FLIP_EVERY` (bit 0
//! of out0 flipped on rows that are multiples of k) so that hooked runs hash what they check.

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, StorageClass, Word,
};

/// Invocations per workgroup.
pub const LOCAL: u32 = 64;
/// Rows each invocation hashes.
pub const PER_INVOCATION: u32 = 16;
/// Rows per workgroup.
pub const GROUP_ROWS: u32 = LOCAL * PER_INVOCATION;
/// Rows per hash block (the digest block, `stream::digest::DIGEST_ROWS`).
pub const BLOCK_ROWS: u32 = 4096;

const KEY_MUL: u32 = 0x1656_67b1;

/// The hash module for rows of `live.len()` packed dwords (`live`: the dword indices, in
/// increasing order), `slots` slot pairs (a power of two).
pub fn emit(live: &[usize], slots: u32, flip_every: Option<u64>) -> anyhow::Result<Vec<u32>> {
    anyhow::ensure!(
        !live.is_empty() && live.len() <= 16 && slots.is_power_of_two(),
        "hash module: {} live dwords, {slots} slots",
        live.len()
    );
    let mut e = Emit::new();
    e.body(live, slots, flip_every)
        .map_err(|err| anyhow::anyhow!("emitting the hash module: {err}"))?;
    Ok(e.b.module().assemble())
}

struct Emit {
    b: Builder,
    u32_: Word,
    u64_: Word,
    bool_: Word,
}

type R<T> = Result<T, rspirv::dr::Error>;

impl Emit {
    fn new() -> Emit {
        let mut b = Builder::new();
        b.set_version(1, 3);
        b.capability(Capability::Shader);
        b.capability(Capability::Int64);
        b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        let u32_ = b.type_int(32, 0);
        let u64_ = b.type_int(64, 0);
        let bool_ = b.type_bool();
        Emit {
            b,
            u32_,
            u64_,
            bool_,
        }
    }

    fn c(&mut self, v: u32) -> Word {
        self.b.constant_bit32(self.u32_, v)
    }

    fn fmix(&mut self, h: Word) -> R<Word> {
        let t = self.u32_;
        let (c16, c13) = (self.c(16), self.c(13));
        let (m1, m2) = (self.c(0x85eb_ca6b), self.c(0xc2b2_ae35));
        let s = self.b.shift_right_logical(t, None, h, c16)?;
        let h = self.b.bitwise_xor(t, None, h, s)?;
        let h = self.b.i_mul(t, None, h, m1)?;
        let s = self.b.shift_right_logical(t, None, h, c13)?;
        let h = self.b.bitwise_xor(t, None, h, s)?;
        let h = self.b.i_mul(t, None, h, m2)?;
        let s = self.b.shift_right_logical(t, None, h, c16)?;
        self.b.bitwise_xor(t, None, h, s)
    }

    fn body(&mut self, live: &[usize], slots: u32, flip_every: Option<u64>) -> R<()> {
        let t = self.u32_;
        let void = self.b.type_void();
        let arr = self.b.type_runtime_array(t);
        self.b
            .decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
        let buf = self.b.type_struct([arr]);
        self.b.decorate(buf, Decoration::Block, []);
        self.b
            .member_decorate(buf, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        let ptr_buf = self.b.type_pointer(None, StorageClass::StorageBuffer, buf);
        let ptr_u32 = self.b.type_pointer(None, StorageClass::StorageBuffer, t);
        let slot_var = self
            .b
            .variable(ptr_buf, None, StorageClass::StorageBuffer, None);
        let out_var = self
            .b
            .variable(ptr_buf, None, StorageClass::StorageBuffer, None);
        for (var, binding) in [(slot_var, 0), (out_var, 1)] {
            self.b
                .decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
            self.b
                .decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        }
        self.b.decorate(out_var, Decoration::NonWritable, []);
        let pc = self.b.type_struct([t, t, t]);
        self.b.decorate(pc, Decoration::Block, []);
        for m in 0..3 {
            self.b
                .member_decorate(pc, m, Decoration::Offset, [Operand::LiteralBit32(4 * m)]);
        }
        let ptr_pc = self.b.type_pointer(None, StorageClass::PushConstant, pc);
        let ptr_pc_u32 = self.b.type_pointer(None, StorageClass::PushConstant, t);
        let pc_var = self
            .b
            .variable(ptr_pc, None, StorageClass::PushConstant, None);
        let uvec3 = self.b.type_vector(t, 3);
        let ptr_in = self.b.type_pointer(None, StorageClass::Input, uvec3);
        let wg_var = self.b.variable(ptr_in, None, StorageClass::Input, None);
        let lid_var = self.b.variable(ptr_in, None, StorageClass::Input, None);
        self.b.decorate(
            wg_var,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::WorkgroupId)],
        );
        self.b.decorate(
            lid_var,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::LocalInvocationId)],
        );

        let fn_ty = self.b.type_function(void, []);
        let main = self
            .b
            .begin_function(void, None, FunctionControl::NONE, fn_ty)?;
        self.b
            .entry_point(ExecutionModel::GLCompute, main, "main", [wg_var, lid_var]);
        self.b
            .execution_mode(main, ExecutionMode::LocalSize, [LOCAL, 1, 1]);
        self.b.begin_block(None)?;
        let c0 = self.c(0);
        let c1 = self.c(1);
        let mut push = vec![];
        for m in 0..3 {
            let cm = self.c(m);
            let p = self.b.access_chain(ptr_pc_u32, None, pc_var, [cm])?;
            push.push(self.b.load(t, None, p, None, [])?);
        }
        let (rows, base_lo, base_hi) = (push[0], push[1], push[2]);
        let wg = self.b.load(uvec3, None, wg_var, None, [])?;
        let group = self.b.composite_extract(t, None, wg, [0])?;
        let lid = self.b.load(uvec3, None, lid_var, None, [])?;
        let local = self.b.composite_extract(t, None, lid, [0])?;
        let cg = self.c(GROUP_ROWS);
        let first = self.b.i_mul(t, None, group, cg)?;
        let first = self.b.i_add(t, None, first, local)?;
        let stride = self.c(live.len() as u32);
        let kmul = self.c(KEY_MUL);
        let c32 = self.b.constant_bit64(self.u64_, 32);
        let flip = match flip_every {
            Some(k) => Some((
                self.b.constant_bit64(self.u64_, k),
                self.b.constant_bit64(self.u64_, 0),
            )),
            None => None,
        };
        let (mut x, mut s) = (c0, c0);
        for k in 0..PER_INVOCATION {
            let ck = self.c(k * LOCAL);
            let row = self.b.i_add(t, None, first, ck)?;
            let inside = self.b.u_less_than(self.bool_, None, row, rows)?;
            // Rows past the dispatch read row 0 (always present) and add nothing.
            let at = self.b.select(t, None, inside, row, c0)?;
            let r_lo = self.b.i_add(t, None, base_lo, row)?;
            let carry = self.b.u_less_than(self.bool_, None, r_lo, base_lo)?;
            let carry = self.b.select(t, None, carry, c1, c0)?;
            let r_hi = self.b.i_add(t, None, base_hi, carry)?;
            let flipped = match flip {
                Some((ck64, z64)) => {
                    let lo = self.b.u_convert(self.u64_, None, r_lo)?;
                    let hi = self.b.u_convert(self.u64_, None, r_hi)?;
                    let hi = self.b.shift_left_logical(self.u64_, None, hi, c32)?;
                    let r = self.b.bitwise_or(self.u64_, None, hi, lo)?;
                    let m = self.b.u_mod(self.u64_, None, r, ck64)?;
                    let f = self.b.i_equal(self.bool_, None, m, z64)?;
                    Some(self.b.select(t, None, f, c1, c0)?)
                }
                None => None,
            };
            let at = self.b.i_mul(t, None, at, stride)?;
            for (slot, &j) in live.iter().enumerate() {
                let cs = self.c(slot as u32);
                let idx = self.b.i_add(t, None, at, cs)?;
                let p = self.b.access_chain(ptr_u32, None, out_var, [c0, idx])?;
                let mut v = self.b.load(t, None, p, None, [])?;
                if let (Some(f), 0) = (flipped, j) {
                    v = self.b.bitwise_xor(t, None, v, f)?;
                }
                let cj = self.c(j as u32);
                let a = self.b.bitwise_xor(t, None, r_hi, cj)?;
                let a = self.fmix(a)?;
                let a = self.b.bitwise_xor(t, None, r_lo, a)?;
                let a = self.fmix(a)?;
                let ak = self.b.i_mul(t, None, a, kmul)?;
                let tx = self.b.i_add(t, None, v, ak)?;
                let tx = self.fmix(tx)?;
                let ts = self.b.bitwise_xor(t, None, v, a)?;
                let ts = self.fmix(ts)?;
                let tx = self.b.select(t, None, inside, tx, c0)?;
                let ts = self.b.select(t, None, inside, ts, c0)?;
                x = self.b.bitwise_xor(t, None, x, tx)?;
                s = self.b.i_add(t, None, s, ts)?;
            }
        }
        // Slot of the group's block: ((base >> 12) + group / 4) % slots.
        let c12 = self.c(12);
        let c20 = self.c(20);
        let lo = self.b.shift_right_logical(t, None, base_lo, c12)?;
        let hi = self.b.shift_left_logical(t, None, base_hi, c20)?;
        let block = self.b.bitwise_or(t, None, lo, hi)?;
        let per = self.c(BLOCK_ROWS / GROUP_ROWS);
        let g = self.b.u_div(t, None, group, per)?;
        let block = self.b.i_add(t, None, block, g)?;
        let mask = self.c(slots - 1);
        let slot = self.b.bitwise_and(t, None, block, mask)?;
        let c2 = self.c(2);
        let slot = self.b.i_mul(t, None, slot, c2)?;
        let slot1 = self.b.i_add(t, None, slot, c1)?;
        let scope = self.c(1); // Device
        let relaxed = self.c(0);
        let px = self.b.access_chain(ptr_u32, None, slot_var, [c0, slot])?;
        self.b.atomic_xor(t, None, px, scope, relaxed, x)?;
        let ps = self.b.access_chain(ptr_u32, None, slot_var, [c0, slot1])?;
        self.b.atomic_i_add(t, None, ps, scope, relaxed, s)?;
        self.b.ret()?;
        self.b.end_function()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape of the module passes spirv-val (Vulkan 1.1 environment), where the tool
    /// is installed.
    #[test]
    fn hash_modules_pass_spirv_val() {
        let Ok(out) = std::process::Command::new("spirv-val")
            .arg("--version")
            .output()
        else {
            eprintln!("skipped: spirv-val is not installed");
            return;
        };
        assert!(out.status.success());
        let dir = std::env::temp_dir().join(format!("rdnaprobe-hash-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let shapes: [(&[usize], u32, Option<u64>); 3] = [
            (&[0], 1, None),
            (&[0, 1], 64, Some(7)),
            (&[2, 5, 15], 4096, Some(10007)),
        ];
        for (i, (live, slots, flip)) in shapes.into_iter().enumerate() {
            let words = emit(live, slots, flip).expect("emits");
            let path = dir.join(format!("hash{i}.spv"));
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(&path, bytes).expect("write");
            let o = std::process::Command::new("spirv-val")
                .args(["--target-env", "vulkan1.1"])
                .arg(&path)
                .output()
                .expect("spirv-val runs");
            assert!(
                o.status.success(),
                "{live:?} {slots} {flip:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        assert!(emit(&[], 1, None).is_err());
        assert!(emit(&[0], 3, None).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
