"""The typed answers of the service layer: every answer a use case gives is one of these msgspec Structs, encoded
once by each adapter (the CLI's ``--json``, the web API) and published as JSON Schema (``planner schema``).

The keys are the JSON's: a key present in every answer is a field without a default (required in the schema), one
present only sometimes defaults to :data:`msgspec.UNSET` (left out when unset). :mod:`.registry` names the
published answers (``planner schema NAME``).
"""
