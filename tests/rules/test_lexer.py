"""The lexer keeps every byte and classifies what the passes must never touch."""

import pytest
from cass.models.rules import lexer
from cass.models.rules.lexer import lex

SAMPLES = {
    "crlf": "int a;\r\nint b;\r\n",
    "raw string": 'auto s = R"x(cudaMalloc ")" )x"; cudaFree(p);',
    "prefixed raw": 'auto s = u8R"(a\nb)";',
    "continuation": "#define K(a) \\\n  cudaMalloc(a)\nint x;",
    "char literals": "char c = '\\''; char d = '\"';",
    "digit separators": "int n = 1'000'000; float f = 0x1p-3f;",
    "launch": "k<<<grid, block, 0, s>>>(a, b);",
    "templates": "std::vector<std::vector<std::vector<int>>> v;",
    "unicode": "// π comment\nfloat π = 3.14f;",
    "unterminated comment": "int a; /* never closed",
    "unterminated string": 'const char* s = "open\nint b;',
    "nul": "int a;\0int b;",
    "comment at the end": 'int a; // b /= c "d',
    "continuation at the end": "#define A \\\n",
    "blank end": "a\n\n  \t\n",
    "prefix before quote": "R'x' u8R\"(q)\" L'c' uint u;",
}


@pytest.mark.parametrize("text", SAMPLES.values(), ids=SAMPLES.keys())
def test_tokens_are_exact_slices_in_order_and_only_trivia_lies_between(text):
    code = lex(text).code
    pos = 0
    for tok in code:
        assert text[tok.start : tok.end] == tok.text
        gap = text[pos : tok.start]
        assert not gap.strip(" \t\r\n\\") or "/" in gap or "\0" in gap, gap
        pos = tok.end
    assert lex(text).texts == [t.text for t in code]


def test_comments_and_strings_are_single_tokens():
    lexed = lex('// cudaMalloc\nf("cudaMalloc"); /* cudaFree */ g(R"(cudaMemcpy)");')
    kinds = {t.text: t.kind for t in lexed.code}
    assert kinds['"cudaMalloc"'] == "string"
    assert kinds['R"(cudaMemcpy)"'] == "string"
    assert "cudaFree" not in "".join(kinds)  # the comments produce no tokens
    assert [t.text for t in lexed.code if t.kind == "ident"] == ["f", "g"]


def test_directives_are_marked_and_include_names_merged():
    lexed = lex("#include <cuda_runtime.h>\n#define N 32\nint x = N;\n  #  if A\n#endif\n")
    headers = [t for t in lexed.code if t.kind == "header"]
    assert [h.text for h in headers] == ["<cuda_runtime.h>"]
    assert len(lexed.directives) == 4
    assert {t.pp for t in lexed.code if t.text == "x"} == {-1}
    assert lexed.code[lexed.directives[2][0]].text == "#"


def test_continued_directive_stays_one_directive():
    lexed = lex("#define F(x) \\\n  cudaFree(x)\nint y;")
    first, last = lexed.directives[0]
    assert lexed.code[last].text == ")"
    assert all(t.pp == 0 for t in lexed.code[first : last + 1])


@pytest.mark.parametrize(
    "text, code",
    [
        ("int a; /* open", "CASS001"),
        ('f("abc);\n', "CASS002"),
        ("char c = 'x;\n", "CASS002"),
        ("a\0b", "CASS003"),
    ],
)
def test_malformed_input_is_a_problem_not_an_exception(text, code):
    problems = lex(text).problems
    assert [p.code for p in problems] == [code]


def test_a_large_file_lexes(tmp_path):
    text = "__global__ void k(float* a) { a[threadIdx.x] += 1.0f; } // c\n" * 20_000
    lexed = lex(text)
    per_line = ["__global__", "void", "k", "(", "float", "*", "a", ")", "{", "a", "[", "threadIdx",
                ".", "x", "]", "+=", "1.0f", ";", "}"]  # fmt: skip
    assert [t.text for t in lexed.code] == per_line * 20_000
    assert not lexed.problems


def test_a_comment_at_the_end_of_the_file_is_no_token():
    assert [t.text for t in lex("f(x); // x /= y, z").code] == ["f", "(", "x", ")", ";"]
    assert [t.text for t in lex("g(); /* a */").code] == ["g", "(", ")", ";"]


def test_include_names_merge_in_every_directive_of_a_long_file():
    text = "#include <cuda_runtime.h>\nint a;\n" * 3000
    lexed = lex(text)
    assert sum(t.kind == "header" for t in lexed.code) == 3000
    assert [lexed.code[first].text for first, _ in lexed.directives] == ["#"] * 3000
    assert all(lexed.code[last].kind == "header" for _, last in lexed.directives)


PIECE_TEXTS = [
    'auto s = R"x(' + "cudaMalloc(p);\n" * 40 + ')x"; cudaFree(p);\n',
    "int a; /*" + " long comment\n" * 50 + "*/ int b; // tail\n" * 3,
    "int a; /* never closed" + " x" * 60,
    'f("' + "abc" * 30 + '"); g(\'c\'); u8"s" L\'w\' R"(r)" 1.5e+3f .5 ... >>= <<< >>>\n' * 4,
    "#include <cuda_runtime.h>\n#define K(a) \\\n  cudaMalloc(a)\nint x = K(1);\n" * 6,
    "a\0b " * 30 + 'const char* s = "open\nint b;',
]


@pytest.mark.parametrize("piece", [3, 7, 16, 61])
@pytest.mark.parametrize("text", PIECE_TEXTS)
def test_scanning_in_pieces_gives_the_same_tokens_as_one_scan(monkeypatch, text, piece):
    whole = lex(text)
    monkeypatch.setattr(lexer, "_PIECE", piece)
    pieces = lex(text)
    assert [(t.kind, t.text, t.start, t.pp) for t in pieces.code] == [
        (t.kind, t.text, t.start, t.pp) for t in whole.code
    ]
    assert pieces.directives == whole.directives
    assert pieces.problems == whole.problems


def test_tokens_are_compact_arrays_and_index_like_a_list():
    code = lex("#include <a.h>\nint x = 1;\n").code
    assert len(code) == 8 and code[-1].text == ";" and code[0].kind == "punct"
    assert [t.text for t in code[1:3]] == ["include", "<a.h>"]
    assert code[2].kind == "header" and code[2].pp == 0 and code[3].pp == -1
    assert code.starts.itemsize <= 8 and len(code.kinds) == len(code)
