"""Deployer JavaScript in a sandbox: ql.io's EJS body templates and CommonJS patch
modules run as they are (issue 30), in QuickJS contexts that reach nothing of the
host. ``sandbox.py`` holds the contexts and their limits, ``ejs.py`` compiles EJS
to JavaScript, ``errors.py`` the typed errors; the tables layer uses them
(``tables/js_patches.py``, ``tables/bodies.py``)."""
