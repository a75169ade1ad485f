"""cass.server: the front ends: the pygls language server and the `cass` command line."""
