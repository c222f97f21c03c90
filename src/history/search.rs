//! The history's full-text search: what its index holds of a capture, and how a `--grep` text
//! becomes a query of that index.
//!
//! The index (SQLite FTS5, `ascii` tokenizer, no positions) holds the words of each capture's
//! decoded text ([`decoded_text`]: the one text a live `--grep` reads too): start lines,
//! header fields and bodies, whole, with their encoding undone
//! ([`crate::capture::body::searchable`]). A word is a run of ASCII letters and digits (any
//! other byte of UTF-8 text counts as a letter), matched in any ASCII case; a word with
//! letters beyond ASCII (`Übersetzung`) could be kept in another case, so it is not asked of
//! the index but found by reading the captures the other words leave, in any case. A `--grep`
//! text asks the index for captures holding each of its words (its last one as the start of
//! a word), then each one found is checked for the whole text ([`holds`]): the index only
//! narrows down which captures to read. So a text found in history starts at the start of a
//! word (`paid` finds `invoice.paid`; `voice` does not find `invoice`), and a text with no
//! word the index can use (`{}`) is looked for in every capture, without the index.

use crate::capture::filter::{contains_folded, decoded_text, holds_raw};
use crate::capture::Exchange;

/// What the index is given of a capture: the words of its decoded text ([`decoded_text`]: the one text a live `--grep` reads too), each
/// once, in lower case. The index holds no positions, only which captures hold a word, so a
/// word said again adds nothing to it but work (a webhook's JSON repeats its keys).
///
/// Its memory follows the text's bytes, whatever the words: a word is kept to its first 64
/// bytes (a 70 MB body of one run of letters is one word, which the index's tokenizer would
/// copy twice over), and the words seen are remembered up to 65,536 (a list of every word of
/// a body of short ones would be many times its size); past that a word may be given twice,
/// which costs the index a little work and changes nothing.
pub fn index_text(e: &Exchange) -> String {
    let mut text = decoded_text(e);
    text.make_ascii_lowercase();
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    for w in words(&text) {
        let w = head(w);
        let new = if seen.len() < MAX_SEEN {
            seen.insert(w)
        } else {
            !seen.contains(w)
        };
        if new {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}

/// The most bytes of a word the index holds; a longer `--grep` word asks it for the words
/// that start with as much ([`index_terms`]), and the captures found are read whole.
const MAX_WORD: usize = 64;
/// The most distinct words [`index_text`] remembers of one capture.
const MAX_SEEN: usize = 65_536;

/// The first [`MAX_WORD`] bytes of `w` (whole characters), or `w`.
fn head(w: &str) -> &str {
    if w.len() <= MAX_WORD {
        return w;
    }
    let mut end = MAX_WORD;
    while !w.is_char_boundary(end) {
        end -= 1;
    }
    &w[..end]
}

/// Below this many captures, their index texts are made on one thread.
const SPLIT_FROM: usize = 64;

/// [`index_text`] of each capture, in order, made on every core there is when there are many
/// (a recorder's first poll may bring thousands; decoding and splitting their bodies is most
/// of the work of keeping them).
pub fn index_texts(captures: &[&Exchange]) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if threads < 2 || captures.len() < SPLIT_FROM {
        return captures.iter().map(|e| index_text(e)).collect();
    }
    let chunk = captures.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let parts: Vec<_> = captures
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|e| index_text(e)).collect::<Vec<_>>()))
            .collect();
        let mut out = Vec::with_capacity(captures.len());
        for (part, handle) in captures.chunks(chunk).zip(parts) {
            // Only a thread that panicked has no share to give (a debug build): make it here.
            out.extend(
                handle
                    .join()
                    .unwrap_or_else(|_| part.iter().map(|e| index_text(e)).collect()),
            );
        }
        out
    })
}

/// Is `c` part of a word, as the index's `ascii` tokenizer reads it?
fn in_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || !c.is_ascii()
}

/// The words of a text, as the index splits them.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !in_word(c)).filter(|w| !w.is_empty())
}

/// A word the index is asked for: captures holding it, or (`prefix`) a word starting with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexTerm {
    /// The word, lower-case, ASCII letters and digits only.
    pub word: String,
    /// Any word starting with it (the text's last word, when the text ends in it).
    pub prefix: bool,
}

/// The words to ask an index for captures that may hold every one of `texts` (lower-case):
/// one rule for both stores, so that the same captures give the same answer in both. Empty
/// when they have no word the index knows (every capture must then be read).
pub fn index_terms(texts: &[String]) -> Vec<IndexTerm> {
    let mut terms = Vec::new();
    for text in texts {
        let ws: Vec<&str> = words(text).collect();
        let open_end = text.chars().last().is_some_and(in_word);
        for (i, w) in ws.iter().enumerate() {
            // The index folds ASCII case only: a word with other letters (`Übersetzung`,
            // `ÉCOLE`) could be held in another case, so it is found by reading.
            if !w.is_ascii() {
                continue;
            }
            // The index holds a long word's head only: the captures whose words start so.
            let cut = head(w);
            terms.push(IndexTerm {
                word: cut.to_string(),
                prefix: cut.len() < w.len() || (open_end && i + 1 == ws.len()),
            });
        }
    }
    terms
}

