//! The usual verbs of a management collection — list, get, create, update, delete — as the
//! command groups share them: the request, its output, confirmations and per-ID reports.

use serde::Serialize;
use serde_json::Value;

use super::{for_each_id, nothing_to_update, print_list};
use crate::api::{sets_nothing, Resource};
use crate::context::Context;
use crate::error::Result;
use crate::escape::escape;
use crate::output::columns::Kind;

/// A collection and how its items are shown.
pub struct Crud {
    /// The API collection.
    pub resource: &'static Resource,
    /// Its columns and nouns.
    pub kind: &'static Kind,
    /// The command that lists it, to check an unknown outcome with.
    pub list_command: &'static str,
}

impl Crud {
    /// Prints every item (up to `limit`).
    pub async fn list(&self, ctx: &Context, limit: Option<usize>) -> Result<()> {
        let client = ctx.management()?;
        print_list(ctx, self.kind, self.resource.list(&client, limit)?).await
    }

    /// Prints one item.
    pub async fn get(&self, ctx: &Context, id: &str) -> Result<()> {
        let client = ctx.management()?;
        ctx.printer
            .object(self.kind, &self.resource.get(&client, id).await?)
    }

    /// Creates an item and prints it.
    pub async fn create(&self, ctx: &Context, body: &impl Serialize) -> Result<()> {
        let client = ctx.management()?;
        let created = self
            .resource
            .create(&client, body)
            .await
            .map_err(|e| e.with_check(self.list_command))?;
        ctx.printer.object(self.kind, &created)
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
        self.resource.update(&client, id, body).await
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
        ctx.printer.object(self.kind, &updated)
    }

    /// Deletes items after confirmation, one after another, reporting each.
    pub async fn delete(&self, ctx: &Context, ids: &[String]) -> Result<()> {
        // Every ID is checked before anything is asked or sent: one bad ID sends nothing.
        for id in ids {
            crate::http::encode_segment(self.resource.id_name, id)?;
        }
        let client = ctx.management()?;
        let noun = if ids.len() == 1 {
            self.kind.noun
        } else {
            self.kind.plural
        };
        ctx.confirm(&format!(
            "Delete {} {noun}: {}?",
            ids.len(),
            escape(&ids.join(", "))
        ))?;
        let client = &client;
        for_each_id(
            ctx,
            ids,
            &format!("Deleted {}", self.kind.noun),
            |id| async move { self.resource.delete(client, &id).await },
        )
        .await
    }
}
