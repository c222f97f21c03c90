//! Reading what a client sends to the agent the way the agent reads it, errors included:
//! the first JSON value of a body (Go's `json.Decoder`: trailing bytes are ignored, syntax
//! errors have Go's wording), Go type names for type errors, path unescaping (which the
//! agent applies twice to tunnel names) and the query parameters of the request list.
//!
//! The texts end up in `details.err`, which clients show to users; keeping Go's wording means
//! a user sees the same explanation from the emulator as from the real agent.

use serde_json::Value;

/// The first JSON value of a body, as Go's `json.Decoder.Decode` reads it.
/// Errors: `EOF` for an empty body, else Go's syntax error text.
pub fn first_value(body: &[u8]) -> Result<Value, String> {
    let end = scan(body)?;
    let slice = &body[..end];
    match serde_json::from_slice(slice) {
        Ok(v) => Ok(v),
        // Go accepts invalid UTF-8 in strings (it substitutes U+FFFD); serde does not.
        Err(_) => serde_json::from_str(&String::from_utf8_lossy(slice)).map_err(|e| e.to_string()),
    }
}

/// The name Go gives a JSON value's kind in "cannot unmarshal X into ..." messages.
pub fn go_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Go's `url.PathUnescape`: `%XX` sequences decoded, `+` kept; a bad escape is an error
/// worded like Go's (`invalid URL escape "%zz"`).
pub fn path_unescape(s: &str) -> Result<String, String> {
    unescape(s, false)
}

/// Go's `url.QueryUnescape`: like [`path_unescape`], and `+` is a space.
pub fn query_unescape(s: &str) -> Result<String, String> {
    unescape(s, true)
}

fn unescape(s: &str, plus_is_space: bool) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| {
                    let h = std::str::from_utf8(h).ok()?;
                    u8::from_str_radix(h, 16).ok()
                });
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        let end = (i + 3).min(bytes.len());
                        let shown = String::from_utf8_lossy(&bytes[i..end]);
                        return Err(format!("invalid URL escape \"{shown}\""));
                    }
                }
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The parameters of a query string, in order, as the agent's (older) Go reads them: `&`
/// and `;` both separate, and a pair with a bad escape is silently dropped.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in query.split(['&', ';']) {
        if part.is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        if let (Ok(k), Ok(v)) = (query_unescape(k), query_unescape(v)) {
            out.push((k, v));
        }
    }
    out
}

