//! Rules the API reference states for request fields, checked before anything is sent.

use std::fmt;

/// A field that breaks a rule: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The API field name (`description`, `target`, …).
    pub field: &'static str,
    /// What is wrong, in words.
    pub reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

/// The result of a validation.
pub type Checked = Result<(), Invalid>;

/// `value` may hold at most `max` bytes (UTF-8).
pub fn max_bytes(field: &'static str, value: Option<&str>, max: usize) -> Checked {
    match value {
        Some(v) if v.len() > max => Err(Invalid {
            field,
            reason: format!("is {} bytes long; at most {max} bytes are allowed", v.len()),
        }),
        _ => Ok(()),
    }
}

/// `value` may hold at most `max` characters.
pub fn max_chars(field: &'static str, value: Option<&str>, max: usize) -> Checked {
    match value {
        Some(v) if v.chars().count() > max => Err(Invalid {
            field,
            reason: format!(
                "is {} characters long; at most {max} characters are allowed",
                v.chars().count()
            ),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_chars_differ() {
        let s = "é".repeat(200); // 400 bytes, 200 characters
        assert!(max_bytes("description", Some(&s), 255).is_err());
        assert!(max_chars("description", Some(&s), 255).is_ok());
        assert!(max_bytes("description", None, 0).is_ok());
    }
}
