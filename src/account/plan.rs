//! The plan: what `apply` would do to make the account what the files say, found by
//! comparing the two forms of each resource, in the order the changes must be made.
//!
//! Which live resource a file's resource is: the one whose ID it names (`id = "…"`,
//! adoption), else the one carrying the ownership marker with its name. Live resources the
//! files do not name are left alone, except those carrying the marker, which `--prune`
//! deletes. The plan is also what `plan --out` saves and `apply PLAN` reads: it holds what
//! it saw of each resource it changes, so that a resource changed since is caught before
//! any write.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::desired::{Desired, Wanted, SECRET_SHOWN};
use super::live::{LiveAccount, LiveItem};
use super::ownership;
use super::section::Section;
use crate::error::{Error, Result};
use crate::escape::escape;

/// The `format` of a saved plan, to tell it from any other JSON file.
pub const PLAN_FORMAT: &str = "tunnelctl-plan";
/// The version of the saved plan's shape.
pub const PLAN_VERSION: u64 = 1;

/// What a change does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// Make a new resource (or set a TLS edge's module where it has none).
    Create,
    /// Change some fields.
    Update,
    /// Delete a resource tunnelctl manages that the files no longer name (`--prune`).
    Delete,
}

/// One field that changes: its dotted path (`labels.env`, `metadata.team`), and its value
/// before and after (`null` for none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldDiff {
    /// Dotted path of the field.
    pub path: String,
    /// The value the account holds.
    pub old: Value,
    /// The value the files want.
    pub new: Value,
}

/// One change of the plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Planned {
    /// What it does.
    pub action: Verb,
    /// The kind of resource.
    pub kind: Section,
    /// Its name in the files (for TLS termination, the edge ID).
    pub name: String,
    /// Its ID (none for a resource not made yet).
    pub id: Option<String>,
    /// The fields that change.
    pub fields: Vec<FieldDiff>,
    /// What the plan saw of the resource (its compared form and ownership), checked again
    /// before a saved plan is applied; `null` for a create.
    pub seen: Value,
    /// The request body (create, update): the AWS secret as `(secret)`, filled in from
    /// `secret_env` when sent.
    pub body: Value,
    /// The environment variable holding the AWS secret the body needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_env: Option<String>,
    /// Destinations made by this same plan whose IDs go into `destination_ids` once known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
}

/// A resource tunnelctl manages that the files no longer name, kept because `--prune` was
/// not given.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Released {
    /// Its kind.
    pub kind: Section,
    /// The name its marker gives.
    pub name: String,
    /// Its ID.
    pub id: String,
}

/// How many resources of each outcome.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PlanCounts {
    /// Resources to make.
    pub create: usize,
    /// Resources to change.
    pub update: usize,
    /// Resources to delete.
    pub delete: usize,
    /// Resources of the files that already match.
    pub unchanged: usize,
    /// Managed resources the files no longer name, kept (no `--prune`).
    pub not_in_files: usize,
    /// Resources tunnelctl does not manage and the files do not name: never touched.
    pub unmanaged: usize,
}

/// The whole plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AccountPlan {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// [`PLAN_VERSION`].
    pub version: u64,
    /// Are there changes to make?
    pub changes: bool,
    /// The API the plan was made against (scheme, host and port): a saved plan is applied
    /// to that one only.
    #[serde(default)]
    pub api: String,
    /// Was `--prune` given?
    pub prune: bool,
    /// The counts.
    pub summary: PlanCounts,
    /// The changes, in the order `apply` makes them.
    pub actions: Vec<Planned>,
    /// Managed resources the files no longer name, kept.
    pub not_in_files: Vec<Released>,
    /// The kinds read, and the TLS edges (to read again before applying a saved plan).
    pub read: Vec<Section>,
    /// The TLS edges the files name.
    pub edges: Vec<String>,
}

