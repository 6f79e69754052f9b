#!/usr/bin/python3
"""A GitHub Actions workflow as JSON, read by a YAML parser nobody here wrote (Debian's python3-yaml).

tests/integration/ci_workflow_test.cpp runs the steps of examples/ci/github-actions.yml from it.
YAML 1.1 reads the key `on` as the boolean true: it is written back as "on".
"""
import json
import sys

import yaml


def keys_as_text(value):
    if isinstance(value, dict):
        return {("on" if key is True else str(key)): keys_as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [keys_as_text(item) for item in value]
    return value


with open(sys.argv[1], encoding="utf-8") as workflow:
    json.dump(keys_as_text(yaml.safe_load(workflow)), sys.stdout)
