//! The agent's JSON text of a capture written out as it is read, never built into a value
//! tree: `--json` passes a capture on (indented and terminal-safe on a terminal, compact in a
//! pipe) at the cost of its text, even when a visitor's header bomb gives it two million
//! fields. Secrets are masked on the way as the printer masks any value: the values of
//! secret fields, and every secret this process knows inside strings.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// JSON text that serializes as the value it holds, read as it is written.
pub struct Streamed<'a> {
    text: &'a str,
    /// The secret fields to mask; `None` when secrets are shown (`--show-secrets`).
    masked: Option<&'static [&'static str]>,
}

impl<'a> Streamed<'a> {
    /// `text` (valid JSON), masking `secret_fields` and known secrets unless `masked` is
    /// `None`.
    pub fn new(text: &'a str, masked: Option<&'static [&'static str]>) -> Streamed<'a> {
        Streamed { text, masked }
    }

    fn part(&self, raw: &'a RawValue) -> Streamed<'a> {
        Streamed {
            text: raw.get(),
            masked: self.masked,
        }
    }

    fn shown<'t>(&self, text: &'t str) -> Cow<'t, str> {
        match self.masked {
            Some(_) => crate::secrets::redact_known(text),
            None => Cow::Borrowed(text),
        }
    }
}

impl Serialize for Streamed<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut de = serde_json::Deserializer::from_str(self.text);
        match de.deserialize_any(Forward { ser, of: self }) {
            Ok(written) => written,
            Err(e) => Err(S::Error::custom(e)),
        }
    }
}

/// Writes each JSON value to the serializer as the deserializer meets it; an object's members
/// and an array's items are taken as their text and written the same way in turn.
struct Forward<'s, 'a, S> {
    ser: S,
    of: &'s Streamed<'a>,
}

impl<'de: 'a, 'a, S: Serializer> Visitor<'de> for Forward<'_, 'a, S> {
    type Value = Result<S::Ok, S::Error>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(self.ser.serialize_bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(self.ser.serialize_i64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(self.ser.serialize_u64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(self.ser.serialize_f64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(self.ser.serialize_str(&self.of.shown(v)))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.ser.serialize_unit())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = match self.ser.serialize_seq(None) {
            Ok(out) => out,
            Err(e) => return Ok(Err(e)),
        };
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            if let Err(e) = out.serialize_element(&self.of.part(item)) {
                return Ok(Err(e));
            }
        }
        Ok(out.end())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = match self.ser.serialize_map(None) {
            Ok(out) => out,
            Err(e) => return Ok(Err(e)),
        };
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let value = map.next_value::<&'de RawValue>()?;
            let secret = self
                .of
                .masked
                .is_some_and(|fields| crate::secrets::is_secret(&key, fields))
                && value.get() != "null";
            let written = if secret {
                out.serialize_entry(&*key, "…(redacted)")
            } else {
                out.serialize_entry(&self.of.shown(&key), &self.of.part(value))
            };
            if let Err(e) = written {
                return Ok(Err(e));
            }
        }
        Ok(out.end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str, masked: Option<&'static [&'static str]>) -> String {
        serde_json::to_string(&Streamed::new(text, masked)).unwrap()
    }

    #[test]
    fn the_text_is_written_as_the_value_it_holds() {
        let text = r#"{"a": [1, -2, 2.5, true, null, "x\"\u00e9"], "b": {"c": {}}, "d": []}"#;
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(written(text, Some(&[])), value.to_string());
        assert!(serde_json::to_string(&Streamed::new("{", None)).is_err());
    }

    #[test]
    fn secrets_are_masked_unless_shown() {
        crate::secrets::register_secret("sk_streamed_0123456789abcdef");
        let text = r#"{"Secret": "s", "n": "Bearer sk_streamed_0123456789abcdef", "secret": null}"#;
        assert_eq!(
            written(text, Some(&["secret"])),
            r#"{"Secret":"…(redacted)","n":"Bearer sk_s…(redacted)","secret":null}"#
        );
        assert!(written(text, None).contains("sk_streamed_0123456789abcdef"));
    }
}
