"""benchmarks/port_rodinia.py's pieces for the texture-reference applications (kmeans, mummergpu,
hybridsort, leukocyte):
their generated inputs (leukocyte's video read by its own avilib where the corpus is beside the
clone) and the driver-library link stub a CUDA 11 build of mummergpu links with;
cfd's generated mesh; merging a subset's port runs; lift_rodinia's table of several programs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "rodinia-cuda.tar.gz"


@pytest.fixture(scope="module")
def pr(benchmark_script):
    return benchmark_script("port_rodinia")


def test_kmeans_points_are_kmeans_text_input(pr, tmp_path: Path):
    pr.prepare_run_dir("kmeans", tmp_path)
    rows = [line.split() for line in (tmp_path / "points.txt").read_text().splitlines()]
    assert len(rows) == 400 and {len(r) for r in rows} == {7}  # id + 6 features
    assert [int(r[0]) for r in rows] == list(range(1, 401))
    again = tmp_path / "again"
    pr.prepare_run_dir("kmeans", again)
    assert (again / "points.txt").read_bytes() == (tmp_path / "points.txt").read_bytes()


def test_mummer_inputs_are_fasta_with_an_aperiodic_reference(pr, tmp_path: Path):
    pr.prepare_run_dir("mummergpu", tmp_path)
    header, ref = (tmp_path / "ref.fa").read_text().split()
    assert header == ">ref" and len(ref) == 2000 and set(ref) == set("ACGT")
    assert ref[:1024] != ref[1024:2048]  # the generator's low bits would repeat every 1024
    lines = (tmp_path / "qry.fa").read_text().splitlines()
    names, reads = lines[0::2], lines[1::2]
    assert names == [f">q{k}" for k in range(60)]
    assert all(24 <= len(r) <= 48 for r in reads)
    exact = [r for k, r in enumerate(reads) if k % 5 != 4 and k % 3 != 0]
    assert exact and all(r in ref for r in exact)


def test_hybridsort_values_are_floats_in_unit_range_with_a_crowded_low_end(pr, tmp_path: Path):
    pr.prepare_run_dir("hybridsort", tmp_path)
    values = [float(v) for v in (tmp_path / "values.txt").read_text().split()]
    assert len(values) == 24000 and all(0 <= v < 1 for v in values)
    low = sum(v < 0.05 for v in values)
    assert 0.25 * len(values) <= low < 0.3 * len(values)  # every fourth scaled into [0, 0.05)
    assert len(set(values)) < len(values)  # repeated values: the sort's ties are exercised
    assert pr.RUN_TABLE["hybridsort"]["defines"] == ["VERIFY"]  # it checks itself against qsort


def _riff_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(tag, body) of each chunk in `data`, a list's body after its type; LISTs as (b'LIST:type',
    body)."""
    chunks, at = [], 0
    while at < len(data):
        tag, size = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        body = data[at + 8 : at + 8 + size]
        if tag in (b"RIFF", b"LIST"):
            tag, body = tag + b":" + body[:4], body[4:]
        chunks.append((tag, body))
        at += 8 + size + size % 2
    return chunks


