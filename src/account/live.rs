//! The live account, read with list calls only (one request per page), and each resource
//! turned into the form the plan compares. TLS termination has no list: it is read one
//! `GET` per edge the files name, and only those.

use std::collections::BTreeMap;

use futures_util::future::try_join_all;
use serde_json::{json, Map, Value};

use super::desired::SECRET_SHOWN;
use super::ownership;
use super::section::Section;
use crate::api::{tls_termination, Client};
use crate::error::{Error, Result};

/// One resource of the account.
#[derive(Debug, Clone)]
pub struct LiveItem {
    /// Its ID (for TLS termination: the edge's).
    pub id: String,
    /// Its fields in the compared form.
    pub form: Map<String, Value>,
    /// The name tunnelctl manages it under (the ownership marker), if any.
    pub managed_as: Option<String>,
}

/// What the account holds of the kinds read.
#[derive(Debug, Default)]
pub struct LiveAccount {
    /// Each kind's resources, in the order listed.
    pub items: BTreeMap<Section, Vec<LiveItem>>,
    /// The TLS edges asked for that the account does not have, each with the 404 that said
    /// so (see [`super::edges`]).
    pub missing_edges: Vec<(String, Error)>,
}

impl LiveAccount {
    /// The resources of a kind.
    pub fn of(&self, section: Section) -> &[LiveItem] {
        self.items.get(&section).map_or(&[], Vec::as_slice)
    }
}

/// Reads the kinds in `sections` (each listed page by page, the kinds side by side) and the
/// TLS termination of each edge in `edges`.
pub async fn read(client: &Client, sections: &[Section], edges: &[String]) -> Result<LiveAccount> {
    let listed = try_join_all(
        sections
            .iter()
            .filter(|s| s.resource().is_some())
            .map(|&section| list(client, section)),
    )
    .await?;
    let mut live = LiveAccount {
        items: listed.into_iter().collect(),
        ..LiveAccount::default()
    };
    let mut modules = Vec::new();
    for edge in edges {
        match tls_termination::get(client, edge).await {
            Ok(v) => modules.push(LiveItem {
                id: edge.clone(),
                form: tls_form(&v),
                managed_as: None,
            }),
            // No module yet: setting one makes it.
            Err(e) if super::edges::lacks_module(&e) => {}
            Err(e) if super::edges::is_missing(&e) => live.missing_edges.push((edge.clone(), e)),
            Err(e) => return Err(e),
        }
    }
    live.items.insert(Section::TlsTermination, modules);
    Ok(live)
}

/// Every resource of one kind, page after page.
async fn list(client: &Client, section: Section) -> Result<(Section, Vec<LiveItem>)> {
    let mut items = Vec::new();
    if let Some(resource) = section.resource() {
        let mut pages = resource.list(client, None)?;
        while let Some(v) = pages.next_item().await? {
            items.push(item(section, &v)?);
        }
    }
    Ok((section, items))
}

/// A listed resource in the compared form.
pub fn item(section: Section, v: &Value) -> Result<LiveItem> {
    let id = v
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::BadResponse(format!("a listed {} has no id", section.table())))?;
    let text = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let split = ownership::split(v.get("metadata").and_then(Value::as_str));
    let mut form = Map::with_capacity(4);
    form.insert("description".into(), json!(text("description")));
    form.insert("metadata".into(), split.user);
    match section {
        Section::Backends => {
            let labels = match v.get("labels") {
                Some(Value::Object(m)) => Value::Object(m.clone()),
                _ => json!({}),
            };
            form.insert("labels".into(), labels);
        }
        Section::EventDestinations => {
            let format = text("format");
            form.insert(
                "format".into(),
                json!(if format.is_empty() {
                    "json".to_string()
                } else {
                    format
                }),
            );
            form.insert(
                "target".into(),
                target_form(v.get("target").unwrap_or(&Value::Null)),
            );
        }
        Section::EventSubscriptions => {
            let mut sources: Vec<String> = list_of(v.get("sources"), "type");
            sources.sort();
            sources.dedup();
            let mut dests: Vec<String> = list_of(v.get("destinations"), "id");
            dests.sort();
            dests.dedup();
            form.insert("sources".into(), json!(sources));
            form.insert("destination_ids".into(), json!(dests));
        }
        Section::IpPolicies | Section::TlsTermination => {}
    }
    Ok(LiveItem {
        id: id.to_string(),
        form,
        managed_as: split.managed_as,
    })
}

fn list_of(v: Option<&Value>, field: &str) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|x| x.get(field).and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// A target as compared: its one member set, nulls left out, the secret shown as
/// `(secret)` (the API never returns it, and no output may show it if one did).
pub fn target_form(target: &Value) -> Value {
    let Value::Object(members) = target else {
        return Value::Null;
    };
    let mut out = Map::new();
    for (name, member) in members.iter().filter(|(_, m)| !m.is_null()) {
        out.insert(name.clone(), without_nulls(member));
    }
    if let Some(Value::Object(creds)) = out
        .values_mut()
        .find_map(|m| m.pointer_mut("/auth/creds"))
        .map(|c| &mut *c)
    {
        creds.insert("aws_secret_access_key".into(), json!(SECRET_SHOWN));
    }
    Value::Object(out)
}

fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), without_nulls(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A TLS termination module as compared.
pub fn tls_form(v: &Value) -> Map<String, Value> {
    let mut form = Map::new();
    form.insert(
        "enabled".into(),
        json!(v.get("enabled").and_then(Value::as_bool).unwrap_or(true)),
    );
    form.insert(
        "terminate_at".into(),
        json!(v
            .get("terminate_at")
            .and_then(Value::as_str)
            .unwrap_or("edge")),
    );
    form.insert(
        "min_version".into(),
        v.get("min_version").cloned().unwrap_or(Value::Null),
    );
    form
}
