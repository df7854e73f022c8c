"""What ``qlgate serve`` says on stderr once it listens: where it serves, what
it loaded, which upstreams its tables call — the built-in eBay emulator or
eBay's own sandbox or production, and any other host — who may call it, and
where the access log goes.

An operator reads it to know they started what they meant to: a gateway set up
for the sandbox is not taken for production, an open one is not taken for one
behind API keys. It is printed once per ``serve`` (by whichever gateway process
listens first when ``--workers N`` runs several), as the port starts answering, so
it never announces a gateway that then fails to start, and a client that got an
answer can read it. Plain lines, not log records: the
banner is read by people; the access log that follows is for machines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .._version import __version__
from ..ebay.environments import EbayChoice
from ..errors import QlError
from ..trust import fixed_origin
from ..workspace import Workspace
from .gateway import Gateway

MOST_HOSTS = 6  # upstream hosts named before "and N more"


@dataclass(frozen=True)
class Facts:
    """What the banner says, gathered from a started gateway (``gather``)."""

    url: str
    processes: int
    tables: int
    routes: int
    problems: int  # files that did not load or routes that did not compile (warned above)
    ebay: str | None  # which eBay the eBay tables call, in words; None: no eBay config
    hosts: tuple[str, ...]  # the other upstreams the tables call (host:port)
    keys: tuple[str, ...]  # API key names; () is an open gateway
    insecure: bool
    console: bool
    access_log: bool


def lines(facts: Facts) -> list[str]:
    """The banner, one line per fact."""
    plural = "process" if facts.processes == 1 else "processes"
    loaded = f"{facts.tables} table{'s' * (facts.tables != 1)}, {facts.routes} route{'s' * (facts.routes != 1)}"
    if facts.problems:
        loaded += f" ({facts.problems} did not load: see the warnings above)"
    out = [f"qlgate {__version__} serving {facts.url} ({facts.processes} {plural}): {loaded}"]
    if facts.ebay is not None:
        out.append(f"  upstreams:  {facts.ebay}")
    if facts.hosts:
        shown = ", ".join(facts.hosts[:MOST_HOSTS])
        more = len(facts.hosts) - MOST_HOSTS
        also = "also " if facts.ebay is not None else ""
        out.append(f"  upstreams:  {also}{shown}" + (f" and {more} more" if more > 0 else ""))
    elif facts.ebay is None:
        out.append("  upstreams:  none" + (" written in the tables' URIs" if facts.tables else " (no tables loaded)"))
    if facts.keys:
        out.append(f"  callers:    API keys required (gateway.auth): {', '.join(facts.keys)}")
    elif facts.insecure:
        out.append(
            "  callers:    OPEN and --insecure: no gateway.auth, and every client that reaches "
            f"{facts.url} may run scripts, submit jobs and change limits"
        )
    else:
        out.append("  callers:    open gateway (no gateway.auth): it answers loopback clients only, without keys")
    out.append(f"  console:    {facts.url}/console" if facts.console else "  console:    off")
    out.append(
        "  access log: one JSON line per request on stderr (--no-access-log turns it off)"
        if facts.access_log
        else "  access log: off (--no-access-log)"
    )
    return out


def gather(args: Any, gateway: Gateway, workspace: Workspace) -> Facts:
    """The facts of a gateway process that ``open_gateway`` set up from ``args``."""
    engine = workspace.engine
    data = engine.config.data
    gatekeeper = gateway.gatekeeper
    emulator = getattr(workspace.emulator, "base", None)
    ebay = _ebay(data, emulator, getattr(args, "ebay_choice", None))
    skip = {fixed_origin(emulator)} if emulator else set()
    if ebay is not None:
        skip |= {fixed_origin(str(url)) for url in _ebay_endpoints(data)}
    hosts = tuple(h for h in upstream_origins(engine.tables.tables(), data) if h not in skip)
    workers = getattr(args, "workers", 1)
    return Facts(
        url=url_of(args.host, args.port),
        processes=workers if isinstance(workers, int) else 1,
        tables=len(engine.tables),
        routes=len(gateway.routes),
        problems=len(workspace.problems) + len(engine.routes) - len(gateway.routes),
        ebay=ebay,
        hosts=hosts,
        keys=tuple(key.name for key in gatekeeper.keys),
        insecure=gatekeeper.insecure,
        console=gateway.console,
        access_log=gateway.access_log is not None,
    )


def url_of(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _ebay(data: dict[str, Any], emulator: str | None, choice: EbayChoice | None = None) -> str | None:
    """Which eBay the eBay tables talk to (``ebay.environment``), and why, in words:
    exporting one eBay variable switches ``auto`` to production, which must not go
    unsaid. ``choice``: what ``serve`` chose from the config as loaded (the workers'
    config says ``emulator`` once the shared emulator is set up, not why)."""
    from ..ebay.environments import resolved_environment

    why = f": {choice.why}" if choice is not None else ""
    if emulator is not None:
        return f"eBay tables use the built-in emulator at {emulator}" + (
            why or " (no eBay credentials configured; EBAY_ENVIRONMENT=sandbox or production for eBay's own)"
        )
    if "ebay" not in data:
        return None
    try:
        environment = resolved_environment(data)
    except QlError:
        return None
    where = _rest_hosts(data).get("api", "REST hosts not set")
    if environment == "emulator":  # serve --workers N: one emulator for every process
        return f"eBay tables use the built-in emulator at {where} (shared by the gateway processes){why}"
    return f"eBay tables talk to eBay's {environment} ({where}){why}"


def _rest_hosts(data: dict[str, Any]) -> dict[str, Any]:
    hosts = _lookup(data, "tables.ebay.rest.hosts")
    return hosts if isinstance(hosts, dict) else {}


def _ebay_endpoints(data: dict[str, Any]) -> Iterable[Any]:
    """The eBay URLs of the config (REST hosts, legacy gateways): named by the eBay line."""
    yield from _rest_hosts(data).values()
    for service in ("finding", "shopping", "trading"):
        gateway = _lookup(data, f"tables.ebay.{service}.gateway")
        if isinstance(gateway, str):
            yield gateway


def upstream_origins(tables: Iterable[Any], data: dict[str, Any]) -> list[str]:
    """The ``host:port`` of every table's URI, sorted; a URI that starts with a config
    token (``{config.shop.base}/search``) is read with the config's value."""
    origins = set()
    for table in tables:
        for mapping in table.mappings.values():
            uri = mapping.uri.raw
            if uri.startswith("{config.") and "}" in uri:
                token, rest = uri[len("{config.") :].split("}", 1)
                value = _lookup(data, token)
                if not isinstance(value, str):
                    continue
                uri = value + rest
            origin = fixed_origin(uri)
            if origin is not None:
                origins.add(origin)
    return sorted(origins)


def _lookup(data: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data
