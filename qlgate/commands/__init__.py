"""The ``qlgate`` commands that work on a deployment's workspace (``run``,
``check``, ``tables``, ``describe``) and the options every command shares. The
registry that names all commands is ``qlgate/cli.py``; commands that drive a
subsystem live beside it (``jobs/cli.py``, ``jobs/daemons.py``,
``server/serve.py``).
"""
