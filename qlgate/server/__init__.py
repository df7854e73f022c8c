"""The HTTP gateway: one server for every endpoint, one job a module.

- ``server.py`` listens and admits connections, ``connection.py`` reads HTTP/1.1
  and answers each connection's requests in order, ``limits.py`` holds what a
  connection may take (deadlines, head bytes); ``request.py`` and ``response.py``
  are the gateway's own request and answer types.
- ``pipeline.py`` is what every request passes through (its id, ``router.py``,
  ``auth.py``, the error shape, compression, the access log of ``accesslog.py``
  written through ``logsink.py``).
- ``scripts.py`` (``/q`` and routes), ``describe.py``, ``jobs_api.py`` and
  ``console.py`` answer; ``methods.py`` answers what nothing else takes (404, 405).
- ``gateway.py`` holds the services every handler reads, ``app.py`` assembles
  them, ``startup.py`` runs one gateway process and ``banner.py`` says what it
  serves, ``process.py`` supervises several, and ``serve.py`` is the ``qlgate
  serve`` command, after ``listen.py`` has checked that its port is free."""
