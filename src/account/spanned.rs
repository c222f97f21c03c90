//! An account file parsed into a plain tree whose every value knows its line, so that each
//! problem found in it can name the file, the line and the key.

use toml_spanner::{Arena, Item, Span, Table, Value};

/// A value of the file and the line it is written on.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    /// The value.
    pub value: Leaf<'a>,
    /// Its 1-based line (the key's, where it has one).
    pub line: usize,
}

/// What a [`Node`] holds.
#[derive(Debug, Clone)]
pub enum Leaf<'a> {
    /// A string (borrowed from the file, or from the parser's arena where escapes were
    /// undone).
    Text(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// Any other scalar (a number, a date): no key of an account file takes one.
    Other(&'static str),
    /// An array.
    List(Vec<Node<'a>>),
    /// A table (standard, inline or dotted), its keys in the file's order.
    Table(Vec<(&'a str, Node<'a>)>),
}

impl Leaf<'_> {
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

/// Parses `text` and hands its tree to `read` (the tree borrows from the text and from the
/// parser's arena, which live only as long as this call); a syntax error comes back as its
/// line and message.
///
/// `toml_spanner` reads the file rather than `toml_edit` (which the config file's edits keep
/// using): it borrows from the text, spans every key and value, and keeps no formatting to
/// write back, which makes it several times faster on a file of thousands of resources
/// (bench S14); a plan reads its files, never edits them.
pub fn parse<R>(text: &str, read: impl FnOnce(&Node<'_>) -> R) -> Result<R, (usize, String)> {
    let lines = Lines(line_starts(text));
    let arena = Arena::new();
    let doc = toml_spanner::parse(text, &arena)
        .map_err(|e| (lines.at(e.span()), e.message(text).trim().to_string()))?;
    let root = Node {
        value: lines.table(doc.table(), 1),
        line: 1,
    };
    Ok(read(&root))
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
    fn at(&self, span: Span) -> usize {
        let start = span.range().start;
        self.0.partition_point(|line| *line <= start)
    }

    /// The line of `span`, or `otherwise` for what the file does not write out (a table
    /// only implied by a longer header).
    fn or(&self, span: Span, otherwise: usize) -> usize {
        if span.is_empty() {
            otherwise
        } else {
            self.at(span)
        }
    }

    /// A table's entries in the file's order, each on its key's line.
    fn table<'a>(&self, table: &Table<'a>, line: usize) -> Leaf<'a> {
        Leaf::Table(
            table
                .into_iter()
                .map(|(key, item)| {
                    let at = self.or(key.span, line);
                    let mut node = self.value(item, at);
                    node.line = at;
                    (key.name, node)
                })
                .collect(),
        )
    }

    fn value<'a>(&self, item: &Item<'a>, parent: usize) -> Node<'a> {
        let line = self.or(item.span(), parent);
        let value = match item.value() {
            Value::String(s) => Leaf::Text(s),
            Value::Boolean(b) => Leaf::Bool(*b),
            Value::Integer(_) | Value::Float(_) => Leaf::Other("a number"),
            Value::DateTime(_) => Leaf::Other("a date"),
            Value::Array(a) => Leaf::List(a.iter().map(|x| self.value(x, line)).collect()),
            Value::Table(t) => self.table(t, line),
        };
        Node { value, line }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table<'n, 'a>(n: &'n Node<'a>) -> &'n [(&'a str, Node<'a>)] {
        match &n.value {
            Leaf::Table(t) => t,
            other => panic!("not a table: {other:?}"),
        }
    }

    #[test]
    fn every_key_knows_its_line() {
        let text = "[a.b]\nx = 1\n\n[a.c]\nlabels = { k = \"v\" }\nauth.role.arn = \"r\"\n";
        let lines = parse(text, |root| {
            let a = &table(root)[0].1;
            let b = &table(a)[0].1;
            let c = &table(a)[1].1;
            [
                table(b)[0].1.line,
                c.line,
                table(c)[0].1.line,
                table(c)[1].1.line,
            ]
        })
        .unwrap();
        assert_eq!(lines, [2, 4, 5, 6]);
    }

    #[test]
    fn a_syntax_error_has_its_line() {
        let (line, msg) = parse("[a]\nx = \n", |_| ()).unwrap_err();
        assert_eq!(line, 2, "{msg}");
    }
}
