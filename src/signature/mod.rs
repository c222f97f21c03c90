//! Webhook signatures: which provider signed a request, whether its signature holds for the
//! secret set for that provider, and a fresh signature for a request that was changed or is
//! sent again, so the provider's own verification code in the handler accepts it.
//!
//! Pure: headers, body, secrets and the time come in, a [`Check`] or headers go out; reading
//! the secrets and the clock, and showing the result, are the callers' job. A visitor chooses
//! every header and byte of a captured request, so nothing here panics on any input, and the
//! texts it returns never hold a secret nor a header's value.
//!
//! One module per provider reads its headers into a common `claim::Claim` and writes fresh
//! ones; checking the HMAC (in constant time) and the timestamp's age is done here, once.

mod claim;
mod crypto;
mod github;
mod headers;
mod provider;
mod shopify;
mod slack;
mod standard;
mod stripe;

#[cfg(test)]
mod tests;

use std::fmt;

pub use provider::{Provider, UnknownProvider};

use headers::Headers;

/// The five outcomes of checking a request's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The signature matches the secret (and its timestamp is within the tolerance).
    Valid,
    /// The signature does not match the secret, or the signature headers are malformed.
    Invalid,
    /// The signature matches, but its timestamp is past the provider's tolerance: the
    /// handler would refuse it now.
    Expired,
    /// Signed, but no secret is set for the provider.
    NoSecret,
    /// No signature header of a known provider.
    Unsigned,
}

impl Verdict {
    /// The word shown and written in JSON: `valid`, `invalid`, `expired`, `no-secret`,
    /// `unsigned`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::Expired => "expired",
            Verdict::NoSecret => "no-secret",
            Verdict::Unsigned => "unsigned",
        }
    }

    /// Every verdict, for filters and help texts.
    pub const ALL: [Verdict; 5] = [
        Verdict::Valid,
        Verdict::Invalid,
        Verdict::Expired,
        Verdict::NoSecret,
        Verdict::Unsigned,
    ];

    /// Does this verdict mean the handler would refuse the request (`invalid`, `expired`)?
    pub fn fails(self) -> bool {
        matches!(self, Verdict::Invalid | Verdict::Expired)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Verdict {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                let words: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
                format!("the results are {}", words.join(", "))
            })
    }
}

/// The result of checking one request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Check {
    /// The provider found from the headers; `None` when unsigned.
    pub provider: Option<Provider>,
    /// The verdict.
    pub result: Verdict,
    /// A short explanation (never a secret, never a header's value).
    pub detail: String,
}

/// The webhook secrets available, at most one per provider.
#[derive(Clone, Default)]
pub struct Secrets {
    values: [Option<String>; Provider::ALL.len()],
}

impl Secrets {
    /// No secret at all.
    pub fn new() -> Self {
        Secrets::default()
    }

    fn slot(provider: Provider) -> usize {
        Provider::ALL
            .iter()
            .position(|p| *p == provider)
            .unwrap_or_default()
    }

    /// Sets the secret of `provider`; an empty one counts as none.
    pub fn set(&mut self, provider: Provider, secret: impl Into<String>) {
        let secret = secret.into();
        self.values[Self::slot(provider)] = (!secret.is_empty()).then_some(secret);
    }

    /// These secrets with `provider`'s set to `secret`.
    pub fn with(mut self, provider: Provider, secret: impl Into<String>) -> Self {
        self.set(provider, secret);
        self
    }

    /// The secret of `provider`, if set.
    pub fn get(&self, provider: Provider) -> Option<&str> {
        self.values[Self::slot(provider)].as_deref()
    }
}

impl fmt::Debug for Secrets {
    /// Says which providers have a secret, never the secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set: Vec<&str> = Provider::ALL
            .into_iter()
            .filter(|p| self.get(*p).is_some())
            .map(Provider::name)
            .collect();
        f.debug_struct("Secrets").field("set", &set).finish()
    }
}

/// A secret that cannot sign: Standard Webhooks secrets must be base64 after `whsec_`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSecret {
    /// Whose secret.
    pub provider: Provider,
    /// What is wrong with it (never the secret).
    pub reason: String,
}

