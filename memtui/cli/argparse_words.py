"""argparse's own words ("usage:", "positional arguments", its error texts), marked for
memtui's catalogue: argparse looks them up through its module's `_` and `ngettext`,
which memtui.cli.language points at the catalogue. The user-facing ones of Python
3.11-3.13 (tests/test_i18n_cli.py checks the running Python's against this list);
a programmer's error (a parser built wrong) stays English."""

from memtui.i18n import N_, ngettext

WORDS = (
    N_("usage: "),
    N_("%(heading)s:"),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_(" (default: %(default)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_('argument "-" with mode %r'),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)


def expected(n: int) -> str:
    """The one plural argparse asks for (nargs=N given fewer)."""
    return ngettext("expected %s argument", "expected %s arguments", n)