/// The SQLite index's query for [`index_terms`]; `None` when there is none.
pub fn index_query(texts: &[String]) -> Option<String> {
    let terms: Vec<String> = index_terms(texts)
        .into_iter()
        .map(|t| {
            // A quoted FTS5 string: a quote inside is doubled (words hold none, but say so).
            let quoted = format!("\"{}\"", t.word.replace('"', "\"\""));
            if t.prefix {
                format!("{quoted}*")
            } else {
                quoted
            }
        })
        .collect();
    (!terms.is_empty()).then(|| terms.join(" AND "))
}

/// Does the capture hold `text` (lower-case) in its decoded text (in any case, beyond ASCII
/// too), or where a live `--grep` looks (its raw bytes)?
pub fn holds(e: &Exchange, decoded: &str, text: &str) -> bool {
    contains_folded(decoded, text) || holds_raw(e, text)
}

/// Does the capture whose agent JSON this is hold every one of `texts` (as [`holds`] reads
/// it)? The last word of a search in either store, after its index narrowed it down.
pub fn holds_all(json: &str, texts: &[String]) -> bool {
    if texts.is_empty() {
        return true;
    }
    let Some(e) = Exchange::from_json(json) else {
        return false;
    };
    let decoded = decoded_text(&e);
    texts.iter().all(|t| holds(&e, &decoded, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_become_index_queries() {
        assert_eq!(
            index_query(&["invoice.paid".into()]).as_deref(),
            Some("\"invoice\" AND \"paid\"*")
        );
        assert_eq!(
            index_query(&["paid\"".into(), "x".into()]).as_deref(),
            Some("\"paid\" AND \"x\"*")
        );
        assert_eq!(index_query(&["{}".into()]), None);
        assert_eq!(index_query(&["café".into()]), None, "read, in any case");
        assert_eq!(index_query(&["café au".into()]).as_deref(), Some("\"au\"*"));
        let long = "k".repeat(MAX_WORD + 10);
        assert_eq!(
            index_query(&[format!("{long} x")]),
            Some(format!("\"{}\"* AND \"x\"*", &long[..MAX_WORD])),
            "a long word by the head the index holds"
        );
    }

    #[test]
    fn long_words_are_held_by_their_head() {
        let body = format!("{} tail {}é", "Ab".repeat(MAX_WORD), "é".repeat(MAX_WORD));
        let raw = format!("POST /f HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n{body}");
        let json = serde_json::json!({"id": "airt_1", "request": {"raw": crate::capture::message::encode_base64(raw.as_bytes())}});
        let e = Exchange::from_json(&json.to_string()).unwrap();
        let indexed = index_text(&e);
        let words: Vec<&str> = indexed.split(' ').collect();
        assert!(
            words.contains(&"ab".repeat(MAX_WORD / 2).as_str()),
            "{indexed}"
        );
        assert!(words.contains(&"tail"), "{indexed}");
        assert!(words.iter().all(|w| w.len() <= MAX_WORD), "{indexed}");
        assert!(
            words.contains(&"é".repeat(MAX_WORD / 2).as_str()),
            "cut between characters: {indexed}"
        );
    }

    #[test]
    fn the_decoded_text_is_searched() {
        let raw = "POST /f HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nnote=caf%C3%A9+au+lait";
        let json = serde_json::json!({"id": "airt_1", "request": {"raw": crate::capture::message::encode_base64(raw.as_bytes())}});
        let e = Exchange::from_json(&json.to_string()).unwrap();
        let text = decoded_text(&e);
        assert!(holds(&e, &text, "café au lait"), "{text}");
        assert!(holds(&e, &text, "caf%c3"), "the raw bytes too");
        assert!(!holds(&e, &text, "espresso"));
        let indexed = index_text(&e);
        let words: Vec<&str> = indexed.split(' ').collect();
        for w in [
            "post", "f", "http", "1", "content", "type", "café", "au", "lait",
        ] {
            assert!(words.contains(&w), "{w} in {indexed}");
        }
        assert_eq!(
            indexed.matches("caf").count(),
            1,
            "each word once: {indexed}"
        );
        let many: Vec<&Exchange> = std::iter::repeat_n(&e, SPLIT_FROM * 3 + 1).collect();
        assert_eq!(
            index_texts(&many),
            vec![indexed; many.len()],
            "in order, on any core"
        );
    }
}
