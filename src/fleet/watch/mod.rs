//! `tunnelctl sessions watch`: the fleet live on one screen.
//!
//! [`watch_model`] is the state and what each key does (pure: no terminal, no network), with
//! the `/` filter in [`watch_filter`], the columns in [`session_columns`] and a session as it is
//! kept in [`watched_session`]; [`watch_view`] draws it (its boxes in [`watch_boxes`], its text
//! fitted by [`watch_fit`]); [`watch_loop`] is the event loop around them, on the inspector's
//! terminal layer, listing each account on its own pace ([`refresh_pace`]).
//! The command hands it a client and settled choices ([`watch_loop::WatchLaunch`]).

pub mod refresh_pace;
pub mod session_columns;
pub mod watch_boxes;
pub mod watch_filter;
pub mod watch_fit;
pub mod watch_loop;
pub mod watch_model;
pub mod watch_view;
pub mod watched_session;
