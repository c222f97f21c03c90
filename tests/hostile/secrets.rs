//! Hostile-server tests: secrets.

#[allow(unused_imports)]
use crate::common;
