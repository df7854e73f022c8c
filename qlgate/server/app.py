"""The HTTP gateway (spec §14) on aiohttp: ad-hoc ``/q``, every route of
``routes/``, the metadata endpoints and ``/health``. Route scripts are
compiled at start-up; ``/q`` scripts on first use (cached by text).
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

from .. import __version__
from ..errors import QlError, UpstreamTimeout
from ..http.xml import XmlError, xml_to_json
from ..engine.engine import Compiled, Engine, new_request_id
from ..engine.introspect import describe_route, describe_table, route_summary, table_summary
from ..engine.run import RequestInfo
from ..routes import Route, path_exists, select_route
from ..values import MISSING
from . import pages
from .console import add_console
from .jobs_api import add_jobs_api
from .responses import json_response as _json
from .policy import GatewayPolicy

log = logging.getLogger("qlgate.server")

HIDDEN_HEADERS = {"connection", "host", "referer", "content-length", "accept", "accept-charset", "keep-alive",
                  "proxy-authenticate", "proxy-authorization", "te", "trailers", "transfer-encoding", "upgrade"}
RESERVED_QUERY = {"callback", "events", "format", "s", "diagnostics"}
ENGINE = web.AppKey("engine", Engine)
ROUTES = web.AppKey("routes", list)
OPTIONS = web.AppKey("options", dict)
POLICY = web.AppKey("policy", GatewayPolicy)
REQUEST_ID = web.RequestKey("request_id", str)
UPSTREAM_CALLS = web.RequestKey("upstream_calls", int)
access_log = logging.getLogger("qlgate.access")


def error_response(error: QlError, engine: Engine, diagnostics: bool = False) -> web.Response:
    body = {k: v for k, v in error.to_dict().items() if k not in ("error",)}
    body = {"err": engine.config.secrets.mask(error.message), **engine.config.secrets.mask_value(body)}
    if diagnostics and getattr(error, "diagnostics", None) is not None:
        body["diagnostics"] = error.diagnostics.to_dict()
    status = error.status if isinstance(error.status, int) and 400 <= error.status < 600 else 500
    if isinstance(error, UpstreamTimeout):
        status = 504
    return _json(body, status=status)


def _multi(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            existing = out[key]
            out[key] = existing + [value] if isinstance(existing, list) else [existing, value]
        else:
            out[key] = value
    return out


def request_info(request: web.Request, route_params: dict[str, str] | None = None) -> RequestInfo:
    query = {k: v for k, v in _multi(list(request.query.items())).items() if k not in RESERVED_QUERY}
    headers = {k.lower(): v for k, v in request.headers.items() if k.lower() not in HIDDEN_HEADERS}
    connection = {"remoteAddress": request.remote}
    return RequestInfo(query, headers, connection, route_params or {})


async def parse_body(request: web.Request) -> dict[str, Any]:
    """§14.2.3: JSON, XML and form bodies become variables; others stay raw text."""
    if not request.body_exists:
        return {}
    raw = await request.read()
    ctype = (request.content_type or "").lower()
    try:
        if ctype.endswith("json"):
            value = json.loads(raw.decode(request.charset or "utf-8"))
            return value if isinstance(value, dict) else {"body": value}
        if ctype.endswith("xml"):
            return xml_to_json(raw.decode(request.charset or "utf-8"))
        if ctype == "application/x-www-form-urlencoded":
            return _multi(parse_qsl(raw.decode(request.charset or "utf-8"), keep_blank_values=True))
    except (ValueError, XmlError) as e:
        raise QlError(f"request body is not valid {ctype}: {e}", status=400) from None
    return {"body": raw.decode(request.charset or "utf-8", errors="replace")}


def _wants_diagnostics(request: web.Request) -> bool:
    return request.query.get("diagnostics") in ("1", "true") or request.headers.get("x-qlgate-diagnostics") == "1"


async def _execute(request: web.Request, compiled: Compiled, context: dict[str, Any], info: RequestInfo,
                   base_dir: Path | None, *, adhoc: bool = False) -> web.Response:
    engine = request.app[ENGINE]
    policy = request.app[POLICY]
    request_id = request[REQUEST_ID]
    diagnostics = _wants_diagnostics(request)
    check = policy.allowed_hosts.check if adhoc and policy.allowed_hosts is not None else None
    try:
        async with asyncio.timeout(policy.request_timeout_ms / 1000):
            result = await engine.run_compiled(compiled, context=context, request=info, base_dir=base_dir,
                                               request_id=request_id, upstream_check=check)
    except QlError as error:
        return error_response(error, engine, diagnostics)
    except TimeoutError:
        return _json({"err": f"the request took longer than {policy.request_timeout_ms} ms "
                             "(gateway.requestTimeoutMs)"}, status=504)
    request[UPSTREAM_CALLS] = len(result.diagnostics.calls)
    value = result.value
    if diagnostics:
        value = {"result": None if value is MISSING else value, "diagnostics": result.diagnostics.to_dict()}
    headers = {"request-id": request_id, **result.headers}
    return _json(value, headers=headers)


async def handle_q(request: web.Request) -> web.Response:
    engine = request.app[ENGINE]
    policy = request.app[POLICY]
    script = request.query.get("s")
    if script is None and request.method != "GET" and request.body_exists:
        script = (await request.read()).decode(request.charset or "utf-8", errors="replace")
    if not script:
        return _json({"err": "Missing query"}, status=400)
    if len(script) > policy.max_script_length:
        return _json({"err": f"script is {len(script)} characters; the limit is {policy.max_script_length} "
                             "(gateway.maxScriptLength)"}, status=400)
    try:
        compiled = engine.compile(script)
    except QlError as error:
        return error_response(error, engine)
    if compiled.inline and not policy.inline_tables:
        return _json({"err": "create table is disabled in ad-hoc scripts (gateway.adhoc.inlineTables)"}, status=400)
    return await _execute(request, compiled, {}, request_info(request), None, adhoc=True)


async def handle_route(request: web.Request) -> web.Response:
    engine = request.app[ENGINE]
    routes: list[Route] = request.app[ROUTES]
    path = request.path
    query = _multi(list(request.query.items()))
    builtin = request.app[OPTIONS]["builtin"].get(path)
    if builtin is not None:
        return _json({"err": f"{request.method} is not allowed on {path}; use {builtin}"}, status=405,
                     headers={"Allow": builtin})
    picked = select_route(routes, request.method, path, query)
    if picked is None:
        if path_exists(routes, path):
            return _json({"err": "No matching route"}, status=400)
        return _json({"error": f"Cannot {request.method} {path}"}, status=404)
    route, bound = picked
    try:
        context: dict[str, Any] = dict(await parse_body(request))
    except QlError as error:
        return error_response(error, engine)
    context.update(route.defaults)
    context.update(bound)
    for key, (var, _) in route.query.items():
        if key in query:
            context[var] = query[key]
        elif var not in context:
            context[var] = None
    compiled = request.app[OPTIONS]["compiled"][id(route)]
    return await _execute(request, compiled, context, request_info(request, bound), Path(route.file).parent)


async def handle_tables(request: web.Request) -> web.Response:
    return _json([table_summary(t) for t in request.app[ENGINE].tables.tables()])


async def handle_table(request: web.Request) -> web.Response:
    engine = request.app[ENGINE]
    name = request.query.get("name") or request.match_info.get("name")
    if not name:
        return _json({"err": "Missing table name"}, status=400)
    try:
        table = engine.tables.get(name)
    except QlError as error:
        return error_response(error, engine)
    return _json(describe_table(table, engine.routes, engine.config.secrets))


async def handle_routes(request: web.Request) -> web.Response:
    routes = sorted(request.app[ROUTES], key=lambda r: r.pattern.lower())
    return _json([route_summary(r) for r in routes])


async def handle_route_info(request: web.Request) -> web.Response:
    path, method = request.query.get("path"), request.query.get("method")
    if not path or not method:
        return _json({"err": "Missing path or method"}, status=400)
    routes = request.app[ROUTES]
    for route in routes:
        if route.pattern == path and route.method == method.lower():
            return _json(describe_route(route, routes))
    return _json({"err": f"No such route {method} {path}"}, status=404)


async def handle_health(request: web.Request) -> web.Response:
    engine = request.app[ENGINE]
    return _json({"status": "ok", "tables": len(engine.tables), "routes": len(request.app[ROUTES]),
                  "pid": os.getpid()})


@web.middleware
async def errors_and_access_log(request: web.Request, handler: Any) -> web.StreamResponse:
    """One JSON error shape for everything (413, 405, bugs), a request id on every
    response, and one structured access-log line per request."""
    request[REQUEST_ID] = request.headers.get("request-id") or new_request_id()
    started = time.perf_counter()
    try:
        response = await handler(request)
    except web.HTTPException as http_error:
        if http_error.status < 400:
            raise
        message = {413: f"request body is over the {request.app[POLICY].max_body_bytes}-byte limit "
                        "(gateway.maxBodyBytes)"}.get(http_error.status, http_error.reason)
        response = _json({"err": message}, status=http_error.status)
    except Exception as error:  # a bug: logged, answered as JSON, the server keeps serving
        log.exception("internal error on %s %s", request.method, request.path)
        response = _json({"err": f"internal error: {type(error).__name__}"}, status=500)
    response.headers.setdefault("request-id", request[REQUEST_ID])
    if isinstance(response, web.Response):
        response = _as_html_page(request, response)
        _jsonp(request, response)
        _compress(request, response)
    access_log.info(json.dumps({"method": request.method, "path": request.path, "status": response.status,
                                "ms": round((time.perf_counter() - started) * 1000, 2),
                                "request_id": request[REQUEST_ID], "remote": request.remote,
                                "upstream_calls": request.get(UPSTREAM_CALLS, 0)}))
    return response


def _as_html_page(request: web.Request, response: web.Response) -> web.Response:
    """Describe endpoints answer HTML when a browser asks (Accept: text/html)."""
    if (response.status != 200 or response.content_type != "application/json"
            or not request.path.startswith(pages.META_PREFIXES)
            or not pages.wants_html(request.headers.get("Accept", ""), request.query)):
        return response
    title = request.query.get("name") or request.query.get("path") or request.path
    page = web.Response(text=pages.render(f"qlgate {title}", json.loads(response.text)), content_type="text/html")
    for name in ("request-id", "Server", "X-Powered-By"):
        if name in response.headers:
            page.headers[name] = response.headers[name]
    return page


_CALLBACK = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\Z")


def _jsonp(request: web.Request, response: web.Response) -> None:
    """§14.4: ``?callback=fn`` wraps the JSON (errors too) as ``fn(<json>)``."""
    callback = request.query.get("callback")
    if callback and _CALLBACK.match(callback) and response.content_type == "application/json" and response.body:
        response.body = callback.encode() + b"(" + bytes(response.body) + b")"
        response.content_type = "application/javascript"


def _compress(request: web.Request, response: web.Response) -> None:
    """§14.4: gzip or deflate by Accept-Encoding (q values honoured, ``*`` = gzip)."""
    response.headers["Vary"] = "Accept-Encoding"
    body = response.body
    if not body or len(body) < 1024:
        return
    weights: dict[str, float] = {}
    for item in request.headers.get("Accept-Encoding", "").split(","):
        name, _, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if name:
            weights[name.strip().lower()] = q
    if weights.get("*", 0) > 0:
        weights.setdefault("gzip", weights["*"])
    choices = sorted(((q, name) for name, q in weights.items() if name in ("gzip", "deflate") and q > 0),
                     key=lambda c: (-c[0], c[1] != "gzip"))
    if choices:
        response.enable_compression(web.ContentCoding.gzip if choices[0][1] == "gzip" else web.ContentCoding.deflate)


async def handle_route_page(request: web.Request) -> web.Response:
    """``/routes/<method>/<path>``: the describe page of one route."""
    method, path = request.match_info["method"].lower(), "/" + request.match_info["path"]
    routes = request.app[ROUTES]
    for route in routes:
        if route.path == path and route.method == method:
            return _json(describe_route(route, routes))
    return _json({"err": f"No such route {method} {path}"}, status=404)


def build_app(engine: Engine, *, enable_q: bool = True, enable_console: bool = True,
              jobs: Any = None) -> web.Application:
    """The gateway; with ``jobs`` (a job backend) also ``/jobs`` and ``/limits``."""
    policy = GatewayPolicy.from_config(engine.config.data, engine.tables.tables(), disable_q=not enable_q)
    app = web.Application(client_max_size=policy.max_body_bytes, middlewares=[errors_and_access_log])
    app[POLICY] = policy
    app[ENGINE] = engine
    app[ROUTES] = engine.routes
    compiled = {}
    for route in engine.routes:
        try:
            compiled[id(route)] = engine.compile(route.source, base_dir=Path(route.file).parent, origin=route.file)
        except QlError as error:
            log.error("%s: %s", route.file, error)
    app[ROUTES] = [r for r in engine.routes if id(r) in compiled]
    app[OPTIONS] = {"compiled": compiled,
                    "builtin": {p: "GET" for p in ("/tables", "/table", "/routes", "/api", "/route", "/health")}}
    if policy.adhoc_enabled:
        app.router.add_route("*", "/q", handle_q)
    app.router.add_get("/tables", handle_tables)
    app.router.add_get("/table", handle_table)
    app.router.add_get("/tables/{name}", handle_table)
    app.router.add_get("/routes", handle_routes)
    app.router.add_get("/api", handle_routes)
    app.router.add_get("/route", handle_route_info)
    app.router.add_get("/routes/{method}/{path:.*}", handle_route_page)
    app.router.add_get("/health", handle_health)
    if jobs is not None:
        add_jobs_api(app, jobs, engine)
        for path in ("/jobs", "/limits", "/rates"):
            app[OPTIONS]["builtin"][path] = "GET, POST" if path == "/jobs" else "GET"
    if enable_console and engine.config.data.get("enableConsole", True) is not False:
        add_console(app, adhoc_enabled=policy.adhoc_enabled)
    app.router.add_route("*", "/{tail:.*}", handle_route)

    async def close_engine(_: web.Application) -> None:
        await engine.close()
    app.on_cleanup.append(close_engine)
    return app


def settle_heap() -> None:
    """Move what start-up built (tables, compiled routes, the grammar) out of the
    collector's sight and collect young objects less often: a full collection that
    walks every table definition would otherwise land in some request's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 20, 20)


