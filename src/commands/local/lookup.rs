//! Finding a capture by its ID for the commands that read one whole (`save`, `diff`): the
//! one place that says where captures are looked for, so that captures kept elsewhere (the
//! capture history) are found by every such command once this looks there too.

use crate::capture::Exchange;
use crate::context::Context;
use crate::error::Result;

/// The capture `id`, as the local agent has it.
pub async fn capture(ctx: &Context, id: &str) -> Result<Exchange> {
    let client = ctx.agent()?;
    Exchange::from_agent(client.request(id).await?)
}
