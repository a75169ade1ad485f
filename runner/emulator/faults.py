"""Parse the emulator's fault report lines (`cass-emulator: fault key=value ...`)."""

from __future__ import annotations

import re

_FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_fault_line(line: str) -> dict[str, str]:
    body = line.split("cass-emulator: fault ", 1)[-1]
    out = {}
    for key, value in _FIELD.findall(body):
        if value.startswith('"'):
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        out[key] = value
    return out
