"""Inputs for the Rodinia run table (benchmarks/port_rodinia.py's RUN_TABLE): each generator writes
the files one application reads into its run folder, the same bytes on every machine (a fixed
linear congruential sequence, no clock), in the formats the applications' own readers parse.

    GENERATORS[name](run_dir)    name: a run-table entry's "inputs"
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from itertools import permutations
from pathlib import Path


def _lcg(seed: int) -> Iterator[int]:
    """A fixed 31-bit linear congruential sequence: the same inputs on every machine."""
    state = seed
    while True:
        state = (1103515245 * state + 12345) % 2**31
        yield state >> 8


def gen_hotspot_grid(run_dir: Path) -> None:
    rand = _lcg(1)
    n = 64
    (run_dir / "temp_64").write_text(
        "".join(f"{320 + (next(rand) % 2000) / 100:.2f}\n" for _ in range(n * n))
    )
    (run_dir / "power_64").write_text(
        "".join(f"{(next(rand) % 1000) / 1e6:.6f}\n" for _ in range(n * n))
    )


def gen_hotspot3d_grid(run_dir: Path) -> None:
    rand = _lcg(2)
    cells = 64 * 64 * 4
    (run_dir / "power_64x4").write_text(
        "".join(f"{(next(rand) % 1000) / 1e6:.6f}\n" for _ in range(cells))
    )
    (run_dir / "temp_64x4").write_text(
        "".join(f"{320 + (next(rand) % 2000) / 100:.2f}\n" for _ in range(cells))
    )


def gen_bfs_graph(run_dir: Path) -> None:
    """Rodinia's graph format: node count, (first edge, edge count) per node, source, edges."""
    rand = _lcg(3)
    nodes = 256
    edges: list[list[int]] = [[] for _ in range(nodes)]
    for node in range(1, nodes):  # a spanning tree keeps every node reachable
        parent = next(rand) % node
        edges[node].append(parent)
        edges[parent].append(node)
    for _ in range(nodes):
        a, b = next(rand) % nodes, next(rand) % nodes
        if a != b:
            edges[a].append(b)
            edges[b].append(a)
    lines, start = [str(nodes)], 0
    for node_edges in edges:
        lines.append(f"{start} {len(node_edges)}")
        start += len(node_edges)
    lines += ["", "0", "", str(start)]
    lines += [f"{dest} {1 + next(rand) % 10}" for node_edges in edges for dest in node_edges]
    (run_dir / "graph256.txt").write_text("\n".join(lines) + "\n")


