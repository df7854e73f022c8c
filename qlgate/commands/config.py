"""``qlgate config check`` and ``qlgate config show``: a deployer's view of a
config file before a gateway is started with it — every problem at once, each
naming its JSON path (``check``), and the document as the gateway reads it,
defaults filled in and secrets masked (``show``). The declared keys are in
``qlgate/config_keys.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import QlError
from .arguments import UsageError
from .report import EXIT_FAILURE

DESCRIPTION = """Check a config file, or show it as the gateway reads it. The
file is --config FILE, else config/dev.json. "check" lists every problem — a
key of the wrong type, an unknown key (with a suggestion for a near miss), a
setting its reader refuses — as FILE: PATH: MESSAGE and exits 1 when there is
one. "show" prints the document with ${NAME} variables substituted, every
declared default filled in and secrets masked. docs/configuration.md lists the
keys."""

EXAMPLES = """examples:
  qlgate config check --config config/prod.json
  qlgate config show"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="config_command", required=True, metavar="{check,show}")
    check_parser = sub.add_parser("check", help="list every problem of a config file; exit 1 if there is one")
    show_parser = sub.add_parser("show", help="print the config as read: defaults filled in, secrets masked")
    for each in (check_parser, show_parser):
        each.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")


def run(args: argparse.Namespace) -> int:
    return check(args) if args.config_command == "check" else show(args)


def _file(args: argparse.Namespace) -> Path | None:
    from ..workspace import default_config

    given = default_config(args.config)
    return Path(given) if given is not None else None


def check(args: argparse.Namespace) -> int:
    from ..config import located, read_document, substituted
    from ..config_schema import validate

    file = _file(args)
    if file is None:
        raise UsageError("no config file: config/dev.json does not exist (give --config FILE)")
    if not file.is_file():
        raise UsageError(f"no config file {file}")  # the command line's mistake (exit 2), as for show
    try:
        data, secrets = substituted(read_document(file))
    except QlError as error:  # unreadable, not JSON, not an object: the file's problem
        print(error.message)
        print(f"{file}: 1 error", file=sys.stderr)
        return EXIT_FAILURE
    text = file.read_text(encoding="utf-8")
    found = validate(data, deep=True, secrets=secrets.values)
    problems = [f"{file}{located(problem, file, text)}: {problem}" for problem in found]
    if not problems:  # the types are right: what each setting's own reader says of its values
        problems = [f"{file}: {secrets.mask(message)}" for message in readers_refuse(data)]
    for problem in problems:
        print(problem)
    print(f"{file}: {len(problems)} error(s)" if problems else f"{file}: ok", file=sys.stderr)
    return EXIT_FAILURE if problems else 0


def readers_refuse(data: dict[str, Any]) -> list[str]:
    """The messages of the settings readers that refuse ``data`` (well typed, but a
    value out of what they take: a proxy URL without a host, a Redis URL of another
    scheme, an API key too short…), each read as the gateway reads it at start-up."""
    from ..cache.settings import CacheSettings
    from ..config import Config
    from ..ebay.environments import environment_of
    from ..engine.backoff import BackoffSettings
    from ..jobs.cluster import cluster_settings
    from ..limits.api_types import ApiTypes
    from ..server.auth import Gatekeeper
    from ..server.policy import GatewayPolicy
    from ..trust import Trust

    config = None
    try:
        config = Config.from_dict(data, env={})
    except QlError as error:
        return [error.message]
    view = config.view
    readers: list[Callable[[], Any]] = [
        lambda: CacheSettings.from_config(view),
        lambda: BackoffSettings.from_config(view),
        lambda: ApiTypes.from_config(view),
        lambda: GatewayPolicy.from_config(view),
        lambda: Gatekeeper.from_config(view),
        lambda: Trust.for_callers(view, ()),
        lambda: cluster_settings(config),
        lambda: environment_of(view) if "ebay" in data else None,
    ]
    refused = []
    for read in readers:
        try:
            read()
        except QlError as error:
            refused.append(error.message)
    return refused


def show(args: argparse.Namespace) -> int:
    from ..config import Config
    from ..config_schema import effective

    file = _file(args)
    config = Config.load(file)
    shown = config.secrets.mask_value(effective(config.data))
    print(json.dumps(shown, indent=2, ensure_ascii=False))
    return 0
