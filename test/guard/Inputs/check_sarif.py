"""Checks that a file is a SARIF 2.1.0 log with what editors and CI read, and
prints one line per result (rule, file name, line) for FileCheck."""
import json
import os
import sys

log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0", log.get("version")
assert "sarif-2.1.0" in log["$schema"], log.get("$schema")
assert len(log["runs"]) == 1
run = log["runs"][0]
driver = run["tool"]["driver"]
assert driver["name"] == "respec-guard"
rule_ids = [rule["id"] for rule in driver["rules"]]
for rule in driver["rules"]:
    assert rule["shortDescription"]["text"]
for result in run["results"]:
    assert result["ruleId"] in rule_ids, result["ruleId"]
    assert rule_ids[result["ruleIndex"]] == result["ruleId"]
    assert result["level"] in ("warning", "note")
    assert result["message"]["text"]
    for location in result["locations"]:
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert uri.startswith("file:///"), uri
        line = physical["region"]["startLine"]
        assert isinstance(line, int) and line >= 1
        print(result["ruleId"], os.path.basename(uri), line, result["level"])
print("sarif ok:", len(run["results"]), "results,", len(rule_ids), "rules")
