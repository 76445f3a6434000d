"""A measured corpus for `memfold.scan.secrets`: fake secrets that must be found, look-alikes that
must not be.

Every secret here is FAKE: generated from a seeded `random.Random`, in the published *shape*
of its family (prefix, alphabet, length, structure) but random in its body, so none is or
was ever a real credential.  The corpus is a function of the seed; the tests use `SEED` and
print it, and `MEMFOLD_SECRET_SEED=<n>` regenerates the same families with other bodies.

`positives(seed)` gives >= 200 `Positive`s in >= 20 families, each a text with the secret
embedded in a realistic context (a `.env` line, a YAML or JSON config, a shell command, a
Retain bullet, prose) and the exact secret substring that must be covered by matches.
`benign(seed)` gives >= 500 strings that look like secrets to a naive scanner and are not:
git SHAs, UUIDs, digests, data URIs, paths, URLs, env-var names, placeholders, versions,
identifiers, SSH public keys, certificates, memfold ids, prose in several languages.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable
from dataclasses import dataclass

SEED = 20251127

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
PASSWORD_CHARS = ALNUM + "!#%^*+=?~@$-_"


@dataclass(frozen=True)
class Positive:
    family: str
    text: str
    secret: str

    @property
    def span(self) -> tuple[int, int]:
        start = self.text.index(self.secret)
        return start, start + len(self.secret)


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def pick(self, items: list[str] | tuple[str, ...]) -> str:
        return self.r.choice(items)

    def n(self, lo: int, hi: int) -> int:
        return self.r.randint(lo, hi)

    def password(self, lo: int = 10, hi: int = 20) -> str:
        first = self.s(ALNUM, 1)
        rest = self.s(PASSWORD_CHARS, self.n(lo, hi) - 2)
        return first + rest + self.s(DIGITS, 1)

    def b64url(self, raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# -- positives -------------------------------------------------------------------------------

PER_FAMILY = 8

# Contexts shared by the token families: {s} is the secret.
TOKEN_CONTEXTS = (
    "{s}",
    "- W @deploy: the CI token is {s} (rotate after the audit)",
    "export {name}={s}",
    '{{"{name}": "{s}"}}',
    "  {name}: {s}",
    "curl -H 'X-Token: {s}' https://api.example.com/v1/me",
    "Paste this into the vault later: {s}.",
    "token `{s}` was leaked in the log",
)


def _contexts(g: _Gen, family: str, name: str, make: Callable[[], str],
              contexts: tuple[str, ...] = TOKEN_CONTEXTS) -> list[Positive]:
    out = []
    for i in range(PER_FAMILY):
        secret = make()
        text = contexts[i % len(contexts)].format(s=secret, name=name)
        out.append(Positive(family, text, secret))
    return out


def _jwt(g: _Gen) -> str:
    alg = g.pick(("HS256", "RS256", "ES256", "HS512"))
    header = {"alg": alg, "typ": "JWT"} if g.n(0, 1) else {"typ": "JWT", "alg": alg,
                                                            "kid": g.s(HEX, 16)}
    payload = {"sub": g.s(DIGITS, 10), "name": g.pick(("Ana", "Bo", "Chen")),
               "iat": 1700000000 + g.n(0, 10**7), "scope": "read write"}
    sig_len = {"HS256": 32, "HS512": 64, "ES256": 64, "RS256": 256}[alg]
    sig = bytes(g.r.getrandbits(8) for _ in range(sig_len))
    return ".".join((g.b64url(json.dumps(header, separators=(",", ":")).encode()),
                     g.b64url(json.dumps(payload, separators=(",", ":")).encode()),
                     g.b64url(sig)))


def _pem(g: _Gen, label: str, lines: int, *, escaped: bool = False, cut: bool = False) -> str:
    nl = "\\n" if escaped else "\n"
    body = nl.join(g.s(B64, 64) for _ in range(lines)) + nl + g.s(B64, g.n(4, 60)) + "=="
    block = f"-----BEGIN {label}-----{nl}{body}"
    if not cut:
        block += f"{nl}-----END {label}-----"
    return block


def positives(seed: int = SEED) -> list[Positive]:
    g = _Gen(seed)
    out: list[Positive] = []

    out += _contexts(g, "aws-access-key-id", "AWS_ACCESS_KEY_ID",
                     lambda: g.pick(("AKIA", "ASIA")) + g.s(UPPER + "234567", 16), (
                         "aws_access_key_id = {s}", "{name}={s}", '"AccessKeyId": "{s}"',
                         "- W @aws: deploy user key id {s}", "{s}",
                         "[default]\naws_access_key_id={s}\nregion=eu-west-1",
                         "key {s} belongs to the backup role", "creds: {s}"))
    out += _contexts(g, "aws-secret-key", "AWS_SECRET_ACCESS_KEY", lambda: g.s(B64, 40), (
        "aws_secret_access_key = {s}", "{name}={s}", '"SecretAccessKey": "{s}"',
        "export {name}='{s}'", "aws_secret_access_key={s}", "  secret_access_key: {s}",
        '{{"aws_secret_key": "{s}"}}', "AWS_SECRET_KEY = \"{s}\""))
    out += _contexts(g, "github-classic", "GITHUB_TOKEN",
                     lambda: g.pick(("ghp_", "gho_", "ghu_", "ghs_", "ghr_")) + g.s(ALNUM, 36))
    out += _contexts(g, "github-fine-grained", "GH_TOKEN",
                     lambda: "github_pat_" + g.s(ALNUM, 22) + "_" + g.s(ALNUM, 59))
    out += _contexts(g, "gitlab", "GITLAB_TOKEN", lambda: "glpat-" + g.s(ALNUM + "-_", 20))
    out += _contexts(g, "openai", "OPENAI_API_KEY", lambda: g.pick((
        "sk-" + g.s(ALNUM, 48),
        "sk-proj-" + g.s(B64URL, 74) + "T3BlbkFJ" + g.s(B64URL, 74),
        "sk-svcacct-" + g.s(B64URL, 120))))
    out += _contexts(g, "anthropic", "ANTHROPIC_API_KEY",
                     lambda: "sk-ant-api03-" + g.s(B64URL, 93) + "AA")
    out += _contexts(g, "slack-token", "SLACK_BOT_TOKEN", lambda: g.pick((
        f"xoxb-{g.s(DIGITS, 12)}-{g.s(DIGITS, 13)}-{g.s(ALNUM, 24)}",
        f"xoxp-{g.s(DIGITS, 12)}-{g.s(DIGITS, 12)}-{g.s(DIGITS, 13)}-{g.s(HEX, 32)}",
        f"xoxa-2-{g.s(DIGITS, 12)}-{g.s(ALNUM, 30)}",
        f"xapp-1-A{g.s(UPPER + DIGITS, 10)}-{g.s(DIGITS, 13)}-{g.s(HEX, 64)}")))
    out += _contexts(g, "slack-webhook", "SLACK_WEBHOOK_URL", lambda: (
        f"https://hooks.slack.com/services/T{g.s(UPPER + DIGITS, 8)}/B{g.s(UPPER + DIGITS, 10)}"
        f"/{g.s(ALNUM, 24)}"), (
        "{s}", "{name}={s}", "post alerts to {s} when the job fails",
        '{{"webhook": "{s}"}}', "- W @alerts: webhook {s}", "curl -X POST {s} -d @msg.json",
        "webhook_url: {s}", "<{s}>"))
    out += _contexts(g, "discord-webhook", "DISCORD_WEBHOOK", lambda: (
        f"https://discord.com/api/webhooks/{g.s(DIGITS, 18)}/{g.s(B64URL, 68)}"), (
        "{s}", "{name}={s}", "notify {s} on deploy", "hook: {s}", '"url": "{s}"',
        "- W @bot: webhook is {s}", "({s})", "send to {s}."))
    out += _contexts(g, "google-api-key", "VITE_FIREBASE_API_KEY",
                     lambda: "AIza" + g.s(B64URL, 35))
    out += _contexts(g, "stripe", "STRIPE_SECRET_KEY", lambda: g.pick((
        "sk_live_" + g.s(ALNUM, 24), "rk_live_" + g.s(ALNUM, 99), "sk_test_" + g.s(ALNUM, 99),
        "whsec_" + g.s(ALNUM, 32))))
    out += _contexts(g, "twilio", "TWILIO_AUTH_TOKEN", lambda: g.s(HEX, 32), (
        "{name}={s}", "twilio_auth_token: {s}", '"authToken": "{s}"', "auth_token = '{s}'",
        "{name}=\"{s}\"", "  auth_token: {s}", "--auth-token {s}", "TWILIO_API_SECRET={s}"))
    out += _contexts(g, "twilio", "TWILIO_API_KEY", lambda: "SK" + g.s(HEX, 32))
    out += _contexts(g, "sendgrid", "SENDGRID_API_KEY",
                     lambda: f"SG.{g.s(B64URL, 22)}.{g.s(B64URL, 43)}")
    out += _contexts(g, "npm", "NPM_TOKEN", lambda: "npm_" + g.s(ALNUM, 36), (
        "//registry.npmjs.org/:_authToken={s}", "{name}={s}", "{s}",
        "- B @ci: published with {s}", "npm config set //npm.pkg.github.com/:_authToken {s}",
        '{{"token": "{s}"}}', "use {s} for the release", "  {name}: {s}"))
    out += _contexts(g, "pypi", "TWINE_PASSWORD",
                     lambda: "pypi-AgEIcHlwaS5vcmc" + g.s(B64URL, g.n(60, 150)))
    out += _contexts(g, "huggingface", "HF_TOKEN",
                     lambda: "hf_" + g.s(UPPER + LOWER, 34))
    out += _contexts(g, "digitalocean", "DIGITALOCEAN_TOKEN",
                     lambda: "dop_v1_" + g.s(HEX, 64))
    out += _contexts(g, "shopify", "SHOPIFY_TOKEN",
                     lambda: g.pick(("shpat_", "shpss_", "shpca_")) + g.s(HEX, 32))
    out += _contexts(g, "telegram", "TELEGRAM_BOT_TOKEN",
                     lambda: f"{g.n(10**8, 10**10 - 1)}:AA{g.s(B64URL, 33)}")
    out += _contexts(g, "age", "SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + g.s(BECH32, 58))
    out += _contexts(g, "jwt", "ID_TOKEN", lambda: _jwt(g), (
        "{s}", "Authorization: Bearer {s}", "id_token={s}", '{{"access_token": "{s}"}}',
        "- W @auth: sample session {s} (expires tomorrow)", "cookie: session={s}; Path=/",
        "the JWT was {s}.", "jwt: {s}"))
    out += _contexts(g, "bearer", "", lambda: g.s(ALNUM + "-._~", g.n(24, 64)), (
        "Authorization: Bearer {s}", "curl -H 'Authorization: Bearer {s}' https://x.io/api",
        "headers = {{'Authorization': 'Bearer {s}'}}", "-H \"authorization: bearer {s}\"",
        "Bearer {s}", "send `Bearer {s}` with each call", "auth header: Bearer {s}",
        "BEARER {s}"))

    def basic() -> str:
        user = g.pick(("admin", "deploy", "ana", "svc-backup"))
        return base64.b64encode(f"{user}:{g.password()}".encode()).decode()

    out += _contexts(g, "basic-auth", "", basic, (
        "Authorization: Basic {s}", "curl -H 'Authorization: Basic {s}' https://x.io",
        "basic {s}", "auth: Basic {s}", "Proxy-Authorization: Basic {s}",
        "headers['Authorization'] = 'Basic {s}'", "Basic {s}", "- W @proxy: header Basic {s}"))
    out += _contexts(g, "password", "DB_PASSWORD", lambda: g.password(), (
        "password={s}", "{name}=\"{s}\"", "  password: {s}", '{{"password": "{s}"}}',
        "mysql -u root --password {s} prod", "https://x.io/login?user=bob&password={s}",
        "PGPASSWORD={s} psql -h db", "smtp_pass = '{s}'"))
    out += _contexts(g, "password", "MYSQL_ROOT_PASSWORD", lambda: g.password(8, 14), (
        "{name}={s}", "db.password = \"{s}\"", "passwd: {s}", "admin_pwd={s}",
        "- W @wifi: guest password: {s}", "dbPassword: '{s}'", "--password={s}",
        "PASSPHRASE='{s}'"))
    out += _contexts(g, "secret-assignment", "SECRET_KEY", lambda: g.s(
        g.pick((ALNUM, HEX, B64URL)), g.n(24, 48)), (
        'api_key = "{s}"', "{name}={s}", "client_secret: {s}", "x-api-key: {s}",
        "refresh_token={s}", "session_secret = '{s}'", '"apiKey": "{s}"', "--token {s}"))
    out += _contexts(g, "secret-assignment", "APP_SECRET", lambda: g.s(
        g.pick((ALNUM, HEX)), g.n(24, 40)), (
        "{name}={s}", "signing_key: {s}", '"client_secret":"{s}"', "encryption_key = {s}",
        "WEBHOOK_SECRET='{s}'", "auth_token: {s}", "private_key: {s}", "api-key={s}"))

    def dsn() -> tuple[str, str]:
        password = g.s(ALNUM, 1) + g.s(ALNUM + "!*-_~", g.n(10, 22)) + g.s(DIGITS, 1)
        scheme, user, host = g.pick((
            ("postgres", "app", "db.internal:5432/app"),
            ("postgresql", "ana", "10.0.0.5/warehouse?sslmode=require"),
            ("mysql", "root", "127.0.0.1:3306/shop"),
            ("mongodb+srv", "svc", "cluster0.ab1cd.mongodb.net/test?retryWrites=true"),
            ("redis", "", "cache.internal:6379/0"),
            ("amqp", "rabbit", "mq.internal:5672/%2f"),
            ("https", "deploy", "git.example.com/org/repo.git"),
            ("mssql", "sa", "sql.internal:1433/db")))
        return f"{scheme}://{user}:{password}@{host}", password

    for context in ("{s}", "DATABASE_URL={s}", "- W @db: connect with {s}", '"dsn": "{s}"',
                    "url: {s}", "psql '{s}'", "the replica is at {s}.", "BROKER_URL={s}",
                    "{s}", "cache = {s}"):
        url, password = dsn()
        out.append(Positive("dsn", context.format(s=url), password))

    labels = ("RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY",
              "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK",
              "RSA PRIVATE KEY")
    for i, label in enumerate(labels):
        escaped = i == 3
        cut = i == 7
        block = _pem(g, label, g.n(4, 25), escaped=escaped, cut=cut)
        text = (f'{{"type": "service_account", "private_key": "{block}\\n"}}' if escaped
                else f"Key for the backup host:\n{block}\n" + ("\nNext paragraph." if cut
                                                               else ""))
        out.append(Positive("private-key", text, block))

    out += _contexts(g, "password-phrase", "", lambda: g.password(8, 16), (
        "The wifi password is {s}.", "- W @home: The wifi password is {s}.", "pwd: {s}",
        "His password is {s}", "the password for the office printer is {s}",
        "password was changed to {s} today", "Her password is now `{s}`.",
        "login ana, password {s}", "The gate passcode is {s}, press # after it."))
    out += [Positive("password-phrase", "His password is hunter2.", "hunter2"),
            Positive("password-phrase", "The wifi password is Qx7!mPz92vL.", "Qx7!mPz92vL"),
            Positive("password-phrase", "pwd: Qx7!mPz92vL", "Qx7!mPz92vL")]
    out += _contexts(g, "pin", "", lambda: g.s(DIGITS, g.n(4, 8)), (
        "PIN: {s}", "My bank card PIN is {s}.", "- W @home: the door PIN code is {s}",
        "PIN {s}", "pin code {s}", "The PIN for the garage is {s}", "new PIN: {s}",
        "SIM PIN is {s}, the PUK is in the drawer"))
    out += _contexts(g, "high-entropy", "", lambda: g.s(g.pick((B64, B64URL, ALNUM)),
                                                          g.n(32, 88)), (
        "the signing secret is {s}", "hmac {s}", "recovery code: {s}",
        "- W @vault: unseal share {s}", "{s}", "kept {s} in the notes", "seed={s}",
        "(old key {s})"))
    return out


# -- benign look-alikes ----------------------------------------------------------------------

ENV_NAMES = (
    "VITE_FIREBASE_API_KEY", "GITHUB_TOKEN", "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID", "STRIPE_SECRET_KEY", "DATABASE_PASSWORD", "NPM_TOKEN",
    "SLACK_BOT_TOKEN", "ANTHROPIC_API_KEY", "HF_TOKEN", "SENDGRID_API_KEY",
    "NEXT_PUBLIC_SUPABASE_ANON_KEY", "TWILIO_AUTH_TOKEN", "JWT_SECRET", "SECRET_KEY_BASE",
    "PGPASSWORD", "MYSQL_ROOT_PASSWORD", "REDIS_PASSWORD", "GOOGLE_APPLICATION_CREDENTIALS",
)
ENV_CONTEXTS = (
    "set {n} in .env.local", "`{n}` must be set before the build",
    "export {n}", "{n} is read from the environment", "os.environ['{n}']",
    "process.env.{n}", "Missing {n}; see the README", "${n}",
    "{n}=${{{n}}}", "echo ${n} | wc -c",
)

PROSE = (
    "no API key in the build", "Rotate the password every 90 days.",
    "The token expired yesterday and the job failed.", "Password: required",
    "the bearer of bad news", "We use bearer tokens for the public API.",
    "Basic authentication is disabled on the proxy.", "scikit-learn, not sk-learn",
    "AKIA prefixes mark long-term AWS keys, ASIA temporary ones.",
    "GitHub tokens start with ghp_ and are 40 characters long.",
    "Never commit secrets: use the vault.", "The secret to good bread is time.",
    "Token limits: 200k input, 8k output.", "She passed the exam; password reset pending.",
    "API keys live in 1Password, not in memory.", "the private key stays on the HSM",
    "Slack tokens look like xoxb-..., never paste them here.",
    "A JWT has three parts separated by dots.", "Use `Authorization: Bearer <token>`.",
    "The DSN format is postgres://user:password@host:port/db.",
    "ssh keys were rotated on 2025-11-01", "Our webhook endpoint is /hooks/slack.",
    "Secret Santa is on Friday!", "The Password field must not be empty.",
    "token: expired", "Password: see the vault", "api_key: (ask Omar)", "secret: none",
    "password is stored as a bcrypt hash", "Keys: Esc to close, Enter to save.",
    "max_tokens: 4096", "token_type: bearer", "password_min_length = 12",
    "The auth token is refreshed every hour.", "Peter's password manager is Bitwarden.",
    "Ich habe das Passwort vergessen.", "パスワードを忘れました。", "Пароль: см. хранилище",
    "كلمة المرور مطلوبة", "סיסמה: ראה בכספת", "पासवर्ड बदलें",
    "Credentials are provisioned by Terraform.", "the sk- prefix means secret key",
    "We removed the hardcoded password in v2.3.1.", "passwordless login via magic links",
    "Access token TTL: 3600 s", "Use npm_config_cache to move the cache.",
    "Stripe keys start sk_live_ or sk_test_.", "Set the Authorization header to Basic auth.",
    "- W @Peter: Lives in Vienna. ^vienna01", "- O(c=0.95) @Peter: Prefers short replies.",
    "- B @warelay: Fixed the Baileys WS crash by wrapping the handler in try/catch.",
    "Meeting at 10:30, room 4B; bring the keycard.", "Call +43 660 1234567 after 18:00.",
    "IPv6 2001:db8::8a2e:370:7334 and 192.168.1.10", "MAC 00:1A:2B:3C:4D:5E",
    "2025-11-27T10:00:00+01:00", "ISBN 978-3-16-148410-0", "IBAN format: AT61 1904 3002 3457 3201",
)

PLACEHOLDERS = (
    "password=<your password>", 'api_key = "xxx"', "token: changeme",
    "PASSWORD=${DB_PASSWORD}", 'token: "{{ secrets.NPM_TOKEN }}"',
    "postgres://user:password@localhost:5432/app", "Authorization: Bearer <token>",
    "Authorization: Bearer $TOKEN", "OPENAI_API_KEY=sk-...", "sk-xxxxxxxxxxxxxxxxxxxxxxxx",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "AKIAXXXXXXXXXXXXXXXX", "AKIAIOSFODNN7EXAMPLE",
    'password: "********"', 'secret = "REPLACE_ME"', "api_key: YOUR_API_KEY",
    "redis://:password@localhost:6379", "mysql://root:pass@127.0.0.1/db",
    'token = "TODO"', "password: null", "password = None", "secret: ~",
    "password = getpass.getpass()", "token = os.environ['GITHUB_TOKEN']",
    "api_key=settings.API_KEY", "secret = request.args.get('secret')",
    "password: !vault |", "DB_PASSWORD=", "password=", 'password: ""',
    "client_secret: ${{ secrets.CLIENT_SECRET }}", "token: <redacted>",
    "password = user_password", "password: hunter", "apiKey: process.env.API_KEY",
    "Bearer YOUR_ACCESS_TOKEN", "--password $PASS", "--token=${TOKEN}",
    "https://user:<password>@example.com", "amqp://guest:guest@localhost:5672/",
    '"password": "Password"', '"forgotPassword": "Forgot?"', '"token_expired": "Expired"',
    '"nextPageToken": "CAoQAA"', '"tokens_used": 1234', "SECRET_KEY = 'dev'",
    "password: correct horse battery staple", "x-api-key: <key>", "password=*****",
    "xoxb-your-token", "AIzaSy...", "pk_live_" + "51HxYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "password: [REDACTED:password]", "token=[REDACTED:token]",
)

# Sentences about passwords and PINs that hold none: the phrase detector must pass them.
PASSWORD_TALK = (
    "I reset my password yesterday.", "The password policy requires 12 characters.",
    "Peter uses a password manager for everything.", "The passcode on the door is broken.",
    "My password is too weak, says the bank.", "Her password is at least 16 characters long.",
    "The wifi password is on the fridge.", "The PIN is 4 digits.",
    "The password is the same as last year.", "Password is required for admin access.",
    "The password was changed on 2025-03-01.", "password is 12 characters minimum",
    "The passcode for the gym is on the membership card.", "pwd printed /home/ana/projects.",
    "Run pwd to see the current directory.", "The door PIN changed last week.",
    "GPIO pin 13 drives the LED.", "The password is SHA-256 hashed with a salt.",
    "Passwords are stored with bcrypt (cost 12).",
    "The password reset link expires after 24 hours.",
    "- W @bank: The card PIN is in the sealed letter.", "Password is 2FA-protected.",
    "Her passphrase is long but easy to remember.",
    "Forgot the PIN code again; the bank will mail a new one.",
    "The password expired in March; IT reset it.",
    "The passcode is the same as the alarm code.", "password is in 1Password",
    "pin 7 on the Arduino is PWM", "The password has 3 digits and 2 symbols.",
    "The password must be changed every 90 days.", "Password length: 12 to 64 characters",
    "My PIN is 4 digits long and I keep forgetting it.", "Password hint: first pet",
    "The password is 16 chars.", "Passcode set to 6 digits on the new phone.",
    "The password is Bitwarden-managed.", "Set the password to something long.",
    "password protected PDF from HR", "PIN pad at door 2 is broken",
    "- B @Ana: Changed her password after the phishing mail.",
    "- O @Peter: Thinks password rotation is pointless.", "The password is wrong, try again.",
    "The password was shared over Signal, not e-mail.", "Is the password still valid?",
    "Password: ask Omar", "PIN: not set yet", "Unlock with your passcode or Face ID.",
    "The password is case-sensitive.", "Ana passed the driving test on the 2nd try.",
    "Spinning class at 18:30, pinned in the calendar.",
)

VERSIONS = (
    "1.2.3", "v2.0.0-rc.1+build.5", "python3.11.7", "node v20.11.1", "memfold 0.1.0",
    "go1.22.1", "SQLite 3.45.1", "openssl 3.0.13-1~deb12u1", "version: 1.2.3",
    "token_version: 2", "api_version = '2024-06-01'", "Chrome/120.0.6099.224",
    "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "numpy==1.26.4", "torch>=2.2,<3", "ruff 0.6.9", "kernel 6.8.0-45-generic",
    "postgres:16.2-alpine", "ubuntu:22.04", "v0.0.0-20240312152122-5f08fbb34913",
)

IDENTIFIERS = (
    "getUserById2FactorAuthenticationHandler", "test_find_secrets_never_raises_on_text",
    "AbstractSingletonProxyFactoryBeanV2", "PasswordResetTokenGeneratorService",
    "handleOAuth2CallbackForGitHubAppInstall", "com.example.auth.TokenRefreshScheduler",
    "MAX_RETRY_COUNT_FOR_WEBHOOK_DELIVERY_V3", "useAuthTokenRefreshInterceptor",
    "src/components/Auth/PasswordStrengthMeter.tsx", "tests/scan/test_secrets.py::test_recall",
    "kubectl get secret db-credentials -o yaml", "SecretsManagerClient.getSecretValue",
    "aws secretsmanager get-secret-value --secret-id prod/db", "vault kv get secret/app",
    "gh auth token", "npm token list", "gpg --export-secret-keys --armor",
    "ssh-keygen -t ed25519 -C ana@example.com", "openssl rand -base64 32",
    "python -c 'import secrets; print(secrets.token_urlsafe())'",
)


def benign(seed: int = SEED) -> list[str]:
    g = _Gen(seed + 1)
    out: list[str] = []
    out += PROSE
    out += PLACEHOLDERS
    out += PASSWORD_TALK
    out += VERSIONS
    out += IDENTIFIERS
    for i, name in enumerate(ENV_NAMES):
        out.append(ENV_CONTEXTS[i % len(ENV_CONTEXTS)].format(n=name))
        out.append(ENV_CONTEXTS[(i + 3) % len(ENV_CONTEXTS)].format(n=name))
    for _ in range(40):  # git SHAs, full and short
        sha = g.s(HEX, 40)
        out.append(g.pick((f"commit {sha}", f"git checkout {sha}", f"fixed in {sha[:7]}",
                           f"{sha}", f"Merge: {sha[:12]} {g.s(HEX, 12)}",
                           f"- B @repo: reverted {sha[:10]} after the bisect")))
    for _ in range(30):
        u = uuid.UUID(int=g.r.getrandbits(128), version=4)
        out.append(g.pick((str(u), str(u).upper(), f"request id {u}", f'"id": "{u}"',
                           f"urn:uuid:{u}", f"session_id={u}")))
    for _ in range(30):  # digests of lockfiles and images
        digest = hashlib.sha256(g.s(ALNUM, 16).encode()).hexdigest()
        raw = hashlib.sha512(g.s(ALNUM, 16).encode()).digest()
        b64_512 = base64.b64encode(raw).decode()
        b64_256 = base64.b64encode(hashlib.sha256(raw).digest()).decode()
        out.append(g.pick((
            f"sha256:{digest}", f"ghcr.io/org/app@sha256:{digest}",
            f'"integrity": "sha512-{b64_512}"', f"integrity sha512-{b64_512}",
            f"golang.org/x/text v0.14.0 h1:{b64_256}", f'checksum = "{digest}"',
            f"{digest}  memfold-0.1.0.tar.gz", f"--hash=sha256:{digest}",
            f"resolution: {{integrity: sha512-{b64_512}}}", f"sha384-{b64_512[:64]}",
            f"SHA256 ({g.pick(('a.tgz', 'b.zip'))}) = {digest}")))
    for _ in range(20):  # data URIs
        payload = base64.b64encode(bytes(g.r.getrandbits(8) for _ in range(g.n(60, 900))))
        mime = g.pick(("image/png", "image/jpeg", "image/gif", "font/woff2"))
        out.append(g.pick((f"![logo](data:{mime};base64,{payload.decode()})",
                           f'<img src="data:{mime};base64,{payload.decode()}">',
                           f"url(data:{mime};base64,{payload.decode()})")))
    users = ("ana", "peter", "JaneDoe", "omar2", "k.tanaka")
    for _ in range(40):  # file paths
        user = g.pick(users)
        out.append(g.pick((
            f"/home/{user}/projects/memfold/src/memfold/secrets.py",
            f"C:\\Users\\{user}\\AppData\\Local\\Programs\\Python\\Python311\\python.exe",
            f"/Users/{user}/Library/Application Support/Code/User/workspaceStorage/"
            f"{g.s(HEX, 32)}/state.vscdb",
            f"~/.config/memfold/{g.pick(('config.toml', 'hooks/post-retain'))}",
            f"node_modules/@{g.pick(('babel', 'types', 'aws-sdk'))}/client-s3/dist-cjs/index.js",
            f"/var/lib/docker/overlay2/{g.s(HEX, 64)}/merged/etc/hosts",
            f"/nix/store/{g.s('0123456789abcdfghijklmnpqrsvwxyz', 32)}-python3-3.11.7",
            f"memory/2025-{g.n(1, 12):02d}-{g.n(1, 28):02d}.md",
            f"bank/entities/{g.pick(('Peter', 'Anna', 'Hà-Nội'))}.md",
            f"/usr/lib/python3/dist-packages/{g.pick(('yaml', 'click'))}/__init__.py",
            f"src/main/java/com/example/auth/TokenService{g.n(1, 9)}Impl.java")))
    for _ in range(50):  # URLs without credentials
        out.append(g.pick((
            f"https://github.com/{g.pick(users)}/memfold/commit/{g.s(HEX, 40)}",
            f"https://docs.google.com/document/d/{g.s(B64URL, 44)}/edit",
            f"https://drive.google.com/file/d/{g.s(B64URL, 33)}/view?usp=sharing",
            f"https://www.youtube.com/watch?v={g.s(B64URL, 11)}",
            "https://example.com/search?q=token+rotation&page=2",
            f"https://s3.eu-west-1.amazonaws.com/bucket/{g.s(HEX, 8)}/report.pdf",
            "https://ana@git.example.com/org/repo.git",
            "ssh://git@github.com/org/repo.git", "git@github.com:org/repo.git",
            f"https://example.atlassian.net/browse/OPS-{g.n(1, 9999)}",
            f"https://cdn.example.com/assets/app.{g.s(HEX, 8)}.js",
            f"https://www.figma.com/file/{g.s(ALNUM, 22)}/Design-System?node-id=1%3A2",
            f"https://open.spotify.com/track/{g.s(ALNUM, 22)}",
            f"https://gist.github.com/{g.pick(users)}/{g.s(HEX, 32)}",
            f"https://login.example.com/oauth/authorize?client_id={g.s(HEX, 20)}"
            "&response_type=code",
            f"https://colab.research.google.com/drive/{g.s(B64URL, 33)}",
            f"https://example.com/#/reset?step={g.n(1, 4)}")))
    for _ in range(10):  # SSH public keys and certificates
        out.append(g.pick((
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.s(B64, 43) + " ana@laptop",
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + g.s(B64, 368) + "= deploy@ci",
            "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAI" + g.s(B64, 100) + "=")))
    for label in ("CERTIFICATE", "PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE REQUEST",
                  "PGP PUBLIC KEY BLOCK", "CERTIFICATE", "X509 CRL", "PUBLIC KEY"):
        out.append(f"The CA bundle:\n{_pem(g, label, g.n(5, 20))}\n")
    for _ in range(20):  # memfold ids and bullets
        out.append(g.pick((
            f"see fact {g.s(LOWER + DIGITS, 8)}",
            f"- W @Ops: rotated the DB creds ^{g.s(LOWER + DIGITS, 8)}",
            f"memfold show {g.s(LOWER + DIGITS, 8)} --json",
            f"supersedes=^{g.s(LOWER + DIGITS, 8)}")))
    for _ in range(20):  # numbers and timestamps
        out.append(g.pick((
            f"{g.n(10**15, 10**16 - 1)}", f"order #{g.n(10**6, 10**7)}",
            f"2025-{g.n(1, 12):02d}-{g.n(1, 28):02d}T{g.n(0, 23):02d}:00:00Z",
            f"epoch {g.n(1_600_000_000, 1_800_000_000)}", f"tel: +{g.n(10**10, 10**11)}",
            f"lat {g.r.uniform(-90, 90):.6f}, lon {g.r.uniform(-180, 180):.6f}")))
    for _ in range(40):  # long identifiers, CSS, code
        out.append(g.pick((
            f"const {g.pick(('userAuthTokenRefresh', 'passwordResetFlow'))}Handler{g.n(1, 9)}"
            " = () => {}",
            f".css-{g.s(LOWER + DIGITS, 6)} {{ color: #{g.s(HEX, 6)}; }}",
            f"class {g.pick(('Oauth2', 'Saml2', 'Jwt'))}AuthenticationProvider{g.n(2, 9)}",
            f"SELECT * FROM users WHERE password_hash IS NULL AND id = {g.n(1, 999)}",
            f"[^{g.n(1, 99)}]: https://example.com/paper.pdf",
            f"job_{g.s(LOWER, 12)}_{g.n(1000, 9999)}_retry_{g.n(1, 5)}",
            f"ERROR 2025-11-27 token refresh failed for user_id={g.n(1, 99999)}",
            f"__{g.pick(('webpack', 'vite'))}_require_module_{g.s(LOWER, 8)}__")))
    return out
