"""One statement against one table mapping (spec §10), as the executor runs it:
the tables side says which requests to make (``tables/request.py``) and what
each answer holds (``tables/response.py``); this sends them through the run,
at most ``maxNestedRequests`` at once, projects each answer as it arrives and
merges the answers of a fan-out. An upstream's 429 that stands (not retried,
or refused again after its ``Retry-After``) ends here as ``UpstreamThrottled``.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from functools import partial
from itertools import chain
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..cache.keys import IDEMPOTENT, PROCESS_KEY, StatementKeys, caller_credentials, credential_stand_in, hook_key
from ..cache.responses import CachePlan
from ..errors import (
    FanOutLimit,
    QlError,
    RequestBytesExceeded,
    ScriptBudgetExceeded,
    UpstreamError,
    UpstreamThrottled,
)
from ..oauth.rejection import TokenRejected, token_rejected
from ..tables.call import CallHooks, mapping_for
from ..tables.model import Table
from ..tables.params import ParamView
from ..tables.request import DEFAULT_ACCEPT, Outgoing, RequestBuilder, call_params, param_view
from ..tables.response import read_answer
from ..values import MISSING
from . import relational
from .backoff import Delays, retry_after_seconds
from .context import RunContext
from .window import SendWindow

if TYPE_CHECKING:
    from ..http.client import HttpRequest, HttpResponse

__all__ = ["DEFAULT_ACCEPT", "TableCall"]  # DEFAULT_ACCEPT: re-exported for bench/engine_bench.py

_NO_TOKENS: Mapping[str, str] = MappingProxyType({})  # the credential tokens of a read without ``using auth``
_NO_DELAYS: dict[str, Delays] = {}  # a statement without minDelay/maxDelay (never written to)


def _may_want_tokens(mapping: Any) -> bool:
    """Could a call of ``mapping`` ask for an OAuth2 token: ``using auth``, an ``auth
    using`` module or a patch (``ctx.access_token``)? Most cannot, and get no token source."""
    return mapping.credential is not None or mapping.patch is not None or mapping.auth is not None


# failures that end the whole statement, whatever the other requests of a fan-out did
RUN_BOUNDS = (RequestBytesExceeded, ScriptBudgetExceeded)


class TableCall:
    def __init__(
        self,
        run: RunContext,
        table: Table,
        kind: str,
        statement: Any,
        params: dict[str, Any],
        *,
        limit: int | None = None,
        offset: int | None = None,
        opaque: Any = MISSING,
        project: Callable[[Any], Any] | None = None,
        timeout_ms: int | None = None,
    ):
        mapping = mapping_for(table, kind)
        self.run, self.table, self.mapping, self.kind = run, table, mapping, kind
        self.params = call_params(mapping, params, limit=limit, offset=offset)
        self.project = project
        settings = run.settings
        self.config = table.config if table.config is not None else run.config.data
        self.hooks = CallHooks(
            table,
            mapping,
            statement,
            limit=limit,
            offset=offset,
            config=self.config,
            variables=run.readonly_vars(),
            request=run.request,
            warn=run.warn,
            # not a bound method of this call: the hooks would hold the call that holds them,
            # a reference cycle per call that only the cycle collector frees (a tenth of a
            # served request's CPU under load); none where nothing could ask for a token
            tokens=partial(_access_token, run, table.name, statement) if _may_want_tokens(mapping) else None,
        )
        self.builder = RequestBuilder(
            self.hooks,
            kind=kind,
            params=self.params,
            opaque=opaque,
            timeout_ms=timeout_ms or settings.timeout_for(table.name),
            outgoing=Outgoing(settings.connection, settings.request_id_header, run.request_id),
        )
        secrets = run.secrets
        # a caller's script must not read a secret an upstream echoes back (tables/response.py)
        self.mask_echoes = bool(run.trust.is_caller and secrets.values and mapping.may_echo_secret(secrets))
        # an OAuth2 access token is never the script's to read, whoever wrote the script
        self.mask_echoes = self.mask_echoes or mapping.credential is not None
        self._occurrences: dict[str | tuple[str, bytes], int] = {}
        self._window: SendWindow | None = None  # bounds requests in flight, not local work
        tuning = getattr(statement, "tuning", None)
        # the statement's minDelay/maxDelay for its table's back-off, passed only when it gives them
        self._delays: dict[str, Delays] = _NO_DELAYS
        if tuning is not None:
            delays = Delays(getattr(tuning, "min_delay", None), getattr(tuning, "max_delay", None))
            if delays.given:
                self._delays = {"delays": delays}
        # the cache's part, the same for every call of the statement (``_cache_plan``)
        self._keys = StatementKeys(request_id_header=settings.request_id_header, request_id=run.request_id)
        self._literal_headers: list[str] | None = None  # headers the table writes literally
        self._expires_s = self._expires()
        self._keyed_by_hook = self._expires_s is not None and self.hooks.has("compute_key")

    def _view(self) -> ParamView:
        run = self.run
        from_request = run.settings.params_from_request and run.request is not None
        return param_view(
            self.mapping, self.params, run.vars, request=run.request if from_request else None, config=self.config
        )

    async def execute(self) -> Any:
        view = self._view()
        await self.builder.validate(view)
        requests, block = await self.builder.uris(view)
        if not requests:
            return {}
        settings = self.run.settings
        if len(requests) > settings.max_fan_out:
            raise FanOutLimit(
                f"statement fans out into {len(requests)} requests; the limit is "
                f"{settings.max_fan_out} (config maxFanOut)"
            )
        each = self.builder.request_views(requests, view)
        if len(each) == 1:
            return await self._one(*each[0])
        self._window = SendWindow(settings.max_nested_requests)
        outcomes = await asyncio.gather(*(self._one(uri, forked) for uri, forked in each), return_exceptions=True)
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        for failure in failures:
            # a bug, or a bound of the whole run (its answer bytes, its work): never a partial result
            if not isinstance(failure, (QlError, asyncio.CancelledError)) or isinstance(failure, RUN_BOUNDS):
                raise failure
        if failures and len(failures) == len(outcomes):
            raise failures[0]
        if failures:
            self.run.warn(
                f"{len(failures)} of {len(outcomes)} requests of {self.table.name} failed; first: {failures[0]}"
            )
        results = [o for o in outcomes if not isinstance(o, BaseException)]
        return relational.merge_results(results, block)

    async def _one(self, uri_text: str, view: ParamView) -> Any:
        window = self._window
        if window is not None and window.full:
            # no slot for it yet: the requests that have one go out before it is built
            await asyncio.sleep(0)
        request = await self.builder.build(uri_text, view)
        response = await self._send(request, view)
        hooks = self.hooks
        renewed = False
        if response.status == 401 and hooks.credentials_used and token_rejected(response):
            # the access token was refused (expired early, revoked): renew it once for all
            # the calls refused with it, and try again once with the new one
            await self._renew(request)
            request, response = await self._again(uri_text, view)
            renewed = True
        try:
            result = await self._read(response, view)
        except TokenRejected:
            # a patch_status saying the same of a 2xx (eBay Trading's Ack Failure 931 for its
            # IAF token): the same once-only renewal, if the request carried a token to renew
            if renewed or not hooks.credentials_used or not await self._renew(request):
                raise
            request, response = await self._again(uri_text, view)
            result = await self._read(response, view)
        if self.project is not None:
            result = self.project(result)
        self.run.note_size(result, len(response.body))  # a tree no bigger than its answer
        return result

    async def _again(self, uri_text: str, view: ParamView) -> tuple[HttpRequest, HttpResponse]:
        request = await self.builder.build(uri_text, view)
        return request, await self._send(request, view)

    async def _read(self, response: HttpResponse, view: ParamView) -> Any:
        hooks = self.hooks
        try:
            run = self.run
            return await read_answer(
                response,
                view,
                hooks,
                run.secrets,
                mask_echoes=self.mask_echoes or bool(hooks.credentials_used),
                share=run.shares_answers,
            )
        except UpstreamError as e:
            if e.details.get("upstream_status") != 429 or isinstance(e, UpstreamThrottled):
                raise
            after = retry_after_seconds(response.headers.get("retry-after"))
            retry_after = max(1, math.ceil(after)) if after is not None else 1
            raise UpstreamThrottled(
                f"{e.message} (Too Many Requests); retry after {retry_after} s",
                table=self.table.name,
                retry_after=retry_after,
                uri=e.details.get("uri"),
                headers=e.details.get("headers"),
                body=e.details.get("body"),
            ) from None

    async def _send(self, request: HttpRequest, view: ParamView) -> HttpResponse:
        occurrence = self._occurrence(request)
        coalesce = self.kind == "select"
        plan: CachePlan | None = None
        if coalesce and request.method.upper() in IDEMPOTENT:
            if self._keyed_by_hook:
                plan = await self._hook_plan(request, view, occurrence)
            else:
                plan = self._cache_plan(request, occurrence)
        send, window, table = self.run.send, self._window, self.table.name
        delays = self._delays
        if window is None:
            return await send(request, coalesce=coalesce, table=table, occurrence=occurrence, plan=plan, **delays)
        if not window.enter_now():
            await window.enter()
        try:
            response = await send(request, coalesce=coalesce, table=table, occurrence=occurrence, plan=plan, **delays)
        finally:
            window.release()
        if window.behind:
            await window.sends_first()
        return response

    def _expires(self) -> int | None:
        """Seconds a select's answer may be kept (spec §10.9): the statement's own
        ``expires`` (0: not this time), else the table's."""
        own = getattr(self.hooks.statement, "expires", None)
        seconds = own if own is not None else self.mapping.expires
        return seconds or None

    def _credential_tokens(self) -> Mapping[str, str]:
        """Each ``using auth`` credential's stand-in → its current token, for the key."""
        used, run = self.hooks.credentials_used, self.run
        return {self._stand_in(name): run.credentials.current(name) or "" for name in used} if used else _NO_TOKENS

    async def _hook_plan(self, request: HttpRequest, view: ParamView, occurrence: int) -> CachePlan:
        """The plan of a read whose table's ``compute_key`` hook chooses its key."""
        run, table = self.run, self.table
        rid_header = run.settings.request_id_header
        key = self._keys.key(request, self._credential_tokens())
        chosen = await self.hooks.call(
            "compute_key",
            view,
            uri=request.url,
            method=request.method,
            headers=dict(request.headers),
            body=request.body.decode("utf-8", "replace") if request.body is not None else None,
            request_id_header=rid_header,
        )
        mask = run.secrets.mask
        if chosen is None:  # the hook says: not this one
            return CachePlan(key, None, occurrence=occurrence, mask=mask)
        # the table chose its key, and with it what separates callers: it may be stored
        chosen_key = hook_key(
            chosen, table=table.name, method=request.method, url=request.url, by_caller=table.by_caller
        )
        return CachePlan(
            chosen_key, self._expires_s, occurrence=occurrence, mask=mask, keep=self.mapping.expires or None
        )

    def _cache_plan(self, request: HttpRequest, occurrence: int) -> CachePlan:
        """What the engine's cache may do for a read: its key (what is sent, hashed; a
        ``using auth`` token as its credential's unforgeable stand-in), how long its
        answer keeps, and whether it may be stored. What is the same for every call of
        the statement (the headers' part of the key, the literal headers) is worked out
        once (``StatementKeys``)."""
        run = self.run
        tokens = self._credential_tokens()
        key: str | tuple
        if self._expires_s is None:  # nothing is stored: the key names the call for single flight only
            key, may_carry = self._keys.flight_keyed(request, tokens)
        else:
            key, may_carry = self._keys.keyed(request, tokens)
        storable = True
        if may_carry:
            # a header written literally is the deployer's, in a deployer's table only: a
            # caller's inline table writes what it likes
            literal = self._literal_headers
            if literal is None:  # once per statement, not per call
                literal = self._literal_headers = (
                    []
                    if self.table.by_caller
                    else [n.raw for n, v in self.mapping.headers if not n.tokens and not v.tokens]
                )
            deployer = chain(run.secrets.values, tokens.values())  # read only when a name looks like a credential
            storable = not caller_credentials(request, deployer_values=deployer, literal_headers=literal)
        return CachePlan(
            key,
            self._expires_s,
            storable=storable,
            occurrence=occurrence,
            mask=run.secrets.mask,
            keep=self.mapping.expires or None,
        )

    def _stand_in(self, name: str) -> str:
        """The credential's stand-in in a cache key (``keys.credential_stand_in``)."""
        entry_of = getattr(self.run.credentials, "entry", None)
        try:
            entry = entry_of(name) if entry_of is not None else None
        except QlError:
            entry = None
        if entry is None or not entry.client_secret:
            fields = vars(entry) if entry is not None and hasattr(entry, "__dict__") else {}
            return credential_stand_in(
                name,
                secret=PROCESS_KEY,
                token_url=str(fields.get("token_url", "")),
                client_id=str(fields.get("client_id", "")),
                scopes=fields.get("scopes", ()),
            )
        return credential_stand_in(
            name,
            secret=entry.client_secret,
            token_url=entry.token_url,
            client_id=entry.client_id,
            scopes=entry.scopes,
            grant=entry.type,
        )

    async def _renew(self, request: HttpRequest) -> bool:
        """Renew each credential whose current token this request carried; one whose
        token has changed since the request was built needs nothing (the rebuilt
        request takes the new one). Is there a token to send again with?"""
        credentials = self.run.credentials
        sent = list(request.headers.values())
        again = False
        for name in sorted(self.hooks.credentials_used):
            current = credentials.current(name)
            if current is None:
                continue
            again = True
            if any(current in value for value in sent) or (request.body and current.encode() in request.body):
                await credentials.renew(name, current)
        return again

    def _occurrence(self, request: HttpRequest) -> int:
        """Identical reads of different statements share one call; a statement that
        itself asks for the same request n times (a patch's scatter) gets n calls."""
        key = request.url if request.body is None else (request.url, request.body)  # a str: no tuple per read
        occurrence = self._occurrences.get(key, 0)
        self._occurrences[key] = occurrence + 1
        return occurrence


async def _access_token(run: RunContext, table: str, statement: Any, name: str) -> str:
    """The access token of credential ``name`` for a call of ``table``. A caller's run
    gets only the tokens gateway.adhoc.credentials opens to callers (the table's ``using
    auth`` and a patch's ``ctx.access_token`` alike)."""
    pos = getattr(statement, "pos", None)
    run.trust.check_credential(name, table, pos.line if pos is not None else None)
    return await run.credentials.access_token(name)
