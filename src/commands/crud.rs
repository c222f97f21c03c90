//! The usual verbs of a management collection — list, get, create, update, delete — as the
//! command groups share them: the request, its output, confirmations and per-ID reports.

use futures_util::future::join_all;
use serde::Serialize;
use serde_json::Value;

use super::{for_each_id, nothing_to_update, print_list};
use crate::api::{sets_nothing, Client, Resource};
use crate::context::Context;
use crate::error::Result;
use crate::escape::escape;
use crate::output::columns::Kind;

/// The verbs of one collection: its descriptor says how its items are shown and which
/// command lists them (to check an unknown outcome with).
pub struct Crud(pub &'static Resource);

impl Crud {
    fn kind(&self) -> &'static Kind {
        self.0.kind
    }

    /// Prints every item (up to `limit`).
    pub async fn list(&self, ctx: &Context, limit: Option<usize>) -> Result<()> {
        let client = ctx.management()?;
        print_list(ctx, self.kind(), self.0.list(&client, limit)?).await
    }

    /// Prints one item.
    pub async fn get(&self, ctx: &Context, id: &str) -> Result<()> {
        let client = ctx.management()?;
        ctx.printer
            .object(self.kind(), &self.0.get(&client, id).await?)
    }

    /// Creates an item and prints it.
    pub async fn create(&self, ctx: &Context, body: &impl Serialize) -> Result<()> {
        let client = ctx.management()?;
        let created = self
            .0
            .create(&client, body)
            .await
            .map_err(|e| e.with_check(&self.0.list_command()))?;
        ctx.printer.object(self.kind(), &created)
    }

    /// Changes the given fields of an item; returns the API's answer for the caller to print.
    /// A body that sets nothing is a usage error naming the `flags` that set something.
    pub async fn update(
        &self,
        ctx: &Context,
        id: &str,
        body: &impl Serialize,
        flags: &str,
    ) -> Result<Value> {
        if sets_nothing(body) {
            return Err(nothing_to_update(flags));
        }
        let client = ctx.management()?;
        self.0.update(&client, id, body).await
    }

    /// [`Crud::update`], then prints the answer.
    pub async fn update_and_show(
        &self,
        ctx: &Context,
        id: &str,
        body: &impl Serialize,
        flags: &str,
    ) -> Result<()> {
        let updated = self.update(ctx, id, body, flags).await?;
        ctx.printer.object(self.kind(), &updated)
    }

    /// Deletes items after confirmation, one after another, reporting each.
    pub async fn delete(&self, ctx: &Context, ids: &[String]) -> Result<()> {
        // Every ID is checked before anything is asked or sent: one bad ID sends nothing.
        for id in ids {
            crate::http::encode_segment(self.0.id_name, id)?;
        }
        let client = ctx.management()?;
        self.confirm_delete(ctx, &client, ids).await?;
        let client = &client;
        for_each_id(
            ctx,
            ids,
            &format!("Deleted {}", self.kind().noun),
            |id| async move { self.0.delete(client, &id).await },
        )
        .await
    }

    /// Asks before deleting: on a terminal the question shows what goes (ID and description,
    /// the first few of many, then how many more), read from the API for the question only;
    /// off a terminal or with `--yes`, nothing more is sent than the deletes.
    async fn confirm_delete(&self, ctx: &Context, client: &Client, ids: &[String]) -> Result<()> {
        let noun = if ids.len() == 1 {
            self.kind().noun
        } else {
            self.kind().plural
        };
        let question = format!("Delete {} {noun}?", ids.len());
        if !ctx.prompter.will_ask() {
            return ctx.confirm(&question);
        }
        let shown = &ids[..shown_count(ids.len())];
        let labels = join_all(shown.iter().map(|id| self.label(client, id))).await;
        let lines: Vec<String> = shown
            .iter()
            .zip(labels)
            .map(|(id, label)| format!("{}  {label}", escape(id)))
            .collect();
        ctx.prompter
            .confirm_items(&question, &lines, ids.len() - shown.len())
    }

    /// What a person knows an item by: its description, escaped.
    async fn label(&self, client: &Client, id: &str) -> String {
        match self.0.get(client, id).await {
            Ok(item) => match item.get("description").and_then(Value::as_str) {
                Some(d) if !d.trim().is_empty() => escape(d),
                _ => "(no description)".to_string(),
            },
            Err(e) if e.exit_code() == crate::error::exit::NOT_FOUND => "(not found)".to_string(),
            Err(_) => String::new(),
        }
    }
}

/// How many of `total` items a confirmation lists: all of a few, else the first [`SHOWN`].
/// Six are all shown: the sixth takes the line "… and 1 more" would.
pub(super) fn shown_count(total: usize) -> usize {
    if total <= SHOWN + 1 {
        total
    } else {
        SHOWN
    }
}

/// How many items a confirmation lists before it counts the rest.
const SHOWN: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_are_listed_and_many_are_counted() {
        assert_eq!(shown_count(1), 1);
        assert_eq!(shown_count(6), 6);
        assert_eq!(shown_count(88), 5);
    }
}
