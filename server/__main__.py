"""`python -m cass.server [--tcp HOST:PORT] [--log-level LEVEL]`: the language server."""

from __future__ import annotations

import argparse
import sys

from cass.runner.diagnostics import CassError, WorkError
from cass.server.lsp import serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cass.server", description=__doc__)
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    parser.add_argument("--log-level", default="WARNING", help="stderr log level (default WARNING)")
    args = parser.parse_args(argv)
    try:
        serve(args.tcp, args.log_level)
    except CassError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1 if isinstance(exc, WorkError) else 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
