//! The flags column of the instruction table: facts about a row that its operand list does not
//! say, by name as `table/gfx10.txt` spells them (`scripts/isa/columns.py` derives them from
//! llvm-mc-19's probe text and the mnemonic's naming conventions, `table/overrides.toml` adds
//! the rest).

bitflags::bitflags! {
    /// Row flags (the `flags` column of `table/gfx10.txt`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
    pub struct Flags: u64 {
        // --- VALU and SALU encodings ---
        /// VOPC that writes EXEC (v_cmpx_*): the 32-bit form has no printed destination.
        const CMPX = 1 << 0;
        /// VOP3b: the 32-bit destination slot of VOP3 holds an SGPR destination (carry, VCC).
        const VOP3B = 1 << 1;
        /// The opcode reads VCC implicitly in its 32-bit form (v_cndmask, v_add_co_ci).
        const READS_VCC = 1 << 2;
        /// The opcode writes VCC implicitly in its 32-bit form (the compares, the carry-outs).
        const WRITES_VCC = 1 << 3;
        /// The 32-bit form carries a literal dword (fmamk / fmaak); the `imm` source says where.
        const LITERAL_OPERAND = 1 << 4;
        /// The 16-bit result keeps bits 31:16 of the destination (f16/u16/i16 results of
        /// VOP1/VOP2/VOP3).
        const KEEPS_HIGH = 1 << 5;
        /// Interpolation with an attribute operand.
        const INTERP = 1 << 6;
        /// 16-bit interpolation: takes `high`, the attribute's upper half.
        const INTERP_HIGH = 1 << 7;
        /// v_fma_mix*: op_sel_hi picks each source's format (f16 or f32), literals are 16-bit.
        const FMA_MIX = 1 << 8;
        /// src0 takes no lds_direct (the reversed-operand opcodes, v_movrels*).
        const NO_LDS_DIRECT = 1 << 9;
        /// One scalar value on the constant bus (the 64-bit shifts; gfx10 allows two otherwise).
        const ONE_CONSTANT = 1 << 10;
        /// The scalar source is a register, never a constant.
        const REGISTER_ONLY = 1 << 11;
        /// SOPP branch: simm16 is a signed offset in dwords, printed in decimal.
        const BRANCH = 1 << 12;

        // --- Memory ---
        /// A load (SMEM, buffer, FLAT/GLOBAL/SCRATCH, image).
        const LOAD = 1 << 13;
        /// A store.
        const STORE = 1 << 14;
        /// An atomic (returns the old value with glc).
        const ATOMIC = 1 << 15;
        /// A compare-and-swap atomic: its data is two values, its return one.
        const ATOMIC_X2 = 1 << 16;
        /// Addressed by the lane id (the addtid forms): no address operand.
        const ADDTID = 1 << 17;
        /// A load with an LDS form (`lds`: the data go to LDS at M0, no vdata).
        const LDS_FORM = 1 << 18;
        /// DS: writes a VGPR destination (printed first).
        const VDST = 1 << 19;
        /// DS: no address operand; the first register operand is data0.
        const NO_ADDR = 1 << 20;
        /// DS: two 8-bit offsets (read2, write2, wrxchg2 and the st64 forms).
        const TWO_OFFSETS = 1 << 21;
        /// DS global wave sync: data0 sits in the address field, `gds` is implied.
        const GWS = 1 << 22;
        /// SMEM s_atc_probe*: the data field is a probe mode, an immediate.
        const ATC_PROBE = 1 << 23;
        /// SMEM through a buffer resource (4 SGPRs): a 20-bit unsigned offset.
        const SMEM_BUFFER = 1 << 24;

        // --- Images (LLVM's MIMGBaseOpcode fields) ---
        /// Takes a sampler descriptor (sample, gather4, get_lod).
        const SAMPLER = 1 << 25;
        /// gather4: four data channels whatever the dmask, which selects one component.
        const GATHER4 = 1 << 26;
        /// Takes no d16 (atomics, the packed forms, get_resinfo, get_lod).
        const NO_D16 = 1 << 27;
        /// Reads a multisampled image: dim must be 2D_MSAA or 2D_MSAA_ARRAY.
        const MSAA = 1 << 28;
        /// Ray intersection (fixed dmask, unorm and r128; 4-dword resource).
        const BVH = 1 << 29;
        /// Ray intersection with a 64-bit node pointer.
        const BVH64 = 1 << 30;
        /// Address argument: texel offset.
        const OFFSET = 1 << 31;
        /// Address argument: lod bias.
        const BIAS = 1 << 32;
        /// Address argument: z-compare value.
        const COMPARE = 1 << 33;
        /// Address: derivatives of the coordinates.
        const GRADIENTS = 1 << 34;
        /// The derivatives are 16-bit (the `_g16` opcodes).
        const G16 = 1 << 35;
        /// Address: one more dword for lod, clamp or mip level.
        const LOD = 1 << 36;
        /// Address: no coordinates (get_resinfo reads only the mip level).
        const NO_COORDINATES = 1 << 37;

        // --- DS: the `gds` bit ---
        /// Runs on the GDS only: `gds` must be written (global wave sync, ds_ordered_count).
        const GDS_ONLY = 1 << 38;
        /// Has no GDS form: `gds` is refused (ds_nop, ds_permute_b32, ds_bpermute_b32).
        const NO_GDS = 1 << 39;
    }
}
