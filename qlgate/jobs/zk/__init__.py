"""The job backend on ZooKeeper: every decision is one transaction over znodes,
so any process can die at any moment and the cluster state stays whole."""
