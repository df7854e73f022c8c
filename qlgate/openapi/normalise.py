"""OpenAPI 3.x and Swagger 2 documents → the one operation model (``model.py``).

The two flavours differ in where things are: the base URL (``servers`` vs
``schemes``/``host``/``basePath``), parameter types (``schema`` vs inline), the body
(``requestBody`` vs an ``in: body`` parameter), response schemas (``content`` vs
``schema``) and security (``components.securitySchemes`` vs
``securityDefinitions``, with other flow names). Everything after this module
sees one shape.
"""

from __future__ import annotations

import re
from typing import Any

from .model import OWN_HEADERS, Api, Body, Operation, Param, header_column, identifier, operation_name
from .schemas import SpecError, deref, node, param_kind

METHODS = ("get", "put", "post", "delete", "patch")
CLIENT_FLOWS = ("clientCredentials", "application")  # OAS 3, Swagger 2
USER_FLOWS = ("authorizationCode", "accessCode", "implicit", "password")


def flavour(doc: Any) -> str:
    if not isinstance(doc, dict):
        raise SpecError("the document is not a JSON/YAML object")
    if str(doc.get("openapi", "")).startswith("3"):
        return "openapi3"
    if str(doc.get("swagger", "")) == "2.0":
        return "swagger2"
    raise SpecError("neither OpenAPI 3 ('openapi: 3.x') nor Swagger 2 ('swagger: \"2.0\"')")


def server_url(doc: dict[str, Any]) -> str:
    """The spec's first server (variables at their defaults), https preferred in Swagger 2."""
    if flavour(doc) == "openapi3":
        servers = doc.get("servers") or [{"url": "/"}]
        first: dict[str, Any] = servers[0] if isinstance(servers[0], dict) else {"url": "/"}
        url = str(first.get("url") or "/")
        for name, var in (first.get("variables") or {}).items():
            url = url.replace("{" + name + "}", str((var or {}).get("default", "")))
        return url.rstrip("/")
    schemes = doc.get("schemes") or ["https"]
    scheme = "https" if "https" in schemes else str(schemes[0])
    host = doc.get("host") or "localhost"
    return f"{scheme}://{host}{doc.get('basePath') or ''}".rstrip("/")


def _json_type(content: dict[str, Any]) -> str | None:
    types = list(content)
    return next((t for t in types if "json" in t.split(";")[0].lower()), types[0] if types else None)


def _schemes(doc: dict[str, Any]) -> dict[str, Any]:
    if flavour(doc) == "openapi3":
        return dict((doc.get("components") or {}).get("securitySchemes") or {})
    return dict(doc.get("securityDefinitions") or {})


def _auth_kind(scheme: dict[str, Any]) -> str | None:
    kind = str(scheme.get("type", "")).lower()
    if kind == "oauth2" or kind == "openidconnect":
        return "oauth2"
    if kind == "http" and str(scheme.get("scheme", "")).lower() == "bearer":
        return "oauth2"
    if kind == "apikey" and scheme.get("in") in ("header", "query"):
        return "apikey"
    return None


