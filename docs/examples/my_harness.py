"""A minimal conformance harness: answers `validate`, skips every other function.

Run it with:  python -m conformance run --impl "python docs/examples/my_harness.py"

Replace the body of `validate` with a call into your own implementation.
"""

import json
import sys

import interlingua  # stand-in for your own validator


def validate(arguments):
    findings = interlingua.validate(arguments["document"], arguments.get("type"))
    rows = [{"code": f.code, "path": f.path, "severity": f.severity or "error"} for f in findings]
    return sorted(rows, key=lambda row: (row["path"], row["code"]))


FUNCTIONS = {"validate": validate}


def reply(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "start":
        reply({"version": 1, "implementation": {"name": "my-harness", "language": "python"}})
    elif request["cmd"] == "stop":
        break
    else:
        case = request["case"]
        function = FUNCTIONS.get(case["function"])
        if function is None:
            reply({"seq": request["seq"], "skipped": True, "message": "not implemented"})
        else:
            reply({"seq": request["seq"], "output": function(case["input"])})
