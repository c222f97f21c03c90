//! A runtime error of a `--jq` filter as one short line. jaq's message quotes the values it
//! met in full (`cannot index [ …the whole list… ] with "id"`, 193 KB for a long list); here
//! each quoted array, object or long string becomes its type and a short preview, and the
//! line names the expression that failed.

use serde_json::Value;

use crate::escape::escape;

/// The most characters of a value's JSON text quoted in a message.
const PREVIEW: usize = 60;
/// The most characters of jaq's message kept, once its values are shortened.
const MAX_MESSAGE: usize = 200;

/// The message for the filter `code` failing with jaq's error text `error`.
pub fn runtime_error(code: &str, error: &str) -> String {
    let mut message = String::new();
    let mut rest = error;
    while let Some(at) = rest.find(['[', '{', '"']) {
        message.push_str(&rest[..at]);
        let tail = &rest[at..];
        let mut values = serde_json::Deserializer::from_str(tail).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => {
                message.push_str(&describe(&value));
                rest = &tail[values.byte_offset()..];
            }
            _ => {
                // Not JSON after all: the character as it is.
                let c = tail.chars().next().map_or(1, char::len_utf8);
                message.push_str(&tail[..c]);
                rest = &tail[c..];
            }
        }
    }
    message.push_str(rest);
    // Text that is not JSON (a value jaq shows its own way) is bounded all the same.
    if message.chars().count() > MAX_MESSAGE {
        message = message.chars().take(MAX_MESSAGE).chain(['…']).collect();
    }
    let mut line = format!("--jq '{}': {}", cut(code), escape(&message));
    if message.starts_with("cannot index array") && message.contains(" with \"") {
        line.push_str(
            " (the input is a list: start the filter with '.[] |' to run it on each item)",
        );
    }
    line
}

/// A value as an error names it: short strings and scalars as they are; arrays, objects and
/// long strings by their type and the start of their JSON text.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    match value {
        Value::Array(items) => format!("array {} ({} items)", cut(&text), items.len()),
        Value::Object(_) => format!("object {}", cut(&text)),
        Value::String(_) if text.chars().count() > PREVIEW => format!("string {}", cut(&text)),
        _ => text,
    }
}

/// At most [`PREVIEW`] characters of `text`, with `…` when cut.
fn cut(text: &str) -> String {
    if text.chars().count() <= PREVIEW {
        text.to_string()
    } else {
        text.chars().take(PREVIEW).chain(['…']).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_values_are_named_by_type_with_a_preview() {
        let list: Vec<Value> = (0..2000)
            .map(|i| serde_json::json!({"id": format!("ipp_{i}"), "description": "office"}))
            .collect();
        let error = format!("cannot index {} with \"id\"", Value::Array(list));
        let line = runtime_error(".id", &error);
        assert!(line.len() < 250, "{line}");
        assert!(
            line.starts_with(r#"--jq '.id': cannot index array [{"id":"ipp_0","#),
            "{line}"
        );
        assert!(
            line.contains(r#"…] (2000 items) with "id""#)
                || line.contains(r#"… (2000 items) with "id""#),
            "{line}"
        );
        assert!(line.contains("'.[] |'"), "{line}");
    }

    #[test]
    fn small_values_stay_and_controls_are_escaped() {
        assert_eq!(
            runtime_error(".a + 1", r#"cannot calculate "x" + 1"#),
            r#"--jq '.a + 1': cannot calculate "x" + 1"#
        );
        let long = format!("cannot use \"\\u001b{}\" as number", "a".repeat(100));
        let line = runtime_error("tonumber", &long);
        assert!(line.contains(r#"string "\u001baaaa"#), "{line}");
        assert!(line.len() < 120, "{line}");
        assert!(!line.contains('\u{1b}'));
        assert_eq!(
            runtime_error(".", "oops [ not json"),
            "--jq '.': oops [ not json"
        );
        let odd = format!("cannot use b\"{}\u{1b}\"", "x".repeat(1000));
        let line = runtime_error(".", &odd);
        assert!(line.len() < 260 && !line.contains('\u{1b}'), "{line}");
    }
}
