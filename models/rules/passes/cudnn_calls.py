"""cuDNN calls whose MIOpen form takes other arguments (`tables/cudnn.tsv` rows `rewritten`).

Each call is rewritten from a template over its arguments: an index takes that argument (its
cuDNN names renamed as the tables say), a string is written as it stands. Where the template
does not apply (a tensor format or convolution mode MIOpen lacks, a mode that is not a literal,
a convolution with no find step in the file) the call is reported (CASS086) and left as it is;
its name is kept so that no rename makes it look ported.
"""

from __future__ import annotations

from cass.models.rules.passes.names import needs_newer
from cass.models.rules.tables import family_table, name_table
from cass.models.rules.unit import Unit

Template = tuple[int | str, ...]
_SIZE = (0, 2, 1, 3, 4, 6)  # workspace-size queries: swap the two tensors, drop the algorithm
_FIND_SWAP = (0, 3, 4, 1, 2, *range(5, 13), "false")
_RUN_SWAP = (0, 1, 4, 5, 2, 3, 6, 7, 10, 11, 12, 8, 9)
_DROPOUT = (*range(6), "false", "false", "MIOPEN_RNG_PSEUDO_XORWOW")

# cuda name -> (argument count, template)
TEMPLATES: dict[str, tuple[int, Template]] = {
    "cudnnSetTensor4dDescriptor": (7, (0, 2, 3, 4, 5, 6)),
    "cudnnSetFilter4dDescriptor": (7, (0, 1, 3, 4, 5, 6)),
    "cudnnSetConvolution2dDescriptor": (9, (0, "miopenConvolution", 1, 2, 3, 4, 5, 6)),
    "cudnnSetConvolutionNdDescriptor": (7, (0, 1, 2, 3, 4, "miopenConvolution")),
    "cudnnGetConvolutionForwardWorkspaceSize": (7, _SIZE),
    "cudnnGetConvolutionBackwardDataWorkspaceSize": (7, _SIZE),
    "cudnnGetConvolutionBackwardFilterWorkspaceSize": (7, _SIZE),
    "cudnnFindConvolutionForwardAlgorithmEx": (13, (*range(13), "false")),
    "cudnnFindConvolutionBackwardDataAlgorithmEx": (13, _FIND_SWAP),
    "cudnnFindConvolutionBackwardFilterAlgorithmEx": (13, _FIND_SWAP),
    "cudnnConvolutionForward": (13, (*range(8), 10, 11, 12, 8, 9)),
    "cudnnConvolutionBackwardData": (13, _RUN_SWAP),
    "cudnnConvolutionBackwardFilter": (13, _RUN_SWAP),
    "cudnnSetPooling2dDescriptor": (9, (0, 1, *range(3, 9))),
    "cudnnSetPoolingNdDescriptor": (7, (0, 1, *range(3, 7))),
    "cudnnPoolingForward": (8, (*range(8), "false", "nullptr", "0")),
    "cudnnSetActivationDescriptor": (4, ()),  # per mode: _activation
    "cudnnSoftmaxForward": (9, (0, *range(3, 9), 1, 2)),
    "cudnnSoftmaxBackward": (11, (0, *range(3, 11), 1, 2)),
    "cudnnSetLRNDescriptor": (5, (0, "miopenLRNCrossChannel", 1, 2, 3, 4)),
    "cudnnSetDropoutDescriptor": (6, _DROPOUT),
    "cudnnRestoreDropoutDescriptor": (6, _DROPOUT),
    "cudnnDropoutForward": (8, (0, 1, 2, *range(2, 8))),
    "cudnnDropoutBackward": (8, (0, 1, 2, *range(2, 8))),
    "cudnnSetRNNDescriptor_v6": (10, (*range(1, 8), "miopenRNNwithBias", 8, 9)),
    "cudnnRNNBackwardWeights": (15, (*range(9), 11, 12, 9, 10, 13, 14)),
}
# argument index -> the literal MIOpen can take there, per call
_FORMAT = "CUDNN_TENSOR_NCHW"
_MODE = "CUDNN_CROSS_CORRELATION"
REQUIRED: dict[str, tuple[int, str, str]] = {
    "cudnnSetTensor4dDescriptor": (
        1,
        _FORMAT,
        "miopenSet4dTensorDescriptor is NCHW; describe NHWC data with "
        "miopenSetNdTensorDescriptorWithLayout(desc, type, miopenTensorNHWC, lens, 4) (ROCm 5.3)",
    ),
    "cudnnSetFilter4dDescriptor": (
        2,
        _FORMAT,
        "MIOpen's filter is an NCHW tensor descriptor; transpose the weights to NCHW",
    ),
    "cudnnSetConvolution2dDescriptor": (
        7,
        _MODE,
        "MIOpen convolves by cross-correlation only: flip the filter and pass "
        "CUDNN_CROSS_CORRELATION",
    ),
    "cudnnSetConvolutionNdDescriptor": (
        5,
        _MODE,
        "MIOpen convolves by cross-correlation only: flip the filter and pass "
        "CUDNN_CROSS_CORRELATION",
    ),
}
FIND_STEP = {
    "cudnnConvolutionForward": (
        "cudnnFindConvolutionForwardAlgorithmEx",
        "miopenFindConvolutionForwardAlgorithm",
    ),
    "cudnnConvolutionBackwardData": (
        "cudnnFindConvolutionBackwardDataAlgorithmEx",
        "miopenFindConvolutionBackwardDataAlgorithm",
    ),
    "cudnnConvolutionBackwardFilter": (
        "cudnnFindConvolutionBackwardFilterAlgorithmEx",
        "miopenFindConvolutionBackwardWeightsAlgorithm",
    ),
}
# activation mode -> MIOpen (alpha, beta, gamma); an int takes that cuDNN argument (coef)
_ACTIVATION: dict[str, tuple[int | str, ...]] = {
    "CUDNN_ACTIVATION_RELU": ("1.0", "1.0", "1.0"),
    "CUDNN_ACTIVATION_SIGMOID": ("1.0", "1.0", "1.0"),
    "CUDNN_ACTIVATION_IDENTITY": ("1.0", "1.0", "1.0"),
    "CUDNN_ACTIVATION_TANH": ("1.0", "1.0", "1.0"),
    "CUDNN_ACTIVATION_CLIPPED_RELU": (3, "1.0", "1.0"),
    "CUDNN_ACTIVATION_ELU": (3, "1.0", "1.0"),
}


