"""The HTTP gateway, one job a module: ``app.py`` assembles it, ``handlers.py``
and ``jobs_api.py`` answer, ``methods.py`` answers what nothing else takes (404,
405 with ``Allow``), ``middleware.py`` (with ``auth.py``, ``policy.py``) guards
and shapes every answer, ``protocol.py`` shapes the ones aiohttp gives before
the app sees a request, ``startup.py`` runs one gateway process and
``banner.py`` says what it serves, ``process.py`` supervises several, and
``serve.py`` is the ``qlgate serve`` command that picks between them, after
``listen.py`` has checked that its port is free."""
