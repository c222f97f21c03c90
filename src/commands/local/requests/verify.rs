//! `local requests verify [ID...]`: the webhook signature of captured requests checked against
//! the secrets set; an ID the agent no longer has is read from the history.

use crate::capture::{signed, Exchange};
use crate::commands::local::{find_capture_unsaid, note_read_from_history};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::columns::{CAPTURED_REQUEST, SIGNATURE_CHECK};
use crate::signature::Check;

/// `verify [ID...]`: each request's signature check, a row each; exit 8 when one is invalid
/// or expired. Every capture is read one at a time, so a long history costs little memory.
pub async fn verify(ctx: &Context, ids: &[String]) -> Result<()> {
    let secrets = ctx.settings.values()?.webhook_secrets.clone();
    let now = signed::now();
    let client = ctx.agent()?;
    let mut sink = ctx.printer.list(&SIGNATURE_CHECK)?;
    let mut failed = 0;
    let mut row = |captured: &Exchange| -> Result<()> {
        let check: Check = signed::check(captured, &secrets, now);
        failed += usize::from(check.result.fails());
        sink.push(serde_json::json!({
            "id": captured.id,
            "provider": check.provider.map(|p| p.name()),
            "result": check.result.as_str(),
            "detail": check.detail,
        }))
    };
    if ids.is_empty() {
        let raw = client.requests_raw(None, None).await?;
        for item in raw.items()? {
            if let Some(captured) = Exchange::from_json(item) {
                row(&captured)?;
            }
        }
    } else {
        let mut from_history = Vec::new();
        for id in ids {
            let found = find_capture_unsaid(ctx, &client, id).await?;
            if found.origin == crate::history::lookup::Origin::History {
                from_history.push(id.as_str());
            }
            row(&found.capture)?;
        }
        note_read_from_history(ctx, &from_history)?;
    }
    let shown = sink.finish()?;
    crate::commands::note_if_empty(ctx, &CAPTURED_REQUEST, shown);
    match failed {
        0 => Ok(()),
        n => Err(Error::CheckFailed(format!(
            "{n} of {shown} signature(s) invalid or expired"
        ))),
    }
}
