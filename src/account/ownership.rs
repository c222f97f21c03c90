//! The ownership marker: what `apply` records in a resource's own `metadata` so that any
//! checkout of the files, on any machine, finds the resources it made again, with no state
//! file.
//!
//! The metadata the service stores is the user's metadata with one key added:
//! `{"team": "it", "tunnelctl": {"name": "office"}}`. User metadata that is not a JSON object
//! (plain text, a list) is kept whole inside the marker instead:
//! `{"tunnelctl": {"name": "office", "metadata": "owned by ops"}}`. Reading it back gives the
//! user's metadata unchanged either way, so the marker never shows as a change.

use serde_json::{json, Map, Value};

/// The key of the marker in the metadata object.
pub const MARKER: &str = "tunnelctl";

/// A resource's metadata split into what the user wrote and the marker's name.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// The user's metadata: `null` for none, a JSON object or array when it is one, else
    /// the text as a string.
    pub user: Value,
    /// The name tunnelctl manages it under, when it carries the marker.
    pub managed_as: Option<String>,
}

/// The user's part of a metadata text, as compared: JSON objects and arrays by value (so
/// spacing and key order make no difference), anything else as text; empty is `null`.
pub fn user_value(text: &str) -> Value {
    if text.is_empty() {
        return Value::Null;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => v,
        _ => Value::String(text.to_string()),
    }
}

/// Splits the metadata the service holds.
pub fn split(stored: Option<&str>) -> Split {
    let text = stored.unwrap_or_default();
    let Value::Object(mut map) = user_value(text) else {
        return Split {
            user: user_value(text),
            managed_as: None,
        };
    };
    let Some(Value::Object(marker)) = map.get(MARKER).cloned() else {
        return Split {
            user: Value::Object(map),
            managed_as: None,
        };
    };
    let Some(name) = marker.get("name").and_then(Value::as_str) else {
        return Split {
            user: Value::Object(map),
            managed_as: None,
        };
    };
    map.shift_remove(MARKER);
    let user = match marker.get("metadata") {
        Some(Value::String(s)) => user_value(s),
        _ if map.is_empty() => Value::Null,
        _ => Value::Object(map),
    };
    Split {
        user,
        managed_as: Some(name.to_string()),
    }
}

/// The user's metadata as text (what a file holds and what is sent without a marker).
pub fn user_text(user: &Value) -> String {
    match user {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The metadata to send: the user's, with the marker for `name` merged in.
pub fn merged(user: &Value, name: &str) -> String {
    let mut marker = Map::new();
    marker.insert("name".into(), json!(name));
    let out = match user {
        // A key of the user's own by the marker's name is kept whole inside the marker.
        Value::Object(map) if !map.contains_key(MARKER) => {
            let mut map = map.clone();
            map.insert(MARKER.into(), Value::Object(marker));
            Value::Object(map)
        }
        Value::Null => json!({ MARKER: marker }),
        other => {
            marker.insert("metadata".into(), json!(user_text(other)));
            json!({ MARKER: marker })
        }
    };
    out.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_round_trips_with_any_user_metadata() {
        for user in [
            "",
            "{\"team\":\"it\"}",
            "owned by ops",
            "[1,2]",
            "42",
            "{\"tunnelctl\": 3}",
        ] {
            let sent = merged(&user_value(user), "office");
            let back = split(Some(&sent));
            assert_eq!(back.managed_as.as_deref(), Some("office"), "{user}");
            assert_eq!(back.user, user_value(user), "{user} -> {sent}");
        }
    }

    #[test]
    fn unmarked_metadata_is_the_users() {
        let s = split(Some("{\"b\": 1, \"a\": 2}"));
        assert_eq!(s.managed_as, None);
        assert_eq!(s.user, json!({"a": 2, "b": 1}));
        assert_eq!(split(None).user, Value::Null);
        assert_eq!(split(Some("text")).user, json!("text"));
    }
}
