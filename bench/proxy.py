"""The one-hop floor: a minimal aiohttp proxy that forwards GET / to one URL.

python bench/proxy.py PORT UPSTREAM_URL
"""

import sys

import aiohttp
from aiohttp import web


async def make_app(upstream: str) -> web.Application:
    session = aiohttp.ClientSession()

    async def forward(request: web.Request) -> web.Response:
        async with session.get(upstream) as resp:
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
