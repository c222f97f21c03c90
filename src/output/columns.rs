//! What each resource shows in a table or a TSV row: its columns, and how a JSON field
//! becomes a cell. Every server string passes through [`escape`] here. The columns of a
//! management collection are in its descriptor (`api::Resource`), written with the helpers
//! here and handed to the printer with the items; the others (the agent's, an edge module's)
//! are here.

use serde_json::Value;

use super::time::human_time;
use crate::escape::escape;

/// How a field becomes text.
#[derive(Debug, Clone, Copy)]
pub enum Cell {
    /// A string, number or boolean as it is: an ID, a name, a code. Never cut in a table.
    Text,
    /// Free text a person wrote (a description, metadata, a path): cut with `…` when a table
    /// is short of room, wrapped at spaces in a detail view.
    Free,
    /// Free text that matters whole (what to do next, a name to set): in a table it wraps
    /// at spaces onto more lines, never cut and never broken inside a word.
    Prose,
    /// An RFC 3339 time: "3h ago" in a table, absolute and relative in a detail view,
    /// unchanged in TSV.
    Time,
    /// A Ref `{id, uri}`: its id (and its URI in a detail view).
    RefId,
    /// A list of Refs: their ids (and URIs in a detail view).
    RefIds,
    /// A map of strings: `k=v` pairs.
    Labels,
    /// A list of `{type}` objects: the types.
    Types,
    /// An EventTarget: which member, and its resource name.
    Target,
    /// An EventTarget's member alone (`kinesis`): short enough for any table.
    TargetType,
    /// An EventTarget's resource name alone (its ARN), never cut.
    TargetArn,
    /// The name inside an EventTarget's ARN (the stream, delivery stream or log group):
    /// what tells destinations apart in a narrow table, where the ARN does not fit.
    TargetName,
    /// The auth of an EventTarget: the role ARN or the access key id; never the secret.
    Auth,
    /// A captured exchange's duration in nanoseconds: "12.3 ms" in a table, the number in
    /// TSV; "pending" on screen while there is no response (the agent sends 0 then).
    Nanos,
    /// A response status code, or "pending" when there is no response yet.
    Status,
    /// An object shown as `key  value` lines in a detail view (a tunnel's config).
    Pairs,
    /// The agent's metrics of one kind of event (count, rates, duration percentiles), shown
    /// as a person reads them in a detail view.
    Metrics,
}

/// One field of a resource, as a table column, a TSV field and a line of its detail view.
#[derive(Debug)]
pub struct Column {
    /// Upper-case header.
    pub header: &'static str,
    /// The field it shows: a top-level name, or a JSON pointer (`/request/method`).
    pub field: &'static str,
    /// How it is shown.
    pub cell: Cell,
    /// In a table too narrow for every column, which go first: [`ALWAYS`] is never dropped,
    /// a larger number is dropped before a smaller one.
    pub priority: u8,
    /// Shown in list tables.
    pub in_table: bool,
    /// Shown in TSV rows.
    pub in_tsv: bool,
    /// Shown in detail views.
    pub in_detail: bool,
    /// A short stand-in for the table column with this header: shown only when that one
    /// does not fit (the name inside an ARN, for the ARN).
    pub stands_in_for: Option<&'static str>,
}

/// The priority of a column a table always keeps (the ID or name).
pub const ALWAYS: u8 = 1;

impl Column {
    /// May a table cut this column's text with `…`? Only free text: IDs, names, times,
    /// references and codes are never cut.
    pub fn may_cut(&self) -> bool {
        matches!(self.cell, Cell::Free)
    }

    /// Does a table wrap this column's text at spaces instead of cutting it? Prose, and a
    /// list of event types: an event subscription's SOURCES, the most telling column of its
    /// table, left out at 80 columns when it had to fit on one line.
    pub fn wraps(&self) -> bool {
        matches!(self.cell, Cell::Prose | Cell::Types)
    }
}

/// A kind of resource: its names and columns.
#[derive(Debug)]
pub struct Kind {
    /// Singular noun ("IP policy").
    pub noun: &'static str,
    /// Plural noun ("IP policies").
    pub plural: &'static str,
    /// Columns, in order: the order of a table's columns, TSV fields and a detail view's
    /// first lines (what a person needs first).
    pub columns: &'static [Column],
}

