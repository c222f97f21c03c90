//! Hostile-server tests: time.

#[allow(unused_imports)]
use crate::common;