impl AccountPlan {
    /// Reads a saved plan, refusing anything else (exit 2).
    pub fn from_saved(text: &str, shown: &str) -> Result<AccountPlan> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| Error::usage(format!("{shown} is not a saved plan (not JSON: {e})")))?;
        if v.get("format").and_then(Value::as_str) != Some(PLAN_FORMAT) {
            return Err(Error::usage(format!(
                "{shown} is not a saved plan (made by 'tunnelctl plan --out FILE')"
            )));
        }
        if v.get("version").and_then(Value::as_u64) != Some(PLAN_VERSION) {
            return Err(Error::usage(format!(
                "{shown} is a plan of another version of tunnelctl; make it again with 'tunnelctl plan --out FILE'"
            )));
        }
        serde_json::from_value(v)
            .map_err(|e| Error::usage(format!("{shown} is not a whole saved plan: {e}")))
    }
}

/// What a resource's `seen` records: its form and the name its marker gives.
pub fn seen_of(item: &LiveItem) -> Value {
    json!({"form": item.form, "managed_as": item.managed_as})
}

/// Compares the files with the account.
pub fn make(
    desired: &Desired,
    live: &LiveAccount,
    prune: bool,
    read: &[Section],
) -> Result<AccountPlan> {
    let mut matched: BTreeMap<Section, Vec<(&Wanted, Option<&LiveItem>)>> = BTreeMap::new();
    let mut leftover: BTreeMap<Section, Vec<&LiveItem>> = BTreeMap::new();
    for section in Section::ALL {
        let (pairs, rest) = pair(section, desired, live)?;
        matched.insert(section, pairs);
        leftover.insert(section, rest);
    }
    // Destinations by name: the ID of each that exists.
    let dest_ids: BTreeMap<&str, Option<&str>> = matched[&Section::EventDestinations]
        .iter()
        .map(|(w, l)| (w.name.as_str(), l.map(|l| l.id.as_str())))
        .collect();
    let mut summary = PlanCounts::default();
    let mut upserts = Vec::new();
    for section in Section::ALL {
        for (w, l) in &matched[&section] {
            let (form, needs) = resolved(w, &dest_ids);
            match l {
                None => upserts.push(create(w, &form, needs)),
                Some(l) => match update(w, &form, l, needs) {
                    Some(p) => upserts.push(p),
                    None => summary.unchanged += 1,
                },
            }
        }
    }
    let mut deletes_first = Vec::new();
    let mut deletes_last = Vec::new();
    let mut not_in_files = Vec::new();
    for section in Section::ALL.iter().rev() {
        for l in &leftover[section] {
            let Some(name) = &l.managed_as else {
                summary.unmanaged += 1;
                continue;
            };
            if !prune {
                not_in_files.push(Released {
                    kind: *section,
                    name: name.clone(),
                    id: l.id.clone(),
                });
                continue;
            }
            let p = Planned {
                action: Verb::Delete,
                kind: *section,
                name: name.clone(),
                id: Some(l.id.clone()),
                fields: Vec::new(),
                seen: seen_of(l),
                body: Value::Null,
                secret_env: None,
                needs: Vec::new(),
            };
            // Subscriptions go before anything they could name; the rest after every update
            // (a subscription that stops naming a destination is updated before it goes).
            if *section == Section::EventSubscriptions {
                deletes_first.push(p);
            } else {
                deletes_last.push(p);
            }
        }
    }
    let actions: Vec<Planned> = deletes_first
        .into_iter()
        .chain(upserts)
        .chain(deletes_last)
        .collect();
    for a in &actions {
        match a.action {
            Verb::Create => summary.create += 1,
            Verb::Update => summary.update += 1,
            Verb::Delete => summary.delete += 1,
        }
    }
    summary.not_in_files = not_in_files.len();
    Ok(AccountPlan {
        format: PLAN_FORMAT.into(),
        version: PLAN_VERSION,
        changes: !actions.is_empty(),
        api: String::new(),
        prune,
        summary,
        actions,
        not_in_files,
        read: read.to_vec(),
        edges: desired
            .of(Section::TlsTermination)
            .map(|w| w.name.clone())
            .collect(),
    })
}

type Pairs<'a> = (Vec<(&'a Wanted, Option<&'a LiveItem>)>, Vec<&'a LiveItem>);

