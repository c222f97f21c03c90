//! Selectors: which sessions a fleet command acts on, filtered on the client.

use std::cmp::Ordering;
use std::net::IpAddr;

use semver::{Prerelease, Version};

use super::SessionFields;

/// What a version that is outside the grammar is told: a few forms that are in it, and where
/// the whole grammar is (`--agent-version`'s help). The whole grammar in an error was seven
/// lines on a terminal.
const VERSION_FORMS: &str =
    "give a version (3.19, 3.19.2) or conditions (=3.19.2, >=3.19,<3.20); --help has them all";

/// One condition on the agent version. Agents' versions are compared by semver precedence
/// (the `semver` crate): a pre-release (`3.20.0-rc.1`) is below its release, and build
/// metadata (`+build5`) is ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Condition {
    /// `3.19` matches the 3.19 and 3.19.x releases; `3.19.1` matches 3.19.1 and its builds
    /// (`3.19.1+build5`): the leading numbers of the version are these. A pre-release
    /// (`3.19.1-rc.1`) is not that release: a condition names it, or compares with it.
    Prefix(Vec<u64>),
    /// `=3.19.1`, `<3.20`, `<=3.20`, `>3.19.1`, `>=3.19`, and `3.20.0-rc.1` (a named
    /// pre-release, as `=`): how the version must compare with this one (missing parts count
    /// as 0), and whether equal also holds.
    Compare(Ordering, bool, Version),
}

/// A condition on the agent version: one or more `Condition`s that must all hold. Anything
/// outside the grammar `--agent-version`'s help gives (`abc`, `v3.19`, `=>3.19`, `~3.19`) is
/// refused, so a typo never selects nothing in silence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionMatch(Vec<Condition>);

