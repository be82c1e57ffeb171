//! The plan of a run: what `sweep` and `exhaustive` share before any backend computes a row.
//!
//! - [`gen`]: operand generators (special-value grids, exhaustive ranges, seeded random,
//!   listed and constant values), each an indexed sequence;
//! - [`modes`]: the float-mode matrix, from a spec's lists or a `--modes` argument, and the
//!   wave sizes;
//! - [`order`]: the row order (mixed radix over waves x modes x generators) and shards;
//! - [`journal`]: the resume journals;
//! - [`backend`]: the registry of backend names.
//!
//! A sweep spec ([`crate::sweep::spec`]) and an exhaustive run ([`crate::stream::spec`]) each
//! describe their rows in these terms, so a row follows from its index alone in both.

pub mod backend;
pub mod gen;
pub mod journal;
pub mod modes;
pub mod order;