/// Pairs each resource of the files of one kind with the live one it is, if any; returns
/// the pairs and the live resources no file names.
fn pair<'a>(section: Section, desired: &'a Desired, live: &'a LiveAccount) -> Result<Pairs<'a>> {
    let items = live.of(section);
    let wanted: Vec<&Wanted> = desired.of(section).collect();
    let by_id: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, l)| (l.id.as_str(), i))
        .collect();
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, l) in items.iter().enumerate() {
        if let Some(n) = &l.managed_as {
            by_name.entry(n.as_str()).or_default().push(i);
        }
    }
    let mut taken = vec![false; items.len()];
    let mut found: Vec<Option<usize>> = vec![None; wanted.len()];
    // Adopted by ID first, so that a name moved to another ID is not matched by its marker.
    for (k, w) in wanted.iter().enumerate() {
        let Some(id) = w.id.as_deref() else { continue };
        match by_id.get(id) {
            Some(&i) => {
                taken[i] = true;
                found[k] = Some(i);
            }
            None if section == Section::TlsTermination => {}
            None => {
                return Err(Error::usage(format!(
                    "{}: {}.{} adopts '{}', which the account does not hold; nothing was sent",
                    w.spot,
                    section.table(),
                    w.name,
                    escape(id)
                )))
            }
        }
    }
    for (k, w) in wanted.iter().enumerate().filter(|(_, w)| w.id.is_none()) {
        let free: Vec<usize> = by_name
            .get(w.name.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|i| !taken[*i])
            .collect();
        match free.as_slice() {
            [] => {}
            [i] => {
                taken[*i] = true;
                found[k] = Some(*i);
            }
            many => {
                let ids: Vec<&str> = many.iter().map(|i| items[*i].id.as_str()).collect();
                return Err(Error::usage(format!(
                    "{}: {}.{}: the account holds {} resources managed under this name ({}); name the one meant with id = \"…\"",
                    w.spot,
                    section.table(),
                    w.name,
                    ids.len(),
                    ids.join(", ")
                )));
            }
        }
    }
    // Pairs in the files' order.
    let pairs = wanted
        .into_iter()
        .zip(found)
        .map(|(w, i)| (w, i.map(|i| &items[i])))
        .collect();
    let rest = items
        .iter()
        .zip(taken)
        .filter(|(_, t)| !t)
        .map(|(l, _)| l)
        .collect();
    Ok((pairs, rest))
}

/// The wanted form with destination names turned into IDs; names of destinations not made
/// yet come back apart, and stand in the form as `NAME (new)`. Only a form naming
/// destinations is copied (an account has thousands of the others).
fn resolved<'w>(
    w: &'w Wanted,
    dest_ids: &BTreeMap<&str, Option<&str>>,
) -> (Cow<'w, Map<String, Value>>, Vec<String>) {
    if !w.form.contains_key("destination_ids") {
        return (Cow::Borrowed(&w.form), Vec::new());
    }
    let mut form = w.form.clone();
    let mut needs = Vec::new();
    if let Some(Value::Array(refs)) = form.get_mut("destination_ids") {
        let mut out: Vec<String> = Vec::new();
        for r in refs.iter().filter_map(Value::as_str) {
            match dest_ids.get(r) {
                Some(Some(id)) => out.push((*id).to_string()),
                Some(None) => {
                    needs.push(r.to_string());
                    out.push(format!("{r} (new)"));
                }
                None => out.push(r.to_string()),
            }
        }
        out.sort();
        out.dedup();
        *refs = out.into_iter().map(Value::String).collect();
    }
    (Cow::Owned(form), needs)
}

fn create(w: &Wanted, form: &Map<String, Value>, needs: Vec<String>) -> Planned {
    let mut fields = Vec::new();
    for (k, v) in form {
        if !is_empty(v) {
            diff(k, &Value::Null, v, &mut fields);
        }
    }
    let keys: Vec<&str> = form.keys().map(String::as_str).collect();
    Planned {
        action: Verb::Create,
        kind: w.section,
        name: w.name.clone(),
        id: w.id.clone(),
        fields,
        seen: Value::Null,
        body: body(w, form, &keys),
        secret_env: w.secret_env.clone(),
        needs,
    }
}