/// Go's `quoteChar`: how its JSON errors show the offending character.
fn quote_char(c: char) -> String {
    match c {
        '\'' => "'\\''".to_string(),
        '"' => "'\"'".to_string(),
        c => {
            let dbg = format!("{:?}", c.to_string());
            format!("'{}'", &dbg[1..dbg.len() - 1])
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Container {
    Object,
    Array,
}

/// Validates the first JSON value of `data` with Go's scanner rules; returns where it ends.
fn scan(data: &[u8]) -> Result<usize, String> {
    let text = String::from_utf8_lossy(data);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // Map char positions back to byte offsets in `data` (lossy decoding can change lengths,
    // but only for invalid bytes, which sit inside strings where the offset is not used).
    let byte_at = |idx: usize| -> usize {
        chars
            .get(idx)
            .map_or(data.len(), |(b, _)| (*b).min(data.len()))
    };
    let err = |c: char, ctx: &str| format!("invalid character {} {ctx}", quote_char(c));
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while let Some((_, c)) = chars.get(*i) {
            if matches!(c, ' ' | '\t' | '\r' | '\n') {
                *i += 1;
            } else {
                break;
            }
        }
    };
    skip_ws(&mut i);
    if i >= chars.len() {
        return Err("EOF".to_string());
    }
    let unexpected_eof = || "unexpected EOF".to_string();
    // An object key and its colon, from where the key's opening quote should be.
    let key = |i: &mut usize| -> Result<(), String> {
        match chars.get(*i).map(|p| p.1) {
            None => return Err(unexpected_eof()),
            Some('"') => *i = scan_string(&chars, *i)?,
            Some(c) => return Err(err(c, "looking for beginning of object key string")),
        }
        skip_ws(i);
        match chars.get(*i).map(|p| p.1) {
            None => Err(unexpected_eof()),
            Some(':') => {
                *i += 1;
                Ok(())
            }
            Some(c) => Err(err(c, "after object key")),
        }
    };
    let mut stack: Vec<Container> = Vec::new();
    loop {
        // Expect a value.
        skip_ws(&mut i);
        let Some(&(_, c)) = chars.get(i) else {
            return Err(unexpected_eof());
        };
        match c {
            '{' => {
                i += 1;
                skip_ws(&mut i);
                if chars.get(i).map(|p| p.1) == Some('}') {
                    i += 1;
                } else {
                    key(&mut i)?;
                    stack.push(Container::Object);
                    continue;
                }
            }
            '[' => {
                i += 1;
                skip_ws(&mut i);
                match chars.get(i).map(|p| p.1) {
                    None => return Err(unexpected_eof()),
                    Some(']') => {
                        i += 1;
                    }
                    Some(_) => {
                        stack.push(Container::Array);
                        continue;
                    }
                }
            }
            '"' => i = scan_string(&chars, i)?,
            '-' | '0'..='9' => i = scan_number(&chars, i)?,
            't' | 'f' | 'n' => {
                let word = match c {
                    't' => "true",
                    'f' => "false",
                    _ => "null",
                };
                for (k, expected) in word.chars().enumerate().skip(1) {
                    match chars.get(i + k).map(|p| p.1) {
                        None => return Err(unexpected_eof()),
                        Some(got) if got == expected => {}
                        Some(got) => {
                            return Err(err(
                                got,
                                &format!("in literal {word} (expecting {})", quote_char(expected)),
                            ))
                        }
                    }
                }
                i += word.len();
            }
            c => return Err(err(c, "looking for beginning of value")),
        }
        // A value ended: close containers or move to the next element.
        loop {
            let Some(&ctx) = stack.last() else {
                return Ok(byte_at(i));
            };
            skip_ws(&mut i);
            let Some(&(_, c)) = chars.get(i) else {
                return Err(unexpected_eof());
            };
            match (ctx, c) {
                (Container::Object, ',') => {
                    i += 1;
                    skip_ws(&mut i);
                    key(&mut i)?;
                    break;
                }
                (Container::Object, '}') | (Container::Array, ']') => {
                    i += 1;
                    stack.pop();
                }
                (Container::Array, ',') => {
                    i += 1;
                    break;
                }
                (Container::Object, c) => return Err(err(c, "after object key:value pair")),
                (Container::Array, c) => return Err(err(c, "after array element")),
            }
        }
    }
}

/// Scans a string starting at its opening quote; returns the index after the closing one.
fn scan_string(chars: &[(usize, char)], start: usize) -> Result<usize, String> {
    let mut i = start + 1;
    loop {
        let Some(&(_, c)) = chars.get(i) else {
            return Err("unexpected EOF".to_string());
        };
        match c {
            '"' => return Ok(i + 1),
            '\\' => {
                let Some(&(_, e)) = chars.get(i + 1) else {
                    return Err("unexpected EOF".to_string());
                };
                match e {
                    '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' => i += 2,
                    'u' => {
                        for k in 0..4 {
                            match chars.get(i + 2 + k).map(|p| p.1) {
                                None => return Err("unexpected EOF".to_string()),
                                Some(h) if h.is_ascii_hexdigit() => {}
                                Some(h) => {
                                    return Err(format!(
                                        "invalid character {} in \\u hexadecimal character escape",
                                        quote_char(h)
                                    ))
                                }
                            }
                        }
                        i += 6;
                    }
                    e => {
                        return Err(format!(
                            "invalid character {} in string escape code",
                            quote_char(e)
                        ))
                    }
                }
            }
            c if (c as u32) < 0x20 => {
                return Err(format!(
                    "invalid character {} in string literal",
                    quote_char(c)
                ))
            }
            _ => i += 1,
        }
    }
}

/// Scans a number; returns the index after it.
fn scan_number(chars: &[(usize, char)], start: usize) -> Result<usize, String> {
    let at = |i: usize| chars.get(i).map(|p| p.1);
    let bad = |c: Option<char>| match c {
        None => "unexpected EOF".to_string(),
        Some(c) => format!("invalid character {} in numeric literal", quote_char(c)),
    };
    let mut i = start;
    if at(i) == Some('-') {
        i += 1;
    }
    match at(i) {
        Some('0') => i += 1,
        Some('1'..='9') => {
            while matches!(at(i), Some('0'..='9')) {
                i += 1;
            }
        }
        other => return Err(bad(other)),
    }
    if at(i) == Some('.') {
        i += 1;
        if !matches!(at(i), Some('0'..='9')) {
            return Err(bad(at(i)));
        }
        while matches!(at(i), Some('0'..='9')) {
            i += 1;
        }
    }
    if matches!(at(i), Some('e' | 'E')) {
        i += 1;
        if matches!(at(i), Some('+' | '-')) {
            i += 1;
        }
        if !matches!(at(i), Some('0'..='9')) {
            return Err(bad(at(i)));
        }
        while matches!(at(i), Some('0'..='9')) {
            i += 1;
        }
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn go_decoder_behaviour() {
        for (input, err) in [
            (&b""[..], "EOF"),
            (b"  \n", "EOF"),
            (
                b"not json",
                "invalid character 'o' in literal null (expecting 'u')",
            ),
            (
                b"{x",
                "invalid character 'x' looking for beginning of object key string",
            ),
            (
                b"<tunnel/>",
                "invalid character '<' looking for beginning of value",
            ),
            (b"{\"a\":1", "unexpected EOF"),
            (b"{\"a\" 1}", "invalid character '1' after object key"),
            (b"[1 2]", "invalid character '2' after array element"),
        ] {
            assert_eq!(first_value(input).unwrap_err(), err, "{input:?}");
        }
        for (input, value) in [
            (&b"{\"a\":1} trailing"[..], json!({"a": 1})),
            (b"{\"a\":[1,2]}{\"b\":1}", json!({"a": [1, 2]})),
            (b"null", Value::Null),
        ] {
            assert_eq!(first_value(input).unwrap(), value, "{input:?}");
        }
    }

    #[test]
    fn unescapes_like_go() {
        assert_eq!(path_unescape("t1%20%28http%29").unwrap(), "t1 (http)");
        assert_eq!(path_unescape("a+b").unwrap(), "a+b");
        assert_eq!(path_unescape("z%").unwrap_err(), "invalid URL escape \"%\"");
        assert_eq!(
            path_unescape("%zz1").unwrap_err(),
            "invalid URL escape \"%zz\""
        );
        assert_eq!(
            parse_query("limit=1&tunnel_name=a+b%21;x=%zz"),
            vec![
                ("limit".to_string(), "1".to_string()),
                ("tunnel_name".to_string(), "a b!".to_string())
            ]
        );
    }
}
