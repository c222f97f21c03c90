//! The live account written as an account file that `plan` finds identical: every resource
//! with its ID (so it is adopted, not made again), named by its ownership marker, else by
//! its description, else by its ID; the TLS termination of the edges asked for (the API lists
//! none); secrets left as a named environment variable, with a comment saying to set it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use toml_edit::{value, Array, DocumentMut, InlineTable, Item, Table};

use super::desired::is_name;
use super::live::{LiveAccount, LiveItem};
use super::ownership;
use super::section::Section;

/// An account file as export writes it.
#[derive(Debug)]
pub struct Exported {
    /// Its text.
    pub text: String,
    /// The environment variables it names for AWS secrets, which `apply` reads when it sends
    /// their targets: the person sets them.
    pub secret_vars: Vec<String>,
}

/// The account file for the kinds in `sections`; TLS termination for each of `edges` (a
/// comment for an edge without the module; with no edge, a comment saying how to name them).
pub fn to_toml(live: &LiveAccount, sections: &[Section], edges: &[String]) -> Exported {
    let mut secret_vars = Vec::new();
    let mut doc = DocumentMut::new();
    let mut names_of_destinations: BTreeMap<String, String> = BTreeMap::new();
    for &section in &Section::ALL {
        if !sections.contains(&section) || section == Section::TlsTermination {
            continue;
        }
        let mut table = Table::new();
        table.set_implicit(true);
        // Marker names first: a managed resource keeps its name whatever comes before it.
        let mut taken: BTreeSet<String> = live
            .of(section)
            .iter()
            .filter_map(|i| i.managed_as.clone().filter(|n| is_name(n)))
            .collect();
        let mut used = BTreeSet::new();
        for item in live.of(section) {
            let name = name_for(item, &mut taken, &mut used);
            if section == Section::EventDestinations {
                names_of_destinations.insert(item.id.clone(), name.clone());
            }
            table.insert(
                &name,
                Item::Table(resource(
                    section,
                    item,
                    &name,
                    &names_of_destinations,
                    &mut secret_vars,
                )),
            );
        }
        doc.insert(section.table(), Item::Table(table));
    }
    if sections.contains(&Section::TlsTermination) && !edges.is_empty() {
        doc.insert("tls_termination", Item::Table(tls_tables(live)));
    }
    let mut text = String::from(HEADER);
    text.push_str(&doc.to_string());
    if sections.contains(&Section::TlsTermination) {
        if edges.is_empty() {
            text.push_str(TLS_NOTE);
        }
        let set: Vec<&str> = live
            .of(Section::TlsTermination)
            .iter()
            .map(|i| i.id.as_str())
            .collect();
        for edge in edges.iter().filter(|e| !set.contains(&e.as_str())) {
            text.push_str(&format!(
                "\n# {edge} has no TLS termination module. To give it one, add:\n# [tls_termination.{edge}]\n"
            ));
        }
    }
    Exported { text, secret_vars }
}

/// The TLS termination read of each edge, a table per edge, as the file writes it.
fn tls_tables(live: &LiveAccount) -> Table {
    let mut tables = Table::new();
    tables.set_implicit(true);
    for item in live.of(Section::TlsTermination) {
        let mut t = Table::new();
        let form = &item.form;
        t.insert(
            "enabled",
            value(form.get("enabled").and_then(Value::as_bool).unwrap_or(true)),
        );
        t.insert(
            "terminate_at",
            value(
                form.get("terminate_at")
                    .and_then(Value::as_str)
                    .unwrap_or("edge"),
            ),
        );
        if let Some(v) = form.get("min_version").and_then(Value::as_str) {
            t.insert("min_version", value(v));
        }
        tables.insert(&item.id, Item::Table(t));
    }
    tables
}

const HEADER: &str = "\
# The account as code: 'tunnelctl plan -f FILE' shows what 'tunnelctl apply -f FILE' would
# change. Each resource keeps its ID (id = …), so it is adopted, never made again.
";

const TLS_NOTE: &str = "
# TLS termination: the API lists no edges, so none is exported. Name the edges to export
# theirs: tunnelctl export --edge edgtls_… (repeatable). Or add them by hand:
# [tls_termination.edgtls_…]
# terminate_at = \"edge\"
# min_version = \"1.3\"
";

