//! Hostile-server tests: never_twice.

#[allow(unused_imports)]
use crate::common;