def _ported(unit: Unit, first: int, last: int, members: dict[str, tuple[str, str]]) -> str:
    """The source of code[first..last] with every table name in it renamed (as the rename pass
    would: supported rows available for the target) and `perf.algo` of a cuDNN perf result
    written as MIOpen's member (`members`: see rewrite_perf_members)."""
    table, code = name_table(), unit.code
    parts, pos = [], code[first].start
    for j in range(first, last + 1):
        tok = code[j]
        new = ""
        if tok.text == "algo" and unit.prev_text(j) in (".", "->"):
            new = members.get(_member_base(unit, j), ("", ""))[1]
        elif tok.kind == "ident" and unit.prev_text(j) not in (".", "->"):
            entry = table.get(tok.text)
            if entry and entry.status == "supported" and entry.hip:
                new = entry.hip if entry.available_in(unit.target.hip_version) else ""
        if new:
            parts += [unit.text[pos : tok.start], new]
            pos = tok.end
    parts.append(unit.text[pos : code[last].end])
    return "".join(parts)


def _activation(unit: Unit, args: list[tuple[int, int]]) -> Template | str:
    mode = unit.arg_text(args[1]).strip()
    params = _ACTIVATION.get(mode)
    if params is None:
        return (
            f"activation mode `{mode}` is not a literal MIOpen has: miopenSetActivationDescriptor "
            "takes (alpha, beta, gamma) per mode (coef as alpha for clipped ReLU and ELU, "
            "alpha=beta=1 for tanh); write the call for the mode"
        )
    return (0, 1, *params)


def _problem(unit: Unit, name: str, args: list[tuple[int, int]]) -> str:
    """Why the call cannot be rewritten here ('' when it can)."""
    required = REQUIRED.get(name)
    if required is not None:
        index, literal, route = required
        given = unit.arg_text(args[index]).strip()
        if given != literal:
            return f"argument {index + 1} is `{given}`, not {literal}: {route}"
    find = FIND_STEP.get(name)
    if find is not None and not any(f in unit.index for f in find):
        return (
            f"MIOpen runs this only with an algorithm its find step returned and this file has "
            f"no {find[0]} / {find[1]} call: call {find[1]} (workspace sized by the matching "
            "GetWorkSpaceSize) before it and pass the algorithm it returns"
        )
    return ""


def _keep(unit: Unit, i: int, code: str, message: str) -> None:
    tok = unit.code[i]
    unit.replace(tok.start, tok.end, tok.text)  # taken: no rename may make it look ported
    unit.report(code, tok.start, tok.end, message)


