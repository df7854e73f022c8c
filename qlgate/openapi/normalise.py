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

from . import checks
from .checks import arr, at, name_text, obj, text
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
        servers = arr(doc.get("servers"), "#/servers") or [{"url": "/"}]
        first = obj(servers[0], "#/servers/0")
        url = text(first.get("url"), "#/servers/0/url") or "/"
        variables = obj(first.get("variables"), "#/servers/0/variables")
        for name, var in variables.items():
            where = at("#/servers/0/variables", name)
            url = url.replace("{" + str(name) + "}", text(obj(var, where).get("default"), at(where, "default")))
        return url.rstrip("/")
    schemes = [text(s, at("#/schemes", i)) for i, s in enumerate(arr(doc.get("schemes"), "#/schemes"))] or ["https"]
    scheme = "https" if "https" in schemes else schemes[0]
    host = text(doc.get("host"), "#/host") or "localhost"
    return f"{scheme}://{host}{text(doc.get('basePath'), '#/basePath')}".rstrip("/")


def _content(value: Any, where: str) -> dict[str, Any]:
    """A ``content`` map with its media types as text."""
    return {str(k): v for k, v in obj(value, where).items()}


def _json_type(content: dict[str, Any]) -> str | None:
    types = list(content)
    return next((t for t in types if "json" in t.split(";")[0].lower()), types[0] if types else None)


