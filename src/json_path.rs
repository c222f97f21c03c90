//! The one JSON path grammar, as jq writes paths (`.data.items[0].id`, `."a key"`, `.["a
//! key"]`, `.[0]`; a leading `$` as JSONPath writes it is allowed): read by `replay --set`,
//! written by `diff` and the test runner, and read by an expectation's `ignore`, whose
//! patterns may also hold `[*]` or `.*` for any element or member ([`Pattern`]).

use std::fmt;

/// One step into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object's member.
    Key(String),
    /// An array's element.
    Index(usize),
}

/// A path from the top of a JSON value; shown as jq writes it (`.` alone for the top).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonPath(pub Vec<Step>);

impl JsonPath {
    /// This path one step further.
    pub fn join(&self, step: Step) -> JsonPath {
        let mut steps = self.0.clone();
        steps.push(step);
        JsonPath(steps)
    }

    /// Parses a path (`.data.items[0].id`); a `*` is refused, since a path names one place.
    pub fn parse(text: &str) -> Result<JsonPath, String> {
        let steps = parts(text)?
            .into_iter()
            .map(|p| match p {
                PatternStep::Key(k) => Ok(Step::Key(k)),
                PatternStep::Index(i) => Ok(Step::Index(i)),
                PatternStep::Any => Err(format!(
                    "'{}' is not a JSON path: a * names many places, a path one",
                    crate::escape::escape(text.trim())
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(JsonPath(steps))
    }
}

/// Is `key` written bare after a dot (`.name`) rather than quoted (`."a b"`)?
fn bare(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str(".");
        }
        // `.[0]`, as jq writes an index at the top.
        if matches!(self.0.first(), Some(Step::Index(_))) {
            f.write_str(".")?;
        }
        for step in &self.0 {
            match step {
                Step::Key(k) if bare(k) => write!(f, ".{k}")?,
                Step::Key(k) => write!(f, ".{}", serde_json::Value::String(k.clone()))?,
                Step::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// One step of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PatternStep {
    Key(String),
    Index(usize),
    /// `[*]` or `.*`: any member or element.
    Any,
}

/// The steps of a path or pattern as written (see the module's documentation).
fn parts(text: &str) -> Result<Vec<PatternStep>, String> {
    let t = text.trim();
    let shown = crate::escape::escape(t);
    let rest = t.strip_prefix('$').unwrap_or(t);
    if !rest.starts_with('.') && !rest.starts_with('[') {
        return Err(format!(
            "'{shown}' is not a JSON path: it starts with a dot (.data.id, .items[*].id)"
        ));
    }
    let mut parts = Vec::new();
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    let bad = |why: &str| format!("'{shown}' is not a JSON path: {why}");
    while i < chars.len() {
        match chars[i] {
            '.' if i + 1 == chars.len() && parts.is_empty() => i += 1,
            // `.[0]` and `.["key"]`, as jq also writes them.
            '.' if chars.get(i + 1) == Some(&'[') => i += 1,
            '.' if chars.get(i + 1) == Some(&'*') => {
                parts.push(PatternStep::Any);
                i += 2;
            }
            '.' if chars.get(i + 1) == Some(&'"') => {
                let start = i + 1;
                let mut end = start + 1;
                while end < chars.len() && chars[end] != '"' {
                    end += if chars[end] == '\\' { 2 } else { 1 };
                }
                if end >= chars.len() {
                    return Err(bad("a quoted key is not closed"));
                }
                let quoted: String = chars[start..=end].iter().collect();
                let key: String = serde_json::from_str(&quoted)
                    .map_err(|_| bad("a quoted key is not a JSON string"))?;
                parts.push(PatternStep::Key(key));
                i = end + 1;
            }
            '.' => {
                let start = i + 1;
                let mut end = start;
                while end < chars.len() && !matches!(chars[end], '.' | '[') {
                    end += 1;
                }
                let key: String = chars[start..end].iter().collect();
                if key.is_empty() {
                    return Err(bad("a key is missing after a dot"));
                }
                parts.push(PatternStep::Key(key));
                i = end;
            }
            '[' => {
                let close = chars[i..]
                    .iter()
                    .position(|c| *c == ']')
                    .map(|p| p + i)
                    .ok_or_else(|| bad("'[' is not closed"))?;
                let inner: String = chars[i + 1..close].iter().collect();
                let inner = inner.trim();
                if inner == "*" {
                    parts.push(PatternStep::Any);
                } else if let Ok(n) = inner.parse::<usize>() {
                    parts.push(PatternStep::Index(n));
                } else if let Ok(key) = serde_json::from_str::<String>(inner) {
                    parts.push(PatternStep::Key(key));
                } else {
                    return Err(bad("[…] holds an index, * or a quoted key"));
                }
                i = close + 1;
            }
            _ => return Err(bad("expected '.' or '['")),
        }
    }
    Ok(parts)
}

/// A pattern of paths: a path where `[*]` or `.*` stands for any element or member. It
/// covers what lies under what it names (`.data` ignores all of `.data`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    parts: Vec<PatternStep>,
    text: String,
}

impl Pattern {
    /// Parses `.a.b[0]`, `.items[*].id`, `."a key".x`, `.meta.*` (a leading `$` is allowed,
    /// as JSONPath writes it).
    pub fn parse(text: &str) -> Result<Pattern, String> {
        Ok(Pattern {
            parts: parts(text)?,
            text: text.trim().to_string(),
        })
    }

    /// Does the pattern name `path` or something above it?
    pub fn covers(&self, path: &JsonPath) -> bool {
        self.parts.len() <= path.0.len()
            && self.parts.iter().zip(&path.0).all(|(p, s)| match (p, s) {
                (PatternStep::Any, _) => true,
                (PatternStep::Key(a), Step::Key(b)) => a == b,
                (PatternStep::Index(a), Step::Index(b)) => a == b,
                _ => false,
            })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(steps: &[&str]) -> JsonPath {
        JsonPath(
            steps
                .iter()
                .map(|s| match s.parse() {
                    Ok(n) => Step::Index(n),
                    Err(_) => Step::Key((*s).to_string()),
                })
                .collect(),
        )
    }

    #[test]
    fn paths_show_as_jq_writes_them() {
        assert_eq!(path(&[]).to_string(), ".");
        assert_eq!(
            path(&["data", "items", "0", "id"]).to_string(),
            ".data.items[0].id"
        );
        assert_eq!(path(&["a b"]).to_string(), ".\"a b\"");
    }

    #[test]
    fn patterns_cover_what_they_name_and_below() {
        let p = |s: &str| Pattern::parse(s).unwrap();
        assert!(p(".id").covers(&path(&["id"])));
        assert!(p("$.data").covers(&path(&["data", "x"])));
        assert!(p(".items[*].id").covers(&path(&["items", "3", "id"])));
        assert!(!p(".items[*].id").covers(&path(&["items", "3", "name"])));
        assert!(p(".meta.*").covers(&path(&["meta", "k"])));
        assert!(p(".[\"a b\"]").covers(&path(&["a b"])));
        assert!(p(".\"a b\".c").covers(&path(&["a b", "c"])));
        assert!(p(".").covers(&path(&["any"])));
        assert!(!p(".id").covers(&path(&[])));
        for bad in ["id", ".a[", ".a[x]", ".a..b", "x.y", ".\"open"] {
            assert!(Pattern::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_path_reads_back_as_it_is_shown_and_names_one_place() {
        for text in [".data.items[0].id", ".\"a b\".c", ".[2]", "."] {
            assert_eq!(JsonPath::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(JsonPath::parse("$.a[\"k\"]").unwrap(), path(&["a", "k"]));
        assert!(JsonPath::parse(".items[*].id")
            .unwrap_err()
            .contains("names many"));
    }
}
