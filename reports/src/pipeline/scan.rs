//! The CSV reader's byte search, 64 bytes at a time: one pass over a block finds where every
//! field ends (`,` and `\n` outside quotes) and checks that every quote is where plain CSV puts
//! it, from bit masks of the bytes: AVX2 compares and a carry-less multiply for the prefix XOR
//! where the processor has them (detected at run time), SSE2 on other x86_64 processors (part
//! of the baseline), elsewhere a byte loop with the same result. Quoted regions come from
//! the prefix XOR of the quote mask, as in simdjson: `""` inside a quoted cell toggles twice
//! and leaves the region as it was.
//!
//! Realistic dataset rows are mostly long text cells (source, note, instruction text) and
//! many empty output cells; a byte or a field at a time, their scan was most of the diff's
//! time.

/// Bit masks of one 64-byte chunk: `,` or `\n`; `,`; `"`; `\r`; bytes >= 0x80 (not ASCII).
#[derive(Clone, Copy)]
struct Masks {
    sep: u64,
    comma: u64,
    quote: u64,
    cr: u64,
    high: u64,
}

/// The masks a byte at a time (processors without SSE2 or AVX2, and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn masks_bytes(chunk: &[u8; 64]) -> Masks {
    let mut m = Masks {
        sep: 0,
        comma: 0,
        quote: 0,
        cr: 0,
        high: 0,
    };
    for (i, &b) in chunk.iter().enumerate() {
        m.sep |= u64::from(matches!(b, b',' | b'\n')) << i;
        m.comma |= u64::from(b == b',') << i;
        m.quote |= u64::from(b == b'"') << i;
        m.cr |= u64::from(b == b'\r') << i;
        m.high |= u64::from(b >= 0x80) << i;
    }
    m
}

/// The widest compares this processor has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Level {
    /// AVX2 and PCLMULQDQ.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
    Baseline,
}

fn level() -> Level {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("pclmulqdq") {
        return Level::Avx2;
    }
    Level::Baseline
}

/// The masks with the baseline instructions (SSE2 on x86_64).
#[inline]
fn masks_baseline(chunk: &[u8; 64]) -> Masks {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::masks(chunk)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        masks_bytes(chunk)
    }
}

/// Bit `i` is the XOR of bits `0..=i`.
#[inline]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Where the fields of a block end: `seps` gets the position of every `,` and `\n` outside
/// quotes, in order, `lines` the position of every such `\n`, and `escapes` the position of
/// the second quote of every `""` inside a quoted cell. `None` when the block is not plain CSV: a `\r` anywhere, a quote that neither
/// opens a cell (after `,`, a line end or the block start), closes one (before `,`, a line end,
/// the block end or the other quote of a `""`) nor is half of a `""`, or a quote left open at
/// the end. Bytes of a field that starts with a quote are then the quoted cell, its closing
/// quote last; no other field holds a quote.
pub(crate) fn split(bytes: &[u8], ends: &mut Ends) -> Option<Ascii> {
    assert!(u32::try_from(bytes.len()).is_ok(), "blocks are under 4 GiB");
    match level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the processor has AVX2 and PCLMULQDQ (just detected).
        Level::Avx2 => unsafe { avx2::split(bytes, ends) },
        _ => split_with(bytes, ends, masks_baseline, prefix_xor),
    }
}

/// What [`split`] finds in a block.
#[derive(Default, Debug, PartialEq, Eq)]
pub(crate) struct Ends {
    pub seps: Vec<u32>,
    pub lines: Vec<u32>,
    pub escapes: Vec<u32>,
}

/// Whether a block [`split`] accepted is all ASCII (so valid UTF-8 without another look).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ascii(pub bool);