/// `3.19.1` as one to three numbers, or why not.
fn numbers(text: &str, whole: &str) -> Result<Vec<u64>, String> {
    let parts: Option<Vec<u64>> = text
        .split('.')
        .map(|p| {
            (!p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect();
    parts
        .filter(|p| p.len() <= 3)
        .ok_or_else(|| format!("'{whole}' is not a version condition: {VERSION_FORMS}"))
}

/// The version of one to three numbers, missing parts 0.
fn padded(parts: &[u64]) -> Version {
    let part = |i: usize| parts.get(i).copied().unwrap_or(0);
    Version::new(part(0), part(1), part(2))
}

/// The version a condition names: one to three numbers (`3.19`), or three and a pre-release
/// (`3.20.0-rc.1`, semver's pre-release grammar); never build metadata, which precedence
/// ignores.
fn operand(text: &str, whole: &str) -> Result<(Vec<u64>, Option<Prerelease>), String> {
    let Some((core, pre)) = text.split_once('-') else {
        return Ok((numbers(text, whole)?, None));
    };
    let parts = numbers(core, whole)?;
    let pre = Prerelease::new(pre)
        .ok()
        .filter(|p| !p.is_empty() && parts.len() == 3)
        .ok_or_else(|| {
            format!(
                "'{whole}' is not a version condition: a pre-release follows a full version \
                 (3.20.0-rc.1)"
            )
        })?;
    Ok((parts, Some(pre)))
}

impl std::str::FromStr for VersionMatch {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.trim().is_empty() {
            return Err(format!("must not be empty: {VERSION_FORMS}"));
        }
        if let Some(without) = without_v(s) {
            return Err(format!("drop the 'v': {without}"));
        }
        let mut conditions = Vec::new();
        for part in s.split(',') {
            let part = part.trim();
            let (ord, or_equal, rest) = if let Some(r) = part.strip_prefix("<=") {
                (Ordering::Less, true, r)
            } else if let Some(r) = part.strip_prefix(">=") {
                (Ordering::Greater, true, r)
            } else if let Some(r) = part.strip_prefix('<') {
                (Ordering::Less, false, r)
            } else if let Some(r) = part.strip_prefix('>') {
                (Ordering::Greater, false, r)
            } else if let Some(r) = part.strip_prefix('=') {
                (Ordering::Equal, true, r)
            } else {
                conditions.push(match operand(part, s)? {
                    (parts, None) => Condition::Prefix(parts),
                    (parts, Some(pre)) => Condition::Compare(
                        Ordering::Equal,
                        true,
                        Version {
                            pre,
                            ..padded(&parts)
                        },
                    ),
                });
                continue;
            };
            let (parts, pre) = operand(rest.trim(), s)?;
            let version = Version {
                pre: pre.unwrap_or(Prerelease::EMPTY),
                ..padded(&parts)
            };
            conditions.push(Condition::Compare(ord, or_equal, version));
        }
        Ok(VersionMatch(conditions))
    }
}

/// `text` with the `v` taken from each version written `v3.19` (as tags are), when it has
/// one: agents report their versions without it.
fn without_v(text: &str) -> Option<String> {
    let mut changed = false;
    let parts: Vec<String> = text
        .split(',')
        .map(|part| {
            let part = part.trim();
            let operator = part.len() - part.trim_start_matches(['<', '>', '=']).len();
            let (op, rest) = part.split_at(operator);
            match rest.strip_prefix(['v', 'V']) {
                Some(version) if version.starts_with(|c: char| c.is_ascii_digit()) => {
                    changed = true;
                    format!("{op}{version}")
                }
                _ => part.to_string(),
            }
        })
        .collect();
    changed.then(|| parts.join(","))
}

/// An agent's version by semver rules, where the agent may leave parts out (`3.19` is
/// 3.19.0); `None` when it is no version at all (it then meets no condition).
fn agent_version(text: &str) -> Option<Version> {
    if let Ok(v) = Version::parse(text) {
        return Some(v);
    }
    let (core, rest) = text.split_at(text.find(['-', '+']).unwrap_or(text.len()));
    let given = core.split('.').count();
    if given >= 3 {
        return None;
    }
    Version::parse(&format!("{core}{}{rest}", ".0".repeat(3 - given))).ok()
}

impl Condition {
    fn matches(&self, version: &Version) -> bool {
        match self {
            Condition::Prefix(p) => {
                let numbers = [version.major, version.minor, version.patch];
                version.pre.is_empty() && numbers.get(..p.len()) == Some(p.as_slice())
            }
            Condition::Compare(ord, or_equal, v) => {
                let o = version.cmp_precedence(v);
                o == *ord || (*or_equal && o == Ordering::Equal)
            }
        }
    }
}

impl VersionMatch {
    fn matches(&self, version: &str) -> bool {
        agent_version(version).is_some_and(|v| self.0.iter().all(|c| c.matches(&v)))
    }
}

/// An address or a CIDR block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpMatch {
    addr: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for IpMatch {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (a, p) = s
            .trim()
            .split_once('/')
            .map_or((s.trim(), None), |(a, p)| (a, Some(p)));
        let addr: IpAddr = a
            .parse()
            .map_err(|_| format!("'{s}' is not an IP address or CIDR block"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match p {
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("'{s}' has a bad prefix length (0 to {max})"))?,
            None => max,
        };
        Ok(IpMatch { addr, prefix })
    }
}

impl IpMatch {
    fn matches(&self, ip: &str) -> bool {
        let Ok(ip) = ip.parse::<IpAddr>() else {
            return false;
        };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// Every condition given; a session must meet them all.
#[derive(Debug, Clone, Default)]
pub struct Selector {
    /// Region, e.g. `eu` (case-insensitive).
    pub region: Option<String>,
    /// OS, e.g. `linux` (case-insensitive).
    pub os: Option<String>,
    /// Agent version condition.
    pub agent_version: Option<VersionMatch>,
    /// Credential id.
    pub credential_id: Option<String>,
    /// IP address or block.
    pub ip: Option<IpMatch>,
    /// Text the metadata must contain.
    pub metadata_contains: Option<String>,
    /// Every session (`--all`).
    pub all: bool,
}

impl Selector {
    /// Was anything asked for (a condition or `--all`)?
    pub fn is_given(&self) -> bool {
        self.all
            || self.region.is_some()
            || self.os.is_some()
            || self.agent_version.is_some()
            || self.credential_id.is_some()
            || self.ip.is_some()
            || self.metadata_contains.is_some()
    }

    /// Does the session meet every condition?
    pub fn matches<S: SessionFields + ?Sized>(&self, s: &S) -> bool {
        self.region
            .as_ref()
            .is_none_or(|r| s.text_field("region").eq_ignore_ascii_case(r))
            && self
                .os
                .as_ref()
                .is_none_or(|o| s.text_field("os").eq_ignore_ascii_case(o))
            && self
                .agent_version
                .as_ref()
                .is_none_or(|v| v.matches(s.text_field("agent_version")))
            && self
                .credential_id
                .as_ref()
                .is_none_or(|c| s.credential_id() == c)
            && self
                .ip
                .as_ref()
                .is_none_or(|m| m.matches(s.text_field("ip")))
            && self
                .metadata_contains
                .as_ref()
                .is_none_or(|t| s.text_field("metadata").contains(t.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn versions() {
        let v = |s: &str| s.parse::<VersionMatch>().unwrap();
        assert!(v("3.19").matches("3.19.1"));
        assert!(!v("3.1").matches("3.19.1"));
        assert!(v("<3.20").matches("3.19.9"));
        assert!(!v("<3.20").matches("3.20.0"));
        assert!(v("<=3.20").matches("3.20.0"));
        assert!(v(">=3.19.1").matches("3.100.0"));
        assert!(v(">=3.19,<3.20").matches("3.19.7"));
        assert!(!v(">=3.19,<3.20").matches("3.20.0"));
        assert!(v("=3.19.1").matches("3.19.1"));
        assert!(!v("=3.19").matches("3.19.1"));
        assert!(v(" 3.19 ").matches("3.19"));
        assert!(v("<3.20").matches("3.20.0-rc.1"));
        assert!(!v(">3.20.0").matches("3.20.0-rc.1"));
        assert!(!v("3.20").matches("3.20.0-rc.1"));
        assert!(!v("3.20.0").matches("3.20.0-rc.1"));
        assert!(v("3.20.0").matches("3.20.0+build5"));
        assert!(v("3.20.0-rc.1").matches("3.20.0-rc.1+build5"));
        assert!(!v("3.20.0-rc.1").matches("3.20.0-rc.2"));
        assert!(!v("3.20.0-rc.1").matches("3.20.0"));
        assert!(v("<3.20.0-rc.2").matches("3.20.0-rc.1"));
        assert!(v("=3.20.0").matches("3.20.0+build5"));
        assert!(!v(">3.20.0").matches("3.20.0+build5"));
        assert!(!v(">=3.0").matches("not a version"));
    }

    #[test]
    fn a_v_before_a_version_is_told_to_go() {
        let e = |s: &str| s.parse::<VersionMatch>().unwrap_err();
        assert_eq!(e("v3.19"), "drop the 'v': 3.19");
        assert_eq!(e(">=V3.19,<v3.20"), "drop the 'v': >=3.19,<3.20");
        assert!(
            e("~3.19").ends_with("--help has them all"),
            "{}",
            e("~3.19")
        );
    }

    #[test]
    fn versions_outside_the_grammar_are_refused() {
        for bad in [
            "",
            " ",
            "abc",
            "v3.19",
            "=>3.19",
            "~3.19",
            "^3.19",
            "3.",
            ".3",
            "3..1",
            "<",
            ">=",
            "<abc",
            "3.19,",
            ",3.19",
            "3.19-beta",
            "3.20.0-",
            "3.20.0-rc..1",
            "3.20.0-rc.1+build5",
            "<3.20-rc.1",
            "3.x",
            "== 3.19",
            "<<3",
            "1234567890",
            "3.19.1.2",
            "3.20.0+build5",
        ] {
            assert!(bad.parse::<VersionMatch>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn ips() {
        let m: IpMatch = "203.0.113.0/24".parse().unwrap();
        assert!(m.matches("203.0.113.9"));
        assert!(!m.matches("203.0.114.9"));
        assert!("10.0.0.1/33".parse::<IpMatch>().is_err());
        assert!("nope".parse::<IpMatch>().is_err());
        let all: IpMatch = "0.0.0.0/0".parse().unwrap();
        assert!(all.matches("1.2.3.4"));
    }

    #[test]
    fn every_condition_must_hold() {
        let s = json!({"region": "eu", "os": "Linux", "agent_version": "3.19.1", "ip": "1.2.3.4", "credential": {"id": "cr_1"}, "metadata": "{\"team\":\"web\"}"});
        let mut sel = Selector {
            region: Some("EU".into()),
            os: Some("linux".into()),
            ..Default::default()
        };
        assert!(sel.matches(&s));
        sel.metadata_contains = Some("web".into());
        assert!(sel.matches(&s));
        sel.credential_id = Some("cr_2".into());
        assert!(!sel.matches(&s));
    }
}
