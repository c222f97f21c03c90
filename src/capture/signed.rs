//! Whether a captured webhook's signature holds: the request as it arrived (its headers, and
//! its body with any chunked framing undone, which is what providers sign) checked by
//! [`crate::signature`] against the user's webhook secrets. `get`, `list --signature`,
//! `verify`, the `sig:` filter word and the inspector all ask here, so they never disagree.

use super::exchange::Exchange;
use crate::signature::{verify, Check, Secrets};

/// The signature check of a captured request at `now` (Unix seconds).
pub fn check(exchange: &Exchange, secrets: &Secrets, now: i64) -> Check {
    let request = exchange.request_message();
    verify(&request.headers, &request.body, secrets, now)
}

/// Now, in Unix seconds, as the checks count it (pinned in snapshot tests).
pub fn now() -> i64 {
    crate::output::time::now().unix_timestamp()
}
