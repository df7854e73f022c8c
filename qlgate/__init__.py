"""qlgate: a query gateway for marketplace APIs, successor of eBay's ql.io."""

from ._version import __version__
from .errors import QlError, QlSyntaxError  # noqa: E402
from .values import MISSING  # noqa: E402

__all__ = ["__version__", "Engine", "QlError", "QlSyntaxError", "MISSING"]


def __getattr__(name: str):
    # Engine pulls in aiohttp and lark; import it lazily so `import qlgate` stays cheap
    if name == "Engine":
        from .engine.engine import Engine
        return Engine
    raise AttributeError(name)