/// A name for a resource: its marker's (the first resource to carry it), else a slug of its
/// description, else its ID, made unique with `-2`, `-3`, … among the names `taken` (every
/// marker's, reserved first) and those `used` so far.
fn name_for(item: &LiveItem, taken: &mut BTreeSet<String>, used: &mut BTreeSet<String>) -> String {
    let description = item
        .form
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let base = match &item.managed_as {
        Some(n) if is_name(n) && used.insert(n.clone()) => return n.clone(),
        _ => {
            let slug = slug(description);
            if slug.is_empty() {
                item.id.clone()
            } else {
                slug
            }
        }
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) || !used.insert(name.clone()) {
        name = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(name.clone());
    name
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

fn resource(
    section: Section,
    item: &LiveItem,
    name: &str,
    destinations: &BTreeMap<String, String>,
    secret_vars: &mut Vec<String>,
) -> Table {
    let mut t = Table::new();
    t.insert("id", value(item.id.as_str()));
    let get = |k: &str| item.form.get(k).cloned().unwrap_or(Value::Null);
    if let Some(d) = get("description").as_str().filter(|d| !d.is_empty()) {
        t.insert("description", value(d));
    }
    let user = get("metadata");
    if !user.is_null() {
        t.insert("metadata", value(ownership::user_text(&user)));
    }
    match section {
        Section::Backends => {
            let mut labels = InlineTable::new();
            for (k, v) in get("labels").as_object().into_iter().flatten() {
                labels.insert(k, v.as_str().unwrap_or_default().into());
            }
            t.insert("labels", value(labels));
        }
        Section::EventDestinations => {
            t.insert("format", value(get("format").as_str().unwrap_or("json")));
            if let Value::Object(members) = get("target") {
                let mut target = Table::new();
                // Only its member's table is written: `[….target]` alone would be empty.
                target.set_implicit(true);
                for (member, body) in members {
                    target.insert(&member, Item::Table(member_table(&body, name, secret_vars)));
                }
                t.insert("target", Item::Table(target));
            }
        }
        Section::EventSubscriptions => {
            let sources: Array = get("sources")
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            t.insert("sources", value(sources));
            let dests: Array = get("destination_ids")
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|id| destinations.get(id).map_or(id, String::as_str).to_string())
                .collect();
            t.insert("destinations", value(dests));
        }
        Section::IpPolicies | Section::TlsTermination => {}
    }
    t
}

/// A target member as a table; AWS credentials name a variable for the secret, and a
/// comment says to set it (the API never returns a secret, so export cannot write it).
fn member_table(body: &Value, name: &str, secret_vars: &mut Vec<String>) -> Table {
    let mut t = Table::new();
    for (k, v) in body.as_object().into_iter().flatten() {
        if k == "auth" {
            let mut auth = v.clone();
            let mut var = None;
            if let Some(Value::Object(creds)) = auth.pointer_mut("/creds") {
                creds.remove("aws_secret_access_key");
                let name = secret_var(name);
                creds.insert(
                    "aws_secret_access_key_env".into(),
                    Value::String(name.clone()),
                );
                var = Some(name);
            }
            if let toml_edit::Value::InlineTable(i) = to_toml_value(&auth) {
                t.insert("auth", value(i));
            }
            if let (Some(var), Some(mut key)) = (var, t.key_mut("auth")) {
                key.leaf_decor_mut().set_prefix(format!(
                    "# The API never returns the secret access key: set {var} to it where\n\
                     # apply runs (apply reads it from there when it sends this target).\n"
                ));
                secret_vars.push(var);
            }
        } else {
            t.insert(k, value(to_toml_value(v)));
        }
    }
    t
}

/// The variable an exported destination's AWS secret is read from: `AWS_SECRET_` and its
/// name in capitals.
pub fn secret_var(name: &str) -> String {
    let upper: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("AWS_SECRET_{upper}")
}

fn to_toml_value(v: &Value) -> toml_edit::Value {
    match v {
        Value::String(s) => s.as_str().into(),
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => n
            .as_i64()
            .map_or_else(|| n.as_f64().unwrap_or_default().into(), Into::into),
        Value::Array(a) => toml_edit::Value::Array(a.iter().map(to_toml_value).collect()),
        Value::Object(m) => {
            let mut t = InlineTable::new();
            for (k, x) in m.iter().filter(|(_, x)| !x.is_null()) {
                t.insert(k, to_toml_value(x));
            }
            toml_edit::Value::InlineTable(t)
        }
        Value::Null => "".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    fn item(id: &str, description: &str, managed_as: Option<&str>) -> LiveItem {
        let mut form = Map::new();
        form.insert("description".into(), json!(description));
        LiveItem {
            id: id.into(),
            form,
            managed_as: managed_as.map(str::to_string),
        }
    }

    #[test]
    fn markers_keep_their_names_and_the_rest_are_made_unique() {
        let items = [
            item("ipp_1", "Office net", None),
            item("ipp_2", "", Some("office-net")),
            item("ipp_3", "office net!", None),
            item("ipp_4", "", None),
            item("ipp_5", "", Some("office-net")),
        ];
        let mut taken: BTreeSet<String> = ["office-net".to_string()].into();
        let mut used = BTreeSet::new();
        let names: Vec<String> = items
            .iter()
            .map(|i| name_for(i, &mut taken, &mut used))
            .collect();
        assert_eq!(
            names,
            [
                "office-net-2",
                "office-net",
                "office-net-3",
                "ipp_4",
                "ipp_5"
            ]
        );
        assert_eq!(secret_var("audit-logs"), "AWS_SECRET_AUDIT_LOGS");
    }
}
