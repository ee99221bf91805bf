"""Query diagnostics as azure-cosmos sees them (issue 16, point 7): the query-metrics
header asked for with populate_query_metrics, and the index-utilization header asked for
with populate_index_metrics, which the SDK itself decodes (base64 of JSON,
_utils.get_index_metrics_info; on a header it cannot decode it gives {}).

Expected counts come from the items written here; the metric names and the header
shapes from the service's documentation (wire-protocol.md, "Query metrics" and "Index
metrics")."""

import uuid

import pytest
from azure.cosmos import PartitionKey

from conftest import create_in_batches

N = 60
ITEMS = [{"id": f"d{i:03d}", "pk": "m", "n": i, "s": f"s{i % 6}", "secret": i % 5} for i in range(N)]

# The service's query-metrics keys, in the order it writes them.
METRIC_KEYS = [
    "totalExecutionTimeInMs", "queryCompileTimeInMs", "queryLogicalPlanBuildTimeInMs",
    "queryPhysicalPlanBuildTimeInMs", "queryOptimizationTimeInMs", "indexLookupTimeInMs",
    "documentLoadTimeInMs", "VMExecutionTimeInMs", "systemFunctionExecuteTimeInMs",
    "userFunctionExecuteTimeInMs", "retrievedDocumentCount", "retrievedDocumentSize",
    "outputDocumentCount", "outputDocumentSize", "writeOutputTimeInMs", "indexUtilizationRatio",
]


@pytest.fixture(scope="module")
def container(client):
    db = client.create_database(f"pydiag-{uuid.uuid4().hex[:10]}")
    policy = {
        "indexingMode": "consistent",
        "automatic": True,
        "includedPaths": [{"path": "/*"}],
        "excludedPaths": [{"path": "/secret/?"}, {"path": '/"_etag"/?'}],
    }
    c = db.create_container(id="diag", partition_key=PartitionKey(path="/pk"), indexing_policy=policy)
    create_in_batches(c, ITEMS)
    yield c
    client.delete_database(db.id)


def query_with_headers(container, query, **kwargs):
    rows = list(container.query_items(query, partition_key="m", **kwargs))
    return rows, dict(container.client_connection.last_response_headers)


def parse_metrics(text):
    out = {}
    for part in text.split(";"):
        key, _, value = part.partition("=")
        out[key] = float(value)
    return out


def test_query_metrics_count_what_the_query_read(container):
    rows, headers = query_with_headers(container, "SELECT * FROM c WHERE c.n >= 50", populate_query_metrics=True)
    assert sorted(r["id"] for r in rows) == [f"d{i:03d}" for i in range(50, N)]
    text = headers["x-ms-documentdb-query-metrics"]
    metrics = parse_metrics(text)
    assert list(metrics) == METRIC_KEYS, text
    # Served by the range index on /n: only the matches are loaded.
    assert metrics["retrievedDocumentCount"] == 10, text
    assert metrics["outputDocumentCount"] == 10, text
    assert metrics["retrievedDocumentSize"] > 0 and metrics["outputDocumentSize"] > 0, text
    assert metrics["indexUtilizationRatio"] == 1, text

    # /secret/? is excluded: the filter reads every item of the partition.
    rows, headers = query_with_headers(container, "SELECT * FROM c WHERE c.secret = 3", populate_query_metrics=True)
    assert len(rows) == N // 5
    metrics = parse_metrics(headers["x-ms-documentdb-query-metrics"])
    assert metrics["retrievedDocumentCount"] == N
    assert metrics["outputDocumentCount"] == N // 5


def test_query_metrics_timings_are_measured(container):
    query = 'SELECT VALUE c.id FROM c WHERE RegexMatch(REPLICATE(c.s, 400), "s[0-9]s[0-9]$")'
    rows, headers = query_with_headers(container, query, populate_query_metrics=True)
    assert len(rows) == N
    text = headers["x-ms-documentdb-query-metrics"]
    metrics = parse_metrics(text)
    assert metrics["systemFunctionExecuteTimeInMs"] > 0, text
    assert metrics["systemFunctionExecuteTimeInMs"] <= metrics["totalExecutionTimeInMs"], text
    assert metrics["documentLoadTimeInMs"] <= metrics["totalExecutionTimeInMs"], text


def test_query_metrics_only_when_asked(container):
    _, headers = query_with_headers(container, "SELECT * FROM c WHERE c.n >= 50")
    assert "x-ms-documentdb-query-metrics" not in headers


def test_index_metrics_decoded_by_the_sdk(container):
    _, headers = query_with_headers(container, "SELECT * FROM c WHERE c.n = 3", populate_index_metrics=True)
    metrics = headers["x-ms-cosmos-index-utilization"]
    assert isinstance(metrics, dict) and metrics, f"the SDK could not decode the header: {metrics!r}"
    assert list(metrics) == [
        "UtilizedSingleIndexes", "PotentialSingleIndexes", "UtilizedCompositeIndexes", "PotentialCompositeIndexes",
    ]
    assert [e["IndexSpec"] for e in metrics["UtilizedSingleIndexes"]] == ["/n/?"]
    assert metrics["UtilizedCompositeIndexes"] == []

    # An equality and a range filter with no composite index: the composite (s, n) is
    # the potential index the service names.
    _, headers = query_with_headers(
        container, 'SELECT * FROM c WHERE c.s = "s1" AND c.n > 3', populate_index_metrics=True
    )
    metrics = headers["x-ms-cosmos-index-utilization"]
    assert sorted(e["IndexSpec"] for e in metrics["UtilizedSingleIndexes"]) == ["/n/?", "/s/?"]
    assert [e["IndexSpecs"] for e in metrics["PotentialCompositeIndexes"]] == [["/s ASC", "/n ASC"]]


def test_index_metrics_only_when_asked(container):
    _, headers = query_with_headers(container, "SELECT * FROM c WHERE c.n = 3")
    assert "x-ms-cosmos-index-utilization" not in headers
