"""A real ZooKeeper (Debian's package) for the job backend's tests: one server
for the session, and for each test a client rooted in a fresh namespace."""

from __future__ import annotations

import uuid

import pytest
from kazoo.client import KazooClient

from qlgate.jobs.zkserver import LocalZooKeeper


@pytest.fixture(scope="session")
def zookeeper():
    server = LocalZooKeeper().start()
    yield server
    server.close()


@pytest.fixture
def zk_hosts(zookeeper) -> str:
    """Connection string of a namespace of its own (a chroot), so tests never meet."""
    root = KazooClient(zookeeper.hosts)
    root.start(10)
    namespace = f"/test-{uuid.uuid4().hex[:12]}"
    root.ensure_path(namespace)
    root.stop()
    root.close()
    return zookeeper.hosts + namespace


@pytest.fixture
def zk(zk_hosts):
    client = KazooClient(zk_hosts)
    client.start(10)
    yield client
    client.stop()
    client.close()
