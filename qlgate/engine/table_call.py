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
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..cache.keys import IDEMPOTENT
from ..cache.planning import KeyPlanner
from ..errors import (
    FanOutLimit,
    QlError,
    RequestBytesExceeded,
    ScriptBudgetExceeded,
    UpstreamError,
    UpstreamThrottled,
)
from ..oauth.rejection import TokenRejected, token_rejected
from ..oauth.renewal import renew_sent
from ..tables.call import CallHooks, mapping_for
from ..tables.model import Table
from ..tables.params import ParamView
from ..tables.request import DEFAULT_ACCEPT, Outgoing, RequestBuilder, call_params, param_view
from ..tables.response import read_answer
from ..values import MISSING
from . import relational
from .backoff import NO_DELAYS, Delays, retry_after_seconds
from .call import Call
from .context import RunContext
from .window import SendWindow

if TYPE_CHECKING:
    from ..http.client import HttpRequest, HttpResponse

__all__ = ["DEFAULT_ACCEPT", "TableCall"]  # DEFAULT_ACCEPT: re-exported for bench/engine_bench.py


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
        # the statement's minDelay/maxDelay for its table's back-off
        tuning = getattr(statement, "tuning", None)
        delays = NO_DELAYS
        if tuning is not None:
            delays = Delays(getattr(tuning, "min_delay", None), getattr(tuning, "max_delay", None))
        # the path its calls take, composed once for every statement like it (``call_path.py``)
        self._path = run.call_path(table, kind, delays)
        self._calls = run.calls
        self._reads = kind == "select"  # reads are shared with identical reads in flight, and cached
        # the cache's part, the same for every call of the statement (``cache/planning.py``)
        self._keys = KeyPlanner(
            table=table.name,
            by_caller=table.by_caller,
            mapping=mapping,
            expires=self._expires(),
            hooks=self.hooks,
            credentials=run.credentials,
            secrets=secrets,
            request_id_header=settings.request_id_header,
            request_id=run.request_id,
        )

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
        """One request of the statement: built, sent on its call path (awaited here, so
        a call waiting on its socket holds no frame of this module but this one), its
        answer read. A refused access token is renewed once for all the calls refused
        with it, and the request built and sent once more with the new one."""
        window, hooks = self._window, self.hooks
        if window is not None and window.full:
            # no slot for it yet: the requests that have one go out before it is built
            await asyncio.sleep(0)
        renewed = False
        while True:
            request = await self.builder.build(uri_text, view)
            call = await self._hook_keyed(request, view) if self._keys.by_hook else self._call(request)
            if window is None:
                response = await self._path(call)
            else:
                if not window.enter_now():
                    await window.enter()
                try:
                    response = await self._path(call)
                finally:
                    window.release()
                if window.behind:
                    await window.sends_first()
            if not renewed and response.status == 401 and hooks.credentials_used and token_rejected(response):
                # the access token was refused (expired early, revoked)
                await renew_sent(self.run.credentials, hooks.credentials_used, request)
                renewed = True
                continue
            try:
                result = await self._read(response, view)
            except TokenRejected:
                # a patch_status saying the same of a 2xx (eBay Trading's Ack Failure 931 for
                # its IAF token): the same once-only renewal, if the request carried a token
                if renewed or not hooks.credentials_used:
                    raise
                if not await renew_sent(self.run.credentials, hooks.credentials_used, request):
                    raise
                renewed = True
                continue
            break
        if self.project is not None:
            result = self.project(result)
        self.run.note_size(result, len(response.body))  # a tree no bigger than its answer
        return result

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

    def _call(self, request: HttpRequest) -> Call:
        """The request as a call of this statement: a read with its cache plan."""
        occurrence = self._occurrence(request)
        plan = None
        if self._reads and request.method.upper() in IDEMPOTENT:
            plan = self._keys.plan(request, occurrence)
        return Call(request, self.table.name, self._calls, plan, occurrence)

    async def _hook_keyed(self, request: HttpRequest, view: ParamView) -> Call:
        """The same, for a table whose ``compute_key`` hook chooses a read's cache key."""
        occurrence = self._occurrence(request)
        plan = None
        if self._reads and request.method.upper() in IDEMPOTENT:
            plan = await self._keys.hook_plan(request, view, occurrence, self.run.settings.request_id_header)
        return Call(request, self.table.name, self._calls, plan, occurrence)

    def _expires(self) -> int | None:
        """Seconds a select's answer may be kept (spec §10.9): the statement's own
        ``expires`` (0: not this time), else the table's."""
        own = getattr(self.hooks.statement, "expires", None)
        seconds = own if own is not None else self.mapping.expires
        return seconds or None

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