def _schemes(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if flavour(doc) == "openapi3":
        components = obj(doc.get("components"), "#/components")
        return obj(components.get("securitySchemes"), "#/components/securitySchemes"), "#/components/securitySchemes"
    return obj(doc.get("securityDefinitions"), "#/securityDefinitions"), "#/securityDefinitions"


def _auth_kind(scheme: dict[str, Any]) -> str | None:
    kind = str(scheme.get("type", "")).lower()
    if kind == "oauth2" or kind == "openidconnect":
        return "oauth2"
    if kind == "http" and str(scheme.get("scheme", "")).lower() == "bearer":
        return "oauth2"
    if kind == "apikey" and scheme.get("in") in ("header", "query"):
        return "apikey"
    return None


def _safe_name(name: str, where: str) -> bool:
    """Can a parameter sent in ``where`` (path, query, header) have this name in a table?"""
    pattern = checks.HEADER_NAME if where == "header" else checks.PARAM_NAME
    return bool(pattern.match(name))


class Reader:
    """Reads one document; ``prefix`` names the table set and its config keys."""

    def __init__(self, doc: dict[str, Any], prefix: str):
        self.doc, self.prefix, self.kind = doc, prefix, flavour(doc)
        raw, where = _schemes(doc)
        self.schemes = {str(n): obj(deref(doc, s, where=at(where, n)), at(where, n)) for n, s in raw.items()}
        self.scheme_at = {str(n): at(where, n) for n in raw}
        self.used_scopes: dict[str, list[str]] = {}
        self.warnings: list[str] = []

    # ---------------------------------------------------------------- parameters

    def _params(self, raw: list[tuple[str, dict[str, Any]]]) -> tuple[list[Param], Body | None, list[str]]:
        params: list[Param] = []
        body: Body | None = None
        notes: list[str] = []
        used: set[str] = set()
        for at_p, p in raw:
            where, name = text(p.get("in"), at(at_p, "in")), name_text(p.get("name", ""), at(at_p, "name"))
            if where == "body":
                schema = node(self.doc, p.get("schema"), where=at(at_p, "schema"))
                body = Body("application/json", schema, bool(p.get("required")))
                continue
            if where == "formData":
                body = Body("application/x-www-form-urlencoded", {}, bool(p.get("required")))
                continue
            if where not in ("path", "query", "header") or (where == "header" and name.lower() in OWN_HEADERS):
                if where == "cookie":
                    shown = f" {name}" if checks.PARAM_NAME.match(name) else ""
                    notes.append(f"The cookie parameter{shown} is not sent.")
                continue
            if not _safe_name(name, where):
                warning = f"{at_p}: the {where} parameter {checks.shown(name)} is left out: its name is not a token"
                self.warnings.append(warning)
                notes.append(f"A {where} parameter is left out: its name is not a token ({at_p}).")
                continue
            at_s = at(at_p, "schema") if self.kind == "openapi3" else at_p
            schema = node(self.doc, p.get("schema"), where=at_s) if self.kind == "openapi3" else p
            kind = param_kind(schema, at_s)
            column = header_column(name) if where == "header" else identifier(name, "param")
            if column in used:
                column += where.capitalize()
            used.add(column)
            example = p.get("example", p.get("x-example", schema.get("example")))
            required = where == "path" or bool(p.get("required"))
            params.append(Param(name, where, required, column, kind, example=example))
        return params, body, notes

    # ---------------------------------------------------------------- bodies, answers

    def _body(self, op: dict[str, Any], where: str) -> Body | None:
        where = at(where, "requestBody")
        raw = obj(deref(self.doc, op.get("requestBody"), where=where), where)
        content = _content(raw.get("content"), at(where, "content"))
        if not content:
            return None
        media = _json_type(content) or "application/json"
        checks.media_type(media, at(where, "content"))
        media_obj = obj(content.get(media), at(where, "content", media))
        schema = node(self.doc, media_obj.get("schema"), where=at(where, "content", media, "schema"))
        return Body(media, schema, bool(raw.get("required")))

    def _response(self, op: dict[str, Any], where: str) -> tuple[dict[str, Any] | None, str | None]:
        where = at(where, "responses")
        responses = {str(c): v for c, v in obj(op.get("responses"), where).items()}  # YAML: 200 is a number
        for code in sorted(responses, key=lambda c: (not c.startswith("2"), c)):
            if not code.startswith("2"):
                continue
            here = at(where, code)
            raw = obj(deref(self.doc, responses[code], where=here), here)
            if self.kind == "swagger2":
                return (node(self.doc, raw.get("schema"), where=at(here, "schema")) or None), "application/json"
            content = _content(raw.get("content"), at(here, "content"))
            media = _json_type(content)
            if media is None:
                return None, None
            media_obj = obj(content.get(media), at(here, "content", media))
            return (node(self.doc, media_obj.get("schema"), where=at(here, "content", media, "schema")) or None), media
        return None, None

    # ---------------------------------------------------------------- security

    def _security(
        self, op: dict[str, Any], where: str
    ) -> tuple[str | None, tuple[str, ...], list[tuple[str, str, str]]]:
        """(auth entry, scopes, [(in, name, config reference)] for API keys)."""
        where = at(where, "security") if "security" in op else "#/security"
        requirements = arr(op.get("security", self.doc.get("security")), where)
        for i, raw_requirement in enumerate(requirements):
            requirement = obj(raw_requirement, at(where, i))
            if not requirement:
                return None, (), []  # an empty alternative: no authorisation needed
            kinds = {name: _auth_kind(self.schemes.get(name) or {}) for name in requirement}
            if None in kinds.values():
                continue
            auth, scopes, keys = None, [], []
            for name, kind in kinds.items():
                here = at(where, i, name)
                listed = [text(s, at(here, j)) for j, s in enumerate(arr(requirement[name], here))]
                for j, scope in enumerate(listed):
                    if not checks.SCOPE.match(scope):
                        raise SpecError(f"{at(here, j)}: {checks.shown(scope)} is not an OAuth scope (RFC 6749)")
                if kind == "oauth2":
                    auth = self.prefix
                    scopes += listed
                    known = self.used_scopes.setdefault(name, [])
                    known += [s for s in dict.fromkeys(listed) if s not in known]
                else:
                    scheme = self.schemes[name]
                    key_name = name_text(scheme.get("name"), at(self.scheme_at[name], "name"))
                    if not _safe_name(key_name, str(scheme["in"])):
                        raise SpecError(f"{at(self.scheme_at[name], 'name')}: {checks.shown(key_name)} is not a token")
                    ref = "{config.tables." + self.prefix + "." + identifier(name, "key") + "}"
                    keys.append((str(scheme["in"]), key_name, ref))
            return auth, tuple(scopes), keys
        return None, (), []

    def auth_entry(self) -> dict[str, Any] | None:
        """The config ``auth`` entry the operations' ``using auth`` names."""
        for name, scopes in self.used_scopes.items():
            scheme, where = self.schemes.get(name) or {}, self.scheme_at.get(name, "#")
            flow = text(scheme.get("flow"), at(where, "flow"))
            flows = obj(scheme.get("flows"), at(where, "flows")) or ({flow: scheme} if flow else {})
            client = next((obj(flows[f], at(where, "flows", f)) for f in CLIENT_FLOWS if f in flows), None)
            user = next((obj(flows[f], at(where, "flows", f)) for f in USER_FLOWS if f in flows), None)
            if client is not None:
                return {
                    "type": "oauth2-client-credentials",
                    "tokenUrl": text(client.get("tokenUrl"), at(where, "tokenUrl")),
                    "clientId": "${CLIENT_ID}",
                    "clientSecret": "${CLIENT_SECRET}",
                    "scopes": scopes,
                }
            if user is not None:
                return {
                    "type": "oauth2-refresh-token",
                    "tokenUrl": text(user.get("tokenUrl"), at(where, "tokenUrl")),
                    "authorizeUrl": text(user.get("authorizationUrl"), at(where, "authorizationUrl")),
                    "clientId": "${CLIENT_ID}",
                    "clientSecret": "${CLIENT_SECRET}",
                    "refreshToken": "${REFRESH_TOKEN}",
                    "scopes": scopes,
                }
            return {"type": "oauth2-client-credentials", "tokenUrl": "", "clientId": "", "clientSecret": ""}
        return None

    # ---------------------------------------------------------------- operations

    def _param_list(self, value: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
        """A ``parameters`` list as (pointer, resolved parameter object)."""
        out = []
        for i, item in enumerate(arr(value, where)):
            here = at(where, i)
            out.append((here, obj(deref(self.doc, item, where=here), here)))
        return out

    @staticmethod
    def _key(p: dict[str, Any], where: str) -> tuple[str, str]:
        return text(p.get("in"), at(where, "in")), text(p.get("name"), at(where, "name"))

    def operations(self) -> list[Operation]:
        out: list[Operation] = []
        names: set[str] = set()
        for raw_path, raw_item in obj(self.doc.get("paths"), "#/paths").items():
            path = str(raw_path)
            at_path = at("#/paths", path)
            checks.path(path, "#/paths")
            item = obj(deref(self.doc, raw_item, where=at_path), at_path)
            shared = self._param_list(item.get("parameters"), at(at_path, "parameters"))
            for method in [m for m in item if m in METHODS]:
                where = at(at_path, method)
                op = obj(item[method], where)
                own_params = self._param_list(op.get("parameters"), at(where, "parameters"))
                own = {self._key(p, w) for w, p in own_params}
                raw = [(w, p) for w, p in shared if self._key(p, w) not in own]
                params, body, notes = self._params([*raw, *own_params])
                body = self._body(op, where) or body
                response, response_type = self._response(op, where)
                auth, scopes, keys = self._security(op, where)
                operation_id = op.get("operationId")
                if operation_id is not None:
                    name_text(operation_id, at(where, "operationId"))
                name = operation_name(operation_id, method, path)
                while name in names:
                    name += "_"
                names.add(name)
                summary = text(op.get("summary"), at(where, "summary"))
                description = text(op.get("description"), at(where, "description"))
                out.append(
                    Operation(
                        operation_id=name,
                        method=method,
                        path=path,
                        summary=summary or _first_sentence(description),
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
    info = obj(doc.get("info"), "#/info")
    title = text(info.get("title"), "#/info/title") or prefix
    return Api(title, server_url(doc), operations, reader.auth_entry(), warnings=reader.warnings)
