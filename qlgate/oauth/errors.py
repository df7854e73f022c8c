"""The typed errors of OAuth2 credentials. Every message names the config ``auth``
entry and, for a bad entry, the key; none ever holds a secret or a token."""

from __future__ import annotations

from ..errors import ConfigError, StatementError


class AuthConfigError(ConfigError):
    """A config ``auth`` entry a table names is missing or malformed: the deployment's
    mistake, not the caller's, hence 500 when a gateway request meets it."""

    status = 500


class TokenRequestFailed(StatementError):
    """The token endpoint could not be reached or refused to issue a token: 502, or
    401 when it refused the credentials themselves (``invalid_client``,
    ``invalid_grant``: a secret or a refresh token that is wrong or revoked)."""

    status = 502