class Reader:
    """Reads one document; ``prefix`` names the table set and its config keys."""

    def __init__(self, doc: dict[str, Any], prefix: str):
        self.doc, self.prefix, self.kind = doc, prefix, flavour(doc)
        self.schemes = {name: deref(doc, s) for name, s in _schemes(doc).items()}
        self.used_scopes: dict[str, list[str]] = {}

    # ---------------------------------------------------------------- parameters

    def _params(self, raw: list[Any]) -> tuple[list[Param], Body | None, list[str]]:
        params: list[Param] = []
        body: Body | None = None
        notes: list[str] = []
        used: set[str] = set()
        for item in raw:
            p = deref(self.doc, item)
            where, name = str(p.get("in", "")), str(p.get("name", ""))
            if where == "body":
                body = Body("application/json", node(self.doc, p.get("schema")), bool(p.get("required")))
                continue
            if where == "formData":
                body = Body("application/x-www-form-urlencoded", {}, bool(p.get("required")))
                continue
            if where not in ("path", "query", "header") or (where == "header" and name.lower() in OWN_HEADERS):
                if where == "cookie":
                    notes.append(f"The cookie parameter {name} is not sent.")
                continue
            schema = p.get("schema") if self.kind == "openapi3" else p
            schema = node(self.doc, schema) if self.kind == "openapi3" else schema
            kind = param_kind(schema or {})
            column = header_column(name) if where == "header" else identifier(name, "param")
            if column in used:
                column += where.capitalize()
            used.add(column)
            example = p.get("example", p.get("x-example", (schema or {}).get("example")))
            required = where == "path" or bool(p.get("required"))
            params.append(Param(name, where, required, column, kind, example=example))
        return params, body, notes

    # ---------------------------------------------------------------- bodies, answers

    def _body(self, op: dict[str, Any]) -> Body | None:
        raw = deref(self.doc, op.get("requestBody"))
        if not isinstance(raw, dict) or not raw.get("content"):
            return None
        media = _json_type(raw["content"]) or "application/json"
        schema = node(self.doc, (raw["content"].get(media) or {}).get("schema"))
        return Body(media, schema, bool(raw.get("required")))

    def _response(self, op: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
        responses = op.get("responses") or {}
        for code in sorted((str(c) for c in responses), key=lambda c: (not c.startswith("2"), c)):
            if not code.startswith("2"):
                continue
            raw = deref(self.doc, responses.get(code) if code in responses else responses.get(int(code)))
            if not isinstance(raw, dict):
                continue
            if self.kind == "swagger2":
                return (node(self.doc, raw.get("schema")) or None), "application/json"
            content = raw.get("content") or {}
            media = _json_type(content)
            if media is None:
                return None, None
            return (node(self.doc, (content.get(media) or {}).get("schema")) or None), media
        return None, None

    # ---------------------------------------------------------------- security

    def _security(self, op: dict[str, Any]) -> tuple[str | None, tuple[str, ...], list[tuple[str, str, str]]]:
        """(auth entry, scopes, [(in, name, config reference)] for API keys)."""
        requirements = op.get("security", self.doc.get("security")) or []
        for requirement in requirements:
            if not isinstance(requirement, dict) or not requirement:
                return None, (), []  # an empty alternative: no authorisation needed
            kinds = {name: _auth_kind(self.schemes.get(name) or {}) for name in requirement}
            if None in kinds.values():
                continue
            auth, scopes, keys = None, [], []
            for name, kind in kinds.items():
                if kind == "oauth2":
                    auth = self.prefix
                    scopes += [str(s) for s in requirement[name] or ()]
                    self.used_scopes.setdefault(name, [])
                    for s in requirement[name] or ():
                        if s not in self.used_scopes[name]:
                            self.used_scopes[name].append(str(s))
                else:
                    scheme = self.schemes[name]
                    ref = "{config.tables." + self.prefix + "." + identifier(name, "key") + "}"
                    keys.append((str(scheme["in"]), str(scheme["name"]), ref))
            return auth, tuple(scopes), keys
        return None, (), []

    def auth_entry(self) -> dict[str, Any] | None:
        """The config ``auth`` entry the operations' ``using auth`` names."""
        for name, scopes in self.used_scopes.items():
            scheme = self.schemes.get(name) or {}
            flows = scheme.get("flows") or ({scheme.get("flow"): scheme} if scheme.get("flow") else {})
            client = next((flows[f] for f in CLIENT_FLOWS if f in flows), None)
            user = next((flows[f] for f in USER_FLOWS if f in flows), None)
            if client is not None:
                return {
                    "type": "oauth2-client-credentials",
                    "tokenUrl": client.get("tokenUrl", ""),
                    "clientId": "${CLIENT_ID}",
                    "clientSecret": "${CLIENT_SECRET}",
                    "scopes": scopes,
                }
            if user is not None:
                return {
                    "type": "oauth2-refresh-token",
                    "tokenUrl": user.get("tokenUrl", ""),
                    "authorizeUrl": user.get("authorizationUrl", ""),
                    "clientId": "${CLIENT_ID}",
                    "clientSecret": "${CLIENT_SECRET}",
                    "refreshToken": "${REFRESH_TOKEN}",
                    "scopes": scopes,
                }
            return {"type": "oauth2-client-credentials", "tokenUrl": "", "clientId": "", "clientSecret": ""}
        return None

    # ---------------------------------------------------------------- operations

    def operations(self) -> list[Operation]:
        out: list[Operation] = []
        names: set[str] = set()
        for path, raw_item in (self.doc.get("paths") or {}).items():
            item = deref(self.doc, raw_item)
            if not isinstance(item, dict):
                continue
            shared = list(item.get("parameters") or [])
            for method in [m for m in item if m in METHODS]:
                op = item[method]
                if not isinstance(op, dict):
                    continue
                own = {
                    (deref(self.doc, p).get("in"), deref(self.doc, p).get("name")) for p in op.get("parameters") or []
                }
                raw = [p for p in shared if (deref(self.doc, p).get("in"), deref(self.doc, p).get("name")) not in own]
                params, body, notes = self._params([*raw, *(op.get("parameters") or [])])
                body = self._body(op) or body
                response, response_type = self._response(op)
                auth, scopes, keys = self._security(op)
                name = operation_name(op.get("operationId"), method, str(path))
                while name in names:
                    name += "_"
                names.add(name)
                out.append(
                    Operation(
                        operation_id=name,
                        method=method,
                        path=str(path),
                        summary=str(op.get("summary") or _first_sentence(op.get("description"))),
                        params=tuple(params),
                        body=body,
                        response=response,
                        response_type=response_type,
                        auth=auth,
                        scopes=scopes,
                        deprecated=bool(op.get("deprecated")),
                        headers=tuple((n, v) for where, n, v in keys if where == "header"),
                        query=tuple((n, v) for where, n, v in keys if where == "query"),
                        notes=tuple(notes),
                    )
                )
        return out


def _first_sentence(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    return re.split(r"(?<=[.!?])\s|\n\n", text.strip(), maxsplit=1)[0]


def read_api(doc: dict[str, Any], prefix: str) -> Api:
    """The whole document as an ``Api`` (operations in the document's order)."""
    reader = Reader(doc, prefix)
    operations = reader.operations()
    if not operations:
        raise SpecError("the document has no operations under 'paths'")
    info = doc.get("info") or {}
    return Api(str(info.get("title") or prefix), server_url(doc), operations, reader.auth_entry())
