//! An account file parsed into a plain tree whose every value knows its line, so that each
//! problem found in it can name the file, the line and the key.

use toml_edit::{Document, Item, Key, Value as TomlValue};

/// A value of the file and the line it is written on.
#[derive(Debug, Clone)]
pub struct Node {
    /// The value.
    pub value: Leaf,
    /// Its 1-based line (the key's, where it has one).
    pub line: usize,
}

/// What a [`Node`] holds.
#[derive(Debug, Clone)]
pub enum Leaf {
    /// A string.
    Text(String),
    /// `true` or `false`.
    Bool(bool),
    /// Any other scalar (a number, a date): no key of an account file takes one.
    Other(&'static str),
    /// An array.
    List(Vec<Node>),
    /// A table (standard, inline or dotted), its keys in the file's order.
    Table(Vec<(String, Node)>),
}

impl Leaf {
    /// What it is, for messages ("a string", "a table").
    pub fn what(&self) -> &'static str {
        match self {
            Leaf::Text(_) => "a string",
            Leaf::Bool(_) => "a boolean",
            Leaf::Other(w) => w,
            Leaf::List(_) => "an array",
            Leaf::Table(_) => "a table",
        }
    }
}

/// Parses `text`; a syntax error comes back as its line and message.
pub fn parse(text: &str) -> Result<Node, (usize, String)> {
    let doc = Document::parse(text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(text, s.start));
        let msg = e.message().trim().to_string();
        (line, msg)
    })?;
    let lines = Lines(line_starts(text));
    Ok(lines.item(doc.as_item(), 1).unwrap_or(Node {
        value: Leaf::Table(Vec::new()),
        line: 1,
    }))
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()
        .iter()
        .take(offset)
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The byte offset where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Finds the line of an offset among the starts of the lines (a file of thousands of
/// resources has tens of thousands of keys: each is looked up, not counted from the top).
struct Lines(Vec<usize>);

impl Lines {
    fn at(&self, span: Option<std::ops::Range<usize>>, otherwise: usize) -> usize {
        span.map_or(otherwise, |s| {
            self.0.partition_point(|start| *start <= s.start)
        })
    }

    fn keyed(&self, key: Option<&Key>, parent: usize) -> usize {
        self.at(key.and_then(Key::span), parent)
    }

    fn item(&self, item: &Item, parent: usize) -> Option<Node> {
        match item {
            Item::None => None,
            Item::Value(v) => Some(self.value(v, parent)),
            Item::Table(t) => {
                let line = self.at(t.span(), parent);
                let entries = t
                    .iter()
                    .filter_map(|(k, v)| {
                        let at = self.keyed(t.key(k), line);
                        self.item(v, at).map(|mut n| {
                            n.line = at;
                            (k.to_string(), n)
                        })
                    })
                    .collect();
                Some(Node {
                    value: Leaf::Table(entries),
                    line,
                })
            }
            Item::ArrayOfTables(a) => Some(Node {
                value: Leaf::Other("an array of tables"),
                line: self.at(a.span(), parent),
            }),
        }
    }

    fn value(&self, v: &TomlValue, parent: usize) -> Node {
        let line = self.at(v.span(), parent);
        let value = match v {
            TomlValue::String(s) => Leaf::Text(s.value().clone()),
            TomlValue::Boolean(b) => Leaf::Bool(*b.value()),
            TomlValue::Integer(_) => Leaf::Other("a number"),
            TomlValue::Float(_) => Leaf::Other("a number"),
            TomlValue::Datetime(_) => Leaf::Other("a date"),
            TomlValue::Array(a) => Leaf::List(a.iter().map(|x| self.value(x, line)).collect()),
            TomlValue::InlineTable(t) => Leaf::Table(
                t.iter()
                    .map(|(k, x)| {
                        let at = self.keyed(t.key(k), line);
                        let mut n = self.value(x, at);
                        n.line = at;
                        (k.to_string(), n)
                    })
                    .collect(),
            ),
        };
        Node { value, line }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: &Node) -> &[(String, Node)] {
        match &n.value {
            Leaf::Table(t) => t,
            other => panic!("not a table: {other:?}"),
        }
    }

    #[test]
    fn every_key_knows_its_line() {
        let text = "[a.b]\nx = 1\n\n[a.c]\nlabels = { k = \"v\" }\nauth.role.arn = \"r\"\n";
        let root = parse(text).unwrap();
        let a = &table(&root)[0].1;
        let b = &table(a)[0].1;
        assert_eq!(table(b)[0].1.line, 2);
        let c = &table(a)[1].1;
        assert_eq!(c.line, 4);
        assert_eq!(table(c)[0].1.line, 5);
        assert_eq!(table(c)[1].1.line, 6);
    }

    #[test]
    fn a_syntax_error_has_its_line() {
        let (line, msg) = parse("[a]\nx = \n").unwrap_err();
        assert_eq!(line, 2, "{msg}");
    }
}
