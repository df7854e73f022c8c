"""A loopback API server built from an OpenAPI 3 or Swagger 2 document, on its own
reading of the spec (not the importer's), so the tables the importer writes are
checked against the contract rather than against themselves.

For each request it finds the operation by method and path, then checks: every
required query parameter and header is there and not empty, no query parameter
is sent empty, a JSON body has the schema's required members and types (``$ref``
and ``allOf`` followed), and — for operations with security — the bearer token
or API key. A request that breaks the contract gets a 400 listing what is wrong
(and is kept in ``problems``); a good one gets an answer made from the response
schema (arrays of two, strings ``"s"``, numbers ``1.5``…).
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

METHODS = ("get", "put", "post", "delete", "patch")


class SpecServer:
    def __init__(self, doc: dict[str, Any], *, token: str = "tok-1", api_key: str = "key-1"):
        self.doc, self.token, self.api_key = doc, token, api_key
        self.v3 = str(doc.get("openapi", "")).startswith("3")
        if self.v3:
            url = doc["servers"][0]["url"]
            self.base_path = re.sub(r"^[a-z]+://[^/]+", "", re.sub(r"\{[^}]+\}", "x", url)).rstrip("/")
        else:
            self.base_path = (doc.get("basePath") or "").rstrip("/")
        self.requests: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.token_requests = 0
        self.base = ""
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------ spec reading

    def ref(self, value: Any) -> Any:
        while isinstance(value, dict) and "$ref" in value:
            node: Any = self.doc
            for part in value["$ref"][2:].split("/"):
                node = node[part]
            value = node
        return value

    def schema(self, value: Any) -> dict[str, Any]:
        value = self.ref(value) or {}
        if "allOf" in value:
            merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
            for part in value["allOf"]:
                part = self.schema(part)
                merged["properties"].update(part.get("properties") or {})
                merged["required"] += part.get("required") or []
            return merged
        return value

    def find(self, method: str, path: str) -> tuple[dict[str, Any], list[Any], dict[str, str]] | None:
        if not path.startswith(self.base_path):
            return None
        rest = path[len(self.base_path) :]
        for template, item in self.doc["paths"].items():
            pattern = "^" + re.sub(r"\\\{([^}]+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"
            pattern = pattern.replace("(?P<fields[]>", "(?P<fields>")
            found = re.match(pattern, rest)
            if found and method in item:
                params = [self.ref(p) for p in (item.get("parameters") or [])]
                params += [self.ref(p) for p in (item[method].get("parameters") or [])]
                return item[method], params, found.groupdict()
        return None

    def check(self, schema: dict[str, Any], value: Any, where: str, out: list[str]) -> None:
        schema = self.schema(schema)
        kind = schema.get("type") or ("object" if "properties" in schema else None)
        types = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "array": list, "object": dict}
        if kind in types and (not isinstance(value, types[kind]) or (kind != "boolean" and isinstance(value, bool))):
            out.append(f"{where}: {value!r} is not {kind}")
            return
        if kind == "object":
            for name in schema.get("required") or ():
                if name not in value:
                    out.append(f"{where}.{name}: required")
            for name, member in value.items():
                if name not in (schema.get("properties") or {}):
                    out.append(f"{where}.{name}: not in the schema")
                else:
                    self.check(schema["properties"][name], member, f"{where}.{name}", out)
        if kind == "array":
            for i, item in enumerate(value):
                self.check(schema.get("items") or {}, item, f"{where}[{i}]", out)

    def sample(self, schema: Any, depth: int = 0) -> Any:
        schema = self.schema(schema)
        kind = schema.get("type") or ("object" if "properties" in schema else "string")
        if kind == "object":
            if depth > 4:
                return {}
            return {k: self.sample(v, depth + 1) for k, v in (schema.get("properties") or {}).items()}
        if kind == "array":
            return [self.sample(schema.get("items") or {}, depth + 1) for _ in range(2)]
        return {"string": "s", "integer": 7, "number": 1.5, "boolean": True}.get(kind, "s")

    # ------------------------------------------------------------ serving

    def security(self, op: dict[str, Any]) -> list[str]:
        requirements = op.get("security", self.doc.get("security")) or []
        schemes = (self.doc.get("components") or {}).get("securitySchemes") or self.doc.get("securityDefinitions") or {}
        return [name for req in requirements[:1] for name in req if name in schemes]

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        if request.path == "/token":
            self.token_requests += 1
            return web.json_response({"access_token": self.token, "expires_in": 3600, "token_type": "Bearer"})
        method = request.method.lower()
        record = {
            "method": method,
            "path": request.path,
            "query": dict(request.query),
            "headers": {k.lower(): v for k, v in request.headers.items()},
            "body": json.loads(body) if body else None,
        }
        self.requests.append(record)
        found = self.find(method, request.path)
        if found is None:
            return web.json_response({"problems": [f"no operation {method} {request.path}"]}, status=404)
        op, params, _path = found
        problems: list[str] = []
        for name, value in request.query.items():
            if value == "":
                problems.append(f"query {name} sent empty")
        for p in params:
            if p["in"] == "query" and p.get("required") and not request.query.get(p["name"]):
                problems.append(f"query {p['name']}: required")
            if (
                p["in"] == "header"
                and p["name"].lower() in record["headers"]
                and not record["headers"][p["name"].lower()]
            ):
                problems.append(f"header {p['name']} sent empty")
            if p["in"] == "header" and p.get("required") and p["name"].lower() not in record["headers"]:
                problems.append(f"header {p['name']}: required")
            if p["in"] == "body":
                self.check(p["schema"], record["body"], "body", problems)
        if self.v3 and op.get("requestBody"):
            content = self.ref(op["requestBody"])["content"]["application/json"]
            if record["headers"].get("content-type", "").split(";")[0] != "application/json":
                problems.append("content-type is not application/json")
            self.check(content["schema"], record["body"], "body", problems)
        for name in self.security(op):
            scheme = ((self.doc.get("components") or {}).get("securitySchemes") or self.doc.get("securityDefinitions"))[
                name
            ]
            if scheme["type"] == "apiKey" and record["headers"].get(scheme["name"].lower()) != self.api_key:
                problems.append(f"api key {scheme['name']} missing")
            if scheme["type"] == "oauth2" and record["headers"].get("authorization") != f"Bearer {self.token}":
                problems.append("bearer token missing")
        if problems:
            self.problems += problems
            return web.json_response({"problems": problems}, status=400)
        code = next(c for c in sorted(op["responses"], key=str) if str(c).startswith("2"))
        response = self.ref(op["responses"][code])
        schema = (
            response.get("schema")
            if not self.v3
            else ((response.get("content") or {}).get("application/json") or {}).get("schema")
        )
        if schema is None:
            return web.Response(status=int(code))
        return web.json_response(self.sample(schema), status=int(code))

    async def start(self) -> SpecServer:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.base = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
