"""The HTTP gateway, one job a module: ``app.py`` assembles it, ``handlers.py``
and ``jobs_api.py`` answer, ``middleware.py`` (with ``auth.py``, ``policy.py``)
guards and shapes every answer, ``startup.py`` runs one gateway process,
``process.py`` supervises several, and ``serve.py`` is the ``qlgate serve``
command that picks between them."""
