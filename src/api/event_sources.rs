//! The event sources (types) of a subscription
//! (`/event_subscriptions/{subscription_id}/sources`). The list has no pages.

use serde_json::{json, Value};

use super::{Client, Pages, Seg};
use crate::error::Result;

const SUB: &str = "event subscription ID";
const TYPE: &str = "event type";

/// Every source of a subscription, up to `limit`.
pub fn list<'c>(client: &'c Client, sub_id: &str, limit: Option<usize>) -> Result<Pages<'c>> {
    client.unpaged(
        &[
            Seg::Lit("event_subscriptions"),
            Seg::Id(SUB, sub_id),
            Seg::Lit("sources"),
        ],
        "sources",
        limit,
    )
}

fn one<'a>(sub_id: &'a str, kind: &'a str) -> [Seg<'a>; 4] {
    [
        Seg::Lit("event_subscriptions"),
        Seg::Id(SUB, sub_id),
        Seg::Lit("sources"),
        Seg::Id(TYPE, kind),
    ]
}

/// One source.
pub async fn get(client: &Client, sub_id: &str, kind: &str) -> Result<Value> {
    client.get(&one(sub_id, kind)).await
}

/// Adds a type to a subscription.
pub async fn create(client: &Client, sub_id: &str, kind: &str) -> Result<Value> {
    client
        .create(
            &[
                Seg::Lit("event_subscriptions"),
                Seg::Id(SUB, sub_id),
                Seg::Lit("sources"),
            ],
            &json!({ "type": kind }),
        )
        .await
}

/// Updates a source (the API takes no fields yet: an empty object).
pub async fn update(client: &Client, sub_id: &str, kind: &str) -> Result<Value> {
    client.patch(&one(sub_id, kind), &json!({})).await
}

/// Removes a type from a subscription.
pub async fn delete(client: &Client, sub_id: &str, kind: &str) -> Result<()> {
    client.delete(&one(sub_id, kind)).await
}
