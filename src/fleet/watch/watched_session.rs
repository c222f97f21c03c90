//! A session as `sessions watch` keeps it: the text the service wrote, and where each of the
//! screen's columns lies in it, in one allocation.
//!
//! The screen holds thousands of sessions and reads them all at each refresh. Read into
//! `serde_json::Value`s (a map, and a string for each key and value), 5,000 sessions took more
//! CPU than fetching them and some 20 MB; read this way, each is one allocation of its own
//! text.
//! Every field is still there: the details view and the actions read the text again when
//! they need the whole session ([`WatchedSession::to_value`]).

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::session_columns::{SessionColumn, PROFILE_FIELD};
use crate::error::{Error, Result};
use crate::fleet::SessionFields;

/// Where the row's key lies among [`WatchedSession`]'s spans, after one per column.
const KEY: usize = SessionColumn::ALL.len();

/// One session of a list, read once.
#[derive(Clone, PartialEq, Eq)]
pub struct WatchedSession {
    /// The session's JSON as the service wrote it; then the value of any column whose text held
    /// an escape, unescaped; then the profile's name and the row's key when several accounts
    /// are watched.
    buf: Box<str>,
    /// The length of the service's text at the start of `buf`.
    text_len: u32,
    /// Where each column's value lies in `buf` (in the order of [`SessionColumn::ALL`]), then
    /// the row's key.
    spans: [Range<u32>; KEY + 1],
}

/// The fields the screen reads of a session, borrowed from its text where no escape stands in
/// the way. Any field may be missing or not a string: it is then empty, as a `Value`'s
/// [`crate::fleet::field`] reads it.
#[derive(Deserialize)]
struct ListedFields<'a> {
    #[serde(borrow, default, deserialize_with = "loose_text")]
    id: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "loose_text")]
    agent_version: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "loose_text")]
    region: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "loose_text")]
    os: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "loose_text")]
    ip: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "loose_text")]
    started_at: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "reference_id")]
    credential: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "loose_text")]
    metadata: Cow<'a, str>,
}

impl WatchedSession {
    /// Reads one session of a list (`text`, as the service wrote it), labelled with `profile`
    /// when several accounts are watched. A session that is not a JSON object is an error.
    pub fn read(text: &str, profile: Option<&str>) -> Result<WatchedSession> {
        let not_object = |why: String| {
            Error::BadResponse(format!(
                "a session in the list is not a JSON object ({why})"
            ))
        };
        // A struct may also be read from an array of its fields: a session may not.
        if !text.trim_start().starts_with('{') {
            return Err(not_object(crate::escape::escape(
                text.get(..text.len().min(40)).unwrap_or("…"),
            )));
        }
        let fields: ListedFields<'_> =
            serde_json::from_str(text).map_err(|e| not_object(e.to_string()))?;
        let too_long = || Error::BadResponse("a session in the list is over 4 GB long".into());
        let values = [
            fields.id,
            fields.agent_version,
            fields.region,
            fields.os,
            fields.ip,
            fields.started_at,
            fields.credential,
            fields.metadata,
        ];
        // Sized once: the text, what could not be borrowed from it, and the key (which holds
        // the profile).
        let extra: usize = values
            .iter()
            .filter(|v| matches!(v, Cow::Owned(_)))
            .map(|v| v.len())
            .sum::<usize>()
            + profile.map_or(0, |p| p.len() + 1 + values[0].len());
        let mut buf = String::with_capacity(text.len() + extra);
        buf.push_str(text);
        let mut spans: [Range<u32>; KEY + 1] = Default::default();
        let to_u32 = |n: usize| u32::try_from(n).map_err(|_| too_long());
        for (span, value) in spans.iter_mut().zip(&values) {
            // Borrowed, it lies in the text, which is the start of `buf`; unescaped (or not
            // found there, which serde_json's borrowing rules out), it is copied after it.
            let start = match value {
                // Empty (missing, or not a string): no place in the text to point at.
                _ if value.is_empty() => 0,
                Cow::Borrowed(v) => match within(text, v) {
                    Some(at) => at,
                    None => push(&mut buf, v),
                },
                Cow::Owned(v) => push(&mut buf, v),
            };
            *span = to_u32(start)?..to_u32(start + value.len())?;
        }
        spans[KEY] = match profile {
            Some(p) => {
                // The key starts with the profile's name: one text holds both.
                let at = push(&mut buf, &row_key(Some(p), &values[0]));
                spans[SessionColumn::Profile.index()] = to_u32(at)?..to_u32(at + p.len())?;
                to_u32(at)?..to_u32(buf.len())?
            }
            None => spans[SessionColumn::Id.index()].clone(),
        };
        Ok(WatchedSession {
            buf: buf.into_boxed_str(),
            text_len: to_u32(text.len())?,
            spans,
        })
    }

