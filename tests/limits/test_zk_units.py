"""Calls in flight counted in ZooKeeper (``qlgate/limits/stores/zk_units.py``), on a real
server: two sessions share a limit, say what they want, and a session that ends
gives its units back."""

from qlgate.jobs.zk.session import zk_client
from qlgate.limits.inflight import Holding
from qlgate.limits.stores.zk_units import ZkUnits


def session(zk_hosts):
    client = zk_client(zk_hosts)
    client.start(10)
    return client


def test_two_sessions_share_a_limit_and_a_gone_session_frees_its_units(zk_hosts):
    first, second = session(zk_hosts), session(zk_hosts)
    try:
        a, b = ZkUnits(first), ZkUnits(second)
        assert a.hold("partner.a", 3, 3, 0) == Holding(3, 0)
        assert b.hold("partner.a", 3, 2, 0) == Holding(0, 0)  # none left: it is recorded as wanting two
        assert a.hold("partner.a", 3, 3, 0) == Holding(3, 1)  # the other one wants some
        assert a.hold("partner.a", 3, 1, 0) == Holding(1, 1)
        assert b.hold("partner.a", 3, 2, 0) == Holding(2, 0)
        assert a.in_use() == {"partner.a": 3}
        assert b.hold("partner.a", 3, 2, 0) == Holding(2, 0)  # asked again (a lost answer): still two
        assert a.in_use() == {"partner.a": 3}
        old_epoch = b.epoch
        second.stop()
        second.close()
        assert a.hold("partner.a", 3, 3, 0) == Holding(3, 0)  # its ephemeral count went with it
        second = session(zk_hosts)
        again = ZkUnits(second)
        assert again.epoch != old_epoch
        assert again.hold("partner.a", 3, 1, 1) == Holding(0, 0)
    finally:
        for client in (first, second):
            client.stop()
            client.close()


def test_limits_are_read_from_the_job_limiters_records_and_watched(zk_hosts):
    import time

    from qlgate.jobs.zk.client import ZkJobs

    client = session(zk_hosts)
    try:
        jobs = ZkJobs(client)
        units = ZkUnits(client)
        assert units.limit("partner.a") is None
        jobs.set_limit("partner.a", 4)
        deadline = time.monotonic() + 5
        while units.limit("partner.a") != 4:
            assert time.monotonic() < deadline, "the watch did not bring the new limit"
            time.sleep(0.02)
    finally:
        client.stop()
        client.close()
