//! The `/` filter of `sessions watch`: words that must all match, each free text (found in any
//! column, case aside) or `column=value` read as the selectors read their flags (`region=eu`,
//! `os=linux`, `version=<3.20`, `ip=203.0.113.0/24`, `credential=cr_…`, `metadata=web`), or `profile=NAME` when several
//! accounts are watched.

use super::session_columns::SessionColumn;
use super::watched_session::WatchedSession;
use crate::fleet::select::Selector;

/// A filter in force.
#[derive(Debug, Clone, Default)]
pub struct RowFilter {
    /// Its text, as typed.
    pub text: String,
    /// Its `column=value` words.
    selector: Selector,
    /// Its free words, lower-cased.
    words: Vec<String>,
    /// Its `profile=NAME`: the sessions of that profile's account only.
    profile: Option<String>,
}

impl RowFilter {
    /// Reads a filter; an unknown column or a wrong value says what is wrong.
    pub fn parse(text: &str) -> Result<RowFilter, String> {
        let mut f = RowFilter {
            text: text.trim().to_string(),
            ..RowFilter::default()
        };
        for word in text.split_whitespace() {
            let Some((key, value)) = word.split_once('=') else {
                f.words.push(word.to_lowercase());
                continue;
            };
            let sel = &mut f.selector;
            let value = value.to_string();
            match key.to_ascii_lowercase().as_str() {
                "region" => sel.region = Some(value),
                "os" => sel.os = Some(value),
                "version" | "agent_version" => sel.agent_version = Some(value.parse()?),
                "ip" => sel.ip = Some(value.parse()?),
                "credential" | "credential_id" => sel.credential_id = Some(value),
                "metadata" => sel.metadata_contains = Some(value),
                "profile" => f.profile = Some(value),
                other => {
                    return Err(format!(
                        "no column '{other}': say region, os, version, ip, credential, metadata or profile"
                    ))
                }
            }
        }
        Ok(f)
    }

    /// Filters nothing out?
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Does the session pass?
    pub fn matches(&self, s: &WatchedSession) -> bool {
        self.selector.matches(s)
            && self.profile.as_ref().is_none_or(|p| s.profile() == p)
            && self.words.iter().all(|w| {
                SessionColumn::ALL
                    .iter()
                    .any(|&c| s.value(c).to_lowercase().contains(w.as_str()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn words_and_columns() {
        let s = json!({"id": "ts_1", "region": "eu", "os": "linux", "agent_version": "3.19.1",
                       "ip": "203.0.113.9", "metadata": "{\"host\":\"web-1\"}"});
        let read =
            |v: &serde_json::Value, profile| WatchedSession::read(&v.to_string(), profile).unwrap();
        let ok = |t: &str| RowFilter::parse(t).unwrap().matches(&read(&s, None));
        assert!(ok(""));
        assert!(ok("WEB-1 region=EU"));
        assert!(ok("version=<3.20 ip=203.0.113.0/24"));
        assert!(!ok("version=>=3.20"));
        assert!(!ok("os=windows"));
        assert!(RowFilter::parse("colour=red")
            .unwrap_err()
            .contains("no column 'colour'"));
        assert!(RowFilter::parse("version=abc").is_err());
        assert!(!ok("profile=prod"));
        assert!(RowFilter::parse("profile=prod region=eu")
            .unwrap()
            .matches(&read(&s, Some("prod"))));
    }
}