def gen_nn_records(run_dir: Path) -> None:
    """Two record files in hurricane_gen's fixed-width format (latitude at 28, longitude at 33)."""
    rand = _lcg(4)
    names = ["ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "FLORENCE", "GORDON", "HELENE"]
    files = []
    for index in range(2):
        name = f"cane_{index}.db"
        rows = []
        for _ in range(300):
            lat = 7 + next(rand) % 63 + (next(rand) % 10) / 10
            lng = next(rand) % 358 + (next(rand) % 10) / 10
            rows.append(
                f"{1950 + next(rand) % 55:4d} {1 + next(rand) % 12:2d} {1 + next(rand) % 28:2d} "
                f"{(next(rand) % 4) * 6:2d} {1 + next(rand) % 28:2d} "
                f"{names[next(rand) % len(names)]:<9s} {lat:5.1f} {lng:5.1f} "
                f"{10 + next(rand) % 155:4d} {next(rand) % 900:4d}"
            )
        (run_dir / name).write_text("\n".join(rows) + "\n")
        files.append(name)
    (run_dir / "filelist.txt").write_text("\n".join(files) + "\n")


def gen_kmeans_points(run_dir: Path) -> None:
    """kmeans' text input (`id f1 .. f6` per line): 400 points scattered around 5 centres."""
    rand = _lcg(5)
    centres = [[(next(rand) % 1000) / 10 for _ in range(6)] for _ in range(5)]
    rows = []
    for index in range(400):
        centre = centres[next(rand) % 5]
        values = [c + (next(rand) % 2001 - 1000) / 100 for c in centre]
        rows.append(f"{index + 1} " + " ".join(f"{v:.2f}" for v in values))
    (run_dir / "points.txt").write_text("\n".join(rows) + "\n")


def gen_hybridsort_values(run_dir: Path) -> None:
    """hybridsort's input: 24,000 floats in [0, 1) with five decimals (some repeated), spread
    unevenly (a quarter of them below 0.05) so that its buckets differ in size."""
    rand = _lcg(7)
    values = []
    for index in range(24000):
        value = (next(rand) >> 4) % 100000 / 100000
        values.append(value / 20 if index % 4 == 0 else value)
    (run_dir / "values.txt").write_text(" ".join(f"{v:.5f}" for v in values) + "\n")


def avi_file(width: int, height: int, frames: list[bytes]) -> bytes:
    """An uncompressed AVI of 8-bit frames (rows bottom-up, as video frames are stored): RIFF
    'AVI ' holding an hdrl list (avih; strl with a 'vids' strh and a BITMAPINFOHEADER strf) and
    a movi list of '00db' chunks, no index (readers find the chunks by scanning movi)."""

    def chunk(tag: bytes, body: bytes) -> bytes:
        return tag + len(body).to_bytes(4, "little") + body + b"\0" * (len(body) % 2)

    def words(*values: int) -> bytes:
        return b"".join(v.to_bytes(4, "little") for v in values)

    size = width * height
    avih = words(40000, size * 25, 0, 0x10, len(frames), 0, 1, size, width, height, 0, 0, 0, 0)
    strh = b"vids" + b"\0" * 4 + words(0, 0, 0, 1, 25, 0, len(frames), size, 0xFFFFFFFF, 0, 0)
    strf = words(40, width, height) + (1).to_bytes(2, "little") + (8).to_bytes(2, "little")
    strf += words(0, size, 0, 0, 256, 0)
    strl = chunk(b"LIST", b"strl" + chunk(b"strh", strh) + chunk(b"strf", strf))
    hdrl = chunk(b"LIST", b"hdrl" + chunk(b"avih", avih) + strl)
    movi = chunk(b"LIST", b"movi" + b"".join(chunk(b"00db", frame) for frame in frames))
    return chunk(b"RIFF", b"AVI " + hdrl + movi)


def gen_leukocyte_video(run_dir: Path) -> None:
    """leukocyte's input: three 160x340 frames of a noisy vessel (the rows it crops, 110 to 328)
    with six round bright cells of radius 10 to 12 (smooth edges), moving a pixel or two a frame.
    It is tracked over one frame: the tracker cuts each cell's next sub-image at bounds
    truncated from its float position (`(int) (x - 4R + 0.5)`), and this detection finds centres
    about half a pixel off the grid, a few hundredths from such a bound; from the second frame
    on, a difference in the last bits of the first frame's tracking moves a bound by a whole
    pixel (a cell ended 0.037 pixels apart on the H200 and the emulator, either right)."""
    rand = _lcg(8)
    width, height = 160, 340
    cells = [(150, 40, 10), (170, 100, 11), (215, 60, 12), (250, 125, 10), (280, 35, 11),
             (300, 95, 10)]  # fmt: skip
    noise = [next(rand) % 9 for _ in range(width * height)]
    frames = []
    for frame in range(3):
        pixels = bytearray(width * height)
        for row in range(height):
            for col in range(width):
                value = 60.0
                for cy, cx, radius in cells:
                    dy, dx = row - cy - frame, col - cx - 2 * frame
                    if abs(dy) <= radius + 4 and abs(dx) <= radius + 4:
                        edge = radius - (dx * dx + dy * dy) ** 0.5
                        value += 120.0 / (1.0 + 2.718281828 ** (-1.5 * edge))
                # stored bottom-up: the program flips what it reads
                pixels[(height - 1 - row) * width + col] = min(
                    255, int(value) + noise[row * width + col]
                )
        frames.append(bytes(pixels))
    (run_dir / "cells.avi").write_bytes(avi_file(width, height, frames))


def gen_mummer_fasta(run_dir: Path) -> None:
    """mummergpu's reference (2,000 bases) and 60 queries of 24 to 48 bases: pieces of the
    reference, one base changed in every third, and random ones."""
    rand = _lcg(6)
    ref = "".join("ACGT"[next(rand) >> 8 & 3] for _ in range(2000))  # high bits: no short period
    queries = []
    for index in range(60):
        length = 24 + next(rand) % 25
        if index % 5 == 4:
            read = "".join("ACGT"[next(rand) >> 8 & 3] for _ in range(length))
        else:
            start = next(rand) % (len(ref) - length)
            read = ref[start : start + length]
            if index % 3 == 0:
                at = next(rand) % length
                read = read[:at] + "ACGT"[("ACGT".index(read[at]) + 1) % 4] + read[at + 1 :]
        queries.append(f">q{index}\n{read}\n")
    (run_dir / "ref.fa").write_text(f">ref\n{ref}\n")
    (run_dir / "qry.fa").write_text("".join(queries))


def cfd_mesh(nx: int = 16, ny: int = 8, nz: int = 4, h: float = 0.0005) -> str:
    """cfd's mesh text: the element count, then per tetrahedron its volume and, per face, the
    neighbour (1-based; 0 a wall, negative the far field) and the outward face normal scaled by
    the face's area. The tetrahedra are a box of nx*ny*nz cubes of side h, each cut into 6 along
    its main diagonal (the same cut in every cube, so faces match), less a square pillar through
    the box's height in the flow's way: far field on the four sides, walls on the pillar, the
    floor and the ceiling. 2,688 elements by default: a multiple of both block sizes (192, 128),
    so cfd pads no element (its padding copies no normal and would read uninitialised memory).
    cfd's time step, 0.5 / (sqrt(volume) * speed), has no length unit: at h = 0.005 the Mach 1.2
    flow's shock on the pillar blows up after ~1,000 of the 2,000 iterations (negative pressure,
    NaN everywhere); at h = 0.0005 it stays bounded (density 0.19 to 3.44 at the end), and a
    float32 run of the same scheme agrees with a float64 one within 1e-5 on every density and
    energy (checked with a NumPy copy of euler3d.cu's kernels)."""
    pillar = (range(nx * 3 // 8, nx * 5 // 8), range(ny // 4, ny * 3 // 4))
    tets: list[list[tuple[int, int, int]]] = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                if i in pillar[0] and j in pillar[1]:
                    continue
                for order in permutations(range(3)):
                    corner, verts = [i, j, k], [(i, j, k)]
                    for axis in order:
                        corner[axis] += 1
                        verts.append((corner[0], corner[1], corner[2]))
                    tets.append(verts)
    owners: dict[tuple, list[int]] = {}
    for index, verts in enumerate(tets):
        for face in range(4):
            owners.setdefault(tuple(sorted(verts[:face] + verts[face + 1 :])), []).append(index)

    def sub(a: tuple, b: tuple) -> tuple[int, int, int]:
        return (a[0] - b[0], a[1] - b[1], a[2] - b[2])

    def cross(a: tuple, b: tuple) -> tuple[int, int, int]:
        return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])

    def dot(a: tuple, b: tuple) -> int:
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]

    lines = [str(len(tets))]
    for index, verts in enumerate(tets):
        a, b, c, d = verts
        row = [f"{abs(dot(sub(b, a), cross(sub(c, a), sub(d, a)))) / 6 * h**3:.9g}"]
        for face in range(4):
            points = verts[:face] + verts[face + 1 :]
            normal = cross(sub(points[1], points[0]), sub(points[2], points[0]))
            if dot(normal, sub(verts[face], points[0])) > 0:  # towards the opposite vertex
                normal = (-normal[0], -normal[1], -normal[2])
            other = [o for o in owners[tuple(sorted(points))] if o != index]
            side = any(all(p[axis] == end for p in points)
                       for axis, end in ((0, 0), (0, nx), (1, 0), (1, ny)))  # fmt: skip
            neighbour = other[0] + 1 if other else (-1 if side else 0)
            row.append(f"{neighbour} " + " ".join(f"{x * 0.5 * h * h:.9g}" for x in normal))
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def gen_cfd_mesh(run_dir: Path) -> None:
    (run_dir / "mesh.txt").write_text(cfd_mesh())


