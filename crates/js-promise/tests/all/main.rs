//! Cross-crate tests of js-promise: a test host over js-gc, js-microtask
//! and js-async-context.

#![allow(
    clippy::many_single_char_names,
    reason = "tests name promises and handlers p, q, r, f, g as the spec's examples do"
)]

mod allocation;
mod capability;
mod collection;
mod context;
mod host;
mod ordering;
mod reaction_kinds;
mod rejection;
mod thenables;
