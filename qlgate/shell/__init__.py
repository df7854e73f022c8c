"""``qlgate shell``: an interactive session on one workspace, like psql's.

Split by job: ``split`` finds where statements end (``;`` outside strings,
comments and brackets), ``session`` runs them on one engine and keeps the
variables and tables they define, ``output`` shows values as JSON or a table,
``meta`` answers the dot-commands, ``completion`` and ``lexer`` serve the
prompt, and ``app`` holds the prompt loop and the piped (no prompt) mode.

Everything here imports prompt_toolkit or the engine, so the command module
(``commands/shell.py``) imports this package only when the shell starts.
"""