def _run_worker(args: Any, config: Any, reuse_port: bool, index: int = 0) -> None:
    """One gateway process: engine, app and the HTTP server; SIGTERM drains in-flight requests."""
    from ..cli import _default_dir
    from ..loop import install
    from ..sandbox.auto import start_if_wanted

    async def make_app() -> web.Application:
        effective, sandbox = await start_if_wanted(config)
        if sandbox is not None:
            log.info("no eBay credentials configured: eBay tables use the built-in emulator at %s", sandbox.base)
        engine = Engine(tables=_default_dir(args.tables, "tables"), routes=_default_dir(args.routes, "routes"),
                        config=effective)
        for problem in engine.problems:
            log.warning("%s", problem)
        jobs, stop_jobs = open_job_backend(args, engine, runs_jobs=index == 0)
        app = build_app(engine, enable_q=not args.disable_q, enable_console=not args.disable_console, jobs=jobs)
        app.on_cleanup.append(stop_jobs)
        if sandbox is not None:
            async def stop_sandbox(_: web.Application) -> None:
                await sandbox.stop()
            app.on_cleanup.append(stop_sandbox)
        settle_heap()
        return app

    install()
    web.run_app(make_app(), host=args.host, port=args.port, print=lambda *a: None, access_log=None,
                reuse_port=reuse_port, shutdown_timeout=30)