/// A field shown everywhere: table (with this priority), TSV and detail view.
pub const fn col(header: &'static str, field: &'static str, cell: Cell, priority: u8) -> Column {
    Column {
        header,
        field,
        cell,
        priority,
        in_table: true,
        in_tsv: true,
        in_detail: true,
        stands_in_for: None,
    }
}

/// A column left out of list tables, where width is short (still in TSV and detail views).
pub const fn detail_col(header: &'static str, field: &'static str, cell: Cell) -> Column {
    Column {
        in_table: false,
        ..col(header, field, cell, ALWAYS)
    }
}

/// A summary column of tables and TSV whose field a detail view shows in full elsewhere.
pub const fn list_col(
    header: &'static str,
    field: &'static str,
    cell: Cell,
    priority: u8,
) -> Column {
    Column {
        in_detail: false,
        ..col(header, field, cell, priority)
    }
}

/// A column of list tables only: a field split in two, so that its short half still fits a
/// narrow terminal (TSV and detail views show the field whole, as a [`detail_col`]).
pub const fn table_col(
    header: &'static str,
    field: &'static str,
    cell: Cell,
    priority: u8,
) -> Column {
    Column {
        in_tsv: false,
        in_detail: false,
        ..col(header, field, cell, priority)
    }
}

/// A line of detail views only (TSV keeps its columns as they were).
pub const fn detail_only(header: &'static str, field: &'static str, cell: Cell) -> Column {
    Column {
        in_table: false,
        in_tsv: false,
        ..col(header, field, cell, ALWAYS)
    }
}

/// The TLS termination module of an edge.
pub static TLS_TERMINATION: Kind = Kind {
    noun: "TLS termination module",
    plural: "TLS termination modules",
    columns: &[
        col("ENABLED", "enabled", Cell::Text, ALWAYS),
        col("TERMINATE AT", "terminate_at", Cell::Text, ALWAYS),
        col("MIN VERSION", "min_version", Cell::Text, ALWAYS),
    ],
};

/// The event sources of a subscription.
pub static EVENT_SOURCE: Kind = Kind {
    noun: "event source",
    plural: "event sources",
    columns: &[
        col("TYPE", "type", Cell::Text, ALWAYS),
        col("URI", "uri", Cell::Text, 2),
    ],
};

/// Anything (`tunnelctl api`): always printed as JSON, so no columns.
pub static RAW: Kind = Kind {
    noun: "item",
    plural: "items",
    columns: &[],
};

/// Tunnels of the local agent.
pub static TUNNEL: Kind = Kind {
    noun: "tunnel",
    plural: "tunnels",
    columns: &[
        col("NAME", "name", Cell::Text, ALWAYS),
        col("PROTO", "proto", Cell::Text, 3),
        col("PUBLIC URL", "public_url", Cell::Text, 2),
        list_col("ADDR", "/config/addr", Cell::Text, 4),
        list_col("INSPECT", "/config/inspect", Cell::Text, 7),
        list_col("CONNS", "/metrics/conns/count", Cell::Text, 5),
        list_col("REQUESTS", "/metrics/http/count", Cell::Text, 6),
        detail_only("CONFIG", "config", Cell::Pairs),
        detail_only("CONNECTIONS", "/metrics/conns", Cell::Metrics),
        detail_only("HTTP REQUESTS", "/metrics/http", Cell::Metrics),
    ],
};

/// The columns of a captured request, with a column of where it was kept from between its
/// time and its tunnel when given.
macro_rules! capture_columns {
    ($($source:expr)?) => {
        &[
            col("ID", "id", Cell::Text, ALWAYS),
            col("TIME", "start", Cell::Time, 3),
            $($source,)?
            col("TUNNEL", "tunnel_name", Cell::Text, 6),
            col("METHOD", "/request/method", Cell::Text, 2),
            col("PATH", "/request/uri", Cell::Free, 2),
            col("STATUS", "/response/status_code", Cell::Status, 2),
            col("DURATION", "duration", Cell::Nanos, 4),
            col("FROM", "remote_addr", Cell::Text, 5),
        ]
    };
}

/// Requests captured by the local agent.
pub static CAPTURED_REQUEST: Kind = Kind {
    noun: "captured request",
    plural: "captured requests",
    columns: capture_columns!(),
};

