//! The one glob dialect of `tunnelctl`, for `--path`, `--tunnel`, the filter words `path:` and
//! `tunnel:`, `test --filter` and the header values of an expectation file: `*` matches any
//! run of characters (`/` included), `?` one character, `[abc]` one of those characters,
//! `[a-z]` one in that range, `[!abc]` (or `[^abc]`) one that is none of them; everything else
//! matches itself. A `]` first in a set is one of its characters (`[]x]`), and `[*]`, `[?]`
//! and `[[]` match `*`, `?` and `[` themselves, as in the shell.
//!
//! A `[` that is never closed, or a range written backwards (`[z-a]`), is refused with the
//! reason, so a pattern never silently means something else than it reads.

use std::fmt;

/// One piece of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum GlobPiece {
    /// This character.
    Char(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters.
    Any,
    /// `[...]`: one character in (or, when `negated`, not in) these ranges.
    Set {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
}

impl GlobPiece {
    /// Does this piece (not `*`) match `c`?
    fn takes(&self, c: char) -> bool {
        match self {
            GlobPiece::Char(p) => *p == c,
            GlobPiece::One => true,
            GlobPiece::Any => false,
            GlobPiece::Set { ranges, negated } => {
                ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated
            }
        }
    }
}

/// A glob, parsed once; see the module's documentation for what it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob(Box<Parsed>);

/// What a [`Glob`] holds: boxed, so that the parsed flags that hold one stay small.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Parsed {
    pieces: Vec<GlobPiece>,
    text: String,
}

/// Why a text is not a glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadGlob(pub String);

impl fmt::Display for BadGlob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadGlob {}

impl Glob {
    /// Parses a glob; an unclosed `[` or a backwards range is refused.
    pub fn parse(pattern: &str) -> Result<Glob, BadGlob> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '*' => {
                    // `**` is `*`: one backtrack point is enough.
                    if pieces.last() != Some(&GlobPiece::Any) {
                        pieces.push(GlobPiece::Any);
                    }
                    i += 1;
                }
                '?' => {
                    pieces.push(GlobPiece::One);
                    i += 1;
                }
                '[' => {
                    let (piece, next) = set(&chars, i).map_err(|why| {
                        BadGlob(format!(
                            "'{}' is not a glob: {why} (write [[] for a '[' itself)",
                            crate::escape::escape(pattern)
                        ))
                    })?;
                    pieces.push(piece);
                    i = next;
                }
                c => {
                    pieces.push(GlobPiece::Char(c));
                    i += 1;
                }
            }
        }
        Ok(Glob(Box::new(Parsed {
            pieces,
            text: pattern.to_string(),
        })))
    }

    /// A glob that matches `text` and nothing else (`*`, `?` and `[` put in sets), for a value
    /// written into a file where a glob is read.
    pub fn literal(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '*' | '?' | '[' => {
                    out.push('[');
                    out.push(c);
                    out.push(']');
                }
                c => out.push(c),
            }
        }
        out
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.0.text
    }

    /// Does the whole of `text` match?
    pub fn matches(&self, text: &str) -> bool {
        // The classic greedy matcher with one backtrack point: linear in practice, never
        // exponential, whatever a pattern holds.
        let p = &self.0.pieces;
        let t: Vec<char> = text.chars().collect();
        let (mut pi, mut ti) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while ti < t.len() {
            if pi < p.len() && p[pi].takes(t[ti]) {
                pi += 1;
                ti += 1;
            } else if pi < p.len() && p[pi] == GlobPiece::Any {
                star = Some((pi, ti));
                pi += 1;
            } else if let Some((sp, st)) = star {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            } else {
                return false;
            }
        }
        p[pi..].iter().all(|c| *c == GlobPiece::Any)
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text)
    }
}

/// The set that opens at `chars[open]` (a `[`), and the index after its `]`.
fn set(chars: &[char], open: usize) -> Result<(GlobPiece, usize), String> {
    let mut i = open + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let first = i;
    loop {
        let Some(&c) = chars.get(i) else {
            return Err("a '[' is not closed by a ']'".into());
        };
        if c == ']' && i > first {
            return Ok((GlobPiece::Set { ranges, negated }, i + 1));
        }
        let ranged = chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|e| *e != ']');
        if ranged {
            let end = chars[i + 2];
            if end < c {
                return Err(format!("the range {c}-{end} runs backwards"));
            }
            ranges.push((c, end));
            i += 3;
        } else {
            ranges.push((c, c));
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, t: &str) -> bool {
        Glob::parse(p).unwrap().matches(t)
    }

    #[test]
    fn stars_marks_and_sets() {
        for (p, t, yes) in [
            ("*", "", true),
            ("a*b*c", "a-b-b-c", true),
            ("a*b*c", "a-b-b-", false),
            ("/hooks/*", "/hooks/", true),
            ("/hooks/*", "/hooks", false),
            ("?", "é", true),
            ("**a", "bba", true),
            ("post-[ab]*", "post-b-1", true),
            ("post-[ab]*", "post-c", false),
            ("[!a]x", "bx", true),
            ("[^a]x", "ax", false),
            ("1[0-9][0-9]", "142", true),
            ("1[0-9][0-9]", "1a2", false),
            ("[]]", "]", true),
            ("[*]", "*", true),
            ("[*]", "x", false),
            ("a[[]1]", "a[1]", true),
            ("[a-]", "-", true),
        ] {
            assert_eq!(m(p, t), yes, "{p} {t}");
        }
    }

    #[test]
    fn a_bad_pattern_is_refused_with_its_reason() {
        for (p, says) in [
            ("a[bc", "not closed"),
            ("[", "not closed"),
            ("[]", "not closed"),
            ("[!]", "not closed"),
            ("[z-a]", "backwards"),
        ] {
            let e = Glob::parse(p).unwrap_err();
            assert!(e.0.contains(says), "{p}: {e}");
        }
    }

    #[test]
    fn a_literal_matches_itself_alone() {
        for text in ["a*b", "[x]?", "BaseHTTP/0.6", "*", ""] {
            let g = Glob::parse(&Glob::literal(text)).unwrap();
            assert!(g.matches(text), "{text}");
        }
        assert!(!Glob::parse(&Glob::literal("a*")).unwrap().matches("ab"));
    }
}
