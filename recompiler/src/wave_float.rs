//! The bits of the float memory atomics (min, max, compare-and-swap) on f32 and f64, one
//! definition for every width: the reference notes' "LDS float atomics" entry, whose bit rule
//! the buffer, global and flat float atomics share (measured on gfx1036 for the LDS forms).
//! [`crate::wave::float_atomic`] is the f32 min/max; the SPIR-V backend emits the same
//! sequence (`spirv::lds`).

/// The bit layout of the float the atomic works on.
#[derive(Clone, Copy)]
struct Layout {
    sign: u64,
    exp: u64,
    quiet: u64,
}

const fn layout(f64: bool) -> Layout {
    if f64 {
        Layout {
            sign: 1 << 63,
            exp: 0x7ff0_0000_0000_0000,
            quiet: 1 << 51,
        }
    } else {
        Layout {
            sign: 1 << 31,
            exp: 0x7f80_0000,
            quiet: 1 << 22,
        }
    }
}

impl Layout {
    /// `x` flushed to the zero of its sign when `flush` and its exponent is 0.
    fn flush(self, x: u64, flush: bool) -> u64 {
        if flush && x & self.exp == 0 {
            x & self.sign
        } else {
            x
        }
    }
    fn nan(self, x: u64) -> bool {
        x & !self.sign > self.exp
    }
    fn snan(self, x: u64) -> bool {
        self.nan(x) && x & self.quiet == 0
    }
    /// The ordered key: negative values reversed below the positive ones, -0 just below +0.
    fn key(self, x: u64) -> u64 {
        let all = self.sign | (self.sign - 1);
        if x & self.sign != 0 {
            !x & all
        } else {
            x | self.sign
        }
    }
}

/// The float atomics min/max rule (`max`: the larger wins) on f32 (`f64` false, the low 32
/// bits) or f64 bits: both operands are flushed to the zero of their sign when `flush` (bit 0
/// of the type's denormal field clear: the f32 field for f32, the f16/f64 field for f64);
/// then a signalling-NaN data is stored quieted, else a signalling-NaN old value is stored
/// quieted, else a quiet-NaN old value is replaced by the data, else a quiet-NaN data loses,
/// else the ordered compare with -0 below +0 decides. The flushed value is what is written,
/// also when the old value wins. IEEE_MODE has no effect (rule: float-atomics).
pub fn float_minmax(old: u64, data: u64, flush: bool, max: bool, f64: bool) -> u64 {
    let l = layout(f64);
    let (o, d) = (l.flush(old, flush), l.flush(data, flush));
    if l.snan(d) {
        return d | l.quiet;
    }
    if l.snan(o) {
        return o | l.quiet;
    }
    if l.nan(o) {
        return d;
    }
    if l.nan(d) {
        return o;
    }
    let d_wins = if max {
        l.key(d) > l.key(o)
    } else {
        l.key(d) < l.key(o)
    };
    if d_wins {
        d
    } else {
        o
    }
}

/// Whether a float compare-and-swap writes: the old value and the compare value, both
/// flushed when `flush`, are equal as floats (the two zeros equal, a NaN equal to nothing).
/// The data is then stored as given, not flushed: the notes' cmpst rule, whose denormal and
/// signalling-NaN data are not measured (rule: float-cmpswap).
pub fn float_cmp_equal(old: u64, cmp: u64, flush: bool, f64: bool) -> bool {
    let l = layout(f64);
    let (o, c) = (l.flush(old, flush), l.flush(cmp, flush));
    if l.nan(o) || l.nan(c) {
        return false;
    }
    o == c || (o | c) & !l.sign == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE64: u64 = 0x3ff0_0000_0000_0000;
    const TWO64: u64 = 0x4000_0000_0000_0000;

    #[test]
    fn f64_min_max_follow_the_notes_order() {
        assert_eq!(float_minmax(TWO64, ONE64, false, false, true), ONE64);
        assert_eq!(float_minmax(TWO64, ONE64, false, true, true), TWO64);
        assert_eq!(float_minmax(0, 1 << 63, false, false, true), 1 << 63);
        let snan = 0xfff0_0000_0000_0002;
        assert_eq!(
            float_minmax(ONE64, snan, false, false, true),
            snan | 1 << 51,
            "sNaN data stored quieted"
        );
        let qnan = 0x7ff8_0000_0000_0000;
        assert_eq!(float_minmax(qnan, ONE64, false, true, true), ONE64);
        assert_eq!(float_minmax(ONE64, qnan, false, true, true), ONE64);
        assert_eq!(
            float_minmax(1, ONE64, true, false, true),
            0,
            "flushed old wins and is written"
        );
        assert_eq!(float_minmax(1, ONE64, false, false, true), 1);
        let neg_one = ONE64 | 1 << 63;
        assert_eq!(
            float_minmax(neg_one, TWO64 | 1 << 63, false, true, true),
            neg_one
        );
    }

    #[test]
    fn f32_layout_keeps_the_high_half_out() {
        assert_eq!(
            float_minmax(0x4000_0000, 0x3f80_0000, true, false, false),
            0x3f80_0000
        );
        assert_eq!(
            float_minmax(0xbf80_0000, 0xc000_0000, true, true, false),
            0xbf80_0000
        );
    }

    #[test]
    fn compare_is_on_flushed_floats() {
        assert!(float_cmp_equal(0, 0x8000_0000, false, false), "zeros equal");
        assert!(
            float_cmp_equal(1, 0, true, false),
            "a flushed denormal is zero"
        );
        assert!(!float_cmp_equal(1, 0, false, false), "kept, it is not");
        assert!(!float_cmp_equal(0x7fc0_0000, 0x7fc0_0000, false, false));
        assert!(float_cmp_equal(ONE64, ONE64, false, true));
        assert!(float_cmp_equal(1 << 63, 0, false, true));
        assert!(!float_cmp_equal(ONE64, TWO64, false, true));
    }
}
