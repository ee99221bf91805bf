"""Query pages cut by the server's time budget (issue 16, point 5), as azure-cosmos reads
them: a server started with --query-page-time-ms 1 ends a page after 1 ms with what it
has (possibly nothing) and a continuation token. The SDK must keep reading until the
token runs out, so every query still returns all its rows, in order. Expected rows are
computed here from the items written here."""

import re

import pytest
from azure.cosmos import PartitionKey

from conftest import create_in_batches, sync_client, unique_id
from orrery_server import OrreryServer

N = 2000
PARTITIONS = 4
TEAMS = 37
# A per-row cost large enough that 1 ms covers a few dozen rows, and a filter that keeps
# few of them: pages end early, many of them empty.
SLOW_FILTER = 'RegexMatch(REPLICATE(c.team, 1000), "t0[0-4]$")'


def make_item(i):
    return {
        "id": f"i{i:05d}",
        "pk": f"p{i % PARTITIONS}",
        "n": (i * 7919) % N,
        "team": f"t{(i * 13) % TEAMS:02d}",
        "tags": [f"g{(i + k) % 9}" for k in range(i % 4)],
    }


ITEMS = [make_item(i) for i in range(N)]


@pytest.fixture(scope="module")
def container():
    server = OrreryServer("--query-page-time-ms", "1", "--initial-partitions", "3").start()
    client = sync_client(server)
    db = client.create_database(unique_id("pybudget"))
    c = db.create_container(id="c", partition_key=PartitionKey(path="/pk"))
    create_in_batches(c, ITEMS)
    yield c
    server.stop()


def slow_match(d):
    return re.search("t0[0-4]$", d["team"] * 1000) is not None


def test_pages_are_cut_and_the_sdk_reads_on(container):
    query = f"SELECT VALUE c.id FROM c WHERE {SLOW_FILTER}"
    pager = container.query_items(query, partition_key="p3", max_item_count=100).by_page()
    pages = [list(page) for page in pager]
    rows = [r for page in pages for r in page]
    assert sorted(rows) == sorted(d["id"] for d in ITEMS if d["pk"] == "p3" and slow_match(d))
    # The budget cut pages short: more pages than the rows need at 100 a page.
    assert len(pages) > 1 + len(rows) // 100, f"{len(pages)} pages for {len(rows)} rows"


@pytest.mark.parametrize(
    "query, partition_key, expected",
    [
        (
            "SELECT VALUE c.id FROM c ORDER BY c.n DESC",
            None,
            [d["id"] for d in sorted(ITEMS, key=lambda d: -d["n"])],
        ),
        (
            f"SELECT VALUE c.id FROM c WHERE {SLOW_FILTER} ORDER BY c.n",
            None,
            [d["id"] for d in sorted(ITEMS, key=lambda d: d["n"]) if slow_match(d)],
        ),
        (f"SELECT VALUE COUNT(1) FROM c WHERE {SLOW_FILTER}", None, [sum(1 for d in ITEMS if slow_match(d))]),
        (
            f"SELECT c.team AS team, COUNT(1) AS cnt FROM c WHERE {SLOW_FILTER} GROUP BY c.team",
            "p3",
            "groups",
        ),
        ("SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team", None, sorted({d["team"] for d in ITEMS})),
        # Ordered by a JOIN alias over an array: one row per element.
        (
            f"SELECT VALUE t FROM c JOIN t IN c.tags WHERE {SLOW_FILTER} ORDER BY t",
            None,
            sorted(t for d in ITEMS if slow_match(d) for t in d["tags"]),
        ),
    ],
)
def test_complete_and_in_order(container, query, partition_key, expected):
    kwargs = {"partition_key": partition_key} if partition_key else {"enable_cross_partition_query": True}
    rows = list(container.query_items(query, max_item_count=100, **kwargs))
    if expected == "groups":
        counts = {}
        for d in ITEMS:
            if d["pk"] == partition_key and slow_match(d):
                counts[d["team"]] = counts.get(d["team"], 0) + 1
        assert sorted(rows, key=lambda r: r["team"]) == [{"team": t, "cnt": counts[t]} for t in sorted(counts)]
    else:
        assert rows == expected