/// [`split`] with the given masks (inlined into each instruction set's copy).
#[inline(always)]
fn split_with(
    bytes: &[u8],
    ends: &mut Ends,
    masks: impl Fn(&[u8; 64]) -> Masks,
    prefix_xor: impl Fn(u64) -> u64,
) -> Option<Ascii> {
    // Carried from one chunk to the next: inside quotes after its last byte (all ones or 0),
    // its last byte is `,`, `\n` or `"` (the block start counts as one), and its last byte
    // closes a quoted region.
    let mut inside_carry = 0u64;
    let mut prev_carry = 1u64;
    let mut close_carry = 0u64;
    let mut high = 0u64;
    let mut base = 0usize;
    let mut pad: [u8; 64];
    while base < bytes.len() {
        let rest = &bytes[base..];
        let (chunk, live): (&[u8; 64], u64) = match rest.get(..64) {
            Some(c) => (c.try_into().expect("64 bytes"), !0),
            None => {
                // The tail, padded with zeros (not special).
                pad = [0u8; 64];
                pad[..rest.len()].copy_from_slice(rest);
                (&pad, (1u64 << rest.len()) - 1)
            }
        };
        let m = masks(chunk);
        if m.cr != 0 {
            return None;
        }
        high |= m.high;
        let inside = prefix_xor(m.quote) ^ inside_carry;
        let open = m.quote & inside;
        let close = m.quote & !inside;
        let special = m.sep | m.quote;
        let after = special << 1 | prev_carry;
        let closed_before = close << 1 | close_carry;
        let bad = (open & !after) | (closed_before & !special & live);
        if bad != 0 {
            return None;
        }
        let mut esc = closed_before & m.quote;
        while esc != 0 {
            ends.escapes
                .push((base + esc.trailing_zeros() as usize) as u32);
            esc &= esc - 1;
        }
        let mut sep = m.sep & !inside;
        while sep != 0 {
            ends.seps
                .push((base + sep.trailing_zeros() as usize) as u32);
            sep &= sep - 1;
        }
        let mut nl = m.sep & !m.comma & !inside;
        while nl != 0 {
            ends.lines
                .push((base + nl.trailing_zeros() as usize) as u32);
            nl &= nl - 1;
        }
        inside_carry = 0u64.wrapping_sub(inside >> 63);
        prev_carry = special >> 63;
        close_carry = close >> 63;
        base += 64;
    }
    (inside_carry == 0).then_some(Ascii(high == 0))
}

/// Occurrences of `byte` in `bytes`.
pub(crate) fn count(bytes: &[u8], byte: u8) -> usize {
    let mut chunks = bytes.chunks_exact(64);
    let mut total = 0usize;
    #[cfg(target_arch = "x86_64")]
    for chunk in &mut chunks {
        total += sse2::eq_mask(chunk.try_into().expect("64 bytes"), byte).count_ones() as usize;
    }
    #[cfg(not(target_arch = "x86_64"))]
    for chunk in &mut chunks {
        total += chunk.iter().filter(|&&b| b == byte).count();
    }
    total + chunks.remainder().iter().filter(|&&b| b == byte).count()
}

/// Occurrences of `\n` and of `"` in `bytes`, in one pass.
pub(crate) fn count_lines_and_quotes(bytes: &[u8]) -> (usize, usize) {
    match level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the processor has AVX2 and PCLMULQDQ (just detected).
        Level::Avx2 => unsafe { avx2::count_lines_and_quotes(bytes) },
        _ => count_with(bytes, masks_baseline),
    }
}

#[inline(always)]
fn count_with(bytes: &[u8], masks: impl Fn(&[u8; 64]) -> Masks) -> (usize, usize) {
    let mut chunks = bytes.chunks_exact(64);
    let (mut lines, mut quotes) = (0usize, 0usize);
    for chunk in &mut chunks {
        let m = masks(chunk.try_into().expect("64 bytes"));
        lines += (m.sep & !m.comma).count_ones() as usize;
        quotes += m.quote.count_ones() as usize;
    }
    let rest = chunks.remainder();
    (
        lines + rest.iter().filter(|&&b| b == b'\n').count(),
        quotes + rest.iter().filter(|&&b| b == b'"').count(),
    )
}

