//! The providers whose signatures tunnelctl checks and makes, and what the rest of the program
//! needs to know of each: its name on the command line and in JSON, where its secret is set,
//! and how long its verifiers accept a signed timestamp.

use std::fmt;
use std::str::FromStr;

use crate::registry::{self, Setting};

/// A webhook provider with a signature scheme tunnelctl knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// GitHub: `X-Hub-Signature-256: sha256=HEX` over the body.
    Github,
    /// Stripe: `Stripe-Signature: t=TS,v1=HEX` over `TS.body`.
    Stripe,
    /// Slack: `X-Slack-Signature: v0=HEX` over `v0:TS:body`.
    Slack,
    /// Shopify: `X-Shopify-Hmac-Sha256: B64` over the body.
    Shopify,
    /// Standard Webhooks (also under `svix-` names): `webhook-signature: v1,B64` over
    /// `ID.TS.body`.
    Standard,
}

impl Provider {
    /// Every provider, in the order a request's headers are tried.
    pub const ALL: [Provider; 5] = [
        Provider::Github,
        Provider::Stripe,
        Provider::Slack,
        Provider::Shopify,
        Provider::Standard,
    ];

    /// The name on the command line and in JSON: `github`, `stripe`, `slack`, `shopify`,
    /// `standard`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Github => "github",
            Provider::Stripe => "stripe",
            Provider::Slack => "slack",
            Provider::Shopify => "shopify",
            Provider::Standard => "standard",
        }
    }

    /// The name people know it by, for sentences.
    pub fn title(self) -> &'static str {
        match self {
            Provider::Github => "GitHub",
            Provider::Stripe => "Stripe",
            Provider::Slack => "Slack",
            Provider::Shopify => "Shopify",
            Provider::Standard => "Standard Webhooks",
        }
    }

    /// The environment variable that holds its secret.
    pub fn env_var(self) -> &'static str {
        self.setting().env.unwrap_or_default()
    }

    /// The config key of a profile that holds its secret.
    pub fn config_key(self) -> &'static str {
        self.setting().key
    }

    /// Its secret's setting.
    pub fn setting(self) -> &'static Setting {
        match self {
            Provider::Github => &registry::WEBHOOK_SECRET_GITHUB,
            Provider::Stripe => &registry::WEBHOOK_SECRET_STRIPE,
            Provider::Slack => &registry::WEBHOOK_SECRET_SLACK,
            Provider::Shopify => &registry::WEBHOOK_SECRET_SHOPIFY,
            Provider::Standard => &registry::WEBHOOK_SECRET_STANDARD,
        }
    }

    /// The provider whose secret the config key `key` holds.
    pub fn from_config_key(key: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.config_key() == key)
    }

    /// How many seconds old a signed timestamp may be before the provider's verifiers refuse
    /// it; `None` for schemes that sign no timestamp.
    pub fn tolerance(self) -> Option<i64> {
        match self {
            Provider::Stripe | Provider::Slack | Provider::Standard => Some(300),
            Provider::Github | Provider::Shopify => None,
        }
    }

    /// Do its verifiers also refuse a timestamp more than the tolerance ahead of their clock?
    /// Slack's and Standard Webhooks' do; Stripe's only look back.
    pub(super) fn refuses_future(self) -> bool {
        matches!(self, Provider::Slack | Provider::Standard)
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A provider name that is not one of [`Provider::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProvider;

impl fmt::Display for UnknownProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
        write!(f, "the providers are {}", names.join(", "))
    }
}

impl std::error::Error for UnknownProvider {}

impl FromStr for Provider {
    type Err = UnknownProvider;

    /// Reads a provider's [`Provider::name`], in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text.trim()))
            .ok_or(UnknownProvider)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_keys_map_to_their_provider() {
        for p in Provider::ALL {
            assert_eq!(p.name().parse::<Provider>(), Ok(p));
            assert_eq!(Provider::from_config_key(p.config_key()), Some(p));
            assert!(p.env_var().ends_with(&p.name().to_uppercase()));
        }
        assert_eq!("GitHub".parse::<Provider>(), Ok(Provider::Github));
        assert_eq!("svix".parse::<Provider>(), Err(UnknownProvider));
        assert_eq!(Provider::from_config_key("api_key"), None);
    }
}
