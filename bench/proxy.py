"""The one-hop floor: a minimal aiohttp proxy that forwards GET / to one URL; a query
string of its own (``GET /?q=x7``) replaces the URL's, so each request can be its own.

python bench/proxy.py PORT UPSTREAM_URL
"""

import sys

import aiohttp
from aiohttp import web


async def make_app(upstream: str) -> web.Application:
    session = aiohttp.ClientSession()
    prefix = upstream.split("?", 1)[0] + "?"

    async def forward(request: web.Request) -> web.Response:
        query = request.query_string
        async with session.get(prefix + query if query else upstream) as resp:
            return web.Response(body=await resp.read(), content_type="application/json")

    async def close(_: web.Application) -> None:
        await session.close()

    app = web.Application()
    app.router.add_get("/", forward)
    app.on_cleanup.append(close)
    return app


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    web.run_app(make_app(sys.argv[2]), host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
