"""Run specs: validation, the `// cass:` header, and config layering (real files in tmp dirs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.diagnostics import CassError
from cass.runner.spec import OutputFile, RunSpec, load_project_config, load_run_spec, parse_header


def test_defaults_follow_the_issue():
    spec = RunSpec()
    assert spec.args == () and spec.rtol == 1e-5 and spec.compare_stdout and spec.compare_exit_code


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"args": ["64", 3]}, {"args": ("64", "3")}),
        ({"args": "one"}, {"args": ("one",)}),
        ({"rtol": 1e-3, "atol": 0}, {"rtol": 1e-3, "atol": 0.0}),
        ({"env": {"N": 4}}, {"env": (("N", "4"),)}),
        (
            {"output_files": ["o.txt", "v.bin:f32"]},
            {"output_files": (OutputFile("o.txt"), OutputFile("v.bin", "f32"))},
        ),
        (
            {"output_files": [{"path": "r.bin", "format": "i64"}]},
            {"output_files": (OutputFile("r.bin", "i64"),)},
        ),
        ({"ignore_lines": ["^time"]}, {"ignore_lines": ("^time",)}),
        ({"runs": 5, "timeout_s": 2}, {"runs": 5, "timeout_s": 2.0}),
    ],
)
def test_from_mapping_converts(data, expected):
    spec = RunSpec.from_mapping(data)
    for key, value in expected.items():
        assert getattr(spec, key) == value


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"rtl": 1e-3}, "unknown run-spec key `rtl` (did you mean `rtol`?)"),
        ({"rtol": "small"}, "key `rtol`: expected a number"),
        ({"runs": 0}, "key `runs`: expected an integer >= 1"),
        ({"timeout_s": True}, "key `timeout_s`"),
        ({"ignore_lines": ["(unclosed"]}, "bad regular expression"),
        ({"output_files": [{"path": "x", "format": "f128"}]}, "format must be one of"),
        ({"env": ["A=1"]}, "key `env`: expected a table"),
        ({"compare_stdout": "yes"}, "expected true or false"),
    ],
)
def test_from_mapping_rejects_with_the_place(data, fragment):
    with pytest.raises(CassError) as info:
        RunSpec.from_mapping(data, where="cass.toml: [run]")
    assert info.value.message.startswith("cass.toml: [run]")
    assert fragment in info.value.message


def test_header_allows_several_pairs_per_line():
    text = '#include <x>\n// cass: args = ["64", "a b"] rtol = 1e-4 stdin = "x = 1"\nint main(){}\n'
    assert parse_header(text, "k.cu") == {"args": ["64", "a b"], "rtol": 1e-4, "stdin": "x = 1"}


def test_header_error_names_file_and_line():
    with pytest.raises(CassError, match=r"k.cu:2: cannot read the `// cass:` run-spec line"):
        parse_header("int x;\n// cass: args = [\n", "k.cu")
    with pytest.raises(CassError, match=r"k.cu:1: unknown run-spec key `arg`"):
        parse_header("// cass: arg = 1\n", "k.cu")


def test_layers_merge_in_order(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cass]\nmirror = "hip/"\n[tool.cass.run]\nrtol = 1e-3\nargs = ["1"]\ntimeout_s = 9\n'
        '[tool.cass.programs."src/*.cu"]\nargs = ["2"]\n'
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "task.toml").write_text("[run]\natol = 0.5\n")
    source = tmp_path / "src" / "k.cu"
    source.write_text("// cass: timeout_s = 3\nint main() { return 0; }\n")
    spec = load_run_spec(source)
    assert (spec.rtol, spec.args, spec.atol, spec.timeout_s) == (1e-3, ("2",), 0.5, 3.0)
    assert spec.base_dir == str(source.parent.resolve())
    path, table = load_project_config(source)
    assert path == tmp_path / "pyproject.toml" and table["mirror"] == "hip/"


def test_cass_toml_wins_and_bad_config_is_named(tmp_path: Path):
    (tmp_path / "cass.toml").write_text("[run]\nrunz = 3\n")
    (tmp_path / "pyproject.toml").write_text("[tool.cass.run]\nruns = 3\n")
    source = tmp_path / "k.cu"
    source.write_text("int main(){}\n")
    with pytest.raises(CassError, match=r"cass.toml: \[run\]: unknown run-spec key `runz`"):
        load_run_spec(source)
    (tmp_path / "cass.toml").write_text("[run\n")
    with pytest.raises(CassError, match=r"cass.toml: not valid TOML"):
        load_run_spec(source)


def test_pyproject_without_cass_table_is_skipped(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[tool.cass.run]\nruns = 4\n")
    inner = tmp_path / "pkg"
    inner.mkdir()
    (inner / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (inner / "k.cu").write_text("")
    assert load_run_spec(inner / "k.cu").runs == 4


def test_run_key_tracks_args_stdin_and_inputs(tmp_path: Path):
    (tmp_path / "in.txt").write_text("1")
    a = RunSpec(args=("1",), input_files=("in.txt",), base_dir=str(tmp_path))
    key = a.run_key()
    assert (
        key
        == RunSpec(args=("1",), input_files=("in.txt",), base_dir=str(tmp_path), rtol=0.1).run_key()
    )
    assert key != a.replace(args=("2",)).run_key() != a.replace(stdin="x").run_key()
    (tmp_path / "in.txt").write_text("2")
    assert key != a.run_key()
