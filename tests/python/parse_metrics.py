"""Reads OpenMetrics text on stdin with Prometheus' own parser (prometheus_client) and
writes every sample as JSON: [{"name", "labels", "value"}]. Exits non-zero on text the
parser refuses (cli/tests/metrics.rs)."""

import json
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

samples = []
for family in text_string_to_metric_families(sys.stdin.read()):
    for sample in family.samples:
        samples.append(
            {"name": sample.name, "labels": dict(sample.labels), "value": sample.value}
        )
json.dump(samples, sys.stdout)