def gen_dwt2d_rgb(run_dir: Path) -> None:
    """dwt2d's input: raw interleaved 8-bit RGB, row-major, no header (its getImg read()s
    width*height*3 bytes from ../../data/dwt2d/<name>; the .bmp of its run script is read the
    same way, header and all). 96x128: red and green ramps, a blue disc, +-8 noise. The program
    runs in cuda/dwt2d (the run table's `cwd`), so the file lies at data/dwt2d/rgb.bin."""
    rand = _lcg(30)
    width, height = 96, 128
    pixels = bytearray()
    for row in range(height):
        for col in range(width):
            disc = (col - 40) ** 2 + (row - 70) ** 2 < 30 * 30
            for value in (col * 255 // (width - 1), row * 255 // (height - 1), 200 if disc else 60):
                pixels.append(min(255, max(0, value + next(rand) % 17 - 8)))
    folder = run_dir / "data" / "dwt2d"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rgb.bin").write_bytes(bytes(pixels))


def gen_srad_v1_image(run_dir: Path) -> None:
    """srad_v1's input: the 502x458 text PGM (P2) it reads from ../../../data/srad/image.pgm
    (fixed path and size): three header lines it skips unread, then 502 rows of 458 values, of
    which it crops the top-left rows x columns its arguments name. A dark speckled background
    with a bright elliptic band (a heart wall in an ultrasound frame) round (15, 17) inside that
    corner, multiplicative speckle, values 1 to 255. The program runs in cuda/srad/srad_v1 (the
    run table's `cwd`), so the image lies at data/srad/image.pgm."""
    rand = _lcg(37)
    rows, cols = 502, 458
    lines = ["P2", f"{cols} {rows}", "255"]
    for row in range(rows):
        values = []
        for col in range(cols):
            dy, dx = (row - 15) / 11, (col - 17) / 13
            r = (dy * dy + dx * dx) ** 0.5
            base = 150 if 0.6 < r < 1.0 else 50
            speckle = 0.5 + (next(rand) % 1000) / 1000  # 0.5 to 1.5
            values.append(str(max(1, min(255, int(base * speckle)))))
        lines.append(" ".join(values))
    folder = run_dir / "data" / "srad"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "image.pgm").write_text("\n".join(lines) + "\n")


