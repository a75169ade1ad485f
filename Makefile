# The two commands of the README: `make run` and `make test`. Both install what is missing first.
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= test,cuda,plots

.PHONY: setup run test clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

setup: $(VENV)/.installed
	$(PY) -m cass.server.cli setup

run: setup
	$(VENV)/bin/cass --help

test: setup
	$(VENV)/bin/pytest

clean:
	rm -rf $(VENV) build *.egg-info