fn update(
    w: &Wanted,
    form: &Map<String, Value>,
    l: &LiveItem,
    needs: Vec<String>,
) -> Option<Planned> {
    let mut fields = Vec::new();
    let mut changed: Vec<&str> = Vec::new();
    for (k, v) in form {
        let old = l.form.get(k).unwrap_or(&Value::Null);
        let before = fields.len();
        diff(k, old, v, &mut fields);
        if fields.len() > before {
            changed.push(k);
        }
    }
    let renamed = w.section.has_metadata()
        && l.managed_as.is_some()
        && l.managed_as.as_deref() != Some(w.name.as_str());
    if renamed {
        fields.push(FieldDiff {
            path: "(name)".into(),
            old: json!(l.managed_as),
            new: json!(w.name),
        });
    }
    if fields.is_empty() {
        return None;
    }
    // Every update records ownership: the metadata goes with it.
    if w.section.has_metadata() && !changed.contains(&"metadata") {
        changed.push("metadata");
    }
    if w.section == Section::TlsTermination {
        changed = form.keys().map(String::as_str).collect();
    }
    Some(Planned {
        action: Verb::Update,
        kind: w.section,
        name: w.name.clone(),
        id: Some(l.id.clone()),
        fields,
        seen: seen_of(l),
        body: body(w, form, &changed),
        secret_env: if changed.contains(&"target") {
            w.secret_env.clone()
        } else {
            None
        },
        needs,
    })
}

/// The request body setting `keys` of `form`.
fn body(w: &Wanted, form: &Map<String, Value>, keys: &[&str]) -> Value {
    let mut out = Map::new();
    for k in keys {
        let v = form.get(*k).cloned().unwrap_or(Value::Null);
        match *k {
            "metadata" => {
                out.insert("metadata".into(), json!(ownership::merged(&v, &w.name)));
            }
            "description" if w.section.has_metadata() => {
                out.insert("description".into(), v);
            }
            "sources" => {
                let types: Vec<Value> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| json!({"type": t}))
                    .collect();
                out.insert("sources".into(), Value::Array(types));
            }
            "destination_ids" => {
                let ids: Vec<Value> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|d| !d.as_str().is_some_and(|s| s.ends_with(" (new)")))
                    .cloned()
                    .collect();
                out.insert("destination_ids".into(), Value::Array(ids));
            }
            other => {
                out.insert(other.to_string(), v);
            }
        }
    }
    Value::Object(out)
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// The fields that differ between `old` and `new`, objects compared key by key (so a
/// label or a metadata key shows on its own), anything else whole.
pub fn diff(path: &str, old: &Value, new: &Value, out: &mut Vec<FieldDiff>) {
    if old == new {
        return;
    }
    let empty = Map::new();
    let fields = |v: &Value| match v {
        Value::Object(m) => Some(m.clone()),
        Value::Null => Some(empty.clone()),
        _ => None,
    };
    match (fields(old), fields(new)) {
        (Some(a), Some(b)) if !a.is_empty() || !b.is_empty() => {
            let null = Value::Null;
            for (k, v) in &a {
                diff(&format!("{path}.{k}"), v, b.get(k).unwrap_or(&null), out);
            }
            for (k, v) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                diff(&format!("{path}.{k}"), &null, v, out);
            }
        }
        _ => out.push(FieldDiff {
            path: path.to_string(),
            old: old.clone(),
            new: new.clone(),
        }),
    }
}

/// Is the placeholder of a secret in this body?
pub fn holds_secret_placeholder(body: &Value) -> bool {
    body.pointer("/target")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .any(|m| m.pointer("/auth/creds/aws_secret_access_key") == Some(&json!(SECRET_SHOWN)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_differ_by_path_and_anything_else_whole() {
        let mut out = Vec::new();
        diff(
            "labels",
            &json!({"env": "prod", "app": "web"}),
            &json!({"env": "qa", "app": "web", "tier": "1"}),
            &mut out,
        );
        diff("sources", &json!(["a"]), &json!(["a", "b"]), &mut out);
        diff("metadata", &Value::Null, &json!({"team": "it"}), &mut out);
        diff("description", &json!("x"), &json!("x"), &mut out);
        let paths: Vec<&str> = out.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            ["labels.env", "labels.tier", "sources", "metadata.team"]
        );
        assert_eq!(out[1].old, Value::Null);
        assert_eq!(out[2].new, json!(["a", "b"]));
    }
}
