"""Task files: every shipped task is well formed; bad tasks are reported with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.bench.catalog import DOMAINS, FEATURES
from cass.models.bench.tasks import TASKS_ROOT, coverage, discover_tasks, task_dirs, validate_task
from cass.runner.diagnostics import CassError

SHIPPED = task_dirs(TASKS_ROOT)


@pytest.mark.parametrize("folder", SHIPPED, ids=[f"{p.parent.name}/{p.name}" for p in SHIPPED])
def test_every_shipped_task_is_well_formed(folder: Path) -> None:
    assert [p.render() for p in validate_task(folder)] == []


def test_the_shipped_tasks_cover_many_domains_and_features() -> None:
    tasks = discover_tasks()
    per_domain, per_feature = coverage(tasks)
    assert len(tasks) >= 50
    assert len(per_domain) >= 6 and set(per_domain) <= set(DOMAINS)
    used = {f for f, n in per_feature.items() if n}
    assert len(used) >= 30 and used <= FEATURES


def test_discover_filters_by_domain_and_glob(tasks_root: Path, make_task) -> None:
    write_task = make_task
    write_task(tasks_root, "sorting", "radix_a")
    write_task(tasks_root, "sorting", "merge_b")
    write_task(tasks_root, "statistics", "radix_c")
    assert [t.ident for t in discover_tasks(tasks_root, domains=["sorting"])] == [
        "sorting/merge_b",
        "sorting/radix_a",
    ]
    assert [t.ident for t in discover_tasks(tasks_root, pattern="radix*")] == [
        "sorting/radix_a",
        "statistics/radix_c",
    ]
    assert [t.ident for t in discover_tasks(tasks_root, pattern="statistics/*")] == [
        "statistics/radix_c"
    ]


def test_an_unknown_domain_filter_is_a_clear_error(tasks_root: Path) -> None:
    with pytest.raises(CassError, match="unknown domain.*sortng"):
        discover_tasks(tasks_root, domains=["sortng"])


BAD_META = [  # (replace this, with this, expected message part, expected line in task.toml)
    ('name = "t"', 'name = "other"', "differs from the folder name", 1),
    ('domain = "sorting"', 'domain = "cooking"', "unknown domain 'cooking'", 2),
    ('features = ["multi_kernel"]', 'features = ["telepathy"]', "unknown feature 'telepathy'", 4),
    ("libraries = []", 'libraries = ["mkl"]', "unknown librarie 'mkl'", 5),
    ("rtol = 1e-5", 'rtol = "tight"', "rtol", 9),
    ('description = "squares summed"\n', "", "missing key `description`", 1),
    ("timeout_s = 120", "timeout_s = 120\nflavour = 1", "not used by tasks", 9),
]


@pytest.mark.parametrize(("old", "new", "message", "line"), BAD_META)
def test_bad_metadata_is_located(
    tasks_root: Path, make_task, old: str, new: str, message: str, line: int
) -> None:
    folder = make_task(tasks_root, "sorting", "t")
    meta = folder / "task.toml"
    meta.write_text(meta.read_text().replace(old, new))
    problems = validate_task(folder)
    assert any(message in p.message and p.path == meta for p in problems), [
        p.render() for p in problems
    ]
    if line > 1:
        assert any(p.line == line for p in problems), [p.render() for p in problems]


def test_invalid_toml_names_its_line(tasks_root: Path, make_task) -> None:
    folder = make_task(tasks_root, "sorting", "t")
    (folder / "task.toml").write_text('name = "t"\ndomain = \n')
    [problem] = validate_task(folder)
    assert problem.line == 2 and "not valid TOML" in problem.message


BAD_SOURCE = [  # (replace this, with this, expected message part)
    (
        'printf(ok ? "CHECK PASS\\n" : "CHECK FAIL\\n");',
        'printf("done\\n");',
        "never prints `CHECK PASS`",
    ),
    ("const int n = 256;", "const int n = rand() % 256;", "uses rand()"),
    ("long long sum = 0;", "long long sum = time(NULL) * 0;", "reads the clock"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD_SOURCE)
def test_bad_sources_are_reported(
    tasks_root: Path, make_task, tiny_source: str, old: str, new: str, message: str
) -> None:
    assert old in tiny_source
    source = tiny_source.replace(old, new) + "\n" * 60  # long enough to pass the size rule
    folder = make_task(tasks_root, "sorting", "t", source=source)
    problems = validate_task(folder)
    assert any(message in p.message for p in problems), [p.render() for p in problems]


def test_comments_do_not_trip_the_source_rules_and_size_is_checked(
    tasks_root: Path, make_task, tiny_source: str
) -> None:
    folder = make_task(tasks_root, "sorting", "t", source="// never rand()\n" + tiny_source)
    messages = [p.message for p in validate_task(folder)]
    assert not any("rand()" in m for m in messages)
    assert any("lines; a task's program has roughly 80-300" in m for m in messages)


def test_generated_family_tasks_are_up_to_date() -> None:
    from cass.models.bench.families import generate

    assert generate(check=True) == [], "run: cass bench families"


def test_families_render_into_a_fresh_root(tmp_path: Path) -> None:
    from cass.models.bench.families import FAMILIES, generate

    written = generate(tmp_path)
    assert len(written) == 2 * sum(len(f.variants) for f in FAMILIES.values())
    for folder in task_dirs(tmp_path):
        assert validate_task(folder) == []
        assert (folder / "main.cu").read_text().startswith("// Generated by")
