//! Hostile-server tests: memory.

#[allow(unused_imports)]
use crate::common;
