//! Hostile-server tests: paging.

#[allow(unused_imports)]
use crate::common;
