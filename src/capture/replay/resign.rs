//! A changed or re-sent request signed again, so the provider's verification code in the
//! handler accepts it: fresh signature headers (and a fresh timestamp) under the names the
//! request carries, made by [`crate::signature::sign`] with the secret set for its provider.
//! Replays and `send` on the command line and the inspector's `e` all go through [`resign`],
//! so they sign alike and warn alike, and each signature made is a secret of the run, hidden
//! wherever the webhook secrets are.

use crate::capture::message::Message;
use crate::error::{Error, Result};
use crate::signature::{apply, detect, digests, sign, Provider, Secrets};

/// What became of a request's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resigned {
    /// Not signed by a provider we know, and none asked for: sent as it is.
    Unsigned,
    /// Signed again for this provider.
    Signed(Provider),
    /// Signed, but no secret is set for its provider: sent as it was.
    NoSecret(Provider),
}

impl Resigned {
    /// The one warning line for stderr when the signature could not be made again (it names
    /// the variable to set, never a secret).
    pub fn warning(&self) -> Option<String> {
        match self {
            Resigned::NoSecret(p) => Some(format!(
                "warning: the {} signature was not made again and may not match the request \
                 sent; set {} (or the config key {}) to re-sign it",
                p.title(),
                p.env_var(),
                p.config_key()
            )),
            _ => None,
        }
    }
}

/// Signs `msg` again at `now` (Unix seconds) for the provider whose headers it carries, or
/// for `sign_as` (`send --sign`: a request written by hand, not signed yet). With `sign_as`
/// a missing secret is a configuration error, as is a secret that cannot sign.
pub fn resign(
    msg: &mut Message,
    secrets: &Secrets,
    now: i64,
    sign_as: Option<Provider>,
) -> Result<Resigned> {
    let Some(provider) = sign_as.or_else(|| detect(&msg.headers)) else {
        return Ok(Resigned::Unsigned);
    };
    let Some(secret) = secrets.get(provider) else {
        if sign_as.is_some() {
            return Err(no_secret(provider));
        }
        return Ok(Resigned::NoSecret(provider));
    };
    let signed = sign(&msg.headers, &msg.body, provider, secret, now)
        .map_err(|bad| Error::Config(bad.to_string()))?;
    // A fresh signature is a secret: hidden wherever the secret is, in an answer that echoes
    // the request, in a failure line, in the trace.
    for digest in digests(&signed) {
        crate::secrets::register_secret(&digest);
    }
    apply(&mut msg.headers, signed);
    Ok(Resigned::Signed(provider))
}

/// The error for a signature asked for (`--sign`, `--resign`) with no secret to make it.
pub fn no_secret(provider: Provider) -> Error {
    Error::Config(format!(
        "no {} webhook secret is set: set {} (or the config key {} with 'tunnelctl config set {} -')",
        provider.title(),
        provider.env_var(),
        provider.config_key(),
        provider.config_key()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signature::{verify, Verdict};

    fn msg(headers: &str) -> Message {
        Message::parse_request(
            format!("POST /h HTTP/1.1\r\nHost: h\r\n{headers}Content-Length: 2\r\n\r\nhi")
                .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn signs_what_is_signed_warns_without_a_secret_and_leaves_the_rest() {
        let secrets = Secrets::new().with(Provider::Stripe, "whsec_abc");
        let mut m = msg("Stripe-Signature: t=1,v1=00\r\n");
        assert_eq!(
            resign(&mut m, &secrets, 1000, None).unwrap(),
            Resigned::Signed(Provider::Stripe)
        );
        assert_eq!(
            verify(&m.headers, &m.body, &secrets, 1000).result,
            Verdict::Valid
        );
        assert_eq!(
            m.headers
                .iter()
                .filter(|(n, _)| n == "Stripe-Signature")
                .count(),
            1
        );

        let mut gh = msg("X-Hub-Signature-256: sha256=00\r\n");
        let r = resign(&mut gh, &secrets, 1000, None).unwrap();
        assert_eq!(r, Resigned::NoSecret(Provider::Github));
        assert!(r
            .warning()
            .unwrap()
            .contains(crate::registry::env::WEBHOOK_SECRET_GITHUB));
        assert_eq!(gh, msg("X-Hub-Signature-256: sha256=00\r\n"));

        let mut plain = msg("");
        assert_eq!(
            resign(&mut plain, &secrets, 1, None).unwrap(),
            Resigned::Unsigned
        );
        assert_eq!(
            resign(&mut plain, &secrets, 1, Some(Provider::Stripe)).unwrap(),
            Resigned::Signed(Provider::Stripe)
        );
        assert!(plain.header("stripe-signature").is_some());
        assert_eq!(
            resign(&mut msg(""), &secrets, 1, Some(Provider::Slack))
                .unwrap_err()
                .exit_code(),
            3
        );
    }
}
