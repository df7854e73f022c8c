"""qlgate's eBay emulator: a marketplace of 10,000 listings behind eBay's REST APIs
(with OAuth2) and the legacy Finding, Shopping and Trading APIs, on aiohttp. A
distribution of its own (``qlgate-ebay-emulator``), found by qlgate through the
entry point ``qlgate.emulators``/``ebay`` (``plugin.py``): ``qlgate sandbox``, and
``qlgate run``/``qlgate serve`` with no eBay credentials, start it when installed."""
