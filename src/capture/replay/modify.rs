//! Changes to a request before it is sent again: headers set or removed, the body replaced,
//! fields of a JSON body changed (`--set`) or added (`--add`). Each change is checked when it
//! is parsed, and against the body before anything is sent (a field to change that the body
//! does not have is a typo more often than not, and is refused naming the fields there); a
//! bad one is a usage error. [`apply`] makes them in one fixed order: body, JSON fields,
//! removed headers, set headers; then `Content-Length` follows the body.

use serde_json::Value;

use crate::capture::body;
use crate::capture::message::{is_header_value, is_token, Message};
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::json_path::{JsonPath, Step};

/// `--set .a.b[0].c=VALUE`: where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct SetField {
    /// The path, as written (for messages).
    pub path: String,
    /// Where: an index on an object names the key of that number.
    pub steps: JsonPath,
    /// The value: JSON when the text is JSON, else the text as a string.
    pub value: Value,
}

/// The changes asked for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mods {
    /// Headers to set (`--header 'K: V'`): the values given for a name replace all of its
    /// values, in the place of the first.
    pub headers: Vec<(String, String)>,
    /// Headers to remove (`--remove-header K`).
    pub remove: Vec<String>,
    /// A new body (`--body @FILE|-`).
    pub body: Option<Vec<u8>>,
    /// Fields of the JSON body to change (`--set path=value`): each must be there.
    pub set: Vec<SetField>,
    /// Fields to add to the JSON body (`--add path=value`): none may be there yet; the
    /// objects on the way are made as needed.
    pub add: Vec<SetField>,
}

/// Headers whose value `tunnelctl` sets itself from the body: a `--header` for them would be
/// overridden, so it is refused.
const COMPUTED: &[&str] = &["content-length", "transfer-encoding"];

/// Parses `--header 'Name: value'`.
pub fn parse_header(s: &str) -> std::result::Result<(String, String), String> {
    let (name, value) = s
        .split_once(':')
        .ok_or_else(|| format!("'{}' must be 'Name: value'", escape(s)))?;
    let name = name.trim();
    if !is_token(name) {
        return Err(format!("'{}' is not a valid header name", escape(name)));
    }
    if COMPUTED.iter().any(|c| c.eq_ignore_ascii_case(name)) {
        return Err(format!(
            "{name} is set from the body; change the body instead"
        ));
    }
    let value = value.trim_matches([' ', '\t']);
    if !is_header_value(value) {
        return Err(format!(
            "the value of {name} holds control characters or a line break"
        ));
    }
    Ok((name.to_string(), value.to_string()))
}

/// Parses `--remove-header Name`.
pub fn parse_header_name(s: &str) -> std::result::Result<String, String> {
    if is_token(s) {
        Ok(s.to_string())
    } else {
        Err(format!("'{}' is not a valid header name", escape(s)))
    }
}

/// Parses `--set PATH=VALUE`. PATH is a JSON path as `diff` and fixtures write it
/// (`.data.items[0].id`, `."a key"`); the older form without the leading dot (`data.amount`,
/// `data.items.0.id`, a number a step into an array) is still read. The value is JSON when it
/// reads as JSON (`100`, `true`, `null`, `"100"`, `{"k":1}`), else a string.
pub fn parse_set(s: &str) -> std::result::Result<SetField, String> {
    let (path, raw) = split_set(s)
        .ok_or_else(|| format!("'{}' must be PATH=VALUE (e.g. .data.amount=100)", escape(s)))?;
    let steps = if path.starts_with(['.', '[', '$']) {
        JsonPath::parse(path)?
    } else {
        // The older form: keys joined by dots, a number a step into an array.
        let mut p = JsonPath::parse(&format!(".{path}"))?;
        for step in &mut p.0 {
            if let Step::Key(k) = step {
                if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) {
                    *step = Step::Index(
                        k.parse()
                            .map_err(|_| format!("'{}' is too large an index", escape(k)))?,
                    );
                }
            }
        }
        p
    };
    if steps.0.is_empty() {
        return Err(format!(
            "'{}' names no field: write a path such as .data.amount",
            escape(path)
        ));
    }
    let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    Ok(SetField {
        path: path.to_string(),
        steps,
        value,
    })
}

