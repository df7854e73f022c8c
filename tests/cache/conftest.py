"""A real ``redis-server`` (Debian's package) on a free port in a temp dir
(``tests/servers/redis.py``), one per test."""

import pytest

from tests.servers.redis import LocalRedis, redis_binary


@pytest.fixture
def redis_server(tmp_path):
    if redis_binary() is None:
        pytest.skip("redis-server is not installed (sh .ci/install-system-packages)")
    server = LocalRedis(tmp_path / "redis").start()
    yield server
    server.stop()
