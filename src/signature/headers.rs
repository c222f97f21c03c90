//! A read-only view of a request's headers as they arrived: looked up without regard to case
//! (HTTP names are case-insensitive, and HTTP/2 lowers them), while keeping each name's
//! spelling so a re-signed request carries its signature under the names it came with.

/// The headers of one request, in the order received.
pub(super) struct Headers<'a> {
    list: Vec<(&'a str, &'a str)>,
}

impl<'a> Headers<'a> {
    /// A view of `list`.
    pub(super) fn new<N: AsRef<str>, V: AsRef<str>>(list: &'a [(N, V)]) -> Self {
        Headers {
            list: list.iter().map(|(n, v)| (n.as_ref(), v.as_ref())).collect(),
        }
    }

    /// The value of the first header called `name`, trimmed.
    pub(super) fn get(&self, name: &str) -> Option<&'a str> {
        self.list
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    /// Is there a header called `name`?
    pub(super) fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// `name` spelled as the request spells it, or as given when the request lacks it.
    pub(super) fn spelling(&self, name: &str) -> String {
        self.list
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or(name, |(n, _)| n)
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_ignore_case_and_spellings_keep_it() {
        let list = [
            ("x-hub-Signature-256", " sha256=ab "),
            ("X-HUB-SIGNATURE-256", "2"),
        ];
        let h = Headers::new(&list);
        assert_eq!(h.get("X-Hub-Signature-256"), Some("sha256=ab"));
        assert!(h.has("x-hub-signature-256"));
        assert_eq!(h.spelling("X-Hub-Signature-256"), "x-hub-Signature-256");
        assert_eq!(h.spelling("Stripe-Signature"), "Stripe-Signature");
    }
}
