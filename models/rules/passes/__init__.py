"""Passes of the rules engine; `cass.models.rules.engine.PIPELINE` lists them in order."""
