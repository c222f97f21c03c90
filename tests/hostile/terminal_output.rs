//! Hostile-server tests: terminal_output.

#[allow(unused_imports)]
use crate::common;