def test_leukocyte_video_is_an_uncompressed_avi_of_bright_round_cells(pr, tmp_path: Path):
    pr.prepare_run_dir("leukocyte", tmp_path)
    data = (tmp_path / "cells.avi").read_bytes()
    [(riff, body)] = _riff_chunks(data)
    assert riff == b"RIFF:AVI "
    (hdrl_tag, hdrl), (movi_tag, movi) = _riff_chunks(body)
    assert (hdrl_tag, movi_tag) == (b"LIST:hdrl", b"LIST:movi")
    (_, avih), (_, strl) = _riff_chunks(hdrl)
    (_, strh), (_, strf) = _riff_chunks(strl)
    width, height = (int.from_bytes(strf[k : k + 4], "little") for k in (4, 8))
    assert strh[:4] == b"vids" and int.from_bytes(strf[14:16], "little") == 8  # 8-bit pixels
    assert (width, height) == (160, 340) and height > 328  # the program crops rows 110 to 328
    frames = _riff_chunks(movi)
    assert [t for t, _ in frames] == [b"00db"] * 3 and int.from_bytes(avih[16:20], "little") == 3
    assert all(len(f) == width * height for _, f in frames)
    pixel = frames[0][1]

    def at(row: int, col: int) -> int:  # rows are stored bottom-up
        return pixel[(height - 1 - row) * width + col]

    assert at(170, 100) > 150 and at(170, 100 + 16) < 80  # a cell's centre, outside its rim
    assert at(5, 5) < 80 and len({at(5, c) for c in range(40)}) > 1  # noisy background
    assert frames[1][1] != frames[0][1]  # the cells move


@pytest.mark.skipif(not CORPUS.exists(), reason=f"{CORPUS} is absent (the corpus lives beside "
                    "the clone)")  # fmt: skip
def test_leukocyte_reads_its_video_through_its_own_avilib(pr, tmp_path: Path):
    out = _read_through_corpus_code(
        pr, tmp_path, "leukocyte", ".", ["avilib.c"], ["cells.avi"],
        '#include <stdio.h>\n#include <stdlib.h>\n#include "avilib.h"\n'
        "int main(int argc, char **argv) {\n"
        "  avi_t *avi = AVI_open_input_file(argv[1], 1); if (!avi) return 1;\n"
        "  int w = AVI_video_width(avi), h = AVI_video_height(avi), key;\n"
        "  long n = AVI_video_frames(avi); char *buf = malloc(w * h); long sum = 0;\n"
        "  for (long f = 0; f < n; f++) { AVI_set_video_position(avi, f);\n"
        "    if (AVI_read_frame(avi, buf, &key) != w * h) return 2;\n"
        "    for (int k = 0; k < w * h; k++) sum += (unsigned char) buf[k]; }\n"
        '  printf("%d %d %ld %ld\\n", w, h, n, sum); return 0; }\n',
    )  # fmt: skip
    data = (tmp_path / "run" / "cells.avi").read_bytes()
    movi = _riff_chunks(_riff_chunks(data)[0][1])[1][1]
    assert out == ["160", "340", "3", str(sum(sum(f) for _, f in _riff_chunks(movi)))]


def test_leukocyte_links_the_whole_meschach_library(pr):
    sources = pr.RUN_TABLE["leukocyte"]["sources"]
    meschach = [s for s in sources if s.startswith("../meschach_lib/")]
    # its memory accounting (meminfo.c) refers to the sparse, complex and iterative parts
    assert {"../meschach_lib/meminfo.c", "../meschach_lib/sparse.c", "../meschach_lib/zmemory.c",
            "../meschach_lib/iter0.c"} <= set(meschach)  # fmt: skip
    assert len(meschach) == len(set(meschach)) == 58


def test_driver_stub_links_under_the_driver_library_name(pr, tmp_path: Path):
    flags = pr.driver_stub(["cuMemGetInfo_v2"], tmp_path / "stub")
    assert flags == [f"-L{tmp_path / 'stub'}", "-lcuda"]
    lib = tmp_path / "stub" / "libcuda.so"
    dynamic = subprocess.run(["readelf", "-dW", str(lib)], capture_output=True, text=True).stdout
    assert "(SONAME)" in dynamic and "[libcuda.so.1]" in dynamic
    symbols = subprocess.run(["nm", "-D", str(lib)], capture_output=True, text=True).stdout
    assert " T cuMemGetInfo_v2" in symbols
    assert pr.driver_stub([], tmp_path / "none") == []