def _rewrite(
    unit: Unit, i: int, name: str, miopen: str, note: str, members: dict[str, tuple[str, str]]
) -> None:
    found = unit.call_args(i + 1)
    count, template = TEMPLATES[name]
    if found is None or len(found[0]) != count:
        return _keep(
            unit,
            i,
            "CASS086",
            f"`{name}` takes {count} arguments; cass could not "
            f"read them here: rewrite it as `{miopen}` ({note})",
        )
    args, close = found
    problem = _problem(unit, name, args)
    chosen: Template | str = _activation(unit, args) if not template else template
    if problem or isinstance(chosen, str):
        return _keep(unit, i, "CASS086", f"`{name}`: {problem or chosen}")
    parts = [_ported(unit, *args[t], members) if isinstance(t, int) else t for t in chosen]
    tok = unit.code[i]
    text = f"{miopen}({', '.join(p.strip() for p in parts)})"
    if not unit.replace(tok.start, unit.code[close].end, text):
        return _keep(
            unit,
            i,
            "CASS086",
            f"`{name}` overlaps another rewrite: write it as `{miopen}` by hand ({note})",
        )
    unit.report("CASS085", tok.start, tok.end, f"`{name}` -> `{miopen}`: {note}")


def rewrite_cudnn_calls(unit: Unit) -> None:
    """Every call of a `rewritten` cuDNN row: adapted to MIOpen, or reported where it cannot be."""
    rows = family_table("cudnn")
    names = [n for n in TEMPLATES if n in unit.index]
    members = _perf_variables(unit) if names else {}
    for i in unit.positions(names):
        tok = unit.code[i]
        if tok.kind != "ident" or unit.next_text(i) != "(" or unit.is_edited(tok):
            continue
        if unit.prev_text(i) in (".", "->", "::"):
            continue
        entry = rows[tok.text]
        if not entry.available_in(unit.target.hip_version):
            needs_newer(unit, tok, entry)
            unit.replace(tok.start, tok.end, tok.text)
            continue
        _rewrite(unit, i, tok.text, entry.hip, entry.note, members)


# cuDNN perf-result struct -> the miopenConvAlgoPerf_t member holding its algorithm
PERF_ALGO = {
    "cudnnConvolutionFwdAlgoPerf_t": "fwd_algo",
    "cudnnConvolutionFwdAlgoPerfStruct": "fwd_algo",
    "cudnnConvolutionBwdDataAlgoPerf_t": "bwd_data_algo",
    "cudnnConvolutionBwdDataAlgoPerfStruct": "bwd_data_algo",
    "cudnnConvolutionBwdFilterAlgoPerf_t": "bwd_weights_algo",
    "cudnnConvolutionBwdFilterAlgoPerfStruct": "bwd_weights_algo",
}
_PERF_ONLY_CUDNN = ("status", "determinism", "mathType")


def _perf_variables(unit: Unit) -> dict[str, tuple[str, str]]:
    """Variables declared with a cuDNN perf-result type: name -> (type, MIOpen member)."""
    found: dict[str, tuple[str, str]] = {}
    for i in unit.positions(PERF_ALGO):
        j = i + 1
        while unit.next_text(j - 1) in ("*", "&") and j < len(unit.code):
            j += 1
        if j < len(unit.code) and unit.code[j].kind == "ident":
            found[unit.code[j].text] = (unit.code[i].text, PERF_ALGO[unit.code[i].text])
    return found


def _member_base(unit: Unit, i: int) -> str:
    """`base` of `base.m`, `base->m` or `base[...].m` (member token at i), else ''."""
    j, depth = i - 2, 0
    while j >= 0 and (depth or unit.code[j].text == "]"):
        depth += {"]": 1, "[": -1}.get(unit.code[j].text, 0)
        j -= 1
    return unit.code[j].text if j >= 0 and unit.code[j].kind == "ident" else ""


def rewrite_perf_members(unit: Unit) -> None:
    """`perf.algo` on a cuDNN perf result -> `perf.fwd_algo` (MIOpen's union member); the
    members miopenConvAlgoPerf_t lacks are reported."""
    variables = _perf_variables(unit)
    if not variables:
        return
    for i in unit.positions(("algo", *_PERF_ONLY_CUDNN)):
        tok = unit.code[i]
        if unit.prev_text(i) not in (".", "->") or unit.is_edited(tok):
            continue
        base = _member_base(unit, i)
        if base not in variables:
            continue
        type_name, member = variables[base]
        if tok.text == "algo":
            unit.replace(tok.start, tok.end, member)
            unit.report(
                "CASS085",
                tok.start,
                tok.end,
                f"`{base}.algo` -> `{base}.{member}`: "
                f"miopenConvAlgoPerf_t (for {type_name}) holds the algorithm in a union",
            )
        else:
            unit.report(
                "CASS086",
                tok.start,
                tok.end,
                f"`{base}.{tok.text}`: "
                f"miopenConvAlgoPerf_t (for {type_name}) has no `{tok.text}` (it has "
                f"{member}, time, memory): drop the use",
            )
