//! Hostile-server tests: signals.

#[allow(unused_imports)]
use crate::common;
