#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""Validates scenario documents against Scenarios/scenario.schema.json with jsonschema (draft 2020-12).

Usage: schema_check.py SCHEMA < documents, one JSON text per line (a line that is not JSON is reported
as such). Prints one line per document: "valid", or "invalid: PATH: MESSAGE" for the first error.
"""
import json
import sys

import jsonschema

with open(sys.argv[1]) as file:
    schema = json.load(file)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
for line in sys.stdin:
    try:
        document = json.loads(line)
    except json.JSONDecodeError:
        print("not json", flush=True)
        continue
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
    if errors:
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in errors[0].absolute_path)
        print(f"invalid: {path}: {errors[0].message}"[:300], flush=True)
    else:
        print("valid", flush=True)
