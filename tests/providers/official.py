"""Signs and verifies webhooks with the providers' official Python libraries, for
tests/signatures.rs, which checks tunnelctl's signatures against them in both directions.

Reads {"ops": [...]} as JSON on stdin and writes {"results": [...]} on stdout, one result per
op, in order:
  {"op": "sign", "lib": L, "secret": S, "body": TEXT, "timestamp": T, "id": ID}
      -> {"headers": [[name, value], ...]} as the library makes them
  {"op": "verify", "lib": L, "secret": S, "body": TEXT, "headers": [[name, value], ...]}
      -> {"accepted": bool, "reason": text}; verifiers check the time against the real clock
L is stripe, slack, standardwebhooks, svix or shopify.
"""

import base64
import hashlib
import hmac
import importlib
import json
import sys
from datetime import datetime, timezone


def lib(name):
    """Imports a library when first used: a run needs one, and some import slowly."""
    return importlib.import_module(name)


def stripe_sign(op):
    header = lib("stripe").WebhookSignature.generate_signature_header(
        op["body"], op["secret"], timestamp=op["timestamp"]
    )
    return [["Stripe-Signature", header]]


def stripe_verify(op, headers):
    lib("stripe").WebhookSignature.verify_header(
        op["body"], headers.get("Stripe-Signature"), op["secret"], tolerance=300
    )
    return True


def slack_sign(op):
    verifier = lib("slack_sdk.signature").SignatureVerifier(op["secret"])
    stamp = str(op["timestamp"])
    signature = verifier.generate_signature(timestamp=stamp, body=op["body"])
    return [["X-Slack-Request-Timestamp", stamp], ["X-Slack-Signature", signature]]


def slack_verify(op, headers):
    verifier = lib("slack_sdk.signature").SignatureVerifier(op["secret"])
    return verifier.is_valid_request(op["body"], headers)


def standard_sign(module, prefix):
    def sign(op):
        hook = lib(module).Webhook(op["secret"])
        when = datetime.fromtimestamp(op["timestamp"], tz=timezone.utc)
        signature = hook.sign(op["id"], when, op["body"])
        return [
            [prefix + "id", op["id"]],
            [prefix + "timestamp", str(op["timestamp"])],
            [prefix + "signature", signature],
        ]

    return sign


def standardwebhooks_verify(op, headers):
    lib("standardwebhooks").Webhook(op["secret"]).verify(op["body"], headers, json_parse=False)
    return True


def svix_verify(op, headers):
    lib("svix.webhooks").Webhook(op["secret"]).verify(op["body"], headers)
    return True


# Shopify publishes no verifier in PyPI or npm short of its whole app framework; this is
# the algorithm its documentation ("Verify webhooks") gives, on Python's standard hmac: the
# base64 HMAC-SHA256 of the raw body, compared in constant time. Independent of tunnelctl's
# code, it checks the same bytes from the other side.
def shopify_sign(op):
    mac = hmac.new(op["secret"].encode(), op["body"].encode(), hashlib.sha256).digest()
    return [["X-Shopify-Hmac-Sha256", base64.b64encode(mac).decode()]]


def shopify_verify(op, headers):
    mac = hmac.new(op["secret"].encode(), op["body"].encode(), hashlib.sha256).digest()
    given = headers.get("X-Shopify-Hmac-Sha256", "")
    return hmac.compare_digest(base64.b64encode(mac).decode(), given)


LIBS = {
    "stripe": (stripe_sign, stripe_verify),
    "slack": (slack_sign, slack_verify),
    "standardwebhooks": (
        standard_sign("standardwebhooks", "webhook-"),
        standardwebhooks_verify,
    ),
    "svix": (standard_sign("svix.webhooks", "svix-"), svix_verify),
    "shopify": (shopify_sign, shopify_verify),
}


def run(op):
    sign, verify = LIBS[op["lib"]]
    if op["op"] == "sign":
        return {"headers": sign(op)}
    headers = {name: value for name, value in op["headers"]}
    try:
        accepted = bool(verify(op, headers))
        return {"accepted": accepted, "reason": "" if accepted else "refused"}
    except Exception as e:  # each library refuses with its own exception type
        return {"accepted": False, "reason": f"{type(e).__name__}: {e}"}


def main():
    ops = json.load(sys.stdin)["ops"]
    json.dump({"results": [run(op) for op in ops]}, sys.stdout)


main()
