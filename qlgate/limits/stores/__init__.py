"""Where the limits are counted: in memory (one process), in the host's SQLite
file (the embedded job backend's; ``host``), or in ZooKeeper across a cluster
(``zk_rates``, ``zk_units``, on the nodes ``zk_nodes`` names)."""