/// `local requests list --history` of a store holding several sources: a captured request
/// and the source (agent) it was kept from.
pub static KEPT_REQUEST: Kind = Kind {
    noun: "captured request",
    plural: "captured requests",
    columns: capture_columns!(col("SOURCE", "source", Cell::Text, 4)),
};

/// `local requests verify`: one captured request's webhook signature check.
pub static SIGNATURE_CHECK: Kind = Kind {
    noun: "signature check",
    plural: "signature checks",
    columns: &[
        col("ID", "id", Cell::Text, ALWAYS),
        col("PROVIDER", "provider", Cell::Text, 3),
        col("RESULT", "result", Cell::Text, ALWAYS),
        // It names the variable to set and the age of a signature: wrapped, never cut.
        col("DETAIL", "detail", Cell::Prose, 2),
    ],
};

impl Kind {
    /// The columns of a list table.
    pub fn table_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| c.in_table)
    }

    /// The columns of a `-o wide` table: every column of the resource, as kubectl means it:
    /// the list table's, and those only TSV and detail views have whose field no table
    /// column shows already (never the many-line views of a tunnel's config and metrics).
    pub fn wide_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| {
            let many_lines = matches!(c.cell, Cell::Pairs | Cell::Metrics);
            c.in_table || (!many_lines && !self.table_columns().any(|t| t.field == c.field))
        })
    }

    /// The cells of a `-o wide` table row.
    pub fn wide_row(&self, item: &Value) -> Vec<String> {
        self.wide_columns().map(|c| render(c, item, true)).collect()
    }

    /// The lines a detail view starts with.
    pub fn detail_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| c.in_detail)
    }

    /// What a terminal is told when a list of this kind is empty ("No IP policies.").
    pub fn empty_note(&self) -> String {
        format!("No {}.", self.plural)
    }

    /// The cells of a table row (human times, escaped).
    pub fn table_row(&self, item: &Value) -> Vec<String> {
        self.table_columns()
            .map(|c| render(c, item, true))
            .collect()
    }

    /// A TSV line: full values, RFC 3339 times, tabs and newlines escaped.
    pub fn tsv_row(&self, item: &Value) -> String {
        self.columns
            .iter()
            .filter(|c| c.in_tsv)
            .map(|c| render(c, item, false))
            .collect::<Vec<_>>()
            .join("\t")
    }
}

/// A field by name or JSON pointer (`/request/method`); null where it is missing.
pub fn field<'a>(name: &str, item: &'a Value) -> &'a Value {
    if name.starts_with('/') {
        item.pointer(name)
    } else {
        item.get(name)
    }
    .unwrap_or(&Value::Null)
}

/// A scalar as text, anything else as compact JSON; escaped, secrets masked.
pub fn scalar(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => escape(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => json_text(other),
    }
}

/// A top-level field as a detail view may show it: the value of a secret field masked, and
/// every secret field nested in it too (a field the columns do not know may still hold a
/// secret the service echoes).
pub fn masked_field(name: &str, value: &Value) -> Value {
    let mut one = serde_json::Map::new();
    one.insert(name.to_string(), value.clone());
    let mut v = Value::Object(one);
    crate::secrets::mask_secret_fields(&mut v, crate::secrets::SECRET_FIELDS);
    v.get(name).cloned().unwrap_or(Value::Null)
}

/// An object or array shown in one cell, as compact JSON with its secret fields masked
/// (`aws_secret_access_key` wherever it is nested) and escaped: a field the columns do not
/// know may still hold a secret the service echoes.
pub fn json_text(v: &Value) -> String {
    let mut masked = v.clone();
    crate::secrets::mask_secret_fields(&mut masked, crate::secrets::SECRET_FIELDS);
    escape(&masked.to_string())
}

fn join(parts: Vec<String>, human: bool) -> String {
    parts.join(if human { ", " } else { "," })
}