    fn span(&self, i: usize) -> &str {
        let r = &self.spans[i];
        self.buf
            .get(r.start as usize..r.end as usize)
            .unwrap_or_default()
    }

    /// Its value in `column` ("" when the service gave none).
    pub fn value(&self, column: SessionColumn) -> &str {
        self.span(column.index())
    }

    /// Its text in `column`, as the table shows it: escaped, the start time relative.
    pub fn cell(&self, column: SessionColumn) -> String {
        let value = self.value(column);
        match column {
            SessionColumn::Started => crate::output::time::human_time(value)
                .unwrap_or_else(|| crate::escape::escape(value)),
            _ => crate::escape::escape(value),
        }
    }

    /// The width of its text in each column, in the order of [`SessionColumn::ALL`]: what
    /// sizes the columns, worked out when a session is read rather than for every frame (a
    /// frame of 5,000 sessions would otherwise escape and format 45,000 cells to size its
    /// columns). A width past `u16::MAX` is that much: no column is shown that wide.
    pub fn cell_widths(&self) -> [u16; 9] {
        SessionColumn::ALL.map(|c| {
            let width = match c {
                SessionColumn::Started => self.cell(c).chars().count(),
                _ => crate::escape::escaped_len(self.value(c)),
            };
            u16::try_from(width).unwrap_or(u16::MAX)
        })
    }

    /// Its ID.
    pub fn id(&self) -> &str {
        self.value(SessionColumn::Id)
    }

    /// Its key on the screen: its ID, after its profile's name when several accounts are
    /// watched (two accounts may each have a session of the same ID).
    pub fn key(&self) -> &str {
        self.span(KEY)
    }

    /// Its profile's name ("" when one account is watched).
    pub fn profile(&self) -> &str {
        self.value(SessionColumn::Profile)
    }

    /// The session's JSON as the service wrote it.
    pub fn text(&self) -> &str {
        self.buf.get(..self.text_len as usize).unwrap_or_default()
    }

    /// The whole session, with its profile's name in [`PROFILE_FIELD`] when several accounts
    /// are watched (what the actions are given).
    pub fn to_value(&self) -> Value {
        // The text was read as JSON once already; an object read again cannot fail.
        let mut v = serde_json::from_str(self.text()).unwrap_or(Value::Null);
        if let (false, Value::Object(o)) = (self.profile().is_empty(), &mut v) {
            o.insert(PROFILE_FIELD.into(), Value::String(self.profile().into()));
        }
        v
    }
}

impl fmt::Debug for WatchedSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WatchedSession")
            .field("key", &self.key())
            .field("text", &self.text())
            .finish()
    }
}

impl SessionFields for WatchedSession {
    fn text_field(&self, name: &str) -> &str {
        let column = match name {
            "id" => SessionColumn::Id,
            "agent_version" => SessionColumn::Version,
            "region" => SessionColumn::Region,
            "os" => SessionColumn::Os,
            "ip" => SessionColumn::Ip,
            "started_at" => SessionColumn::Started,
            "metadata" => SessionColumn::Metadata,
            PROFILE_FIELD => SessionColumn::Profile,
            _ => return "",
        };
        self.value(column)
    }

    fn credential_id(&self) -> &str {
        self.value(SessionColumn::Credential)
    }
}

/// The key on the screen of session `id` of the account of `profile` (`None` when one account
/// is watched): the ID, after the profile's name and a slash when several are.
pub fn row_key(profile: Option<&str>, id: &str) -> String {
    match profile {
        Some(p) => format!("{p}/{id}"),
        None => id.to_string(),
    }
}

/// Where `part` starts in `text`, when it is a slice of it.
fn within(text: &str, part: &str) -> Option<usize> {
    let at = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    (at.checked_add(part.len())? <= text.len()).then_some(at)
}

/// Appends `s` to `buf`; where it starts.
fn push(buf: &mut String, s: &str) -> usize {
    buf.push_str(s);
    buf.len() - s.len()
}

/// A field's text: a string as it is, anything else empty.
fn loose_text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Cow<'de, str>, D::Error> {
    d.deserialize_any(Loose { reference: false })
}

/// A reference's ID (`{"id": …, "uri": …}`): empty when it is not an object or has no ID.
fn reference_id<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Cow<'de, str>, D::Error> {
    d.deserialize_any(Loose { reference: true })
}