/// `PATH=VALUE` cut at its first `=` outside a quoted key (`."a=b"=1`).
fn split_set(s: &str) -> Option<(&str, &str)> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '=' if !quoted => return Some((&s[..i], &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// Makes the changes in `mods` to `msg`. A `--set` on a body that is not a JSON object or
/// array, or along a path that does not fit it, is a usage error.
pub fn apply(msg: &mut Message, mods: &Mods) -> Result<()> {
    if let Some(body) = &mods.body {
        msg.body = body.clone();
    }
    if !mods.set.is_empty() || !mods.add.is_empty() {
        set_fields(msg, &mods.set, &mods.add)?;
    }
    for name in &mods.remove {
        msg.remove_header(name);
    }
    let mut done: Vec<&str> = Vec::new();
    for (name, _) in &mods.headers {
        if done.iter().any(|d| d.eq_ignore_ascii_case(name)) {
            continue;
        }
        let values: Vec<String> = mods
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .collect();
        msg.set_header_values(name, &values);
        done.push(name);
    }
    msg.frame();
    Ok(())
}

/// Sets the `--set` fields and adds the `--add` ones in the JSON body of `msg`. A body sent
/// with a `Content-Encoding` (gzip, deflate) is decoded, changed and encoded again, as `diff`
/// and `test` decode it.
fn set_fields(msg: &mut Message, set: &[SetField], add: &[SetField]) -> Result<()> {
    let encoding = msg
        .header("content-encoding")
        .map(|e| e.trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e != "identity");
    let plain = match &encoding {
        Some(enc) => body::inflate(enc, &msg.body).map_err(|why| {
            Error::usage(format!(
                "--set and --add change fields of a JSON body, and this body is {}-encoded: {why}",
                escape(enc)
            ))
        })?,
        None => msg.body.clone(),
    };
    let mut doc: Value = match serde_json::from_slice(&plain) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => v,
        _ => {
            return Err(Error::usage(format!(
            "--set and --add change fields of a JSON body, and this body{} is not a JSON object or array",
            encoding
                .as_deref()
                .map_or_else(String::new, |e| format!(", once {}-decoded,", escape(e)))
        )))
        }
    };
    let flagged = set
        .iter()
        .map(|f| (f, Must::Exist))
        .chain(add.iter().map(|f| (f, Must::BeNew)));
    for (field, put) in flagged {
        set_at(
            &mut doc,
            &field.steps.0,
            field.value.clone(),
            put,
            &field.steps.0,
        )
        .map_err(|why| {
            Error::usage(format!(
                "--{} {}: {why}; nothing was sent",
                put.flag(),
                escape(&field.path)
            ))
        })?;
    }
    let json = serde_json::to_vec(&doc)
        .map_err(|e| Error::Io(format!("could not write the JSON body: {e}")))?;
    msg.body = match &encoding {
        Some(enc) => body::compress(enc, &json).map_err(Error::usage)?,
        None => json,
    };
    Ok(())
}

/// What a field given to put in a body must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Must {
    /// There already (`--set`).
    Exist,
    /// Not there yet (`--add`); the objects on its way are made when missing.
    BeNew,
}

impl Must {
    fn flag(self) -> &'static str {
        match self {
            Must::Exist => "set",
            Must::BeNew => "add",
        }
    }
}

/// Puts `value` at `steps` in `doc` (the path `whole`, for messages): a field `--set` names
/// must be there, one `--add` names must not.
fn set_at(
    doc: &mut Value,
    steps: &[Step],
    value: Value,
    put: Must,
    whole: &[Step],
) -> std::result::Result<(), String> {
    let Some((step, rest)) = steps.split_first() else {
        *doc = value;
        return Ok(());
    };
    let here = || JsonPath(whole[..whole.len() - steps.len() + 1].to_vec());
    let next = match (doc, step) {
        (Value::Array(items), Step::Index(i)) => {
            let len = items.len();
            items
                .get_mut(*i)
                .ok_or_else(|| format!("index {i} is past the end of an array of {len}"))?
        }
        (Value::Array(_), Step::Key(k)) => {
            return Err(format!(
                "'{}' names a key, but the value there is an array",
                escape(k)
            ))
        }
        (Value::Object(map), step) => {
            let key = match step {
                Step::Key(k) => k.clone(),
                Step::Index(i) => i.to_string(),
            };
            match (map.contains_key(&key), put) {
                (true, Must::BeNew) if rest.is_empty() => {
                    return Err(format!(
                        "the body has {} already: change it with --set",
                        escape(&here().to_string())
                    ))
                }
                (false, Must::Exist) => return Err(no_such_field(map, &key, &here())),
                _ => {}
            }
            map.entry(key).or_insert_with(|| {
                if rest.is_empty() {
                    Value::Null
                } else {
                    Value::Object(serde_json::Map::new())
                }
            })
        }
        (other, _) => {
            return Err(format!(
                "cannot go into {}: it is not an object or array",
                kind(other)
            ))
        }
    };
    set_at(next, rest, value, put, whole)
}