def gen_btree_keys(run_dir: Path) -> None:
    """b+tree's inputs. keys.txt: the key count on the first line, then one key a line (its
    reader takes the count as the tree's size, then inserts each key as key and value until
    feof, dropping duplicates: so the keys are distinct and the count exact). 36,000 ascending
    keys with gaps of 1 or 2: inserted in order, leaves split half full, 281 leaves under two
    internal levels, and about two thirds of the program's queries (keys drawn by its unseeded
    rand()) hit a key. command.txt: `k 128` (128 point queries) and `j 128 128` (its parser
    reads the first number twice: 128 range queries of width 128), ended by a NUL byte: the
    program reads the file into a buffer of its size with no terminator and scans it up to a
    NUL; without one it runs into whatever the heap holds after the buffer."""
    rand = _lcg(20)
    keys, key = [], 0
    for _ in range(36000):
        key += 1 + (next(rand) >> 12) % 2  # a high bit: the low ones have short periods
        keys.append(key)
    (run_dir / "keys.txt").write_text(f"{len(keys)}\n" + "".join(f"{k}\n" for k in keys))
    (run_dir / "command.txt").write_bytes(b"k 128\nj 128 128\n\0")


def gen_huffman_bytes(run_dir: Path) -> None:
    """huffman's input: 64 KiB of bytes, which it reads as 16,384 32-bit words, one a thread,
    256 threads a block: 64 blocks (its size must be a multiple of 1 KiB, or the words past the
    last whole block are encoded by the CPU only; the block count a multiple of 16 for its pack
    kernel, and at most 512 for a one-block scan). 24 byte values drawn with weights 26 down to
    3: Huffman codes of 4 to 7 bits (its encoder assumes at most 8 bits a byte)."""
    rand = _lcg(21)
    symbols = b"etaoinshrdlucmfwypvbgkqj"
    table = b"".join(bytes([s]) * (26 - i) for i, s in enumerate(symbols))
    (run_dir / "input.bin").write_bytes(
        bytes(table[(next(rand) >> 4) % len(table)] for _ in range(64 * 1024))
    )