@pytest.mark.parametrize(
    ("compiler", "suffix", "program"),
    [
        ("gcc", ".c", "#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>\n"),
        ("g++", ".cpp", "#include <cstdio>\n#include <cstdlib>\n#include <ctime>\n"),
    ],
)
def test_fixed_clock_gives_clock_seeded_programs_one_seed(pr, tmp_path: Path, compiler, suffix,
                                                          program):  # fmt: skip
    """lavaMD's `srand(time(NULL))` (C) and particlefilter's `time(0) * i` (CUDA, C++): the
    linked fixed_clock.o makes time() one instant, so rand() draws the same numbers every run."""
    source = tmp_path / f"seeded{suffix}"
    source.write_text(program + "int main(void) {\n  time_t now, got;\n  srand(time(NULL));\n"
                      '  got = time(&now);\n  printf("%ld %ld %d\\n", (long) got, (long) now, rand());\n'
                      "  return 0;\n}\n")  # fmt: skip
    objects = pr.clock_objects({"fixed_clock": True}, tmp_path)
    assert pr.clock_objects({}, tmp_path / "none") == []
    exe = tmp_path / "seeded"
    subprocess.run([compiler, str(source), *objects, "-o", str(exe)], check=True)
    runs = {subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}  # fmt: skip
    assert len(runs) == 1
    assert runs.pop().split()[:2] == ["1764806400", "1764806400"]


def _cfd_elements(text: str) -> tuple[int, list[tuple[float, list[tuple[int, list[float]]]]]]:
    tokens = text.split()
    count, at, elements = int(tokens[0]), 1, []
    for _ in range(count):
        volume, faces = float(tokens[at]), []
        for face in range(4):
            base = at + 1 + 4 * face
            faces.append((int(tokens[base]), [float(t) for t in tokens[base + 1 : base + 4]]))
        elements.append((volume, faces))
        at += 17
    assert at == len(tokens)  # nothing after the last element
    return count, elements


def test_cfd_mesh_is_a_closed_conforming_tetrahedral_mesh(pr, tmp_path: Path):
    pr.prepare_run_dir("cfd", tmp_path)
    text = (tmp_path / "mesh.txt").read_text()
    count, elements = _cfd_elements(text)
    assert count == 2688 and count % 384 == 0  # no padding for block sizes 192 and 128
    h = 0.0005
    assert abs(sum(v for v, _ in elements) - (16 * 8 - 4 * 4) * 4 * h**3) < 1e-12
    kinds = {"far": 0, "wall": 0, "inner": 0}
    for index, (volume, faces) in enumerate(elements):
        assert volume > 0
        for axis in range(3):  # a closed cell: its area-weighted normals sum to zero
            assert abs(sum(n[axis] for _, n in faces)) < 1e-12
        for neighbour, normal in faces:
            if neighbour > 0:  # 1-based; the neighbour names this element back, normal negated
                kinds["inner"] += 1
                back = [n for nb, n in elements[neighbour - 1][1] if nb == index + 1]
                assert len(back) == 1
                assert all(abs(a + b) < 1e-15 for a, b in zip(normal, back[0], strict=True))
            else:
                kinds["wall" if neighbour == 0 else "far"] += 1
    assert kinds["far"] > 0 and kinds["wall"] > 0 and kinds["inner"] > 3 * count
    again = tmp_path / "again"
    pr.prepare_run_dir("cfd", again)
    assert (again / "mesh.txt").read_bytes() == text.encode()


