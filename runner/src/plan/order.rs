//! Row order: a plan's rows are the mixed-radix numbers over its digits (waves, modes, input
//! generators), so any row follows from its index alone, and a shard is a contiguous slice of
//! that order. Which digit varies fastest is part of each command's documented order: sweep
//! specs vary their last input fastest, `exhaustive` its first (`in0`).

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// Which end of a digit list varies fastest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fastest {
    First,
    Last,
}

/// Writes the digits of `index` in the radices `radices` into `out` (same length).
/// Radices are positive; `index` wraps around their product.
pub fn digits(mut index: u64, radices: &[u64], fastest: Fastest, out: &mut [u64]) {
    debug_assert_eq!(radices.len(), out.len());
    let mut step = |(r, o): (&u64, &mut u64)| {
        *o = index % r;
        index /= r;
    };
    match fastest {
        Fastest::First => radices.iter().zip(out.iter_mut()).for_each(&mut step),
        Fastest::Last => radices.iter().zip(out.iter_mut()).rev().for_each(&mut step),
    }
}

/// `--shard i/n`: the i-th (1-based) of n contiguous slices of the row order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or("expected i/n, e.g. 2/4")?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("bad shard index `{i}`"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("bad shard count `{n}`"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {index}/{count}: need 1 <= i <= n"));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Rows `[total*(i-1)/n, total*i/n)`: the shards of a sweep tile its rows exactly.
    pub fn range(self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_in_both_orders() {
        let mut d = [0; 3];
        digits(5, &[2, 3, 4], Fastest::First, &mut d);
        assert_eq!(d, [1, 2, 0]);
        digits(5, &[2, 3, 4], Fastest::Last, &mut d);
        assert_eq!(d, [0, 1, 1]);
        digits(23, &[2, 3, 4], Fastest::Last, &mut d);
        assert_eq!(d, [1, 2, 3]);
    }

    #[test]
    fn shards_tile_the_rows() {
        for total in [0u64, 1, 7, 100, 1001] {
            for n in 1..=9u64 {
                let mut next = 0;
                for i in 1..=n {
                    let r = Shard { index: i, count: n }.range(total);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
    }
}
