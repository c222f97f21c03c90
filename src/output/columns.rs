//! What each resource shows in a table or a TSV row: its columns, and how a JSON field
//! becomes a cell. Every server string passes through [`escape`] here.

use serde_json::Value;

use super::time::human_time;
use crate::escape::escape;

/// How a field becomes text.
#[derive(Debug, Clone, Copy)]
pub enum Cell {
    /// A string, number or boolean as it is.
    Text,
    /// An RFC 3339 time: "3h ago" in a table, unchanged in TSV.
    Time,
    /// A Ref `{id, uri}`: its id.
    RefId,
    /// A list of Refs: their ids.
    RefIds,
    /// A map of strings: `k=v` pairs.
    Labels,
    /// A list of `{type}` objects: the types.
    Types,
    /// An EventTarget: which member, and its resource name.
    Target,
    /// The auth of an EventTarget: the role ARN or the access key id; never the secret.
    Auth,
    /// A duration in nanoseconds: "12.3 ms" in a table, the number in TSV.
    Nanos,
    /// A response status code, or "pending" when there is no response yet.
    Status,
}

/// One column.
#[derive(Debug)]
pub struct Column {
    /// Upper-case header.
    pub header: &'static str,
    /// The field it shows: a top-level name, or a JSON pointer (`/request/method`).
    pub field: &'static str,
    /// How it is shown.
    pub cell: Cell,
    /// Shown in list tables (TSV and detail views show every column).
    pub in_table: bool,
}

impl Column {
    /// May this column wrap in a narrow table? IDs, times and short codes never do.
    pub fn may_wrap(&self) -> bool {
        matches!(
            self.field,
            "description"
                | "metadata"
                | "target"
                | "labels"
                | "tunnels"
                | "sources"
                | "destinations"
                | "uri"
                | "/request/uri"
                | "public_url"
        )
    }
}

/// A kind of resource: its names and columns.
#[derive(Debug)]
pub struct Kind {
    /// Singular noun ("IP policy").
    pub noun: &'static str,
    /// Plural noun ("IP policies").
    pub plural: &'static str,
    /// Columns, in order.
    pub columns: &'static [Column],
}

const fn col(header: &'static str, field: &'static str, cell: Cell) -> Column {
    Column {
        header,
        field,
        cell,
        in_table: true,
    }
}

/// A column left out of list tables, where width is short (still in TSV and detail views).
const fn detail_col(header: &'static str, field: &'static str, cell: Cell) -> Column {
    Column {
        header,
        field,
        cell,
        in_table: false,
    }
}

/// Tunnel sessions.
pub static SESSION: Kind = Kind {
    noun: "tunnel session",
    plural: "tunnel sessions",
    columns: &[
        col("ID", "id", Cell::Text),
        col("REGION", "region", Cell::Text),
        col("OS", "os", Cell::Text),
        col("AGENT VERSION", "agent_version", Cell::Text),
        col("IP", "ip", Cell::Text),
        col("STARTED", "started_at", Cell::Time),
        detail_col("CREDENTIAL", "credential", Cell::RefId),
        col("METADATA", "metadata", Cell::Text),
    ],
};

/// IP policies.
pub static IP_POLICY: Kind = Kind {
    noun: "IP policy",
    plural: "IP policies",
    columns: &[
        col("ID", "id", Cell::Text),
        col("DESCRIPTION", "description", Cell::Text),
        col("METADATA", "metadata", Cell::Text),
        col("CREATED", "created_at", Cell::Time),
    ],
};

/// Tunnel-group backends.
pub static BACKEND: Kind = Kind {
    noun: "tunnel-group backend",
    plural: "tunnel-group backends",
    columns: &[
        col("ID", "id", Cell::Text),
        col("DESCRIPTION", "description", Cell::Text),
        col("LABELS", "labels", Cell::Labels),
        col("TUNNELS", "tunnels", Cell::RefIds),
        col("METADATA", "metadata", Cell::Text),
        col("CREATED", "created_at", Cell::Time),
    ],
};

/// The TLS termination module of an edge.
pub static TLS_TERMINATION: Kind = Kind {
    noun: "TLS termination module",
    plural: "TLS termination modules",
    columns: &[
        col("ENABLED", "enabled", Cell::Text),
        col("TERMINATE AT", "terminate_at", Cell::Text),
        col("MIN VERSION", "min_version", Cell::Text),
    ],
};

/// Event destinations.
pub static EVENT_DESTINATION: Kind = Kind {
    noun: "event destination",
    plural: "event destinations",
    columns: &[
        col("ID", "id", Cell::Text),
        col("DESCRIPTION", "description", Cell::Text),
        col("FORMAT", "format", Cell::Text),
        col("TARGET", "target", Cell::Target),
        col("AUTH", "target", Cell::Auth),
        col("METADATA", "metadata", Cell::Text),
        col("CREATED", "created_at", Cell::Time),
    ],
};

