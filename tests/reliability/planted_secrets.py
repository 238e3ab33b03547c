"""One fake credential of each kind the extended secret scanner knows, as a transcript would
carry it (all values invented for the tests; none is a real key)."""

from __future__ import annotations

PLANTED = {
    "aws-key-id": ("AKIAQ7FAKEKEY4TESTS1", "AKIAQ7FAKEKEY4TESTS1"),
    "aws-secret": (
        "aws_secret_access_key = Zx9/FakeSecretKeyForTests+0123456789abcd",
        "Zx9/FakeSecretKeyForTests+0123456789abcd",
    ),
    "github-token": (
        "ghp_FakeGitHubTokenForTests0123456789abcd",
        "ghp_FakeGitHubTokenForTests0123456789abcd",
    ),
    "gitlab-token": ("glpat-FakeGitLabToken_0123456", "glpat-FakeGitLabToken_0123456"),
    "slack-token": (
        "xoxb-1234567890-0987654321-FakeSlackTokenTests",
        "xoxb-1234567890-0987654321-FakeSlackTokenTests",
    ),
    "stripe-key": ("sk_live_FakeStripeKey0123456789", "sk_live_FakeStripeKey0123456789"),
    "google-api-key": (
        "AIzaSyFakeGoogleKeyForTests_0123456789ab",
        "AIzaSyFakeGoogleKeyForTests_0123456789ab",
    ),
    "jwt": (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlLXRlc3RzIn0.FakeSignatureForTests0123",
        "FakeSignatureForTests0123",
    ),
    "private-key": (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEFAKEFORTESTS\n"
        "-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEFAKEFORTESTS",
    ),
    "url-password": (
        "postgres://deploy:FakeUrlPassw0rd@db.internal:5432/app",
        "FakeUrlPassw0rd",
    ),
    "env-secret": ("STRIPE_WEBHOOK_SECRET=FakeEnvSecretValue42", "FakeEnvSecretValue42"),
    "bearer-token": (
        "Authorization: Bearer FakeBearerTokenForTests0123",
        "FakeBearerTokenForTests0123",
    ),
}

# What must never appear in a harness-written file: the secret part of each planted text.
NEEDLES = {kind: needle for kind, (_, needle) in PLANTED.items()}


def planted_text() -> str:
    """Every planted credential, one per line."""
    return "\n".join(text for text, _ in PLANTED.values())
