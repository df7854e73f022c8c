"""``qlgate completion bash|zsh``: a shell completion script made from the
command's own argparse parser, so it never lags behind a new command or option.

The script holds the parser as a few ``case`` tables — the subcommands of each
command path (``""``, ``jobs``, ``jobs submit``…), the options of each, which
options take a value and which values they accept (``--format``, ``--state``) —
and one function that walks the words typed so far to find the path, then
offers subcommands, options, an option's choices or file names. No dependency
and nothing to run at completion time: the shell never starts Python on TAB.

``walk`` (every parser with its command path) is also what ``cli.py`` uses to
give every parser, nested ones included, the same help formatter. Standard
library only, like every command module.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator

DESCRIPTION = """Print a completion script for bash or zsh, made from this
command's parser: subcommands (jobs submit, auth login…), their options and the
values an option accepts (--format, --state), file names elsewhere. Load it in
the current shell, or install it once (bash: a file in
~/.local/share/bash-completion/completions/qlgate; zsh: a file _qlgate in a
directory of $fpath, before compinit)."""

EXAMPLES = """examples:
  source <(qlgate completion bash)
  qlgate completion bash > ~/.local/share/bash-completion/completions/qlgate
  qlgate completion zsh > "${fpath[1]}/_qlgate"    # zsh, then a new shell"""

SHELLS = ("bash", "zsh")

_SAFE = r"[A-Za-z0-9_.:/+@%=,-]+"  # a word no shell misreads inside double quotes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Print the script for ``args.shell`` made from ``parser`` (``cli.py`` passes its own: this
    module does not import it back)."""
    sys.stdout.write(script(parser, args.shell))
    sys.stdout.flush()
    return 0


def walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """``parser`` and every subcommand's parser below it, each with its command path."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, (*path, name))


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (bash or zsh)."""
    tables = _tables(parser)
    return (_BASH if shell == "bash" else _ZSH).replace("@TABLES@", tables).replace("@PROG@", parser.prog)


def _tables(parser: argparse.ArgumentParser) -> str:
    """The shell functions that answer for the parser: subcommands, options, values."""
    subcommands: dict[str, list[str]] = {}
    options: dict[str, list[str]] = {}
    takes_value: list[str] = []
    choices: dict[str, list[str]] = {}
    for path, each in walk(parser):
        key = " ".join(path)
        for action in each._actions:
            if isinstance(action, argparse._SubParsersAction):
                subcommands[key] = [str(name) for name in action.choices]
            elif action.option_strings:
                if action.help == argparse.SUPPRESS:
                    continue
                options.setdefault(key, []).extend(action.option_strings)
                if action.nargs != 0:
                    for option in action.option_strings:
                        takes_value.append(f"{key} {option}".strip())
                        if action.choices is not None:
                            choices[f"{key} {option}".strip()] = [str(c) for c in action.choices]
            elif action.choices is not None and key not in choices:
                choices[key] = [str(c) for c in action.choices]  # a positional's values
    return "\n".join(
        [
            _case("_@PROG@_subcommands", subcommands),
            _case("_@PROG@_options", options),
            _case("_@PROG@_choices", choices),
            '_@PROG@_takes_value() {\n    case "$1" in\n'
            + "".join(
                f'        "{key}") return 0 ;;\n' for key in takes_value if re.fullmatch(_SAFE, key.replace(" ", ""))
            )
            + "    esac\n    return 1\n}",
        ]
    )


def _case(name: str, table: dict[str, list[str]]) -> str:
    """A shell function printing the words of its argument's row (words a shell could misread are left out)."""
    rows = []
    for key, words in table.items():
        if key and not re.fullmatch(_SAFE, key.replace(" ", "")):
            continue
        safe = " ".join(word for word in words if re.fullmatch(_SAFE, word))
        rows.append(f'        "{key}") echo "{safe}" ;;\n')
    return f'{name}() {{\n    case "$1" in\n{"".join(rows)}    esac\n}}'


_WALK = """    where=""
    skip=""
    for ((i = @FIRST@; i < @CURRENT@; i++)); do
        word="${@WORDS@[i]}"
        if [[ -n "$skip" ]]; then skip=""; continue; fi
        if [[ "$word" == -* ]]; then
            if _@PROG@_takes_value "${where:+$where }$word"; then skip=1; fi
            continue
        fi
        case " $(_@PROG@_subcommands "$where") " in
            *" $word "*) where="${where:+$where }$word" ;;
        esac
    done
"""

_BASH = (
    """# bash completion for @PROG@ (`@PROG@ completion bash`); made from its parser
@TABLES@

_@PROG@() {
    local cur prev where word i skip values
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
"""
    + _WALK.replace("@FIRST@", "1").replace("@CURRENT@", "COMP_CWORD").replace("@WORDS@", "COMP_WORDS")
    + """    COMPREPLY=()
    if [[ "$prev" == -* ]] && _@PROG@_takes_value "${where:+$where }$prev"; then
        values="$(_@PROG@_choices "${where:+$where }$prev")"
        if [[ -n "$values" ]]; then
            COMPREPLY=($(compgen -W "$values" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
    elif [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_@PROG@_options "$where")" -- "$cur"))
    else
        values="$(_@PROG@_subcommands "$where") $(_@PROG@_choices "$where")"
        if [[ -n "${values// /}" ]]; then
            COMPREPLY=($(compgen -W "$values" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
    fi
    return 0
}
complete -o filenames -F _@PROG@ @PROG@
"""
)

_ZSH = (
    """#compdef @PROG@
# zsh completion for @PROG@ (`@PROG@ completion zsh`); made from its parser
@TABLES@

_@PROG@() {
    local cur prev where word i skip values
    cur="${words[CURRENT]}"
    prev="${words[CURRENT-1]}"
"""
    + _WALK.replace("@FIRST@", "2").replace("@CURRENT@", "CURRENT").replace("@WORDS@", "words")
    + """    if [[ "$prev" == -* ]] && _@PROG@_takes_value "${where:+$where }$prev"; then
        values="$(_@PROG@_choices "${where:+$where }$prev")"
        if [[ -n "$values" ]]; then compadd -- ${=values}; else _files; fi
    elif [[ "$cur" == -* ]]; then
        values="$(_@PROG@_options "$where")"
        compadd -- ${=values}
    else
        values="$(_@PROG@_subcommands "$where") $(_@PROG@_choices "$where")"
        if [[ -n "${values// /}" ]]; then compadd -- ${=values}; else _files; fi
    fi
}

if [[ "${funcstack[1]}" == "_@PROG@" ]]; then
    _@PROG@ "$@"
else
    compdef _@PROG@ @PROG@
fi
"""
)