# heartwall's tracked points as its main.cu hard-codes them (1-based rows and columns)
HEARTWALL_ENDO = tuple(zip(
    (369, 400, 429, 452, 476, 486, 479, 458, 433, 404, 374, 346, 318, 294, 277, 269, 275, 287,
     311, 339),
    (408, 406, 397, 383, 354, 322, 294, 270, 250, 237, 235, 241, 254, 273, 300, 328, 356, 383,
     401, 411),
))  # fmt: skip
HEARTWALL_EPI = tuple(zip(
    (390, 419, 448, 474, 501, 519, 535, 542, 543, 538, 528, 511, 491, 466, 438, 406, 376, 347,
     318, 291, 275, 259, 256, 252, 252, 257, 266, 283, 305, 331, 360),
    (457, 454, 446, 431, 411, 388, 361, 331, 301, 273, 243, 218, 196, 178, 166, 157, 155, 165,
     177, 197, 218, 248, 276, 304, 333, 361, 391, 415, 434, 448, 455),
))  # fmt: skip
HEARTWALL_SHIFTS = ((0, 0), (2, -3), (3, -1))  # (rows, cols) each frame's scene is moved by


def gen_heartwall_video(run_dir: Path) -> None:
    """heartwall's input: three 600x512 (rows x columns) 8-bit frames of a short-axis heart. Its
    kernel cuts a 51x51 template around each of the 51 points main.cu hard-codes (rows 269-543,
    columns 155-457) from frame 0 and searches an 81x81 area around the same point in every later
    frame (rows 211-582, columns 114-496 in all: a smaller frame is read out of bounds). The
    scene: a dark blood pool inside the endocardium points, a bright wall up to the epicardium
    points, grey tissue outside (both contours interpolated in polar form about the pool's
    centre), every pixel with its own random speckle. Each frame is the same scene moved by a
    whole number of pixels (HEARTWALL_SHIFTS), so every point's normalised cross-correlation is
    1 at exactly that displacement and far lower at its neighbours: the argmax, and so the
    integer positions heartwall writes, cannot flip on a last-bit difference. A frame may move
    at most -5..+4 pixels from the previous one (its 10x10 search mask)."""
    rand = _lcg(40)
    height, width, margin = 600, 512, 8
    cy, cx = 373.0, 324.0  # the endocardium points' centre, 0-based

    def radii(points: tuple) -> list[float]:
        """The contour's distance from the centre per whole degree, linear between points."""
        polar = sorted(
            (math.degrees(math.atan2(r - 1 - cy, c - 1 - cx)) % 360,
             math.hypot(r - 1 - cy, c - 1 - cx))
            for r, c in points
        )  # fmt: skip
        polar = [(polar[-1][0] - 360, polar[-1][1]), *polar, (polar[0][0] + 360, polar[0][1])]
        table = []
        for degree in range(360):
            for (a0, d0), (a1, d1) in zip(polar, polar[1:]):
                if a0 <= degree < a1:
                    table.append(d0 + (d1 - d0) * (degree - a0) / (a1 - a0))
                    break
        return table

    inner, outer = radii(HEARTWALL_ENDO), radii(HEARTWALL_EPI)
    rows, cols = height + 2 * margin, width + 2 * margin
    scene = bytearray(rows * cols)
    for r in range(rows):
        for c in range(cols):
            dy, dx = r - margin - cy, c - margin - cx
            degree = int(math.degrees(math.atan2(dy, dx)) % 360) % 360
            distance = math.hypot(dy, dx)
            if distance < inner[degree]:
                base, spread = 30, 12  # blood pool
            elif distance < outer[degree]:
                base, spread = 150, 70  # heart wall
            else:
                base, spread = 75, 35  # surrounding tissue
            noise = (next(rand) >> 15) & 255  # high bits: no short period
            scene[r * cols + c] = max(0, min(255, base + (noise - 128) * spread // 128))
    frames = []
    for shift_row, shift_col in HEARTWALL_SHIFTS:
        pixels = bytearray(height * width)
        for row in range(height):
            src = (row - shift_row + margin) * cols + margin - shift_col
            # stored bottom-up: the program flips what it reads
            pixels[(height - 1 - row) * width : (height - row) * width] = scene[src : src + width]
        frames.append(bytes(pixels))
    (run_dir / "heart.avi").write_bytes(avi_file(width, height, frames))


# myocyte's initial state and parameters: Rodinia's own data set (y.txt, params.txt)
MYOCYTE_Y = """
    1.3705539e-003 9.8714218e-001 9.9182408e-001 6.9968275e-006 1.0006761e+000 2.5800244e-002
    1.5606144e-002 4.0110808e-003 3.1904893e-001 4.0110456e-003 9.9463216e-001 8.4705483e-003
    6.0394891e-003 8.8875021e-001 8.2057663e-007 1.0271527e-007 3.5547650e+000 7.7561711e-001
    9.0782945e-003 1.1836625e-001 1.0156121e-002 2.5328101e-004 2.0087204e-003 1.3747360e-001
    2.2097020e-003 7.7737983e-003 1.0124416e-002 7.5692786e-002 1.1608535e-001 1.2509040e+000
    5.6109998e-001 8.8597621e+000 8.8611627e+000 8.8615763e+000 1.3500000e+002 1.8394727e-004
    1.0924132e-004 8.8935135e-005 -8.5719165e+001 4.1071583e-001 0.0000000e+000 0.0000000e+000
    1.7483040e+004 -1.4677756e+004 -1.6869784e+005 1.6590486e+005 3.8674011e+002 6.0137654e+000
    2.1665981e-003 0.0000000e+000 0.0000000e+000 0.0000000e+000 5.2910875e-001 3.1783490e-002
    7.1017447e-006 2.8316127e-009 2.3444660e-009 1.3282361e-004 4.3772286e-003 1.2450156e-002
    3.6005070e+000 4.3833441e-002 5.4727484e-005 8.6054033e-009 2.3715335e+000 1.3105350e+001
    2.7224584e-004 1.1056849e-005 9.5203944e-006 1.3418139e-007 1.4654302e-012 8.8079626e-009
    5.6863655e-004 2.1354933e-006 5.6653572e-006 1.3743596e-003 4.3580316e-002 3.8789477e-005
    5.5612103e-010 4.1446000e+000 1.1342721e+000 1.5613769e-005 7.7666417e-006 4.5935002e-008
    3.0629005e-013 3.2828882e-018 2.0356103e-014 1.2025051e-004 4.4862898e-007 1.7078402e-007
    8.1327361e-007
""".split()
MYOCYTE_PARAMS = """
    1.000000e003 4.180000e002 0.000000e000 1.200000e002 3.617508e000 9.650000e001
    5.650000e000 2.420000e001 9.951600e-002 3.000000e-003 5.700000e-001 5.650000e000
    2.420000e001 9.951600e-002 3.000000e-003 5.700000e-001 1.350000e002 1.000000e000
""".split()


def gen_myocyte_state(run_dir: Path) -> None:
    """myocyte's input: the model's initial state (91 values) and parameters (18), one per line,
    which work.cu reads with fscanf("%f") from ../../data/myocyte/y.txt and params.txt (fixed
    paths, work.cu:126 and 135). The program runs in cuda/myocyte (the run table's `cwd`), so
    the files lie at data/myocyte/. No values are drawn at random: the stiff ODE system needs a
    physiological state, Rodinia's own as it ships it (its params.txt has 18 values; copies with
    16 leave K and Mg to a failed fscanf, which keeps the last value read)."""
    assert len(MYOCYTE_Y) == 91 and len(MYOCYTE_PARAMS) == 18
    folder = run_dir / "data" / "myocyte"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "y.txt").write_text("".join(f"{v}\n" for v in MYOCYTE_Y))
    (folder / "params.txt").write_text("".join(f"{v}\n" for v in MYOCYTE_PARAMS))


GENERATORS: dict[str, Callable[[Path], None]] = {
    "hotspot_grid": gen_hotspot_grid,
    "hotspot3d_grid": gen_hotspot3d_grid,
    "bfs_graph": gen_bfs_graph,
    "nn_records": gen_nn_records,
    "kmeans_points": gen_kmeans_points,
    "mummer_fasta": gen_mummer_fasta,
    "hybridsort_values": gen_hybridsort_values,
    "leukocyte_video": gen_leukocyte_video,
    "cfd_mesh": gen_cfd_mesh,
    "dwt2d_rgb": gen_dwt2d_rgb,
    "srad_v1_image": gen_srad_v1_image,
    "btree_keys": gen_btree_keys,
    "huffman_bytes": gen_huffman_bytes,
    "heartwall_video": gen_heartwall_video,
    "myocyte_state": gen_myocyte_state,
}
