"""``qlgate import openapi SPEC --name PREFIX --out DIR [--force]``: tables from an
OpenAPI 3.x or Swagger 2 document (``qlgate/openapi``).

Prints, as JSON on stdout, the tables and files written and the config to add
(the spec's server behind ``tables.<PREFIX>.baseUrl``, the ``auth`` entry its
security scheme needs); files that would change are refused without ``--force``.
"""

from __future__ import annotations

import argparse
import json
import sys

from .report import EXIT_FAILURE

DESCRIPTION = """Write one table per operation of an API spec. 'qlgate import openapi
SPEC.(json|yaml) --name PREFIX --out DIR' writes DIR/<operation>.ql (table
PREFIX.<operationId>), a JSON body template DIR/<operation>.j2 where the operation
takes one, and the shared patch DIR/<prefix>.py, then prints the config to add
(tables.PREFIX.baseUrl, and an auth entry PREFIX when the spec uses OAuth2 or
bearer tokens). Existing files that would change need --force."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="format", required=True)
    openapi = sub.add_parser("openapi", help="an OpenAPI 3.x or Swagger 2 document", description=DESCRIPTION)
    openapi.add_argument("spec", help="the spec file (.json, .yaml or .yml)")
    openapi.add_argument("--name", required=True, help="the tables' name prefix (acme.pets → acme.pets.listPets)")
    openapi.add_argument("--out", required=True, help="the directory to write the tables into")
    openapi.add_argument("--force", action="store_true", help="overwrite files that would change")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import QlError
    from ..openapi.importer import import_file
    from ..openapi.schemas import SpecError
    from .arguments import UsageError

    if not Path(args.spec).is_file():
        raise UsageError(f"no spec file {args.spec}")  # the command line's mistake: exit 2
    try:
        imported, written = import_file(args.spec, args.name, args.out, force=args.force)
    except SpecError as e:
        raise QlError(str(e), status=400) from None
    if written.refused:
        shown = ", ".join(written.refused[:5]) + (" …" if len(written.refused) > 5 else "")
        raise QlError(f"{len(written.refused)} file(s) in {args.out} would change ({shown}): add --force", status=409)
    result = {
        "tables": imported.tables,
        "written": written.written,
        "unchanged": len(written.unchanged),
        "config": imported.config,
    }
    print(json.dumps(result, indent=2, ensure_ascii=False))
    for warning in imported.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(
        f"{len(imported.tables)} tables in {args.out}; add the 'config' above to your config file",
        file=sys.stderr,
    )
    return 0 if not written.refused else EXIT_FAILURE
