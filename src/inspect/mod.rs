//! `tunnelctl local inspect`: a full-screen, keyboard-driven inspector of the traffic the local
//! agent captures.
//!
//! [`model`] is the state and what each key does (pure, no terminal, no network);
//! [`exchange`] is one capture as the inspector keeps it; [`feed`] decides what to ask the
//! agent for next; [`run`] is the thin event loop around them (the terminal, the agent, the
//! keys). The screen is drawn by `crate::output::inspect`.

pub mod exchange;
pub mod feed;
pub mod model;
pub mod run;
