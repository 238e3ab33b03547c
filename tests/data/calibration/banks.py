"""Hand-written facts and their variants for the matcher calibration set.

Every string here was written for this project (none is copied from another data set). The
facts follow the shapes the synthetic generator plants (soba_bench/corpora/synthetic/banks.py):
its goals, constraints, decisions, next steps, blocker messages, verification commands and
paths; the variants are what a summarizer might write instead: a correct paraphrase, a
negation, the same sentence about another subject, a stale or swapped state.

Three disjoint banks: ``DEV`` (the matcher's rules were written while looking at its cases),
``HELDOUT`` (written with the rules frozen, never used to change a rule) and ``FRESH`` (written
before the hybrid matcher was built, measured once; see README.md).
"""

from __future__ import annotations

# A prose item: kind, fact, two paraphrases, one negation, one wrong-subject variant, and an
# optional role swap (the fact's own words, roles exchanged: a contradiction).
DEV_PROSE = (
    dict(
        kind="goal",
        fact="Add retries with exponential backoff to the billing webhooks",
        para=(
            "Make the billing webhooks retry failed deliveries, backing off exponentially "
            "between attempts",
            "Billing webhook calls should be retried with an exponentially growing delay",
        ),
        neg="Do not add retries with exponential backoff to the billing webhooks",
        wrong="Add retries with exponential backoff to the search indexer",
    ),
    dict(
        kind="goal",
        fact="Migrate the job queue from callbacks to async/await",
        para=(
            "Convert the job queue's callback-style code to async/await",
            "Rewrite the job queue so that it uses async/await instead of callbacks",
        ),
        neg="Keep the job queue on callbacks; it will not be migrated to async/await",
        wrong="Migrate the config loader from callbacks to async/await",
        swap="Migrate the job queue from async/await to callbacks",
    ),
    dict(
        kind="goal",
        fact="Fix the race in the session store when two requests write the same key at once",
        para=(
            "Stop concurrent writes to the same key from racing in the session store",
            "Make the session store safe when two requests write one key simultaneously",
        ),
        neg="The race in the session store when two requests write the same key is not "
        "going to be fixed in this change",
        wrong="Fix the race in the cache layer when two requests write the same key at once",
    ),
    dict(
        kind="constraint",
        fact="Never touch anything under src/legacy/",
        para=(
            "Leave everything in src/legacy/ untouched",
            "Do not edit or create files under src/legacy/",
        ),
        neg="It is fine to touch anything under src/legacy/",
        wrong="Never touch anything under vendor/",
    ),
    dict(
        kind="constraint",
        fact="Do not add new runtime dependencies to package.json",
        para=(
            "No new runtime packages may be added to package.json",
            "package.json must not gain any new runtime dependency",
        ),
        neg="Adding new runtime dependencies to package.json is allowed",
        wrong="Do not add new dev dependencies to tsconfig.json",
    ),
    dict(
        kind="constraint",
        fact="Keep the public exports of src/index.ts unchanged",
        para=(
            "src/index.ts must keep exporting exactly what it exports today",
            "Do not change the public exports of src/index.ts",
        ),
        neg="Change the public exports of src/index.ts as needed",
        wrong="Keep the public exports of src/cli.ts unchanged",
    ),
    dict(
        kind="constraint",
        fact="Use pnpm only for scripts; never call npx or yarn",
        para=(
            "Run scripts through pnpm; npx and yarn are not allowed",
            "Only pnpm may run scripts, never npx or yarn",
        ),
        neg="Use npx or yarn for scripts, not pnpm",
        wrong="Use bun only for scripts; never call npx or yarn",
    ),
    dict(
        kind="decision",
        fact="store session rows in SQLite behind a SessionRepository class",
        para=(
            "Session rows go into SQLite, accessed through a SessionRepository class",
            "Persist session rows in a SQLite database wrapped by a SessionRepository class",
        ),
        neg="session rows will not be stored in SQLite behind a SessionRepository class",
        wrong="store tenant rows in SQLite behind a TenantRepository class",
    ),
    dict(
        kind="decision",
        fact="cap the session cache at 500 entries with LRU eviction",
        para=(
            "limit the session cache to 500 entries and evict the least recently used one",
            "the session cache holds at most 500 entries, evicted LRU-first",
        ),
        neg="do not cap the session cache at 500 entries with LRU eviction",
        wrong="cap the metric cache at 500 entries with LRU eviction",
    ),
    dict(
        kind="decision",
        fact="key the tenant lock by tenant id instead of by request id",
        para=(
            "the tenant lock is keyed on the tenant id rather than the request id",
            "use the tenant id, not the request id, as the key of the tenant lock",
        ),
        neg="do not key the tenant lock by tenant id; it stays keyed by request id",
        wrong="key the lease lock by tenant id instead of by request id",
        swap="key the tenant lock by request id instead of by tenant id",
    ),
    dict(
        kind="decision",
        fact="retry failed billing calls at most 3 times with full jitter",
        para=(
            "billing calls that fail are retried up to 3 times, with full jitter between tries",
            "give failed billing calls no more than 3 retries using full jitter",
        ),
        neg="never retry failed billing calls",
        wrong="retry failed search calls at most 3 times with full jitter",
    ),
    dict(
        kind="decision",
        fact="use a monotonic clock for lease timeouts",
        para=(
            "lease timeouts are measured with a monotonic clock",
            "time lease timeouts with a monotonic clock rather than the wall clock",
        ),
        neg="do not use a monotonic clock for lease timeouts",
        wrong="use a monotonic clock for request timeouts",
    ),
    dict(
        kind="next_step",
        fact="add a regression test for concurrent writes in tests/store.test.ts",
        para=(
            "write a regression test covering concurrent writes in tests/store.test.ts",
            "tests/store.test.ts needs a regression test for concurrent writes",
        ),
        neg="no regression test for concurrent writes in tests/store.test.ts is needed",
        wrong="add a regression test for concurrent writes in tests/cache.test.ts",
    ),
    dict(
        kind="next_step",
        fact="document the job queue changes in docs/architecture.md",
        para=(
            "describe the job queue changes in docs/architecture.md",
            "update docs/architecture.md with what changed in the job queue",
        ),
        neg="do not document the job queue changes in docs/architecture.md",
        wrong="document the HTTP router changes in docs/architecture.md",
    ),
    dict(
        kind="next_step",
        fact="remove the deprecated cacheLegacy helper from src/cache/lru.ts",
        para=(
            "delete the deprecated cacheLegacy helper in src/cache/lru.ts",
            "drop cacheLegacy (deprecated) from src/cache/lru.ts",
        ),
        neg="keep the deprecated cacheLegacy helper in src/cache/lru.ts",
        wrong="remove the deprecated queueLegacy helper from src/cache/lru.ts",
    ),
)

# A blocker: its message and a near miss (another error that looks alike).
DEV_BLOCKERS = (
    (
        "Error: oldText not found in src/config/env.ts (edit 41)",
        "Error: oldText not found in src/config/loader.ts (edit 41)",
    ),
    (
        "error TS2307: Cannot find module './adapter' (src/jobs/scheduler.ts:184:35)",
        "error TS2307: Cannot find module './adapters' (src/jobs/worker.ts:12:3)",
    ),
    (
        "Error: ENOENT: no such file or directory, open 'src/billing/writer-writer.ts'",
        "Error: ENOENT: no such file or directory, open 'src/billing/ledger-writer.ts'",
    ),
    (
        "FAIL tests/cache.test.ts > evicts the oldest entry: expected 3 to be 2",
        "FAIL tests/cache.test.ts > keeps the newest entry: expected undefined to be 1",
    ),
    ("npm ERR! missing script: typecheck", "npm ERR! missing script: lint"),
    (
        "TypeError: Cannot read properties of undefined (reading 'tenantId') at "
        "src/auth/claims.ts:52",
        "TypeError: Cannot read properties of null (reading 'headers') at src/http/router.ts:9",
    ),
)

# Dev items added in the second round, one per error class the rules showed on the held-out
# splits (comparatives under "no", "and nothing else", "may be longer than", role swaps that
# reorder whole phrases, "resolved by" as a mechanism, a noun on both sides of "rather than"),
# written for this bank in other domains than those splits.
DEV2_PROSE = (
    dict(
        kind="constraint",
        fact="Keep every SQL migration under 200 lines",
        para=(
            "No SQL migration may be longer than 200 lines",
            "A SQL migration must not exceed 200 lines",
        ),
        neg="SQL migrations may be longer than 200 lines",
        wrong="Keep every shell script under 200 lines",
    ),
    dict(
        kind="constraint",
        fact="Talk to the payments API only through src/payments/client.ts",
        para=(
            "Use src/payments/client.ts for payments API calls and nothing else",
            "Every payments API request goes through src/payments/client.ts and no other module",
        ),
        neg="Code may call the payments API without going through src/payments/client.ts",
        wrong="Talk to the shipping API only through src/shipping/client.ts",
    ),
    dict(
        kind="constraint",
        fact="Responses of the status endpoint must stay smaller than 4 KB",
        para=(
            "No response of the status endpoint may be larger than 4 KB",
            "The status endpoint never answers with more than 4 KB",
        ),
        neg="Responses of the status endpoint may be larger than 4 KB",
        wrong="Responses of the metrics endpoint must stay smaller than 4 KB",
    ),
    dict(
        kind="decision",
        fact="cache rendered avatars in Redis instead of on the CDN edge",
        para=(
            "rendered avatars are cached in Redis rather than at the CDN edge",
            "avatars, once rendered, are kept in Redis, not on the CDN edge",
        ),
        neg="rendered avatars will not be cached in Redis",
        wrong="cache rendered thumbnails in Redis instead of on the CDN edge",
        swap="cache rendered avatars on the CDN edge instead of in Redis",
    ),
    dict(
        kind="decision",
        fact="resolve feature toggles with one lookup per request instead of one per check",
        para=(
            "feature toggles are resolved by a single lookup per request rather than a lookup "
            "per check",
            "one toggle lookup serves the whole request instead of per-check lookups",
        ),
        neg="feature toggles will not be resolved with one lookup per request",
        wrong="resolve user roles with one lookup per request instead of one per check",
        swap="resolve feature toggles with one lookup per check instead of one per request",
    ),
    dict(
        kind="goal",
        fact="Move the thumbnail service from the monolith to a separate container",
        para=(
            "Run the thumbnail service in its own container, out of the monolith",
            "Split the thumbnail service off the monolith into a separate container",
        ),
        neg="The thumbnail service stays in the monolith and is not moved to a container",
        wrong="Move the billing service from the monolith to a separate container",
        swap="Move the thumbnail service from a separate container to the monolith",
    ),
    dict(
        kind="goal",
        fact="Replace the polling loop of the mail sender with a message queue consumer",
        para=(
            "The mail sender should consume from a message queue instead of polling in a loop",
            "Swap the mail sender's polling loop for a consumer of a message queue",
        ),
        neg="Keep the polling loop of the mail sender; no message queue consumer",
        wrong="Replace the polling loop of the report builder with a message queue consumer",
    ),
    dict(
        kind="next_step",
        fact="wire the retry budget of the uploader into the settings file",
        para=(
            "make the uploader read its retry budget from the settings file",
            "let the settings file set the uploader's retry budget",
        ),
        neg="the uploader's retry budget will not be read from the settings file",
        wrong="wire the retry budget of the downloader into the settings file",
    ),
)
DEV2_BLOCKERS = (
    (
        "error TS2551: Property 'tenantID' does not exist on type 'Claims' "
        "(src/auth/claims.ts:31:9)",
        "error TS2551: Property 'tenantId' does not exist on type 'Claims' "
        "(src/auth/claims.ts:31:9)",
    ),
    (
        "Error: Cannot find module 'Lodash' (src/util/merge.ts)",
        "Error: Cannot find module 'lodash' (src/util/merge.ts)",
    ),
)

# Dev items added in the third round, one or more per error class the default showed on the
# dev, held-out, fresh and fresh2 splits (a negation said by a verb of stopping or avoiding,
# "off" / "on" as a state, "talk to" for calling a service, an acronym's plural, a superseded
# decision negated by its successor, a successor that changes one role and reorders the rest,
# a change reported as "moved off X into Y"), written for this bank in other domains.
DEV3_PROSE = (
    dict(
        kind="next_step",
        fact="compress the nightly report archives with zstd",
        para=(
            "use zstd to compress the archives of the nightly reports",
            "the nightly report archives get compressed with zstd",
        ),
        neg="stop compressing the nightly report archives with zstd",
        wrong="compress the nightly image archives with zstd",
    ),
    dict(
        kind="constraint",
        fact="Cache tenant lookups for the duration of a request",
        para=(
            "Tenant lookups are cached while a request lasts",
            "Hold tenant lookups in a cache for as long as the request runs",
        ),
        neg="Avoid caching tenant lookups for the duration of a request",
        wrong="Cache locale lookups for the duration of a request",
    ),
    dict(
        kind="constraint",
        fact="Debug logging stays off in release builds",
        para=(
            "Release builds ship with debug logging disabled",
            "In a release build debug logging is turned off",
        ),
        neg="Debug logging may be turned on in release builds",
        wrong="Debug logging stays off in nightly builds",
    ),
    dict(
        kind="constraint",
        fact="Communicate with the geocoding service only through src/geo/gateway.ts",
        para=(
            "Use src/geo/gateway.ts for every geocoding service call and nothing else",
            "All calls to the geocoding service go through src/geo/gateway.ts",
        ),
        neg="Modules may talk to the geocoding service without src/geo/gateway.ts",
        wrong="Communicate with the routing service only through src/routing/gateway.ts",
    ),
    dict(
        kind="decision",
        fact="export monthly statements as CSVs instead of spreadsheets",
        para=(
            "monthly statements are exported as a CSV file rather than a spreadsheet",
            "the monthly statement export writes CSV, not spreadsheets",
        ),
        neg="monthly statements will not be exported as CSVs",
        wrong="export yearly summaries as CSVs instead of spreadsheets",
        swap="export monthly statements as spreadsheets instead of CSVs",
    ),
    dict(
        kind="next_step",
        fact="log the URLs of failed image fetches",
        para=(
            "write the URL of each failed image fetch to the log",
            "when an image fetch fails, log its URL",
        ),
        neg="do not log the URLs of failed image fetches",
        wrong="log the URLs of failed font fetches",
    ),
)
DEV3_SUPERSEDED = (
    dict(
        old="bundle the admin UI with webpack",
        new="do not bundle the admin UI with webpack",
        report="Webpack bundling of the admin UI was dropped",
    ),
    dict(
        old="keep the nightly export jobs partitioned by customer region",
        new="partition the nightly export jobs by customer tier",
        report="Partitioning the nightly export jobs by customer region was reverted",
    ),
    dict(
        old="store uploaded fonts on the application server",
        new="store uploaded fonts in the object store",
        report="Uploaded fonts moved off the application server into the object store",
    ),
    dict(
        old="keep session data in signed cookies",
        new="keep session data in the database",
        report="Session data migrated away from signed cookies to the database",
    ),
)

# Round 4: one or more items per error class the default showed on fresh3 (read after its
# blind measurement), written in other domains: a lexical opposite outside the antonym table
# ("keep X running" for "decommission X", "skip X" for "add X"), "stay out of" / "keep away
# from", a verdict ("was ruled out", "decided against"), the fact's action only in an
# "instead of" clause, a restriction lifted ("anyone is free to" for "only X may") or said as
# "no X other than Y", a limit said with a negative ("no later than", "and no longer",
# "stops being valid"), a number written as a word, a fact whose own words hold a cue
# ("after a dropped ...", "a fixed ..."), and changes reported as "not ... anymore",
# "switched X from A to B", "raised from N to M".
DEV4_PROSE = (
    dict(
        kind="goal",
        fact="Decommission the old FTP server for partner uploads",
        para=(
            "Shut down the legacy FTP server that partners upload to",
            "The old partner-upload FTP server should be taken offline for good",
        ),
        neg="Keep the old FTP server for partner uploads running",
        wrong="Decommission the old FTP server for partner downloads",
    ),
    dict(
        kind="next_step",
        fact="add a retry button to the failed payments page",
        para=(
            "put a retry button on the page that lists failed payments",
            "the failed payments page gets a button to retry",
        ),
        neg="skip the retry button on the failed payments page",
        wrong="add a retry button to the failed refunds page",
    ),
    dict(
        kind="goal",
        fact="Copy billing alerts into the on-call Slack channel",
        para=(
            "Billing alerts should also be posted to the on-call Slack channel",
            "Mirror each billing alert into the Slack channel of the on-call team",
        ),
        neg="Billing alerts must stay out of the on-call Slack channel",
        wrong="Copy billing alerts into the marketing Slack channel",
    ),
    dict(
        kind="constraint",
        fact="Do not read secrets from environment variables in integration tests",
        para=(
            "Keep integration tests away from secrets stored in environment variables",
            "Integration tests never take secrets out of environment variables",
        ),
        neg="Integration tests should read their secrets from environment variables",
        wrong="Do not read secrets from environment variables in load tests",
    ),
    dict(
        kind="decision",
        fact="cache search suggestions in Redis",
        para=(
            "search suggestions are kept in a Redis cache",
            "Redis holds a cache of the search suggestions",
        ),
        neg="caching search suggestions in Redis was ruled out",
        wrong="cache search results in Redis",
    ),
    dict(
        kind="decision",
        fact="draw the usage charts with canvas rather than SVG",
        para=(
            "the usage charts are drawn on a canvas, not as SVG",
            "use canvas instead of SVG for drawing the usage charts",
        ),
        neg="we decided against canvas drawing for the usage charts",
        wrong="draw the revenue charts with canvas rather than SVG",
        swap="draw the usage charts with SVG rather than canvas",
    ),
    dict(
        kind="next_step",
        fact="compress the nightly database snapshots with gzip",
        para=(
            "gzip the nightly snapshots of the database",
            "run the database's nightly snapshots through gzip compression",
        ),
        neg="store the nightly database snapshots as they are instead of compressing them "
        "with gzip",
        wrong="compress the nightly database snapshots with bzip2",
    ),
    dict(
        kind="constraint",
        fact="Only the deploy bot may push to the release branch",
        para=(
            "No account other than the deploy bot is allowed to push to the release branch",
            "Pushes to the release branch come from the deploy bot and nobody else",
        ),
        neg="Anyone is free to push to the release branch",
        wrong="Only the deploy bot may push to the main branch",
    ),
    dict(
        kind="constraint",
        fact="Answer support tickets within 24 hours",
        para=(
            "Every support ticket gets a reply no later than 24 hours after it arrives",
            "A support ticket must be answered in under 24 hours",
        ),
        neg="Support tickets may wait longer than 24 hours for an answer",
        wrong="Answer support tickets within 48 hours",
    ),
    dict(
        kind="constraint",
        fact="Password reset links expire after 60 minutes",
        para=(
            "A password reset link is good for 60 minutes and no longer",
            "A password reset link stops being valid once 60 minutes have passed",
        ),
        neg="Password reset links never expire",
        wrong="Password reset links expire after 90 minutes",
    ),
    dict(
        kind="decision",
        fact="resend a failed webhook delivery four times",
        para=(
            "a failed webhook delivery is sent again up to four times",
            "try delivering a failed webhook 4 more times",
        ),
        neg="never resend a failed webhook delivery",
        wrong="resend a failed webhook delivery eight times",
    ),
    dict(
        kind="goal",
        fact="Reconnect the chat socket automatically after a dropped network link",
        para=(
            "When the network link drops, the chat socket should reconnect by itself",
            "Have the chat socket reconnect on its own once a dropped network link returns",
        ),
        neg="A chat socket whose network link dropped stays disconnected until a reload",
        wrong="Reconnect the video socket automatically after a dropped network link",
    ),
    dict(
        kind="decision",
        fact="give vendor calls a fixed timeout of 30 seconds",
        para=(
            "vendor calls time out after a fixed 30 seconds",
            "every call to a vendor gets the same fixed 30-second timeout",
        ),
        neg="let vendor calls run without any timeout",
        wrong="give vendor calls a fixed timeout of 45 seconds",
    ),
)
DEV4_SUPERSEDED = (
    dict(
        old="keep feature flags in a YAML file",
        new="keep feature flags in the config service",
        report="Feature flags are not in the YAML file anymore; the config service has them",
    ),
    dict(
        old="send order e-mails through SendGrid",
        new="send order e-mails through Amazon SES",
        report="Switched order e-mails from SendGrid to Amazon SES",
    ),
    dict(
        old="poll the job queue every ten seconds",
        new="poll the job queue every thirty seconds",
        report="The job queue polling interval was raised from ten to thirty seconds",
    ),
)

# Round 5: one or more items per error class the default showed on fresh4 (read after its
# blind measurement), written in other domains: a lexical opposite outside the antonym table
# (show / hide, include / exclude, accept / reject, lock / unlock), a restriction said as
# "not X until Y" for "X only after Y", "stop supporting X" for "drop support for X", a ban
# said as "is banned from", and a clause that negates only the option the fact turns down.
DEV5_PROSE = (
    dict(
        kind="next_step",
        fact="show the build number in the app footer",
        para=(
            "display the build number in the footer of the app",
            "the app footer gets the build number",
        ),
        neg="hide the build number from the app footer",
        wrong="show the build number in the app header",
    ),
    dict(
        kind="decision",
        fact="include archived projects in the search results",
        para=(
            "archived projects appear among the search results",
            "search results cover archived projects as well",
        ),
        neg="exclude archived projects from the search results",
        wrong="include archived invoices in the search results",
    ),
    dict(
        kind="constraint",
        fact="Reject avatar uploads larger than 5 MB",
        para=(
            "An avatar upload over 5 MB gets refused",
            "Refuse any avatar upload that is larger than 5 MB",
        ),
        neg="Accept avatar uploads larger than 5 MB",
        wrong="Reject banner uploads larger than 5 MB",
    ),
    dict(
        kind="next_step",
        fact="lock the billing settings while a plan change runs",
        para=(
            "the billing settings are locked for as long as a plan change runs",
            "while a plan change is running, lock the billing settings",
        ),
        neg="unlock the billing settings while a plan change runs",
        wrong="lock the profile settings while a plan change runs",
    ),
    dict(
        kind="constraint",
        fact="Send the welcome e-mail only after the address is verified",
        para=(
            "The welcome e-mail must not go out until the address is verified",
            "Wait for the address to be verified before sending the welcome e-mail",
        ),
        neg="Send the welcome e-mail before the address is verified",
        wrong="Send the invoice e-mail only after the address is verified",
    ),
    dict(
        kind="goal",
        fact="Drop support for Internet Explorer 11 in the customer portal",
        para=(
            "Stop supporting Internet Explorer 11 in the customer portal",
            "The customer portal should end its support for Internet Explorer 11",
        ),
        neg="Keep supporting Internet Explorer 11 in the customer portal",
        wrong="Drop support for Safari 12 in the customer portal",
    ),
    dict(
        kind="constraint",
        fact="Do not commit deploy tokens to the repository",
        para=(
            "Deploy tokens are banned from the repository",
            "No deploy token may ever be committed to the repository",
        ),
        neg="Deploy tokens may be committed to the repository",
        wrong="Do not commit test fixtures to the repository",
    ),
    dict(
        kind="decision",
        fact="keep build artifacts in S3 rather than on the CI runners",
        para=(
            "we keep build artifacts in S3; the CI runners are not used for them",
            "build artifacts live in S3, not on the CI runners",
        ),
        neg="keep build artifacts on the CI runners rather than in S3",
        wrong="keep build logs in S3 rather than on the CI runners",
        swap="keep build artifacts on the CI runners rather than in S3",
    ),
)

# A verification command and a near miss.
DEV_COMMANDS = (
    ("npm test tests/store.test.ts", "npm test tests/session.test.ts"),
    ("npm run build", "npm run build:docs"),
    ("pnpm run typecheck", "pnpm run typecheck:watch"),
    ("bun test", "bun test --coverage"),
    ("npm run lint", "npm run lint:fix"),
    ("pnpm test tests/auth.test.ts", "pnpm test tests/auth.e2e.test.ts"),
)

# A superseded decision, what replaced it, and how a capsule might report the change.
DEV_SUPERSEDED = (
    dict(
        old="serialize metric snapshots as JSON lines instead of one big array",
        new="serialize metric snapshots with the existing binary format and a compatibility shim",
        report="Replaced the plan to serialize metric snapshots as JSON lines with a "
        "compatibility shim over the binary format",
    ),
    dict(
        old="keep the old config loader API as a thin adapter over the new one",
        new="remove the old config loader API in this release",
        report="Dropped the adapter for the old config loader API; it is removed instead",
    ),
    dict(
        old="validate tenant payloads with a hand-written schema in src/config/schema.ts",
        new="validate tenant payloads with the shared JSON schema in schemas/tenant.json",
        report="The hand-written tenant schema in src/config/schema.ts was superseded by "
        "schemas/tenant.json",
    ),
    dict(
        old="move cursor parsing out of src/search/query.ts into its own module",
        new="keep cursor parsing in src/search/query.ts and add tests",
        report="Reverted: moving cursor parsing out of src/search/query.ts",
    ),
    dict(
        old="write ledger changes in one transaction per request",
        new="write ledger changes in one transaction per batch",
        report="Ledger writes are no longer one transaction per request; they are batched",
    ),
)

# A file path and a near miss (one character, a directory or an extension away).
DEV_FILES = (
    ("src/auth/claims.ts", "src/auth/claim.ts"),
    ("src/session/store.ts", "src/session/stores.ts"),
    ("src/cache/lru.ts", "src/cache/lru.test.ts"),
    ("src/jobs/queue.ts", "src/jobs/internal/queue.ts"),
    ("src/config/schema.ts", "src/config/schema.js"),
    ("tests/store.test.ts", "tests/stores.test.ts"),
    ("package.json", "package-lock.json"),
    ("src/billing/webhook.ts", "src/billing/webhooks.ts"),
    ("docs/architecture.md", "docs/architecture.mdx"),
    ("src/http/router.ts", "src/http/routes.ts"),
)

# ---------------------------------------------------------------------------------------------
# Held-out bank: written after the matcher was frozen (see README.md); never used to tune it.
HELDOUT_PROSE = (
    dict(
        kind="goal",
        fact="Add structured logging with request ids to the auth middleware",
        para=(
            "Make the auth middleware emit structured logs that carry the request id",
            "Structured, request-id-tagged logging for the auth middleware",
        ),
        neg="Do not add structured logging with request ids to the auth middleware",
        wrong="Add structured logging with request ids to the job queue",
    ),
    dict(
        kind="goal",
        fact="Make the search indexer configurable per tenant",
        para=(
            "Let each tenant configure the search indexer separately",
            "Per-tenant configuration for the search indexer",
        ),
        neg="The search indexer will not be made configurable per tenant",
        wrong="Make the billing webhooks configurable per tenant",
    ),
    dict(
        kind="constraint",
        fact="Only use the built-in node:crypto module for hashing",
        para=(
            "Hashing must go through the built-in node:crypto module and nothing else",
            "For hashes, stick to node:crypto, which is built in",
        ),
        neg="Do not use the built-in node:crypto module for hashing",
        wrong="Only use the built-in node:zlib module for compression",
    ),
    dict(
        kind="constraint",
        fact="Keep every function under 60 lines",
        para=(
            "No function may be longer than 60 lines",
            "Functions have to stay below 60 lines each",
        ),
        neg="Functions may be longer than 60 lines",
        wrong="Keep every file under 600 lines",
    ),
    dict(
        kind="decision",
        fact="validate webhook payloads with a hand-written schema in src/billing/schema.ts",
        para=(
            "webhook payloads are checked by a hand-written schema kept in src/billing/schema.ts",
            "a hand-written schema in src/billing/schema.ts validates the webhook payloads",
        ),
        neg="do not validate webhook payloads with a hand-written schema in src/billing/schema.ts",
        wrong="validate search queries with a hand-written schema in src/search/schema.ts",
    ),
    dict(
        kind="decision",
        fact="serialize cursor snapshots as JSON lines instead of one big array",
        para=(
            "cursor snapshots are written as JSON lines rather than a single large array",
            "write cursor snapshots one JSON object per line, not as one big array",
        ),
        neg="cursor snapshots will not be serialized as JSON lines",
        wrong="serialize metric snapshots as JSON lines instead of one big array",
        swap="serialize cursor snapshots as one big array instead of JSON lines",
    ),
    dict(
        kind="next_step",
        fact="rename queueOptions to QueueSettings across src/jobs/",
        para=(
            "rename every queueOptions in src/jobs/ to QueueSettings",
            "in src/jobs/, queueOptions becomes QueueSettings everywhere",
        ),
        neg="do not rename queueOptions to QueueSettings across src/jobs/",
        wrong="rename cacheOptions to CacheSettings across src/cache/",
    ),
    dict(
        kind="next_step",
        fact="benchmark the HTTP router with 200 concurrent requests",
        para=(
            "run a benchmark of the HTTP router under 200 concurrent requests",
            "load-test the HTTP router at 200 simultaneous requests",
        ),
        neg="skip benchmarking the HTTP router; 200 concurrent requests will not be tested",
        wrong="benchmark the config loader with 200 concurrent requests",
    ),
)
HELDOUT_BLOCKERS = (
    (
        "Error: oldText not found in src/auth/keys.ts (edit 17)",
        "Error: oldText not found in src/auth/keys.ts (edit 71)",
    ),
    (
        "error TS2345: Argument of type 'string' is not assignable to parameter of type "
        "'number' (src/cache/policy.ts:33:18)",
        "error TS2345: Argument of type 'string' is not assignable to parameter of type "
        "'Date' (src/cache/policy.ts:33:18)",
    ),
    (
        "FAIL tests/jobs.test.ts > retries a failed job: expected 1 to be 3",
        "FAIL tests/jobs.test.ts > drops a failed job: expected 1 to be 0",
    ),
    (
        "Error: Cannot find package 'zod' imported from src/config/schema.ts",
        "Error: Cannot find package 'yaml' imported from src/config/loader.ts",
    ),
)
HELDOUT_COMMANDS = (
    ("npm test tests/jobs.test.ts", "npm test tests/job.test.ts"),
    ("bun run typecheck", "bun run typecheck:strict"),
    ("pnpm run build", "pnpm run build-storybook"),
    ("npm test", "npm test -- --watch"),
)
HELDOUT_SUPERSEDED = (
    dict(
        old="cache tenant results in Redis for an hour",
        new="cache tenant results in process memory for five minutes",
        report="Replaced Redis caching of tenant results with a five-minute in-process cache",
    ),
    dict(
        old="keep the lease lock keyed by request id",
        new="key the lease lock by tenant id",
        report="Superseded: keeping the lease lock keyed by request id (now keyed by tenant id)",
    ),
    dict(
        old="put the new retry behaviour of the job queue behind a feature flag",
        new="ship the new retry behaviour of the job queue without a flag",
        report="Dropped the feature flag for the job queue's new retry behaviour",
    ),
    dict(
        old="split the parser into a pure core and an I/O shell",
        new="keep the parser in one module and test it through its public API",
        report="Reverted the split of the parser into a pure core and an I/O shell",
    ),
)
HELDOUT_FILES = (
    ("src/auth/middleware.ts", "src/http/middleware.ts"),
    ("src/jobs/scheduler.ts", "src/jobs/scheduler.spec.ts"),
    ("src/search/analyzer.ts", "src/search/analyzers.ts"),
    ("tests/jobs.test.ts", "tests/jobs.test.tsx"),
    ("src/config/env.ts", "src/config/.env"),
)

# ---------------------------------------------------------------------------------------------
# Fresh held-out bank (issue #17, second round): written before the hybrid matcher was built
# and before any of its results were seen; never used to change a rule or a threshold.
FRESH_PROSE = (
    dict(
        kind="goal",
        fact="Add a token-bucket rate limiter to the public upload endpoint",
        para=(
            "Throttle the public upload endpoint with a token bucket",
            "Limit how fast clients can call the public upload endpoint, using a token bucket",
        ),
        neg="Do not put a rate limiter in front of the public upload endpoint",
        wrong="Add a token-bucket rate limiter to the internal admin endpoint",
    ),
    dict(
        kind="goal",
        fact="Send a confirmation email after a user changes their password",
        para=(
            "Users who change their password should get an email confirming it",
            "Email the user a confirmation once their password has been changed",
        ),
        neg="No confirmation email is sent after a user changes their password",
        wrong="Send a confirmation email after a user changes their phone number",
    ),
    dict(
        kind="constraint",
        fact="Do not add new runtime dependencies to package.json",
        para=(
            "package.json must not gain any new runtime dependency",
            "No additional runtime packages may be added to package.json",
        ),
        neg="New runtime dependencies may be added to package.json",
        wrong="Do not add new runtime dependencies to tsconfig.json",
    ),
    dict(
        kind="constraint",
        fact="All timestamps in the API must be UTC in ISO 8601 format",
        para=(
            "The API returns every timestamp as an ISO 8601 string in UTC",
            "Use UTC ISO 8601 for each timestamp the API exposes",
        ),
        neg="Timestamps in the API do not have to be UTC",
        wrong="All timestamps in the audit log must be UTC in ISO 8601 format",
    ),
    dict(
        kind="decision",
        fact="store uploaded images in S3 instead of on the local disk",
        para=(
            "uploaded images go to S3 rather than the local disk",
            "images that users upload are kept in S3, not written to local disk",
        ),
        neg="uploaded images will not be stored in S3",
        wrong="store generated reports in S3 instead of on the local disk",
        swap="store uploaded images on the local disk instead of in S3",
    ),
    dict(
        kind="decision",
        fact="use a single GraphQL resolver for orders instead of one per field",
        para=(
            "orders are resolved by one GraphQL resolver rather than a resolver per field",
            "one resolver serves the whole orders type in GraphQL instead of per-field resolvers",
        ),
        neg="do not use a single GraphQL resolver for orders",
        wrong="use a single GraphQL resolver for invoices instead of one per field",
        swap="use one GraphQL resolver per field for orders instead of a single one",
    ),
    dict(
        kind="next_step",
        fact="export request latency metrics from the gateway to Prometheus",
        para=(
            "make the gateway publish its request latency metrics for Prometheus",
            "have Prometheus scrape request latency figures from the gateway",
        ),
        neg="stop exporting request latency metrics from the gateway to Prometheus",
        wrong="export request latency metrics from the scheduler to Prometheus",
    ),
    dict(
        kind="next_step",
        fact="translate the checkout page strings into German",
        para=(
            "add German translations for the strings on the checkout page",
            "localize the checkout page text to German",
        ),
        neg="the checkout page strings will not be translated into German",
        wrong="translate the settings page strings into German",
    ),
)
FRESH_BLOCKERS = (
    (
        "Error: connect ECONNREFUSED 127.0.0.1:6379 (src/cache/redis.ts)",
        "Error: connect ECONNREFUSED 127.0.0.1:6380 (src/cache/redis.ts)",
    ),
    (
        "error TS2339: Property 'userId' does not exist on type 'Session' "
        "(src/auth/session.ts:58:12)",
        "error TS2339: Property 'userID' does not exist on type 'Session' "
        "(src/auth/session.ts:58:12)",
    ),
    (
        "FAIL tests/upload.test.ts > rejects files over 10 MB: expected 413 to be 200",
        "FAIL tests/upload.test.ts > rejects files over 10 MB: expected 413 to be 400",
    ),
)
FRESH_COMMANDS = (
    ("yarn test --coverage", "yarn test"),
    ("npx eslint src/", "npx eslint src/auth/"),
    ("make check", "make check-all"),
)
FRESH_SUPERSEDED = (
    dict(
        old="paginate the orders list with page numbers",
        new="paginate the orders list with opaque cursors",
        report="Replaced page-number pagination of the orders list with opaque cursors",
    ),
    dict(
        old="hash passwords with bcrypt at cost 10",
        new="hash passwords with argon2id",
        report="Passwords are no longer hashed with bcrypt; argon2id took its place",
    ),
    dict(
        old="run the image resize step inside the request handler",
        new="move the image resize step to a background worker",
        report="Superseded: resizing images inside the request handler (moved to a worker)",
    ),
)
FRESH_FILES = (
    ("src/upload/handler.ts", "src/upload/handlers.ts"),
    ("src/mail/templates/reset.html", "src/mail/templates/reset.txt"),
    ("src/gateway/metrics.ts", "src/gateway/internal/metrics.ts"),
    ("tests/upload.test.ts", "tests/upload.test.js"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-2 bank: written from scratch in new domains (refunds, feature flags, search suggestions,
# websockets, CSV export, backups, OAuth, dark mode, PDF invoices, geocoding, audit trail,
# webhooks signing) and committed before the second round of rule fixes was measured on it.
FRESH2_PROSE = (
    dict(
        kind="goal",
        fact="Let support agents issue partial refunds from the admin dashboard",
        para=(
            "Support staff should be able to refund part of an order from the admin dashboard",
            "Give support agents a way to make partial refunds in the admin dashboard",
        ),
        neg="Support agents must not be able to issue partial refunds from the admin dashboard",
        wrong="Let support agents issue partial refunds from the mobile app",
    ),
    dict(
        kind="goal",
        fact="Show search suggestions while the user types in the product search box",
        para=(
            "Suggest search terms as the user is typing into the product search box",
            "The product search box should offer suggestions during typing",
        ),
        neg="Do not show search suggestions while the user types in the product search box",
        wrong="Show search suggestions while the user types in the help center search box",
    ),
    dict(
        kind="goal",
        fact="Push order status updates to the browser over a WebSocket",
        para=(
            "Send order status changes to the browser through a WebSocket connection",
            "The browser receives order status updates via WebSocket",
        ),
        neg="Order status updates will not be pushed to the browser over a WebSocket",
        wrong="Push inventory level updates to the browser over a WebSocket",
    ),
    dict(
        kind="constraint",
        fact="Feature flags must default to off in production",
        para=(
            "In production every feature flag starts disabled",
            "A feature flag is disabled by default in the production environment",
        ),
        neg="Feature flags may default to on in production",
        wrong="Feature flags must default to off in staging",
    ),
    dict(
        kind="constraint",
        fact="Never log full card numbers",
        para=(
            "Complete card numbers must not appear in any log",
            "Do not write whole card numbers to the logs",
        ),
        neg="Full card numbers can be logged",
        wrong="Never log full passport numbers",
    ),
    dict(
        kind="constraint",
        fact="Keep the CSV export compatible with Excel 2016",
        para=(
            "The CSV export has to stay openable in Excel 2016",
            "Exported CSV files must keep working with Excel 2016",
        ),
        neg="The CSV export does not need to stay compatible with Excel 2016",
        wrong="Keep the CSV export compatible with LibreOffice 7",
    ),
    dict(
        kind="decision",
        fact="sign outgoing webhooks with HMAC-SHA256 instead of a shared bearer token",
        para=(
            "outgoing webhooks carry an HMAC-SHA256 signature rather than a shared bearer token",
            "webhooks we send are authenticated by an HMAC-SHA256 signature, not by a shared "
            "bearer token",
        ),
        neg="outgoing webhooks will not be signed with HMAC-SHA256",
        wrong="sign incoming callbacks with HMAC-SHA256 instead of a shared bearer token",
        swap="sign outgoing webhooks with a shared bearer token instead of HMAC-SHA256",
    ),
    dict(
        kind="decision",
        fact="render invoice PDFs on a background worker instead of in the web request",
        para=(
            "invoice PDFs are produced by a background worker rather than during the web request",
            "generate the invoice PDF in a background job, not inside the web request",
        ),
        neg="invoice PDFs will not be rendered on a background worker",
        wrong="render shipping labels on a background worker instead of in the web request",
        swap="render invoice PDFs in the web request instead of on a background worker",
    ),
    dict(
        kind="decision",
        fact="use GitHub as the only OAuth provider for the first release",
        para=(
            "the first release supports OAuth login through GitHub alone",
            "GitHub will be the sole OAuth provider in the first release",
        ),
        neg="GitHub will not be an OAuth provider in the first release",
        wrong="use GitLab as the only OAuth provider for the first release",
    ),
    dict(
        kind="next_step",
        fact="add a dark mode toggle to the settings page",
        para=(
            "put a switch for dark mode on the settings page",
            "let users turn dark mode on and off from the settings page",
        ),
        neg="the settings page will not get a dark mode toggle",
        wrong="add a dark mode toggle to the login page",
    ),
    dict(
        kind="next_step",
        fact="schedule a nightly backup of the orders database to cold storage",
        para=(
            "back up the orders database to cold storage every night",
            "set up a nightly job that copies the orders database into cold storage",
        ),
        neg="do not schedule a nightly backup of the orders database",
        wrong="schedule a nightly backup of the analytics database to cold storage",
    ),
    dict(
        kind="next_step",
        fact="record every permission change in the audit trail",
        para=(
            "write an audit trail entry whenever a permission changes",
            "each change to a permission should be logged in the audit trail",
        ),
        neg="permission changes will not be recorded in the audit trail",
        wrong="record every password change in the audit trail",
    ),
)
FRESH2_BLOCKERS = (
    (
        "Error: getaddrinfo ENOTFOUND geocode.internal (src/geo/client.ts)",
        "Error: getaddrinfo ENOTFOUND geocoder.internal (src/geo/client.ts)",
    ),
    (
        "error TS2322: Type 'string' is not assignable to type 'RefundReason' "
        "(src/refunds/create.ts:27:5)",
        "error TS2322: Type 'string' is not assignable to type 'RefundStatus' "
        "(src/refunds/create.ts:27:5)",
    ),
    (
        "FAIL tests/flags.test.ts > defaults to off: expected true to be false",
        "FAIL tests/flags.test.ts > defaults to on: expected true to be false",
    ),
    (
        "SyntaxError: Unexpected token '<' in JSON at position 0 (src/invoices/pdf.ts:88)",
        "SyntaxError: Unexpected token '<' in JSON at position 1 (src/invoices/pdf.ts:88)",
    ),
)
FRESH2_COMMANDS = (
    ("pnpm run test:unit", "pnpm run test:e2e"),
    ("npx tsc --noEmit", "npx tsc --noEmit -p tsconfig.build.json"),
    ("cargo test", "cargo test --release"),
    ("go test ./...", "go test ./internal/..."),
)
FRESH2_SUPERSEDED = (
    dict(
        old="store feature flags in environment variables",
        new="store feature flags in the config service",
        report="Feature flags moved out of environment variables into the config service",
    ),
    dict(
        old="poll the order status endpoint every five seconds",
        new="push order status over a WebSocket",
        report="Dropped polling of the order status endpoint in favour of WebSocket pushes",
    ),
    dict(
        old="generate CSV exports with a hand-written serializer",
        new="generate CSV exports with the csv-stringify library",
        report="The hand-written CSV serializer was replaced by csv-stringify",
    ),
    dict(
        old="keep backups for seven days",
        new="keep backups for thirty days",
        report="Backups are no longer kept for seven days; retention is now thirty",
    ),
)
FRESH2_FILES = (
    ("src/refunds/create.ts", "src/refunds/created.ts"),
    ("src/flags/defaults.ts", "src/flags/default.ts"),
    ("src/search/suggest.ts", "src/search/suggest.tsx"),
    ("src/ws/orders.ts", "src/ws/legacy/orders.ts"),
    ("src/export/csv.ts", "src/export/tsv.ts"),
    ("src/invoices/pdf.ts", "src/invoice/pdf.ts"),
    ("migrations/0007_audit.sql", "migrations/0008_audit.sql"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-3 bank: written from scratch for round 3 (calendar sync, carts, resumable uploads,
# two-factor codes, data erasure, log rotation, vendor pagination, Markdown sanitizing, image
# size, health checks, time zones, unit-test isolation, a SOAP endpoint's retirement) in
# negation forms and rewordings chosen freely, and committed before any round-3 rule fix was
# measured on it. Its tail items use other speaker lead-ins than the earlier splits.
FRESH3_PROSE = (
    dict(
        kind="goal",
        fact="Sync calendar invites from Google Calendar into the team planner",
        para=(
            "Bring Google Calendar invitations over into the team planner automatically",
            "The team planner should pull in invites from Google Calendar",
        ),
        neg="Calendar invites from Google Calendar must stay out of the team planner",
        wrong="Sync calendar invites from Outlook into the team planner",
    ),
    dict(
        kind="goal",
        fact="Keep shopping carts across logins for signed-in customers",
        para=(
            "A signed-in customer's cart should survive logging out and back in",
            "Persist the shopping cart of signed-in customers between logins",
        ),
        neg="Signed-in customers get an empty shopping cart after every login",
        wrong="Keep wish lists across logins for signed-in customers",
    ),
    dict(
        kind="goal",
        fact="Make file uploads resumable after a dropped connection",
        para=(
            "Uploads should continue where they stopped when the connection drops",
            "Let an interrupted upload pick up from where it left off once the network is back",
        ),
        neg="An upload cut off by a dropped connection has to start again from zero",
        wrong="Make file downloads resumable after a dropped connection",
    ),
    dict(
        kind="goal",
        fact="Retire the legacy SOAP endpoint for order lookups",
        para=(
            "Shut down the old SOAP endpoint that is used to look up orders",
            "Take the legacy SOAP order-lookup endpoint out of service",
        ),
        neg="Keep the legacy SOAP endpoint for order lookups running",
        wrong="Retire the legacy SOAP endpoint for invoice lookups",
    ),
    dict(
        kind="constraint",
        fact="Two-factor codes expire after five minutes",
        para=(
            "A two-factor code stops being valid once five minutes have passed",
            "Each two-factor code is good for five minutes and no longer",
        ),
        neg="Two-factor codes never expire",
        wrong="Magic login links expire after five minutes",
    ),
    dict(
        kind="constraint",
        fact="Delete a user's personal data within 30 days of an erasure request",
        para=(
            "Personal data of a user who asks for erasure must be gone no later than 30 days "
            "after the request",
            "Erasure requests are honoured by removing the user's personal data in at most 30 days",
        ),
        neg="Personal data may be kept for longer than 30 days after an erasure request",
        wrong="Delete a user's personal data within 90 days of an erasure request",
    ),
    dict(
        kind="constraint",
        fact="Only the billing service may write to the invoices table",
        para=(
            "No service other than billing is allowed to write to the invoices table",
            "Writes to the invoices table come from the billing service alone",
        ),
        neg="Any service is free to write to the invoices table",
        wrong="Only the billing service may write to the payments table",
    ),
    dict(
        kind="constraint",
        fact="Do not call external services from unit tests",
        para=(
            "Unit tests must run without reaching any external service",
            "Keep unit tests away from external services",
        ),
        neg="Unit tests are allowed to call external services",
        wrong="Do not call external services from database migrations",
    ),
    dict(
        kind="decision",
        fact="rotate application logs daily instead of by size",
        para=(
            "application logs roll over once per day rather than when they reach a size",
            "the app's logs are rotated every day, not according to file size",
        ),
        neg="daily rotation of the application logs was ruled out",
        wrong="rotate access logs daily instead of by size",
        swap="rotate application logs by size instead of daily",
    ),
    dict(
        kind="decision",
        fact="paginate the vendor API with cursors rather than page numbers",
        para=(
            "vendor API results are fetched page by page using cursors instead of numbered pages",
            "we page through the vendor API by cursor, not by page number",
        ),
        neg="we decided against cursor pagination for the vendor API",
        wrong="paginate the search API with cursors rather than page numbers",
        swap="paginate the vendor API with page numbers rather than cursors",
    ),
    dict(
        kind="decision",
        fact="sanitize rendered Markdown with DOMPurify before inserting it into the page",
        para=(
            "Markdown output passes through DOMPurify before it reaches the page",
            "run DOMPurify on the HTML rendered from Markdown before it is put into the page",
        ),
        neg="rendered Markdown goes into the page without being sanitized by DOMPurify",
        wrong="sanitize rendered comments with DOMPurify before inserting them into the page",
    ),
    dict(
        kind="next_step",
        fact="shrink the Docker image below 300 MB",
        para=(
            "get the Docker image under 300 MB",
            "reduce the size of the Docker image until it is smaller than 300 MB",
        ),
        neg="leave the Docker image at its current size instead of shrinking it below 300 MB",
        wrong="shrink the builder image below 300 MB",
    ),
    dict(
        kind="next_step",
        fact="add a health check endpoint that reports database connectivity",
        para=(
            "expose an endpoint for health checks that tells whether the database is reachable",
            "create a health endpoint which reports if the database connection works",
        ),
        neg="skip the health check endpoint for database connectivity",
        wrong="add a health check endpoint that reports cache connectivity",
    ),
    dict(
        kind="next_step",
        fact="convert stored timestamps to the user's time zone before display",
        para=(
            "show stored timestamps in the user's own time zone",
            "display times from storage converted into the time zone of the user",
        ),
        neg="display stored timestamps as they are, without converting them to the user's "
        "time zone",
        wrong="convert stored timestamps to the server's time zone before display",
    ),
)
FRESH3_BLOCKERS = (
    (
        "Error: connect ECONNREFUSED 127.0.0.1:6379 (src/cart/store.ts)",
        "Error: connect ECONNREFUSED 127.0.0.1:6380 (src/cart/store.ts)",
    ),
    (
        "error TS2345: Argument of type 'number' is not assignable to parameter of type 'Date' "
        "(src/time/zone.ts:14:22)",
        "error TS2345: Argument of type 'number' is not assignable to parameter of type "
        "'DateTime' (src/time/zone.ts:14:22)",
    ),
    (
        "AssertionError: expected 'resumed' to equal 'restarted' (tests/upload.test.ts:52)",
        "AssertionError: expected 'restarted' to equal 'resumed' (tests/upload.test.ts:52)",
    ),
    (
        "RangeError: Maximum call stack size exceeded (src/markdown/render.ts:130)",
        "RangeError: Maximum call stack size exceeded (src/markdown/render.ts:103)",
    ),
)
FRESH3_COMMANDS = (
    ("yarn test", "yarn test:integration"),
    ("just test", "just test-e2e"),
    ("npx vitest run", "npx vitest run --changed"),
)
FRESH3_SUPERSEDED = (
    dict(
        old="cache cart contents in the browser's localStorage",
        new="keep cart contents in Redis on the server",
        report="Cart contents are not in localStorage anymore; they live in Redis now",
    ),
    dict(
        old="send two-factor codes by SMS",
        new="send two-factor codes through an authenticator app",
        report="Switched two-factor codes from SMS to an authenticator app",
    ),
    dict(
        old="render Markdown on the client",
        new="render Markdown on the server",
        report="Client-side Markdown rendering was abandoned for rendering on the server",
    ),
    dict(
        old="retry vendor API calls three times",
        new="retry vendor API calls five times with jitter",
        report="Vendor API retries were raised from three to five, with jitter",
    ),
)
FRESH3_FILES = (
    ("src/cart/persist.ts", "src/cart/persists.ts"),
    ("src/upload/resume.ts", "src/upload/resumable.ts"),
    ("config/logrotate.conf", "config/logrotate.d/app.conf"),
    ("Dockerfile", "Dockerfile.dev"),
    ("src/markdown/sanitize.ts", "src/markdown/sanitize.js"),
    ("db/migrations/0012_carts.sql", "db/migrations/0012_cart.sql"),
)
# ---------------------------------------------------------------------------------------------
# Fresh-4 bank: written from scratch by a separate helper session that had not read the
# matcher's code, any measured figures or any error analysis (push-notification quiet hours,
# stock reservation, video transcoding to HLS, editor autosave, newsletter unsubscribe links,
# right-to-left locales, ticket QR check-in, offline articles, account lockout, API-key
# rotation, cookie consent, connection pools, customer-list export, GPL licences, loyalty
# points, chat read receipts, shipping labels, exchange rates, gRPC, sign-up CAPTCHA, seat
# proration, mobile deep links, a podcast feed, Vault secrets, table keyboard navigation,
# push batches, HTTP/2, Android support). Negations are explicit and implicit in about equal
# parts; the tail items use their own speaker lead-ins.
FRESH4_PROSE = (
    dict(
        kind="goal",
        fact="Hold back push notifications during each user's quiet hours",
        para=(
            "Push notifications should not be delivered while a user is inside their quiet hours",
            "Keep push notifications from going out during a user's quiet hours",
        ),
        neg="Push notifications go out immediately, even in the middle of a user's quiet hours",
        wrong="Hold back marketing emails during each user's quiet hours",
    ),
    dict(
        kind="goal",
        fact="Reserve a product's stock for 15 minutes while the customer pays",
        para=(
            "Hold the product's stock for the customer for 15 minutes during payment",
            "Stock of a product should be set aside for fifteen minutes while its buyer is paying",
        ),
        neg="Stock stays on sale to everyone else while a customer is paying, so it can sell out "
        "before the payment goes through",
        wrong="Reserve a hotel room for 15 minutes while the customer pays",
    ),
    dict(
        kind="goal",
        fact="Transcode uploaded videos into HLS streams at three bitrates",
        para=(
            "Uploaded videos should be converted to HLS streams in three bitrates",
            "convert every video that is uploaded into HLS, producing one stream for each of "
            "three bitrates",
        ),
        neg="Uploaded videos are served as the original file, with no HLS transcoding",
        wrong="Transcode uploaded audio clips into HLS streams at three bitrates",
    ),
    dict(
        kind="goal",
        fact="Autosave drafts in the document editor every 30 seconds",
        para=(
            "The document editor should save drafts automatically at 30-second intervals",
            "have the document editor store the current draft by itself every 30 seconds",
        ),
        neg="Drafts in the document editor are saved only when the writer clicks Save",
        wrong="Autosave drafts in the email composer every 30 seconds",
    ),
    dict(
        kind="goal",
        fact="Add an unsubscribe link to the footer of every newsletter",
        para=(
            "Every newsletter should carry a link for unsubscribing in its footer",
            "include a link to unsubscribe at the bottom of each newsletter, in the footer",
        ),
        neg="Newsletters go out without an unsubscribe link in the footer",
        wrong="Add an unsubscribe link to the footer of every order receipt",
    ),
    dict(
        kind="goal",
        fact="Support right-to-left layouts for the Arabic and Hebrew locales",
        para=(
            "The Arabic and Hebrew locales need the interface laid out from right to left",
            "make layouts render right to left when the locale is Arabic or Hebrew",
        ),
        neg="The layout stays left-to-right even for the Arabic and Hebrew locales",
        wrong="Support right-to-left layouts for the Persian and Urdu locales",
    ),
    dict(
        kind="goal",
        fact="Let event organizers check in attendees by scanning a QR code on the ticket",
        para=(
            "Organizers of an event should be able to check attendees in by scanning the QR "
            "code printed on their ticket",
            "attendees get checked in by the event's organizers, who scan the QR code on each "
            "ticket",
        ),
        neg="Checking in attendees by scanning ticket QR codes was dropped from the scope",
        wrong="Let venue staff check in attendees by scanning a QR code on the ticket",
    ),
    dict(
        kind="goal",
        fact="Let the mobile app work offline by caching the last 50 viewed articles",
        para=(
            "Cache the 50 most recently viewed articles so the mobile app still works without "
            "a connection",
            "the mobile app should keep working offline, with the last 50 articles a user "
            "viewed stored on the device",
        ),
        neg="The mobile app shows nothing but an error screen when there is no network",
        wrong="Let the desktop app work offline by caching the last 50 viewed articles",
    ),
    dict(
        kind="constraint",
        fact="Lock an account for 20 minutes after five failed sign-in attempts",
        para=(
            "After five unsuccessful sign-ins, the account is locked for 20 minutes",
            "an account gets locked for twenty minutes once there have been five failed "
            "attempts to sign in",
        ),
        neg="Failed sign-in attempts never lock an account, however many there are",
        wrong="Lock an account for 20 minutes after five failed password-reset attempts",
    ),
    dict(
        kind="constraint",
        fact="Every API key must be rotated after 90 days",
        para=(
            "No API key may stay in use for longer than 90 days without being rotated",
            "each API key has to be replaced with a fresh one once it is 90 days old",
        ),
        neg="There is no rotation requirement for API keys; they can be used indefinitely",
        wrong="Every database password must be rotated after 90 days",
    ),
    dict(
        kind="constraint",
        fact="Load analytics scripts only after the visitor accepts cookies in the consent banner",
        para=(
            "Analytics scripts may not load until the visitor has accepted cookies in the "
            "consent banner",
            "no analytics script runs before the consent banner has recorded that the visitor "
            "accepted cookies",
        ),
        neg="Analytics scripts load as soon as the page opens, whether or not the visitor "
        "accepts cookies",
        wrong="Load chat widget scripts only after the visitor accepts cookies in the consent "
        "banner",
    ),
    dict(
        kind="constraint",
        fact="Keep the database connection pool at no more than 20 connections per instance",
        para=(
            "Each instance may open at most 20 database connections in its pool",
            "the database pool of an instance is capped at 20 connections",
        ),
        neg="Place no upper limit on the database connection pool; an instance may open well "
        "over 20 connections",
        wrong="Keep the Redis connection pool at no more than 20 connections per instance",
    ),
    dict(
        kind="constraint",
        fact="Only administrators may export the customer list",
        para=(
            "Exporting the customer list is restricted to administrators",
            "the customer list can be exported by admins and by nobody else",
        ),
        neg="Every signed-in user is allowed to export the customer list",
        wrong="Only administrators may export the supplier list",
    ),
    dict(
        kind="constraint",
        fact="Do not ship any third-party package under a GPL license",
        para=(
            "Packages released under a GPL license must be kept out of what we ship",
            "any dependency licensed under the GPL is banned from the shipped product",
        ),
        neg="Shipping third-party packages licensed under the GPL is acceptable",
        wrong="Do not ship any third-party package under an SSPL license",
    ),
    dict(
        kind="constraint",
        fact="Loyalty points expire twelve months after they are earned",
        para=(
            "Loyalty points lapse 12 months after the date they were earned",
            "a loyalty point remains valid for twelve months from when it was earned, and then "
            "it expires",
        ),
        neg="Loyalty points stay valid forever once they are earned",
        wrong="Referral credits expire twelve months after they are earned",
    ),
    dict(
        kind="constraint",
        fact="Chat read receipts must stay off unless the user turns them on",
        para=(
            "Read receipts in chat are disabled by default until a user enables them",
            "users have to opt in before the chat shows read receipts",
        ),
        neg="Chat read receipts are on by default, and users who do not want them must opt out",
        wrong="Chat typing indicators must stay off unless the user turns them on",
    ),
    dict(
        kind="decision",
        fact="generate shipping labels through the carrier's REST API instead of uploading CSV "
        "batches",
        para=(
            "shipping labels come from calls to the carrier's REST API rather than from "
            "uploaded CSV batches",
            "we create shipping labels with the carrier's REST API, not by uploading batches of "
            "CSV files",
        ),
        neg="the carrier's REST API was rejected for generating shipping labels",
        wrong="generate return labels through the carrier's REST API instead of uploading CSV "
        "batches",
        swap="generate shipping labels by uploading CSV batches instead of through the carrier's "
        "REST API",
    ),
    dict(
        kind="decision",
        fact="convert prices with the exchange rates of the previous business day",
        para=(
            "prices get converted using the previous business day's exchange rates",
            "currency conversion of prices relies on exchange rates from the business day before",
        ),
        neg="prices are converted with live exchange rates instead of the previous business day's",
        wrong="convert refunds with the exchange rates of the previous business day",
    ),
    dict(
        kind="decision",
        fact="call the inventory service over gRPC instead of REST",
        para=(
            "the inventory service is reached through gRPC rather than REST",
            "we use gRPC, not REST, for calls to the inventory service",
        ),
        neg="we decided to stay on REST for the inventory service and not adopt gRPC",
        wrong="call the pricing service over gRPC instead of REST",
        swap="call the inventory service over REST instead of gRPC",
    ),
    dict(
        kind="decision",
        fact="show the CAPTCHA on the sign-up form only after three failed submissions",
        para=(
            "the sign-up form asks for a CAPTCHA only once three submissions have failed",
            "a CAPTCHA appears on the registration form only after the third failed submission",
        ),
        neg="every visitor has to solve a CAPTCHA on the sign-up form, starting with the first "
        "submission",
        wrong="show the CAPTCHA on the contact form only after three failed submissions",
    ),
    dict(
        kind="decision",
        fact="charge added seats pro rata for the remaining days of the billing month",
        para=(
            "seats added partway through the month are billed in proportion to the days left "
            "in the billing month",
            "an extra seat costs only the part of the monthly price that matches the days "
            "remaining in the billing month",
        ),
        neg="an added seat is charged the full monthly price no matter how many days are left",
        wrong="charge added storage pro rata for the remaining days of the billing month",
    ),
    dict(
        kind="decision",
        fact="open mobile deep links in the app when it is installed and in the browser otherwise",
        para=(
            "deep links on mobile go to the app if it is installed, and fall back to the "
            "browser if it is not",
            "when the app is installed, mobile deep links open there; without it they open in "
            "the browser",
        ),
        neg="mobile deep links always open in the browser, even when the app is installed",
        wrong="open calendar links in the app when it is installed and in the browser otherwise",
    ),
    dict(
        kind="decision",
        fact="keep the podcast RSS feed limited to the 100 newest episodes",
        para=(
            "the podcast's RSS feed lists only the 100 most recent episodes",
            "we cap the podcast RSS feed at the latest 100 episodes",
        ),
        neg="the podcast RSS feed lists every episode ever published",
        wrong="keep the video RSS feed limited to the 100 newest episodes",
    ),
    dict(
        kind="decision",
        fact="store secrets in HashiCorp Vault rather than in environment files",
        para=(
            "secrets live in HashiCorp Vault, not in env files",
            "we keep secrets in HashiCorp Vault; environment files are not used for them",
        ),
        neg="secrets stay in environment files; moving them to HashiCorp Vault was ruled out",
        wrong="store TLS certificates in HashiCorp Vault rather than in environment files",
        swap="store secrets in environment files rather than in HashiCorp Vault",
    ),
    dict(
        kind="next_step",
        fact="add keyboard navigation to the data tables in the reporting dashboard",
        para=(
            "make the reporting dashboard's data tables usable from the keyboard",
            "let users move through the data tables of the reporting dashboard with the keyboard",
        ),
        neg="leave the data tables in the reporting dashboard usable with the mouse only",
        wrong="add keyboard navigation to the charts in the reporting dashboard",
    ),
    dict(
        kind="next_step",
        fact="lower the push notification batch size from 1,000 to 500",
        para=(
            "cut the size of push notification batches to 500, down from 1,000",
            "send push notifications in batches of 500 rather than 1,000",
        ),
        neg="leave push notification batches at 1,000 and do not reduce them to 500",
        wrong="lower the email batch size from 1,000 to 500",
    ),
    dict(
        kind="next_step",
        fact="purge expired loyalty points with a nightly job",
        para=(
            "set up a job that runs every night and removes loyalty points that have expired",
            "have a nightly job delete the loyalty points that are past their expiry",
        ),
        neg="keep expired loyalty points in the database instead of purging them every night",
        wrong="purge expired gift cards with a nightly job",
    ),
    dict(
        kind="next_step",
        fact="cover editor autosave with a test that simulates a flaky network",
        para=(
            "add a test for the editor's autosave that simulates an unreliable network connection",
            "write an autosave test for the editor in which the network keeps dropping out",
        ),
        neg="do without a flaky-network test for the editor's autosave",
        wrong="cover editor spellcheck with a test that simulates a flaky network",
    ),
    dict(
        kind="next_step",
        fact="enable HTTP/2 on the public load balancer",
        para=(
            "turn on HTTP/2 for the public load balancer",
            "the public load balancer should start serving HTTP/2",
        ),
        neg="disable HTTP/2 on the public load balancer",
        wrong="enable HTTP/2 on the internal load balancer",
    ),
    dict(
        kind="next_step",
        fact="show each API key's last-used time in the admin console",
        para=(
            "display in the admin console when each API key was last used",
            "the admin console should list the time every API key was most recently used",
        ),
        neg="hide from the admin console when an API key was last used",
        wrong="show each webhook's last-used time in the admin console",
    ),
    dict(
        kind="next_step",
        fact="drop support for Android 8 from the mobile app",
        para=(
            "stop supporting Android 8 in the mobile app",
            "the mobile app should no longer support Android 8",
        ),
        neg="keep the mobile app running on Android 8",
        wrong="drop support for iOS 15 from the mobile app",
    ),
)
FRESH4_BLOCKERS = (
    (
        "Error: ffmpeg exited with code 1 while transcoding video 4821 (src/video/transcode.ts)",
        "Error: ffmpeg exited with code 137 while transcoding video 4821 (src/video/transcode.ts)",
    ),
    (
        "TypeError: Cannot read properties of undefined (reading 'quietHoursStart') "
        "(src/push/schedule.ts:41:18)",
        "TypeError: Cannot read properties of undefined (reading 'quietHoursEnd') "
        "(src/push/schedule.ts:41:18)",
    ),
    (
        "error TS2322: Type 'string' is not assignable to type 'CurrencyCode' "
        "(src/fx/convert.ts:27:9)",
        "error TS2322: Type 'string' is not assignable to type 'Currency' (src/fx/convert.ts:27:9)",
    ),
    (
        "error: permission denied for table loyalty_points (migrations/0021_loyalty_points.sql)",
        "error: permission denied for table loyalty_accounts (migrations/0021_loyalty_points.sql)",
    ),
)
FRESH4_COMMANDS = (
    ("pnpm exec playwright test", "pnpm exec playwright test --project=webkit"),
    ("nx run web:test", "nx run mobile:test"),
    ("npx jest --ci", "npx jest --ci --selectProjects e2e"),
)
FRESH4_SUPERSEDED = (
    dict(
        old="deliver iOS push notifications through Firebase",
        new="deliver iOS push notifications directly through APNs",
        report="iOS pushes no longer go through Firebase; they are sent straight to APNs",
    ),
    dict(
        old="keep editor drafts in the browser's IndexedDB",
        new="keep editor drafts on the server",
        report="Dropped IndexedDB for editor drafts in favour of storing them on the server",
    ),
    dict(
        old="cap the database pool at 10 connections per instance",
        new="cap the database pool at 20 connections per instance",
        report="Bumped the per-instance database pool cap from 10 to 20 connections",
    ),
    dict(
        old="print shipping labels as PNG images",
        new="print shipping labels as ZPL for the thermal printers",
        report="Shipping labels switched from PNG images to ZPL for the thermal printers",
    ),
    dict(
        old="show the cookie consent banner on every page load",
        new="show the cookie consent banner once and remember the visitor's choice for six months",
        report="The consent banner stopped appearing on every page load; the visitor's choice "
        "is now remembered for six months",
    ),
)
FRESH4_FILES = (
    ("src/push/quietHours.ts", "src/push/quietHour.ts"),
    ("src/video/hls/ladder.ts", "src/video/ladder.ts"),
    ("src/editor/autosave.ts", "src/editor/autosave.spec.ts"),
    ("src/fx/rates.ts", "src/fx/rates.json"),
    ("infra/vault/policies.hcl", "infra/vault/policy.hcl"),
    ("migrations/0021_loyalty_points.sql", "migrations/0022_loyalty_points.sql"),
)
# ---------------------------------------------------------------------------------------------
# Fresh-5 bank: written from scratch by a separate helper session that had not read the
# matcher's code, any measured figures or any error analysis (restaurant waitlists, no-show
# fees and online booking, delivery-van GPS tracking, a patient portal with lab results and
# appointment reminders, over-the-air thermostat firmware, payroll overtime, timesheets and
# approvals, online exams and proctoring, crash-report source maps, a collaborative whiteboard,
# library loans and late fees, autoscaling a ride-matching service, surge pricing, Snowflake
# loads, contract e-signatures, gym class credits, marketplace photo moderation, SCIM
# provisioning, vector map tiles, warehouse pick lists, survey branching, severe weather
# alerts). Negations are explicit and implicit in about equal parts; the tail items use their
# own speaker lead-ins.
FRESH5_PROSE = (
    dict(
        kind="goal",
        fact="Let diners join a waitlist by text message when every table is booked",
        para=(
            "When all tables are taken, diners should be able to get onto a waiting list via SMS",
            "a text-message waitlist that diners can join once the restaurant has no free "
            "tables left",
        ),
        neg="Once every table is booked, diners are turned away at the door and asked to try "
        "another evening",
        wrong="Let gym members join a waitlist by text message when every class is booked",
    ),
    dict(
        kind="goal",
        fact="Show every delivery van on a live map, refreshing its GPS position every ten seconds",
        para=(
            "Each delivery van's GPS location should be plotted on a live map and updated at "
            "10-second intervals",
            "real-time map tracking of all delivery vans, with each van's GPS fix refreshed "
            "every ten seconds",
        ),
        neg="Delivery vans do not appear on any live map, and their GPS positions are not "
        "collected",
        wrong="Show every rental bike on a live map, refreshing its GPS position every ten seconds",
    ),
    dict(
        kind="goal",
        fact="Let patients download their lab results as PDFs from the patient portal",
        para=(
            "Lab results should be downloadable as PDF files by patients in the patient portal",
            "give patients a way to fetch their lab results in PDF form from the patient portal",
        ),
        neg="Patients have to phone the clinic for their lab results, which are then mailed to "
        "them on paper",
        wrong="Let patients download their vaccination records as PDFs from the patient portal",
    ),
    dict(
        kind="goal",
        fact="Update thermostat firmware over the air without sending a technician",
        para=(
            "Firmware on the thermostats should be updated remotely, so that no technician has "
            "to visit",
            "over-the-air firmware updates for the thermostats, replacing technician visits",
        ),
        neg="Each thermostat firmware update still needs a technician on site to flash the "
        "device by hand",
        wrong="Update smoke detector firmware over the air without sending a technician",
    ),
    dict(
        kind="goal",
        fact="Work out overtime pay automatically from the timesheets employees submit",
        para=(
            "Overtime pay should be calculated by the system from submitted timesheets, with no "
            "manual step",
            "automatic calculation of overtime pay based on each employee's submitted timesheet",
        ),
        neg="Payroll clerks calculate overtime pay by hand from every timesheet that comes in",
        wrong="Work out holiday pay automatically from the timesheets employees submit",
    ),
    dict(
        kind="goal",
        fact="Let students resume an online exam after losing their connection, pausing the "
        "timer meanwhile",
        para=(
            "If a student's connection drops mid-exam, the online exam can be resumed later and "
            "the timer is paused in between",
            "students who lose their connection during an online exam should be able to "
            "continue it, and the clock stops until they are back",
        ),
        neg="A student who loses the connection cannot get back into the online exam, and the "
        "timer does not stop",
        wrong="Let students resume a live classroom poll after losing their connection, pausing "
        "the timer meanwhile",
    ),
    dict(
        kind="goal",
        fact="Upload source maps to the crash reporter with every release build",
        para=(
            "Each release build should send its source maps up to the crash reporter",
            "source maps get pushed to the crash reporting service as part of every release build",
        ),
        neg="Release builds skip the source map upload, so the crash reporter only ever sees "
        "minified stack traces",
        wrong="Upload source maps to the crash reporter with every nightly build",
    ),
    dict(
        kind="goal",
        fact="Let several people draw on the same whiteboard at once and see one another's cursors",
        para=(
            "Multiple users should be able to edit a single whiteboard simultaneously, with "
            "everyone's cursor visible to the rest",
            "simultaneous drawing on one whiteboard by several collaborators, each seeing where "
            "the others' cursors are",
        ),
        neg="Only one person at a time can draw on a whiteboard while everyone else watches a "
        "read-only copy",
        wrong="Let several people edit the same slide deck at once and see one another's cursors",
    ),
    dict(
        kind="constraint",
        fact="Charge a no-show fee only for bookings of six or more guests",
        para=(
            "Only reservations for at least six guests are subject to the no-show fee",
            "the no-show fee applies to parties of six or more, never to smaller bookings",
        ),
        neg="Every booking is charged a no-show fee, whatever the size of the party",
        wrong="Charge a cancellation fee only for bookings of six or more guests",
    ),
    dict(
        kind="constraint",
        fact="Keep raw GPS traces for no longer than 30 days",
        para=(
            "Raw GPS traces must be deleted once they are 30 days old",
            "no raw GPS trace may be retained beyond 30 days",
        ),
        neg="Raw GPS traces are archived permanently so past routes can be replayed at any time",
        wrong="Keep raw dashcam footage for no longer than 30 days",
    ),
    dict(
        kind="constraint",
        fact="Lab results must not appear in the patient portal until a doctor has signed them off",
        para=(
            "A doctor's sign-off is required before any lab result is shown in the patient portal",
            "the patient portal displays lab results only after a doctor has approved them",
        ),
        neg="Lab results show up in the patient portal the moment the lab sends them, before any "
        "doctor has looked at them",
        wrong="Imaging reports must not appear in the patient portal until a doctor has signed "
        "them off",
    ),
    dict(
        kind="constraint",
        fact="Thermostat firmware updates may only be installed between 2 a.m. and 5 a.m. local "
        "time",
        para=(
            "Installing a thermostat firmware update is permitted solely in the window from "
            "2 a.m. to 5 a.m., local time",
            "no firmware update is to be installed on a thermostat outside the hours of 2 a.m. "
            "to 5 a.m. local time",
        ),
        neg="Thermostat firmware updates install the moment they arrive, in the middle of the "
        "afternoon as readily as at night",
        wrong="Smart plug firmware updates may only be installed between 2 a.m. and 5 a.m. local "
        "time",
    ),
    dict(
        kind="constraint",
        fact="A library member may renew a loan at most twice",
        para=(
            "Each loan can be renewed no more than two times by the member",
            "members are limited to two renewals on any loan",
        ),
        neg="There is no limit on renewals; members can keep extending a loan as often as they "
        "like",
        wrong="A library member may renew a study room booking at most twice",
    ),
    dict(
        kind="constraint",
        fact="Only proctors may watch the webcam recordings of an exam",
        para=(
            "Webcam recordings from an exam are viewable by proctors alone",
            "access to an exam's webcam recordings is restricted to the proctors; nobody else "
            "may view them",
        ),
        neg="Students, teachers and proctors can all watch the webcam recordings of an exam",
        wrong="Only proctors may watch the screen recordings of an exam",
    ),
    dict(
        kind="constraint",
        fact="Strip email addresses from crash reports before they leave the device",
        para=(
            "Crash reports must have any email addresses removed before being sent off the device",
            "no crash report may be uploaded from the device while it still contains an email "
            "address",
        ),
        neg="Email addresses are not removed from crash reports before they are uploaded",
        wrong="Strip email addresses from analytics events before they leave the device",
    ),
    dict(
        kind="constraint",
        fact="Never let the autoscaler take the ride-matching service below three pods",
        para=(
            "The ride-matching service must keep a minimum of three pods, whatever the "
            "autoscaler decides",
            "three pods is the floor for the ride-matching service when the autoscaler scales "
            "it in",
        ),
        neg="The autoscaler is free to scale the ride-matching service all the way down to zero "
        "pods",
        wrong="Never let the autoscaler take the notification service below three pods",
    ),
    dict(
        kind="constraint",
        fact="Payroll runs above $50,000 always need a second approver",
        para=(
            "A payroll run larger than $50,000 cannot go out without approval from a second person",
            "any payroll run exceeding $50,000 requires sign-off by a second approver",
        ),
        neg="Payroll runs above $50,000 never need a second approver; one approval is enough",
        wrong="Expense reimbursements above $50,000 always need a second approver",
    ),
    dict(
        kind="constraint",
        fact="Reject timesheets submitted more than seven days after the pay period closes",
        para=(
            "Timesheets that arrive over seven days after the close of the pay period must be "
            "refused",
            "a timesheet is accepted only if it comes in within seven days of the pay period "
            "closing",
        ),
        neg="Late timesheets are accepted whenever they arrive, even weeks after the pay period "
        "has closed",
        wrong="Reject expense claims submitted more than seven days after the pay period closes",
    ),
    dict(
        kind="decision",
        fact="load the sales tables into Snowflake in nightly batches instead of streaming every "
        "change",
        para=(
            "sales tables are brought into Snowflake by a nightly batch load rather than a "
            "stream of changes",
            "we went with one batch load of the sales tables into Snowflake per night; "
            "streaming each change was not chosen",
        ),
        neg="nightly batch loads of the sales tables were scrapped in favour of streaming every "
        "change into Snowflake",
        wrong="load the marketing tables into Snowflake in nightly batches instead of streaming "
        "every change",
        swap="load the sales tables into Snowflake by streaming every change instead of in "
        "nightly batches",
    ),
    dict(
        kind="decision",
        fact="merge concurrent whiteboard edits with a CRDT rather than locking shapes",
        para=(
            "simultaneous changes to the whiteboard are reconciled by a CRDT, and shapes are "
            "not locked",
            "a CRDT takes care of concurrent edits on the whiteboard; we do not lock shapes",
        ),
        neg="the CRDT was turned down for the whiteboard, and a shape is locked while someone "
        "is editing it",
        wrong="merge concurrent floor-plan edits with a CRDT rather than locking shapes",
        swap="merge concurrent whiteboard edits by locking shapes rather than with a CRDT",
    ),
    dict(
        kind="decision",
        fact="cap surge pricing at twice the normal fare",
        para=(
            "surge prices can rise to double the regular fare but no higher",
            "the surge multiplier tops out at 2x the normal fare",
        ),
        neg="during peaks, surge pricing may climb to five times the normal fare",
        wrong="cap airport pickup fees at twice the normal fare",
    ),
    dict(
        kind="decision",
        fact="collect contract signatures on our own signing page instead of through DocuSign",
        para=(
            "contracts are signed on a signing page we built ourselves, not in DocuSign",
            "we picked an in-house signing page over DocuSign for collecting signatures on "
            "contracts",
        ),
        neg="we are keeping DocuSign for contract signatures rather than building our own "
        "signing page",
        wrong="collect purchase order approvals on our own signing page instead of through "
        "DocuSign",
        swap="collect contract signatures through DocuSign instead of on our own signing page",
    ),
    dict(
        kind="decision",
        fact="give back a gym class credit when the member cancels at least 12 hours ahead",
        para=(
            "members who cancel a class 12 or more hours before it starts get their credit "
            "refunded",
            "a cancellation made no later than 12 hours before the class returns the member's "
            "credit",
        ),
        neg="the credit for a cancelled class is forfeited, even when the member cancels days "
        "in advance",
        wrong="give back a personal training credit when the member cancels at least 12 hours "
        "ahead",
    ),
    dict(
        kind="decision",
        fact="hold flagged marketplace photos in a moderation queue instead of publishing them "
        "right away",
        para=(
            "flagged photos on the marketplace wait in a moderation queue rather than going "
            "live immediately",
            "flagged marketplace photos are not published straight away; a moderation queue "
            "gets them first",
        ),
        neg="flagged marketplace photos go live at once, and moderators only review them "
        "afterwards",
        wrong="hold flagged marketplace reviews in a moderation queue instead of publishing them "
        "right away",
        swap="publish flagged marketplace photos right away instead of holding them in a "
        "moderation queue",
    ),
    dict(
        kind="decision",
        fact="provision enterprise user accounts through SCIM rather than a nightly CSV import",
        para=(
            "accounts for enterprise users are created via SCIM, not by importing a CSV every "
            "night",
            "we provision the accounts of enterprise users over SCIM, with no nightly CSV import",
        ),
        neg="we passed on SCIM for enterprise accounts and kept the nightly CSV import",
        wrong="provision partner user accounts through SCIM rather than a nightly CSV import",
        swap="provision enterprise user accounts through a nightly CSV import rather than SCIM",
    ),
    dict(
        kind="decision",
        fact="serve map data as vector tiles that the CDN caches for one week",
        para=(
            "map data is delivered in the form of vector tiles, each cached at the CDN for "
            "seven days",
            "we ship the map as vector tiles and let the CDN keep them for a week",
        ),
        neg="map data is rendered to raster images on every request and is never cached",
        wrong="serve elevation data as vector tiles that the CDN caches for one week",
    ),
    dict(
        kind="decision",
        fact="close online booking for a dinner service two hours before it begins",
        para=(
            "online reservations for a dinner service are no longer taken from two hours "
            "before it starts",
            "two hours ahead of each dinner service, shut the online booking for it",
        ),
        neg="online booking for a dinner service stays open right up until the first guests "
        "sit down",
        wrong="close online booking for a lunch service two hours before it begins",
    ),
    dict(
        kind="next_step",
        fact="require a barcode scan before a pick list item can be marked as picked",
        para=(
            "a pick list item should only be markable as picked after its barcode has been scanned",
            "make pickers scan the barcode first; only then may the item on the pick list be "
            "marked picked",
        ),
        neg="let pickers mark pick list items as picked without scanning any barcode",
        wrong="require a barcode scan before a packing slip item can be marked as packed",
    ),
    dict(
        kind="next_step",
        fact="send patients an appointment reminder 24 hours before each visit",
        para=(
            "patients should be reminded of every appointment by a message 24 hours ahead of "
            "the visit",
            "set up reminders that reach patients 24 hours prior to each of their visits",
        ),
        neg="we are not going ahead with appointment reminders 24 hours before visits",
        wrong="send patients a prescription refill reminder 24 hours before each visit",
    ),
    dict(
        kind="next_step",
        fact="raise the library late fee from 20 cents to 50 cents a day",
        para=(
            "increase the daily late fee for library loans to 50 cents, up from 20 cents",
            "overdue library items should cost 50 cents per day from now on instead of 20 cents",
        ),
        neg="keep the library late fee at 20 cents a day rather than raising it to 50 cents",
        wrong="raise the parking late fee from 20 cents to 50 cents a day",
    ),
    dict(
        kind="next_step",
        fact="hide follow-up questions in the onboarding survey when the previous answer is No",
        para=(
            "the onboarding survey should not display a follow-up question whose preceding "
            "answer is No",
            "make the follow-up questions of the onboarding survey disappear whenever the "
            "answer before them is No",
        ),
        neg="show every follow-up question in the onboarding survey, even when the previous "
        "answer is No",
        wrong="hide follow-up questions in the exit survey when the previous answer is No",
    ),
    dict(
        kind="next_step",
        fact="deliver severe weather alerts to subscribers within two minutes of a warning being "
        "issued",
        para=(
            "subscribers should get each severe weather alert no later than two minutes after "
            "the warning is issued",
            "push out severe weather alerts so that subscribers have them at most two minutes "
            "after a warning goes out",
        ),
        neg="bundle severe weather alerts into an hourly digest for subscribers",
        wrong="deliver air quality alerts to subscribers within two minutes of a warning being "
        "issued",
    ),
    dict(
        kind="next_step",
        fact="lock a contract once it is signed so that none of its clauses can be edited",
        para=(
            "signed contracts should become read-only, with their clauses no longer changeable",
            "freeze each contract as soon as it is signed and block any edit to its clauses",
        ),
        neg="unlock signed contracts so that their clauses remain editable",
        wrong="lock a purchase order once it is signed so that none of its clauses can be edited",
    ),
    dict(
        kind="next_step",
        fact="start the Snowflake load only after the nightly backup has finished",
        para=(
            "the Snowflake load must not begin before the nightly backup is done",
            "wait for the nightly backup to complete, then kick off the Snowflake load",
        ),
        neg="start the Snowflake load while the nightly backup is still running so the two overlap",
        wrong="start the search reindex only after the nightly backup has finished",
    ),
)
FRESH5_BLOCKERS = (
    (
        "Error: COPY INTO SALES_DAILY failed: number of columns in file (14) does not match "
        "the table (13) (etl/load_sales.sql)",
        "Error: COPY INTO SALES_DAILY failed: number of columns in file (15) does not match "
        "the table (13) (etl/load_sales.sql)",
    ),
    (
        "TypeError: Cannot read properties of null (reading 'cursorColor') "
        "(src/whiteboard/presence.ts:88:24)",
        "TypeError: Cannot read properties of null (reading 'cursorLabel') "
        "(src/whiteboard/presence.ts:88:24)",
    ),
    (
        "error TS2345: Argument of type 'number' is not assignable to parameter of type "
        "'Cents' (src/library/fees.ts:19:31)",
        "error TS2345: Argument of type 'number' is not assignable to parameter of type "
        "'Cents' (src/library/fines.ts:19:31)",
    ),
    (
        "Error: OTA manifest signature mismatch for thermostat firmware 4.2.1 "
        "(firmware/ota/verify.ts)",
        "Error: OTA manifest signature mismatch for thermostat firmware 4.2.0 "
        "(firmware/ota/verify.ts)",
    ),
)
FRESH5_COMMANDS = (
    ("dbt build --select sales_daily", "dbt build --select sales_daily+"),
    ("yarn workspace @app/whiteboard test", "yarn workspace @app/whiteboard test:e2e"),
    ("make firmware-check", "make firmware-check-all"),
)
FRESH5_SUPERSEDED = (
    dict(
        old="send waitlist text messages through Twilio",
        new="send waitlist text messages through MessageBird",
        report="Waitlist SMS now goes out via MessageBird; Twilio is no longer used for it",
    ),
    dict(
        old="store van positions in plain PostgreSQL tables",
        new="store van positions in TimescaleDB hypertables",
        report="Moved the van position data out of plain PostgreSQL tables into TimescaleDB "
        "hypertables",
    ),
    dict(
        old="give each online exam 90 minutes",
        new="give each online exam 120 minutes",
        report="Online exams were lengthened from 90 to 120 minutes",
    ),
    dict(
        old="hand out spots in full gym classes first come, first served",
        new="hand out spots in full gym classes by lottery",
        report="Full gym classes now fill their spots by lottery rather than first come, first "
        "served",
    ),
    dict(
        old="ship thermostat firmware as full images",
        new="ship thermostat firmware as binary deltas",
        report="Thermostat firmware updates switched from full images to binary deltas, which "
        "shrank the downloads",
    ),
)
FRESH5_FILES = (
    ("src/waitlist/sms.ts", "src/waitlist/sms.test.ts"),
    ("etl/models/sales_daily.sql", "etl/models/sales_weekly.sql"),
    ("firmware/ota/manifest.json", "firmware/ota/manifest.schema.json"),
    ("src/whiteboard/crdt/merge.ts", "src/whiteboard/merge.ts"),
    ("services/payroll/overtime.py", "services/payroll/overtimes.py"),
    ("k8s/ride-matching/hpa.yaml", "k8s/ride-matching/hpa.yml"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-6 bank, the eighth bank: written blind by a separate helper session that had not read
# the matcher's code, any measured figures or any error analysis (veterinary clinic scheduling,
# ski-resort lift passes, solar-inverter telemetry, museum ticketing, parish donations, farm
# irrigation controllers, e-bike rental docks, court e-filing, hotel housekeeping rotas,
# warehouse forklift maintenance, a recipe app's shopping lists, newsroom CMS embargoes,
# genealogy record merges, parking-garage sensors, a choir's sheet-music library, brewery batch
# tracking, dental x-ray archiving, airline crew rostering, a language-learning app's streaks,
# municipal pothole reports). Negations are explicit and implicit (no negation word) in about
# equal parts, with the implicit ones in the majority; the tail items use their own speaker
# lead-ins.
FRESH6_PROSE = (
    dict(
        kind="goal",
        fact="Let pet owners book vet appointments online and pick a specific vet",
        para=(
            "Pet owners should be able to schedule a visit to the veterinary clinic over the "
            "web, choosing which vet they will see",
            "online booking of vet appointments, where the owner chooses the particular "
            "veterinarian",
        ),
        neg="Vet appointments are booked by phoning the front desk, which assigns whichever vet "
        "happens to be free",
        wrong="Let pet owners book grooming appointments online and pick a specific groomer",
    ),
    dict(
        kind="goal",
        fact="Sell ski lift passes online and load them straight onto the guest's RFID card",
        para=(
            "Guests should be able to buy lift passes on the web and have each one written "
            "directly to their RFID card",
            "web sales of lift passes, with every purchase put right onto the skier's RFID card",
        ),
        neg="Lift passes will not be sold online; guests still queue at the ticket window for a "
        "paper pass",
        wrong="Sell ski lesson vouchers online and load them straight onto the guest's RFID card",
    ),
    dict(
        kind="goal",
        fact="Alert the site owner when a solar inverter stops reporting telemetry for 15 minutes",
        para=(
            "If a solar inverter has sent no telemetry for a quarter of an hour, the owner of "
            "the site gets an alert",
            "a notification to the site owner whenever an inverter goes silent on telemetry "
            "for fifteen minutes",
        ),
        neg="A solar inverter that goes silent stays unnoticed until the site owner happens to "
        "open the dashboard",
        wrong="Alert the site owner when a battery charger stops reporting telemetry for 15 "
        "minutes",
    ),
    dict(
        kind="goal",
        fact="Let museum visitors buy timed-entry tickets for a half-hour slot they choose",
        para=(
            "Visitors to the museum should be able to purchase a ticket valid for entry during "
            "a 30-minute window of their choosing",
            "timed entry at the museum, where each visitor selects the half-hour slot in which "
            "they arrive",
        ),
        neg="Museum tickets stay open-dated and admit the holder at any hour of the day they "
        "were bought for",
        wrong="Let zoo visitors buy timed-entry tickets for a half-hour slot they choose",
    ),
    dict(
        kind="goal",
        fact="Send every donor a yearly tax receipt that totals their gifts to the parish",
        para=(
            "Once a year, each donor should receive a tax receipt adding up everything they "
            "gave to the parish",
            "an annual tax receipt for each donor, showing the sum of their donations to the "
            "parish",
        ),
        neg="Donors do not get any yearly tax receipt for what they give to the parish",
        wrong="Send every donor a yearly tax receipt that totals their gifts to the food bank",
    ),
    dict(
        kind="goal",
        fact="Have the irrigation controllers skip watering when rain is forecast within 24 hours",
        para=(
            "The irrigation controllers should not water if the forecast shows rain in the "
            "coming 24 hours",
            "irrigation controllers that hold off on watering whenever rain is expected within "
            "a day",
        ),
        neg="The irrigation controllers water on their fixed schedule, rain or shine, whatever "
        "the forecast says",
        wrong="Have the greenhouse misters skip watering when rain is forecast within 24 hours",
    ),
    dict(
        kind="goal",
        fact="Let riders unlock an e-bike at any dock by scanning its QR code in the app",
        para=(
            "Riders should be able to release an e-bike from whichever dock it sits in by "
            "scanning the bike's QR code with the app",
            "app-based QR unlocking of e-bikes that works at every one of the docks",
        ),
        neg="Riders cannot unlock e-bikes from the app; a staff member has to release each bike "
        "from its dock",
        wrong="Let riders unlock a cargo trike at any dock by scanning its QR code in the app",
    ),
    dict(
        kind="goal",
        fact="Let attorneys file court documents electronically and get a stamped copy back by "
        "email",
        para=(
            "Attorneys should be able to submit their filings to the court online and receive "
            "the file-stamped copy via email",
            "electronic filing for attorneys, with the court's stamped copy emailed back to them",
        ),
        neg="Attorneys keep carrying paper filings to the clerk's counter and pick up the "
        "stamped copy in person",
        wrong="Let attorneys file patent applications electronically and get a stamped copy back "
        "by email",
    ),
    dict(
        kind="constraint",
        fact="Never let a forklift back into service while its brake inspection is overdue",
        para=(
            "A forklift whose brake inspection is overdue must stay out of service until it has "
            "been inspected",
            "forklifts may return to service only once their brake inspections are up to date",
        ),
        neg="Forklifts with an overdue brake inspection go back to work as usual and are "
        "inspected whenever a technician is free",
        wrong="Never let a pallet jack back into service while its brake inspection is overdue",
    ),
    dict(
        kind="constraint",
        fact="Keep embargoed stories hidden from the public site until the embargo lifts",
        para=(
            "An embargoed story must not be visible on the public site before its embargo ends",
            "the public site shows an embargoed story only after its embargo has been lifted",
        ),
        neg="Embargoed stories appear on the public site as soon as an editor saves them, ahead "
        "of the embargo time",
        wrong="Keep embargoed stories hidden from the syndication feed until the embargo lifts",
    ),
    dict(
        kind="constraint",
        fact="Only a genealogist with reviewer rights may merge two person records",
        para=(
            "Merging a pair of person records is reserved for genealogists who hold reviewer "
            "rights",
            "nobody except a genealogist with reviewer rights is allowed to merge person records",
        ),
        neg="Merging person records is not restricted to reviewers; any registered user may do it",
        wrong="Only a genealogist with reviewer rights may merge two family trees",
    ),
    dict(
        kind="constraint",
        fact="Store dental x-rays for at least ten years after the patient's last visit",
        para=(
            "Dental x-ray images have to be retained for a minimum of a decade after the "
            "patient was last seen",
            "no dental x-ray may be deleted before ten years have passed since the patient's "
            "last visit",
        ),
        neg="Dental x-rays are not kept beyond one year after the patient's last visit",
        wrong="Store dental treatment notes for at least ten years after the patient's last visit",
    ),
    dict(
        kind="constraint",
        fact="A pilot may not be rostered for more than 13 duty hours in one day",
        para=(
            "No pilot's roster can include over 13 hours of duty in a single day",
            "pilots are capped at 13 duty hours per day on the roster",
        ),
        neg="Pilots can be rostered for 16 duty hours in a day whenever the schedule is tight",
        wrong="A flight attendant may not be rostered for more than 13 duty hours in one day",
    ),
    dict(
        kind="constraint",
        fact="Count a lesson toward the streak only if the learner finishes it before local "
        "midnight",
        para=(
            "A lesson keeps the streak going solely when the learner completes it ahead of "
            "midnight in their own time zone",
            "a lesson finished after local midnight is not counted toward that day's streak; "
            "only ones completed before it are",
        ),
        neg="A lesson counts toward the streak whenever it is finished, even hours after local "
        "midnight",
        wrong="Count a quiz toward the streak only if the learner finishes it before local "
        "midnight",
    ),
    dict(
        kind="constraint",
        fact="Never show a resident's name on a public pothole report",
        para=(
            "Residents' names must be kept off any pothole report that the public can see",
            "public pothole reports are displayed without the name of the resident who filed them",
        ),
        neg="Each public pothole report displays the full name of the resident who submitted it",
        wrong="Never show a resident's name on a public noise complaint",
    ),
    dict(
        kind="constraint",
        fact="Lend sheet music from the choir library only to singers on the current roster",
        para=(
            "Only singers listed on the current choir roster can borrow sheet music from the "
            "library",
            "the choir library's sheet music goes out on loan exclusively to singers who are on "
            "the present roster",
        ),
        neg="The choir library does not limit sheet music loans to singers on the current "
        "roster; former members and visitors may borrow too",
        wrong="Lend concert recordings from the choir library only to singers on the current "
        "roster",
    ),
    dict(
        kind="constraint",
        fact="Keep every brewery batch's fermentation temperature between 18 and 22 °C",
        para=(
            "Fermentation temperature for each batch at the brewery must stay within the "
            "18-22 °C range",
            "no brewery batch should ferment below 18 °C or above 22 °C",
        ),
        neg="Brewery batches are not held to any fermentation temperature range",
        wrong="Keep every brewery batch's conditioning temperature between 18 and 22 °C",
    ),
    dict(
        kind="constraint",
        fact="Parking sensors must report a bay as occupied within five seconds of a car arriving",
        para=(
            "A car pulling into a bay should show up as occupied from the parking sensor in "
            "five seconds or less",
            "within 5 seconds after a car arrives, the sensor needs to have marked its bay "
            "occupied",
        ),
        neg="Parking sensors may take up to ten minutes after a car arrives before they mark "
        "the bay occupied",
        wrong="Entry barrier cameras must report a bay as occupied within five seconds of a car "
        "arriving",
    ),
    dict(
        kind="decision",
        fact="track each brewery batch with a QR label instead of a handwritten tank tag",
        para=(
            "every brewery batch gets a QR label for tracking rather than a tag written by hand "
            "on the tank",
            "we chose QR labels over handwritten tank tags to follow brewery batches",
        ),
        neg="the brewery kept its handwritten tank tags and dropped the QR label idea",
        wrong="track each hop delivery with a QR label instead of a handwritten tank tag",
        swap="track each brewery batch with a handwritten tank tag instead of a QR label",
    ),
    dict(
        kind="decision",
        fact="archive dental x-rays in DICOM format rather than as JPEG files",
        para=(
            "dental x-rays go into the archive as DICOM, not as JPEGs",
            "the x-ray archive holds DICOM files; JPEG was passed over",
        ),
        neg="dental x-rays will not be archived as DICOM; they are saved as plain JPEG files",
        wrong="archive intraoral photos in DICOM format rather than as JPEG files",
        swap="archive dental x-rays as JPEG files rather than in DICOM format",
    ),
    dict(
        kind="decision",
        fact="poll the solar inverters over Modbus every 60 seconds instead of waiting for them "
        "to push data",
        para=(
            "the inverters are polled via Modbus once a minute; we do not rely on them pushing "
            "their data",
            "a one-minute Modbus poll of each solar inverter, in place of inverter-initiated "
            "pushes",
        ),
        neg="the Modbus polling was scrapped, and the solar inverters now push their readings "
        "whenever they choose",
        wrong="poll the weather stations over Modbus every 60 seconds instead of waiting for "
        "them to push data",
        swap="wait for the solar inverters to push data instead of polling them over Modbus "
        "every 60 seconds",
    ),
    dict(
        kind="decision",
        fact="settle genealogy merge conflicts by keeping the record with more cited sources",
        para=(
            "when two genealogy records clash during a merge, the one backed by more source "
            "citations wins",
            "in a merge conflict we retain whichever record cites the larger number of sources",
        ),
        neg="genealogy merge conflicts are settled by keeping the most recently edited record, "
        "whatever its sources",
        wrong="settle genealogy merge conflicts by keeping the record with more attached photos",
    ),
    dict(
        kind="decision",
        fact="rotate housekeepers between floors every week rather than fixing each one to a floor",
        para=(
            "housekeepers move to a different floor each week instead of staying on the same one",
            "weekly floor rotation for the housekeeping staff; nobody is permanently assigned a "
            "floor",
        ),
        neg="housekeepers will never rotate; each one stays on a fixed floor",
        wrong="rotate room-service waiters between floors every week rather than fixing each one "
        "to a floor",
        swap="fix each housekeeper to a floor rather than rotating them between floors every week",
    ),
    dict(
        kind="decision",
        fact="price ski lift passes dynamically, making them cheaper the earlier they are bought",
        para=(
            "lift pass prices vary with timing, so buying early costs less",
            "dynamic lift pass pricing in which an earlier purchase gets a lower price",
        ),
        neg="lift passes are not priced dynamically; they cost the same whenever they are bought",
        wrong="price ski rental packages dynamically, making them cheaper the earlier they are "
        "bought",
    ),
    dict(
        kind="decision",
        fact="email donation receipts as PDFs instead of posting them",
        para=(
            "donation receipts are sent as PDF files by email rather than through the mail",
            "we send donors their receipts in PDF form by email, and stopped putting them in "
            "the post",
        ),
        neg="donation receipts continue to go out by post as printed letters",
        wrong="email pledge statements as PDFs instead of posting them",
        swap="post donation receipts instead of emailing them as PDFs",
    ),
    dict(
        kind="decision",
        fact="charge e-bike batteries at the docks rather than swapping them at a depot",
        para=(
            "e-bike batteries get recharged right at the docks, without being exchanged at a depot",
            "we top up e-bike batteries while the bikes sit in the docks instead of swapping "
            "them out at the depot",
        ),
        neg="e-bike batteries are not charged at the docks; vans take them to the depot to be "
        "swapped",
        wrong="charge cargo-bike batteries at the docks rather than swapping them at a depot",
        swap="swap e-bike batteries at a depot rather than charging them at the docks",
    ),
    dict(
        kind="decision",
        fact="assign cabin crew to flights with a solver that minimises hotel nights",
        para=(
            "crew rostering uses an optimisation solver whose objective is the fewest hotel nights",
            "a solver puts cabin crews on flights, aiming to keep overnight hotel stays as low "
            "as possible",
        ),
        neg="the duty manager puts cabin crew on flights by hand, on a first come, first served "
        "basis",
        wrong="assign ground crew to flights with a solver that minimises hotel nights",
    ),
    dict(
        kind="next_step",
        fact="remind pet owners two days before their vet appointment",
        para=(
            "pet owners should get a reminder 48 hours ahead of each vet visit",
            "send owners a reminder of their pet's appointment at the clinic two days in advance",
        ),
        neg="do not send pet owners any reminder before their vet appointment",
        wrong="remind pet owners two days before their grooming appointment",
    ),
    dict(
        kind="next_step",
        fact="merge duplicate pothole reports that are within 20 meters of each other",
        para=(
            "pothole reports less than 20 meters apart should be combined into a single report",
            "combine any pothole reports lying within 20 m of one another, since they describe "
            "the same hole",
        ),
        neg="keep every pothole report as its own ticket, even when two sit a few meters apart",
        wrong="merge duplicate streetlight reports that are within 20 meters of each other",
    ),
    dict(
        kind="next_step",
        fact="disable the streak freeze for learners on the free plan",
        para=(
            "learners on the free plan should no longer be able to use a streak freeze",
            "switch off streak freezes for free-plan learners",
        ),
        neg="enable the streak freeze for learners on the free plan",
        wrong="disable the streak freeze for learners on the family plan",
    ),
    dict(
        kind="next_step",
        fact="show a live count of free spaces on each level of the parking garage",
        para=(
            "every garage level should display how many spaces are currently free, updated live",
            "put a real-time free-space counter on each level of the parking garage",
        ),
        neg="do not show any free-space count on the levels of the parking garage",
        wrong="show a live count of free lockers on each level of the parking garage",
    ),
    dict(
        kind="next_step",
        fact="lock out a forklift in the app once its hour meter passes the service interval",
        para=(
            "when a forklift's hour meter goes beyond its service interval, the app should "
            "block it from use",
            "have the app mark a forklift as locked out as soon as its running hours exceed the "
            "service interval",
        ),
        neg="never lock out a forklift in the app, whatever its hour meter reads",
        wrong="lock out a floor scrubber in the app once its hour meter passes the service "
        "interval",
    ),
    dict(
        kind="next_step",
        fact="require sign-off from two editors before an embargo time is changed",
        para=(
            "changing an embargo time should need approval from two editors",
            "an embargo time may not be altered unless two editors have signed off",
        ),
        neg="let any single editor change an embargo time on their own",
        wrong="require sign-off from two editors before a headline is changed",
    ),
    dict(
        kind="next_step",
        fact="scale the quantities on the shopping list when the user changes a recipe's servings",
        para=(
            "changing the number of servings for a recipe should adjust the amounts on the "
            "shopping list to match",
            "make the shopping list quantities follow the recipe's serving count whenever the "
            "user edits it",
        ),
        neg="leave the shopping list quantities fixed at the original recipe's amounts, "
        "whatever servings the user picks",
        wrong="scale the quantities on the meal plan when the user changes a recipe's servings",
    ),
    dict(
        kind="next_step",
        fact="block a lift pass from being scanned at two different lifts within five minutes",
        para=(
            "a lift pass scanned at one lift should be refused at any other lift for the next "
            "five minutes",
            "stop pass sharing by rejecting a second scan of the same lift pass at another lift "
            "inside five minutes",
        ),
        neg="allow a lift pass to be scanned at two different lifts a minute apart, as often "
        "as the guest likes",
        wrong="block a sledding pass from being scanned at two different lifts within five minutes",
    ),
)
FRESH6_BLOCKERS = (
    (
        "Error: Modbus read timeout on inverter INV-07 register 30775 after 3000 ms "
        "(telemetry/modbus/poll.py)",
        "Error: Modbus read timeout on inverter INV-07 register 30777 after 3000 ms "
        "(telemetry/modbus/poll.py)",
    ),
    (
        "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "
        '"person_merge_pkey" (genealogy/merge/apply.py:142)',
        "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "
        '"person_merge_source_key" (genealogy/merge/apply.py:142)',
    ),
    (
        "error TS2322: Type 'string' is not assignable to type 'EmbargoTime' "
        "(src/cms/embargo/schedule.ts:57:9)",
        "error TS2322: Type 'string' is not assignable to type 'EmbargoTime' "
        "(src/cms/embargo/scheduler.ts:57:9)",
    ),
    (
        "ValueError: fermentation target 24.5 outside allowed range 18.0-22.0 "
        "(brewery/batches/validate.py:31)",
        "ValueError: conditioning target 24.5 outside allowed range 18.0-22.0 "
        "(brewery/batches/validate.py:31)",
    ),
    (
        "Error: ENOENT: no such file or directory, open 'fixtures/crew/roster-2024-11.csv' "
        "(scripts/import-roster.ts)",
        "Error: ENOENT: no such file or directory, open 'fixtures/crew/roster-2024-12.csv' "
        "(scripts/import-roster.ts)",
    ),
)
FRESH6_COMMANDS = (
    ("pytest tests/telemetry -q", "pytest tests/telemetry/modbus -q"),
    ("pnpm --filter @vet/booking test", "pnpm --filter @vet/booking test:watch"),
    ("cargo test -p irrigation-controller", "cargo test -p irrigation-controller --release"),
)
FRESH6_SUPERSEDED = (
    dict(
        old="deliver museum tickets as PNG attachments holding the QR code",
        new="deliver museum tickets as Apple and Google wallet passes",
        report="Museum tickets now arrive as wallet passes instead of PNG attachments with the "
        "QR code",
    ),
    dict(
        old="publish cabin crew rosters four weeks ahead",
        new="publish cabin crew rosters six weeks ahead",
        report="Cabin crew rosters are now published six weeks in advance, up from four",
    ),
    dict(
        old="route pothole reports to the city's shared email inbox",
        new="route pothole reports into the public works ticketing system",
        report="Pothole reports stopped going to the city's shared email inbox; they are filed "
        "straight into the public works ticketing system",
    ),
    dict(
        old="reset a learner's streak after one missed day",
        new="reset a learner's streak after two missed days in a row",
        report="Streaks now survive a single missed day and reset only after two in a row",
    ),
    dict(
        old="read the parking bay sensors over LoRaWAN",
        new="read the parking bay sensors over NB-IoT",
        report="Moved the parking bay sensors from LoRaWAN over to NB-IoT",
    ),
)
FRESH6_FILES = (
    ("src/vet/booking/slots.ts", "src/vet/booking/slot.ts"),
    ("telemetry/modbus/registers.toml", "telemetry/modbus/registers.json"),
    ("apps/cms/embargo/release_job.rb", "apps/cms/embargo/release_job_spec.rb"),
    ("brewery/batches/tracking.py", "brewery/tanks/tracking.py"),
    ("crew/roster/solver.go", "crew/roster/solver_test.go"),
    ("db/migrations/0042_dental_xray_archive.sql", "db/migrations/0043_dental_xray_archive.sql"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-7 bank, the ninth bank: written blind by a separate helper session that read only this
# file, write_cases.py and the first part of README.md (harbour tide tables, beekeeping hive
# logs, bike-courier dispatch, orchestra rehearsals, cold-chain vaccine fridges, ferry
# ticketing, community garden plots, snowplough priorities, theatre lighting cues, marathon
# chip timing, trawler catch logbooks, police evidence lockers, telescope observing time,
# laundromat machines, chess tournament pairings, a coffee roastery's roast profiles, survey
# drones, a dive centre's tank fills, school bus tracking, a recycling centre's weighbridge).
# Most negations carry no negation word (lexical opposites, verdicts such as "was rejected" or
# "dropped from scope", implicit ones); some paraphrases change one or two words of the fact to
# a synonym; the tail items use their own speaker lead-ins.
FRESH7_PROSE = (
    dict(
        kind="goal",
        fact="Publish a tide table for every harbour berth listing the next four high and low "
        "waters",
        para=(
            "Every berth in the harbour gets its own published tide table, with the next four "
            "high and low waters listed on it",
            "Publish a tide table for every harbour berth listing the upcoming four high and low "
            "waters",
        ),
        neg="All berths share one harbour-wide tide chart; per-berth tide tables were dropped "
        "from scope",
        wrong="Publish a tide table for every marina pontoon listing the next four high and low "
        "waters",
    ),
    dict(
        kind="goal",
        fact="Let beekeepers log each hive inspection on their phone while offline in the apiary",
        para=(
            "Beekeepers should be able to record every hive inspection from a phone out in the "
            "apiary, even when it has no connection",
            "offline logging of each hive inspection on the beekeeper's phone, right there in "
            "the apiary",
        ),
        neg="Hive inspections are written on paper in the apiary and typed into the office "
        "computer at the end of the day",
        wrong="Let beekeepers log each honey extraction on their phone while offline in the apiary",
    ),
    dict(
        kind="goal",
        fact="Offer each new delivery job first to the nearest available bike courier",
        para=(
            "Whenever a delivery job comes in, the first offer should go to the closest bike "
            "courier who is free",
            "Offer each new delivery job first to the closest available bike courier",
        ),
        neg="New delivery jobs go to the bike couriers in strict rotation, regardless of how far "
        "away each rider is",
        wrong="Offer each new delivery job first to the nearest available van driver",
    ),
    dict(
        kind="goal",
        fact="Let foot passengers buy ferry tickets in the app and board by scanning a barcode at "
        "the gate",
        para=(
            "Foot passengers should be able to purchase their ferry ticket through the app and "
            "then get on board by having a barcode scanned at the gate",
            "app-based ferry ticket sales for foot passengers, with boarding done by a barcode "
            "scan at the gate",
        ),
        neg="Foot passengers cannot buy ferry tickets in the app; they pay the purser in cash "
        "once on board",
        wrong="Let foot passengers buy water-taxi tickets in the app and board by scanning a "
        "barcode at the gate",
    ),
    dict(
        kind="goal",
        fact="Let astronomers request observing time on the 2-metre telescope through a web form",
        para=(
            "Astronomers should be able to ask for time on the 2-metre telescope by filling in "
            "a form on the web",
            "Let astronomers apply for observing time on the 2-metre telescope through a web form",
        ),
        neg="Observing time on the 2-metre telescope is handed out by the director over email, "
        "case by case",
        wrong="Let astronomers request observing time on the 4-metre telescope through a web form",
    ),
    dict(
        kind="goal",
        fact="Publish each runner's split time live as they cross every timing mat on the "
        "marathon course",
        para=(
            "As a runner passes over any timing mat on the marathon course, their split time "
            "should appear live",
            "live publication of every runner's split times at each of the timing mats along "
            "the marathon course",
        ),
        neg="Runners' split times stay private until the marathon is over, and then all results "
        "are posted at once",
        wrong="Publish each runner's split time live as they cross every timing mat on the 10K "
        "course",
    ),
    dict(
        kind="goal",
        fact="Show parents where their child's school bus is on a map, refreshed every 30 seconds",
        para=(
            "Parents should see their child's school bus on a map, with its position updated "
            "twice a minute",
            "Show parents where their child's school bus is on a map, updated every 30 seconds",
        ),
        neg="Parents will not be shown the position of their child's school bus on any map",
        wrong="Show parents where their child's activity-club minibus is on a map, refreshed "
        "every 30 seconds",
    ),
    dict(
        kind="goal",
        fact="Charge trade customers at the recycling centre by the net weight recorded on the "
        "weighbridge",
        para=(
            "Trade customers of the recycling centre should be billed according to the net "
            "weight that the weighbridge records",
            "weighbridge-based charging for trade customers at the recycling centre, using the "
            "net weight it recorded",
        ),
        neg="Trade customers at the recycling centre pay a flat fee per vehicle, whatever the "
        "weighbridge records",
        wrong="Charge household visitors at the recycling centre by the net weight recorded on "
        "the weighbridge",
    ),
    dict(
        kind="constraint",
        fact="Never give a vaccine dose from a fridge whose log shows a reading above 8 °C",
        para=(
            "A vaccine dose must not be administered if it comes from a fridge with a logged "
            "temperature over 8 °C",
            "doses from any vaccine fridge that has logged a reading higher than 8 °C are off "
            "limits for patients",
        ),
        neg="Doses from a vaccine fridge that logged a reading above 8 °C may still be given to "
        "patients as usual",
        wrong="Never give a vaccine dose from a cool box whose log shows a reading above 8 °C",
    ),
    dict(
        kind="constraint",
        fact="Every transfer of an evidence item must be signed by both the releasing and the "
        "receiving officer",
        para=(
            "Both officers, the one releasing an evidence item and the one receiving it, have "
            "to sign each transfer",
            "Every handover of an evidence item must be signed by both the releasing and the "
            "receiving officer",
        ),
        neg="An evidence item may change hands on the receiving officer's signature alone",
        wrong="Every transfer of a lab sample must be signed by both the releasing and the "
        "receiving officer",
    ),
    dict(
        kind="constraint",
        fact="Never pair two players who have already met earlier in the same tournament",
        para=(
            "Two players who have faced each other once in a tournament must not be paired "
            "against each other again in it",
            "a rematch within the same tournament is forbidden: players who already met there "
            "are never paired again",
        ),
        neg="Players who already met earlier in the tournament may be paired again whenever the "
        "scores call for it",
        wrong="Never pair two teams who have already met earlier in the same tournament",
    ),
    dict(
        kind="constraint",
        fact="Refuse a nitrox fill unless the diver shows a valid enriched-air certification card",
        para=(
            "Nitrox fills are given only to divers who present a valid enriched-air "
            "certification card",
            "no nitrox fill goes to a diver who cannot show a valid card certifying them for "
            "enriched air",
        ),
        neg="Do not ask divers for any enriched-air certification card before a nitrox fill",
        wrong="Refuse a trimix fill unless the diver shows a valid enriched-air certification card",
    ),
    dict(
        kind="constraint",
        fact="A survey drone must never fly higher than 120 metres above ground level",
        para=(
            "The ceiling for any survey drone is 120 metres above ground level",
            "A survey drone must never climb higher than 120 metres above ground level",
        ),
        neg="Survey drones may climb to 300 metres above ground level whenever a job calls for it",
        wrong="A crop-spraying drone must never fly higher than 120 metres above ground level",
    ),
    dict(
        kind="constraint",
        fact="Record every haul in the catch logbook within two hours of landing it on deck",
        para=(
            "Each haul has to be entered in the catch logbook no later than two hours after it "
            "comes on deck",
            "within 2 hours of a haul being landed on deck, it must appear in the catch logbook",
        ),
        neg="Hauls are entered in the catch logbook once the trawler is back in port, days after "
        "they were landed on deck",
        wrong="Record every haul in the processing-plant ledger within two hours of landing it on "
        "deck",
    ),
    dict(
        kind="constraint",
        fact="Only start a washing machine after the payment for that cycle has been confirmed",
        para=(
            "A washing machine may begin its cycle solely once the payment for it is confirmed",
            "until the payment for its cycle is confirmed, a washing machine must stay idle",
        ),
        neg="Washing machines start their cycle straight away, and the payment for it is settled "
        "afterwards",
        wrong="Only start a tumble dryer after the payment for that cycle has been confirmed",
    ),
    dict(
        kind="constraint",
        fact="Give the orchestra a 20-minute break after every 90 minutes of rehearsal",
        para=(
            "Every 90 minutes of rehearsal must be followed by a 20-minute break for the orchestra",
            "Give the orchestra a 20-minute pause after every 90 minutes of rehearsal",
        ),
        neg="The orchestra does not get a break after 90 minutes; rehearsals run straight through",
        wrong="Give the youth band a 20-minute break after every 90 minutes of rehearsal",
    ),
    dict(
        kind="constraint",
        fact="Allot each household no more than one plot in the community garden",
        para=(
            "A household can hold at most a single plot in the community garden",
            "community garden plots are limited to one per household",
        ),
        neg="Households are not limited to one community garden plot; they may rent as many as "
        "they like",
        wrong="Allot each school no more than one plot in the community garden",
    ),
    dict(
        kind="constraint",
        fact="Plough every hospital access road within one hour after snow starts to settle",
        para=(
            "Once snow starts to settle, each access road to a hospital has to be ploughed "
            "inside an hour",
            "Clear every hospital access road within one hour after snow starts to settle",
        ),
        neg="Hospital access roads are ploughed last, after every residential street, however "
        "long that takes",
        wrong="Plough every school access road within one hour after snow starts to settle",
    ),
    dict(
        kind="decision",
        fact="log roast profiles from the roaster's thermocouple instead of writing them down by "
        "hand",
        para=(
            "roast profiles are captured from the roaster's thermocouple rather than handwritten",
            "we record each roast profile straight off the roaster's thermocouple, and nobody "
            "writes them down by hand any more",
        ),
        neg="the thermocouple logging was ruled out; roast profiles stay handwritten",
        wrong="log cooling-tray temperatures from the roaster's thermocouple instead of writing "
        "them down by hand",
        swap="write roast profiles down by hand instead of logging them from the roaster's "
        "thermocouple",
    ),
    dict(
        kind="decision",
        fact="compute tide predictions from harmonic constants rather than interpolating last "
        "year's tables",
        para=(
            "tide predictions are calculated from the harmonic constants, not interpolated from "
            "the previous year's tables",
            "compute tide forecasts from harmonic constants rather than interpolating last year's "
            "tables",
        ),
        neg="the harmonic-constant approach was rejected; tide predictions keep being "
        "interpolated from last year's tables",
        wrong="compute tidal stream predictions from harmonic constants rather than "
        "interpolating last year's tables",
        swap="interpolate tide predictions from last year's tables rather than computing them "
        "from harmonic constants",
    ),
    dict(
        kind="decision",
        fact="pay bike couriers per delivery instead of by the hour",
        para=(
            "couriers on bikes are paid for each delivery they complete rather than for their "
            "hours",
            "per-delivery pay for bike couriers, replacing an hourly wage",
        ),
        neg="bike couriers will not be paid per delivery; they stay on an hourly rate",
        wrong="pay dispatch operators per delivery instead of by the hour",
        swap="pay bike couriers by the hour instead of per delivery",
    ),
    dict(
        kind="decision",
        fact="store lighting cues in the show file on the server instead of in the console's "
        "internal memory",
        para=(
            "the lighting cues live in the show file on the server, rather than inside the "
            "console's own memory",
            "we keep the lighting cues in the server's show file and not in the lighting "
            "console's internal memory",
        ),
        neg="the lighting cues remain in the console's internal memory, and the show file on the "
        "server was abandoned",
        wrong="store sound cues in the show file on the server instead of in the console's "
        "internal memory",
        swap="store lighting cues in the console's internal memory instead of in the show file on "
        "the server",
    ),
    dict(
        kind="decision",
        fact="release an unpaid vehicle-deck reservation on the ferry after 15 minutes",
        para=(
            "a ferry vehicle-deck reservation that is still unpaid gets freed after a quarter of "
            "an hour",
            "vehicle-deck reservations on the ferry lapse if they remain unpaid 15 minutes later",
        ),
        neg="unpaid vehicle-deck reservations on the ferry are never released; they are held "
        "until the sailing departs",
        wrong="release an unpaid cabin reservation on the ferry after 15 minutes",
    ),
    dict(
        kind="decision",
        fact="weigh each hive with a scale fixed under it rather than lifting the boxes by hand",
        para=(
            "hive weights come from a scale mounted beneath each hive, not from lifting the "
            "boxes manually",
            "weigh each hive with a scale mounted under it rather than lifting the boxes by hand",
        ),
        neg="beekeepers keep hefting the boxes by hand to judge each hive's weight; the "
        "under-hive scales were scrapped",
        wrong="weigh each swarm trap with a scale fixed under it rather than lifting the boxes by "
        "hand",
        swap="weigh each hive by lifting the boxes by hand rather than with a scale fixed under it",
    ),
    dict(
        kind="decision",
        fact="rank marathon finishers by chip time instead of gun time",
        para=(
            "marathon finishers are ranked on their chip time, not on the gun time",
            "for the marathon ranking we use each finisher's chip time in place of the gun time",
        ),
        neg="marathon finishers are not ranked by chip time; the gun time decides the order",
        wrong="rank relay teams by chip time instead of gun time",
        swap="rank marathon finishers by gun time instead of chip time",
    ),
    dict(
        kind="decision",
        fact="open evidence lockers with a staff badge plus a six-digit PIN",
        para=(
            "evidence lockers are unlocked by presenting a staff badge together with a six-digit "
            "PIN",
            "a staff badge combined with a 6-digit PIN is what opens the evidence lockers",
        ),
        neg="evidence lockers stay on plain mechanical keys signed out at the front desk",
        wrong="open armoury lockers with a staff badge plus a six-digit PIN",
    ),
    dict(
        kind="decision",
        fact="send school bus delay alerts by SMS as well as by push notification",
        para=(
            "delay alerts for school buses go out both as SMS messages and as push notifications",
            "alongside the push notification, every school bus delay alert is also sent by SMS",
        ),
        neg="school bus delay alerts are sent only by push notification, never by SMS",
        wrong="send school bus route changes by SMS as well as by push notification",
    ),
    dict(
        kind="next_step",
        fact="page the on-call nurse when a vaccine fridge stays above 8 °C for ten minutes",
        para=(
            "if a vaccine fridge's temperature remains over 8 °C for 10 minutes, the on-call "
            "nurse should be paged",
            "page the on-call nurse when a vaccine fridge remains above 8 °C for ten minutes",
        ),
        neg="do not page anyone when a vaccine fridge stays above 8 °C for ten minutes",
        wrong="page the on-call nurse when an insulin fridge stays above 8 °C for ten minutes",
    ),
    dict(
        kind="next_step",
        fact="email each orchestra section its rehearsal call times a week before the concert",
        para=(
            "every section of the orchestra should receive its rehearsal call times by email one "
            "week ahead of the concert",
            "a week before the concert, send every orchestra section an email with its rehearsal "
            "call times",
        ),
        neg="pin the rehearsal call times to the noticeboard on the day of the concert and let "
        "each orchestra section check them there",
        wrong="email each orchestra section its rehearsal call times a week before the recording "
        "session",
    ),
    dict(
        kind="next_step",
        fact="cancel an observing slot automatically when the dome humidity sensor reads over 85%",
        para=(
            "when the dome's humidity sensor shows more than 85%, the observing slot should be "
            "cancelled automatically",
            "have an observing slot called off automatically once the humidity sensor in the "
            "dome reads above 85%",
        ),
        neg="keep every observing slot on the schedule whatever the dome humidity sensor reads, "
        "and leave it to the astronomer to decide whether to open",
        wrong="cancel an observing slot automatically when the control-room humidity sensor "
        "reads over 85%",
    ),
    dict(
        kind="next_step",
        fact="refund the customer automatically when a dryer stops mid-cycle",
        para=(
            "a customer whose dryer halts in the middle of a cycle should get their money back "
            "automatically",
            "reimburse the customer automatically when a dryer stops mid-cycle",
        ),
        neg="never refund a customer automatically when a dryer stops mid-cycle; they have to "
        "claim it at the counter",
        wrong="refund the customer automatically when a washing machine stops mid-cycle",
    ),
    dict(
        kind="next_step",
        fact="upload each round's results to the rating federation as soon as the round ends",
        para=(
            "as each round finishes, its results should be sent to the rating federation right "
            "away",
            "submit the results of every round to the rating federation immediately after that "
            "round is over",
        ),
        neg="hold all results back and send them to the rating federation in one batch after "
        "the final round",
        wrong="upload each round's results to the club newsletter as soon as the round ends",
    ),
    dict(
        kind="next_step",
        fact="geofence the survey drones out of the airport's control zone",
        para=(
            "the survey drones should be fenced off from the control zone around the airport",
            "set up a geofence that keeps the survey drones outside the airport's control zone",
        ),
        neg="let the survey drones fly freely through the airport's control zone",
        wrong="geofence the survey drones out of the nature reserve",
    ),
    dict(
        kind="next_step",
        fact="open a waiting list for households once every community garden plot is taken",
        para=(
            "when all of the community garden plots are allotted, households should be able to "
            "join a waiting list",
            "start a waiting list for households once every community garden plot is taken",
        ),
        neg="do not keep any waiting list for households, even when every community garden plot "
        "is taken",
        wrong="open a waiting list for households once every allotment shed is taken",
    ),
    dict(
        kind="next_step",
        fact="print a weighbridge ticket showing the gross, tare and net weight of each load",
        para=(
            "each load should get a printed weighbridge ticket that gives its gross, tare and "
            "net weights",
            "weighbridge tickets, printed for every load, need to list the gross weight, the "
            "tare weight and the net weight",
        ),
        neg="skip the weighbridge ticket for each load and show its gross, tare and net weight "
        "on the operator's screen instead",
        wrong="print a delivery note showing the gross, tare and net weight of each load",
    ),
)
FRESH7_BLOCKERS = (
    (
        "KeyError: 'M2' missing from harmonic constants for station PORT-04 "
        "(tides/predict/harmonics.py:88)",
        "KeyError: 'S2' missing from harmonic constants for station PORT-04 "
        "(tides/predict/harmonics.py:88)",
    ),
    (
        "java.lang.IllegalStateException: seat map for sailing FR-2231 not loaded "
        "(FerryBookingService.java:214)",
        "java.lang.IllegalStateException: seat map for sailing FR-2213 not loaded "
        "(FerryBookingService.java:214)",
    ),
    (
        "error TS2339: Property 'chipTime' does not exist on type 'SplitRecord' "
        "(src/timing/splits.ts:41:17)",
        "error TS2339: Property 'chipTime' does not exist on type 'SplitResult' "
        "(src/timing/splits.ts:41:17)",
    ),
    (
        "panic: runtime error: index out of range [3] with length 3 (chess/pairing/swiss.go:119)",
        "panic: runtime error: index out of range [3] with length 3 (chess/pairing/swiss.go:191)",
    ),
    (
        "ActiveRecord::RecordInvalid: Validation failed: Tare weight must be less than gross "
        "weight (app/models/weighbridge_ticket.rb:27)",
        "ActiveRecord::RecordInvalid: Validation failed: Net weight must be less than gross "
        "weight (app/models/weighbridge_ticket.rb:27)",
    ),
)
FRESH7_COMMANDS = (
    ("tox -e py312", "tox -e py312-lint"),
    ("mvn -pl ferry-booking verify", "mvn -pl ferry-booking-api verify"),
    (
        "bundle exec rspec spec/models/weighbridge_ticket_spec.rb",
        "bundle exec rspec spec/models/weighbridge_spec.rb",
    ),
)
FRESH7_SUPERSEDED = (
    dict(
        old="send ferry boarding passes by email",
        new="send ferry boarding passes by SMS",
        report="Ferry boarding passes now go out by SMS instead of email",
    ),
    dict(
        old="dispatch snowploughs by radio from the depot",
        new="dispatch snowploughs through the tablet app in each cab",
        report="Snowplough dispatch moved off the depot radio and onto the tablets in the cabs",
    ),
    dict(
        old="roast the house espresso blend on a 12-minute profile",
        new="roast the house espresso blend on a 14-minute profile",
        report="The house espresso blend now roasts on a 14-minute profile; it used to be 12",
    ),
    dict(
        old="fill scuba tanks to 200 bar",
        new="fill scuba tanks to 232 bar",
        report="Scuba tanks are filled to 232 bar now, up from 200",
    ),
    dict(
        old="track queen ages in a shared spreadsheet",
        new="track queen ages in the hive inspection app",
        report="Queen ages are no longer kept in the shared spreadsheet; the hive inspection app "
        "tracks them",
    ),
)
FRESH7_FILES = (
    ("tides/predict/harmonics.py", "tides/predict/harmonic.py"),
    ("src/timing/splits.ts", "src/timing/splits.js"),
    ("chess/pairing/swiss.go", "chess/rating/swiss.go"),
    ("app/models/weighbridge_ticket.rb", "app/models/weighbridge_tickets.rb"),
    ("config/fridges/thresholds.yaml", "config/fridges/thresholds.yml"),
    (
        "ferry-booking/src/main/java/FerryBookingService.java",
        "ferry-booking/src/test/java/FerryBookingService.java",
    ),
)

# ---------------------------------------------------------------------------------------------
# Fresh-8 bank, the tenth bank: written blind by a separate helper session that read only this
# file, write_cases.py and the first part of README.md (alpine hut bookings, a blood donation
# centre, zoo animal feeding, an archaeological finds register, dog boarding kennels, public
# pool lanes and water quality, kindergarten pick-up, sign-language interpreter bookings, a
# sourdough bakery, elevator maintenance, a seed bank, tram overhead lines, a cheese cave, tower
# cranes, customs declarations at a border post, radio royalty logging, escape rooms, a
# vineyard harvest, lighthouse lamps, an ice rink). Most negations carry no negation word
# (lexical opposites, verdicts such as "was ruled out" or "was scrapped", implicit ones); some
# paraphrases change one or two words of the fact to a synonym; the tail items use their own
# speaker lead-ins.
FRESH8_PROSE = (
    dict(
        kind="goal",
        fact="Let hikers book a bunk in any of the 12 alpine huts up to 90 days ahead",
        para=(
            "Hikers should be able to reserve a bunk in whichever of the 12 alpine huts they "
            "like, as much as 90 days in advance",
            "Let hikers reserve a bunk in any of the 12 alpine huts up to 90 days ahead",
        ),
        neg="Bunks in the 12 alpine huts are handed out on arrival, first come, first served; "
        "advance booking was dropped from the plan",
        wrong="Let hikers book a bunk in any of the 12 bivouac shelters up to 90 days ahead",
    ),
    dict(
        kind="goal",
        fact="Let blood donors book a donation slot online and see their last haemoglobin reading",
        para=(
            "Blood donors should be able to reserve a donation appointment on the web and view "
            "their most recent haemoglobin reading",
            "online booking of donation slots for blood donors, who can also look up their "
            "latest haemoglobin reading",
        ),
        neg="Blood donors book their donation slot by phoning the centre, and haemoglobin "
        "readings stay in the clinic's own records",
        wrong="Let plasma donors book a donation slot online and see their last haemoglobin "
        "reading",
    ),
    dict(
        kind="goal",
        fact="Log every feed given to each zoo animal with the keeper's name and the weight of "
        "food",
        para=(
            "Each feed a zoo animal receives should be recorded, together with the name of the "
            "keeper who gave it and how much the food weighed",
            "Record every feed given to each zoo animal with the keeper's name and the weight "
            "of food",
        ),
        neg="Feeds given to the zoo animals will not be logged; keepers just follow the daily "
        "diet sheet",
        wrong="Log every feed given to each aquarium fish with the keeper's name and the weight "
        "of food",
    ),
    dict(
        kind="goal",
        fact="Give every find from the dig a unique number and record the trench and layer it "
        "came from",
        para=(
            "Each find from the excavation gets its own unique number, along with the trench and "
            "the layer where it was found",
            "unique numbering of every find from the dig, with the trench and layer of origin "
            "recorded for each",
        ),
        neg="Finds from the dig are bagged together per trench under one shared number, and the "
        "layer is left off the label",
        wrong="Give every soil sample from the dig a unique number and record the trench and "
        "layer it came from",
    ),
    dict(
        kind="goal",
        fact="Send dog owners a photo of their dog from the kennels once a day during each stay",
        para=(
            "During every stay, owners should get one daily photo of their dog from the kennels",
            "Send dog owners a picture of their dog from the kennels once a day during each stay",
        ),
        neg="Owners see their dog again only at pick-up; the daily photo from the kennels was "
        "cut from the plan",
        wrong="Send cat owners a photo of their cat from the kennels once a day during each stay",
    ),
    dict(
        kind="goal",
        fact="Let swimmers reserve a lane at the public pool in 45-minute slots",
        para=(
            "Swimmers should be able to book a lane at the public pool, in slots of 45 minutes "
            "each",
            "lane reservations for swimmers at the public pool, made in 45-minute slots",
        ),
        neg="Lanes at the public pool stay first come, first served; swimmers just turn up and "
        "share them",
        wrong="Let swimmers reserve a lane at the school pool in 45-minute slots",
    ),
    dict(
        kind="goal",
        fact="Let kindergarten staff check at the door whether an adult is authorised to pick up "
        "a child",
        para=(
            "At the door, kindergarten staff should be able to verify if a given adult is "
            "allowed to collect a child",
            "Let kindergarten staff check at the door whether an adult is permitted to pick up "
            "a child",
        ),
        neg="Kindergarten staff will have no way to check at the door who is authorised to pick "
        "up a child",
        wrong="Let after-school club staff check at the door whether an adult is authorised to "
        "pick up a child",
    ),
    dict(
        kind="goal",
        fact="Match each deaf client's appointment request with a qualified sign-language "
        "interpreter within 48 hours",
        para=(
            "Within 48 hours, every appointment request from a deaf client should be paired with "
            "a qualified sign-language interpreter",
            "each deaf client's appointment request gets matched to a qualified sign-language "
            "interpreter in 48 hours or less",
        ),
        neg="Deaf clients find and book their own sign-language interpreter for each "
        "appointment; the agency's matching service was scrapped",
        wrong="Match each deaf client's appointment request with a qualified lip-speaker within "
        "48 hours",
    ),
    dict(
        kind="constraint",
        fact="Never bake a sourdough batch whose levain has proofed for less than four hours",
        para=(
            "A sourdough batch must not go into the oven if its levain has had under four hours "
            "of proofing",
            "every sourdough batch needs a levain proofed for at least four hours before it is "
            "baked",
        ),
        neg="Sourdough batches may be baked as soon as the levain is mixed, however briefly it "
        "has proofed",
        wrong="Never bake a rye batch whose levain has proofed for less than four hours",
    ),
    dict(
        kind="constraint",
        fact="Take an elevator out of service if its annual safety inspection is more than 30 "
        "days overdue",
        para=(
            "Any elevator whose yearly safety inspection is overdue by over 30 days has to be "
            "taken out of service",
            "Take an elevator out of service if its annual safety check is more than 30 days "
            "overdue",
        ),
        neg="Elevators keep running whatever the state of their annual safety inspection, even "
        "when it is months overdue",
        wrong="Take an escalator out of service if its annual safety inspection is more than 30 "
        "days overdue",
    ),
    dict(
        kind="constraint",
        fact="Run a germination test on every seed accession at least once every five years",
        para=(
            "Every seed accession must be germination-tested no less than once in five years",
            "each seed accession has to undergo a germination test at least every five years",
        ),
        neg="Seed accessions do not need germination tests once they are in the vault",
        wrong="Run a moisture test on every seed accession at least once every five years",
    ),
    dict(
        kind="constraint",
        fact="Only work on a tram overhead line after it has been isolated and earthed",
        para=(
            "Work on any tram overhead line may start solely once the line is isolated and earthed",
            "a tram overhead line must be isolated and earthed before anyone works on it",
        ),
        neg="Crews may work on a live tram overhead line, skipping isolation and earthing when "
        "the job is short",
        wrong="Only work on a tram substation after it has been isolated and earthed",
    ),
    dict(
        kind="constraint",
        fact="Keep the cheese cave's humidity between 85 and 95 percent",
        para=(
            "The humidity in the cheese cave has to stay within 85 to 95 percent",
            "Hold the cheese cave's humidity between 85 and 95 percent",
        ),
        neg="The cheese cave's humidity is left to drift freely, as low as 60 percent on dry days",
        wrong="Keep the drying room's humidity between 85 and 95 percent",
    ),
    dict(
        kind="constraint",
        fact="Stop all tower crane lifts when the wind speed at the jib exceeds 20 metres per "
        "second",
        para=(
            "Once the wind at the jib blows faster than 20 metres per second, every tower crane "
            "lift must be halted",
            "all lifts by the tower crane are suspended whenever wind speed at the jib goes "
            "above 20 metres per second",
        ),
        neg="Tower crane lifts do not stop for wind, even when the speed at the jib exceeds 20 "
        "metres per second",
        wrong="Stop all mobile crane lifts when the wind speed at the jib exceeds 20 metres per "
        "second",
    ),
    dict(
        kind="constraint",
        fact="Close the pool to swimmers whenever free chlorine drops below 1.0 mg/L",
        para=(
            "Swimmers must be cleared from the pool any time the free chlorine level falls "
            "under 1.0 mg/L",
            "Close the pool to swimmers whenever free chlorine falls below 1.0 mg/L",
        ),
        neg="Swimmers stay in the pool at any free chlorine level, including readings below "
        "1.0 mg/L",
        wrong="Close the diving pool to swimmers whenever free chlorine drops below 1.0 mg/L",
    ),
    dict(
        kind="constraint",
        fact="Hold any shipment at the border post whose declared value is above €10,000 until an "
        "officer checks the papers",
        para=(
            "Shipments declared at more than €10,000 must wait at the border post until an "
            "officer has checked their papers",
            "until an officer has checked the papers, a shipment with a declared value over "
            "€10,000 stays held at the border post",
        ),
        neg="Shipments declared above €10,000 clear the border post automatically, and the "
        "papers are checked later in a sample audit",
        wrong="Hold any shipment at the airport cargo terminal whose declared value is above "
        "€10,000 until an officer checks the papers",
    ),
    dict(
        kind="constraint",
        fact="Defer any donor whose haemoglobin is below 125 g/L from giving blood that day",
        para=(
            "A donor with a haemoglobin level under 125 g/L must be deferred and kept from "
            "giving blood that day",
            "donors whose haemoglobin falls short of 125 g/L are turned away from donating blood "
            "that day",
        ),
        neg="A haemoglobin reading below 125 g/L does not stop a donor from giving blood that day",
        wrong="Defer any donor whose haemoglobin is below 125 g/L from giving platelets that day",
    ),
    dict(
        kind="constraint",
        fact="Log every song the station plays with its ISRC code for the royalty report",
        para=(
            "Each song played on the station has to be logged, together with its ISRC code, for "
            "the royalty report",
            "Record every song the station plays with its ISRC code for the royalty report",
        ),
        neg="Songs the station plays are logged for just one sample week a year, and the "
        "royalty report is extrapolated from that week",
        wrong="Log every jingle the station plays with its ISRC code for the royalty report",
    ),
    dict(
        kind="decision",
        fact="reset each escape room with a checklist on a tablet instead of a paper sheet",
        para=(
            "each escape room gets reset by following a checklist on a tablet rather than on a "
            "paper sheet",
            "the staff use a tablet checklist, not a paper sheet, when they reset each escape room",
        ),
        neg="the tablet checklist was ruled out; escape rooms keep being reset from the paper "
        "sheet",
        wrong="reset each laser-tag arena with a checklist on a tablet instead of a paper sheet",
        swap="reset each escape room with a checklist on a paper sheet instead of a tablet",
    ),
    dict(
        kind="decision",
        fact="harvest the Riesling parcels by hand instead of by machine",
        para=(
            "the Riesling parcels are picked manually rather than with a machine",
            "harvest the Riesling parcels by hand rather than by machine",
        ),
        neg="the Riesling parcels go to the harvesting machine like every other parcel; "
        "hand-picking was rejected",
        wrong="harvest the Pinot Noir parcels by hand instead of by machine",
        swap="harvest the Riesling parcels by machine instead of by hand",
    ),
    dict(
        kind="decision",
        fact="monitor the lighthouse lamps over a satellite link rather than VHF radio telemetry",
        para=(
            "the lighthouse lamps are watched through a satellite link in place of VHF radio "
            "telemetry",
            "lamp monitoring at the lighthouses runs over a satellite link, replacing the VHF "
            "radio telemetry",
        ),
        neg="the lighthouse lamps will not be monitored over a satellite link; VHF radio "
        "telemetry stays",
        wrong="monitor the lighthouse fog signals over a satellite link rather than VHF radio "
        "telemetry",
        swap="monitor the lighthouse lamps over VHF radio telemetry rather than a satellite link",
    ),
    dict(
        kind="decision",
        fact="track each cheese wheel with an RFID tag rather than a chalk mark on its shelf board",
        para=(
            "every cheese wheel carries an RFID tag for tracking instead of a chalk mark on the "
            "shelf board it sits on",
            "track each cheese wheel with an RFID tag instead of a chalk mark on its shelf board",
        ),
        neg="chalk marks on the shelf boards remain the way each cheese wheel is tracked; the "
        "RFID tags were dropped",
        wrong="track each cheese mould with an RFID tag rather than a chalk mark on its shelf "
        "board",
        swap="track each cheese wheel with a chalk mark on its shelf board rather than an RFID tag",
    ),
    dict(
        kind="decision",
        fact="take a 30% deposit for hut bookings instead of full payment in advance",
        para=(
            "hut bookings require a 30% deposit rather than paying the full amount up front",
            "for hut bookings we collect a deposit of 30% in place of full advance payment",
        ),
        neg="hut bookings are paid in full in advance; the 30% deposit idea was turned down",
        wrong="take a 30% deposit for mountain-guide bookings instead of full payment in advance",
        swap="take full payment in advance for hut bookings instead of a 30% deposit",
    ),
    dict(
        kind="decision",
        fact="schedule overhead line inspections by the number of pantograph passes instead of by "
        "calendar month",
        para=(
            "overhead line inspections are scheduled according to how many pantograph passes "
            "there have been, not by the calendar month",
            "plan overhead line inspections by the count of pantograph passes instead of by "
            "calendar month",
        ),
        neg="overhead line inspections are not scheduled by pantograph passes; they stay on a "
        "calendar-month cycle",
        wrong="schedule track inspections by the number of pantograph passes instead of by "
        "calendar month",
        swap="schedule overhead line inspections by calendar month instead of by the number of "
        "pantograph passes",
    ),
    dict(
        kind="decision",
        fact="resurface the ice after every two hours of public skating",
        para=(
            "the ice is resurfaced each time two hours of public skating have gone by",
            "a resurfacing of the ice follows every two hours of public skating",
        ),
        neg="the ice is resurfaced once a day, at closing, however many hours of public skating "
        "came before",
        wrong="resurface the ice after every two hours of hockey practice",
    ),
    dict(
        kind="decision",
        fact="pay sign-language interpreters a two-hour minimum for every on-site booking",
        para=(
            "every on-site booking earns the sign-language interpreter at least two hours' pay",
            "pay sign-language interpreters a two-hour minimum for each on-site booking",
        ),
        neg="sign-language interpreters get no minimum for on-site bookings; they are paid only "
        "for the minutes they work",
        wrong="pay sign-language interpreters a two-hour minimum for every video-remote booking",
    ),
    dict(
        kind="decision",
        fact="weigh the elephants once a month on the platform scale in their night house",
        para=(
            "every month the elephants are weighed on the platform scale in their night house",
            "monthly weighing of the elephants on the platform scale in the elephants' night house",
        ),
        neg="the elephants' weight is estimated by eye from photos; the platform scale in their "
        "night house was scrapped",
        wrong="weigh the giraffes once a month on the platform scale in their night house",
    ),
    dict(
        kind="next_step",
        fact="warn the rink staff when the ice surface temperature rises above -3 °C",
        para=(
            "the rink staff should get a warning if the surface of the ice warms to more than "
            "-3 °C",
            "alert the rink staff when the ice surface temperature rises above -3 °C",
        ),
        neg="do not warn the rink staff about the ice surface temperature, even above -3 °C",
        wrong="warn the rink staff when the brine temperature rises above -3 °C",
    ),
    dict(
        kind="next_step",
        fact="ask dog owners for a vaccination certificate before confirming a kennel booking",
        para=(
            "a kennel booking should be confirmed only after the dog owner has provided a "
            "vaccination certificate",
            "request a vaccination certificate from dog owners before confirming a kennel booking",
        ),
        neg="confirm each kennel booking straight away; vaccination certificates are left to "
        "the owner's own judgement",
        wrong="ask dog owners for a vaccination certificate before confirming a grooming "
        "appointment",
    ),
    dict(
        kind="next_step",
        fact="flag any seed accession whose germination rate falls below 75% for regeneration",
        para=(
            "any seed accession with a germination rate under 75% should be marked for "
            "regeneration",
            "mark for regeneration every seed accession whose germination rate drops below 75%",
        ),
        neg="skip the regeneration flag for seed accessions, even those germinating below 75%",
        wrong="flag any pollen accession whose germination rate falls below 75% for regeneration",
    ),
    dict(
        kind="next_step",
        fact="show the players a hint on the room screen after 20 minutes without progress",
        para=(
            "once the players have gone 20 minutes without progress, a hint should appear on "
            "the room screen",
            "display a hint to the players on the room screen after 20 minutes without progress",
        ),
        neg="keep the room screen free of hints for the whole game, however long the players "
        "are stuck",
        wrong="show the players a hint on the lobby screen after 20 minutes without progress",
    ),
    dict(
        kind="next_step",
        fact="pre-fill the customs declaration from the commercial invoice the shipper uploads",
        para=(
            "the customs declaration should be filled in automatically from the commercial "
            "invoice that the shipper uploads",
            "populate the customs declaration in advance from the commercial invoice uploaded by "
            "the shipper",
        ),
        neg="do not pre-fill the customs declaration from the shipper's commercial invoice; the "
        "broker types in every field",
        wrong="pre-fill the customs declaration from the packing list the shipper uploads",
    ),
    dict(
        kind="next_step",
        fact="send the quarterly royalty report to the collecting society by the 15th of the "
        "following month",
        para=(
            "the collecting society should receive the quarterly royalty report no later than "
            "the 15th of the next month",
            "submit the quarterly royalty report to the collecting society by the 15th of the "
            "following month",
        ),
        neg="send the royalty report to the collecting society once a year, as one annual batch",
        wrong="send the quarterly advertising report to the collecting society by the 15th of "
        "the following month",
    ),
    dict(
        kind="next_step",
        fact="switch the lighthouse to its standby lamp automatically when the main lamp fails",
        para=(
            "when the main lamp fails, the lighthouse should change over to its standby lamp on "
            "its own",
            "switch the lighthouse to its backup lamp automatically when the main lamp fails",
        ),
        neg="leave the changeover to the standby lamp to a keeper, who switches it by hand after "
        "the main lamp fails",
        wrong="switch the lightship to its standby lamp automatically when the main lamp fails",
    ),
    dict(
        kind="next_step",
        fact="text the on-call technician when an elevator stops between floors with passengers "
        "inside",
        para=(
            "if an elevator halts between floors while passengers are inside, the on-call "
            "technician should get a text",
            "send a text to the on-call technician when an elevator stops between floors with "
            "passengers inside",
        ),
        neg="do not text the on-call technician when an elevator stops between floors, whether "
        "or not passengers are inside",
        wrong="text the building manager when an elevator stops between floors with passengers "
        "inside",
    ),
)
FRESH8_BLOCKERS = (
    (
        "sqlite3.IntegrityError: UNIQUE constraint failed: finds.find_number "
        "(dig/register/finds.py:63)",
        "sqlite3.IntegrityError: UNIQUE constraint failed: finds.context_number "
        "(dig/register/finds.py:63)",
    ),
    (
        "thread 'main' panicked at 'humidity sensor HS-3 returned NaN', cave/src/sensors.rs:52:9",
        "thread 'main' panicked at 'humidity sensor HS-8 returned NaN', cave/src/sensors.rs:52:9",
    ),
    (
        "System.NullReferenceException: Object reference not set to an instance of an object. "
        "at Pool.Lanes.LaneBookingService.Reserve (LaneBookingService.cs:77)",
        "System.NullReferenceException: Object reference not set to an instance of an object. "
        "at Pool.Lanes.LaneBookingService.Release (LaneBookingService.cs:77)",
    ),
    (
        "error TS2741: Property 'earthedAt' is missing in type '{ sectionId: string; }' but "
        "required in type 'Isolation' (src/overhead/isolation.ts:33:7)",
        "error TS2741: Property 'isolatedAt' is missing in type '{ sectionId: string; }' but "
        "required in type 'Isolation' (src/overhead/isolation.ts:33:7)",
    ),
    (
        "PHP Fatal error: Uncaught TypeError: Argument #1 ($value) must be of type float, string "
        "given in src/Customs/Declaration.php:118",
        "PHP Fatal error: Uncaught TypeError: Argument #1 ($value) must be of type float, string "
        "given in src/Customs/Declaration.php:181",
    ),
)
FRESH8_COMMANDS = (
    ("dotnet test Pool.Lanes.Tests", "dotnet test Pool.Lanes.IntegrationTests"),
    ("cargo nextest run -p cave-monitor", "cargo nextest run -p cave-monitor-cli"),
    ("vendor/bin/phpunit tests/Customs", "vendor/bin/phpunit tests/Customs/Integration"),
)
FRESH8_SUPERSEDED = (
    dict(
        old="hold unpaid hut bookings for 48 hours",
        new="hold unpaid hut bookings for 24 hours",
        report="Unpaid hut bookings are now held for 24 hours instead of 48",
    ),
    dict(
        old="feed the big cats six days a week",
        new="feed the big cats five days a week",
        report="The big cats are fed five days a week now, no longer six",
    ),
    dict(
        old="store seed accessions at -18 °C",
        new="store seed accessions at -20 °C",
        report="Seed accessions are kept at -20 °C now; the freezers used to be set to -18 °C",
    ),
    dict(
        old="send kindergarten pick-up changes by email",
        new="send kindergarten pick-up changes through the parent app",
        report="Pick-up changes reach the kindergarten through the parent app now, no longer by "
        "email",
    ),
    dict(
        old="book sign-language interpreters by phone",
        new="book sign-language interpreters through the online portal",
        report="Interpreter bookings moved from phone calls to the online portal",
    ),
)
FRESH8_FILES = (
    ("dig/register/finds.py", "dig/register/find.py"),
    ("cave/src/sensors.rs", "cave/tests/sensors.rs"),
    ("Pool.Lanes/LaneBookingService.cs", "Pool.Lanes.Tests/LaneBookingService.cs"),
    ("src/overhead/isolation.ts", "src/overhead/isolation.tsx"),
    ("src/Customs/Declaration.php", "src/Customs/Declarations.php"),
    ("config/huts/capacity.toml", "config/hut/capacity.toml"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-9 bank, the eleventh bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (a violin repair workshop, a
# mushroom farm, a tree surgery firm, a hot-air balloon operator, a fire station's breathing
# apparatus checks, an auction house, a film archive's nitrate reels, a climbing gym, a tattoo
# studio, a funeral home, a glassblowing studio, a riding stable, a locksmith, a dry cleaner, a
# wind farm, a piano tuning service, a dairy farm's milking robots, a tyre-fitting garage, a
# bowling alley, a letterpress print shop). Most negations carry no negation word (the opposite
# behaviour stated positively, lexical opposites, verdicts such as "was shelved"); some
# paraphrases change one or two words of the fact to a synonym; the tail items use their own
# speaker lead-ins.
FRESH9_PROSE = (
    dict(
        kind="goal",
        fact="Let violin owners follow each repair job's stage online, from intake to final set-up",
        para=(
            "Owners of violins should be able to see on the web which stage their repair job "
            "has reached, from the moment it is taken in to the final set-up",
            "Let violin owners track each repair job's stage online, from intake to final set-up",
        ),
        neg="Violin owners hear about a repair's progress by phone from the workshop, and the "
        "online stage tracker was shelved",
        wrong="Let cello owners follow each repair job's stage online, from intake to final set-up",
    ),
    dict(
        kind="goal",
        fact="Record the temperature, humidity and CO2 level of every grow room at the mushroom "
        "farm every ten minutes",
        para=(
            "Every ten minutes, each grow room at the mushroom farm should have its temperature, "
            "humidity and CO2 level logged",
            "the temperature, humidity and CO2 readings of all the mushroom farm's grow rooms "
            "are to be captured at ten-minute intervals",
        ),
        neg="The mushroom farm will not record grow-room temperature, humidity or CO2 at all; "
        "the growers go by feel",
        wrong="Record the temperature, humidity and CO2 level of every packing room at the "
        "mushroom farm every ten minutes",
    ),
    dict(
        kind="goal",
        fact="Give every tree surgery customer a written quote within three working days of the "
        "site visit",
        para=(
            "Within three working days after the site visit, each tree surgery customer should "
            "receive a quote in writing",
            "a written quote reaches each of the tree surgery firm's customers at most three "
            "working days after the site visit",
        ),
        neg="Tree surgery customers are quoted verbally on the spot during the site visit, and "
        "the written quote is skipped",
        wrong="Give every hedge-trimming customer a written quote within three working days of "
        "the site visit",
    ),
    dict(
        kind="goal",
        fact="Let balloon passengers rebook a weather-cancelled flight for free within the same "
        "season",
        para=(
            "If the weather cancels a balloon flight, its passengers should be able to move to "
            "another date in the same season free of charge",
            "free rebooking within the same season for balloon passengers whose flight was "
            "called off because of the weather",
        ),
        neg="Passengers whose balloon flight is cancelled for weather pay a fee to rebook it",
        wrong="Let paragliding passengers rebook a weather-cancelled flight for free within the "
        "same season",
    ),
    dict(
        kind="goal",
        fact="Log the weekly check of every breathing apparatus set at the fire station, with its "
        "cylinder pressure and who signed it off",
        para=(
            "Each breathing apparatus set at the fire station gets its weekly check recorded, "
            "along with the cylinder pressure and the name of the person who signed it off",
            "Record the weekly check of every breathing apparatus set at the fire station, with "
            "its cylinder pressure and who signed it off",
        ),
        neg="Breathing apparatus sets at the fire station get checked only at the annual "
        "service, by the supplier's technician",
        wrong="Log the weekly check of every breathing apparatus set at the training centre, "
        "with its cylinder pressure and who signed it off",
    ),
    dict(
        kind="goal",
        fact="Let online bidders place absentee bids on any lot up to one hour before the auction "
        "starts",
        para=(
            "Online bidders should be able to leave an absentee bid on whichever lot they "
            "choose, as late as an hour before the auction begins",
            "absentee bids from online bidders are accepted on every lot until an hour before "
            "the auction opens",
        ),
        neg="Absentee bids are taken in person at the auction house counter, and online bidders "
        "bid live during the sale itself",
        wrong="Let telephone bidders place absentee bids on any lot up to one hour before the "
        "auction starts",
    ),
    dict(
        kind="goal",
        fact="Digitise every nitrate reel in the film archive at 4K resolution by the end of 2027",
        para=(
            "By the end of 2027, each nitrate reel the film archive holds should be scanned in "
            "4K resolution",
            "all of the film archive's nitrate reels are to be digitised at 4K resolution before "
            "2027 is over",
        ),
        neg="The film archive's nitrate reels stay on the shelf in their cans; the 4K "
        "digitisation project was cancelled",
        wrong="Digitise every acetate reel in the film archive at 4K resolution by the end of 2027",
    ),
    dict(
        kind="goal",
        fact="Let climbing gym members see which routes were reset this week and their grades",
        para=(
            "Members of the climbing gym should be able to look up the routes reset this week, "
            "together with each route's grade",
            "Let climbing gym members view which routes were reset this week and their grades",
        ),
        neg="Climbing gym members find out about new routes by walking the walls; resets and "
        "grades stay on the setters' private spreadsheet",
        wrong="Let bouldering club members see which routes were reset this week and their grades",
    ),
    dict(
        kind="constraint",
        fact="Keep the mushroom grow rooms below 1,000 ppm of CO2 once the pins have formed",
        para=(
            "After the pins form, CO2 in the mushroom grow rooms has to stay under 1,000 ppm",
            "once pinning has happened, the carbon dioxide in the mushroom grow rooms must be "
            "held below 1,000 ppm",
        ),
        neg="Once the pins have formed, CO2 in the mushroom grow rooms may climb well past "
        "1,000 ppm",
        wrong="Keep the mushroom spawn rooms below 1,000 ppm of CO2 once the pins have formed",
    ),
    dict(
        kind="constraint",
        fact="Use a new sealed needle cartridge for every tattoo client",
        para=(
            "Every tattoo client gets a needle cartridge straight out of a sealed pack, used on "
            "them for the first time",
            "Use a fresh sealed needle cartridge for every tattoo client",
        ),
        neg="Tattoo artists reuse the same needle cartridge across clients after wiping it down",
        wrong="Use a new sealed needle cartridge for every piercing client",
    ),
    dict(
        kind="constraint",
        fact="Obtain signed consent from the next of kin before any cremation is scheduled",
        para=(
            "A cremation may be scheduled only once the next of kin has signed a consent form",
            "the next of kin's signed consent must be in hand before a cremation gets scheduled",
        ),
        neg="Cremations are scheduled straight away, and the next of kin signs the consent form "
        "afterwards",
        wrong="Obtain signed consent from the next of kin before any embalming is scheduled",
    ),
    dict(
        kind="constraint",
        fact="Ground all balloon flights when surface winds exceed 10 knots at launch time",
        para=(
            "If surface winds are above 10 knots at launch time, every balloon flight stays on "
            "the ground",
            "Ground all balloon flights when surface winds go over 10 knots at launch time",
        ),
        neg="Balloon flights are never grounded for surface wind, whatever it reads at launch time",
        wrong="Ground all glider flights when surface winds exceed 10 knots at launch time",
    ),
    dict(
        kind="constraint",
        fact="Anneal every blown glass piece in the kiln for at least eight hours before it "
        "leaves the studio",
        para=(
            "Before any blown glass piece leaves the studio, it must spend eight hours or more "
            "annealing in the kiln",
            "Anneal every blown glass piece in the kiln for at least eight hours before it "
            "leaves the workshop",
        ),
        neg="Blown glass pieces may leave the studio straight from the bench, cooling on an "
        "open shelf",
        wrong="Anneal every cast glass piece in the kiln for at least eight hours before it "
        "leaves the studio",
    ),
    dict(
        kind="constraint",
        fact="Have the farrier reshoe every riding school horse at least every six weeks",
        para=(
            "Every riding school horse needs new shoes from the farrier at intervals of six "
            "weeks or shorter",
            "Have the blacksmith reshoe every riding school horse at least every six weeks",
        ),
        neg="Riding school horses are reshod only when a shoe falls off, however many months "
        "have passed",
        wrong="Have the farrier reshoe every livery horse at least every six weeks",
    ),
    dict(
        kind="constraint",
        fact="Check a customer's photo ID and proof of address before opening a locked-out door",
        para=(
            "Before opening a door for someone who is locked out, the locksmith must see their "
            "photo ID and a proof of address",
            "Verify a customer's photo identification and proof of address before opening a "
            "locked-out door",
        ),
        neg="Locksmiths open a locked-out door for whoever calls, and ask for ID afterwards if "
        "they remember",
        wrong="Check a landlord's photo ID and proof of address before opening a locked-out door",
    ),
    dict(
        kind="constraint",
        fact="Test every stained garment on a hidden seam before applying any solvent",
        para=(
            "Before any solvent goes on a stained garment, it has to be tried out first on a "
            "seam that is out of sight",
            "test every stained garment on a concealed seam before applying any solvent",
        ),
        neg="Solvent goes straight onto the stain of every garment, skipping the seam test",
        wrong="Test every stained curtain on a hidden seam before applying any solvent",
    ),
    dict(
        kind="constraint",
        fact="Store nitrate film reels in the fireproof vault at or below 4 °C",
        para=(
            "Nitrate film reels have to be kept in the fireproof vault, at 4 °C or colder",
            "the fireproof vault is where nitrate reels must be stored, at a temperature of "
            "4 °C at most",
        ),
        neg="Nitrate film reels do not need the fireproof vault; they may sit in the ordinary "
        "stacks at room temperature",
        wrong="Store safety film reels in the fireproof vault at or below 4 °C",
    ),
    dict(
        kind="constraint",
        fact="Stop a wind turbine for a blade inspection after any lightning strike on it",
        para=(
            "Any wind turbine struck by lightning has to be stopped so that its blades can be "
            "inspected",
            "after lightning hits a wind turbine, that turbine must be brought to a halt and its "
            "blades inspected",
        ),
        neg="A wind turbine struck by lightning keeps running without a blade inspection until "
        "the yearly one",
        wrong="Stop a wind turbine for a gearbox inspection after any lightning strike on it",
    ),
    dict(
        kind="decision",
        fact="tune the concert grands with an electronic tuning device instead of by ear",
        para=(
            "the concert grands are tuned using an electronic tuning device rather than by ear",
            "tuning of the concert grands relies on an electronic device in place of the "
            "tuner's ear",
        ),
        neg="the concert grands keep being tuned by ear; the electronic tuning device went back "
        "to the supplier",
        wrong="tune the upright pianos with an electronic tuning device instead of by ear",
        swap="tune the concert grands by ear instead of with an electronic tuning device",
    ),
    dict(
        kind="decision",
        fact="photograph each jewellery lot on a turntable rather than against a flat backdrop",
        para=(
            "each jewellery lot is photographed on a turntable instead of in front of a flat "
            "backdrop",
            "jewellery lots get their photos taken while rotating on a turntable, replacing the "
            "flat backdrop",
        ),
        neg="we will not photograph the jewellery lots on a turntable; the flat backdrop stays",
        wrong="photograph each painting lot on a turntable rather than against a flat backdrop",
        swap="photograph each jewellery lot against a flat backdrop rather than on a turntable",
    ),
    dict(
        kind="decision",
        fact="milk the herd with robots that the cows visit freely instead of at two fixed "
        "milking times",
        para=(
            "the herd is milked by robots which the cows go to whenever they choose, rather than "
            "at two set milking times",
            "milk the herd with robots that the cows visit at will instead of at two fixed "
            "milking times",
        ),
        neg="the herd stays on two fixed milking times in the parlour; the milking robots were "
        "rejected",
        wrong="milk the goat herd with robots that the goats visit freely instead of at two "
        "fixed milking times",
        swap="milk the herd at two fixed milking times instead of with robots that the cows "
        "visit freely",
    ),
    dict(
        kind="decision",
        fact="store customers' seasonal tyres on labelled racks rather than stacked on pallets",
        para=(
            "customers' seasonal tyres are kept on labelled racks instead of being piled up on "
            "pallets",
            "store customers' seasonal tyres on labelled shelves rather than piled on pallets",
        ),
        neg="customers' seasonal tyres stay stacked on pallets; the labelled racks were judged "
        "too expensive",
        wrong="store customers' alloy wheels on labelled racks rather than stacked on pallets",
        swap="store customers' seasonal tyres stacked on pallets rather than on labelled racks",
    ),
    dict(
        kind="decision",
        fact="keep score at the bowling lanes with overhead touchscreens instead of paper score "
        "sheets",
        para=(
            "scores at the bowling lanes are kept on overhead touchscreens rather than on paper "
            "score sheets",
            "scoring at the bowling lanes moves off paper sheets and onto overhead touchscreens",
        ),
        neg="bowlers keep writing their scores on paper score sheets; the owner vetoed the "
        "overhead touchscreens",
        wrong="keep score at the darts boards with overhead touchscreens instead of paper score "
        "sheets",
        swap="keep score at the bowling lanes with paper score sheets instead of overhead "
        "touchscreens",
    ),
    dict(
        kind="decision",
        fact="inspect the turbine blades with drones rather than with rope-access technicians",
        para=(
            "the turbine blades are inspected by drones instead of by technicians on ropes",
            "blade inspections on the turbines are flown by drone, replacing the rope-access "
            "technicians",
        ),
        neg="rope-access technicians stay in charge of inspecting the turbine blades, and the "
        "drones were sold off",
        wrong="inspect the turbine towers with drones rather than with rope-access technicians",
        swap="inspect the turbine blades with rope-access technicians rather than with drones",
    ),
    dict(
        kind="decision",
        fact="offer a private livestream of every funeral service held in the chapel",
        para=(
            "every chapel funeral service gets streamed live over a private link",
            "the chapel's funeral services will each be livestreamed privately",
        ),
        neg="funeral services in the chapel stay off camera, for the people in the room alone",
        wrong="offer a private livestream of every funeral service held at the graveside",
    ),
    dict(
        kind="decision",
        fact="send a crew of at least two arborists to every job where someone climbs the tree",
        para=(
            "every job involving a tree climb gets a crew of two arborists or more",
            "whenever someone has to climb the tree, the job is staffed by a minimum of two "
            "arborists",
        ),
        neg="no second arborist goes out on climbing jobs; one climber works each tree alone",
        wrong="send a crew of at least two arborists to every job where someone operates the "
        "stump grinder",
    ),
    dict(
        kind="decision",
        fact="print all wedding invitations on 600 gsm cotton card",
        para=(
            "every wedding invitation is printed on cotton card of 600 gsm",
            "the wedding invitations all go through the press on cotton card weighing 600 gsm",
        ),
        neg="wedding invitations are printed on whatever card is in stock, usually 300 gsm "
        "wood-pulp board",
        wrong="print all business cards on 600 gsm cotton card",
    ),
    dict(
        kind="next_step",
        fact="alert the station officer when a breathing apparatus cylinder reads below 270 bar "
        "at the weekly check",
        para=(
            "if a breathing apparatus cylinder shows under 270 bar at the weekly check, the "
            "station officer should be alerted",
            "notify the station officer when a breathing apparatus cylinder reads below 270 bar "
            "at the weekly check",
        ),
        neg="let the crew refill any breathing apparatus cylinder below 270 bar on their own, "
        "keeping the station officer out of the loop",
        wrong="alert the watch manager when a breathing apparatus cylinder reads below 270 bar "
        "at the weekly check",
    ),
    dict(
        kind="next_step",
        fact="remind piano owners to book a tuning six months after their last visit",
        para=(
            "six months after a piano's last tuning visit, its owner should get a reminder to "
            "book the next one",
            "remind piano owners to schedule a tuning six months after their previous visit",
        ),
        neg="leave piano owners to call in for a tuning whenever they hear the pitch drifting, "
        "with the six-month reminders switched off",
        wrong="remind harpsichord owners to book a tuning six months after their last visit",
    ),
    dict(
        kind="next_step",
        fact="email balloon passengers the launch site and meeting time the evening before their "
        "flight",
        para=(
            "the evening before a flight, balloon passengers should receive an email with the "
            "launch site and the time to meet",
            "on the evening ahead of their flight, send balloon passengers an email giving the "
            "launch site and when to meet",
        ),
        neg="don't email balloon passengers the evening before; the pilot phones them with the "
        "launch site and meeting time on the morning of the flight",
        wrong="email balloon pilots the launch site and meeting time the evening before their "
        "flight",
    ),
    dict(
        kind="next_step",
        fact="photograph each violin's label and scroll at intake and attach the photos to the "
        "repair ticket",
        para=(
            "when a violin is taken in, its label and scroll should be photographed and the "
            "pictures attached to its repair ticket",
            "at intake, take pictures of the label and the scroll of each violin and add them "
            "to the repair ticket",
        ),
        neg="check violins in with a handwritten description on the repair ticket and skip the "
        "intake photos",
        wrong="photograph each viola's label and scroll at intake and attach the photos to the "
        "repair ticket",
    ),
    dict(
        kind="next_step",
        fact="text new riders the day before their first lesson to bring a riding hat and boots",
        para=(
            "new riders should get a text message the day before their first lesson telling "
            "them to bring a riding hat and boots",
            "the day before a new rider's first lesson, send them a text asking them to bring "
            "boots and a riding hat",
        ),
        neg="skip the day-before text to new riders; the stable lends out hats and boots at the "
        "first lesson",
        wrong="text new pony-club members the day before their first lesson to bring a riding "
        "hat and boots",
    ),
    dict(
        kind="next_step",
        fact="send the winning bidder an invoice within an hour of the hammer falling on their lot",
        para=(
            "within an hour after the hammer falls on a lot, its winning bidder should receive "
            "an invoice",
            "invoice the successful bidder at most an hour after the hammer comes down on their "
            "lot",
        ),
        neg="do not invoice winning bidders lot by lot; invoices go out in one batch at the end "
        "of the week's sales",
        wrong="send the consignor an invoice within an hour of the hammer falling on their lot",
    ),
    dict(
        kind="next_step",
        fact="lock an auto-belay out of use the moment its annual inspection lapses",
        para=(
            "as soon as an auto-belay's annual inspection lapses, it should be locked out of use",
            "lock an auto-belay out of service the moment its yearly inspection lapses",
        ),
        neg="keep an auto-belay in use after its annual inspection lapses, until the inspector "
        "next visits",
        wrong="lock a top-rope anchor out of use the moment its annual inspection lapses",
    ),
    dict(
        kind="next_step",
        fact="text dry-cleaning customers when their garments are ready for collection",
        para=(
            "customers should get a text once their dry cleaning is ready to be collected",
            "send dry-cleaning customers a text message as soon as their clothes can be picked up",
        ),
        neg="never text dry-cleaning customers about their garments; they collect on the date "
        "printed on their ticket",
        wrong="text alteration customers when their garments are ready for collection",
    ),
)
FRESH9_BLOCKERS = (
    (
        "File \"auction/lots/catalogue.py\", line 88, in lot_summary: KeyError: 'reserve_price'",
        "File \"auction/lots/catalogue.py\", line 88, in lot_summary: KeyError: 'estimate_low'",
    ),
    (
        "panic: runtime error: index out of range [4] with length 4 in "
        "flightplan.(*Manifest).AssignBasket (flightplan/manifest.go:41)",
        "panic: runtime error: index out of range [4] with length 4 in "
        "flightplan.(*Manifest).AssignSeat (flightplan/manifest.go:41)",
    ),
    (
        "java.lang.IllegalStateException: appointment 4411 has no tuner assigned at "
        "com.pianocare.schedule.Dispatcher.confirm(Dispatcher.java:96)",
        "java.lang.IllegalStateException: appointment 4417 has no tuner assigned at "
        "com.pianocare.schedule.Dispatcher.confirm(Dispatcher.java:96)",
    ),
    (
        "NoMethodError: undefined method `co2_ppm' for nil:NilClass (app/models/grow_room.rb:27)",
        "NoMethodError: undefined method `co2_ppm' for nil:NilClass (app/models/grow_zone.rb:27)",
    ),
    (
        "** (FunctionClauseError) no function clause matching in "
        "FireStation.Apparatus.record_check/2 (lib/fire_station/apparatus.ex:54)",
        "** (FunctionClauseError) no function clause matching in "
        "FireStation.Apparatus.record_check/3 (lib/fire_station/apparatus.ex:54)",
    ),
)
FRESH9_COMMANDS = (
    (
        "bundle exec rspec spec/models/grow_room_spec.rb",
        "bundle exec rspec spec/models/grow_zone_spec.rb",
    ),
    ("mix test test/fire_station", "mix test test/fire_station_web"),
    ("go test ./flightplan/...", "go vet ./flightplan/..."),
)
FRESH9_SUPERSEDED = (
    dict(
        old="service the climbing gym's auto-belays once a year",
        new="service the climbing gym's auto-belays twice a year",
        report="Auto-belay servicing at the climbing gym went from once a year to twice a year",
    ),
    dict(
        old="oil the bowling lanes every morning",
        new="oil the bowling lanes every evening after closing",
        report="Lane oiling moved from the morning to the evening, after closing",
    ),
    dict(
        old="keep unclaimed dry cleaning for 60 days before donating it",
        new="keep unclaimed dry cleaning for 90 days before donating it",
        report="Unclaimed dry cleaning is now kept 90 days before it is donated, up from 60",
    ),
    dict(
        old="send piano tuning reminders by post",
        new="send piano tuning reminders by text message",
        report="Tuning reminders switched from post to text messages",
    ),
    dict(
        old="store winter tyres in the back shed",
        new="store winter tyres at the rented warehouse on Mill Road",
        report="Customers' winter tyres moved out of the back shed into the rented warehouse on "
        "Mill Road",
    ),
)
FRESH9_FILES = (
    ("auction/lots/catalogue.py", "auction/lots/catalog.py"),
    ("flightplan/manifest.go", "flightplan/manifest_test.go"),
    (
        "src/main/java/com/pianocare/schedule/Dispatcher.java",
        "src/test/java/com/pianocare/schedule/Dispatcher.java",
    ),
    ("app/models/grow_room.rb", "app/models/grow_rooms.rb"),
    ("lib/fire_station/apparatus.ex", "lib/fire_station/apparatus.exs"),
    ("config/archive/vault_climate.yaml", "config/archives/vault_climate.yaml"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-10 bank, the twelfth bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (home insurance claims, e-discovery
# document review at a law firm, a blood-pressure drug trial, an estate agent's property
# listings, an amateur football league's fixtures, a car rental desk, a translation agency's
# translation memory, a pawnbroker, airport baggage handling, a sawmill, a beach lifeguard
# service, a salmon farm's sea pens, a removals company, a quarry's blasting, an audiology
# clinic's hearing aids, a cinema's projection booth, a toll bridge, a seismograph network, a
# travelling circus, a hydroelectric dam's spillway gates). Most negations carry no negation
# word (the opposite behaviour stated positively, lexical opposites, verdicts such as "was
# ruled out" or "was declined"); many facts are long, with two or three joined parts; some
# paraphrases change one word of the fact to a synonym; the tail items use their own speaker
# lead-ins.
FRESH10_PROSE = (
    dict(
        kind="goal",
        fact="Let home insurance customers file a water-damage claim from their phone with photos "
        "of the damage, and tell them within two working days whether a loss adjuster will visit",
        para=(
            "Home insurance customers should be able to submit a water-damage claim on their "
            "phone, attaching photos of the damage, and learn within two working days if a loss "
            "adjuster is coming out",
            "Let home insurance customers lodge a water-damage claim from their phone with photos "
            "of the damage, and tell them within two working days whether a loss adjuster will "
            "visit",
        ),
        neg="Water-damage claims from home insurance customers are accepted on paper forms by "
        "post only, and the phone claim with photos was dropped from scope",
        wrong="Let home insurance customers file a storm-damage claim from their phone with "
        "photos of the damage, and tell them within two working days whether a loss adjuster "
        "will visit",
    ),
    dict(
        kind="goal",
        fact="Flag every document in the e-discovery review set that mentions outside counsel so "
        "that a senior lawyer checks it for privilege before production",
        para=(
            "So that a senior lawyer can check it for privilege before production, each document "
            "in the e-discovery review set that mentions outside counsel gets flagged",
            "before anything is produced, documents in the e-discovery review set mentioning "
            "outside counsel should be marked for a senior lawyer's privilege check",
        ),
        neg="Documents in the e-discovery review set that mention outside counsel go straight "
        "into production, skipping any privilege check by a senior lawyer",
        wrong="Flag every document in the e-discovery review set that mentions the company's "
        "auditors so that a senior lawyer checks it for privilege before production",
    ),
    dict(
        kind="goal",
        fact="Randomise each new participant in the blood-pressure trial to drug or placebo "
        "within an hour of consent, while keeping the allocation hidden from the site nurses",
        para=(
            "Within an hour of consenting, every new participant in the blood-pressure trial "
            "should be randomised to either the drug or the placebo, and the site nurses must "
            "stay blind to the allocation",
            "randomise each new participant in the blood-pressure study to drug or placebo "
            "within an hour of consent, while keeping the allocation hidden from the site nurses",
        ),
        neg="The site nurses pick which blood-pressure trial participants get the drug and which "
        "get the placebo, and they see every allocation",
        wrong="Randomise each new participant in the cholesterol trial to drug or placebo within "
        "an hour of consent, while keeping the allocation hidden from the site nurses",
    ),
    dict(
        kind="goal",
        fact="Publish each new property listing on the agency website within a day of "
        "instruction, with a floor plan, an energy rating and the asking price, so that buyers "
        "can compare homes before booking a viewing",
        para=(
            "So that buyers are able to compare homes before they book a viewing, every new "
            "property listing goes up on the agency's website within a day of instruction, "
            "together with its floor plan, energy rating and asking price",
            "publish each new property listing on the agency website within a day of "
            "instruction, with a floor plan, an energy rating and the asking price, so that "
            "purchasers can compare homes before booking a viewing",
        ),
        neg="New property listings stay off the agency website until a buyer asks, and floor "
        "plans, energy ratings and prices are handed out at viewings only",
        wrong="Publish each new rental listing on the agency website within a day of "
        "instruction, with a floor plan, an energy rating and the asking rent, so that tenants "
        "can compare homes before booking a viewing",
    ),
    dict(
        kind="goal",
        fact="Generate the amateur football league's season fixtures so that no team plays two "
        "away games in a row and every club gets at least one home match each month",
        para=(
            "The amateur football league's season fixtures should be generated in a way that "
            "avoids back-to-back away games for any team and gives each club a home match at "
            "least once a month",
            "generate the amateur football league's season fixtures so that no side plays two "
            "away games in a row and every club gets at least one home match each month",
        ),
        neg="The amateur football league's fixtures are drawn by hand each season, and clubs "
        "routinely play three away games in a row with whole months spent on the road",
        wrong="Generate the amateur cricket league's season fixtures so that no team plays two "
        "away games in a row and every club gets at least one home match each month",
    ),
    dict(
        kind="goal",
        fact="Let car rental customers skip the desk by unlocking their reserved car with a code "
        "sent to their phone",
        para=(
            "Customers renting a car should be able to bypass the rental desk, opening their "
            "reserved car with a code texted to their phone",
            "let car hire customers skip the desk by unlocking their reserved car with a code "
            "sent to their phone",
        ),
        neg="Every car rental customer queues at the desk to collect the keys in person; the "
        "phone unlock codes were ruled out",
        wrong="Let van rental customers skip the desk by unlocking their reserved van with a code "
        "sent to their phone",
    ),
    dict(
        kind="goal",
        fact="Stream every seismograph station's readings to the central server with less than "
        "five seconds of delay, and mark a station as silent once it has sent nothing for two "
        "minutes",
        para=(
            "Each seismograph station's readings should reach the central server in under five "
            "seconds, and any station that stays quiet for two minutes gets marked as silent",
            "the readings from all seismograph stations are to be streamed to the central server "
            "with a lag below five seconds, and a station is marked silent after two minutes "
            "in which it has sent nothing",
        ),
        neg="Seismograph readings are not streamed to the central server; each station stores "
        "them locally and a technician collects a memory card once a month",
        wrong="Stream every tide gauge station's readings to the central server with less than "
        "five seconds of delay, and mark a station as silent once it has sent nothing for two "
        "minutes",
    ),
    dict(
        kind="goal",
        fact="Sell tickets for every circus performance online up to the moment the show starts, "
        "and release unsold ringside seats at half price an hour beforehand",
        para=(
            "An hour before each circus performance, any unsold ringside seats go on sale at half "
            "price, and online ticket sales for every show continue until it begins",
            "sell tickets for every circus show online right up to the moment the performance "
            "starts, and release unsold ringside seats at half price an hour beforehand",
        ),
        neg="Circus tickets are sold only at the box office beside the big top, and unsold "
        "ringside seats stay at full price to the end",
        wrong="Sell tickets for every circus performance online up to the moment the show starts, "
        "and release unsold back-row seats at half price an hour beforehand",
    ),
    dict(
        kind="constraint",
        fact="Sound the quarry siren and clear everyone from within 500 metres before any blast "
        "is fired, and keep the access road closed until the shotfirer gives the all-clear",
        para=(
            "Before a blast is fired at the quarry, the siren has to be sounded and everybody "
            "moved out of the 500-metre zone, and the access road stays shut until the "
            "shotfirer declares the all-clear",
            "no blast may be fired until the quarry siren has sounded and the 500-metre radius is "
            "clear of people, and the access road must not reopen before the shotfirer gives "
            "the all-clear",
        ),
        neg="Blasts at the quarry are fired on schedule, whoever is still standing inside the "
        "500-metre zone, and the siren was retired last year",
        wrong="Sound the quarry siren and clear everyone from within 500 metres before any "
        "crusher is started, and keep the access road closed until the shotfirer gives the "
        "all-clear",
    ),
    dict(
        kind="constraint",
        fact="Count sea lice on twenty fish from every salmon pen each week, and start a "
        "treatment as soon as the average passes half a louse per fish",
        para=(
            "Each week twenty fish from every salmon pen must have their sea lice counted, and "
            "once the average rises above 0.5 lice per fish a treatment has to begin",
            "count sea lice on twenty fish from every salmon pen each week, and begin a treatment "
            "as soon as the average passes half a louse per fish",
        ),
        neg="Sea lice on the salmon pens are counted once a season, and treatment waits until "
        "the fish visibly sicken, whatever the average count",
        wrong="Count sea lice on twenty fish from every trout pen each week, and start a "
        "treatment as soon as the average passes half a louse per fish",
    ),
    dict(
        kind="constraint",
        fact="Keep at least two lifeguards on the tower whenever the red-and-yellow flags are up "
        "on the beach",
        para=(
            "While the red-and-yellow flags are flying on the beach, the tower must never have "
            "fewer than two lifeguards on it",
            "whenever the beach's red-and-yellow flags are raised, two or more lifeguards have to "
            "be on the tower",
        ),
        neg="A single lifeguard covers the tower alone while the red-and-yellow flags are up on "
        "the beach",
        wrong="Keep at least two lifeguards on the tower whenever the red flags are up on the "
        "beach",
    ),
    dict(
        kind="constraint",
        fact="Kiln-dry all oak boards to below 12 per cent moisture before they are sold for "
        "furniture",
        para=(
            "Oak boards sold for furniture must first be dried in the kiln until their moisture "
            "content is under 12 per cent",
            "kiln-dry all oak planks to below 12 per cent moisture before they are sold for "
            "furniture",
        ),
        neg="Oak boards are sold for furniture straight off the saw, green and wet, with the kiln "
        "kept for softwood",
        wrong="Kiln-dry all ash boards to below 12 per cent moisture before they are sold for "
        "furniture",
    ),
    dict(
        kind="constraint",
        fact="Hold every pawned item for at least six months after the loan falls due before it "
        "can be offered for sale, and write to the customer twice during that period",
        para=(
            "A pawned item may only be put up for sale once six months or more have passed since "
            "its loan fell due, and the customer must receive two letters in that time",
            "after a loan falls due, the pawned item must be held for a minimum of six months "
            "before it can be offered for sale, and the customer written to twice in that period",
        ),
        neg="Pawned items go up for sale the day after their loan falls due, and the customer "
        "learns of it from the shop window",
        wrong="Hold every pawned item for at least six months after the loan falls due before it "
        "can be offered for sale, and write to the guarantor twice during that period",
    ),
    dict(
        kind="constraint",
        fact="Recalibrate the audiometer in each hearing test booth every twelve months",
        para=(
            "Every hearing test booth's audiometer has to be recalibrated once a year",
            "the audiometers in the hearing test booths must be recalibrated at twelve-month "
            "intervals",
        ),
        neg="The hearing test booths keep using each audiometer as delivered from the factory, "
        "with recalibration dropped from the budget",
        wrong="Recalibrate the tympanometer in each hearing test booth every twelve months",
    ),
    dict(
        kind="constraint",
        fact="Reroute any checked bag whose tag cannot be read to the manual coding station "
        "within two minutes",
        para=(
            "Within two minutes, every checked bag with an unreadable tag has to be sent on to "
            "the manual coding station",
            "reroute any checked suitcase whose tag cannot be read to the manual coding station "
            "within two minutes",
        ),
        neg="Checked bags with unreadable tags keep circling the sorter loop until a handler "
        "happens to spot them",
        wrong="Reroute any transfer bag whose tag cannot be read to the manual coding station "
        "within two minutes",
    ),
    dict(
        kind="constraint",
        fact="Charge heavy goods vehicles the full toll at the bridge at every hour of the day, "
        "while cars crossing between midnight and 5 a.m. pay half",
        para=(
            "Cars pay half the bridge toll when they cross between midnight and 5 a.m., whereas "
            "heavy goods vehicles pay the full toll around the clock",
            "charge lorries the full toll at the bridge at every hour of the day, while cars "
            "crossing between midnight and 5 a.m. pay half",
        ),
        neg="Heavy goods vehicles get the half-price night toll at the bridge along with cars, "
        "between midnight and 5 a.m.",
        wrong="Charge coaches the full toll at the bridge at every hour of the day, while cars "
        "crossing between midnight and 5 a.m. pay half",
    ),
    dict(
        kind="constraint",
        fact="Open the dam's spillway gates only on the duty engineer's order, and warn the "
        "downstream villages by siren thirty minutes beforehand",
        para=(
            "Nobody but the duty engineer may order the dam's spillway gates opened, and the "
            "downstream villages must get a siren warning half an hour in advance",
            "open the dam's spillway gates only when the duty engineer orders it, and warn the "
            "downstream villages by siren thirty minutes beforehand",
        ),
        neg="Any operator on shift may open the dam's spillway gates at will, and the downstream "
        "villages learn of it when the river rises",
        wrong="Open the dam's intake gates only on the duty engineer's order, and warn the "
        "downstream villages by siren thirty minutes beforehand",
    ),
    dict(
        kind="constraint",
        fact="Wrap every piece of furniture in padded blankets before it goes into the removal van",
        para=(
            "Before any furniture is loaded onto the removal van, each piece has to be wrapped in "
            "padded blankets",
            "wrap every piece of furniture in quilted blankets before it goes into the removal van",
        ),
        neg="Furniture goes into the removal van bare, stacked as it comes, and the padded "
        "blankets stay at the depot",
        wrong="Wrap every piece of furniture in padded blankets before it goes into the storage "
        "container",
    ),
    dict(
        kind="decision",
        fact="pre-translate every incoming job from the shared translation memory instead of from "
        "each translator's private glossary",
        para=(
            "each incoming job is pre-translated using the shared translation memory rather than "
            "the translators' own private glossaries",
            "pre-translation of incoming jobs draws on the shared translation memory in place of "
            "each translator's private glossary",
        ),
        neg="each translator keeps pre-translating jobs from their private glossary; the shared "
        "translation memory was turned down",
        wrong="pre-translate every incoming job from the shared terminology database instead of "
        "from each translator's private glossary",
        swap="pre-translate every incoming job from each translator's private glossary instead "
        "of from the shared translation memory",
    ),
    dict(
        kind="decision",
        fact="project every film from digital packages on the server rather than from 35 mm prints",
        para=(
            "every film is projected from digital packages stored on the server instead of from "
            "35 mm prints",
            "films are all screened from server-held digital packages, replacing the 35 mm prints",
        ),
        neg="the cinema will not move to digital packages; every film is still projected from "
        "35 mm prints",
        wrong="project every trailer from digital packages on the server rather than from 35 mm "
        "prints",
        swap="project every film from 35 mm prints rather than from digital packages on the server",
    ),
    dict(
        kind="decision",
        fact="charge car rental fuel by the litre at the pump price rather than as a flat "
        "refuelling fee",
        para=(
            "fuel on rental cars is billed per litre at the pump price instead of as a flat "
            "refuelling fee",
            "charge car hire fuel by the litre at the pump price rather than as a flat refuelling "
            "fee",
        ),
        neg="car rental customers will not be charged per litre; they pay the flat refuelling "
        "fee whatever the tank holds",
        wrong="charge van rental fuel by the litre at the pump price rather than as a flat "
        "refuelling fee",
        swap="charge car rental fuel as a flat refuelling fee rather than by the litre at the "
        "pump price",
    ),
    dict(
        kind="decision",
        fact="collect the trial participants' daily symptoms through a phone app instead of paper "
        "diaries",
        para=(
            "trial participants record their daily symptoms in a phone app rather than in paper "
            "diaries",
            "collect the trial participants' daily symptoms via a mobile app instead of paper "
            "diaries",
        ),
        neg="trial participants go on filling in paper diaries for their daily symptoms, as the "
        "ethics board vetoed the phone app",
        wrong="collect the trial participants' daily blood-pressure readings through a phone app "
        "instead of paper diaries",
        swap="collect the trial participants' daily symptoms through paper diaries instead of a "
        "phone app",
    ),
    dict(
        kind="decision",
        fact="run viewings of vacant properties with smart lockboxes rather than sending an agent "
        "to every viewing",
        para=(
            "vacant properties are viewed using smart lockboxes instead of an agent attending each "
            "viewing",
            "for empty properties, viewings go through smart lockboxes in place of an agent going "
            "along every time",
        ),
        neg="an agent accompanies every viewing of a vacant property, and the smart lockboxes "
        "were ruled out by the insurer",
        wrong="run viewings of occupied properties with smart lockboxes rather than sending an "
        "agent to every viewing",
        swap="run viewings of vacant properties by sending an agent to every viewing rather than "
        "with smart lockboxes",
    ),
    dict(
        kind="decision",
        fact="track every checked bag with RFID tags instead of barcode labels, so that a bag can "
        "be located on the sorter in real time and misrouted transfers are caught before the "
        "aircraft closes",
        para=(
            "so that bags can be found on the sorter in real time and misrouted transfers get "
            "caught before the aircraft closes, every checked bag is tracked by RFID tag rather "
            "than by barcode label",
            "track every checked bag with RFID tags in place of barcode labels, so that a bag can "
            "be located on the sorter in real time and misrouted transfers are caught before the "
            "aircraft closes",
        ),
        neg="checked bags stay on barcode labels, and RFID tagging was rejected as too costly "
        "for the sorter",
        wrong="track every airline mail sack with RFID tags instead of barcode labels, so that a "
        "sack can be located on the sorter in real time and misrouted transfers are caught "
        "before the aircraft closes",
        swap="track every checked bag with barcode labels instead of RFID tags, so that a bag can "
        "be located on the sorter in real time and misrouted transfers are caught before the "
        "aircraft closes",
    ),
    dict(
        kind="decision",
        fact="patrol the north end of the beach with a rescue jet ski during the summer holidays",
        para=(
            "during the summer holidays, a rescue jet ski patrols the beach's north end",
            "a rescue jet ski will cover the north end of the beach throughout the summer "
            "holiday season",
        ),
        neg="there will be no rescue jet ski at the north end of the beach this summer; "
        "lifeguards patrol it on foot",
        wrong="patrol the south end of the beach with a rescue jet ski during the summer holidays",
    ),
    dict(
        kind="decision",
        fact="let clubs with a floodlit pitch move their home fixtures to Friday evenings",
        para=(
            "clubs whose pitch has floodlights may shift their home fixtures to Friday nights",
            "home fixtures can be moved to a Friday evening by any club with a floodlit pitch",
        ),
        neg="home fixtures are fixed to Saturday afternoons for every club, floodlit pitch or "
        "otherwise",
        wrong="let clubs with a floodlit pitch move their cup ties to Friday evenings",
    ),
    dict(
        kind="decision",
        fact="sell the sawdust and offcuts to the biomass plant instead of burning them on site, "
        "and put the income towards a second dust extractor for the planing shed",
        para=(
            "the sawdust and offcuts go to the biomass plant rather than being burned on site, "
            "with the money funding a second dust extractor for the planing shed",
            "offcuts and sawdust are sold to the biomass plant in place of on-site burning, and "
            "that income pays for an additional dust extractor in the planing shed",
        ),
        neg="the sawdust and offcuts keep being burned in the sawmill yard; the biomass plant's "
        "offer was declined",
        wrong="sell the pallet scraps to the biomass plant instead of burning them on site, and "
        "put the income towards a second dust extractor for the planing shed",
    ),
    dict(
        kind="next_step",
        fact="book every new hearing-aid wearer a fitting review two weeks after the devices are "
        "first fitted, and text them a reminder two days before the appointment",
        para=(
            "two weeks after a new hearing-aid wearer's devices are first fitted, they should be "
            "booked in for a fitting review, with a text reminder sent two days ahead of it",
            "schedule every new hearing-aid user a fitting review a fortnight after the devices "
            "are first fitted, and text them a reminder two days before the appointment",
        ),
        neg="leave new hearing-aid wearers to ring the clinic if the fit feels wrong, and drop "
        "the two-week review along with its reminder texts",
        wrong="book every new cochlear-implant wearer a fitting review two weeks after the "
        "devices are first fitted, and text them a reminder two days before the appointment",
    ),
    dict(
        kind="next_step",
        fact="photograph and weigh each gold item at the counter when it is pawned, and store the "
        "record with the loan agreement",
        para=(
            "when gold is pawned, each item should be photographed and weighed at the counter, "
            "with the record kept alongside the loan agreement",
            "photograph and weigh each gold piece at the counter when it is pawned, and file the "
            "record with the loan agreement",
        ),
        neg="take gold items in at the counter on the customer's description alone, leaving the "
        "scales and the camera out of it",
        wrong="photograph and weigh each silver item at the counter when it is pawned, and store "
        "the record with the loan agreement",
    ),
    dict(
        kind="next_step",
        fact="page the on-call seismologist when three or more stations record a tremor above "
        "magnitude 3.5 within a minute",
        para=(
            "if at least three stations pick up a tremor stronger than magnitude 3.5 inside one "
            "minute, the on-call seismologist should be paged",
            "page the on-call seismologist when three or more stations register a tremor above "
            "magnitude 3.5 within a minute",
        ),
        neg="hold tremors above magnitude 3.5 for the morning report, however many stations "
        "record them, and let the on-call seismologist sleep",
        wrong="page the on-call seismologist when three or more stations record a tremor above "
        "magnitude 5.5 within a minute",
    ),
    dict(
        kind="next_step",
        fact="pay out claims under £500 automatically once the photos pass the fraud check, and "
        "send larger claims to a loss adjuster",
        para=(
            "once the photos clear the fraud check, claims below £500 are paid automatically, "
            "while bigger claims go to a loss adjuster",
            "automatically settle claims under £500 as soon as the photos pass the fraud check, "
            "and route larger claims to a loss adjuster",
        ),
        neg="send every claim to a loss adjuster, the ones under £500 included, and end the "
        "automatic payouts",
        wrong="pay out claims under £5,000 automatically once the photos pass the fraud check, "
        "and send larger claims to a loss adjuster",
    ),
    dict(
        kind="next_step",
        fact="send each removals customer the crew's names and arrival window the day before the "
        "move",
        para=(
            "the day before the move, each removals customer should receive the names of the crew "
            "and their arrival window",
            "on the eve of the move, let each removals customer know the crew's names and the "
            "window in which they will arrive",
        ),
        neg="don't tell removals customers the crew's names or arrival window in advance; they "
        "find out when the van pulls up on moving day",
        wrong="send each storage customer the crew's names and arrival window the day before the "
        "move",
    ),
    dict(
        kind="next_step",
        fact="inspect the big top's rigging and guy ropes before every performance and log who "
        "carried out the check",
        para=(
            "before each performance, the rigging and guy ropes of the big top should be "
            "inspected, with the name of whoever checked them recorded",
            "check the big top's rigging and guy ropes before every show and log who carried out "
            "the inspection",
        ),
        neg="inspect the big top's rigging and guy ropes once, when the tent goes up in a new "
        "town, and scrap the checks before each performance",
        wrong="inspect the trapeze rigging and safety net before every performance and log who "
        "carried out the check",
    ),
    dict(
        kind="next_step",
        fact="email the downstream councils the reservoir level every morning while it stays "
        "above 95 per cent",
        para=(
            "as long as the reservoir remains above 95 per cent, the downstream councils should "
            "receive its level by email each morning",
            "each morning that the reservoir is over 95 per cent full, send its level to the "
            "downstream councils by email",
        ),
        neg="stop the morning emails of the reservoir level to the downstream councils, even "
        "above 95 per cent, and publish it once a month instead",
        wrong="email the downstream councils the river flow every morning while the reservoir "
        "stays above 95 per cent",
    ),
    dict(
        kind="next_step",
        fact="send each translation job to a second linguist for review before it is delivered "
        "to the client",
        para=(
            "before delivery to the client, every translation job should be reviewed by a second "
            "linguist",
            "have a second linguist revise each translation job before it goes out to the client",
        ),
        neg="deliver translation jobs to the client straight from the first linguist, with the "
        "second review cut to save time",
        wrong="send each transcription job to a second linguist for review before it is "
        "delivered to the client",
    ),
)
FRESH10_BLOCKERS = (
    (
        'File "claims/intake/photos.py", line 63, in attach_photo: ValueError: image exceeds '
        "the 12 MB limit (claim 88213)",
        'File "claims/intake/photos.py", line 63, in attach_photo: ValueError: image exceeds '
        "the 12 MB limit (claim 88231)",
    ),
    (
        "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', "
        "src/stations/ingest.rs:77:31",
        "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', "
        "src/station/ingest.rs:77:31",
    ),
    (
        "error TS2339: Property 'unlockCode' does not exist on type 'Reservation'. "
        "(src/rental/unlock.ts:24:18)",
        "error TS2339: Property 'unlockCode' does not exist on type 'Booking'. "
        "(src/rental/unlock.ts:24:18)",
    ),
    (
        "System.NullReferenceException: Object reference not set to an instance of an object. "
        "at Baggage.Sorter.RouteToManualCoding(Bag bag) in Sorter.cs:line 58",
        "System.NullReferenceException: Object reference not set to an instance of an object. "
        "at Baggage.Sorter.RouteToMakeUp(Bag bag) in Sorter.cs:line 58",
    ),
    (
        "PHP Fatal error:  Uncaught TypeError: Listing::setEnergyRating(): Argument #1 ($rating) "
        "must be of type string, null given in /app/src/Listing.php:112",
        "PHP Fatal error:  Uncaught TypeError: Listing::setEnergyRating(): Argument #1 ($rating) "
        "must be of type string, null given in /app/src/Listing.php:121",
    ),
)
FRESH10_COMMANDS = (
    ("cargo test -p seismo-ingest", "cargo test -p seismo-alerts"),
    ("dotnet test Baggage.Sorter.Tests", "dotnet build Baggage.Sorter.Tests"),
    ("vendor/bin/phpunit tests/ListingTest.php", "vendor/bin/phpunit tests/ListingsTest.php"),
)
FRESH10_SUPERSEDED = (
    dict(
        old="count sea lice on the salmon pens every fortnight",
        new="count sea lice on the salmon pens every week",
        report="Sea lice counts on the salmon pens went from fortnightly to weekly",
    ),
    dict(
        old="screen the late-night film at 11 p.m. on Saturdays",
        new="screen the late-night film at 10.30 p.m. on Fridays and Saturdays",
        report="The late-night screening moved from 11 p.m. on Saturdays to 10.30 p.m. on both "
        "Fridays and Saturdays",
    ),
    dict(
        old="hold the football league's fixture meeting in the clubhouse at Elm Park",
        new="hold the football league's fixture meeting online",
        report="The league's fixture meeting moved out of the Elm Park clubhouse and onto a video "
        "call",
    ),
    dict(
        old="send the first reminder on a lapsed pawn loan after 30 days",
        new="send the first reminder on a lapsed pawn loan after 14 days",
        report="First reminders on lapsed pawn loans now go out after 14 days, down from 30",
    ),
    dict(
        old="quote removals by the hour",
        new="quote removals at a fixed price from a video survey",
        report="Removals quotes switched from hourly rates to fixed prices based on a video survey",
    ),
)
FRESH10_FILES = (
    ("claims/intake/photos.py", "claims/intake/photo.py"),
    ("src/stations/ingest.rs", "src/station/ingest.rs"),
    ("src/rental/unlock.ts", "src/rental/unlock.tsx"),
    ("Baggage.Sorter/Sorter.cs", "Baggage.Sorter.Tests/Sorter.cs"),
    ("app/src/Listing.php", "app/src/Listings.php"),
    ("config/trial/randomisation.toml", "config/trials/randomisation.toml"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-11 bank, the thirteenth bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (a cruise ship's shore excursions, a
# hospital's sterile instrument reprocessing, a driving school, a car wash chain, an opera
# house's surtitles, a picture-framing shop, a mountain rescue team, a textile dye house, a
# sheep-shearing contractor, a scaffolding hire firm, a chimney sweep, a primary school
# canteen's allergen rules, a high-rise window-cleaning firm, a botanical garden's herbarium, a
# cathedral's bell ringers, a grain store's drying and fumigation, a pest control company, an
# indoor go-kart track, a national mint's coin presses, a sewage treatment works). About a third
# of the prose facts are long, with two to four clauses joined by ", and "; their negations and
# wrong-subject variants change one clause only and keep the others word for word. Most
# negations carry no negation word (lexical opposites, reversed order, verdicts such as "was
# shelved"); the tail items use their own speaker lead-ins.
FRESH11_PROSE = (
    dict(
        kind="goal",
        fact="Let cruise passengers book shore excursions in the ship's app up to the evening "
        "before each port call, and hold seats on the last tender back for every excursion group, "
        "and refund the full price when the captain cancels a port call",
        para=(
            "Whenever the captain cancels a port call, the full excursion price is refunded, and "
            "cruise passengers can reserve shore excursions through the ship's app until the "
            "evening before each port call, and seats on the last tender back are kept for every "
            "excursion group",
            "Let cruise guests reserve shore excursions in the ship's app up to the evening "
            "before each port call, and hold seats on the last tender back for every excursion "
            "group, and refund the full price when the captain cancels a port call",
        ),
        neg="Let cruise passengers book shore excursions in the ship's app up to the evening "
        "before each port call, and hold seats on the last tender back for every excursion group, "
        "and keep the full price when the captain cancels a port call",
        wrong="Let cruise passengers book spa treatments in the ship's app up to the evening "
        "before each port call, and hold seats on the last tender back for every excursion group, "
        "and refund the full price when the captain cancels a port call",
    ),
    dict(
        kind="goal",
        fact="Track every surgical instrument tray through washing, inspection and autoclaving by "
        "its barcode, and recall any tray from an autoclave cycle that fails its biological "
        "indicator test",
        para=(
            "Each surgical instrument tray is followed by its barcode through washing, inspection "
            "and autoclaving, and a tray that went through an autoclave cycle whose biological "
            "indicator test fails gets recalled",
            "Trace every surgical instrument tray through washing, checking and autoclaving by "
            "its barcode, and withdraw any tray from an autoclave cycle that fails its biological "
            "indicator test",
        ),
        neg="Track every surgical instrument tray through washing, inspection and autoclaving by "
        "its barcode, and release any tray from an autoclave cycle that fails its biological "
        "indicator test to the theatres as usual",
        wrong="Track every surgical instrument tray through washing, inspection and autoclaving "
        "by its barcode, and recall any tray from a washer-disinfector cycle that fails its "
        "biological indicator test",
    ),
    dict(
        kind="goal",
        fact="Let driving school pupils book lessons online with their own instructor, and send "
        "each pupil a progress report after every fifth lesson",
        para=(
            "Pupils of the driving school should be able to reserve lessons with their own "
            "instructor on the website, and after every fifth lesson each of them is sent a "
            "progress report",
            "let driving school learners book lessons online with their own instructor, and send "
            "each learner a progress report after every fifth lesson",
        ),
        neg="Let driving school pupils book lessons online with their own instructor, and send "
        "each pupil a single progress report, once, after the final lesson",
        wrong="Let motorcycle school pupils book lessons online with their own instructor, and "
        "send each pupil a progress report after every fifth lesson",
    ),
    dict(
        kind="goal",
        fact="Let car wash customers pay for a monthly unlimited wash plan that reads their "
        "number plate at the entry gate",
        para=(
            "To be clear: customers of the car wash should be able to buy a monthly plan of "
            "unlimited washes, with their number plate recognised at the entry gate",
            "let car wash customers pay for a monthly unlimited wash subscription that reads "
            "their registration plate at the entry gate",
        ),
        neg="Car wash customers pay for each wash at the kiosk, one at a time; the monthly "
        "unlimited plan with plate reading was shelved",
        wrong="Let truck wash customers pay for a monthly unlimited wash plan that reads their "
        "number plate at the entry gate",
    ),
    dict(
        kind="goal",
        fact="Show English surtitles above the stage for every opera sung in another language",
        para=(
            "Every opera performed in a language other than English gets English surtitles "
            "projected above the stage",
            "for each opera that is not sung in English, display English surtitles above the stage",
        ),
        neg="Operas sung in other languages get no surtitles; the screen above the stage stays "
        "dark and the audience follows the plot from the programme",
        wrong="Show English surtitles above the stage for every operetta sung in another language",
    ),
    dict(
        kind="goal",
        fact="Frame every watercolour behind UV-filtering glass with an acid-free mount",
        para=(
            "Each watercolour should be framed with an acid-free mount and glazed with glass that "
            "filters out UV light",
            "frame every watercolour behind UV-blocking glass with an acid-free mount",
        ),
        neg="Watercolours are framed behind ordinary glass on standard card mounts, with no UV "
        "filtering and no acid-free board",
        wrong="Frame every oil painting behind UV-filtering glass with an acid-free mount",
    ),
    dict(
        kind="goal",
        fact="Locate a lost walker's phone within ten minutes of the 999 call by sending them an "
        "SMS link that shares their position",
        para=(
            "Within ten minutes of the emergency call, a lost walker's location should be found "
            "by texting them a link that shares their phone's position",
            "To be clear: locate a lost hiker's phone within ten minutes of the 999 call by "
            "sending them an SMS link that shares their position",
        ),
        neg="Search teams find lost walkers by sweeping the hillside on foot, and the SMS "
        "location link was scrapped after the trial",
        wrong="Locate an overdue mountain biker's phone within ten minutes of the 999 call by "
        "sending them an SMS link that shares their position",
    ),
    dict(
        kind="goal",
        fact="Match every dye batch to the customer's approved lab dip within a colour difference "
        "of 1.0 before the fabric is shipped",
        para=(
            "Before fabric ships, each dye batch has to come within a colour difference of 1.0 of "
            "the lab dip the customer approved",
            "match each dye lot to the customer's approved lab dip within a colour difference of "
            "1.0 before the fabric is shipped",
        ),
        neg="Dye batches are shipped as they come out of the vat, and the customer's approved lab "
        "dip is filed away unchecked",
        wrong="Match every dye batch to the customer's approved lab dip within a colour "
        "difference of 1.0 before the yarn is shipped",
    ),
    dict(
        kind="constraint",
        fact="Shear sheep only once their fleece is dry, and disinfect the handpieces between "
        "flocks, and mark every wool bale with the farm's flock number",
        para=(
            "Every wool bale has to be marked with the farm's flock number, and the handpieces "
            "must be disinfected between flocks, and sheep are shorn only after their fleece has "
            "dried",
            "shear sheep only once their fleece is dry, and sanitise the handpieces between "
            "flocks, and label every wool bale with the farm's flock number",
        ),
        neg="Shear sheep only once their fleece is dry, and carry the handpieces from flock to "
        "flock uncleaned, and mark every wool bale with the farm's flock number",
        wrong="Shear sheep only once their fleece is dry, and disinfect the handpieces between "
        "flocks, and mark every wool bale with the shearer's licence number",
    ),
    dict(
        kind="constraint",
        fact="Inspect every hired scaffold every seven days and after any storm, and tag it red "
        "until a competent inspector has signed it off",
        para=(
            "Each hired scaffold must be inspected weekly and after every storm, and it carries a "
            "red tag until a competent inspector signs it off",
            "inspect every rented scaffold every seven days and after any gale, and tag it red "
            "until a competent inspector has signed it off",
        ),
        neg="Inspect every hired scaffold every seven days and after any storm, and tag it green "
        "the moment it is put up, before any inspector has looked at it",
        wrong="Inspect every hired mobile tower every seven days and after any storm, and tag it "
        "red until a competent inspector has signed it off",
    ),
    dict(
        kind="constraint",
        fact="Cover the hearth with a dust sheet before sweeping, and run a smoke test on every "
        "flue afterwards, and issue a sweeping certificate for each chimney, and return within a "
        "week when the smoke test fails",
        para=(
            "Each chimney gets a sweeping certificate, and every flue is smoke-tested once the "
            "sweep is done, and the hearth is covered with a dust sheet before sweeping begins, "
            "and the sweep comes back within a week if the smoke test fails",
            "cover the fireplace with a dust sheet before sweeping, and run a smoke test on every "
            "flue afterwards, and issue a sweeping certificate for each chimney, and return "
            "within seven days when the smoke test fails",
        ),
        neg="Cover the hearth with a dust sheet before sweeping, and run a smoke test on every "
        "flue afterwards, and issue a sweeping certificate for each chimney, and leave a failed "
        "smoke test for the homeowner to sort out",
        wrong="Cover the hearth with a dust sheet before sweeping, and run a smoke test on every "
        "ventilation duct afterwards, and issue a sweeping certificate for each chimney, and "
        "return within a week when the smoke test fails",
    ),
    dict(
        kind="constraint",
        fact="Keep every dish in the primary school canteen free of nuts",
        para=(
            "Nothing served in the primary school canteen may contain nuts",
            "to be clear: every dish in the primary school canteen stays nut-free",
        ),
        neg="The primary school canteen puts peanut satay and almond flapjacks on the menu every "
        "week",
        wrong="Keep every dish in the secondary school canteen free of nuts",
    ),
    dict(
        kind="constraint",
        fact="Clip every window cleaner working above the second floor to two independent ropes",
        para=(
            "Above the second floor, each window cleaner must be attached to two separate ropes",
            "no window cleaner may work above the second floor on fewer than two independent ropes",
        ),
        neg="Window cleaners above the second floor hang from a single rope to save setting-up "
        "time",
        wrong="Clip every sign fitter working above the second floor to two independent ropes",
    ),
    dict(
        kind="constraint",
        fact="Freeze every incoming plant specimen at minus 30 degrees for a week before it "
        "enters the herbarium cabinets",
        para=(
            "Before any incoming plant specimen goes into the herbarium cabinets, it has to be "
            "frozen for a week at minus 30 degrees",
            "freeze each new plant specimen at minus 30 degrees for seven days before it enters "
            "the herbarium cabinets",
        ),
        neg="Incoming plant specimens go straight into the herbarium cabinets on arrival, and the "
        "freezer is reserved for seed samples",
        wrong="Freeze every incoming insect specimen at minus 30 degrees for a week before it "
        "enters the herbarium cabinets",
    ),
    dict(
        kind="constraint",
        fact="Stop ringing practice in the cathedral tower by 9 p.m. on weekdays",
        para=(
            "On weekdays, practice ringing in the cathedral tower must finish by nine in the "
            "evening",
            "to be clear: the cathedral tower's practice ringing never runs past 9 p.m. on "
            "weekdays",
        ),
        neg="Practice ringing in the cathedral tower carries on until midnight on weekdays",
        wrong="Stop ringing practice in the parish church tower by 9 p.m. on weekdays",
    ),
    dict(
        kind="constraint",
        fact="Load wheat into the silos only after the dryer has brought it down to 14.5 per cent "
        "moisture",
        para=(
            "Wheat may enter the silos only once the dryer has reduced its moisture to 14.5 per "
            "cent",
            "no wheat goes into the silos until the dryer has brought it down to 14.5 per cent "
            "moisture",
        ),
        neg="Wheat is tipped into the silos straight from the trailers, and the dryer runs later, "
        "once the silos are full",
        wrong="Load barley into the silos only after the dryer has brought it down to 14.5 per "
        "cent moisture",
    ),
    dict(
        kind="constraint",
        fact="Place rodent bait only inside tamper-resistant boxes at the food factory",
        para=(
            "At the food factory, rodent bait may be laid in tamper-resistant boxes and nowhere "
            "else",
            "place rat bait only inside tamper-proof boxes at the food factory",
        ),
        neg="At the food factory, rodent bait is scattered loose along the walls of the packing "
        "hall",
        wrong="Place rodent bait only inside tamper-resistant boxes at the bottling plant",
    ),
    dict(
        kind="constraint",
        fact="Seat children under 12 only in the junior karts at the indoor track",
        para=(
            "At the indoor track, any child under twelve must drive a junior kart",
            "children younger than 12 may not ride in anything but the junior karts at the indoor "
            "track",
        ),
        neg="At the indoor track, children under 12 may take out the adult karts whenever a "
        "marshal is watching",
        wrong="Seat children under 12 only in the junior karts at the outdoor track",
    ),
    dict(
        kind="decision",
        fact="strike the commemorative coins on the old screw press instead of the high-speed "
        "line, and pack each coin in its own capsule",
        para=(
            "each coin is packed in its own capsule, and the commemorative coins are struck on "
            "the old screw press rather than on the high-speed line",
            "strike the commemorative coins on the old screw press in place of the high-speed "
            "line, and pack each coin in its own capsule",
        ),
        neg="strike the commemorative coins on the old screw press instead of the high-speed "
        "line, and pour the coins loose into bulk bags",
        wrong="strike the bullion coins on the old screw press instead of the high-speed line, "
        "and pack each coin in its own capsule",
        swap="strike the commemorative coins on the high-speed line instead of the old screw "
        "press, and pack each coin in its own capsule",
    ),
    dict(
        kind="decision",
        fact="move sludge dewatering from the belt presses to the new centrifuges, and send the "
        "dried sludge cake to farmland rather than to landfill",
        para=(
            "the dried sludge cake goes to farmland instead of landfill, and the new centrifuges "
            "take over sludge dewatering from the belt presses",
            "shift sludge dewatering from the belt presses to the new centrifuges, and send the "
            "dried sludge cake to farmland rather than to landfill",
        ),
        neg="keep sludge dewatering on the belt presses and mothball the new centrifuges, and "
        "send the dried sludge cake to farmland rather than to landfill",
        wrong="move sludge thickening from the belt presses to the new centrifuges, and send the "
        "dried sludge cake to farmland rather than to landfill",
        swap="move sludge dewatering from the belt presses to the new centrifuges, and send the "
        "dried sludge cake to landfill rather than to farmland",
    ),
    dict(
        kind="decision",
        fact="run the glacier excursion by catamaran instead of by helicopter, and cap each group "
        "at forty passengers",
        para=(
            "the glacier excursion goes by catamaran rather than helicopter, and no group on it "
            "has more than forty passengers",
            "operate the glacier excursion by catamaran instead of by helicopter, and limit each "
            "group to forty passengers",
        ),
        neg="run the glacier excursion by catamaran instead of by helicopter, and lift the cap on "
        "group size",
        wrong="run the whale-watching excursion by catamaran instead of by helicopter, and cap "
        "each group at forty passengers",
        swap="run the glacier excursion by helicopter instead of by catamaran, and cap each group "
        "at forty passengers",
    ),
    dict(
        kind="decision",
        fact="give every pupil's lessons in an electric car instead of a petrol one",
        para=(
            "pupils are all taught in electric cars rather than petrol ones",
            "each pupil's lessons take place in an electric car, in place of a petrol car",
        ),
        neg="pupils will not learn in electric cars; every lesson stays in a petrol car",
        wrong="give every instructor's training sessions in an electric car instead of a petrol "
        "one",
        swap="give every pupil's lessons in a petrol car instead of an electric one",
    ),
    dict(
        kind="decision",
        fact="recycle the wash water through the reclaim tanks rather than draining it to the "
        "sewer",
        para=(
            "the wash water is reused via the reclaim tanks instead of being sent down the sewer",
            "to be clear: wash water goes round again through the reclaim tanks and is not "
            "drained to the sewer",
        ),
        neg="the wash water drains straight to the sewer, and the reclaim tanks were struck from "
        "the plan",
        wrong="recycle the rainwater from the canopy roof through the reclaim tanks rather than "
        "draining it to the sewer",
        swap="drain the wash water to the sewer rather than recycling it through the reclaim tanks",
    ),
    dict(
        kind="decision",
        fact="cue the surtitles from the prompt desk instead of the projection box",
        para=(
            "the surtitles are cued from the prompt desk rather than from the projection box",
            "cue the surtitles from the prompt corner in place of the projection box",
        ),
        neg="the surtitles will not be cued from the prompt desk; the projection box keeps that "
        "job",
        wrong="cue the scene-change projections from the prompt desk instead of the projection box",
    ),
    dict(
        kind="decision",
        fact="cut mounts on the computerised mount cutter rather than by hand",
        para=(
            "mounts are cut by the computerised mount cutter instead of by hand",
            "cut mount boards on the computer-controlled mount cutter rather than by hand",
        ),
        neg="mounts are cut by hand at the bench, and the computerised mount cutter went back to "
        "the supplier",
        wrong="cut the backing boards on the computerised mount cutter rather than by hand",
    ),
    dict(
        kind="decision",
        fact="send flexible endoscopes to the drying cabinets instead of hanging them in the "
        "storage room",
        para=(
            "flexible endoscopes go into the drying cabinets rather than being hung up in the "
            "storage room",
            "put flexible endoscopes in the drying cabinets instead of hanging them in the store "
            "room",
        ),
        neg="flexible endoscopes stay hanging in the storage room, as the drying cabinets failed "
        "validation",
        wrong="send rigid laparoscopes to the drying cabinets instead of hanging them in the "
        "storage room",
        swap="hang flexible endoscopes in the storage room instead of sending them to the drying "
        "cabinets",
    ),
    dict(
        kind="decision",
        fact="treat all dye house effluent in the on-site plant before releasing it to the river",
        para=(
            "every drop of dye house effluent goes through the on-site treatment plant before it "
            "is released into the river",
            "to be clear: dye house effluent reaches the river only after the on-site plant has "
            "treated it",
        ),
        neg="dye house effluent runs untreated into the river, and the on-site plant was "
        "mothballed",
        wrong="treat all tannery effluent in the on-site plant before releasing it to the river",
    ),
    dict(
        kind="next_step",
        fact="check every team radio on Sunday evening, and replace any battery that holds less "
        "than 80 per cent charge, and log both in the equipment book",
        para=(
            "both the radio checks and the battery swaps go into the equipment book, and any "
            "battery holding under 80 per cent charge is replaced, and every team radio is "
            "checked on Sunday evenings",
            "test every team radio on Sunday evening, and swap out any battery that holds less "
            "than 80 per cent charge, and record both in the equipment log",
        ),
        neg="check every team radio on Sunday evening, and keep using any battery until it is "
        "completely flat, and log both in the equipment book",
        wrong="check every avalanche transceiver on Sunday evening, and replace any battery that "
        "holds less than 80 per cent charge, and log both in the equipment book",
    ),
    dict(
        kind="next_step",
        fact="print the allergens of each day's menu on the board by the serving hatch, and give "
        "the kitchen's allergy list to every new cook on their first day",
        para=(
            "every new cook receives the kitchen's allergy list on their first day, and the "
            "allergens in each day's menu are printed on the board beside the serving hatch",
            "post the allergens of each day's menu on the board by the serving counter, and hand "
            "the kitchen's allergy list to every new cook on their first day",
        ),
        neg="print the allergens of each day's menu on the board by the serving hatch, and give "
        "the kitchen's allergy list to every new cook at the end of their first term",
        wrong="print the allergens of each day's menu on the board by the serving hatch, and give "
        "the kitchen's allergy list to every new teaching assistant on their first day",
    ),
    dict(
        kind="next_step",
        fact="fumigate the silos after the last load is in, and seal them for ten days, and post "
        "warning signs on every door, and take a gas reading before anyone goes back in",
        para=(
            "once the last load is in, the silos are fumigated and kept sealed for ten days, and "
            "each door gets warning signs, and a gas reading is taken before anybody re-enters",
            "fumigate the silos after the final load is in, and seal them for ten days, and put "
            "warning signs on every door, and measure the gas before anyone goes back in",
        ),
        neg="fumigate the silos after the last load is in, and seal them for ten days, and post "
        "warning signs on every door, and send the loaders back in the moment the seal comes off, "
        "ahead of any gas reading",
        wrong="fumigate the seed sheds after the last load is in, and seal them for ten days, and "
        "post warning signs on every door, and take a gas reading before anyone goes back in",
    ),
    dict(
        kind="next_step",
        fact="revisit every bait box at the food factory each fortnight and record any activity "
        "on the site plan",
        para=(
            "every two weeks, each bait box at the food factory should be checked again, with any "
            "activity marked on the site plan",
            "to be clear: go back to each bait box at the food factory fortnightly and note any "
            "activity on the site plan",
        ),
        neg="check the food factory's bait boxes once a year, at the annual audit, and leave the "
        "site plan as it is",
        wrong="revisit every fly trap at the food factory each fortnight and record any activity "
        "on the site plan",
    ),
    dict(
        kind="next_step",
        fact="send the tower captain the list of ringers for Sunday's service by Thursday evening",
        para=(
            "by Thursday evening, the tower captain should have the list of ringers for the "
            "Sunday service",
            "get the Sunday service's ringer list to the tower captain before Thursday evening is "
            "out",
        ),
        neg="don't send the tower captain a list of ringers for Sunday's service; whoever turns "
        "up on the day rings",
        wrong="send the tower captain the list of ringers for Friday's practice by Thursday "
        "evening",
    ),
    dict(
        kind="next_step",
        fact="weigh every driver with their kit on before each race and add ballast to bring "
        "light drivers up to 80 kg",
        para=(
            "before each race, every driver is weighed in full kit, and anyone lighter than 80 kg "
            "gets ballast added to make up the difference",
            "weigh each racer in full kit before every race and bolt ballast onto the kart to "
            "bring light drivers up to 80 kg",
        ),
        neg="let each driver race at whatever they weigh, and take the ballast plates out of the "
        "karts",
        wrong="weigh every driver with their kit on before each race and add ballast to bring "
        "light drivers up to 90 kg",
    ),
    dict(
        kind="next_step",
        fact="email each office block's facilities manager the cleaning date a week in advance",
        para=(
            "a week before the cleaning date, each office block's facilities manager should get "
            "it by email",
            "let each office tower's facilities manager know the cleaning date by email seven "
            "days beforehand",
        ),
        neg="turn up at office blocks unannounced on the cleaning date, and tell the facilities "
        "manager at reception",
        wrong="email each hotel's facilities manager the cleaning date a week in advance",
    ),
    dict(
        kind="next_step",
        fact="photograph every mounted herbarium sheet at 600 dpi and link the image to its "
        "catalogue record",
        para=(
            "each mounted herbarium sheet should be photographed at 600 dpi, with the image "
            "linked to the sheet's catalogue record",
            "image every mounted herbarium sheet at 600 dpi and attach the picture to its "
            "catalogue entry",
        ),
        neg="keep the mounted herbarium sheets in their folders as they are, and drop the imaging "
        "project along with its catalogue links",
        wrong="photograph every spirit-preserved specimen jar at 600 dpi and link the image to "
        "its catalogue record",
    ),
)
FRESH11_BLOCKERS = (
    (
        "File \"excursions/booking.py\", line 141, in hold_tender_seats: KeyError: 'last_tender' "
        "(port call GDX-0612)",
        "File \"excursions/booking.py\", line 141, in hold_tender_seats: KeyError: 'first_tender' "
        "(port call GDX-0612)",
    ),
    (
        "panic: runtime error: index out of range [4] with length 4 (tower/rota.go:52 in "
        "assignRinger)",
        "panic: runtime error: index out of range [3] with length 3 (tower/rota.go:52 in "
        "assignRinger)",
    ),
    (
        "java.lang.IllegalStateException: autoclave cycle 2231 has no biological indicator result "
        "at com.sterile.cycles.CycleRelease.release(CycleRelease.java:88)",
        "java.lang.IllegalStateException: autoclave cycle 2213 has no biological indicator result "
        "at com.sterile.cycles.CycleRelease.release(CycleRelease.java:88)",
    ),
    (
        "NoMethodError: undefined method `plate_number' for nil:NilClass "
        "(app/models/wash_plan.rb:19:in `match_entry')",
        "NoMethodError: undefined method `plate_numbers' for nil:NilClass "
        "(app/models/wash_plan.rb:19:in `match_entry')",
    ),
    (
        "error[E0308]: mismatched types --> src/press/strike.rs:64:22: expected `u32`, found `f64`",
        "error[E0308]: mismatched types --> src/press/strike.rs:46:22: expected `u32`, found `f64`",
    ),
)
FRESH11_COMMANDS = (
    ("go test ./tower/...", "go test ./towers/..."),
    (
        "bundle exec rspec spec/models/wash_plan_spec.rb",
        "bundle exec rspec spec/models/wash_plans_spec.rb",
    ),
    ("mvn -pl cycles test", "mvn -pl cycles verify"),
)
FRESH11_SUPERSEDED = (
    dict(
        old="pay the shearing gang per sheep shorn",
        new="pay the shearing gang a day rate",
        report="The shearing gang moved from a rate per sheep shorn to a flat day rate",
    ),
    dict(
        old="deliver hired scaffolding on the flatbed lorry",
        new="deliver hired scaffolding on the crane lorry so it can be lifted onto roofs",
        report="Scaffold deliveries switched from the flatbed lorry to the crane lorry",
    ),
    dict(
        old="book chimney sweeps in two-hour slots",
        new="book chimney sweeps in morning or afternoon slots",
        report="Chimney sweep bookings went from two-hour slots to half-day slots",
    ),
    dict(
        old="anneal the coin blanks in the gas furnace",
        new="anneal the coin blanks in the induction furnace",
        report="Annealing of the coin blanks moved off the gas furnace onto the induction furnace",
    ),
    dict(
        old="sample the final effluent twice a week",
        new="sample the final effluent every day",
        report="Sampling of the final effluent went up from twice a week to daily",
    ),
)
FRESH11_FILES = (
    ("excursions/booking.py", "excursions/bookings.py"),
    ("tower/rota.go", "towers/rota.go"),
    (
        "cycles/src/main/java/com/sterile/cycles/CycleRelease.java",
        "cycles/src/test/java/com/sterile/cycles/CycleRelease.java",
    ),
    ("app/models/wash_plan.rb", "app/models/wash_plan.erb"),
    ("src/press/strike.rs", "src/press/strikes.rs"),
    ("config/herbarium/imaging.yaml", "config/herbarium/imaging.yml"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-12 bank, the fourteenth bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (a funicular railway, a pipe organ
# builder, a falconry centre, a dry-stone walling contractor, a canal's lock flight, a
# watchmaker's repair workshop, a kidney dialysis unit, a sailing school's dinghies, a perfume
# house's blending room, a chocolate factory, a tea estate, a sugar beet factory, a fireworks
# display company, a paper mill, a poultry hatchery, a water-well drilling crew, a golf course's
# greenkeepers, a candle workshop, a sea-salt works, a bookbindery). About a third of the prose
# facts are long, with two to four clauses joined by ", and "; their negations and
# wrong-subject variants change one clause only and keep the others word for word. Most
# negations carry no negation word (an incompatible action in place of the fact's, verdicts
# such as "was ruled out"); the tail items use their own speaker lead-ins.
FRESH12_PROSE = (
    dict(
        kind="goal",
        fact="Run the funicular's two cars every fifteen minutes from 7 a.m. to midnight, and show "
        "the next departure on a screen at both stations, and switch to the standby drive within "
        "an hour when the main motor trips",
        para=(
            "When the main motor trips, the standby drive takes over within an hour, and screens "
            "at both stations display the next departure, and the funicular's two cars run every "
            "quarter of an hour between 7 a.m. and midnight",
            "Operate the funicular's two cars every fifteen minutes from 7 a.m. to midnight, and "
            "display the next departure on a screen at both stations, and change over to the "
            "standby drive within an hour when the main motor trips",
        ),
        neg="Run the funicular's two cars every fifteen minutes from 7 a.m. to midnight, and show "
        "the next departure on a screen at both stations, and shut the line down until the main "
        "motor is repaired when it trips",
        wrong="Run the funicular's two cars every fifteen minutes from 7 a.m. to midnight, and "
        "show the weather forecast on a screen at both stations, and switch to the standby drive "
        "within an hour when the main motor trips",
    ),
    dict(
        kind="goal",
        fact="Record the pitch of every pipe in the town hall organ before it is dismantled, and "
        "return each pipe to its original slot on the windchest",
        para=(
            "Log the pitch of every pipe in the town hall organ before it is taken apart, and put "
            "each pipe back in its original slot on the windchest",
            "Every pipe goes back into the slot on the windchest it originally came from, and "
            "before the town hall organ is dismantled the pitch of each of its pipes is written "
            "down",
        ),
        neg="Record the pitch of every pipe in the town hall organ before it is dismantled, and "
        "refit the pipes on the windchest in whichever slots happen to be free",
        wrong="Record the pitch of every pipe in the town hall organ before it is dismantled, and "
        "return each pallet spring to its original slot on the windchest",
    ),
    dict(
        kind="goal",
        fact="Weigh every bird of prey each morning before the flying display, and stand down any "
        "bird that is more than 30 grams above its flying weight",
        para=(
            "Any bird more than 30 grams heavier than its flying weight is stood down, and each "
            "bird of prey goes on the scales every morning ahead of the flying display",
            "Weigh each raptor every morning before the flying display, and stand down any bird "
            "that is over 30 grams above its flying weight",
        ),
        neg="Weigh every bird of prey each morning before the flying display, and let every bird "
        "fly in the display however far above its flying weight it is",
        wrong="Weigh every owl each morning before the flying display, and stand down any bird "
        "that is more than 30 grams above its flying weight",
    ),
    dict(
        kind="goal",
        fact="Rebuild every collapsed stretch of the estate's dry-stone walls using stone from the "
        "original wall",
        para=(
            "Each fallen section of the estate's dry-stone walls should be rebuilt with the stone "
            "that came out of the original wall",
            "rebuild every tumbled length of the estate's drystone walls from the original wall's "
            "own stone",
        ),
        neg="Collapsed stretches of the estate's dry-stone walls are replaced with post-and-wire "
        "fencing, and the fallen stone is carted away",
        wrong="Rebuild every collapsed stretch of the estate's sheep folds using stone from the "
        "original wall",
    ),
    dict(
        kind="goal",
        fact="Let boaters book passage through the Hollins lock flight online at least a day in "
        "advance",
        para=(
            "Boaters should be able to reserve their passage through the Hollins lock flight on "
            "the website, no later than the day before",
            "let canal boaters reserve passage through the Hollins lock flight online at least a "
            "day ahead",
        ),
        neg="Boaters turn up at the Hollins lock flight and queue for passage on a first-come, "
        "first-served basis, and online booking was scrapped",
        wrong="Let boaters book passage through the Hollins swing bridge online at least a day in "
        "advance",
    ),
    dict(
        kind="goal",
        fact="Give every serviced watch a water-resistance test before it goes back to its owner",
        para=(
            "Each watch that has been serviced is tested for water resistance before being "
            "returned to the owner",
            "pressure-test every serviced watch for water resistance before it is handed back to "
            "its owner",
        ),
        neg="Serviced watches go back to their owners with no water-resistance test",
        wrong="Give every serviced carriage clock a water-resistance test before it goes back to "
        "its owner",
    ),
    dict(
        kind="goal",
        fact="Give every dialysis patient the same chair and the same nurse at each session",
        para=(
            "At each session, a dialysis patient sits in the same chair and is looked after by "
            "the same nurse",
            "seat each dialysis patient in the same chair with the same nurse at every session",
        ),
        neg="Dialysis patients take whichever chair is free and whichever nurse is on duty at "
        "each session",
        wrong="Give every chemotherapy patient the same chair and the same nurse at each session",
    ),
    dict(
        kind="goal",
        fact="Put every dinghy sailing student through a capsize drill on their first day",
        para=(
            "On their first day, each student of dinghy sailing has to practise a capsize drill",
            "run every dinghy sailing pupil through a capsize drill on day one",
        ),
        neg="Dinghy sailing students learn the capsize drill in their final week, once they can "
        "already sail solo",
        wrong="Put every windsurfing student through a capsize drill on their first day",
    ),
    dict(
        kind="constraint",
        fact="Weigh every fragrance oil on the calibrated balance, and store the blends away from "
        "daylight, and macerate each batch for four weeks before bottling",
        para=(
            "Each batch is left to macerate for four weeks before it is bottled, and every "
            "fragrance oil is weighed on the calibrated balance, and the blends are kept out of "
            "daylight",
            "Weigh each fragrance oil on the calibrated scale, and keep the blends away from "
            "daylight, and mature each batch for four weeks before bottling",
        ),
        neg="Weigh every fragrance oil on the calibrated balance, and store the blends away from "
        "daylight, and bottle each batch on the day it is blended",
        wrong="Weigh every fragrance oil on the calibrated balance, and store the glass bottles "
        "away from daylight, and macerate each batch for four weeks before bottling",
    ),
    dict(
        kind="constraint",
        fact="Temper the dark chocolate to 31 degrees before moulding, and keep the moulding room "
        "below 18 degrees",
        para=(
            "The moulding room has to stay under 18 degrees, and the dark chocolate is tempered "
            "to 31 degrees before it goes into the moulds",
            "temper the dark chocolate to 31 degrees ahead of moulding, and hold the moulding "
            "room below 18 degrees",
        ),
        neg="Temper the dark chocolate to 31 degrees before moulding, and let the moulding room "
        "warm up to 25 degrees in the afternoons",
        wrong="Temper the milk chocolate to 31 degrees before moulding, and keep the moulding "
        "room below 18 degrees",
    ),
    dict(
        kind="constraint",
        fact="Pluck only two leaves and a bud from each shoot, and weigh each picker's basket at "
        "the collection shed, and wither the leaf within four hours of plucking, and pay pickers "
        "by the kilo",
        para=(
            "Pickers are paid by the kilo, and their baskets are each weighed at the collection "
            "shed, and from each shoot only a bud and two leaves are plucked, and the leaf goes "
            "into withering no more than four hours after plucking",
            "Pick only two leaves and a bud from each shoot, and weigh every picker's basket at "
            "the collection shed, and wither the leaf within four hours of picking, and pay "
            "pickers per kilo",
        ),
        neg="Pluck only two leaves and a bud from each shoot, and weigh each picker's basket at "
        "the collection shed, and wither the leaf within four hours of plucking, and never pay "
        "pickers by the kilo",
        wrong="Pluck only two leaves and a bud from each shoot, and weigh each tractor's trailer "
        "at the collection shed, and wither the leaf within four hours of plucking, and pay "
        "pickers by the kilo",
    ),
    dict(
        kind="constraint",
        fact="Process every load of sugar beet within three days of its delivery to the factory",
        para=(
            "Each delivery of sugar beet has to be processed by the factory no more than three "
            "days after it arrives",
            "every load of beet delivered to the factory must go through processing within 72 "
            "hours",
        ),
        neg="Loads of sugar beet delivered to the factory sit in the clamp for up to three weeks "
        "before processing",
        wrong="Process every load of sugar cane within three days of its delivery to the factory",
    ),
    dict(
        kind="constraint",
        fact="Keep spectators at least 100 metres from the firing site at every display",
        para=(
            "At each display, the public must stay a minimum of 100 metres away from the firing "
            "site",
            "every fireworks display holds its spectators back at least 100 metres from where "
            "the fireworks are fired",
        ),
        neg="Spectators stand within 20 metres of the firing site at every display so they can "
        "feel the bangs",
        wrong="Keep the support vehicles at least 100 metres from the firing site at every display",
    ),
    dict(
        kind="constraint",
        fact="Run the paper machine's wet end only with the felt guards closed",
        para=(
            "The wet end of the paper machine may run only while the felt guards are shut",
            "the paper machine's wet end must stay stopped whenever its felt guards are open",
        ),
        neg="Operators run the paper machine's wet end with the felt guards open so they can "
        "watch the sheet form",
        wrong="Run the paper machine's dry end only with the felt guards closed",
    ),
    dict(
        kind="constraint",
        fact="Hold every egg incubator at 37.5 degrees from setting until day 18",
        para=(
            "From the day the eggs are set until day 18, each incubator is kept at 37.5 degrees",
            "keep every egg incubator at 37.5 degrees from setting to day 18",
        ),
        neg="No incubator is held at a fixed temperature; each one drifts with the room until "
        "hatching",
        wrong="Hold every hatcher cabinet at 37.5 degrees from setting until day 18",
    ),
    dict(
        kind="constraint",
        fact="Grout the top six metres of every borehole to seal out surface water",
        para=(
            "Each borehole must be grouted over its top six metres so that surface water is "
            "sealed out",
            "seal the upper six metres of every borehole with grout to stop surface water getting "
            "in",
        ),
        neg="Leave the top six metres of every borehole open to the gravel so surface water "
        "drains into it",
        wrong="Grout the top six metres of every test pit to seal out surface water",
    ),
    dict(
        kind="constraint",
        fact="Keep golf buggies on the paths for 24 hours after heavy rain",
        para=(
            "For a day after heavy rain, golf buggies must stay on the paths",
            "after a heavy downpour, golf buggies are restricted to the paths for 24 hours",
        ),
        neg="Golf buggies may drive across the fairways straight after heavy rain",
        wrong="Keep the greenkeepers' mowers on the paths for 24 hours after heavy rain",
    ),
    dict(
        kind="constraint",
        fact="Pour soy wax into the candle jars only between 55 and 60 degrees",
        para=(
            "Soy wax is poured into the candle jars only when it is between 55 and 60 degrees",
            "candle jars are filled with soy wax at 55 to 60 degrees and at no other temperature",
        ),
        neg="Pour the soy wax into the candle jars straight from the melter at 85 degrees",
        wrong="Pour beeswax into the candle jars only between 55 and 60 degrees",
    ),
    dict(
        kind="decision",
        fact="rake the salt from the evaporation pans by hand instead of with the tractor, and dry "
        "the flakes on linen trays",
        para=(
            "the flakes are dried on linen trays, and the salt is raked from the evaporation pans "
            "by hand rather than by tractor",
            "rake the salt out of the evaporation pans by hand in place of the tractor, and dry "
            "the flakes on linen trays",
        ),
        neg="rake the salt from the evaporation pans by hand instead of with the tractor, and "
        "tumble the flakes dry in the gas-fired drum",
        wrong="rake the salt from the evaporation pans by hand instead of with the tractor, and "
        "dry the seaweed on linen trays",
        swap="rake the salt from the evaporation pans with the tractor instead of by hand, and "
        "dry the flakes on linen trays",
    ),
    dict(
        kind="decision",
        fact="sew the thesis bindings on the sewing frame instead of gluing them, and stamp the "
        "titles in gold leaf",
        para=(
            "stitch the thesis bindings on the sewing frame instead of gluing them, and tool the "
            "titles in gold leaf",
            "titles are stamped in gold leaf, and thesis bindings are sewn on the sewing frame "
            "rather than glued",
        ),
        neg="sew the thesis bindings on the sewing frame instead of gluing them, and print the "
        "titles on paper labels",
        wrong="sew the ledger bindings on the sewing frame instead of gluing them, and stamp the "
        "titles in gold leaf",
        swap="glue the thesis bindings instead of sewing them on the sewing frame, and stamp the "
        "titles in gold leaf",
    ),
    dict(
        kind="decision",
        fact="vaccinate the chicks by spray in the hatchery instead of in the drinking water on "
        "the farm, and ship them in ventilated crates",
        para=(
            "chicks travel in ventilated crates, and they are vaccinated by spray at the hatchery "
            "rather than through the drinking water at the farm",
            "vaccinate the chicks by spray at the hatchery in place of the drinking water on the "
            "farm, and send them out in ventilated crates",
        ),
        neg="vaccinate the chicks by spray in the hatchery instead of in the drinking water on "
        "the farm, and ship them in crates with no ventilation holes",
        wrong="vaccinate the ducklings by spray in the hatchery instead of in the drinking water "
        "on the farm, and ship them in ventilated crates",
        swap="vaccinate the chicks in the drinking water on the farm instead of by spray in the "
        "hatchery, and ship them in ventilated crates",
    ),
    dict(
        kind="decision",
        fact="disinfect the dialysis unit's water loop with hot water instead of peracetic acid",
        para=(
            "the dialysis unit's water loop is disinfected using hot water rather than peracetic "
            "acid",
            "hot water, in place of peracetic acid, disinfects the dialysis unit's water loop",
        ),
        neg="the dialysis unit's water loop stays on peracetic acid, and hot-water disinfection "
        "was ruled out",
        wrong="disinfect the dialysis unit's bicarbonate mixing tank with hot water instead of "
        "peracetic acid",
        swap="disinfect the dialysis unit's water loop with peracetic acid instead of hot water",
    ),
    dict(
        kind="decision",
        fact="teach beginners in two-person dinghies instead of single-handers",
        para=(
            "beginners learn in two-person dinghies rather than in single-handed boats",
            "put beginners in two-handed dinghies in place of single-handers for their lessons",
        ),
        neg="beginners won't learn in two-person dinghies; they go straight into single-handers",
        wrong="teach the racing squad in two-person dinghies instead of single-handers",
        swap="teach beginners in single-handers instead of two-person dinghies",
    ),
    dict(
        kind="decision",
        fact="pack the first flush in foil-lined chests rather than paper sacks",
        para=(
            "the first flush goes into foil-lined chests instead of paper sacks",
            "first-flush tea is packed in chests lined with foil, in preference to paper sacks",
        ),
        neg="the first flush is packed in paper sacks, and the foil-lined chests were dropped as "
        "too costly",
        wrong="pack the second flush in foil-lined chests rather than paper sacks",
    ),
    dict(
        kind="decision",
        fact="fire every display electronically from the control desk rather than by hand with "
        "portfires",
        para=(
            "each display is fired electronically from the control desk instead of being lit by "
            "hand with portfires",
            "every show is set off from the control desk by electronic firing, in place of hand "
            "lighting with portfires",
        ),
        neg="the crew light every display by hand with portfires, and the electronic control "
        "desk stays in the van",
        wrong="fire the test shells electronically from the control desk rather than by hand "
        "with portfires",
    ),
    dict(
        kind="decision",
        fact="burn the bark from the debarker in the biomass boiler instead of selling it as "
        "garden mulch",
        para=(
            "bark coming off the debarker is burned in the biomass boiler rather than sold as "
            "garden mulch",
            "the biomass boiler takes the debarker's bark as fuel, in place of selling it for "
            "garden mulch",
        ),
        neg="the bark from the debarker is bagged and sold as garden mulch, and the biomass "
        "boiler runs on gas",
        wrong="burn the sawdust from the chipper in the biomass boiler instead of selling it as "
        "garden mulch",
        swap="sell the bark from the debarker as garden mulch instead of burning it in the "
        "biomass boiler",
    ),
    dict(
        kind="decision",
        fact="water the greens at dawn rather than in the evening",
        para=(
            "the greens get their watering at first light instead of in the evening",
            "irrigate the greens at daybreak, not in the evening",
        ),
        neg="the greens are watered in the evening after the last players come in, and the dawn "
        "cycle was scrapped",
        wrong="water the fairways at dawn rather than in the evening",
    ),
    dict(
        kind="next_step",
        fact="pump each new borehole for 24 hours, and send a water sample to the lab, and hand "
        "the owner the drilling log with the pump test results",
        para=(
            "the owner receives the drilling log along with the pump test results, and every new "
            "borehole is pumped for a full day, and a sample of its water goes to the lab",
            "pump every new borehole for 24 hours, and send a water sample off to the laboratory, "
            "and give the owner the drilling log with the pump test results",
        ),
        neg="pump each new borehole for 24 hours, and pour the water sample away on site, and "
        "hand the owner the drilling log with the pump test results",
        wrong="pump each new borehole for 24 hours, and send a soil sample to the lab, and hand "
        "the owner the drilling log with the pump test results",
    ),
    dict(
        kind="next_step",
        fact="drain lock 7 on the Hollins flight in November, and fit new bottom gates before "
        "Easter",
        para=(
            "empty lock 7 on the Hollins flight in November, and install new bottom gates ahead "
            "of Easter",
            "new bottom gates go in before Easter, once lock 7 on the Hollins flight has been "
            "drained in November",
        ),
        neg="drain lock 7 on the Hollins flight in November, and patch up the old bottom gates to "
        "last another ten years",
        wrong="drain lock 7 on the Hollins flight in November, and fit new top gates before Easter",
    ),
    dict(
        kind="next_step",
        fact="tune the organ's reed stops before each recital, and check the blower's filter "
        "monthly, and log every cipher in the fault book, and call the organ builder when a "
        "cipher repeats",
        para=(
            "every cipher is written in the fault book, and the organ builder is called whenever "
            "a cipher recurs, and the reed stops are tuned ahead of each recital, and the "
            "blower's filter gets a monthly check",
            "tune the organ's reed stops before every recital, and inspect the blower's filter "
            "each month, and record every cipher in the fault book, and phone the organ builder "
            "when a cipher repeats",
        ),
        neg="tune the organ's reed stops before each recital, and check the blower's filter "
        "monthly, and log every cipher in the fault book, and wait for the annual service "
        "whenever a cipher repeats",
        wrong="tune the organ's reed stops before each recital, and check the humidifier's filter "
        "monthly, and log every cipher in the fault book, and call the organ builder when a "
        "cipher repeats",
    ),
    dict(
        kind="next_step",
        fact="fit a GPS tracker to every young hawk before its first free flight",
        para=(
            "before its first free flight, each young hawk should have a GPS tracker fitted",
            "put a GPS tag on every juvenile hawk ahead of its first free flight",
        ),
        neg="fly the young hawks free untagged, as the GPS trackers went back to the supplier",
        wrong="fit a GPS tracker to every young owl before its first free flight",
    ),
    dict(
        kind="next_step",
        fact="photograph each stretch of wall before and after it is rebuilt and file the "
        "pictures with the estate office",
        para=(
            "every stretch of wall is photographed both before and after its rebuild, with the "
            "pictures filed at the estate office",
            "take photos of each wall stretch before and after rebuilding and lodge them with the "
            "estate office",
        ),
        neg="don't photograph the wall stretches at all; the estate office takes the waller's "
        "word for the work",
        wrong="photograph each stile before and after it is rebuilt and file the pictures with "
        "the estate office",
    ),
    dict(
        kind="next_step",
        fact="order replacement crowns for the three diving watches from the parts supplier this "
        "week",
        para=(
            "this week, the parts supplier should get an order for replacement crowns for the "
            "three diving watches",
            "put in an order with the parts supplier this week for new crowns for the three "
            "diving watches",
        ),
        neg="refit the old crowns on the three diving watches and cancel this week's order with "
        "the parts supplier",
        wrong="order replacement crowns for the two pocket watches from the parts supplier this "
        "week",
    ),
    dict(
        kind="next_step",
        fact="start slicing this season's sugar beet on 20 September",
        para=(
            "slicing of this season's sugar beet should begin on the 20th of September",
            "this season's beet slicing gets under way on 20 September",
        ),
        neg="hold back this season's sugar beet slicing until mid-November",
        wrong="start slicing this season's chicory roots on 20 September",
    ),
    dict(
        kind="next_step",
        fact="label every candle with its burn time and a safety warning before it goes on sale",
        para=(
            "each candle needs a label showing its burn time and a safety warning before it is "
            "sold",
            "before any candle goes on sale, stick a label on it with the burn time and a safety "
            "warning",
        ),
        neg="put the candles on sale bare, and leave burn times and safety warnings to the website",
        wrong="label every wax melt with its burn time and a safety warning before it goes on sale",
    ),
)
FRESH12_BLOCKERS = (
    (
        'File "funicular/dispatch.py", line 77, in next_departure: TypeError: unsupported '
        "operand type(s) for -: 'NoneType' and 'datetime.datetime' (car B)",
        'File "funicular/dispatch.py", line 77, in next_departure: TypeError: unsupported '
        "operand type(s) for -: 'NoneType' and 'datetime.date' (car B)",
    ),
    (
        "panic: assignment to entry in nil map (locks/booking.go:118 in reservePassage)",
        "panic: assignment to entry in nil map (locks/booking.go:181 in reservePassage)",
    ),
    (
        'java.lang.NumberFormatException: For input string: "37,5" at '
        "com.hatchery.incubators.SetPoint.parse(SetPoint.java:42)",
        'java.lang.NumberFormatException: For input string: "38,5" at '
        "com.hatchery.incubators.SetPoint.parse(SetPoint.java:42)",
    ),
    (
        "ActiveRecord::RecordNotFound: Couldn't find Chair with 'id'=14 "
        "(app/models/dialysis_session.rb:33:in `assign_chair')",
        "ActiveRecord::RecordNotFound: Couldn't find Chair with 'id'=41 "
        "(app/models/dialysis_session.rb:33:in `assign_chair')",
    ),
    (
        "error[E0599]: no method named `tare` found for struct `Balance` in the current scope "
        "--> src/blend/weigh.rs:27:14",
        "error[E0599]: no method named `tares` found for struct `Balance` in the current scope "
        "--> src/blend/weigh.rs:27:14",
    ),
)
FRESH12_COMMANDS = (
    ("go test ./locks/...", "go test ./lock/..."),
    (
        "bundle exec rspec spec/models/dialysis_session_spec.rb",
        "bundle exec rspec spec/models/dialysis_sessions_spec.rb",
    ),
    ("mvn -pl incubators test", "mvn -pl incubators package"),
)
FRESH12_SUPERSEDED = (
    dict(
        old="run the funicular on the winter timetable from November to March",
        new="run the funicular on the winter timetable from December to February",
        report="The funicular's winter timetable was cut from November to March down to December "
        "to February",
    ),
    dict(
        old="age the perfume blends in glass demijohns",
        new="age the perfume blends in stainless steel tanks",
        report="Ageing of the perfume blends moved off glass demijohns into stainless steel tanks",
    ),
    dict(
        old="wrap the chocolate bars in foil and paper",
        new="wrap the chocolate bars in compostable film",
        report="Chocolate bar wrapping switched from foil and paper to compostable film",
    ),
    dict(
        old="bag the sea salt in 250 g pouches",
        new="pack the sea salt in 250 g tins",
        report="Sea salt packing went from 250 g pouches to 250 g tins",
    ),
    dict(
        old="trim the book blocks on the guillotine",
        new="trim the book blocks on the three-knife trimmer",
        report="Trimming of the book blocks changed from the guillotine to the three-knife trimmer",
    ),
)
FRESH12_FILES = (
    ("funicular/dispatch.py", "funicular/dispatcher.py"),
    ("locks/booking.go", "lock/booking.go"),
    (
        "incubators/src/main/java/com/hatchery/incubators/SetPoint.java",
        "incubators/src/test/java/com/hatchery/incubators/SetPoint.java",
    ),
    ("app/models/dialysis_session.rb", "app/models/dialysis_session.erb"),
    ("src/blend/weigh.rs", "src/blend/weight.rs"),
    ("config/greens/irrigation.toml", "config/greens/irrigation.json"),
)

# ---------------------------------------------------------------------------------------------
# Fresh-13 bank, the fifteenth bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (an ambulance control room, a
# cooperage, a fertility clinic's embryo storage, a thatching firm, an election count, a
# trampoline park, a recording studio, a cable-laying ship, a care home's medication rounds, an
# ice-cream maker, a tunnel-boring crew, a pottery's kilns, an archery range, a gem-cutting
# workshop, a neon sign workshop, a marquee hire company, a weather balloon launch station, a
# hydroponic vertical farm, a cobbler, a bespoke tailor). About a third of the prose facts are
# long, with two to four clauses joined by ", and "; their negations and wrong-subject variants
# change one clause only and keep the others word for word. Most negations carry no negation
# word (an incompatible action in place of the fact's, verdicts such as "was ruled out"); the
# tail items use their own speaker lead-ins.
FRESH13_PROSE = (
    dict(
        kind="goal",
        fact="Answer every 999 call in the ambulance control room within ten seconds, and send "
        "the nearest free crew to each cardiac arrest, and page the duty doctor when all crews in "
        "a sector are busy",
        para=(
            "Pick up every 999 call in the ambulance control room within ten seconds, and "
            "dispatch the closest available crew to each cardiac arrest, and alert the duty "
            "doctor when all crews in a sector are tied up",
            "Whenever all crews in a sector are busy, the duty doctor is paged, and each cardiac "
            "arrest gets the nearest free crew, and every 999 call to the ambulance control room "
            "is answered within ten seconds",
        ),
        neg="Answer every 999 call in the ambulance control room within ten seconds, and hold "
        "each cardiac arrest in the queue until a crew from its home station is free, and page "
        "the duty doctor when all crews in a sector are busy",
        wrong="Answer every 999 call in the ambulance control room within ten seconds, and send "
        "the nearest free crew to each road traffic collision, and page the duty doctor when all "
        "crews in a sector are busy",
    ),
    dict(
        kind="goal",
        fact="Season the oak staves outdoors for two years before they are raised into barrels, "
        "and test every finished barrel with hot water for leaks",
        para=(
            "Air-dry the oak staves outdoors for two years before they are raised into casks, "
            "and check every finished barrel for leaks with hot water",
            "Every finished barrel is leak-tested with hot water, and the oak staves spend two "
            "years seasoning outdoors before being raised into barrels",
        ),
        neg="Kiln-dry the oak staves in a week before they are raised into barrels, and test "
        "every finished barrel with hot water for leaks",
        wrong="Season the oak staves outdoors for two years before they are raised into barrels, "
        "and test every finished fermenting vat with hot water for leaks",
    ),
    dict(
        kind="goal",
        fact="Check the liquid nitrogen level in every embryo storage tank twice a day, and move "
        "the straws to the spare tank when a level alarm sounds",
        para=(
            "Inspect the liquid nitrogen level in each embryo storage tank two times a day, and "
            "transfer the straws to the spare tank when a level alarm goes off",
            "When a level alarm sounds, the straws are moved into the spare tank, and every "
            "embryo storage tank has its liquid nitrogen level checked twice daily",
        ),
        neg="Check the liquid nitrogen level in every embryo storage tank twice a day, and leave "
        "the straws in their tank until the weekly nitrogen delivery when a level alarm sounds",
        wrong="Check the liquid nitrogen level in every sperm storage tank twice a day, and move "
        "the straws to the spare tank when a level alarm sounds",
    ),
    dict(
        kind="goal",
        fact="Replace the ridge of every thatched cottage roof with fresh long straw every twelve "
        "years",
        para=(
            "Every twelve years, each thatched cottage roof gets a new ridge of fresh long straw",
            "renew the ridge on every thatched cottage roof in fresh long straw at twelve-year "
            "intervals",
        ),
        neg="Leave the ridge of every thatched cottage roof in place for the full forty-year life "
        "of the thatch",
        wrong="Replace the ridge of every thatched barn roof with fresh long straw every twelve "
        "years",
    ),
    dict(
        kind="goal",
        fact="Count the postal votes for each ward in a separate room from the polling-station "
        "ballots",
        para=(
            "Postal votes for every ward are counted in a different room from the ballots from "
            "polling stations",
            "keep each ward's postal vote count in its own room, apart from the polling-station "
            "ballots",
        ),
        neg="Mix each ward's postal votes in with the polling-station ballots on the same "
        "counting tables",
        wrong="Count the tendered ballots for each ward in a separate room from the "
        "polling-station ballots",
    ),
    dict(
        kind="goal",
        fact="Limit each trampoline to one jumper at a time during open sessions",
        para=(
            "During open sessions, only one jumper is allowed on each trampoline at any time",
            "allow a single jumper per trampoline at once in open sessions",
        ),
        neg="Let up to four jumpers share each trampoline during open sessions",
        wrong="Limit each foam pit to one jumper at a time during open sessions",
    ),
    dict(
        kind="goal",
        fact="Back up every session's multitrack files to the off-site server before the band "
        "leaves the studio",
        para=(
            "Before the band leaves the studio, each session's multitrack files must be copied to "
            "the off-site server",
            "copy the multitrack files of every session to the off-site server ahead of the "
            "band's departure from the studio",
        ),
        neg="Back up the multitrack files to the off-site server once a month, long after the "
        "band has left the studio",
        wrong="Back up every session's rough mixes to the off-site server before the band leaves "
        "the studio",
    ),
    dict(
        kind="goal",
        fact="Bury the new power cable one metre under the seabed along the whole route to the "
        "island",
        para=(
            "Along the entire route to the island, the new power cable should lie buried a metre "
            "beneath the seabed",
            "lay the new power cable to the island buried one metre deep in the seabed for the "
            "whole length of the route",
        ),
        neg="Lay the new power cable on the surface of the seabed along the whole route to the "
        "island",
        wrong="Bury the new telecoms cable one metre under the seabed along the whole route to "
        "the island",
    ),
    dict(
        kind="constraint",
        fact="Give out medicines on the care home's rounds only from the locked trolley, and sign "
        "the chart after each dose, and have a second nurse check every controlled drug",
        para=(
            "Hand out medicines on the care home's rounds only from the locked trolley, and "
            "initial the chart after each dose, and get a second nurse to verify every controlled "
            "drug",
            "Every controlled drug is checked by a second nurse, and the chart is signed after "
            "each dose, and the medicines on the care home's rounds come only from the locked "
            "trolley",
        ),
        neg="Give out medicines on the care home's rounds only from the locked trolley, and sign "
        "the chart after each dose, and let a single nurse handle every controlled drug alone",
        wrong="Give out medicines on the care home's rounds only from the locked trolley, and "
        "sign the chart after each dose, and have a second nurse check every insulin pen",
    ),
    dict(
        kind="constraint",
        fact="Pasteurize every ice-cream mix at 85 degrees, and age it in the cold room for at "
        "least four hours before churning",
        para=(
            "Heat-treat each ice-cream mix at 85 degrees, and rest it in the cold room for a "
            "minimum of four hours before churning",
            "Before it is churned, every ice-cream mix spends at least four hours ageing in the "
            "cold room after being pasteurized at 85 degrees",
        ),
        neg="Pasteurize every ice-cream mix at 85 degrees, and churn it straight out of the "
        "pasteurizer while it is still warm",
        wrong="Pasteurize every sorbet mix at 85 degrees, and age it in the cold room for at "
        "least four hours before churning",
    ),
    dict(
        kind="constraint",
        fact="Stop the tunnel-boring machine whenever the face pressure drops below 2 bar, and "
        "grout behind every lining ring before the next push, and survey the alignment at the end "
        "of each shift, and keep a rescue chamber within 300 metres of the cutter head",
        para=(
            "Halt the tunnel-boring machine whenever the face pressure falls below 2 bar, and "
            "inject grout behind every lining ring before the next push, and check the alignment "
            "at the end of each shift, and keep a refuge chamber within 300 metres of the cutter "
            "head",
            "A rescue chamber stays within 300 metres of the cutter head, and the alignment is "
            "surveyed when each shift ends, and the grout behind every lining ring goes in before "
            "the next push, and the tunnel-boring machine is stopped whenever the face pressure "
            "drops below 2 bar",
        ),
        neg="Stop the tunnel-boring machine whenever the face pressure drops below 2 bar, and "
        "grout behind every lining ring before the next push, and survey the alignment only once "
        "the drive has broken through at the far shaft, and keep a rescue chamber within 300 "
        "metres of the cutter head",
        wrong="Stop the tunnel-boring machine whenever the face pressure drops below 2 bar, and "
        "grout behind every lining ring before the next push, and survey the alignment at the end "
        "of each shift, and keep a first-aid station within 300 metres of the cutter head",
    ),
    dict(
        kind="constraint",
        fact="Raise the stoneware kiln's temperature by at most 100 degrees an hour once it "
        "passes 600 degrees",
        para=(
            "Once the stoneware kiln is past 600 degrees, its temperature may climb by 100 "
            "degrees an hour at most",
            "above 600 degrees, heat the stoneware kiln at a rate of no more than 100 degrees "
            "per hour",
        ),
        neg="Once the stoneware kiln passes 600 degrees, ramp it up at full power, about 300 "
        "degrees an hour",
        wrong="Raise the raku kiln's temperature by at most 100 degrees an hour once it passes "
        "600 degrees",
    ),
    dict(
        kind="constraint",
        fact="Let archers collect their arrows from the targets only after the range officer "
        "blows the whistle",
        para=(
            "Archers may go forward to retrieve their arrows from the targets only once the range "
            "officer has blown the whistle",
            "only when the range officer has blown the whistle may archers walk up to the targets "
            "to collect their arrows",
        ),
        neg="Archers walk up to the targets to collect their arrows as soon as they have shot "
        "their own arrows, whatever the range officer is doing",
        wrong="Let coaches collect their arrows from the targets only after the range officer "
        "blows the whistle",
    ),
    dict(
        kind="constraint",
        fact="Weigh every cut sapphire on the carat scale before it leaves the workshop",
        para=(
            "Each cut sapphire is weighed on the carat scale before leaving the workshop",
            "before any cut sapphire goes out of the workshop, put it on the carat scale to weigh "
            "it",
        ),
        neg="Send the cut sapphires out of the workshop at the weight the cutter estimates by eye",
        wrong="Weigh every cut emerald on the carat scale before it leaves the workshop",
    ),
    dict(
        kind="constraint",
        fact="Fill every neon tube with gas only after it has been bombarded and pumped down to "
        "vacuum",
        para=(
            "Each neon tube gets its gas filling only once it has been bombarded and pumped down "
            "to a vacuum",
            "bombard every neon tube and pump it down to vacuum before filling it with gas",
        ),
        neg="Fill every neon tube with gas straight off the bending bench, before any bombarding "
        "or pumping",
        wrong="Fill every argon tube with gas only after it has been bombarded and pumped down to "
        "vacuum",
    ),
    dict(
        kind="constraint",
        fact="Take down any marquee when the forecast gusts reach 40 miles an hour",
        para=(
            "Any marquee must be dismantled once forecast gusts hit 40 miles an hour",
            "every marquee comes down when gusts of 40 miles an hour are forecast",
        ),
        neg="Keep every marquee standing through gusts of 40 miles an hour and add extra guy ropes",
        wrong="Take down any gazebo when the forecast gusts reach 40 miles an hour",
    ),
    dict(
        kind="constraint",
        fact="Launch the weather balloons at exactly 11:15 and 23:15 UTC every day",
        para=(
            "Every day, the weather balloons go up at 11:15 and 23:15 UTC precisely",
            "release the weather balloons each day at 11:15 UTC and at 23:15 UTC on the dot",
        ),
        neg="Weather balloons aren't launched on a fixed schedule; the crew sends them up "
        "whenever it suits",
        wrong="Launch the ozone sondes at exactly 11:15 and 23:15 UTC every day",
    ),
    dict(
        kind="constraint",
        fact="Keep the nutrient solution for the lettuce racks between pH 5.8 and 6.2",
        para=(
            "The nutrient solution feeding the lettuce racks has to stay within pH 5.8 to 6.2",
            "hold the pH of the lettuce racks' nutrient solution in the range 5.8 to 6.2",
        ),
        neg="Let the nutrient solution for the lettuce racks drift up to pH 7.5 between the "
        "weekly top-ups",
        wrong="Keep the nutrient solution for the basil racks between pH 5.8 and 6.2",
    ),
    dict(
        kind="decision",
        fact="stitch new soles onto the work boots instead of gluing them, and dye the heels to "
        "match the uppers",
        para=(
            "sew new soles onto the work boots instead of gluing them, and stain the heels to "
            "match the uppers",
            "the heels are dyed to match the uppers, and new soles are stitched onto the work "
            "boots rather than glued",
        ),
        neg="stitch new soles onto the work boots instead of gluing them, and leave the heels in "
        "raw black rubber",
        wrong="stitch new soles onto the riding boots instead of gluing them, and dye the heels "
        "to match the uppers",
        swap="glue new soles onto the work boots instead of stitching them, and dye the heels to "
        "match the uppers",
    ),
    dict(
        kind="decision",
        fact="cut the wedding suits from the customer's own paper pattern rather than a stock "
        "block, and hand-sew the buttonholes",
        para=(
            "cut the wedding suits from the client's own paper pattern rather than a stock "
            "block, and hand-stitch the buttonholes",
            "buttonholes are sewn by hand, and each wedding suit is cut from the customer's own "
            "paper pattern instead of from a stock block",
        ),
        neg="cut the wedding suits from the customer's own paper pattern rather than a stock "
        "block, and punch the buttonholes on the machine",
        wrong="cut the overcoats from the customer's own paper pattern rather than a stock block, "
        "and hand-sew the buttonholes",
        swap="cut the wedding suits from a stock block rather than the customer's own paper "
        "pattern, and hand-sew the buttonholes",
    ),
    dict(
        kind="decision",
        fact="light the lettuce racks with LEDs instead of sodium lamps, and harvest each rack on "
        "day 35, and compost the roots on site",
        para=(
            "illuminate the lettuce racks with LEDs instead of sodium lamps, and crop each rack "
            "on day 35, and compost the roots at the farm",
            "the roots are composted on site, and each rack is harvested on day 35, and LEDs "
            "rather than sodium lamps light the lettuce racks",
        ),
        neg="light the lettuce racks with LEDs instead of sodium lamps, and harvest each rack on "
        "day 35, and send the roots to landfill with the general waste",
        wrong="light the seedling trays with LEDs instead of sodium lamps, and harvest each rack "
        "on day 35, and compost the roots on site",
        swap="light the lettuce racks with sodium lamps instead of LEDs, and harvest each rack on "
        "day 35, and compost the roots on site",
    ),
    dict(
        kind="decision",
        fact="toast the barrel interiors over an oak-chip fire instead of with a gas burner",
        para=(
            "barrel interiors are toasted over a fire of oak chips rather than with a gas burner",
            "an oak-chip fire, in place of a gas burner, toasts the inside of the barrels",
        ),
        neg="the barrel interiors are toasted with the gas burner, and the oak-chip fire was "
        "ruled out",
        wrong="toast the barrel heads over an oak-chip fire instead of with a gas burner",
        swap="toast the barrel interiors with a gas burner instead of over an oak-chip fire",
    ),
    dict(
        kind="decision",
        fact="sort the ballot papers by hand rather than through the scanning machines",
        para=(
            "ballot papers are sorted manually instead of being run through the scanning machines",
            "the count sorts its ballot papers by hand, in preference to the scanning machines",
        ),
        neg="every ballot paper goes through the scanning machines, and the hand sort was dropped",
        wrong="sort the postal vote envelopes by hand rather than through the scanning machines",
        swap="sort the ballot papers through the scanning machines rather than by hand",
    ),
    dict(
        kind="decision",
        fact="fix the new thatch with hazel spars instead of steel crooks",
        para=(
            "the new thatch is held down with hazel spars rather than steel crooks",
            "use hazel spars, in place of steel crooks, to fasten the new thatch",
        ),
        neg="the new thatch is fastened with steel crooks, and the hazel spars were scrapped as "
        "too slow",
        wrong="fix the ridge netting with hazel spars instead of steel crooks",
    ),
    dict(
        kind="decision",
        fact="record the drums in the live room rather than in the vocal booth",
        para=(
            "the drums are tracked in the live room instead of the vocal booth",
            "the live room, in place of the vocal booth, is where the drums get recorded",
        ),
        neg="the drums are recorded in the vocal booth, and the live room is kept for the strings",
        wrong="record the piano in the live room rather than in the vocal booth",
        swap="record the drums in the vocal booth rather than in the live room",
    ),
    dict(
        kind="decision",
        fact="route the rapid response cars by the live traffic map instead of the fixed road "
        "atlas",
        para=(
            "rapid response cars are routed using the live traffic map rather than the fixed "
            "road atlas",
            "send the rapid response cars along routes from the live traffic map, in place of "
            "the fixed road atlas",
        ),
        neg="the rapid response cars won't use the live traffic map; crews keep to the fixed "
        "road atlas",
        wrong="route the patient transport vans by the live traffic map instead of the fixed "
        "road atlas",
    ),
    dict(
        kind="decision",
        fact="floor the large marquees with interlocking plastic panels rather than coconut "
        "matting",
        para=(
            "the large marquees get interlocking plastic panel flooring instead of coconut matting",
            "lay interlocking plastic panels, not coconut matting, as the floor of the large "
            "marquees",
        ),
        neg="the large marquees are floored with coconut matting, and the plastic panels went "
        "back to the supplier",
        wrong="floor the small marquees with interlocking plastic panels rather than coconut "
        "matting",
    ),
    dict(
        kind="next_step",
        fact="unload the glaze kiln once it has cooled below 100 degrees, and grind the glaze "
        "drips off every pot's foot, and photograph the finished pieces for the online shop",
        para=(
            "empty the glaze kiln once it has cooled under 100 degrees, and grind the glaze runs "
            "off every pot's foot, and photograph the finished work for the online shop",
            "the finished pieces are photographed for the online shop, and every pot's foot has "
            "its glaze drips ground off, and the glaze kiln is unloaded when it has cooled below "
            "100 degrees",
        ),
        neg="unload the glaze kiln at 400 degrees while it is still hot, and grind the glaze "
        "drips off every pot's foot, and photograph the finished pieces for the online shop",
        wrong="unload the glaze kiln once it has cooled below 100 degrees, and grind the glaze "
        "drips off every pot's foot, and photograph the finished pieces for the gallery catalogue",
    ),
    dict(
        kind="next_step",
        fact="fill the next weather balloon with hydrogen in the inflation shed, and check the "
        "radiosonde's signal before release",
        para=(
            "inflate the next weather balloon with hydrogen in the filling shed, and test the "
            "radiosonde's signal before launch",
            "the radiosonde's signal is checked before release, and the next weather balloon is "
            "filled with hydrogen in the inflation shed",
        ),
        neg="fill the next weather balloon with hydrogen in the inflation shed, and release it "
        "without checking the radiosonde's signal",
        wrong="fill the next pilot balloon with hydrogen in the inflation shed, and check the "
        "radiosonde's signal before release",
    ),
    dict(
        kind="next_step",
        fact="load the 40 kilometres of export cable onto the ship's carousel, and sail for the "
        "island once the wave forecast is below 2 metres, and pull the cable end into the "
        "landfall duct, and test the insulation before the ship leaves the site",
        para=(
            "spool the 40 kilometres of export cable onto the ship's carousel, and head for the "
            "island once the wave forecast drops below 2 metres, and haul the cable end into the "
            "landfall duct, and check the insulation before the ship leaves the site",
            "the insulation is tested before the ship leaves the site, and the cable end is "
            "pulled into the landfall duct, and the 40 kilometres of export cable are loaded onto "
            "the ship's carousel, and the ship sails for the island when the wave forecast is "
            "under 2 metres",
        ),
        neg="load the 40 kilometres of export cable onto the ship's carousel, and sail for the "
        "island as soon as the cable is loaded, whatever the wave forecast, and pull the cable "
        "end into the landfall duct, and test the insulation before the ship leaves the site",
        wrong="load the 40 kilometres of export cable onto the ship's carousel, and sail for the "
        "island once the wave forecast is below 2 metres, and pull the cable end into the "
        "substation trench, and test the insulation before the ship leaves the site",
    ),
    dict(
        kind="next_step",
        fact="send the 3-carat ruby to the gem lab for a heat-treatment report before it is set",
        para=(
            "before it is set, the 3-carat ruby goes to the gem lab for a report on heat treatment",
            "have the gem lab issue a heat-treatment report on the 3-carat ruby ahead of its "
            "setting",
        ),
        neg="set the 3-carat ruby in the ring today, and leave the lab report until after it is "
        "sold",
        wrong="send the 3-carat spinel to the gem lab for a heat-treatment report before it is set",
    ),
    dict(
        kind="next_step",
        fact="replace the torn safety net around the dodgeball court before Saturday's opening",
        para=(
            "the torn safety net around the dodgeball court must be swapped for a new one ahead "
            "of Saturday's opening",
            "put a new safety net around the dodgeball court in place of the torn one before the "
            "park opens on Saturday",
        ),
        neg="open the dodgeball court on Saturday with the torn safety net patched with cable ties",
        wrong="replace the torn safety net around the foam pit before Saturday's opening",
    ),
    dict(
        kind="next_step",
        fact="bend the letters for the barber's shop sign from 12 mm tube this week",
        para=(
            "this week, the letters of the barber's shop sign get bent from 12 mm tube",
            "shape the barber's shop sign letters out of 12 mm tubing in the course of this week",
        ),
        neg="put the barber's shop sign on hold until spring and bend the hotel's letters this "
        "week instead",
        wrong="bend the letters for the florist's sign from 12 mm tube this week",
    ),
    dict(
        kind="next_step",
        fact="call each couple whose embryos have been stored for ten years to renew their consent",
        para=(
            "couples whose embryos have been in storage for ten years each get a call asking "
            "them to renew their consent",
            "phone every couple with embryos stored for a decade so that they renew their consent",
        ),
        neg="discard the embryos of every couple at ten years of storage and write to them "
        "afterwards",
        wrong="call each donor whose eggs have been stored for ten years to renew their consent",
    ),
    dict(
        kind="next_step",
        fact="repaint the shooting line on the outdoor range before the club championship",
        para=(
            "the shooting line on the outdoor range needs fresh paint ahead of the club "
            "championship",
            "before the club championship, give the outdoor range's shooting line a new coat of "
            "paint",
        ),
        neg="mark the shooting line on the outdoor range with a rope for the club championship "
        "and repaint it next year",
        wrong="repaint the shooting line on the indoor range before the club championship",
    ),
)
FRESH13_BLOCKERS = (
    (
        "File \"control/dispatch/nearest.py\", line 58, in nearest_crew: KeyError: 'sector-7' "
        "(call 4471)",
        "File \"control/dispatch/nearest.py\", line 58, in nearest_crew: KeyError: 'sector-1' "
        "(call 4471)",
    ),
    (
        "panic: runtime error: index out of range [12] with length 12 (count/tally.go:64 in "
        "addWard)",
        "panic: runtime error: index out of range [12] with length 11 (count/tally.go:64 in "
        "addWard)",
    ),
    (
        "java.lang.IllegalStateException: pH probe 3 returned NaN at "
        "com.verticalfarm.dosing.PhController.read(PhController.java:88)",
        "java.lang.IllegalStateException: pH probe 8 returned NaN at "
        "com.verticalfarm.dosing.PhController.read(PhController.java:88)",
    ),
    (
        "src/bookings/slots.ts(41,17): error TS2345: Argument of type 'string' is not assignable "
        "to parameter of type 'JumpSlot'.",
        "src/bookings/slots.ts(41,17): error TS2345: Argument of type 'string' is not assignable "
        "to parameter of type 'JumpSlots'.",
    ),
    (
        "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', "
        "src/carousel/tension.rs:112:31",
        "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', "
        "src/carousel/tension.rs:121:31",
    ),
)
FRESH13_COMMANDS = (
    ("go test ./count/...", "go test ./counts/..."),
    (
        "python -m pytest control/dispatch/test_nearest.py",
        "python -m pytest control/dispatch/test_nearest_crew.py",
    ),
    ("cargo test -p carousel", "cargo test -p carousel-sim"),
)
FRESH13_SUPERSEDED = (
    dict(
        old="launch the weather balloons from the north pad",
        new="launch the weather balloons from the automatic launcher on the roof",
        report="Weather balloon launches moved off the north pad onto the automatic launcher on "
        "the roof",
    ),
    dict(
        old="age the ice-cream mix for twelve hours",
        new="age the ice-cream mix for six hours",
        report="The ice-cream mix's ageing time was cut from twelve hours to six",
    ),
    dict(
        old="fire the bisque kiln with propane",
        new="fire the bisque kiln with electricity",
        report="The bisque kiln switched from propane to electric firing",
    ),
    dict(
        old="hire out the marquees with wooden poles",
        new="hire out the marquees with aluminium frames",
        report="Marquee hire went from wooden poles to aluminium frames",
    ),
    dict(
        old="press the suit seams with a steam iron",
        new="press the suit seams on the steam press",
        report="Pressing of the suit seams changed from the steam iron to the steam press",
    ),
)
FRESH13_FILES = (
    ("control/dispatch/nearest.py", "control/dispatcher/nearest.py"),
    ("count/tally.go", "counts/tally.go"),
    (
        "dosing/src/main/java/com/verticalfarm/dosing/PhController.java",
        "dosing/src/main/java/com/verticalfarm/dosing/PHController.java",
    ),
    ("src/bookings/slots.ts", "src/bookings/slots.tsx"),
    ("src/carousel/tension.rs", "src/carousel/tensions.rs"),
    ("config/kilns/glaze.yaml", "config/kilns/glaze.yml"),
)
# ---------------------------------------------------------------------------------------------
# Fresh-14 bank, the sixteenth bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (a stained-glass studio, an oyster
# farm, a hospital pharmacy's chemotherapy compounding unit, a taxidermy workshop, a milliner, a
# surfboard shaper, a maple syrup sugarhouse, a gas pipeline pigging crew, a ropewalk, an
# antivenom lab's snake milking, a shipyard's dry dock, a racecourse's starting stalls, an orchid
# nursery, a rail freight yard, a prison's visits hall, a fish smokehouse, an upholstery
# workshop, a puppet theatre, a cider mill, a rowing club's boathouse). About a third of the
# prose facts are long, with two to four clauses joined by ", and "; their negations and
# wrong-subject variants change one clause only and keep the others word for word. Most
# negations carry no negation word (an incompatible action in place of the fact's, verdicts
# such as "was ruled out"); the tail items use their own speaker lead-ins.
FRESH14_PROSE = (
    dict(
        kind="goal",
        fact="Clean every medieval stained-glass panel with distilled water and cotton swabs, and "
        "photograph both faces before releading, and store the removed lead cames in labelled bags",
        para=(
            "Wash every medieval stained-glass panel with distilled water and cotton buds, and "
            "photograph both sides before releading, and keep the removed lead cames in labelled "
            "bags",
            "The removed lead cames are stored in labelled bags, and both faces of every medieval "
            "stained-glass panel are photographed before releading, and each panel is cleaned "
            "with distilled water and cotton swabs",
        ),
        neg="Clean every medieval stained-glass panel with distilled water and cotton swabs, and "
        "photograph both faces before releading, and melt the removed lead cames down for scrap",
        wrong="Clean every Victorian stained-glass panel with distilled water and cotton swabs, "
        "and photograph both faces before releading, and store the removed lead cames in labelled "
        "bags",
    ),
    dict(
        kind="goal",
        fact="Hold every batch of harvested oysters in the purification tanks for 42 hours, and "
        "test a sample from each batch for norovirus before sale",
        para=(
            "Keep every batch of harvested oysters in the depuration tanks for 42 hours, and "
            "check a sample from each batch for norovirus before sale",
            "A sample from each batch of harvested oysters is tested for norovirus before it is "
            "sold, and every batch spends 42 hours in the purification tanks",
        ),
        neg="Send every batch of harvested oysters straight from the beds to market, and test a "
        "sample from each batch for norovirus before sale",
        wrong="Hold every batch of harvested mussels in the purification tanks for 42 hours, and "
        "test a sample from each batch for norovirus before sale",
    ),
    dict(
        kind="goal",
        fact="Prepare every chemotherapy dose in the isolator under negative pressure, and weigh "
        "each filled syringe on the gravimetric balance, and label each bag with the patient's "
        "name and date of birth, and deliver the doses to the day unit by 9 am",
        para=(
            "Make up every chemotherapy dose in the isolator under negative pressure, and check "
            "the weight of each filled syringe on the gravimetric balance, and mark each bag with "
            "the patient's name and date of birth, and get the doses to the day unit by 9 am",
            "The doses reach the day unit by 9 am, and each bag carries the patient's name and "
            "date of birth, and each filled syringe is weighed on the gravimetric balance, and "
            "every chemotherapy dose is prepared in the isolator under negative pressure",
        ),
        neg="Prepare every chemotherapy dose in the isolator under negative pressure, and weigh "
        "each filled syringe on the gravimetric balance, and label each bag with the patient's "
        "name and date of birth, and send the doses to the day unit with the afternoon porter "
        "round",
        wrong="Prepare every antibiotic dose in the isolator under negative pressure, and weigh "
        "each filled syringe on the gravimetric balance, and label each bag with the patient's "
        "name and date of birth, and deliver the doses to the day unit by 9 am",
    ),
    dict(
        kind="goal",
        fact="Freeze every bird specimen for two weeks before it is skinned",
        para=(
            "Each bird specimen has to spend two weeks in the freezer before it is skinned",
            "keep every bird specimen frozen for a fortnight ahead of skinning it",
        ),
        neg="Skin every bird specimen on the day it arrives, fresh from the courier",
        wrong="Freeze every mammal specimen for two weeks before it is skinned",
    ),
    dict(
        kind="goal",
        fact="Steam every felt hat onto a wooden block before its brim is trimmed",
        para=(
            "Each felt hat is shaped with steam over a wooden block before the brim gets trimmed",
            "block every felt hat on wood with steam ahead of trimming its brim",
        ),
        neg="Trim the brim of every felt hat first, and steam the hat onto a wooden block "
        "afterwards",
        wrong="Steam every straw boater onto a wooden block before its brim is trimmed",
    ),
    dict(
        kind="goal",
        fact="Glass the deck of every surfboard with two layers of 6-ounce cloth",
        para=(
            "Every surfboard's deck is laminated with two layers of 6-ounce fibreglass cloth",
            "lay a double layer of 6-ounce cloth over the deck of each surfboard",
        ),
        neg="Glass the deck of every surfboard with a single layer of 4-ounce cloth to save weight",
        wrong="Glass the deck of every paddleboard with two layers of 6-ounce cloth",
    ),
    dict(
        kind="goal",
        fact="Boil down all the maple sap within 24 hours of it leaving the trees",
        para=(
            "All the maple sap must be boiled down no later than 24 hours after it comes out of "
            "the trees",
            "every drop of maple sap goes into the evaporator within a day of being collected "
            "from the trees",
        ),
        neg="Store the maple sap in the holding tanks for up to a week before boiling it down",
        wrong="Boil down all the birch sap within 24 hours of it leaving the trees",
    ),
    dict(
        kind="goal",
        fact="Run an inspection pig through the gas pipeline between the two compressor stations "
        "every five years",
        para=(
            "Every five years, an inspection pig is sent through the gas pipeline linking the two "
            "compressor stations",
            "pig the gas pipeline between the two compressor stations with an inspection tool at "
            "five-year intervals",
        ),
        neg="Inspect the gas pipeline between the two compressor stations only when a leak is "
        "reported",
        wrong="Run an inspection pig through the oil pipeline between the two compressor stations "
        "every five years",
    ),
    dict(
        kind="constraint",
        fact="Twist every mooring rope from manila fibre, and stretch it for a day before "
        "coiling, and tag each coil with its breaking load",
        para=(
            "Spin every mooring rope from manila fibre, and pre-stretch it for a day before "
            "coiling, and label each coil with its breaking load",
            "Each coil carries a tag with its breaking load, and every mooring rope is made from "
            "manila fibre and stretched for a day before it is coiled",
        ),
        neg="Twist every mooring rope from manila fibre, and coil it straight off the ropewalk "
        "while it is still slack, and tag each coil with its breaking load",
        wrong="Twist every tow rope from manila fibre, and stretch it for a day before coiling, "
        "and tag each coil with its breaking load",
    ),
    dict(
        kind="constraint",
        fact="Milk each snake only with two handlers present, and keep the antivenom for its "
        "species on the bench during every extraction",
        para=(
            "Extract venom from each snake only with two handlers in the room, and keep the "
            "antivenom for its species on the bench during every milking",
            "During every extraction the antivenom for the snake's species sits on the bench, and "
            "each snake is milked only when two handlers are present",
        ),
        neg="Milk each snake only with two handlers present, and keep the antivenom for its "
        "species locked in the hospital pharmacy across the road during every extraction",
        wrong="Milk each scorpion only with two handlers present, and keep the antivenom for its "
        "species on the bench during every extraction",
    ),
    dict(
        kind="constraint",
        fact="Pump out the dry dock only after the keel blocks have been surveyed, and shore the "
        "hull with timber props as the water falls, and grit-blast the hull before any paint goes "
        "on, and post a fire watch for every hot-work job in the dock",
        para=(
            "Drain the dry dock only after the keel blocks have been inspected, and prop the hull "
            "with timber shores as the water drops, and grit-blast the hull before any coating "
            "goes on, and station a fire watch for every hot-work job in the dock",
            "Every hot-work job in the dock has a fire watch posted, and the hull is grit-blasted "
            "before it is painted, and timber props shore it up as the water falls, and the dry "
            "dock is pumped out only once the keel blocks have been surveyed",
        ),
        neg="Pump out the dry dock only after the keel blocks have been surveyed, and shore the "
        "hull with timber props as the water falls, and roll the new paint straight over the old "
        "fouling once the hull is dry, and post a fire watch for every hot-work job in the dock",
        wrong="Pump out the dry dock only after the keel blocks have been surveyed, and shore the "
        "hull with timber props as the water falls, and grit-blast the hull before any paint goes "
        "on, and post a fire watch for every hot-work job on the quayside",
    ),
    dict(
        kind="constraint",
        fact="Test the gates of the starting stalls with a dry run before the first race of every "
        "meeting",
        para=(
            "Before the first race of each meeting, the starting stalls' gates are tested in a "
            "dry run",
            "dry-run the gates of the starting stalls ahead of every meeting's opening race",
        ),
        neg="Take the starting stalls to the first race of each meeting straight off the lorry, "
        "and test their gates once racing has finished",
        wrong="Test the shutter of the photo-finish camera with a dry run before the first race "
        "of every meeting",
    ),
    dict(
        kind="constraint",
        fact="Water the orchids only with rainwater collected from the glasshouse roof",
        para=(
            "The orchids are watered solely with rainwater gathered from the glasshouse roof",
            "use only rainwater from the glasshouse roof when watering the orchids",
        ),
        neg="Water the orchids with tap water straight from the mains",
        wrong="Water the bromeliads only with rainwater collected from the glasshouse roof",
    ),
    dict(
        kind="constraint",
        fact="Keep wagons carrying chlorine at least three tracks away from any wagon of "
        "explosives",
        para=(
            "Chlorine wagons must stand a minimum of three tracks from any wagon loaded with "
            "explosives",
            "any explosives wagon has to be separated from the chlorine wagons by three tracks or "
            "more",
        ),
        neg="Marshal the chlorine wagons right next to the explosives wagons in the same train",
        wrong="Keep wagons carrying ammonia at least three tracks away from any wagon of "
        "explosives",
    ),
    dict(
        kind="constraint",
        fact="Book every family visit at least 48 hours ahead through the visits line",
        para=(
            "Each family visit must be booked via the visits line a minimum of 48 hours in advance",
            "family visits are arranged through the visits line two days beforehand at the latest",
        ),
        neg="Let families turn up at the prison gate and book a visit on the day",
        wrong="Book every legal visit at least 48 hours ahead through the visits line",
    ),
    dict(
        kind="constraint",
        fact="Cold-smoke the salmon sides below 28 degrees for twelve hours",
        para=(
            "The salmon sides are cold-smoked at under 28 degrees for twelve hours",
            "give the salmon sides a twelve-hour cold smoke, keeping it cooler than 28 degrees",
        ),
        neg="Hot-smoke the salmon sides at 80 degrees for two hours",
        wrong="Cold-smoke the trout fillets below 28 degrees for twelve hours",
    ),
    dict(
        kind="constraint",
        fact="Fill every sofa cushion only with fire-retardant foam that carries the safety label",
        para=(
            "Each sofa cushion may be filled with fire-retardant foam bearing the safety label "
            "and nothing else",
            "only foam that is fire-retardant and carries the safety label goes into any sofa "
            "cushion",
        ),
        neg="Fill the sofa cushions with whatever foam is cheapest, whether it carries the safety "
        "label or not",
        wrong="Fill every armchair cushion only with fire-retardant foam that carries the safety "
        "label",
    ),
    dict(
        kind="constraint",
        fact="Hang every marionette on its own numbered hook backstage after each show",
        para=(
            "After each show, every marionette goes back on its own numbered hook backstage",
            "each marionette is hung backstage on a numbered hook of its own once every "
            "performance ends",
        ),
        neg="Pile all the marionettes together in one trunk backstage after each show",
        wrong="Hang every glove puppet on its own numbered hook backstage after each show",
    ),
    dict(
        kind="decision",
        fact="press the apples in a rack-and-cloth press instead of a belt press, and ferment the "
        "juice with wild yeast",
        para=(
            "squeeze the apples in a rack-and-cloth press instead of a belt press, and ferment "
            "the juice using wild yeast",
            "the juice is fermented with wild yeast, and the apples are pressed in a "
            "rack-and-cloth press rather than a belt press",
        ),
        neg="press the apples in a rack-and-cloth press instead of a belt press, and pitch a "
        "cultured champagne yeast into the juice",
        wrong="press the pears in a rack-and-cloth press instead of a belt press, and ferment the "
        "juice with wild yeast",
        swap="press the apples in a belt press instead of a rack-and-cloth press, and ferment the "
        "juice with wild yeast",
    ),
    dict(
        kind="decision",
        fact="shape the boards from recycled EPS blanks rather than polyurethane foam, and "
        "laminate them with bio-epoxy resin, and sand each board by hand",
        para=(
            "cut the boards from recycled EPS blanks rather than polyurethane foam, and glass "
            "them with bio-epoxy resin, and hand-sand each board",
            "each board is sanded by hand and laminated with bio-epoxy resin, and the boards are "
            "shaped from recycled EPS blanks instead of polyurethane foam",
        ),
        neg="shape the boards from recycled EPS blanks rather than polyurethane foam, and "
        "laminate them with bio-epoxy resin, and sand each board on the robotic sanding arm",
        wrong="shape the boards from recycled EPS blanks rather than polyurethane foam, and "
        "laminate the fins with bio-epoxy resin, and sand each board by hand",
        swap="shape the boards from polyurethane foam rather than recycled EPS blanks, and "
        "laminate them with bio-epoxy resin, and sand each board by hand",
    ),
    dict(
        kind="decision",
        fact="store the eights on the upper racks instead of the lower ones, and hose every hull "
        "with fresh water after each outing, and log each outing in the boathouse book",
        para=(
            "keep the eights on the upper racks instead of the lower ones, and rinse every hull "
            "with fresh water after each outing, and record each outing in the boathouse book",
            "each outing is written into the boathouse book, and every hull is hosed down with "
            "fresh water after the outing, and the eights go on the upper racks rather than the "
            "lower ones",
        ),
        neg="store the eights on the upper racks instead of the lower ones, and rack every hull "
        "wet straight from the river after each outing, and log each outing in the boathouse book",
        wrong="store the single sculls on the upper racks instead of the lower ones, and hose "
        "every hull with fresh water after each outing, and log each outing in the boathouse book",
        swap="store the eights on the lower racks instead of the upper ones, and hose every hull "
        "with fresh water after each outing, and log each outing in the boathouse book",
    ),
    dict(
        kind="decision",
        fact="mount the fox on a polyurethane form rather than a hand-wrapped wood-wool body",
        para=(
            "the fox is mounted on a polyurethane form instead of a body wrapped by hand from "
            "wood wool",
            "a polyurethane form, in place of a hand-wrapped wood-wool body, is what the fox gets "
            "mounted on",
        ),
        neg="the fox goes onto a hand-wrapped wood-wool body, and the polyurethane form was ruled "
        "out",
        wrong="mount the badger on a polyurethane form rather than a hand-wrapped wood-wool body",
        swap="mount the fox on a hand-wrapped wood-wool body rather than a polyurethane form",
    ),
    dict(
        kind="decision",
        fact="fire the evaporator with wood instead of fuel oil",
        para=(
            "the evaporator is fired with wood rather than fuel oil",
            "burn wood, in place of fuel oil, under the evaporator",
        ),
        neg="the evaporator runs on fuel oil, and the wood firing was abandoned",
        wrong="fire the finishing pan with wood instead of fuel oil",
        swap="fire the evaporator with fuel oil instead of wood",
    ),
    dict(
        kind="decision",
        fact="stiffen the straw hats with gelatine sizing rather than spray lacquer",
        para=(
            "the straw hats are stiffened using gelatine sizing instead of spray lacquer",
            "use gelatine sizing, in place of spray lacquer, to stiffen the straw hats",
        ),
        neg="the straw hats get stiffened with spray lacquer, and the gelatine sizing was dropped",
        wrong="stiffen the sinamay fascinators with gelatine sizing rather than spray lacquer",
        swap="stiffen the straw hats with spray lacquer rather than gelatine sizing",
    ),
    dict(
        kind="decision",
        fact="launch the inspection pig from the northern trap instead of the southern trap",
        para=(
            "the inspection pig is launched from the northern trap rather than the southern one",
            "use the northern trap, in place of the southern trap, to send in the inspection pig",
        ),
        neg="the inspection pig won't go in at the northern trap; it is launched from the "
        "southern trap",
        wrong="launch the cleaning pig from the northern trap instead of the southern trap",
    ),
    dict(
        kind="decision",
        fact="reglaze the chapel's east window with mouth-blown glass rather than machine-rolled "
        "sheet",
        para=(
            "the chapel's east window is reglazed using mouth-blown glass instead of "
            "machine-rolled sheet",
            "mouth-blown glass, in place of machine-rolled sheet, goes into the chapel's east "
            "window when it is reglazed",
        ),
        neg="the chapel's east window gets machine-rolled sheet, and the mouth-blown glass was "
        "turned down as too costly",
        wrong="reglaze the chapel's west window with mouth-blown glass rather than machine-rolled "
        "sheet",
    ),
    dict(
        kind="decision",
        fact="move the wagons around the yard with a battery shunter instead of the diesel "
        "locomotive",
        para=(
            "wagons are shunted around the yard by a battery shunter rather than the diesel "
            "locomotive",
            "a battery shunter, in place of the diesel locomotive, moves the wagons around the "
            "yard",
        ),
        neg="the diesel locomotive keeps shunting the wagons around the yard, and the battery "
        "shunter was sent back to the hire company",
        wrong="move the wagons around the carriage depot with a battery shunter instead of the "
        "diesel locomotive",
    ),
    dict(
        kind="next_step",
        fact="brine the next batch of haddock for twenty minutes, and hang it on the racks "
        "overnight to form a pellicle, and smoke it over oak chips in the morning",
        para=(
            "soak the next batch of haddock in brine for twenty minutes, and hang it on the racks "
            "overnight so a pellicle forms, and smoke it over oak shavings in the morning",
            "the next batch of haddock is smoked over oak chips in the morning, after twenty "
            "minutes in brine and a night hanging on the racks to form a pellicle",
        ),
        neg="brine the next batch of haddock for twenty minutes, and hang it on the racks "
        "overnight to form a pellicle, and freeze it raw in the morning for the wholesale order",
        wrong="brine the next batch of mackerel for twenty minutes, and hang it on the racks "
        "overnight to form a pellicle, and smoke it over oak chips in the morning",
    ),
    dict(
        kind="next_step",
        fact="install the new body scanner at the visitors' entrance, and train every visits "
        "officer on it before Monday",
        para=(
            "fit the new body scanner at the visitors' entrance, and instruct every visits "
            "officer in using it before Monday",
            "before Monday every visits officer is to be trained on the new body scanner, which "
            "is installed at the visitors' entrance",
        ),
        neg="install the new body scanner at the visitors' entrance, and postpone the visits "
        "officers' training on it until next quarter",
        wrong="install the new body scanner at the staff entrance, and train every visits officer "
        "on it before Monday",
    ),
    dict(
        kind="next_step",
        fact="strip the old horsehair from the Victorian chaise longue, and retie the springs "
        "with jute twine, and cover the seat in the customer's green velvet, and deliver it back "
        "on Friday",
        para=(
            "remove the old horsehair from the Victorian chaise longue, and re-lash the springs "
            "with jute twine, and upholster the seat in the client's green velvet, and return it "
            "on Friday",
            "the Victorian chaise longue goes back to the customer on Friday with its old "
            "horsehair stripped out, its springs retied with jute twine and its seat covered in "
            "the customer's green velvet",
        ),
        neg="strip the old horsehair from the Victorian chaise longue, and retie the springs with "
        "jute twine, and cover the seat in our stock grey linen, and deliver it back on Friday",
        wrong="strip the old horsehair from the Edwardian armchair, and retie the springs with "
        "jute twine, and cover the seat in the customer's green velvet, and deliver it back on "
        "Friday",
    ),
    dict(
        kind="next_step",
        fact="lay out 200 new trestles on the lower shore at the next spring tide",
        para=(
            "at the next spring tide, put 200 new trestles out on the lower shore",
            "the 200 new trestles go down on the lower shore during the coming spring tide",
        ),
        neg="keep the 200 new trestles stacked in the yard through the next spring tide",
        wrong="lay out 200 new trestles on the upper shore at the next spring tide",
    ),
    dict(
        kind="next_step",
        fact="replace the worn padding inside stall 7 before Saturday's meeting",
        para=(
            "the worn padding inside stall 7 must be renewed ahead of Saturday's meeting",
            "before the meeting on Saturday, put new padding into stall 7 in place of the worn "
            "lining",
        ),
        neg="run Saturday's meeting with the worn padding in stall 7 as it is, and reline the "
        "stall over the winter",
        wrong="replace the worn padding inside stall 9 before Saturday's meeting",
    ),
    dict(
        kind="next_step",
        fact="send the pooled cobra venom to the freeze-dryer by Thursday",
        para=(
            "the pooled cobra venom has to go to the freeze-dryer by Thursday",
            "by Thursday, pass the pooled venom from the cobras on to the freeze-dryer",
        ),
        neg="keep the pooled cobra venom as a liquid in the minus-80 freezer until next month",
        wrong="send the pooled viper venom to the freeze-dryer by Thursday",
    ),
    dict(
        kind="next_step",
        fact="restring the dragon marionette with braided fishing line before the matinee",
        para=(
            "the dragon marionette needs new strings of braided fishing line ahead of the matinee",
            "before the matinee, put fresh braided fishing line on the dragon marionette as its "
            "strings",
        ),
        neg="perform the matinee with the dragon marionette on its frayed old strings",
        wrong="restring the witch marionette with braided fishing line before the matinee",
    ),
    dict(
        kind="next_step",
        fact="repot the phalaenopsis seedlings into fresh pine bark this week",
        para=(
            "this week, move the phalaenopsis seedlings into new pots of fresh pine bark",
            "the phalaenopsis seedlings get repotted in fresh pine bark in the course of this week",
        ),
        neg="don't repot the phalaenopsis seedlings until after they have flowered next spring",
        wrong="repot the cattleya seedlings into fresh pine bark this week",
    ),
)
FRESH14_BLOCKERS = (
    (
        'File "smokehouse/kiln/probe.py", line 73, in read_temp: ZeroDivisionError: float '
        "division by zero",
        'File "smokehouse/kiln/probe.py", line 73, in read_humidity: ZeroDivisionError: float '
        "division by zero",
    ),
    (
        "panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV] "
        "(yard/marshal/hazard.go:39 in checkSeparation)",
        "panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV] "
        "(yard/marshal/hazard.go:39 in checkSegregation)",
    ),
    (
        "System.InvalidOperationException: Sequence contains no elements at "
        "Compounding.Doses.GravimetricCheck.Weigh() in GravimetricCheck.cs:line 55",
        "System.InvalidOperationException: Sequence contains no elements at "
        "Compounding.Doses.GravimetricCheck.Weigh() in GravimetricCheck.cs:line 58",
    ),
    (
        "src/stalls/gates.ts(27,9): error TS2554: Expected 2 arguments, but got 1.",
        "src/stalls/gates.ts(27,9): error TS2554: Expected 2 arguments, but got 3.",
    ),
    (
        'PHP Warning:  Undefined array key "wing_c" in /var/www/visits/src/SlotPlanner.php on '
        "line 84",
        'PHP Warning:  Undefined array key "wing_e" in /var/www/visits/src/SlotPlanner.php on '
        "line 84",
    ),
)
FRESH14_COMMANDS = (
    ("go test ./yard/marshal/...", "go test ./yard/marshals/..."),
    ("dotnet test Compounding.Tests", "dotnet test Compounding.Test"),
    ("vendor/bin/phpunit tests/SlotPlannerTest.php", "vendor/bin/phpunit tests/SlotPlanTest.php"),
)
FRESH14_SUPERSEDED = (
    dict(
        old="tie the oyster bags to the trestles with rubber straps",
        new="tie the oyster bags to the trestles with stainless steel hooks",
        report="The oyster bags went from rubber straps to stainless steel hooks on the trestles",
    ),
    dict(
        old="collect the maple sap in buckets",
        new="collect the maple sap through tubing lines",
        report="Maple sap collection moved from buckets to tubing lines",
    ),
    dict(
        old="park the chlorine wagons on siding 4",
        new="park the chlorine wagons on siding 9",
        report="The chlorine wagons' siding was changed from 4 to 9",
    ),
    dict(
        old="hang the kippers on wooden tenterhooks",
        new="hang the kippers on steel tenterhooks",
        report="The kippers' tenterhooks were swapped from wood to steel",
    ),
    dict(
        old="book prison visits by post",
        new="book prison visits through the online form",
        report="Prison visit booking switched from post to the online form",
    ),
)
FRESH14_FILES = (
    ("smokehouse/kiln/probe.py", "smokehouse/kilns/probe.py"),
    ("yard/marshal/hazard.go", "yard/marshall/hazard.go"),
    ("Compounding/Doses/GravimetricCheck.cs", "Compounding/Dose/GravimetricCheck.cs"),
    ("src/stalls/gates.ts", "src/stalls/gate.ts"),
    ("src/SlotPlanner.php", "src/SlotPlanners.php"),
    ("config/evaporator/firing.toml", "config/evaporator/firing.json"),
)
# ---------------------------------------------------------------------------------------------
# Fresh-15 bank, the seventeenth bank: written blind by a separate helper session that read only
# this file, write_cases.py and the first part of README.md (a tannery, a desalination plant, a
# goldbeater's workshop, a soap maker, a gliding club's winch launches, a snail farm, a
# stonemason's yard, an ostrich farm, a sushi bar, a truffle orchard, a paragliding school, a
# public sauna, a wig maker, a charcoal burner's kilns, a coral reef restoration nursery, a
# falafel food truck, a silversmith, a letter-sorting office, a hop farm's oast house, a Roman
# mosaic conservation team). 12 of the 35 prose facts have two to four clauses joined by ", and
# "; their negations and wrong-subject variants change one clause only and keep the others word
# for word (every such wrong subject swaps a run of one to three words, every such negation is
# an incompatible action with no negation word). Most negations carry no negation word; the tail
# items use their own speaker lead-ins.
FRESH15_PROSE = (
    dict(
        kind="goal",
        fact="Soak every batch of cowhides in lime for five days, and scrape the hair off each "
        "hide on the fleshing beam, and tan the hides in oak bark pits for six months",
        para=(
            "Steep every batch of cowhides in lime for five days, and scrape the hair off each "
            "hide on the fleshing beam, and tan the hides in oak bark pits for six months",
            "The hides are tanned in oak bark pits for six months, each hide has its hair scraped "
            "off on the fleshing beam, and every batch of cowhides is soaked in lime for five "
            "days",
        ),
        neg="Soak every batch of cowhides in lime for five days, and scrape the hair off each "
        "hide on the fleshing beam, and chrome-tan the hides in rotating drums within a single "
        "day",
        wrong="Soak every batch of goatskins in lime for five days, and scrape the hair off each "
        "hide on the fleshing beam, and tan the hides in oak bark pits for six months",
    ),
    dict(
        kind="goal",
        fact="Flush the reverse-osmosis membranes with citric acid every three weeks, and send a "
        "sample of the product water to the county laboratory each Monday",
        para=(
            "Rinse the reverse-osmosis membranes with citric acid every three weeks, and send a "
            "sample of the product water to the county laboratory each Monday",
            "Each Monday a sample of the product water goes off to the county laboratory, and the "
            "reverse-osmosis membranes are flushed with citric acid every three weeks",
        ),
        neg="Flush the reverse-osmosis membranes with citric acid every three weeks, and pour the "
        "sample of the product water down the plant's drain each Monday",
        wrong="Flush the reverse-osmosis membranes with citric acid every three weeks, and send a "
        "sample of the brine discharge to the county laboratory each Monday",
    ),
    dict(
        kind="goal",
        fact="Alloy the gold to 23.5 carats, and roll each ingot into ribbon on the mill, and "
        "beat the leaf between gold-beater's skin for three hours, and book the finished leaf "
        "into the safe by 5 pm",
        para=(
            "Alloy the gold to 23.5 carats, and roll each ingot into ribbon on the mill, and "
            "hammer the leaf between gold-beater's skin for three hours, and log the finished "
            "leaf into the safe by 5 pm",
            "The gold is alloyed to 23.5 carats, each ingot is rolled into ribbon on the mill, "
            "the leaf is beaten between gold-beater's skin for three hours, and the finished "
            "leaf is booked into the safe by 5 pm",
        ),
        neg="Alloy the gold to 23.5 carats, and roll each ingot into ribbon on the mill, and beat "
        "the leaf between gold-beater's skin for three hours, and leave the finished leaf out on "
        "the open workbench overnight",
        wrong="Alloy the gold to 23.5 carats, and roll each ingot into ribbon on the mill, and "
        "beat the leaf between gold-beater's skin for three hours, and book the scrap clippings "
        "into the safe by 5 pm",
    ),
    dict(
        kind="goal",
        fact="Cure every batch of cold-process soap on the drying racks for six weeks before it "
        "is sold",
        para=(
            "Each batch of cold-process soap must spend six weeks curing on the drying racks "
            "before sale",
            "let every cold-process soap batch cure for a month and a half on the drying racks "
            "ahead of selling it",
        ),
        neg="Wrap every batch of cold-process soap and sell it the day after it is cut",
        wrong="Cure every batch of hot-process soap on the drying racks for six weeks before it "
        "is sold",
    ),
    dict(
        kind="goal",
        fact="Inspect the winch cable for broken strands before the first launch of each flying "
        "day",
        para=(
            "Before each flying day's first launch, the winch cable is checked for broken strands",
            "look over the winch cable for any snapped strands ahead of every flying day's "
            "opening launch",
        ),
        neg="Launch the first glider of each flying day at once, and leave the winch cable "
        "inspection until the evening",
        wrong="Inspect the tow rope for broken strands before the first launch of each flying day",
    ),
    dict(
        kind="goal",
        fact="Purge every snail for seven days on a diet of flour before it is cooked",
        para=(
            "Each snail is purged on flour for seven days before cooking",
            "feed every snail on flour for a week to purge it ahead of cooking",
        ),
        neg="Cook every snail straight from the breeding pens on the day it is collected",
        wrong="Purge every whelk for seven days on a diet of flour before it is cooked",
    ),
    dict(
        kind="goal",
        fact="Carve the inscription on the new granite headstone by hand with tungsten chisels",
        para=(
            "The lettering on the new granite headstone is cut by hand using tungsten chisels",
            "hand-carve the new granite headstone's inscription with tungsten chisels",
        ),
        neg="Sandblast the inscription onto the new granite headstone through a rubber stencil",
        wrong="Carve the inscription on the new marble headstone by hand with tungsten chisels",
    ),
    dict(
        kind="goal",
        fact="Turn every ostrich egg in the incubator twice a day for the first 39 days",
        para=(
            "Every ostrich egg in the incubator is turned two times daily during its first 39 days",
            "for the first 39 days, rotate each ostrich egg in the incubator twice daily",
        ),
        neg="Leave every ostrich egg lying still in the incubator from the day it is set",
        wrong="Turn every emu egg in the incubator twice a day for the first 39 days",
    ),
    dict(
        kind="constraint",
        fact="Freeze all raw mackerel at minus 20 degrees for seven days before it is served, and "
        "keep the sushi counter's display below 5 degrees, and throw away any sushi rice left out "
        "for more than four hours",
        para=(
            "Freeze all raw mackerel at minus 20 degrees for seven days before it is served, and "
            "keep the sushi counter's display below 5 degrees, and discard any sushi rice "
            "left out for more than four hours",
            "Any sushi rice left out for over four hours is thrown away, the sushi counter's "
            "display is kept under 5 degrees, and all raw mackerel is frozen at minus 20 "
            "degrees for a week before being served",
        ),
        neg="Freeze all raw mackerel at minus 20 degrees for seven days before it is served, and "
        "keep the sushi counter's display below 5 degrees, and reuse any sushi rice left out for "
        "more than four hours in the staff meal",
        wrong="Freeze all raw tuna at minus 20 degrees for seven days before it is served, and "
        "keep the sushi counter's display below 5 degrees, and throw away any sushi rice left out "
        "for more than four hours",
    ),
    dict(
        kind="constraint",
        fact="Hunt the truffles only with the trained dogs, and brush each black truffle clean by "
        "hand before it is weighed",
        para=(
            "Search for the truffles only with the trained dogs, and brush each black truffle "
            "clean by hand before it is weighed",
            "Each black truffle is brushed clean by hand before it goes on the scales, and the "
            "truffles are hunted with the trained dogs alone",
        ),
        neg="Hunt the truffles only with the trained dogs, and weigh each black truffle straight "
        "from the ground with the soil still on it",
        wrong="Hunt the truffles only with the trained dogs, and brush each white truffle clean "
        "by hand before it is weighed",
    ),
    dict(
        kind="constraint",
        fact="Fly students only when the wind at the launch is below 20 kilometres an hour, and "
        "check every harness's reserve parachute each month, and keep a radio on every student in "
        "the air, and land all students on the lower field",
        para=(
            "Fly students only when the wind at the launch is under 20 kilometres an hour, and "
            "inspect every harness's reserve parachute each month, and keep a radio on every "
            "student in the air, and land all students on the lower field",
            "All students land on the lower field, each student in the air carries a radio, every "
            "harness's reserve parachute is checked monthly, and students fly only if the "
            "wind at the launch is below 20 kilometres an hour",
        ),
        neg="Fly students only when the wind at the launch is below 20 kilometres an hour, and "
        "check every harness's reserve parachute each month, and keep a radio on every student in "
        "the air, and let each student land wherever they choose in the valley",
        wrong="Fly students only when the wind at the launch is below 20 kilometres an hour, and "
        "check every harness's reserve parachute each month, and keep a radio on every instructor "
        "in the air, and land all students on the lower field",
    ),
    dict(
        kind="constraint",
        fact="Shower before entering the cold plunge pool",
        para=(
            "A shower is required ahead of getting into the cold plunge pool",
            "everyone takes a shower before they go into the cold plunge pool",
        ),
        neg="Step into the cold plunge pool straight from the sauna bench, unwashed",
        wrong="Shower before entering the steam room",
    ),
    dict(
        kind="constraint",
        fact="Knot every hair into the lace cap by hand, one to three hairs at a time",
        para=(
            "Each hair is hand-knotted into the lace cap, between one and three hairs per knot",
            "tie every hair into the lace cap by hand in knots of one to three hairs",
        ),
        neg="Sew machine-made wefts of hair onto the lace cap in long strips",
        wrong="Knot every hair into the silk top by hand, one to three hairs at a time",
    ),
    dict(
        kind="constraint",
        fact="Seal the charcoal kiln's vents with clay as soon as the smoke turns blue",
        para=(
            "As soon as the smoke goes blue, the vents of the charcoal kiln are sealed with clay",
            "close off the charcoal kiln's vents with clay the moment the smoke becomes blue",
        ),
        neg="Open the charcoal kiln's vents wider once the smoke turns blue",
        wrong="Seal the lime kiln's vents with clay as soon as the smoke turns blue",
    ),
    dict(
        kind="constraint",
        fact="Clean the algae off the coral nursery trees every two weeks",
        para=(
            "Every two weeks, the coral nursery trees are cleared of algae",
            "scrub the algae from the coral nursery trees once a fortnight",
        ),
        neg="Let the algae grow on the coral nursery trees until the annual survey",
        wrong="Clean the algae off the mooring buoys every two weeks",
    ),
    dict(
        kind="constraint",
        fact="Change the falafel fryer's oil at the end of every trading day",
        para=(
            "The falafel fryer gets fresh oil at the close of each trading day",
            "at the end of each day of trading, swap the oil in the falafel fryer for new oil",
        ),
        neg="Keep the same oil in the falafel fryer for the whole week",
        wrong="Change the chip fryer's oil at the end of every trading day",
    ),
    dict(
        kind="constraint",
        fact="Send every silver piece to the assay office for hallmarking before it goes on sale",
        para=(
            "Each silver piece is hallmarked at the assay office before being put on sale",
            "every piece of silver goes to the assay office to be hallmarked ahead of being "
            "offered for sale",
        ),
        neg="Put the silver pieces on sale unmarked, and send one for hallmarking only if a buyer "
        "asks",
        wrong="Send every gold piece to the assay office for hallmarking before it goes on sale",
    ),
    dict(
        kind="constraint",
        fact="Scan every registered letter at each sorting frame it passes",
        para=(
            "Each registered letter is scanned at every sorting frame it goes through",
            "at every sorting frame a registered letter passes, scan it",
        ),
        neg="Scan each registered letter once at intake, and let it pass the sorting frames "
        "unscanned after that",
        wrong="Scan every registered parcel at each sorting frame it passes",
    ),
    dict(
        kind="decision",
        fact="dry the hops with wood-pellet burners rather than oil burners, and turn each layer "
        "once on the kiln floor, and press the dried hops into square bales",
        para=(
            "dry the hops with wood-pellet burners rather than oil burners, and turn each layer "
            "once on the kiln floor, and compress the dried hops into square bales",
            "the dried hops are pressed into square bales, each layer is turned once on the kiln "
            "floor, and wood-pellet burners instead of oil burners dry the hops",
        ),
        neg="dry the hops with wood-pellet burners rather than oil burners, and turn each layer "
        "once on the kiln floor, and pack the dried hops loose into jute pockets",
        wrong="dry the malt with wood-pellet burners rather than oil burners, and turn each layer "
        "once on the kiln floor, and press the dried hops into square bales",
        swap="dry the hops with oil burners rather than wood-pellet burners, and turn each layer "
        "once on the kiln floor, and press the dried hops into square bales",
    ),
    dict(
        kind="decision",
        fact="face the Roman mosaic with animal glue instead of synthetic resin, and relay it on "
        "honeycomb aluminium panels",
        para=(
            "face the Roman mosaic with animal glue instead of synthetic resin, and reset it on "
            "honeycomb aluminium panels",
            "the Roman mosaic is relaid on honeycomb aluminium panels, and animal glue rather "
            "than synthetic resin is used to face it",
        ),
        neg="face the Roman mosaic with animal glue instead of synthetic resin, and put it back "
        "down on a fresh bed of cement",
        wrong="face the Byzantine mosaic with animal glue instead of synthetic resin, and relay "
        "it on honeycomb aluminium panels",
        swap="face the Roman mosaic with synthetic resin instead of animal glue, and relay it on "
        "honeycomb aluminium panels",
    ),
    dict(
        kind="decision",
        fact="heat the sauna with a wood-fired stove instead of an electric heater, and pour "
        "birch-leaf water on the stones, and sweep the benches after every session",
        para=(
            "heat the sauna with a wood-fired stove instead of an electric heater, and pour "
            "birch-leaf water on the stones, and brush the benches after every session",
            "the benches are swept after every session, birch-leaf water is poured on the stones, "
            "and a wood-fired stove rather than an electric heater heats the sauna",
        ),
        neg="heat the sauna with a wood-fired stove instead of an electric heater, and pour "
        "birch-leaf water on the stones, and sweep the benches once at the end of each week",
        wrong="heat the sauna with a wood-fired stove instead of an electric heater, and pour "
        "birch-leaf water on the stones, and sweep the changing rooms after every session",
        swap="heat the sauna with an electric heater instead of a wood-fired stove, and pour "
        "birch-leaf water on the stones, and sweep the benches after every session",
    ),
    dict(
        kind="decision",
        fact="launch the gliders by winch rather than by aerotow",
        para=(
            "the gliders are launched by winch instead of by aerotow",
            "use the winch, in place of an aerotow, to get the gliders airborne",
        ),
        neg="the gliders go up behind the tug plane on aerotow, and the winch was retired",
        wrong="launch the two-seaters by winch rather than by aerotow",
        swap="launch the gliders by aerotow rather than by winch",
    ),
    dict(
        kind="decision",
        fact="scent the lavender soap with essential oil instead of synthetic fragrance oil",
        para=(
            "the lavender soap is scented using essential oil rather than synthetic fragrance oil",
            "essential oil, in place of synthetic fragrance oil, gives the lavender soap its scent",
        ),
        neg="the lavender soap gets synthetic fragrance oil, and the essential oil was dropped as "
        "too dear",
        wrong="scent the rose soap with essential oil instead of synthetic fragrance oil",
        swap="scent the lavender soap with synthetic fragrance oil instead of essential oil",
    ),
    dict(
        kind="decision",
        fact="fix the headstone to its base with stainless steel dowels rather than copper pins",
        para=(
            "the headstone is fixed to its base using stainless steel dowels instead of copper "
            "pins",
            "stainless steel dowels, in place of copper pins, hold the headstone on its base",
        ),
        neg="the headstone is pinned to its base with copper, and the stainless steel dowels were "
        "turned down",
        wrong="fix the footstone to its base with stainless steel dowels rather than copper pins",
        swap="fix the headstone to its base with copper pins rather than stainless steel dowels",
    ),
    dict(
        kind="decision",
        fact="fence the ostrich paddocks with 2-metre mesh instead of barbed wire",
        para=(
            "the ostrich paddocks are fenced with 2-metre mesh rather than barbed wire",
            "2-metre mesh, in place of barbed wire, goes round the ostrich paddocks",
        ),
        neg="the ostrich paddocks get barbed wire, and the 2-metre mesh was rejected",
        wrong="fence the emu paddocks with 2-metre mesh instead of barbed wire",
    ),
    dict(
        kind="decision",
        fact="colour the human-hair wigs with henna rather than peroxide dyes",
        para=(
            "the human-hair wigs are coloured with henna instead of peroxide dyes",
            "henna, in place of peroxide dyes, is what colours the human-hair wigs",
        ),
        neg="the human-hair wigs are coloured with peroxide dyes, and the henna was given up",
        wrong="colour the synthetic wigs with henna rather than peroxide dyes",
    ),
    dict(
        kind="decision",
        fact="attach the coral fragments to the reef with marine epoxy instead of cable ties",
        para=(
            "the coral fragments are fixed to the reef using marine epoxy rather than cable ties",
            "marine epoxy, in place of cable ties, holds the coral fragments on the reef",
        ),
        neg="the coral fragments are tied to the reef with cable ties; the marine epoxy won't be "
        "used",
        wrong="attach the sponge fragments to the reef with marine epoxy instead of cable ties",
    ),
    dict(
        kind="next_step",
        fact="recalibrate the letter-sorting machine's address reader tonight, and move the "
        "parcel belt to bay 4, and brief the night shift on the new postcode ranges before "
        "midnight",
        para=(
            "recalibrate the letter-sorting machine's address reader tonight, and shift the "
            "parcel belt to bay 4, and brief the night shift on the new postcode ranges "
            "before midnight",
            "before midnight the night shift is briefed on the new postcode ranges, the parcel "
            "belt is moved to bay 4, and the address reader of the letter-sorting machine "
            "gets recalibrated tonight",
        ),
        neg="recalibrate the letter-sorting machine's address reader tonight, and keep the parcel "
        "belt where it is in bay 2, and brief the night shift on the new postcode ranges before "
        "midnight",
        wrong="recalibrate the letter-sorting machine's address reader tonight, and move the "
        "parcel belt to bay 4, and brief the day shift on the new postcode ranges before midnight",
    ),
    dict(
        kind="next_step",
        fact="rake out the cooled charcoal from kiln 3 on Wednesday, and bag it in 5-kilogram "
        "sacks for the garden centre",
        para=(
            "rake out the cooled charcoal from kiln 3 on Wednesday, and pack it in 5-kilogram "
            "sacks for the garden centre",
            "on Wednesday the cooled charcoal comes out of kiln 3 and is bagged in 5-kilogram "
            "sacks for the garden centre",
        ),
        neg="rake out the cooled charcoal from kiln 3 on Wednesday, and sell it loose by the "
        "trailer load to the barbecue wholesaler",
        wrong="rake out the cooled charcoal from kiln 5 on Wednesday, and bag it in 5-kilogram "
        "sacks for the garden centre",
    ),
    dict(
        kind="next_step",
        fact="renew the food truck's gas safety certificate, and restock the tahini and pickled "
        "turnips, and park the truck at the Saturday market by 7 am, and post the new menu on the "
        "board",
        para=(
            "renew the food truck's gas safety certificate, and replenish the tahini and pickled "
            "turnips, and park the truck at the Saturday market by 7 am, and put up the new "
            "menu on the board",
            "the new menu goes up on the board, the truck is parked at the Saturday market by 7 "
            "am, the tahini and pickled turnips are restocked, and the food truck's gas "
            "safety certificate is renewed",
        ),
        neg="renew the food truck's gas safety certificate, and restock the tahini and pickled "
        "turnips, and give the Saturday market a miss this week, and post the new menu on the "
        "board",
        wrong="renew the food truck's gas safety certificate, and restock the hummus and pickled "
        "turnips, and park the truck at the Saturday market by 7 am, and post the new menu on the "
        "board",
    ),
    dict(
        kind="next_step",
        fact="solder the handle onto the silver teapot before Friday's polishing",
        para=(
            "the handle has to be soldered onto the silver teapot ahead of the polishing on Friday",
            "before Friday's polishing, fix the silver teapot's handle on with solder",
        ),
        neg="polish the silver teapot on Friday while its handle still sits loose in the drawer",
        wrong="solder the spout onto the silver teapot before Friday's polishing",
    ),
    dict(
        kind="next_step",
        fact="repack the reserve parachute in harness 12 before the weekend course",
        para=(
            "harness 12's reserve parachute needs repacking ahead of the weekend course",
            "before the course at the weekend, pack the reserve parachute in harness 12 afresh",
        ),
        neg="send harness 12 out on the weekend course with its reserve parachute packed as it "
        "was last year",
        wrong="repack the reserve parachute in harness 14 before the weekend course",
    ),
    dict(
        kind="next_step",
        fact="replace the cracked pressure vessel on train B by the end of the month",
        para=(
            "the cracked pressure vessel on train B has to be swapped out before the month ends",
            "by the end of this month, put a new pressure vessel on train B in place of the "
            "cracked one",
        ),
        neg="run train B on its cracked pressure vessel until the summer shutdown",
        wrong="replace the cracked pressure vessel on train C by the end of the month",
    ),
    dict(
        kind="next_step",
        fact="buff the finished calf leather on the glazing machine tomorrow morning",
        para=(
            "tomorrow morning, the finished calf leather goes through the glazing machine to be "
            "buffed",
            "the finished calf leather is to be buffed on the glazing machine in the morning "
            "tomorrow",
        ),
        neg="leave the finished calf leather matt and ship it unglazed this afternoon",
        wrong="buff the finished goat leather on the glazing machine tomorrow morning",
    ),
    dict(
        kind="next_step",
        fact="vaccinate the new truffle dog puppy against leptospirosis next week",
        para=(
            "next week the new truffle dog puppy gets its leptospirosis vaccine",
            "have the new puppy for truffle hunting vaccinated against leptospirosis in the "
            "coming week",
        ),
        neg="don't vaccinate the new truffle dog puppy against leptospirosis until it is a year "
        "old",
        wrong="vaccinate the new sheepdog puppy against leptospirosis next week",
    ),
)
FRESH15_BLOCKERS = (
    (
        "File \"tannery/pits/schedule.py\", line 112, in next_turn: KeyError: 'pit_14'",
        "File \"tannery/pits/schedule.py\", line 112, in next_turn: KeyError: 'pit_41'",
    ),
    (
        "error[E0382]: borrow of moved value: `batch` at src/oast/kiln.rs:58:21",
        "error[E0382]: borrow of moved value: `bale` at src/oast/kiln.rs:58:21",
    ),
    (
        "java.lang.IllegalStateException: winch drum not tensioned at "
        "org.glidingclub.launch.WinchLog.record(WinchLog.java:203)",
        "java.lang.IllegalStateException: winch drum not tensioned at "
        "org.glidingclub.launch.WinchLog.record(WinchLog.java:230)",
    ),
    (
        "Fatal error: Index out of range: file SortingFrame/AddressReader.swift, line 47",
        "Fatal error: Index out of range: file SortingFrame/AddressReader.swift, line 74",
    ),
    (
        "NoMethodError: undefined method `assay_mark' for nil:NilClass "
        "(app/models/silver_piece.rb:31)",
        "NoMethodError: undefined method `assay_marks' for nil:NilClass "
        "(app/models/silver_piece.rb:31)",
    ),
)
FRESH15_COMMANDS = (
    ("pytest tannery/pits", "pytest tannery/pit"),
    ("cargo test -p oast-kiln", "cargo test -p oast-kilns"),
    (
        "bundle exec rspec spec/models/silver_piece_spec.rb",
        "bundle exec rspec spec/models/silver_pieces_spec.rb",
    ),
)
FRESH15_SUPERSEDED = (
    dict(
        old="cure the soap on pine racks",
        new="cure the soap on stainless steel racks",
        report="The soap curing racks changed from pine to stainless steel",
    ),
    dict(
        old="winch the gliders up runway 09",
        new="winch the gliders up runway 27",
        report="The winch launches moved from runway 09 to runway 27",
    ),
    dict(
        old="feed the ostrich chicks lucerne pellets",
        new="feed the ostrich chicks a grower crumb",
        report="The ostrich chicks' feed was switched from lucerne pellets to a grower crumb",
    ),
    dict(
        old="truck the charcoal to the garden centre on Tuesdays",
        new="truck the charcoal to the garden centre on Thursdays",
        report="The charcoal delivery to the garden centre moved from Tuesdays to Thursdays",
    ),
    dict(
        old="disinfect the desalination intake with chlorine",
        new="disinfect the desalination intake with ultraviolet lamps",
        report="Disinfection of the desalination intake went from chlorine to ultraviolet lamps",
    ),
)
FRESH15_FILES = (
    ("tannery/pits/schedule.py", "tannery/pit/schedule.py"),
    ("src/oast/kiln.rs", "src/oast/kilns.rs"),
    (
        "src/main/java/org/glidingclub/launch/WinchLog.java",
        "src/main/java/org/glidingclub/launch/WinchLogs.java",
    ),
    ("SortingFrame/AddressReader.swift", "SortingFrame/AdressReader.swift"),
    ("app/models/silver_piece.rb", "app/models/silver_pieces.rb"),
    ("config/sauna/stove.ini", "config/sauna/stove.cfg"),
)
