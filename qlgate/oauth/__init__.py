"""OAuth2 credentials as a table feature: a table says ``using auth 'NAME'`` and its
requests carry a bearer token obtained for the config ``auth`` entry NAME.

One job per module: ``entries`` reads and checks the config entries, ``tokens``
says how long a token is good for, ``client`` asks a token endpoint for one,
``store`` shares tokens between the processes of one gateway on disk,
``manager`` puts them together (cache, single flight, renewal after a 401 that
says the token was refused), ``rejection`` recognises such a 401, and ``login``
runs the authorization-code flow behind ``qlgate auth login``.
"""
