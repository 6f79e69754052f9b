#!/usr/bin/python3
"""What a JUnit reader nobody here wrote finds in a report of `clawperator --report junit=FILE`.

Reads FILE with junitparser (Debian's python3-junitparser) and prints one JSON object: the root's
tag and counts, and per suite its attributes, properties, cases (name, classname, time and each
result's kind, type, message and text) and output. tests/integration/report_test.cpp asserts it.
"""
import json
import sys

from junitparser import Error, Failure, JUnitXml, Skipped, TestSuite
from junitparser.junitparser import SystemErr, SystemOut


def result_of(result):
    kinds = {Failure: "failure", Error: "error", Skipped: "skipped"}
    return {
        "kind": kinds[type(result)],
        "type": result.type,
        "message": result.message,
        "text": result.text,
    }


def text_of(suite, kind):
    for element in suite.iterchildren(kind):
        return element.text
    return None


def suite_of(suite):
    return {
        "name": suite.name,
        "tests": suite.tests,
        "failures": suite.failures,
        "errors": suite.errors,
        "skipped": suite.skipped,
        "time": suite.time,
        "timestamp": suite.timestamp,
        "properties": [[p.name, p.value] for p in suite.properties()],
        "cases": [
            {
                "name": case.name,
                "classname": case.classname,
                "time": case.time,
                "results": [result_of(r) for r in case.result],
            }
            for case in suite
        ],
        "systemOut": text_of(suite, SystemOut),
        "systemErr": text_of(suite, SystemErr),
    }


def main():
    document = JUnitXml.fromfile(sys.argv[1])
    suites = [document] if isinstance(document, TestSuite) else list(document)
    print(
        json.dumps(
            {
                "root": document._elem.tag,
                "tests": document.tests,
                "failures": document.failures,
                "errors": document.errors,
                "skipped": document.skipped,
                "time": document.time,
                "suites": [suite_of(suite) for suite in suites],
            }
        )
    )


if __name__ == "__main__":
    main()
