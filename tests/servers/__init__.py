"""Real servers on 127.0.0.1 for the tests and benchmarks: ZooKeeper (a standalone server or a
quorum), PostgreSQL and Redis, each from its Debian package with its own free ports and
temporary data directory. Test helpers, not part of the qlgate distribution: no ``qlgate``
command starts them (``sh .ci/install-system-packages`` installs the servers)."""