/// Why `--set` cannot change `key` (at `path`) of the object `map`: the body has no such
/// field; the nearest name there when one is close (a typo), else the names there.
fn no_such_field(map: &serde_json::Map<String, Value>, key: &str, path: &JsonPath) -> String {
    let nearest = map
        .keys()
        .map(|k| (strsim::levenshtein(k, key), k))
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k);
    let mut parent = path.clone();
    parent.0.pop();
    let what = match nearest {
        Some(k) => {
            let mut near = parent.clone();
            near.0.push(Step::Key(k.clone()));
            format!("did you mean {}?", escape(&near.to_string()))
        }
        None if map.is_empty() => "the object there is empty".to_string(),
        None => {
            let names: Vec<String> = map.keys().take(10).map(|k| escape(k)).collect();
            let more = if map.len() > names.len() { ", …" } else { "" };
            format!("it holds {}{more}", names.join(", "))
        }
    };
    format!(
        "the body has no field {} ({what}); to add it on purpose, use --add instead of --set",
        escape(&path.to_string())
    )
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msg(body: &str) -> Message {
        Message::parse_request(
            format!(
                "POST /h HTTP/1.1\r\nHost: h\r\nX-Sig: old\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn headers_replace_and_remove() {
        let mut m = msg("");
        let mods = Mods {
            headers: vec![
                parse_header("x-sig: new").unwrap(),
                parse_header("X-Extra:  1 ").unwrap(),
                parse_header("X-Extra: 2").unwrap(),
            ],
            remove: vec!["host".into()],
            ..Mods::default()
        };
        apply(&mut m, &mods).unwrap();
        assert_eq!(
            m.headers,
            vec![
                ("x-sig".into(), "new".into()),
                ("Content-Length".into(), "0".into()),
                ("X-Extra".into(), "1".into()),
                ("X-Extra".into(), "2".into()),
            ]
        );
    }

    #[test]
    fn json_fields_are_set_and_the_length_follows() {
        let mut m = msg(r#"{"data":{"amount":1,"items":[{"n":1}]}}"#);
        let mods = Mods {
            set: vec![
                parse_set("data.amount=2500").unwrap(),
                parse_set("data.items.0.n=zip").unwrap(),
            ],
            add: vec![
                parse_set("data.new.deep=true").unwrap(),
                parse_set("data.code=\"0012\"").unwrap(),
                parse_set(".data.items[0].m=7").unwrap(),
                parse_set(".data.\"a=b\"=1").unwrap(),
            ],
            ..Mods::default()
        };
        apply(&mut m, &mods).unwrap();
        let v: Value = serde_json::from_slice(&m.body).unwrap();
        assert_eq!(
            v,
            json!({"data": {"amount": 2500, "items": [{"n": "zip", "m": 7}], "new": {"deep": true}, "code": "0012", "a=b": 1}})
        );
        assert_eq!(
            m.header("content-length"),
            Some(m.body.len().to_string().as_str())
        );
    }

    #[test]
    fn a_gzip_json_body_is_decoded_changed_and_encoded_again() {
        let plain = br#"{"status":"green"}"#;
        let gz = body::compress("gzip", plain).unwrap();
        let mut m = Message::parse_request(
            &[
                format!(
                    "POST /h HTTP/1.1\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
                    gz.len()
                )
                .into_bytes(),
                gz,
            ]
            .concat(),
        )
        .unwrap();
        let mods = Mods {
            set: vec![parse_set("status=red").unwrap()],
            ..Mods::default()
        };
        apply(&mut m, &mods).unwrap();
        let back: Value = serde_json::from_slice(&body::inflate("gzip", &m.body).unwrap()).unwrap();
        assert_eq!(back, json!({"status": "red"}));
        assert_eq!(
            m.header("content-length"),
            Some(m.body.len().to_string().as_str())
        );
    }

    #[test]
    fn bad_changes_are_refused() {
        for bad in [
            "nocolon",
            "Bad Name: x",
            ": x",
            "Content-Length: 3",
            "X: a\rb",
        ] {
            assert!(parse_header(bad).is_err(), "{bad}");
        }
        for bad in [
            "a..b=1", "=1", ".=1", "a.=1", "noequals", ".a[=1", ".a[*]=1",
        ] {
            assert!(parse_set(bad).is_err(), "{bad}");
        }
        assert!(parse_header_name("X Y").is_err());
        let set = |s: &str| Mods {
            set: vec![parse_set(s).unwrap()],
            ..Mods::default()
        };
        let e = apply(&mut msg("plain text"), &set("a=1")).unwrap_err();
        assert!(e.to_string().contains("not a JSON object"), "{e}");
        assert_eq!(e.exit_code(), 2);
        for (body, path, says) in [
            (r#"{"a":"s"}"#, "a.b=1", "not an object"),
            (r#"{"a":[1]}"#, "a.5=1", "past the end"),
            (r#"{"a":[1]}"#, "a.k=1", "names a key"),
            (r#"{"amount":1}"#, "amout=1", "did you mean .amount?"),
            (r#"{"a":{}}"#, "a.b=1", "the object there is empty"),
            (
                r#"{"a":{"x":1,"y":2}}"#,
                "a.zzz.q=1",
                "no field .a.zzz (it holds x, y)",
            ),
        ] {
            let e = apply(&mut msg(body), &set(path)).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{e}");
            assert!(e.to_string().contains(says), "{path}: {e}");
        }
        let add = |s: &str| Mods {
            add: vec![parse_set(s).unwrap()],
            ..Mods::default()
        };
        let e = apply(&mut msg(r#"{"a":{"b":1}}"#), &add("a.b=2")).unwrap_err();
        assert!(e.to_string().contains("has .a.b already"), "{e}");
    }
}
