//! The digest of a streaming run: SHA-256 over the ordered output dwords, computed in fixed
//! blocks so that blocks hash in parallel and the result depends neither on the chunk size nor
//! on the number of threads.
//!
//! Scheme (recorded in the manifest as [`SCHEME`]): the rows of each mode are cut into blocks
//! of [`DIGEST_ROWS`] rows (the last block of a mode may be shorter). A block's digest is the
//! SHA-256 of its rows' live output dwords (those the kernel computes, listed in the manifest
//! as `digest.dwords`; the others are constants of the kernel, the same on every row and every
//! backend), little-endian, in increasing dword order, row after row. The run's digest is the
//! SHA-256 of the lower-case hex block digests concatenated in order (modes in run order,
//! blocks in row order).

use sha2::{Digest, Sha256};

/// Rows per digest block. Chunks are whole numbers of blocks, so this is also the chunk
/// granularity; it is a multiple of both wave sizes.
pub const DIGEST_ROWS: usize = 4096;

/// How the digest is computed, for the manifest.
pub const SCHEME: &str = "sha256(concat(hex(sha256(the digest.dwords outputs little-endian of \
                          each row of a 4096-row block of one mode)) for each block, modes in \
                          order))";

/// Lower-case hex of a digest.
pub fn to_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 15)]));
    }
    s
}

/// The hex digest of one block of output rows, over the dwords `live` (increasing).
pub fn block_digest(outputs: &[[u32; 16]], live: &[usize]) -> String {
    let mut h = Sha256::new();
    // Whole 64-byte SHA-256 blocks per update: 16 live dwords of one row or several rows.
    let mut buf = [0u8; 64];
    let mut n = 0;
    for row in outputs {
        for &k in live {
            buf[n..n + 4].copy_from_slice(&row[k].to_le_bytes());
            n += 4;
            if n == buf.len() {
                h.update(buf);
                n = 0;
            }
        }
    }
    h.update(&buf[..n]);
    to_hex(&h.finalize())
}

/// Combines block digests, in order, into the run's digest (constant memory).
#[derive(Debug, Default)]
pub struct Combiner {
    hasher: Sha256,
    blocks: u64,
}

impl Combiner {
    pub fn push(&mut self, block_hex: &str) {
        self.hasher.update(block_hex.as_bytes());
        self.blocks += 1;
    }

    /// Pushes consecutive blocks' digests given as one run of hex text (64 digits a block,
    /// no separators), as [`Combiner::push`] of each would.
    pub fn push_run(&mut self, hex: &[u8]) {
        debug_assert_eq!(hex.len() % 64, 0);
        self.hasher.update(hex);
        self.blocks += (hex.len() / 64) as u64;
    }

    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The run's digest.
    pub fn finish(self) -> String {
        to_hex(&self.hasher.finalize())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_blocks_combines_as_the_blocks_one_by_one() {
        let blocks: Vec<String> = (0..5u32)
            .map(|i| block_digest(&[[i; 16]], &[0, 3]))
            .collect();
        let mut one = Combiner::default();
        for b in &blocks {
            one.push(b);
        }
        let mut run = Combiner::default();
        run.push(&blocks[0]);
        run.push_run(blocks[1..].concat().as_bytes());
        assert_eq!(run.blocks(), 5);
        assert_eq!(run.finish(), one.finish());
    }

    #[test]
    fn block_digest_is_sha256_of_little_endian_dwords() {
        let all: Vec<usize> = (0..16).collect();
        let rows = [[0x0403_0201u32; 16]];
        let mut bytes = vec![];
        for _ in 0..16 {
            bytes.extend_from_slice(&[1, 2, 3, 4]);
        }
        let sha256_hex = |b: &[u8]| to_hex(&Sha256::digest(b));
        assert_eq!(block_digest(&rows, &all), sha256_hex(&bytes));
        // Only the live dwords count, in increasing order, row after row (5 rows x 3 dwords:
        // the 64-byte buffer fills mid-row).
        let rows: Vec<[u32; 16]> = (0..5u32)
            .map(|r| std::array::from_fn(|k| r << 8 | k as u32))
            .collect();
        let live = [1, 4, 15];
        let mut bytes = vec![];
        for r in &rows {
            for &k in &live {
                bytes.extend_from_slice(&r[k].to_le_bytes());
            }
        }
        assert_eq!(block_digest(&rows, &live), sha256_hex(&bytes));
        let rows = [[0x0403_0201u32; 16]];
        let mut c = Combiner::default();
        c.push(&block_digest(&rows, &all));
        assert_eq!(c.blocks(), 1);
        let bytes: Vec<u8> = [1u8, 2, 3, 4].repeat(16);
        assert_eq!(c.finish(), sha256_hex(sha256_hex(&bytes).as_bytes()));
        // A known vector: SHA-256 of the empty string.
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
