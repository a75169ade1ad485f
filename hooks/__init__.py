"""cass.hooks: pre-commit hooks (mirror ports, verify) and the CI gate."""
