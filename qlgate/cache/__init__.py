"""The response cache and request coalescing between the engine and partner APIs
(spec §10.9, issue 17): keys (``keys.py``), what may be stored (``policy.py``),
the in-process LRU (``memory.py``) and Redis (``redis_backend.py``) backends,
single flight (``flight.py``) and the facade the engine sends through
(``responses.py``).
"""
