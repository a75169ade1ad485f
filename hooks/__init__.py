"""cass.hooks: pre-commit hooks (mirror ports, verify) and the CI gate.

One module per hook, each a pure worker plus `main(argv=None) -> int` (a console script):
`port` (cass-port), `verify` (cass-verify), `check` (cass-check); `ci.gate()` is the CI gate
behind `cass ci`, `report` renders it (text, JSON, JUnit, SARIF). Shared parts: `repo` (git
state), `pairs` (file names -> source/mirror pairs), `translate` (engine and runner calls),
`work` (outcomes, worker processes, exit codes: 0 ok, 1 wrote or found something, 2 usage,
3 internal error). Mirror rules and headers live in `cass.models.mirror`.
"""
