"""How much of what HIPIFY maps does cass map? Family by family, from the committed facts.

    .venv/bin/python benchmarks/hipify_coverage.py [--hip-version 6.2]

For every CUDA name in models/rules/tables/facts/hipify_<family>.tsv (HIPIFY's published tables,
rows with a HIP name): `cass maps` (renamed or rewritten for some HIP version), `for the target`
(available for --hip-version, default 5.2), `header-checked` (a header declares the HIP name:
Debian's HIP 5.2 headers, rocm-api-headers, or a facts file of a later AMD header), `same name`
(cass writes the HIP name HIPIFY writes), `reported` (cass reports it instead: a reason is in the
table). The cuSPARSE facts list only what the hipSPARSE 5.2 header cannot give cass (see the file).
"""

from __future__ import annotations

import argparse

from cass.models.rules.hipify_facts import hipify_mappings
from cass.models.rules.tables import all_entries, parse_version
from rich.console import Console
from rich.table import Table

FAMILIES = ("runtime", "driver", "types", "device", "cublas", "curand", "cusparse", "cusolver")
COLUMNS = ("family", "HIPIFY maps", "cass maps", "for the target", "header-checked")


def coverage(hip_version: str) -> list[tuple[str, int, int, int, int, int, int]]:
    entries = {}
    for e in all_entries():
        if e.family not in ("headers", "cooperative_groups"):
            entries.setdefault(e.cuda, e)
    rows = []
    for family in FAMILIES:
        facts = hipify_mappings(family)
        found = [(entries.get(cuda), hip) for cuda, hip, _ in facts]
        mapped = [(e, hip) for e, hip in found if e is not None and e.status != "unsupported"]
        target = sum(1 for e, _ in mapped if e.available_in(hip_version))
        checked = sum(1 for e, _ in mapped if not e.checked.startswith("no header"))
        same = sum(1 for e, hip in mapped if e.hip == hip)
        rows.append(
            (family, len(facts), len(mapped), target, checked, same, len(facts) - len(mapped))
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hip-version", default="5.2", help="the target HIP version (5.2)")
    args = parser.parse_args(argv)
    try:
        parse_version(args.hip_version)
    except ValueError as exc:
        print(f"--hip-version: {exc}")
        return 2
    table = Table(title=f"names HIPIFY maps, cass's rows (target HIP {args.hip_version})")
    for column in (*COLUMNS, "same name", "reported"):
        table.add_column(column, justify="left" if column == "family" else "right")
    for row in coverage(args.hip_version):
        table.add_row(*(str(cell) for cell in row))
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