/// Event subscriptions.
pub static EVENT_SUBSCRIPTION: Kind = Kind {
    noun: "event subscription",
    plural: "event subscriptions",
    columns: &[
        col("ID", "id", Cell::Text),
        col("DESCRIPTION", "description", Cell::Text),
        col("SOURCES", "sources", Cell::Types),
        col("DESTINATIONS", "destinations", Cell::RefIds),
        col("METADATA", "metadata", Cell::Text),
        col("CREATED", "created_at", Cell::Time),
    ],
};

/// The event sources of a subscription.
pub static EVENT_SOURCE: Kind = Kind {
    noun: "event source",
    plural: "event sources",
    columns: &[
        col("TYPE", "type", Cell::Text),
        col("URI", "uri", Cell::Text),
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
        col("NAME", "name", Cell::Text),
        col("PROTO", "proto", Cell::Text),
        col("PUBLIC URL", "public_url", Cell::Text),
        col("ADDR", "/config/addr", Cell::Text),
        col("INSPECT", "/config/inspect", Cell::Text),
        col("CONNS", "/metrics/conns/count", Cell::Text),
        col("REQUESTS", "/metrics/http/count", Cell::Text),
    ],
};

/// Requests captured by the local agent.
pub static CAPTURED_REQUEST: Kind = Kind {
    noun: "captured request",
    plural: "captured requests",
    columns: &[
        col("ID", "id", Cell::Text),
        col("TIME", "start", Cell::Time),
        col("TUNNEL", "tunnel_name", Cell::Text),
        col("METHOD", "/request/method", Cell::Text),
        col("PATH", "/request/uri", Cell::Text),
        col("STATUS", "/response/status_code", Cell::Status),
        col("DURATION", "duration", Cell::Nanos),
        col("FROM", "remote_addr", Cell::Text),
    ],
};

impl Kind {
    /// The columns of a list table.
    pub fn table_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| c.in_table)
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
            .map(|c| render(c, item, false))
            .collect::<Vec<_>>()
            .join("\t")
    }
}

fn scalar(v: &Value) -> String {
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
    crate::secrets::mask_secret_fields(&mut v, crate::api::SECRET_FIELDS);
    v.get(name).cloned().unwrap_or(Value::Null)
}

/// An object or array shown in one cell, as compact JSON with its secret fields masked
/// (`aws_secret_access_key` wherever it is nested) and escaped: a field the columns do not
/// know may still hold a secret the service echoes.
pub fn json_text(v: &Value) -> String {
    let mut masked = v.clone();
    crate::secrets::mask_secret_fields(&mut masked, crate::api::SECRET_FIELDS);
    escape(&masked.to_string())
}

fn join(parts: Vec<String>, human: bool) -> String {
    parts.join(if human { ", " } else { "," })
}

/// The text of one cell.
pub fn render(col: &Column, item: &Value, human: bool) -> String {
    let v = if col.field.starts_with('/') {
        item.pointer(col.field)
    } else {
        item.get(col.field)
    }
    .unwrap_or(&Value::Null);
    match col.cell {
        Cell::Text => scalar(v),
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
        Cell::Labels => join(
            v.as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| format!("{}={}", escape(k), scalar(v)))
                        .collect()
                })
                .unwrap_or_default(),
            human,
        ),
        Cell::Types => join(
            v.as_array()
                .map(|a| {
                    a.iter()
                        .map(|s| scalar(s.get("type").unwrap_or(s)))
                        .collect()
                })
                .unwrap_or_default(),
            human,
        ),
        Cell::Target => target_member(v)
            .map(|(name, m)| {
                let arn = ["stream_arn", "delivery_stream_arn", "log_group_arn"]
                    .iter()
                    .find_map(|k| m.get(*k).and_then(Value::as_str));
                match arn {
                    Some(a) => format!("{} {}", escape(name), escape(a)),
                    None => escape(name),
                }
            })
            .unwrap_or_default(),
        Cell::Nanos => match v.as_i64() {
            Some(n) if human => super::capture::exchange::human_duration(n),
            _ => scalar(v),
        },
        Cell::Status if !super::capture::exchange::is_answered(item) => "pending".to_string(),
        Cell::Status => scalar(v),
        Cell::Auth => target_member(v)
            .and_then(|(_, m)| m.get("auth"))
            .map(auth_text)
            .unwrap_or_default(),
    }
}

/// The one non-null member of an EventTarget.
fn target_member(target: &Value) -> Option<(&str, &Value)> {
    target
        .as_object()?
        .iter()
        .find(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.as_str(), v))
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
}
