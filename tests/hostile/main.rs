//! The hostile-server suite: every promise of the README's "Reliability and security" section
//! tried against small servers that break it on purpose (cycles, hangs, slow pages, huge or
//! echoing answers, duplicates across pages, oversized headers) and against hostile input.
//! One module per promise; each test names the failure it guards against.

#[path = "../common/mod.rs"]
mod common;

mod config;
mod curl;
mod echoed_secrets;
mod input;
mod memory;
mod never_twice;
mod paging;
mod secrets;
mod signals;
mod terminal;
mod terminal_output;
mod time;
