//! The account as code: account files (TOML) read and checked ([`desired`]), the live
//! account read with list calls ([`live`]), what the files name of it checked there
//! ([`references`]), the plan that compares them, in dependency order ([`plan`]), its text
//! ([`rendering`], [`change_lines`], [`change_text`]), applying it ([`apply`]), and the live account written
//! back as a file ([`exported`]).
//!
//! Identity needs no state file: a resource `apply` makes records the name it has in the
//! files in its own metadata ([`ownership`]); one made elsewhere is adopted by naming its ID.
//! This module takes plain values (a client, paths, flags): it knows nothing of the command
//! line.

pub mod apply;
pub mod change_lines;
pub mod change_text;
pub mod desired;
pub mod edges;
pub mod exported;
pub mod live;
pub mod ownership;
pub mod plan;
pub mod references;
pub mod rendering;
pub mod section;
pub mod spanned;