/// Reads any JSON value as a field's text (a string; anything else is empty) or, for a
/// `reference`, as the text of its `id` (anything but an object is empty). One visitor for
/// both: each visitor is a copy of the JSON reader's code in the binary.
struct Loose {
    reference: bool,
}

impl Loose {
    fn text<'de>(&self, v: Cow<'de, str>) -> Cow<'de, str> {
        if self.reference {
            Cow::Borrowed("")
        } else {
            v
        }
    }
}

impl<'de> Visitor<'de> for Loose {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> std::result::Result<Self::Value, E> {
        Ok(self.text(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
        Ok(self.text(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Self::Value, E> {
        Ok(self.text(Cow::Owned(v)))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Borrowed(""))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Borrowed(""))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Borrowed(""))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Borrowed(""))
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Borrowed(""))
    }

    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Cow::Borrowed(""))
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut id = Cow::Borrowed("");
        while let Some(IsId(is_id)) = map.next_key::<IsId>()? {
            if self.reference && is_id {
                id = map.next_value::<LooseField<'de>>()?.0;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(id)
    }
}

/// Whether a key of a map is `id` (read without keeping the key).
struct IsId(bool);

impl<'de> Deserialize<'de> for IsId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = IsId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<IsId, E> {
                Ok(IsId(v == "id"))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// [`loose_text`] as a value of a map read by hand.
struct LooseField<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for LooseField<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        loose_text(d).map(LooseField)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: &Value, profile: Option<&str>) -> WatchedSession {
        WatchedSession::read(&v.to_string(), profile)
            .map_err(|e| e.to_string())
            .unwrap()
    }

    #[test]
    fn each_column_reads_as_a_values_field_reads() {
        let v = json!({"id": "ts_1", "uri": "https://x/ts_1", "agent_version": "3.19.1",
                       "credential": {"id": "cr_1", "uri": "https://x/cr_1"}, "ip": "203.0.113.9",
                       "os": "linux", "region": "eu", "started_at": "2026-11-27T20:04:58Z",
                       "metadata": "{\"host\":\"web-1\"}", "transport": "service/v2"});
        let s = read(&v, None);
        assert_eq!(s.id(), "ts_1");
        assert_eq!(s.key(), "ts_1");
        assert_eq!(s.profile(), "");
        for name in [
            "id",
            "agent_version",
            "ip",
            "os",
            "region",
            "started_at",
            "metadata",
        ] {
            assert_eq!(s.text_field(name), crate::fleet::field(&v, name), "{name}");
        }
        assert_eq!(
            s.value(SessionColumn::Metadata),
            "{\"host\":\"web-1\"}",
            "an escaped value is read unescaped"
        );
        assert_eq!(s.credential_id(), "cr_1");
        assert_eq!(s.to_value(), v, "every field is kept");
        assert_eq!(s.text(), v.to_string());
    }

    #[test]
    fn a_field_missing_or_not_a_string_is_empty_and_several_accounts_label_the_key() {
        let v = json!({"id": "ts_2", "agent_version": 3, "region": null, "os": ["linux"],
                       "ip": {"v4": "x"}, "credential": "cr_9", "metadata": true,
                       "extra": {"deep": [1, {"id": "no"}]}});
        let s = read(&v, Some("prod"));
        for c in SessionColumn::ALL {
            let want = match c {
                SessionColumn::Id => "ts_2",
                SessionColumn::Profile => "prod",
                _ => "",
            };
            assert_eq!(s.value(c), want, "{c:?}");
        }
        assert_eq!(s.key(), "prod/ts_2");
        let mut labelled = v.clone();
        labelled[PROFILE_FIELD] = json!("prod");
        assert_eq!(s.to_value(), labelled);
        let no_id = read(&json!({"credential": {"uri": "u"}}), None);
        assert_eq!((no_id.id(), no_id.credential_id()), ("", ""));
    }

    #[test]
    fn a_session_that_is_not_an_object_is_an_error() {
        for text in ["{nope", "42", "[\"ts_1\"]", "\"ts_1\""] {
            let err = WatchedSession::read(text, None).unwrap_err().to_string();
            assert!(err.contains("not a JSON object"), "{text}: {err}");
        }
    }

    #[test]
    fn escaped_ids_make_escaped_keys_and_unicode_is_kept() {
        let s = WatchedSession::read(r#"{"id":"ts_\u00e9\"x","region":"é"}"#, Some("p")).unwrap();
        assert_eq!(s.id(), "ts_é\"x");
        assert_eq!(s.key(), "p/ts_é\"x");
        assert_eq!(s.value(SessionColumn::Region), "é");
    }
}
