//! The integration suite as one test binary (one link instead of one per file): the commands
//! against the emulator, one module per command group, the CRUD contract every collection
//! keeps (`crud_contract`), the snapshots of every table and detail view (`screens`), the
//! property tests, and the hostile-server suite.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;
use common::skip;
#[path = "../docs/mod.rs"]
mod docs;
#[path = "../providers/official.rs"]
mod official;

mod account;
mod account_checks;
mod account_confirm;
mod account_export;
mod api_and_completion;
mod backends;
mod bulk_view;
mod captures_as_sent;
mod crud_contract;
mod durations;
mod edges;
mod error_context;
mod event_destinations;
mod event_subscriptions;
mod examples;
mod fixture_links;
mod fixture_runs;
mod fleet;
mod guides;
mod header_case;
mod help;
mod history;
mod history_failures;
mod history_search;
mod inspect;
mod inspect_at_80;
mod inspect_filter_keys;
mod interaction;
mod ip_policies;
mod jq_bounds;
mod local;
mod messages;
mod narrow;
mod newcomer;
mod newcomer_errors;
mod prompts;
mod properties;
mod pty_harness;
mod reliability;
mod replay;
mod screens;
mod sessions;
mod sessions_watch;
mod sessions_watch_actions;
mod sessions_watch_at_80;
mod sessions_watch_profiles;
mod setting_types;
mod settings_and_errors;
mod signed_webhooks;
mod tables;
mod team_history;
mod tour;
mod version;
mod webhook_runs;
mod webhook_secrets;
mod webhook_tests;
mod what_to_type;
mod wide_tables;
mod widths;
mod wrong_server;

/// The hostile-server suite: every promise of `docs/reliability.md`
/// tried against small servers that break it on purpose (cycles, hangs, slow pages, huge or
/// echoing answers, duplicates across pages, oversized headers) and against hostile input.
/// One module per promise; each test names the failure it guards against.
#[path = "../hostile"]
mod hostile {
    mod config;
    mod curl;
    mod echoed_secrets;
    mod input;
    mod local_files;
    mod local_links;
    mod local_memory;
    mod local_nodes;
    mod local_requests;
    mod memory;
    mod never_twice;
    mod paging;
    mod secrets;
    mod signals;
    mod terminal;
    mod terminal_output;
    mod time;
}
