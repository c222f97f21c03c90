//! The body of a create or update of any management resource: the `description` and
//! `metadata` every resource has, and the fields of its own beside them. Only the fields set
//! are sent.

use serde::Serialize;

use super::validate::{max_bytes, max_chars, Checked};

/// The fields of a create or update; only those set are sent. `T` holds the resource's own
/// fields (`()` for a resource that has none), sent at the same level as the shared two.
#[derive(Debug, Default, Serialize)]
pub struct Fields<T> {
    /// Human-readable description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Machine-readable data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
    /// The resource's own fields.
    #[serde(flatten)]
    pub own: T,
}

/// How the API reference counts the length of a text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// In UTF-8 bytes.
    Bytes,
    /// In characters.
    Chars,
}

/// The limits of a resource's `description` and `metadata`.
#[derive(Debug, Clone, Copy)]
pub struct TextLimits {
    /// How lengths are counted.
    pub count: Count,
    /// The longest description.
    pub description: usize,
    /// The longest metadata.
    pub metadata: usize,
}

/// The limits most resources have: 255 and 4096, counted as `count`.
pub const fn usual_limits(count: Count) -> Option<TextLimits> {
    Some(TextLimits {
        count,
        description: 255,
        metadata: 4096,
    })
}

/// A resource's own fields, with the API reference's rules for them.
pub trait OwnFields: Serialize {
    /// Checks the rules (none by default).
    fn validate(&self) -> Checked {
        Ok(())
    }
}

impl OwnFields for () {}

impl<T: OwnFields> Fields<T> {
    /// Checks the shared two against `limits`, then the resource's own fields.
    pub fn validate(&self, limits: Option<TextLimits>) -> Checked {
        self.validate_text(limits)?;
        self.own.validate()
    }

    /// Checks `description` and `metadata` against `limits` (nothing when there are none).
    fn validate_text(&self, limits: Option<TextLimits>) -> Checked {
        let Some(l) = limits else {
            return Ok(());
        };
        let max = match l.count {
            Count::Bytes => max_bytes,
            Count::Chars => max_chars,
        };
        max("description", self.description.as_deref(), l.description)?;
        max("metadata", self.metadata.as_deref(), l.metadata)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_fields_sit_beside_the_shared_ones_and_unset_ones_are_left_out() {
        #[derive(Serialize)]
        struct Own {
            format: &'static str,
        }
        let f = Fields {
            description: Some("d".into()),
            metadata: None,
            own: Own { format: "json" },
        };
        let v = serde_json::to_value(&f).unwrap();
        assert_eq!(v, serde_json::json!({"description": "d", "format": "json"}));
        let none: Fields<()> = Fields::default();
        assert_eq!(serde_json::to_value(&none).unwrap(), serde_json::json!({}));
    }

    #[test]
    fn limits_count_as_the_resource_says() {
        let f: Fields<()> = Fields {
            description: Some("é".repeat(200)),
            ..Fields::default()
        };
        assert!(f.validate_text(usual_limits(Count::Bytes)).is_err());
        assert!(f.validate_text(usual_limits(Count::Chars)).is_ok());
        assert!(f.validate_text(None).is_ok());
    }
}
