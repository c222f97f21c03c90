//! Hostile-server tests: config.

#[allow(unused_imports)]
use crate::common;
