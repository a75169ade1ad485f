"""Does `cass port` port or report every CUDA API name? The name probe, library by library.

    .venv/bin/python benchmarks/probe_library_names.py [--hipify HIPIFY_CHECKOUT] [--json F]

One probe file uses each name once (`NAME(0);` a line); after the port each name is `ported`
(rewritten), `diagnosed` (a located diagnostic on its line) or `silent` (left as CUDA without a
word). Names: the CUDA runtime/driver headers here and the CUDA counterpart of every name the HIP
library headers declare (hipRAND, hipSPARSE, and hipBLAS/hipFFT/hipSOLVER when `cass setup
--rocm-api-headers` installed them). With `--hipify DIR` (a ROCm/HIPIFY checkout), also every
name HIPIFY's docs/tables map to a HIP name that these HIP 5.2 headers declare: the measure that
found 774 silent names before CASS082 and the library tables (3,424 names). The cuDNN names
HIPIFY lists (tables/facts/hipify_cudnn*.tsv) are probed too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cass.models.rules.cudnn import probe_names as cudnn_probe_names
from cass.models.rules.probe import header_probe, hipify_probe, run_probe
from cass.runner import rocm_api_headers
from rich.console import Console
from rich.table import Table


def _table(title: str, result) -> Table:
    table = Table(title=title)
    for column in ("library", "names", "ported", "diagnosed", "silent"):
        table.add_column(column, justify="left" if column == "library" else "right")
    for label, counts in result.counts.items():
        total = sum(counts.values())
        table.add_row(
            label,
            str(total),
            str(counts["ported"]),
            str(counts["diagnosed"]),
            str(counts["silent"]),
        )
    table.add_row(
        "all",
        str(sum(sum(c.values()) for c in result.counts.values())),
        *(str(result.total(o)) for o in ("ported", "diagnosed", "silent")),
    )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hipify", type=Path, help="a ROCm/HIPIFY checkout (docs/tables)")
    parser.add_argument("--json", type=Path, help="write the counts and silent names here")
    args = parser.parse_args(argv)
    console = Console()
    installed = rocm_api_headers.installed()
    api = installed.include_dir if installed else None
    if api is None:
        console.print(f"hipBLAS/hipFFT/hipSOLVER headers not installed: {rocm_api_headers.FIX}")
    probes = {"names from the CUDA and HIP headers here": header_probe(api_include=api)}
    # cuDNN: every name HIPIFY's cuDNN table lists (committed facts; MIOpen has no header here)
    probes["cuDNN names HIPIFY lists (tables/facts)"] = {"cuDNN": cudnn_probe_names()}
    if args.hipify:
        tables = args.hipify / "docs" / "tables"
        if not tables.is_dir():
            print(
                f"{args.hipify}: no docs/tables folder; give a ROCm/HIPIFY checkout",
                file=sys.stderr,
            )
            return 2
        probes["names HIPIFY maps to a HIP 5.2 name"] = hipify_probe(tables, api_include=api)
    report = {}
    for title, probe in probes.items():
        with console.status(f"porting the probe: {title}"):
            result = run_probe(probe)
        console.print(_table(title, result))
        for label, names in result.silent.items():
            console.print(f"silent {label}: {', '.join(names[:20])}", markup=False)
        report[title] = {"counts": {k: dict(v) for k, v in result.counts.items()},
                         "silent": result.silent}  # fmt: skip
    if args.json:
        from cass.runner.outputs import write_atomic

        write_atomic(args.json, json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