def open_job_backend(args: Any, engine: Engine, *, runs_jobs: bool) -> tuple[Any, Any]:
    """``--zookeeper``: the cluster's backend (workers run the jobs). Otherwise the
    embedded one, in SQLite (config ``jobs.database``); of several gateway
    processes only the first runs jobs, the others take submissions."""
    settings = engine.config.data.get("jobs") or {}
    if getattr(args, "zookeeper", None):
        from ..jobs.zk.session import zk_client
        from ..jobs.zk.client import ZkJobs
        client = zk_client(args.zookeeper, timeout=float(settings.get("sessionTimeout", 10)))
        client.start(30)
        from ..jobs.archive import Archive
        jobs: Any = ZkJobs(client, max_queue=int(settings.get("maxQueue", 100_000)),
                           archive=Archive(settings.get("archive", ".qlgate/archive.sqlite")))

        async def stop_zk(_: web.Application) -> None:
            await asyncio.to_thread(jobs.close)
            await asyncio.to_thread(client.stop)
            client.close()
        return jobs, stop_zk
    from ..jobs.local import LocalJobs
    from ..jobs.runner import EngineRunner
    from ..jobs.rates import CallGate
    database = settings.get("database") or os.environ.get("QLGATE_JOBS_DATABASE") or ".qlgate/jobs.sqlite"
    local = LocalJobs(database, slots=int(settings.get("slots", 4)), max_queue=int(settings.get("maxQueue", 100_000)))
    local.runner = EngineRunner(engine, CallGate(local.tokens))
    if runs_jobs:
        local.start(asyncio.get_running_loop())

    async def stop_local(_: web.Application) -> None:
        await local.stop()
        local.close()
    return local, stop_local


