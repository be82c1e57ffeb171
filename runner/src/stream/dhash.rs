//! The device block hash: a 64-bit, order-independent, position-keyed hash of a block's live
//! output dwords that a compute shader takes right after the kernel (`vulkan::block_hash`), so
//! that a re-check against stored digests reads back 8 bytes per block instead of the block.
//!
//! Definition (the shader and [`block_dhash`] compute the same function): for output value
//! `v` of live dword `j` (0..16) of row `r` (the 64-bit row index within the mode), the position
//! key is `a = fmix32(r_lo ^ fmix32(r_hi ^ j))`, with `fmix32` murmur3's 32-bit finaliser. The
//! block's hash is `(xor of fmix32(v + a * 0x165667b1)) << 32 | (wrapping sum of fmix32(v ^
//! a))` over its rows and live dwords: 32-bit integer operations only, independent of the
//! order in which the terms are combined (atomics), and changed by swapping two rows' values.

/// Multiplier of the position key in the xor half.
pub const KEY_MUL: u32 = 0x1656_67b1;

/// murmur3's 32-bit finaliser.
pub fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// The two 32-bit terms (xor half, sum half) of value `v` of dword `j` of row `row`.
pub fn terms(v: u32, j: u32, row: u64) -> (u32, u32) {
    let a = fmix32(row as u32 ^ fmix32((row >> 32) as u32 ^ j));
    (
        fmix32(v.wrapping_add(a.wrapping_mul(KEY_MUL))),
        fmix32(v ^ a),
    )
}

/// Joins the halves into the block hash.
pub fn join(xor: u32, sum: u32) -> u64 {
    u64::from(xor) << 32 | u64::from(sum)
}

/// The device hash of a block of rows whose first row is `first_row` (within the mode), over
/// the dwords `live`.
pub fn block_dhash(outputs: &[[u32; 16]], live: &[usize], first_row: u64) -> u64 {
    let (mut x, mut s) = (0u32, 0u32);
    for (i, row) in outputs.iter().enumerate() {
        for &j in live {
            let (tx, ts) = terms(row[j], j as u32, first_row + i as u64);
            x ^= tx;
            s = s.wrapping_add(ts);
        }
    }
    join(x, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmix32_matches_murmur3() {
        // Reference values of murmur3's fmix32.
        assert_eq!(fmix32(0), 0);
        assert_eq!(fmix32(1), 0x514e_28b7);
    }

    #[test]
    fn hash_is_order_independent_and_position_keyed() {
        let live = [0usize, 3];
        let rows: Vec<[u32; 16]> = (0..64u32)
            .map(|r| std::array::from_fn(|k| r.wrapping_mul(0x9e37_79b9) ^ k as u32))
            .collect();
        let h = block_dhash(&rows, &live, 1 << 33);
        // The same terms combined in another order (rows backwards) give the same hash.
        let (mut x, mut s) = (0u32, 0u32);
        for (i, row) in rows.iter().enumerate().rev() {
            for &j in live.iter().rev() {
                let (tx, ts) = terms(row[j], j as u32, (1 << 33) + i as u64);
                x ^= tx;
                s = s.wrapping_add(ts);
            }
        }
        assert_eq!(join(x, s), h);
        // Swapping two rows' values, or moving the block, changes it.
        let mut swapped = rows.clone();
        swapped.swap(3, 9);
        assert_ne!(block_dhash(&swapped, &live, 1 << 33), h);
        assert_ne!(block_dhash(&rows, &live, 0), h);
        // A single flipped bit in either live dword changes both halves.
        for j in live {
            let mut one = rows.clone();
            one[17][j] ^= 1;
            let g = block_dhash(&one, &live, 1 << 33);
            assert_ne!(g >> 32, h >> 32);
            assert_ne!(g as u32, h as u32);
        }
    }
}
