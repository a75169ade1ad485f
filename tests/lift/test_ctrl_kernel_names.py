"""HIP names of lifted kernels with vector-typed parameters: clang mangles the same declaration
(user structs and template kernels included) and the lifter emits the kernel under that name too."""

from __future__ import annotations

import pytest
from cass.models.lift.aliases import hip_aliases, kernel_decl
from cass.runner.toolchain import has_tool

pytestmark = pytest.mark.skipif(
    not has_tool("clang++-16"), reason="clang++-16 is not installed (`cass setup`)"
)


def test_user_struct_parameters_keep_their_names() -> None:
    # bst_recursive_queries: `const Node*` beside `int4*` (Node is unknown to the name probe).
    assert hip_aliases(["_Z11bst_queriesPK4NodeiPKiP4int4"]) == {
        "_Z11bst_queriesPK4NodeiPKiP4int4": "_Z11bst_queriesPK4NodeiPKiP15HIP_vector_typeIiLj4EE"
    }


def test_template_kernels_get_their_instantiated_hip_names() -> None:
    names = ["_Z11run_queriesI5MinOpEvPKxPK4int2PxPy", "_Z11run_queriesI5SumOpEvPKxPK4int2PxPy",
             "_Z2k2IfLi128EEvPKT_4int2"]  # fmt: skip
    assert hip_aliases(names) == {
        names[0]: "_Z11run_queriesI5MinOpEvPKxPK15HIP_vector_typeIiLj2EEPxPy",
        names[1]: "_Z11run_queriesI5SumOpEvPKxPK15HIP_vector_typeIiLj2EEPxPy",
        # the first parameter is written `T const*`: the mangling says so with T_
        names[2]: "_Z2k2IfLi128EEvPKT_15HIP_vector_typeIiLj2EE",
    }


def test_templates_instantiated_on_vector_types_get_their_hip_names() -> None:
    """The template argument itself a vector type (cuFFT's complex types are float2/double2):
    matched through HIP's spelling of the instantiation, `low_pass<HIP_vector_type<float, 2u>>`."""
    names = ["_Z8low_passI7double2EvPT_ii", "_Z8low_passI6float2EvPT_ii", "_Z4fillI6uchar4EvPT_j"]
    assert hip_aliases(names) == {
        names[0]: "_Z8low_passI15HIP_vector_typeIdLj2EEEvPT_ii",
        names[1]: "_Z8low_passI15HIP_vector_typeIfLj2EEEvPT_ii",
        names[2]: "_Z4fillI15HIP_vector_typeIhLj4EEEvPT_j",
    }


def test_kernels_on_curand_states_get_hiprand_names_for_each_spelling() -> None:
    """hipRAND's states are rocRAND classes under hipRAND's names; `curandState` (a typedef of
    curandStateXORWOW, which is what the cubin says) is a type of its own in hipRAND, so a kernel
    on XORWOW gets both HIP names."""
    from cass.models.lift.aliases import hip_alias_names

    names = ["_Z6sampleI17curandStateXORWOWEvyP5Tally", "_Z6sampleI19curandStateMRG32k3aEvyP5Tally",
             "_Z4initP24curandStatePhilox4_32_10y"]  # fmt: skip
    assert hip_alias_names(names) == {
        names[0]: (
            "_Z6sampleI18hiprandStateXORWOWEvyP5Tally",
            "_Z6sampleI12hiprandStateEvyP5Tally",
        ),
        names[1]: ("_Z6sampleI20hiprandStateMRG32k3aEvyP5Tally",),
        names[2]: ("_Z4initP25hiprandStatePhilox4_32_10y",),
    }


def test_kernels_without_vector_types_need_no_alias() -> None:
    assert kernel_decl("_Z3fooPiS_") is None
    assert hip_aliases(["_Z3fooPiS_"]) == {}


def test_a_listing_s_kernel_names_are_demangled_by_one_llvm_cxxfilt(monkeypatch) -> None:
    from cass.models.lift import params

    calls: list[list[str]] = []
    run_tool = params.run_tool
    monkeypatch.setattr(params, "run_tool", lambda argv, *a, **k: calls.append(argv) or run_tool(argv, *a, **k))  # fmt: skip
    monkeypatch.setattr(params, "_DEMANGLED", {})
    params.demangle_all(["_Z1aPf", "_Z1bPfi", "main", "_Z1aPf"])
    assert len(calls) == 1
    assert params.demangle("_Z1bPfi") == "b(float*, int)" and params.demangle("main") == "main"
    assert len(calls) == 1  # remembered, not demangled again
