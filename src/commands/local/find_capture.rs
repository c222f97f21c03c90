//! Finding a capture by its ID for the commands that read one whole (`save`, `diff`): the
//! agent first, then the capture history ([`crate::history::lookup`], which says on stderr
//! when a capture came from there).

use crate::capture::Exchange;
use crate::context::Context;
use crate::error::Result;

/// The capture `id`, as the local agent has it or, when it no longer does, as it was kept.
pub async fn capture(ctx: &Context, id: &str) -> Result<Exchange> {
    let client = ctx.agent()?;
    Ok(crate::history::lookup::capture(ctx, &client, id)
        .await?
        .capture)
}
