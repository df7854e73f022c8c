"""The job backend: heavy scripts run as jobs by workers, throttled by
cluster-wide per-type limits, coordinated through ZooKeeper (kazoo)."""
