//! `tunnelctl local requests get ID`: one captured exchange (from the agent, else from the
//! history), decoded, raw, its body alone, or as a curl command line.

use crate::capture::{signed, view, view::GetAs};
use crate::commands::local::find_capture;
use crate::context::Context;
use crate::error::Result;

/// `get ID`: prints the capture as the flags ask ([`GetAs`]), through [`view::get`].
pub async fn run(
    ctx: &Context,
    id: &str,
    raw: bool,
    body_only: bool,
    response: bool,
    force: bool,
    curl: bool,
) -> Result<()> {
    let client = ctx.agent()?;
    let captured = find_capture(ctx, &client, id).await?.capture;
    let how = if raw {
        GetAs::Raw { response, force }
    } else if body_only {
        GetAs::Body { response, force }
    } else if curl {
        GetAs::Curl
    } else {
        GetAs::Decoded
    };
    // The decoded view for people says what the handler will make of a signed
    // request; the check is made only when that view is printed.
    let check = || {
        let check = signed::check(
            &captured,
            &ctx.settings.values()?.webhook_secrets.clone(),
            signed::now(),
        );
        Ok(check.provider.is_some().then_some(check))
    };
    view::get(&ctx.printer, &captured, how, check)
}
