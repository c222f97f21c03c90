//! `tunnelctl local inspect`: a full-screen, keyboard-driven inspector of the traffic the local
//! agent captures.
//!
//! [`model`] is the state and what each key does (pure, no terminal, no network); [`feed`]
//! decides what to ask the agent for next; [`run`] is the thin event loop around them (the
//! terminal, the agent, the keys); [`screen`] draws the state, with its parts in [`list`],
//! [`detail`] and [`help`], coloured by [`theme`]. A capture is the one typed
//! [`crate::capture::Exchange`], kept without its JSON text.

pub mod detail;
pub mod feed;
mod help;
mod list;
pub mod model;
pub mod run;
pub mod screen;
#[cfg(test)]
mod tests;
mod theme;
