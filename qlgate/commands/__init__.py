"""The ``qlgate`` commands: those that work on a deployment's workspace (``run``,
``check``, ``tables``, ``describe``), the job cluster's (``jobs``, and the
``worker`` and ``limiter`` processes: ``daemons.py``), and the options every
command shares. The registry that names all commands is ``qlgate/cli.py``;
``serve`` is the gateway's own (``server/serve.py``).
"""
