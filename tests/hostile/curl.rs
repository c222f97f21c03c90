//! Hostile-server tests: curl.

#[allow(unused_imports)]
use crate::common;
