"""Which OAuth2 credentials a caller's script may use through the deployer's tables.

A deployer's table that says ``using auth 'ebay.user'`` (or a patch that asks for
``ctx.access_token("ebay.user")``) acts with that credential for whoever runs it. The
deployer's own scripts (routes, ``qlgate run``) may use any; a caller's script (``/q``,
a job submitted over HTTP) only the entries config ``gateway.adhoc.credentials``
lists — by default those of type ``oauth2-client-credentials``: an application token
acts as the application, on public data, where a user's token (``oauth2-refresh-token``)
acts as that user, on their account.

The policy travels in the caller's ``Trust`` (``qlgate.trust``); the engine asks it
each time a caller's run asks for a token, and at compile time for the tables a
caller's statements name.
"""

from __future__ import annotations

from ..config_values import ConfigView
from ..errors import ConfigError, QlError
from .entries import CLIENT_CREDENTIALS

SETTING = "gateway.adhoc.credentials"


class CredentialNotAllowed(QlError):
    """A caller's script asked, through a deployer's table, for the token of a config
    ``auth`` entry that ``gateway.adhoc.credentials`` does not list."""

    status = 403


def adhoc_credentials(config: ConfigView) -> tuple[str, ...]:
    """``gateway.adhoc.credentials``, or by default the names of the config ``auth``
    entries of type ``oauth2-client-credentials``."""
    listed = config.strings(SETTING)
    if listed is not None:
        if not all(listed):
            raise ConfigError(f"config {SETTING} must list config auth entry names, not an empty one", path=SETTING)
        return tuple(sorted(set(listed)))
    # ``auth`` is checked where an entry is used (``entries.py``): one that is not an
    # object names no credential here, and stops no gateway
    entries = config.data.get("auth")
    if not isinstance(entries, dict):
        return ()
    return tuple(
        sorted(
            str(name)
            for name, entry in entries.items()
            if isinstance(entry, dict) and entry.get("type") == CLIENT_CREDENTIALS
        )
    )


def credential_refused(name: str, table: str | None = None, line: int | None = None) -> CredentialNotAllowed:
    through = f" (through table {table})" if table else ""
    return CredentialNotAllowed(
        f"ad-hoc scripts may not use the credentials of config auth entry '{name}'{through}: "
        f"it is not listed in {SETTING} (by default only oauth2-client-credentials entries are; "
        "a user's token acts as that user)",
        line=line,
        entry=name,
        setting=SETTING,
    )
