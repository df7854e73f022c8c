"""Who wrote a script, and what that lets it do: the trust boundary.

Deployer code is what the deployer put on disk: the tables and routes trees and
the config. Caller input is everything that arrives at run time: ``/q`` scripts,
job scripts submitted over HTTP, route parameters, headers, bodies, upstream
answers. A caller's script is data: it may query tables and, where the deployer
allows it, define inline tables that call allowed hosts only; it may not load
code or files, and it reads only the config keys the deployer made public.

A ``Trust`` is fixed when a script is compiled and travels with it
(``Compiled.trust``), so what was checked at compile time and what is enforced
at run time (the host allow-list, the config a script sees) cannot come apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

from .config_values import ConfigView
from .errors import ConfigError, QlError
from .hosts import HostAllowList as HostAllowList  # the allow-list, re-exported
from .hosts import UpstreamNotAllowed as UpstreamNotAllowed
from .hosts import fixed_origin as fixed_origin
from .hosts import url_origin as url_origin
from .http.connection_headers import connection_header
from .lang import ast
from .lang.templates import Template, Token, parse_reference, parse_template
from .lang.walk import walk
from .oauth.policy import CredentialNotAllowed as CredentialNotAllowed  # the refusal, re-exported
from .oauth.policy import adhoc_credentials, credential_refused

DEPLOYER, CALLER = "deployer", "caller"


class CallerScriptRefused(QlError):
    """A caller's script asked for something only deployer code may do (load code
    or files, read private config, define tables where that is off)."""

    status = 400


# ``require("javascript: exports.f = …")``: a UDF module written in the script, run in the JS
# sandbox, which reaches nothing of the host: callers may, with ``gateway.adhoc.udfs`` on
INLINE_JS = "javascript:"


@dataclass(frozen=True)
class Trust:
    """The policy one script runs under. ``Trust.deployer()`` for the deployer's own
    scripts (routes, ``qlgate run``, the Python API); ``Trust.for_callers(config,
    tables)`` for everything a caller sends."""

    kind: str = DEPLOYER
    allowed_hosts: HostAllowList | None = None  # callers: the upstreams they may reach
    inline_tables: bool = True  # callers: may they ``create table``
    inline_udfs: bool = False  # callers: may they define JavaScript UDFs inline (``require("javascript: …")``)
    public_config: tuple[str, ...] = ()  # callers: dotted config keys they may read
    introspection: bool = True  # callers: describe, show tables/routes (the console's data)
    # callers: the config ``auth`` entries whose tokens the deployer's tables may use for
    # them (None: all, the deployer's own scripts)
    credentials: tuple[str, ...] | None = None

    def __hash__(self) -> int:
        # a compile-cache key holds the trust: hashed on every /q, and the policy of a
        # process's callers is made once, so its hash is worked out once
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", found)
        return found

    @classmethod
    def deployer(cls) -> Trust:
        return _DEPLOYER

    @classmethod
    def for_callers(cls, config: dict[str, Any] | ConfigView, tables: Iterable[Any]) -> Trust:
        """The ad-hoc policy of config ``gateway.adhoc``: ``allowedHosts`` (default: the
        hosts the loaded tables call), ``inlineTables`` (default true), ``publicConfig``
        (default none), ``credentials`` (default: the ``oauth2-client-credentials``
        entries of config ``auth``, application tokens; never a user's token unless listed)."""
        view = config if isinstance(config, ConfigView) else ConfigView(config)
        hosts = view.strings("gateway.adhoc.allowedHosts")  # null: the hosts the tables call
        allow = (
            HostAllowList(tuple(h.lower() for h in hosts)) if hosts is not None else HostAllowList.from_tables(tables)
        )
        public = view.strings("gateway.adhoc.publicConfig") or []
        if not all(public):
            raise ConfigError(
                "config gateway.adhoc.publicConfig must be a list of dotted config keys, not an empty one",
                path="gateway.adhoc.publicConfig",
            )
        keys = tuple(sorted({k.removeprefix("config.") for k in public}))
        inline, udfs = view.boolean("gateway.adhoc.inlineTables"), view.boolean("gateway.adhoc.udfs")
        return cls(CALLER, allow, inline, udfs, keys, credentials=adhoc_credentials(view))

    def to_record(self) -> dict[str, Any]:
        """The policy as a job records it, so every worker runs the job under it."""
        return {
            "allowedHosts": list(self.allowed_hosts.patterns) if self.allowed_hosts is not None else None,
            "inlineTables": self.inline_tables,
            "udfs": self.inline_udfs,
            "publicConfig": list(self.public_config),
            "credentials": list(self.credentials) if self.credentials is not None else None,
        }

    def narrowed(self, record: dict[str, Any] | None) -> Trust:
        """This policy and a recorded one at once: what both allow. A worker runs a
        caller's job under the policy of the gateway that took it, within its own."""
        if not record:
            return self
        hosts = record.get("allowedHosts")
        allow = self.allowed_hosts
        if isinstance(hosts, list):
            allow = HostAllowList(tuple(str(h).lower() for h in hosts), within=allow)
        theirs = tuple(str(k) for k in record.get("publicConfig") or ())
        both = tuple(
            sorted(
                {k for k in self.public_config if _covered(k, theirs)}
                | {k for k in theirs if _covered(k, self.public_config)}
            )
        )
        credentials = self.credentials
        if isinstance(record.get("credentials"), list):
            theirs_credentials = {str(c) for c in record["credentials"]}
            credentials = tuple(
                sorted(theirs_credentials if credentials is None else theirs_credentials & set(credentials))
            )
        return replace(
            self,
            allowed_hosts=allow,
            public_config=both,
            credentials=credentials,
            inline_tables=self.inline_tables and record.get("inlineTables") is not False,
            inline_udfs=self.inline_udfs and record.get("udfs") is True,
        )

    def without_introspection(self) -> Trust:
        """The same policy, without ``describe`` and ``show``: for callers whose key lacks
        the console scope, which the describe endpoints need."""
        return replace(self, introspection=False)

    @property
    def is_caller(self) -> bool:
        return self.kind == CALLER

    def check_url(self, url: str) -> None:
        if self.allowed_hosts is not None:
            self.allowed_hosts.check(url)

    def may_use_credential(self, name: str) -> bool:
        return self.credentials is None or name in self.credentials

    def check_credential(self, name: str, table: str | None = None, line: int | None = None) -> None:
        """Refuse a caller's run the token of config ``auth`` entry ``name`` unless
        ``gateway.adhoc.credentials`` lists it (``qlgate.oauth.policy``)."""
        if not self.may_use_credential(name):
            raise credential_refused(name, table, line)

    # ------------------------------------------------------------------ compile time
    def check(self, script: ast.Script) -> None:
        """Refuse, with the clause and its line, what a caller's script may not do."""
        if not self.is_caller:
            return
        # a script that assigns 'config' itself reads its own variable (ql.io allowed it);
        # the run-time view still holds only public keys until the assignment
        own_config = any(isinstance(node, ast.Line) and node.target == "config" for node in walk(script))
        for node, line in _nodes_with_lines(script):
            if isinstance(node, ast.Require) and not (self.inline_udfs and node.module.startswith(INLINE_JS)):
                inline = node.module.startswith(INLINE_JS)
                raise CallerScriptRefused(
                    "JavaScript UDFs are disabled in ad-hoc scripts (gateway.adhoc.udfs)"
                    if inline
                    else f'require("{node.module}") is not allowed in ad-hoc scripts: they may not load code',
                    line=node.pos.line,
                    column=node.pos.column,
                    clause="require",
                )
            if isinstance(node, _INTROSPECTION) and not self.introspection:
                raise CallerScriptRefused(
                    f"'{node.text or 'describe'}' needs the console scope (the describe endpoints' data)",
                    line=node.pos.line,
                    column=node.pos.column,
                    clause="describe",
                )
            if isinstance(node, ast.CreateTable):
                self._check_table(node)
            elif isinstance(node, Template) and not own_config:
                self._check_template(node, line)

    def _check_table(self, create: ast.CreateTable) -> None:
        if not self.inline_tables:
            raise CallerScriptRefused(
                "create table is disabled in ad-hoc scripts (gateway.adhoc.inlineTables)",
                line=create.pos.line,
                column=create.pos.column,
                clause="create table",
            )
        for m in create.mappings:
            line = (m.pos or create.pos).line
            for clause, value in (
                ("using patch", m.patch),
                ("auth using", m.auth),
                ("using bodyTemplate", m.body.template if m.body else None),
            ):
                if value is not None:
                    raise CallerScriptRefused(
                        f"'{clause}' is not allowed in ad-hoc scripts: they may not load code or files",
                        line=line,
                        clause=clause,
                    )
            if m.credential is not None:
                raise CallerScriptRefused(
                    "'using auth' is not allowed in ad-hoc scripts: they may not use the deployer's credentials",
                    line=line,
                    clause="using auth",
                )
            for text in (m.uri, *(p.name for p in (*m.headers, *m.defaults, *m.aliases))):
                self._check_template(parse_template(text), line)
            for pair in m.headers:
                if connection_header(pair.name):
                    raise CallerScriptRefused(
                        f"an ad-hoc table may not set the header '{pair.name}': the gateway owns the connection",
                        line=line,
                        clause="using headers",
                    )

    def _check_template(self, template: Template, line: int | None) -> None:
        for token in _tokens(template):
            key = _config_key(token)
            if key is not None and not self._public(key):
                shown = "{config}" if key == "" else f"{{config.{key}}}" if key != "*" else token.raw
                raise CallerScriptRefused(
                    f"{shown} is not readable by ad-hoc scripts: they read only the config keys listed "
                    "in gateway.adhoc.publicConfig",
                    line=line,
                    clause="config",
                )

    def _public(self, key: str) -> bool:
        return key not in ("", "*") and _covered(key, self.public_config)

    # ------------------------------------------------------------------ run time
    def config_view(self, config: dict[str, Any], secrets: Any = None) -> dict[str, Any]:
        """What ``{config…}`` reads in the script: all of it for the deployer; for a
        caller only the public keys (the check above reports literal references;
        this view also covers references built at run time, ``{{name}.x}``). A secret
        stays out of it even under a public key (``secrets``: the config's ``Secrets``)."""
        if not self.is_caller:
            return config
        view: dict[str, Any] = {}
        for key in self.public_config:
            value: Any = config
            for part in key.split("."):
                if not isinstance(value, dict) or part not in value:
                    break
                value = value[part]
            else:
                if secrets is not None:
                    value = _without_secrets(value, secrets)
                target = view
                *parents, last = key.split(".")
                for part in parents:
                    target = target.setdefault(part, {})
                target[last] = value
        return view


_DEPLOYER = Trust(DEPLOYER)
_INTROSPECTION = (ast.Describe, ast.DescribeRoute, ast.ShowTables, ast.ShowRoutes)


def _without_secrets(value: Any, secrets: Any) -> Any:
    """``value`` with every secret string in it masked (``Secrets.mask_value``)."""
    return secrets.mask_value(value) if secrets.values else value


def _covered(key: str, public: tuple[str, ...]) -> bool:
    """Is the dotted ``key`` one of ``public`` or inside one."""
    return any(key == p or key.startswith(p + ".") for p in public)


def _nodes_with_lines(script: ast.Script) -> Iterator[tuple[Any, int | None]]:
    """Every node and template with the line of the statement around it."""
    line = None
    # the table a write names does not move the line: in ``insert "{…}"\n into t``
    # its position comes after text the refusal must place on the insert's line
    write_targets: set[int] = set()
    for node in walk(script):
        if isinstance(node, (ast.Insert, ast.Update, ast.Delete)):
            write_targets.add(id(node.source))
        pos = getattr(node, "pos", None)
        if isinstance(pos, ast.Pos) and id(node) not in write_targets:
            line = pos.line
        yield node, line


def _tokens(template: Template) -> Iterator[Token]:
    for token in template.tokens:
        yield token
        yield from _tokens(token.body)


def _config_key(token: Token) -> str | None:
    """The dotted config key a token reads ("" for the whole config, "*" for a path
    that is not plain keys or is built at run time); None if it reads no config."""
    body = token.body
    if body.tokens:
        head = body.parts[0] if body.parts and isinstance(body.parts[0], str) else ""
        return "*" if re.match(r"\s*config\s*(?:[.\[]|$)", head) else None
    ref = parse_reference(body.raw)
    if ref is None or ref[0] != "config":
        return None
    _name, path = ref
    if path is None:
        return ""
    return ".".join(path.keys) if path.keys is not None else "*"
