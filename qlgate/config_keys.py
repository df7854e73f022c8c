"""Every config key the code reads, declared once: its path, JSON type, default,
a line of documentation and an example. This table is the config's model: loading
checks a document against it (``config_schema.validate``), the settings are read
through it with its defaults (``config_values.ConfigView``: a key not declared here
cannot be read), ``qlgate config check``/``show`` use it, and
``docs/configuration.md`` is generated from it (``python -m qlgate.config_docs
--markdown > docs/configuration.md``; a test fails when the committed file is stale).

Standard library only: ``qlgate config`` and the loader import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ANY", "ITEM", "KEYS", "Key", "declared_default", "key_at"]

ANY = "*"  # a path part that stands for any name (a map's entries)
ITEM = "[]"  # a path part that stands for each item of a list


@dataclass(frozen=True)
class Key:
    """One declared key. ``path`` is dotted, with ``*`` for a map's entries and
    ``[]`` for a list's items; ``types`` are JSON kinds (``integer`` accepts a whole
    ``number``). ``open``: an object that also holds keys nobody declared."""

    path: str
    types: tuple[str, ...]
    default: Any
    doc: str
    example: Any = None
    items: str | None = None  # the JSON kind of each item of a list
    open: bool = False
    at_use: bool = False  # checked where it is used (and by ``config check``), not when the config loads
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    @property
    def parts(self) -> tuple[str, ...]:
        return tuple(self.path.split(".")) if self.path else ()


def _k(path: str, types: str, default: Any, doc: str, example: Any = None, **more: Any) -> Key:
    return Key(path, tuple(types.split("|")), default, doc, example, **more)


# fmt: off
KEYS: tuple[Key, ...] = (
    _k("", "object", None, "The whole document; also readable as `config` by tables and scripts.", open=True),
    # ---------------------------------------------------------------- engine (qlgate/config.py Settings)
    _k("maxNestedRequests", "integer", 50, "Cap on `in (…)` expansion, join lookups and fan-out per statement.", 20, minimum=1),
    _k("maxFanOut", "integer", 1000, "Most requests one statement's fan-out may make.", 200, minimum=1),
    _k("maxResponseLength", "integer", 10_000_000, "Largest upstream answer read, in bytes.", 5_000_000, minimum=1),
    _k("maxResponseSize", "integer", None, "Older name of `maxResponseLength` (which wins when both are set).", 5_000_000, minimum=1),
    _k("defaultTimeout", "integer", 10_000, "Timeout of one upstream call, in ms, unless `timeouts` says otherwise.", 15000, minimum=1),
    _k("timeouts", "object", {}, "Timeouts in ms by table name or dotted prefix; the longest prefix wins.", {"ebay": 30000, "ebay.trading": 60000}),
    _k("timeouts.*", "integer", None, "Timeout in ms of the tables under this name.", 30000, minimum=1),
    _k("scriptBudget", "integer", 5_000_000, "Work (values built) one run may do before it is stopped.", 1_000_000, minimum=1),
    _k("paramsFromRequest", "boolean", True, "Incoming query parameters and headers act as parameters of table calls.", False),
    _k("requestIdHeader", "string", "request-id", "Header carrying the request id to upstreams.", "x-request-id"),
    _k("connection", "string", "keep-alive", "Value of the outgoing `connection` header.", "close"),
    _k("udfPaths", "array", [], "Extra directories searched for UDF modules.", ["udfs"], items="string"),
    _k("patchPaths", "array", [], "Extra directories searched for patch modules.", ["patches"], items="string"),
    _k("enableQ", "boolean", True, "Older switch for `gateway.adhoc.enabled` (serve `/q`).", False),
    _k("enableConsole", "boolean", True, "Serve the web console.", False),
    # ---------------------------------------------------------------- outbound proxy (qlgate/http/proxy.py)
    _k("proxy", "string|object|null", None, 'Outbound proxy: a URL for every request, `"env"` for HTTP_PROXY and the like, or an object.', "http://proxy.internal:3128"),
    _k("proxy.http", "string", None, "Proxy URL for plain HTTP requests.", "http://proxy.internal:3128"),
    _k("proxy.https", "string", None, "Proxy URL for HTTPS requests (reached by CONNECT).", "http://proxy.internal:3128"),
    _k("proxy.noProxy", "string|array", None, "Hosts, domains, ports or CIDR ranges sent directly.", "localhost,.internal,10.0.0.0/8", items="string"),
    # ---------------------------------------------------------------- gateway (qlgate/server/policy.py, auth.py, trust.py)
    _k("gateway", "object", {}, "What the HTTP gateway accepts."),
    _k("gateway.maxBodyBytes", "integer", 1_048_576, "Largest request body accepted, in bytes.", 262144, minimum=1),
    _k("gateway.maxScriptLength", "integer", 65536, "Longest ad-hoc script the gateway accepts, in characters; when set, `qlgate run` takes it as its limit too (else 1 MiB).", 16384, minimum=1),
    _k("gateway.requestTimeoutMs", "integer", 60_000, "Total time one request may take, in ms.", 30000, minimum=1),
    _k("gateway.maxConnections", "integer", 1000, "Client connections one gateway process holds at once; more get a 503.", 5000, minimum=1),
    _k("gateway.maxHeadBytes", "integer", 67_108_864, "Bytes of request heads one process reads at once, over all connections; more get a 503.", 16777216, minimum=65536),
    _k("gateway.maxRequestBytes", "integer", 67_108_864, "Bytes of upstream answers one gateway request may read over all its calls; more is a 400 RequestBytesExceeded.", 268435456, minimum=1),
    _k("gateway.jsonp", "boolean", False, "Answer `?callback=fn` on reads (JSONP).", True),
    _k("gateway.adhoc", "object", {}, "Callers' own scripts (`/q`, `POST /jobs`)."),
    _k("gateway.adhoc.enabled", "boolean", True, "Accept callers' scripts at all.", False),
    _k("gateway.adhoc.inlineTables", "boolean", True, "Allow `create table` in callers' scripts.", False),
    _k("gateway.adhoc.udfs", "boolean", False, 'Allow JavaScript UDFs written inline in callers\' scripts (`u = require("javascript: …")`), run in the sandbox.', True),
    _k("gateway.adhoc.allowedHosts", "array|null", None, "Upstreams callers' scripts may reach; null: the hosts the loaded tables call.", ["api.example.com", "*.ebay.com"], items="string"),
    _k("gateway.adhoc.publicConfig", "array", [], "Dotted config keys callers' scripts may read.", ["shop.site"], items="string"),
    _k("gateway.adhoc.credentials", "array", None, "Config `auth` entries whose tokens callers' scripts may use; default: the client-credentials ones.", ["ebay.app"], items="string"),
    _k("gateway.auth", "object", None, "API keys; without this section the gateway is open (loopback only unless `serve --insecure`)."),
    _k("gateway.auth.keys", "array", None, "The API keys and their scopes.", [{"name": "ops", "key": "${OPS_KEY}", "scopes": ["admin"]}], items="object"),
    _k("gateway.auth.keys.[]", "object", None, "One API key."),
    _k("gateway.auth.keys.[].name", "string", None, "The key's name, unique (logs and jobs show it).", "shop-frontend"),
    _k("gateway.auth.keys.[].key", "string", None, "The secret key, at least 16 characters (from the environment).", "${SHOP_FRONTEND_KEY}"),
    _k("gateway.auth.keys.[].scopes", "array", None, "Scopes: query, routes, jobs, admin, console.", ["query", "routes"], items="string"),
    # ---------------------------------------------------------------- traces (qlgate/server/tracing.py)
    _k("traces", "object", {}, "OpenTelemetry traces of the gateway's requests, exported over OTLP; off without `otlpEndpoint`.", {"otlpEndpoint": "http://127.0.0.1:4318/v1/traces"}),
    _k("traces.otlpEndpoint", "string|null", None, "OTLP/HTTP (protobuf) URL spans are posted to; null: traces off (nothing of OpenTelemetry imported).", "http://127.0.0.1:4318/v1/traces"),
    _k("traces.serviceName", "string", "qlgate", "The `service.name` of the spans' resource.", "shop-gateway"),
    _k("traces.sampleRatio", "number", 1.0, "Share of new traces exported (a caller's `traceparent` keeps its own decision).", 0.1, minimum=0, maximum=1),
    _k("traces.headers", "object", {}, "Headers sent with each export (a collector's API key, from the environment).", {"x-api-key": "${OTLP_KEY}"}),
    _k("traces.headers.*", "string", None, "One header's value.", "${OTLP_KEY}"),
    # ---------------------------------------------------------------- cache (qlgate/cache/settings.py)
    _k("cache", "object|boolean", {}, "Cached answers; `false` turns caching off.", {"url": "redis://127.0.0.1:6379/0"}),
    _k("cache.backend", "string", "memory", "Where answers are cached (redis when `url` is set).", "redis", choices=("memory", "redis", "none")),
    _k("cache.impl", "string", None, "Older name of `backend`.", "memory"),
    _k("cache.options", "object", None, "Older form: the other `cache` keys, nested.", {"maxBytes": 1048576}, open=True),
    _k("cache.url", "string", None, "Redis server shared by every process (redis://, rediss:// or unix://); needs the redis extra, `pip install 'qlgate[redis]'`.", "redis://127.0.0.1:6379/0"),
    _k("cache.prefix", "string", "qlgate:cache:", "Prefix of the Redis keys.", "shop:cache:"),
    _k("cache.maxBytes", "integer", 67_108_864, "Memory cache size, in bytes.", 16777216, minimum=0),
    _k("cache.staleWhileRevalidate", "number", 0, "Seconds an expired answer may still be served while it is refreshed.", 30, minimum=0),
    _k("cache.negative", "number", 0, "Seconds a 404 is cached for (0: never).", 60, minimum=0),
    _k("cache.lockMs", "number", 5000, "Longest time one host holds the Redis fetch lock, in ms.", 2000, minimum=0),
    _k("cache.waitMs", "number", 2000, "How long other hosts wait for an answer being fetched, in ms.", 1000, minimum=0),
    # ---------------------------------------------------------------- back-off (qlgate/engine/backoff.py)
    _k("backoff", "object", {}, "Waiting after successive upstream failures of a table."),
    _k("backoff.minDelay", "integer", None, "First wait, in ms (either delay turns back-off on for every statement).", 500, minimum=0),
    _k("backoff.maxDelay", "integer", None, "Longest wait, in ms.", 30000, minimum=0),
    _k("backoff.failures", "integer", 3, "Successive failures before calls wait.", 5, minimum=1),
    _k("backoff.retryAfterMax", "integer", 30_000, "Longest `Retry-After` a call waits for before its one retry, in ms.", 10000, minimum=0),
    # ---------------------------------------------------------------- limits (qlgate/limits/api_types.py)
    _k("limits", "object", {}, "Call limits and rates."),
    _k("limits.types", "object", {}, "Table-name prefixes to the API type their calls count against.", {"ebay.buy.browse": "ebay.browse"}),
    _k("limits.types.*", "string", None, "The API type of the tables under this prefix.", "ebay.browse"),
    # ---------------------------------------------------------------- jobs (qlgate/jobs/cluster.py, factory.py)
    _k("jobs", "object", {}, "The job backend and cluster."),
    _k("jobs.database", "string", ".qlgate/jobs.sqlite", "Where jobs and results are kept: a SQLite file, or a PostgreSQL URL for a cluster (the cluster extra, `pip install 'qlgate[cluster]'`).", "postgresql://jobs@db/qlgate"),
    _k("jobs.archive", "string", None, "Older name of `jobs.database`.", ".qlgate/jobs.sqlite"),
    _k("jobs.maxRunSeconds", "number", 3600, "Longest run of a job, in seconds.", 600, minimum=0),
    _k("jobs.maxResultBytes", "integer", 67_108_864, "Largest stored result of a job, in bytes (at most 1 GiB).", 1048576, minimum=1, maximum=1 << 30),
    _k("jobs.maxQueue", "integer", 100_000, "Most jobs waiting at once.", 1000, minimum=1),
    _k("jobs.slots", "integer", 4, "Jobs one gateway process runs at once (embedded backend).", 8, minimum=1),
    _k("jobs.sessionTimeout", "number", 10, "ZooKeeper session timeout, in seconds.", 20, minimum=0),
    _k("jobs.callTimeout", "number", 10, "Longest upstream call of a run, in seconds (the limiter waits that long past a lost worker).", 30, minimum=0),
    _k("jobs.serverLag", "number", 10, "How long a ZooKeeper server cut off from its leader may go on answering, in seconds.", 4, minimum=0),
    _k("jobs.stopTimeout", "number", 10, "Seconds from SIGTERM to exit.", 30, minimum=0),
    _k("jobs.retryMaxDelay", "number", 1, "Longest back-off between ZooKeeper reconnects, in seconds.", 5, minimum=0),
    # ---------------------------------------------------------------- OAuth2 (qlgate/oauth)
    _k("oauth", "object", {}, "Where OAuth2 tokens are kept."),
    _k("oauth.cacheDir", "string|boolean", None, "Directory of the token cache shared by processes; `false` for none (default: a private directory under XDG_RUNTIME_DIR or the temporary directory).", "/var/cache/qlgate"),
    _k("auth", "object", {}, "OAuth2 credentials by name, used by tables with `using auth 'NAME'`; an entry is checked when a table first uses it.", {"ebay.app": {"type": "oauth2-client-credentials"}}, at_use=True),
    _k("auth.*", "object", None, "One credential.", open=True),
    _k("auth.*.type", "string", None, "The grant.", "oauth2-client-credentials", choices=("oauth2-client-credentials", "oauth2-refresh-token")),
    _k("auth.*.tokenUrl", "string", None, "The token endpoint.", "https://api.ebay.com/identity/v1/oauth2/token"),
    _k("auth.*.clientId", "string", None, "The OAuth client id.", "${EBAY_APP_ID}"),
    _k("auth.*.clientSecret", "string", None, "The OAuth client secret.", "${EBAY_CERT_ID}"),
    _k("auth.*.scopes", "array|string", [], "Scopes asked for (a list, or one space-separated string).", ["https://api.ebay.com/oauth/api_scope"], items="string"),
    _k("auth.*.refreshToken", "string", None, "A user's refresh token (oauth2-refresh-token).", "${EBAY_REFRESH_TOKEN}"),
    _k("auth.*.refreshTokenFile", "string", None, "File holding the refresh token (written by `qlgate auth login`).", "~/.config/qlgate/ebay.user"),
    _k("auth.*.authorizeUrl", "string", None, "The consent page `qlgate auth login` opens.", "https://auth.ebay.com/oauth2/authorize"),
    _k("auth.*.redirectUri", "string", None, "Where the consent page sends the user back.", "http://127.0.0.1:8765/callback"),
    _k("auth.*.ruName", "string", None, "eBay's name for the redirect URL (instead of `redirectUri`).", "${EBAY_RUNAME}"),
    # ---------------------------------------------------------------- eBay (qlgate/ebay/environments.py and the eBay tables)
    _k("ebay", "object", {}, "Which eBay the eBay tables talk to; without this section the emulator is never started.", open=True),
    _k("ebay.environment", "string", "auto", "auto (the emulator unless eBay credentials are set), emulator, sandbox or production. The emulator is the qlgate-ebay-emulator distribution (`pip install -e ./emulator` in a clone).", "${EBAY_ENVIRONMENT:-auto}", choices=("", "auto", "emulator", "sandbox", "production")),
    _k("ebay.emulator", "string", None, "Older switch: always, auto or off.", "auto"),
    _k("tables", "object", {}, "Settings of tables by table-name prefix, read by them as `{config.tables.…}`; checked by `qlgate check` (every token resolves) rather than when the config loads.", {"weather": {"base": "https://api.example.com"}}, open=True, at_use=True),
    _k("tables.ebay", "object", None, "The eBay tables.", open=True),
    _k("tables.ebay.finding", "object", None, "Finding tables.", open=True),
    _k("tables.ebay.finding.gateway", "string", None, "Finding endpoint (filled from `ebay.environment` when empty).", "${EBAY_FINDING_GATEWAY}"),
    _k("tables.ebay.finding.appname", "string", None, "The App ID.", "${EBAY_APP_ID}"),
    _k("tables.ebay.shopping", "object", None, "Shopping tables.", open=True),
    _k("tables.ebay.shopping.gateway", "string", None, "Shopping endpoint (filled from `ebay.environment` when empty).", "${EBAY_SHOPPING_GATEWAY}"),
    _k("tables.ebay.shopping.appid", "string", None, "The App ID.", "${EBAY_APP_ID}"),
    _k("tables.ebay.shopping.version", "string|integer", None, "API version sent.", 765),
    _k("tables.ebay.shopping.siteid", "string|integer", None, "eBay site id.", "0"),
    _k("tables.ebay.trading", "object", None, "Trading tables.", open=True),
    _k("tables.ebay.trading.gateway", "string", None, "Trading endpoint (filled from `ebay.environment` when empty).", "${EBAY_TRADING_GATEWAY}"),
    _k("tables.ebay.trading.siteid", "string|integer", None, "eBay site id.", "0"),
    _k("tables.ebay.trading.version", "string|integer", None, "API compatibility level sent.", "737"),
    _k("tables.ebay.trading.appname", "string", None, "The App ID.", "${EBAY_APP_ID}"),
    _k("tables.ebay.trading.devname", "string", None, "The Dev ID.", "${EBAY_DEV_ID}"),
    _k("tables.ebay.trading.certname", "string", None, "The Cert ID.", "${EBAY_CERT_ID}"),
    _k("tables.ebay.trading.eBayAuthToken", "string", None, "An Auth'n'Auth user token.", "${EBAY_AUTH_TOKEN}"),
    _k("tables.ebay.trading.auth", "string", None, "A config `auth` entry whose OAuth user token Trading calls send instead.", "ebay.user"),
    _k("tables.ebay.rest", "object", None, "eBay REST tables.", open=True),
    _k("tables.ebay.rest.marketplace", "string", None, "Default `X-EBAY-C-MARKETPLACE-ID`.", "${EBAY_MARKETPLACE:-EBAY_US}"),
    _k("tables.ebay.rest.hosts", "object", None, "REST hosts (filled from `ebay.environment` when empty)."),
    _k("tables.ebay.rest.hosts.api", "string", None, "Host of most REST APIs.", "https://api.ebay.com"),
    _k("tables.ebay.rest.hosts.apiz", "string", None, "Host of the apiz APIs.", "https://apiz.ebay.com"),
    _k("tables.ebay.rest.hosts.apix", "string", None, "Host of the apix APIs.", "https://apix.ebay.com"),
    _k("tables.ebay.rest.hosts.apim", "string", None, "Host of the apim APIs.", "https://apim.ebay.com"),
)
# fmt: on

_BY_PATH = {key.path: key for key in KEYS}


def key_at(path: str) -> Key:
    """The key declared at ``path`` (dotted, ``*`` for a map's entries): a path nobody
    declared is the code's mistake, not the deployer's, and fails loudly."""
    try:
        return _BY_PATH[path]
    except KeyError:
        raise LookupError(f"config key {path!r} is not declared in qlgate/config_keys.py") from None


def declared_default(path: str) -> Any:
    """The default of the key at ``path``: what a settings class's field defaults to, so
    that a default is written once, here."""
    return key_at(path).default
