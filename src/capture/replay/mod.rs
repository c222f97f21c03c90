//! A captured or saved request sent again, by `tunnelctl` itself: the changes asked for on
//! the command line ([`modify`]), the user's editor on it ([`edit`]), what is checked before
//! it goes ([`check`]), its webhook signature made again ([`resign`]) and sending it to an
//! upstream ([`send`](mod@send)). The request is the one HTTP message type,
//! [`crate::capture::message::Message`].
//!
//! Pure but for [`edit`] (runs the editor) and [`send`](mod@send) (through `crate::http`): commands and
//! the inspector share it.

pub mod check;
pub mod edit;
pub mod modify;
pub mod resign;
pub mod send;

pub use modify::{apply, Mods};
pub use send::{send, Sent};