def test_cfd_mesh_reads_through_iostreams_as_cfd_reads_it(pr, tmp_path: Path):
    """euler3d.cu's reader (`file >> nel`, then per element `>> area`, per face `>> neighbour`
    and three `>> normal`): every value is read, the stream stays good, nothing is left over."""
    pr.prepare_run_dir("cfd", tmp_path)
    reader = tmp_path / "read.cpp"
    reader.write_text(
        "#include <cstdio>\n#include <fstream>\n#include <string>\nint main(int, char** argv) {\n"
        "  std::ifstream file(argv[1]); int nel; file >> nel; double volume = 0;\n"
        "  int walls = 0, far = 0;\n"
        "  for (int i = 0; i < nel; i++) { float area; file >> area; volume += area;\n"
        "    for (int j = 0; j < 4; j++) { int nb; file >> nb; walls += nb == 0; far += nb < 0;\n"
        "      for (int k = 0; k < 3; k++) { float n; file >> n; } } }\n"
        "  bool good = file.good(); std::string rest; file >> rest;\n"
        '  std::printf("%d %d %d %d %d %.6g\\n", nel, good, rest.empty(), walls, far, volume);\n'
        "  return 0; }\n"
    )
    exe = tmp_path / "read"
    subprocess.run(["g++", "-O1", str(reader), "-o", str(exe)], check=True, timeout=120)
    out = subprocess.run([str(exe), str(tmp_path / "mesh.txt")], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()  # fmt: skip
    _, elements = _cfd_elements((tmp_path / "mesh.txt").read_text())
    faces = [nb for _, f in elements for nb, _ in f]
    assert out[:5] == ["2688", "1", "1", str(faces.count(0)), str(sum(n < 0 for n in faces))]
    assert abs(float(out[5]) - 112 * 4 * 0.0005**3) < 1e-15


def test_a_subset_of_port_runs_replaces_only_its_rows(pr, tmp_path: Path):
    committed = tmp_path / "runs.json"
    committed.write_text('[{"app": "bfs", "matches": true}, {"app": "nn", "matches": false}]')
    merged = pr.merged_runs([{"app": "cfd", "matches": True}, {"app": "nn", "matches": True}],
                            committed)  # fmt: skip
    assert [(r["app"], r["matches"]) for r in merged] == [
        ("bfs", True), ("nn", True), ("cfd", True)]  # fmt: skip


def test_lift_table_counts_every_program_of_a_folder(benchmark_script):
    lr = benchmark_script("lift_rodinia")
    base = {"arch": "sm_80", "kernels": 18, "lifted": 18, "lift_s": 1.0, "lift_cpu_s": 0.5}
    base |= {"instructions": 10, "slowest": "euler3d.cu", "reason": "", "nvcc": ["13.0"]}
    runs = [{"app": n, "ran": True, "matches": m} for n, m in (("cfd", True), ("pre_cfd", False))]
    cfd = base | {"app": "cfd", "run_app": "cfd, pre_cfd", "runs": runs, "ran": True}
    nn = base | {"app": "nn", "run_app": "nn", "ran": True, "matches": True}
    table = lr.render([cfd | {"matches": False}, nn], "")
    assert "2/3 runs completed" not in table and "3/3 runs completed, 2 match" in table
    assert "| cfd | sm_80 | 13.0 | 18 | 18 | 1.00 (0.50), 10 | 2/2 | 1/2 |" in table
    assert "| nn | sm_80 | 13.0 | 18 | 18 | 1.00 (0.50), 10 | yes | yes |" in table


def test_lift_merge_replaces_a_folders_rows_and_keeps_the_rest(benchmark_script, tmp_path: Path):
    lr = benchmark_script("lift_rodinia")
    committed = tmp_path / "lift.json"
    old = [{"folder": f, "arch": a, "v": 0} for a in ("sm_80", "sm_90") for f in ("bfs", "cfd")]
    committed.write_text(json.dumps(old))
    fresh = [{"folder": "cfd", "arch": "sm_90", "v": 1}, {"folder": "nn", "arch": "sm_80", "v": 1}]
    merged = lr.merged_rows(fresh, committed)
    assert [(r["folder"], r["arch"], r["v"]) for r in merged] == [
        ("bfs", "sm_80", 0), ("cfd", "sm_80", 0), ("nn", "sm_80", 1),
        ("bfs", "sm_90", 0), ("cfd", "sm_90", 1)]  # fmt: skip


def test_recorded_note_names_programs_recorded_together_once(benchmark_script, tmp_path: Path):
    lr = benchmark_script("lift_rodinia")
    recorded = tmp_path / "rec.json"
    apps = {"bfs": {}, "kmeans": {"recorded": "T1"}, "cfd": {"recorded": "T2"},
            "pre_cfd": {"recorded": "T2"}}  # fmt: skip
    recorded.write_text(json.dumps({"gpu": "NVIDIA H200", "date": "T0", "apps": apps}))
    assert (
        lr.recorded_note(recorded)
        == "outputs recorded on NVIDIA H200 (T0; kmeans T1; cfd, pre_cfd T2)"
    )


def test_port_runs_name_programs_recorded_together_once(pr):
    apps = {"bfs": {}, "kmeans": {"nvcc": "11.8", "recorded": "T1"},
            "cfd": {"nvcc": "13.0", "recorded": "T2"}, "pre_cfd": {"nvcc": "13.0", "recorded": "T2"}}  # fmt: skip
    sentence = pr._later_recordings({"apps": apps})
    assert "nvcc named: kmeans (11.8, T1); cfd, pre_cfd (13.0, T2)." in sentence
    assert pr._later_recordings({"apps": {"bfs": {}}}) == ""


@pytest.mark.parametrize(
    ("app", "opened"),
    [
        ("dwt2d", "../../data/dwt2d/rgb.bin"),
        ("srad_v1", "../../../data/srad/image.pgm"),
        ("myocyte", "../../data/myocyte/y.txt"),
    ],
)
def test_programs_with_fixed_input_paths_run_in_a_mirrored_tree(pr, tmp_path: Path, app, opened):
    """dwt2d, srad_v1 and myocyte open their input at a path fixed relative to their working
    folder: they run in the run table's `cwd` below the run folder, where that path lands."""
    pr.prepare_run_dir(app, tmp_path)
    work = pr.work_dir(app, tmp_path)
    assert work.is_dir() and work != tmp_path and work.is_relative_to(tmp_path)
    assert (work / opened).resolve().is_file()
    assert (work / opened).resolve().is_relative_to(tmp_path.resolve())
    for name in pr.RUN_TABLE[app]["outputs"]:  # outputs are named from the run folder
        assert (tmp_path / name).parent == work
    assert pr.work_dir("bfs", tmp_path) == tmp_path


def test_btree_inputs_end_in_a_nul_and_hold_distinct_keys(pr, tmp_path: Path):
    pr.prepare_run_dir("b+tree", tmp_path)
    lines = (tmp_path / "keys.txt").read_text().split()
    count, keys = int(lines[0]), [int(k) for k in lines[1:]]
    assert count == len(keys) == len(set(keys)) == 36000 and keys == sorted(keys)
    command = (tmp_path / "command.txt").read_bytes()
    assert command.endswith(b"\0") and command.count(b"\0") == 1  # the program scans up to a NUL
    assert set(command[:-1].decode().split()) <= {"k", "j", "128"}  # no command reading stdin


def test_huffman_and_dwt2d_inputs_have_the_sizes_their_readers_take(pr, tmp_path: Path):
    pr.prepare_run_dir("huffman", tmp_path)
    data = (tmp_path / "input.bin").read_bytes()
    assert len(data) == 64 * 1024 and len(set(data)) == 24  # 64 blocks of 1 KiB, 24 symbols
    pr.prepare_run_dir("dwt2d", tmp_path / "dwt")
    rgb = (tmp_path / "dwt" / "data" / "dwt2d" / "rgb.bin").read_bytes()
    assert len(rgb) == 96 * 128 * 3  # read() of width * height * 3 bytes, no header
    assert "96x128" in pr.RUN_TABLE["dwt2d"]["args"]


def test_myocyte_state_has_its_model_sizes(pr, tmp_path: Path):
    pr.prepare_run_dir("myocyte", tmp_path)
    folder = tmp_path / "data" / "myocyte"
    assert len((folder / "y.txt").read_text().split()) == 91
    assert len((folder / "params.txt").read_text().split()) == 18


@pytest.mark.skipif(not CORPUS.exists(), reason=f"{CORPUS} is absent (the corpus lives beside "
                    "the clone)")  # fmt: skip
def test_srad_v1_reads_its_image_through_its_own_reader(pr, tmp_path: Path):
    """srad_v1's graphics.c and resize.c, unchanged, read the generated PGM from the mirrored
    tree's fixed path and crop the 30x34 corner the run table's arguments name."""
    out = _read_through_corpus_code(
        pr, tmp_path, "srad_v1", ".", [], [],
        '#include <stdio.h>\n#include <stdlib.h>\n#include "define.c"\n#include "graphics.c"\n'
        '#include "resize.c"\nint main(void) {\n'
        "  fp *ori = malloc(sizeof(fp) * 502 * 458), *img = malloc(sizeof(fp) * 30 * 34);\n"
        "  for (int k = 0; k < 502 * 458; k++) ori[k] = -1;\n"
        '  read_graphics("../../../data/srad/image.pgm", ori, 502, 458, 1);\n'
        "  int unset = 0; for (int k = 0; k < 502 * 458; k++) unset += ori[k] < 0;\n"
        "  resize(ori, 502, 458, img, 30, 34, 1); double sum = 0;\n"
        "  for (int k = 0; k < 30 * 34; k++) sum += img[k];\n"
        '  printf("%d %.0f %.0f\\n", unset, img[0], sum); return 0; }\n',
    )  # fmt: skip
    run = tmp_path / "run"
    rows = [[int(v) for v in line.split()] for line in
            (run / "data/srad/image.pgm").read_text().splitlines()[3:]]  # fmt: skip
    assert out == ["0", str(rows[0][0]), str(sum(rows[r][c] for r in range(30) for c in range(34)))]


@pytest.mark.skipif(not CORPUS.exists(), reason=f"{CORPUS} is absent (the corpus lives beside "
                    "the clone)")  # fmt: skip
def test_heartwall_reads_its_video_through_its_own_avilib(pr, tmp_path: Path):
    """600x512 frames, at least the 583 rows and 497 columns its hard-coded points search."""
    out = _read_through_corpus_code(
        pr, tmp_path, "heartwall", "AVI", ["avilib.c"], ["heart.avi"],
        '#include <stdio.h>\n#include "avilib.h"\nint main(int argc, char **argv) {\n'
        "  avi_t *avi = AVI_open_input_file(argv[1], 1); if (!avi) return 1;\n"
        '  printf("%d %d %ld\\n", AVI_video_width(avi), AVI_video_height(avi), '
        "AVI_video_frames(avi)); return 0; }\n",
    )  # fmt: skip
    assert out == ["512", "600", "3"]


def _read_through_corpus_code(pr, tmp_path: Path, app: str, under: str, sources: list[str],
                              inputs: list[str], program: str) -> list[str]:  # fmt: skip
    """`program` (C) built by gcc against the corpus's own code of `app` (its folder's `under`:
    include path and `sources`), run in the app's working folder of a run folder `tmp_path/run`
    its generator filled, with `inputs` (files of that run folder) as arguments; its words."""
    folder = pr.app_dir(pr.extract_corpus(CORPUS, tmp_path / "corpus"), app) / under
    reader, exe, run = tmp_path / "read.c", tmp_path / "read", tmp_path / "run"
    reader.write_text(program)
    subprocess.run(["gcc", "-O1", "-w", f"-I{folder}", str(reader), *(str(folder / s) for s in sources),
                    "-o", str(exe), "-lm"], check=True, timeout=120, capture_output=True)  # fmt: skip
    pr.prepare_run_dir(app, run)
    return subprocess.run([str(exe), *(str(run / name) for name in inputs)],
                          cwd=pr.work_dir(app, run), capture_output=True, text=True, check=True,
                          timeout=60).stdout.split()  # fmt: skip
