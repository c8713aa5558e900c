"""`memtui serve`: the app in a browser, through textual-serve (the `web` extra).

textual-serve starts one app process per browser tab with a shell command; that process
has pipes, not a terminal, so it cannot be `memtui PATH` (which prints a summary without
a terminal): it is this module run as a program, which always starts the app.

The served app can change memory and textual-serve has no authentication, so it binds
to loopback unless --public says otherwise (and then warns).
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys
from typing import Any

from memtui.cli import CallError, Refused
from memtui.cli.output import line, warn
from memtui.i18n import _, language, use


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    p = verbs.add_parser("serve", parents=[store])
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("the address to listen on (default: 127.0.0.1, this machine only)"),
    )
    p.add_argument("--port", type=int, default=8000, help=_("the port (default: 8000)"))
    p.add_argument(
        "--public",
        action="store_true",
        help=_(
            "allow a host other than loopback: anyone who reaches it can change the "
            "memory (there is no authentication)"
        ),
    )
    p.add_argument(
        "--read-only", action="store_true", help=_("serve the app with changes disabled")
    )
    p.set_defaults(handler=run)


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: it may resolve anywhere
        return False


def run(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import store_root

    if not is_loopback(args.host) and not args.public:
        raise CallError(
            _(
                "--host {host} is not loopback: the served app can change memory and has "
                "no authentication. Add --public to serve it there anyway"
            ).format(host=args.host)
        )
    if not 0 < args.port < 65536:
        raise CallError(_("--port {port}: a port is 1-65535").format(port=args.port))
    if not is_loopback(args.host):
        warn(
            _(
                "serving on {host}: anyone who can reach port {port} can read and "
                "change this memory (no authentication)"
            ).format(host=args.host, port=args.port)
        )
    root = store_root(args.store)
    try:
        from textual_serve.server import Server
    except ImportError:
        raise Refused(
            _("memtui serve needs textual-serve: pip install 'memtui[web]'; nothing was started")
        ) from None
    # each tab's app is a process of its own: it is told the language this one speaks
    command = [sys.executable, "-m", "memtui.cli.serve_verb", root, "--lang", language()]
    if args.read_only:
        command.append("--read-only")
    line(
        _("serving {root} on {url} (Ctrl+C to stop)").format(
            root=root, url=f"http://{args.host}:{args.port}"
        )
    )
    sys.stdout.flush()
    Server(shlex.join(command), host=args.host, port=args.port, title="memtui").serve()
    return 0


def app_main(argv: list[str]) -> int:
    """One browser tab's app: `python -m memtui.cli.serve_verb ROOT [--read-only]`."""
    from memtui.ui.app import MemtuiApp

    p = argparse.ArgumentParser(prog="memtui-served-app")
    p.add_argument("root")
    p.add_argument("--read-only", action="store_true")
    p.add_argument("--lang", default="en")
    args = p.parse_args(argv)
    use(args.lang)
    MemtuiApp(args.root, read_only=args.read_only).run()
    return 0


if __name__ == "__main__":
    sys.exit(app_main(sys.argv[1:]))