impl fmt::Display for BadSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} secret ({} or the config key {}): {}",
            self.provider.title(),
            self.provider.env_var(),
            self.provider.config_key(),
            self.reason
        )
    }
}

impl std::error::Error for BadSecret {}

/// The HMAC key a secret stands for: its bytes, or for Standard Webhooks the base64 it holds.
pub fn key(provider: Provider, secret: &str) -> Result<Vec<u8>, BadSecret> {
    match provider {
        Provider::Standard => {
            standard::key(secret).map_err(|reason| BadSecret { provider, reason })
        }
        _ if secret.is_empty() => Err(BadSecret {
            provider,
            reason: "the secret is empty".into(),
        }),
        _ => Ok(secret.as_bytes().to_vec()),
    }
}

/// The provider whose signature header the request carries, if any.
pub fn detect<N: AsRef<str>, V: AsRef<str>>(headers: &[(N, V)]) -> Option<Provider> {
    detect_in(&Headers::new(headers))
}

fn detect_in(h: &Headers) -> Option<Provider> {
    Provider::ALL.into_iter().find(|p| {
        let markers: &[&str] = match p {
            Provider::Github => &[github::HEADER],
            Provider::Stripe => &[stripe::HEADER],
            Provider::Slack => &[slack::HEADER],
            Provider::Shopify => &[shopify::HEADER],
            Provider::Standard => &standard::HEADERS,
        };
        markers.iter().any(|m| h.has(m))
    })
}

/// The headers that carry a signature's digest, but Standard Webhooks' ([`standard::HEADERS`]).
const DIGEST_HEADERS: [&str; 5] = [
    github::HEADER,
    github::LEGACY_HEADER,
    stripe::HEADER,
    slack::HEADER,
    shopify::HEADER,
];

/// Does the header `name` carry a signature's digest, under any scheme?
fn carries_digest(name: &str) -> bool {
    DIGEST_HEADERS
        .iter()
        .chain(standard::HEADERS.iter())
        .any(|h| h.eq_ignore_ascii_case(name))
}

/// Is `name` a header some scheme signs with (whose value a re-signing replaces)?
pub fn is_signature_header(name: &str) -> bool {
    carries_digest(name)
        || std::iter::once(&slack::TIMESTAMP)
            .chain(standard::ALL_HEADERS.iter())
            .any(|h| h.eq_ignore_ascii_case(name))
}

/// The digests in signature headers made by [`sign`]: the text of each signature, without the
/// scheme's labels (`v1=`, `sha256=`, `v0=`, `v1,`) and without timestamps or IDs. A fresh
/// signature is as good as the secret for as long as the provider's tolerance: the caller
/// hides these wherever the secret is hidden.
pub fn digests(signed: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, value) in signed.iter().filter(|(name, _)| carries_digest(name)) {
        for item in value.split([',', ' ']).map(str::trim) {
            // `label=digest` with a short label (`t`, `v1`, `sha256`, `v0`); base64 holds `=`
            // only as its padding, after a long run.
            let digest = match item.split_once('=') {
                Some((label, rest))
                    if label.len() <= 8 && label.bytes().all(|b| b.is_ascii_alphanumeric()) =>
                {
                    rest
                }
                _ => item,
            };
            // Labels alone (`v1`) and timestamps (`t=…`, ten digits) are shorter than any
            // digest.
            if digest.len() >= 16 {
                out.push(digest.to_string());
            }
        }
    }
    out
}

/// Checks the signature of a request (headers as received, body bytes) against the secret
/// set for its provider, at `now` (Unix seconds).
pub fn verify<N: AsRef<str>, V: AsRef<str>>(
    headers: &[(N, V)],
    body: &[u8],
    secrets: &Secrets,
    now: i64,
) -> Check {
    let h = Headers::new(headers);
    let Some(provider) = detect_in(&h) else {
        return Check {
            provider: None,
            result: Verdict::Unsigned,
            detail: "no signature header of a known provider".into(),
        };
    };
    let (result, detail) = judge(provider, &h, body, secrets, now);
    Check {
        provider: Some(provider),
        result,
        detail,
    }
}