/// The AVX2 copies. `unsafe fn`s with `unsafe` blocks around the intrinsics, as the
/// workspace's minimum Rust (1.85) needs; newer compilers find some blocks unneeded.
#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)]
mod avx2 {
    use std::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x,
    };

    use super::Masks;

    /// # Safety
    /// The processor has AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn masks(chunk: &[u8; 64]) -> Masks {
        let mut m = Masks {
            sep: 0,
            comma: 0,
            quote: 0,
            cr: 0,
            high: 0,
        };
        // SAFETY: AVX2 register operations (the caller's processor has AVX2); each load reads
        // 32 bytes of `chunk`, unaligned.
        unsafe {
            let bits = |v| u64::from(_mm256_movemask_epi8(v) as u32);
            let (comma, nl, quote, cr) = (
                _mm256_set1_epi8(b',' as i8),
                _mm256_set1_epi8(b'\n' as i8),
                _mm256_set1_epi8(b'"' as i8),
                _mm256_set1_epi8(b'\r' as i8),
            );
            for k in 0..2 {
                let v = _mm256_loadu_si256(chunk[32 * k..].as_ptr().cast());
                let c = _mm256_cmpeq_epi8(v, comma);
                let shift = 32 * k;
                m.sep |= bits(_mm256_or_si256(c, _mm256_cmpeq_epi8(v, nl))) << shift;
                m.comma |= bits(c) << shift;
                m.quote |= bits(_mm256_cmpeq_epi8(v, quote)) << shift;
                m.cr |= bits(_mm256_cmpeq_epi8(v, cr)) << shift;
                m.high |= bits(v) << shift;
            }
        }
        m
    }

    /// The prefix XOR as a carry-less product with all ones.
    ///
    /// # Safety
    /// The processor has PCLMULQDQ.
    #[inline]
    #[target_feature(enable = "pclmulqdq")]
    unsafe fn prefix_xor(x: u64) -> u64 {
        // SAFETY: SSE2/PCLMULQDQ register operations (the caller's processor has them).
        unsafe {
            let p = _mm_clmulepi64_si128(_mm_set_epi64x(0, x as i64), _mm_set_epi64x(0, -1), 0);
            _mm_cvtsi128_si64(p) as u64
        }
    }

    /// # Safety
    /// The processor has AVX2 and PCLMULQDQ.
    #[target_feature(enable = "avx2,pclmulqdq")]
    pub unsafe fn split(bytes: &[u8], ends: &mut super::Ends) -> Option<super::Ascii> {
        // SAFETY: the caller's processor has AVX2 and PCLMULQDQ.
        super::split_with(
            bytes,
            ends,
            |c| unsafe { masks(c) },
            |x| unsafe { prefix_xor(x) },
        )
    }

    /// # Safety
    /// The processor has AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn count_lines_and_quotes(bytes: &[u8]) -> (usize, usize) {
        // SAFETY: the caller's processor has AVX2.
        super::count_with(bytes, |c| unsafe { masks(c) })
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    use super::Masks;

    /// The 16 bytes at `chunk[16 * k..]`.
    #[inline]
    fn load(chunk: &[u8; 64], k: usize) -> __m128i {
        let part = &chunk[16 * k..16 * k + 16];
        // SAFETY: `part` is 16 readable bytes; the load is unaligned. SSE2 is part of the
        // x86_64 baseline, so the instruction is always there.
        unsafe { _mm_loadu_si128(part.as_ptr().cast()) }
    }

    #[inline]
    fn bits(v: __m128i, k: usize) -> u64 {
        // SAFETY: SSE2 register operation (always present on x86_64).
        u64::from(unsafe { _mm_movemask_epi8(v) } as u16) << (16 * k)
    }

    #[inline]
    pub fn masks(chunk: &[u8; 64]) -> Masks {
        let mut m = Masks {
            sep: 0,
            comma: 0,
            quote: 0,
            cr: 0,
            high: 0,
        };
        // SAFETY: SSE2 register operations only (always present on x86_64).
        unsafe {
            let (comma, nl, quote, cr) = (
                _mm_set1_epi8(b',' as i8),
                _mm_set1_epi8(b'\n' as i8),
                _mm_set1_epi8(b'"' as i8),
                _mm_set1_epi8(b'\r' as i8),
            );
            for k in 0..4 {
                let v = load(chunk, k);
                let c = _mm_cmpeq_epi8(v, comma);
                m.sep |= bits(_mm_or_si128(c, _mm_cmpeq_epi8(v, nl)), k);
                m.comma |= bits(c, k);
                m.quote |= bits(_mm_cmpeq_epi8(v, quote), k);
                m.cr |= bits(_mm_cmpeq_epi8(v, cr), k);
                m.high |= bits(v, k);
            }
        }
        m
    }

    #[inline]
    pub fn eq_mask(chunk: &[u8; 64], byte: u8) -> u64 {
        let mut m = 0u64;
        // SAFETY: SSE2 register operations only (always present on x86_64).
        unsafe {
            let needle = _mm_set1_epi8(byte as i8);
            for k in 0..4 {
                m |= bits(_mm_cmpeq_epi8(load(chunk, k), needle), k);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`split`] should give, a byte at a time: the same rules, written out.
    fn split_slow(bytes: &[u8]) -> Option<Ends> {
        let mut ends = Ends::default();
        let mut inside = false;
        for (i, &b) in bytes.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| bytes[p]);
            let next = bytes.get(i + 1).copied();
            match b {
                b'\r' => return None,
                b'"' if !inside => {
                    // Opens a region: after a separator, the block start, or a closing quote.
                    if !matches!(prev, None | Some(b',' | b'\n' | b'"')) {
                        return None;
                    }
                    if prev == Some(b'"') {
                        ends.escapes.push(i as u32);
                    }
                    inside = true;
                }
                b'"' => {
                    if !matches!(next, None | Some(b',' | b'\n' | b'"')) {
                        return None;
                    }
                    inside = false;
                }
                b',' | b'\n' if !inside => {
                    ends.seps.push(i as u32);
                    if b == b'\n' {
                        ends.lines.push(i as u32);
                    }
                }
                _ => {}
            }
        }
        (!inside).then_some(ends)
    }

    /// [`split`] with every instruction set this processor has, which must agree, and the
    /// ASCII flag checked.
    fn split_fast(bytes: &[u8]) -> Option<Ends> {
        let run = |f: &dyn Fn(&mut Ends) -> Option<Ascii>| {
            let mut ends = Ends::default();
            f(&mut ends).map(|a| (ends, a))
        };
        let want = run(&|e| split_with(bytes, e, masks_bytes, prefix_xor));
        assert_eq!(
            run(&|e| split_with(bytes, e, masks_baseline, prefix_xor)),
            want
        );
        assert_eq!(run(&|e| split(bytes, e)), want);

        if let Some((_, ascii)) = &want {
            assert_eq!(ascii.0, bytes.is_ascii());
        }
        want.map(|(e, _)| e)
    }

    /// Deterministic bytes from a small alphabet heavy in the special bytes.
    fn noise(seed: u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    #[test]
    fn split_agrees_with_the_byte_rules() {
        for (text, fine) in [
            (&b""[..], true),
            ("\"é\",ü\n".as_bytes(), true),
            (b"a,b\nc,d\n", true),
            (b"\"a,b\",c\n", true),
            (b"\"a\"\"b\",\"\"\n", true),
            (b"\"\"\"\"", true),
            (b"a\"b,c\n", false),
            (b"\"a\"b,c\n", false),
            (b"\"a,b\n", false),
            (b"a,b\r\n", false),
            (b"x,\"\"\",y", false),
        ] {
            assert_eq!(split_fast(text).is_some(), fine, "{text:?}");
            assert_eq!(split_fast(text), split_slow(text), "{text:?}");
        }
        // Random blocks across chunk boundaries: quoted cells of every length, with `""`,
        // separators inside and outside, and the occasional misplaced quote or `\r`.
        let mut agreed = [0usize; 2];
        for seed in 0..4000u64 {
            let len = (seed as usize * 7) % 300;
            let bytes = if seed % 3 == 0 {
                noise(seed, len, b"ab,\n\"\xc3")
            } else {
                // Mostly well-formed: cells joined by separators, some quoted.
                let mut out = Vec::new();
                let words = noise(seed, len, b"abcdefgh,\n\"");
                for (k, part) in words.split(|&b| b == b'"').enumerate() {
                    if k % 2 == 1 {
                        out.extend_from_slice(b",\"");
                        out.extend(part.iter().flat_map(|&b| {
                            if b == b'a' && seed % 5 == 0 {
                                vec![b'"', b'"']
                            } else {
                                vec![b]
                            }
                        }));
                        out.extend_from_slice(b"\",");
                    } else {
                        out.extend_from_slice(part);
                    }
                }
                if seed % 11 == 0 {
                    out.push(b'\r');
                }
                out
            };
            let want = split_slow(&bytes);
            agreed[usize::from(want.is_some())] += 1;
            assert_eq!(split_fast(&bytes), want, "seed {seed}: {bytes:?}");
        }
        // Both outcomes were exercised, many times.
        assert!(agreed[0] > 500 && agreed[1] > 500, "{agreed:?}");
    }

    #[test]
    fn count_counts_every_occurrence() {
        let b = noise(3, 5000, b",\n\"x");
        let want = count_with(&b, masks_bytes);
        assert_eq!(count_lines_and_quotes(&b), want);

        let b = noise(7, 10_000, b",\n\"\rabcdefgh");
        for len in [0, 31, 64, 100, 4097, b.len()] {
            for byte in [b',', b'\n', b'"', b'e', 0] {
                let want = b[..len].iter().filter(|&&x| x == byte).count();
                assert_eq!(count(&b[..len], byte), want, "len {len} byte {byte}");
            }
        }
        assert_eq!(count(&[b'\n'; 20_000], b'\n'), 20_000);
        for len in [0, 63, 64, 65, 1000, b.len()] {
            let b = &b[..len];
            assert_eq!(
                count_lines_and_quotes(b),
                (count(b, b'\n'), count(b, b'"')),
                "len {len}"
            );
        }
    }
}