/// The text of one cell.
pub fn render(col: &Column, item: &Value, human: bool) -> String {
    let v = field(col.field, item);
    match col.cell {
        Cell::Text | Cell::Free | Cell::Prose => scalar(v),
        Cell::Pairs | Cell::Metrics => match v {
            Value::Null => String::new(),
            other => json_text(other),
        },
        Cell::Time => match v.as_str() {
            Some(t) if human => human_time(t).unwrap_or_else(|| escape(t)),
            _ => scalar(v),
        },
        Cell::RefId => scalar(v.get("id").unwrap_or(&Value::Null)),
        Cell::RefIds => join(
            v.as_array()
                .map(|a| a.iter().map(|r| scalar(r.get("id").unwrap_or(r))).collect())
                .unwrap_or_default(),
            human,
        ),
        Cell::Labels => join(label_pairs(v), human),
        Cell::Types => join(type_names(v), human),
        Cell::Target => target_member(v)
            .map(|(name, m)| match target_arn(m) {
                Some(a) => format!("{} {}", escape(name), escape(a)),
                None => escape(name),
            })
            .unwrap_or_default(),
        Cell::TargetType => target_member(v)
            .map(|(name, _)| escape(name))
            .unwrap_or_default(),
        Cell::TargetArn => target_member(v)
            .and_then(|(_, m)| target_arn(m))
            .map(escape)
            .unwrap_or_default(),
        Cell::TargetName => target_member(v)
            .and_then(|(_, m)| target_arn(m))
            .map(|arn| escape(arn_name(arn)))
            .unwrap_or_default(),
        Cell::Nanos if human && !is_answered(item) => "pending".to_string(),
        Cell::Nanos => match v.as_i64() {
            Some(n) if human => super::time::human_duration(n),
            _ => scalar(v),
        },
        Cell::Status if !is_answered(item) => "pending".to_string(),
        Cell::Status => scalar(v),
        Cell::Auth => target_member(v)
            .and_then(|(_, m)| m.get("auth"))
            .map(auth_text)
            .unwrap_or_default(),
    }
}

/// Has the local server answered this captured exchange (the agent's JSON)? See [`answered`].
fn is_answered(captured: &Value) -> bool {
    match captured.get("response") {
        None | Some(Value::Null) => false,
        Some(r) => answered(
            r.get("status_code").and_then(Value::as_i64),
            r.get("raw").and_then(Value::as_str),
        ),
    }
}

/// The one rule for whether a captured exchange's response part says the local server has
/// answered: a status code, or raw bytes. (The real agent shows a pending response as
/// `status_code: 0` and `raw: null`; other versions as no response at all.) The typed capture
/// model of the capture feature reads it too.
pub fn answered(status_code: Option<i64>, raw: Option<&str>) -> bool {
    status_code.unwrap_or(0) != 0 || raw.is_some_and(|r| !r.is_empty())
}

/// A labels object as `key=value` texts, escaped; none for anything but an object.
pub fn label_pairs(v: &Value) -> Vec<String> {
    v.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{}={}", escape(k), scalar(v)))
                .collect()
        })
        .unwrap_or_default()
}

/// The `type` of each source in a list (or the entry itself where it has none); none for
/// anything but an array.
pub fn type_names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| scalar(s.get("type").unwrap_or(s)))
                .collect()
        })
        .unwrap_or_default()
}

/// The one non-null member of an EventTarget.
fn target_member(target: &Value) -> Option<(&str, &Value)> {
    target
        .as_object()?
        .iter()
        .find(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.as_str(), v))
}

/// The ARN of an EventTarget's member: whichever resource it names.
fn target_arn(member: &Value) -> Option<&str> {
    ["stream_arn", "delivery_stream_arn", "log_group_arn"]
        .iter()
        .find_map(|k| member.get(*k).and_then(Value::as_str))
}

/// The name of the resource an ARN names: `tunnel-events` in
/// `arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events`, `/sec` in
/// `arn:aws:logs:eu-west-1:123456789012:log-group:/sec:*`; the whole text when it is not an
/// ARN of that shape.
fn arn_name(arn: &str) -> &str {
    // arn:partition:service:region:account:resource (the resource may hold colons).
    let Some(resource) = arn.splitn(6, ':').nth(5) else {
        return arn;
    };
    let name = match resource.strip_prefix("log-group:") {
        Some(group) => group.strip_suffix(":*").unwrap_or(group),
        None => resource.split_once('/').map_or(resource, |(_, name)| name),
    };
    if name.is_empty() {
        arn
    } else {
        name
    }
}

