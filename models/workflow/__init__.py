"""cass.models.workflow: port -> verify -> mirror -> gate, the one flow every front end calls.

The hooks (`cass-port`, `cass-verify`, `cass-check`), the CLI (`cass port`, `cass verify`,
`cass ci`) and the language server all reach engines and the runner through these modules; no
front end re-implements the flow, and none imports another.

- `porting`: port one CUDA source with an engine, write the port, verify it (`port_and_verify`).
- `steps`: the two calls the mirror workflow makes: translate a source, verify a pair.
- `mirror`: the mirror config (`[tool.cass.mirror]`), mirror paths, the provenance header,
  classification (current / stale / hand-edited / conflict / foreign).
- `mirror_history`: the last generated text from git history, three-way merge, backups.
- `repo`: the git repository (root, state, changed and tracked files).
- `pairs`: file names -> (source, mirror) pairs.
- `outcomes`: per-pair outcomes and running pairs in worker processes.
- `mirroring`: (re)generate one mirror (translate, write, verify, merge hand edits).
- `checks`: read-only checks of one pair (state, conflict markers, recorded and fresh verdicts).
- `gate`: the CI gate over the pairs a change touches; `report` renders it (text, JSON, JUnit,
  SARIF).

Exit codes and argument parsing stay in the front ends.
"""
