"""The child process of `cass.server.lsp.jobs`: reads one pickled call on stdin, runs it, writes
one pickled reply on stdout. Anything the work prints goes to stderr, never into the reply."""

from __future__ import annotations

import importlib
import pickle
import sys
import traceback

from cass.runner.diagnostics import CassError


def main() -> int:
    reply_channel = sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        target, args = pickle.loads(sys.stdin.buffer.read())
        module_name, _, function_name = target.partition(":")
        function = getattr(importlib.import_module(module_name), function_name)
        reply = ("ok", function(*args))
    except CassError as exc:
        reply = ("cass-error", exc.message)
    except Exception as exc:  # reported to the editor as a message, with the traceback on stderr
        traceback.print_exc()
        reply = ("error", f"{type(exc).__name__}: {exc}")
    reply_channel.write(pickle.dumps(reply))
    reply_channel.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