fn judge(
    provider: Provider,
    h: &Headers,
    body: &[u8],
    secrets: &Secrets,
    now: i64,
) -> (Verdict, String) {
    let claim = match claimed(provider, h, body) {
        Ok(c) => c,
        Err(malformed) => return (Verdict::Invalid, malformed),
    };
    let Some(secret) = secrets.get(provider) else {
        return (
            Verdict::NoSecret,
            format!(
                "signed by {}; set {} to check it",
                provider.title(),
                provider.env_var()
            ),
        );
    };
    let key = match key(provider, secret) {
        Ok(k) => k,
        Err(bad) => return (Verdict::Invalid, bad.to_string()),
    };
    if !claim
        .tags
        .iter()
        .any(|tag| crypto::matches(&key, &claim.message, tag))
    {
        return (
            Verdict::Invalid,
            format!("does not match the {} secret", provider.title()),
        );
    }
    match (claim.timestamp, provider.tolerance()) {
        (Some(ts), Some(tolerance)) => age_verdict(provider, now.saturating_sub(ts), tolerance),
        _ => (Verdict::Valid, "signature matches".into()),
    }
}

/// Valid or expired, from the signed timestamp's age (negative: ahead of `now`).
fn age_verdict(provider: Provider, age: i64, tolerance: i64) -> (Verdict, String) {
    let title = provider.title();
    if age > tolerance {
        (
            Verdict::Expired,
            format!(
                "signature matches, but signed {age} s ago; {title} refuses after {tolerance} s"
            ),
        )
    } else if age < -tolerance && provider.refuses_future() {
        (
            Verdict::Expired,
            format!(
                "signature matches, but dated {} s ahead; {title} refuses more than {tolerance} s",
                age.unsigned_abs()
            ),
        )
    } else if age >= 0 {
        (
            Verdict::Valid,
            format!("signature matches; signed {age} s ago"),
        )
    } else {
        (
            Verdict::Valid,
            format!("signature matches; dated {} s ahead", age.unsigned_abs()),
        )
    }
}

fn claimed(provider: Provider, h: &Headers, body: &[u8]) -> Result<claim::Claim, String> {
    match provider {
        Provider::Github => github::claim(h, body),
        Provider::Stripe => stripe::claim(h, body),
        Provider::Slack => slack::claim(h, body),
        Provider::Shopify => shopify::claim(h, body),
        Provider::Standard => standard::claim(h, body),
    }
}

/// The signature headers of `provider` for this request, signed with `secret` and timestamped
/// `now` (Unix seconds): under the names the request carries them (`svix-` stays `svix-`,
/// each name's case kept), or the provider's own names for a request not signed yet; a
/// Standard Webhooks request keeps its `webhook-id`, or gets a fresh one. Set them with
/// [`apply`].
pub fn sign<N: AsRef<str>, V: AsRef<str>>(
    headers: &[(N, V)],
    body: &[u8],
    provider: Provider,
    secret: &str,
    now: i64,
) -> Result<Vec<(String, String)>, BadSecret> {
    let h = Headers::new(headers);
    let key = key(provider, secret)?;
    Ok(match provider {
        Provider::Github => github::sign(&h, body, &key),
        Provider::Stripe => stripe::sign(&h, body, &key, now),
        Provider::Slack => slack::sign(&h, body, &key, now),
        Provider::Shopify => shopify::sign(&h, body, &key),
        Provider::Standard => standard::sign(&h, body, &key, now),
    })
}

/// Sets `signed` (from [`sign`]) in `headers`: each replaces the headers of its name (any
/// case) where the first of them stood, or is added at the end.
pub fn apply(headers: &mut Vec<(String, String)>, signed: Vec<(String, String)>) {
    for (name, value) in signed {
        match headers
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(&name))
        {
            Some(at) => {
                headers[at] = (name.clone(), value);
                let mut i = 0;
                headers.retain(|(n, _)| {
                    i += 1;
                    i - 1 == at || !n.eq_ignore_ascii_case(&name)
                });
            }
            None => headers.push((name, value)),
        }
    }
}
