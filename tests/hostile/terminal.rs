//! Hostile-server tests: terminal.

#[allow(unused_imports)]
use crate::common;
