//! `tunnelctl local inspect`: a full-screen, keyboard-driven inspector of the traffic the local
//! agent captures.
//!
//! [`model`] is the state and what each key does (pure, no terminal, no network), over the
//! captures [`kept`] within a memory budget; [`run`] is the thin event loop around them (the
//! terminal, the agent through the one capture follower [`crate::capture::follow`], the
//! keys); [`screen`] draws the state, with its parts in `exchange_list`,
//! [`detail_pane`], `help_overlay` and `bottom`, coloured by `theme`; with `--verbose` the
//! trace goes aside to a file ([`trace_aside`], which `sessions watch` uses too). A capture is the one typed
//! [`crate::capture::Exchange`], kept without its JSON text.

mod bottom;
pub mod detail_pane;
mod exchange_list;
mod help_overlay;
pub mod kept;
pub mod model;
pub mod popup;
pub mod run;
pub mod screen;
#[cfg(test)]
mod tests;
mod theme;
pub mod trace_aside;