fn auth_text(auth: &Value) -> String {
    if let Some(arn) = auth.pointer("/role/role_arn").and_then(Value::as_str) {
        return format!("role {}", escape(arn));
    }
    if let Some(id) = auth
        .pointer("/creds/aws_access_key_id")
        .and_then(Value::as_str)
    {
        return format!("key {} (secret hidden)", escape(id));
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // The columns of the management resources are in their descriptors.
    const SESSION: &Kind = crate::api::sessions::RESOURCE.kind;
    const IP_POLICY: &Kind = crate::api::ip_policies::RESOURCE.kind;
    const BACKEND: &Kind = crate::api::backends::RESOURCE.kind;
    const EVENT_DESTINATION: &Kind = crate::api::event_destinations::RESOURCE.kind;
    const EVENT_SUBSCRIPTION: &Kind = crate::api::event_subscriptions::RESOURCE.kind;

    #[test]
    fn rows_escape_and_summarise() {
        let d = json!({
            "id": "ed_1", "description": "a\tb\x1b[2J", "format": "json",
            "target": {"kinesis": {"stream_arn": "arn:k", "auth": {"creds": {"aws_access_key_id": "AKIA", "aws_secret_access_key": "shh"}}}, "firehose": null},
            "created_at": "2026-01-01T00:00:00Z"
        });
        let row = EVENT_DESTINATION.tsv_row(&d);
        assert_eq!(row, "ed_1\ta\\tb\\x1b[2J\tjson\tkinesis arn:k\tkey AKIA (secret hidden)\t\t2026-01-01T00:00:00Z");
        assert!(!row.contains("shh"));
        let b = json!({"id": "bkdtg_1", "labels": {"a": "1", "b": "2"}, "tunnels": [{"id": "tn_1", "uri": "u"}], "created_at": "x"});
        assert_eq!(BACKEND.tsv_row(&b), "bkdtg_1\t\ta=1,b=2\ttn_1\t\tx");
    }

    #[test]
    fn the_name_inside_an_arn() {
        for (arn, name) in [
            (
                "arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events",
                "tunnel-events",
            ),
            (
                "arn:aws:firehose:us-east-1:123456789012:deliverystream/audit",
                "audit",
            ),
            (
                "arn:aws:logs:eu-west-1:123456789012:log-group:/sec:*",
                "/sec",
            ),
            ("arn:aws:logs:eu-west-1:123456789012:log-group:app", "app"),
            ("arn:k", "arn:k"),
            (
                "arn:aws:kinesis:us-east-1:1:stream/",
                "arn:aws:kinesis:us-east-1:1:stream/",
            ),
        ] {
            assert_eq!(arn_name(arn), name, "{arn}");
        }
    }

    #[test]
    fn wide_tables_have_every_column_of_the_resource_once() {
        let headers = |k: &Kind| k.wide_columns().map(|c| c.header).collect::<Vec<_>>();
        let sessions = headers(SESSION);
        assert!(sessions.contains(&"CREDENTIAL") && sessions.contains(&"TRANSPORT"));
        // Each field once: the target's ARN and its name (a table's stand-in for it), not
        // also the detail view's TARGET; the format last.
        let destinations = headers(EVENT_DESTINATION);
        assert_eq!(destinations.iter().filter(|h| **h == "TARGET").count(), 1);
        assert!(destinations.contains(&"TARGET NAME"));
        assert_eq!(destinations.last(), Some(&"FORMAT"));
        // Every field a TSV row or a table has is in the wide table.
        for kind in [
            SESSION,
            IP_POLICY,
            BACKEND,
            &TLS_TERMINATION,
            EVENT_DESTINATION,
            EVENT_SUBSCRIPTION,
            &EVENT_SOURCE,
            &TUNNEL,
            &CAPTURED_REQUEST,
            &KEPT_REQUEST,
            &SIGNATURE_CHECK,
        ] {
            for c in kind.columns.iter().filter(|c| c.in_tsv || c.in_table) {
                // (and every line of a detail view that fits on one)
                assert!(
                    kind.wide_columns().any(|w| w.field == c.field),
                    "{}: {} is not in -o wide",
                    kind.plural,
                    c.header
                );
            }
        }
    }
}
