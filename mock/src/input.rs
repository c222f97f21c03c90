//! Reading request bodies strictly: the content type, JSON syntax, unknown fields, field
//! types and length limits, each with its own error naming the field.
//!
//! The point of the emulator is to catch client mistakes, so it rejects what a lenient server
//! might silently ignore (an unknown or misspelt field, a number where a string belongs).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::api_error::{code, ApiError};

/// Parses a request body that must be a JSON object.
///
/// An empty body counts as `{}`, whatever the content type: commands such as restart carry no
/// meaningful fields. A non-empty body must be sent as `application/json`.
pub fn parse_object(
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Map<String, Value>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    if !is_json_content_type(content_type) {
        return Err(ApiError::new(
            415,
            code::CONTENT_TYPE,
            format!(
                "The request body must be sent with Content-Type: application/json (got {}).",
                content_type.map_or("none".to_string(), |c| format!("'{c}'"))
            ),
        ));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::new(
            400,
            code::BAD_JSON,
            "The request body must be a JSON object.",
        )),
        Err(e) => Err(ApiError::new(
            400,
            code::BAD_JSON,
            format!("The request body is not valid JSON: {e}."),
        )),
    }
}

fn is_json_content_type(content_type: Option<&str>) -> bool {
    content_type
        .and_then(|c| c.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

/// A view of a JSON object in a request, which knows its path for error messages
/// (`target.kinesis.auth`).
#[derive(Debug, Clone, Copy)]
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: &'a str,
}

impl<'a> Fields<'a> {
    /// The top-level object of a body.
    pub fn root(map: &'a Map<String, Value>) -> Self {
        Fields { map, prefix: "" }
    }

    /// The top-level object of a control body (`what`, e.g. "A seed", names it in the
    /// error when it is not an object), which may have only the members `keys`.
    pub fn control(v: &'a Value, what: &str, keys: &[&str]) -> Result<Self, ApiError> {
        let Value::Object(map) = v else {
            return Err(ApiError::invalid(
                "",
                format!("{what} must be a JSON object."),
            ));
        };
        let f = Fields::root(map);
        f.only(keys)?;
        Ok(f)
    }

    /// A nested object at `prefix` (used by [`Fields::object`] callers that build the path).
    pub fn nested(map: &'a Map<String, Value>, prefix: &'a str) -> Self {
        Fields { map, prefix }
    }

    /// The dotted path of a key of this object.
    pub fn path(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.prefix)
        }
    }

    /// Fails on the first key not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<(), ApiError> {
        match self.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(ApiError::unknown_field(&self.path(k))),
            None => Ok(()),
        }
    }

    /// The value of a key, treating `null` as absent.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Whether a key is present with a non-null value.
    pub fn is_set(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Whether a key is present at all, even as `null`.
    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// An optional value that `pick` accepts (`null` counts as absent); any other is an error
    /// saying the field must be `what`.
    fn typed<T>(
        &self,
        key: &str,
        what: &str,
        pick: impl Fn(&'a Value) -> Option<T>,
    ) -> Result<Option<T>, ApiError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => pick(v).map(Some).ok_or_else(|| {
                let path = self.path(key);
                ApiError::invalid(&path, format!("{path} must be {what}."))
            }),
        }
    }

    /// An optional string (`null` counts as absent).
    pub fn string(&self, key: &str) -> Result<Option<&'a str>, ApiError> {
        self.typed(key, "a string", Value::as_str)
    }

    /// A string that must be present and not empty.
    pub fn required_string(&self, key: &str) -> Result<&'a str, ApiError> {
        match self.string(key)? {
            Some(s) if !s.is_empty() => Ok(s),
            _ => Err(ApiError::invalid(
                &self.path(key),
                format!("{} is required.", self.path(key)),
            )),
        }
    }

    /// An optional boolean (`null` counts as absent).
    pub fn boolean(&self, key: &str) -> Result<Option<bool>, ApiError> {
        self.typed(key, "true or false", Value::as_bool)
    }

    /// An optional non-negative integer (`null` counts as absent).
    pub fn uint(&self, key: &str) -> Result<Option<u64>, ApiError> {
        self.typed(key, "a non-negative integer", Value::as_u64)
    }

    /// An optional JSON object (`null` counts as absent).
    pub fn object(&self, key: &str) -> Result<Option<&'a Map<String, Value>>, ApiError> {
        self.typed(key, "an object", Value::as_object)
    }

    /// An optional JSON array (`null` counts as absent).
    pub fn array(&self, key: &str) -> Result<Option<&'a Vec<Value>>, ApiError> {
        self.typed(key, "a list", Value::as_array)
    }

    /// An optional JSON array's items, each with its path (`key[i]`) for errors.
    pub fn items(&self, key: &str) -> Result<Option<Vec<(String, &'a Value)>>, ApiError> {
        let path = self.path(key);
        Ok(self.array(key)?.map(|list| {
            list.iter()
                .enumerate()
                .map(|(i, v)| (format!("{path}[{i}]"), v))
                .collect()
        }))
    }

    /// An optional map of string to string (`null` counts as absent).
    pub fn labels(&self, key: &str) -> Result<Option<BTreeMap<String, String>>, ApiError> {
        let Some(map) = self.object(key)? else {
            return Ok(None);
        };
        let mut out = BTreeMap::new();
        for (k, v) in map {
            match v {
                Value::String(s) => {
                    out.insert(k.clone(), s.clone());
                }
                _ => {
                    let path = format!("{}.{k}", self.path(key));
                    return Err(ApiError::invalid(
                        &path,
                        format!("{path} must be a string."),
                    ));
                }
            }
        }
        Ok(Some(out))
    }
}

/// How a length limit counts.
#[derive(Debug, Clone, Copy)]
pub enum Unit {
    /// UTF-8 bytes (IP policies, event destinations).
    Bytes,
    /// Unicode scalar values (event subscriptions).
    Chars,
}

/// Fails when `value` is longer than `max` in `unit`.
pub fn check_len(field: &str, value: &str, max: usize, unit: Unit) -> Result<(), ApiError> {
    let (len, name) = match unit {
        Unit::Bytes => (value.len(), "bytes"),
        Unit::Chars => (value.chars().count(), "characters"),
    };
    if len > max {
        return Err(ApiError::invalid(
            field,
            format!("{field} is too long: {len} {name}, the maximum is {max} {name}."),
        )
        .detail("max", max)
        .detail("length", len));
    }
    Ok(())
}

/// The optional `description` and `metadata` strings every resource has, with their limits.
pub fn description_metadata(
    f: &Fields<'_>,
    max_description: usize,
    max_metadata: usize,
    unit: Unit,
) -> Result<(Option<String>, Option<String>), ApiError> {
    let description = f.string("description")?;
    if let Some(d) = description {
        check_len("description", d, max_description, unit)?;
    }
    let metadata = f.string("metadata")?;
    if let Some(m) = metadata {
        check_len("metadata", m, max_metadata, unit)?;
    }
    Ok((
        description.map(str::to_string),
        metadata.map(str::to_string),
    ))
}

/// Sets `slot` to `value` when a body gave one: an update changes only the fields it names.
pub fn set_given<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}
