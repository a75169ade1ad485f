# The two commands of the README: `make run` and `make test`. Both install what is missing first:
# Debian packages (before anything needs them), the virtual environment, then `cass setup`.
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= test,cuda,plots,llama,transformers,dataset,train
# One list, shared with `cass setup`.
DEBIAN_PACKAGES := $(shell grep -v '^\#' runner/debian-packages.txt)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo -n)
# `make run`: every example through both stacks, then one kernel's SASS beside its RDNA3.
EXAMPLES_OUT ?= build/examples
SHOWCASE ?= vector_add
# Then one example ported by the rules engine and verified: recorded NVIDIA output vs the emulated
# HIP port. Exit 2 (no record yet: `cass record examples/` on an NVIDIA machine) is
# reported, not fatal; a mismatch (exit 1) fails the target.
VERIFY_EXAMPLE ?= examples/verify/saxpy.cu
# rocPRIM, hipCUB and rocThrust (what Thrust and CUB ports compile against): installed by `cass
# setup` from this archive when it exists beside the repository (see ../shared/deps/README.md).
ROCM_LIBS ?= $(wildcard ../shared/deps/rocm-libs-5.2.3.tar.gz)
# hipBLAS, hipFFT and hipSOLVER API headers (what cuBLAS/cuFFT/cuSOLVER ports compile against).
ROCM_API_HEADERS ?= $(wildcard ../shared/deps/rocm-api-headers-5.2.3.tar.gz)

.PHONY: setup system-packages run test clean vsix

system-packages:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    $(SUDO) apt-get update -q && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

$(VENV)/.installed: pyproject.toml | system-packages
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

setup: system-packages $(VENV)/.installed
	$(PY) -m cass.server.cli setup $(if $(ROCM_LIBS),--rocm-libs $(ROCM_LIBS)) $(if $(ROCM_API_HEADERS),--rocm-api-headers $(ROCM_API_HEADERS))

run: setup
	@mkdir -p $(EXAMPLES_OUT)
	@for src in examples/*.cu examples/*.hip; do \
	    $(VENV)/bin/cass compile $$src -o $(EXAMPLES_OUT) --force --emit $$(case $$src in *.cu) echo sass,exe;; *) echo rdna3,code-object;; esac) >/dev/null || exit 1; \
	done
	$(VENV)/bin/cass compile examples/$(SHOWCASE).cu --beside examples/$(SHOWCASE).hip
	$(VENV)/bin/cass verify $(VERIFY_EXAMPLE) || [ $$? -eq 2 ]

test: setup
	$(VENV)/bin/pytest

# The VS Code extension: editors/vscode/cass-vscode.vsix (node and npm from the machine).
vsix:
	cd editors/vscode && npm ci --no-audit --no-fund && npm run package

clean:
	rm -rf $(VENV) build *.egg-info
