"""`cass ci`: the pull-request gate over the HIP mirrors (front end of cass.models.workflow.gate)."""

from __future__ import annotations

from pathlib import Path

import typer
from cass.runner.diagnostics import CassError
from cass.runner.outputs import check_output, write_atomic

EXIT_CODES = {
    0: "every pair checked is current (and verified, with --verify)",
    1: "findings: a mirror is missing, stale, hand-edited without a mark, or the port mismatches"
    " (with --require-verified also: a pair not verified here, e.g. a stale NVIDIA reference)",
    2: "usage: bad option, bad config, not a git repository, base not found",
    3: "internal error in cass",
}


def register(app: typer.Typer) -> None:
    from cass.models.workflow.report import FORMATS

    codes = "; ".join(f"{code}: {what}" for code, what in EXIT_CODES.items())

    @app.command(
        help="Check the HIP mirrors a pull request touches (--base REF) or all of them "
        f"(--all): present, current, not hand-edited unmarked, verified. Exit codes: "
        f"{codes}."
    )
    def ci(
        base: str | None = typer.Option(
            None,
            "--base",
            help="check files changed since the merge base with this ref (e.g. origin/main)",
        ),
        everything: bool = typer.Option(False, "--all", help="check every tracked CUDA source"),
        fmt: str = typer.Option("text", "--format", help=f"one of {', '.join(FORMATS)}"),
        output: Path | None = typer.Option(
            None, "--output", "-o", help="write the report here (default: stdout)"
        ),
        verify: bool | None = typer.Option(
            None,
            "--verify/--no-verify",
            help="run and compare each pair (default: the verify key of tool.cass.mirror, true)",
        ),
        strict: bool = typer.Option(
            False,
            "--require-verified",
            "--strict",
            help="run every "
            "pair (implies --verify) and fail each one not verified "
            "here: a stale or missing NVIDIA reference, no backend",
        ),
        jobs: int | None = typer.Option(None, "--jobs", "-j", help="pairs checked at once"),
        repo: Path = typer.Option(Path("."), "--repo", help="the repository (default: here)"),
        force: bool = typer.Option(False, "--force", help="overwrite an existing --output file"),
    ) -> None:
        from cass.models.workflow.gate import gate
        from cass.models.workflow.report import render

        if fmt not in FORMATS:
            raise CassError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
        if output is not None:
            check_output(output, force=force)
        report = gate(
            repo.resolve(),
            base=base,
            everything=everything,
            verify=verify,
            strict=strict,
            jobs=jobs,
        )
        text = render(report, fmt)
        if output is None:
            typer.echo(text, nl=False)
        else:
            write_atomic(output, text)
            typer.echo(f"cass ci: report written to {output}", err=True)
        if fmt != "text" or output is not None:
            if report.unverified_line():
                typer.echo(report.unverified_line(), err=True)
            if report.failed:
                typer.echo(
                    f"cass ci: FAILED ({sum(o.failed for o in report.outcomes)} pair(s))", err=True
                )
        raise typer.Exit(1 if report.failed else 0)
