"""cass.hooks: pre-commit hooks (mirror ports, verify, check).

One module per hook, each `main(argv=None) -> int` (a console script) over a worker in
`cass.models.workflow`: `port` (cass-port, `workflow.mirroring`), `verify` (cass-verify) and
`check` (cass-check, both `workflow.checks`). `work` holds what the hooks share at the edge:
printing findings and exit codes (0 ok, 1 wrote or found something, 2 usage, 3 internal error).
The CI gate (`cass ci`) is `cass.models.workflow.gate`.
"""