def serve(args: Any) -> int:
    """``qlgate serve``; with ``--workers N`` N processes share the port (SO_REUSEPORT)."""
    import multiprocessing
    import signal

    from ..cli import _default_config
    from ..config import Config
    from ..sandbox.auto import wants_emulator

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    config = Config.load(_default_config(args.config))
    workers = max(1, int(getattr(args, "workers", 1) or 1))
    log.info("qlgate %s serving on http://%s:%s with %d worker(s)", __version__, args.host, args.port, workers)
    if workers == 1:
        _run_worker(args, config, reuse_port=False)
        return 0
    emulator = None
    if wants_emulator(config):
        # one emulator for every worker, so they all see the same marketplace
        from ..sandbox.app import emulator_config
        from ..sandbox.auto import merge_config
        from ..cli import _free_port
        port = _free_port()
        config = Config.from_dict(merge_config(config.data, emulator_config(f"http://127.0.0.1:{port}")), env={})
        emulator = multiprocessing.get_context("fork").Process(
            target=_run_emulator, args=(port,), name="qlgate-emulator", daemon=True)
        emulator.start()
    context = multiprocessing.get_context("fork")
    procs = [context.Process(target=_run_worker, args=(args, config, True, i), name=f"qlgate-worker-{i}")
             for i in range(workers)]
    for proc in procs:
        proc.start()

    def forward(signum: int, _frame: Any) -> None:
        for proc in procs:
            if proc.is_alive():
                os.kill(proc.pid, signal.SIGTERM)
    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    for proc in procs:
        proc.join()
    if emulator is not None:
        emulator.terminate()
        emulator.join(5)
    return 0


def _run_emulator(port: int) -> None:
    from ..loop import run
    from ..sandbox.app import RunningSandbox

    async def main() -> None:
        running = await RunningSandbox().start(port=port)
        try:
            await asyncio.Event().wait()
        finally:
            await running.stop()
    run(main())
