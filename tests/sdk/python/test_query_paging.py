"""Query pages that resume where the previous one ended, through the sync client's
by_page(continuation_token): a large single-partition ORDER BY (ascending and
descending) and GROUP BY with COUNT/SUM, each page read by a fresh pager resumed from
the previous page's token, compared with an expectation computed from the items
written here; an altered token is refused with a 400."""

import base64
import uuid

import pytest
from azure.cosmos import PartitionKey, exceptions

from conftest import create_in_batches

N = 1500
TEAMS = 230


def make_item(i):
    # n is a permutation of 0..N-1 (7919 is prime to 1500); team repeats.
    return {"id": f"i{i:05d}", "pk": "big", "n": (i * 7919) % N, "v": i % 13, "team": f"t{(i * 37) % TEAMS:03d}"}


ITEMS = [make_item(i) for i in range(N)]


@pytest.fixture(scope="module")
def container(client):
    db = client.create_database(f"pypage-{uuid.uuid4().hex[:10]}")
    c = db.create_container(id="paging", partition_key=PartitionKey(path="/pk"))
    create_in_batches(c, ITEMS)
    yield c
    client.delete_database(db.id)


def pages_resumed(container, query, max_item_count):
    """Every page, each read by a new pager from the previous page's token."""
    pages, token = [], None
    for _ in range(1000):
        pager = container.query_items(query, partition_key="big", max_item_count=max_item_count).by_page(token)
        page = list(next(pager))
        assert len(page) <= max_item_count
        pages.append(page)
        token = pager.continuation_token
        if not token:
            return pages
    raise AssertionError(f"{query}: more than 1000 pages")


@pytest.mark.parametrize("direction", ["ASC", "DESC"])
def test_order_by_pages_resume_in_order(container, direction):
    pages = pages_resumed(container, f"SELECT c.id, c.n FROM c ORDER BY c.n {direction}", 70)
    rows = [r["id"] for p in pages for r in p]
    expected = [d["id"] for d in sorted(ITEMS, key=lambda d: d["n"], reverse=direction == "DESC")]
    assert rows == expected
    assert len(pages) >= N // 70


def test_order_by_one_pager_by_page(container):
    pager = container.query_items("SELECT VALUE c.id FROM c ORDER BY c.n", partition_key="big", max_item_count=100).by_page()
    rows = [r for page in pager for r in page]
    assert rows == [d["id"] for d in sorted(ITEMS, key=lambda d: d["n"])]


def test_group_by_pages_resume(container):
    pages = pages_resumed(container, "SELECT c.team AS team, COUNT(1) AS cnt, SUM(c.v) AS s FROM c GROUP BY c.team", 40)
    rows = [r for p in pages for r in p]
    expected = {}
    for d in ITEMS:
        g = expected.setdefault(d["team"], {"team": d["team"], "cnt": 0, "s": 0})
        g["cnt"] += 1
        g["s"] += d["v"]
    assert len(rows) == len({r["team"] for r in rows}), "a group returned twice"
    assert sorted(rows, key=lambda r: r["team"]) == [expected[k] for k in sorted(expected)]
    assert len(pages) >= TEAMS // 40


def test_altered_token_is_refused(container):
    query = "SELECT VALUE c.id FROM c ORDER BY c.n"
    pager = container.query_items(query, partition_key="big", max_item_count=50).by_page()
    next(pager)
    raw = base64.b64decode(pager.continuation_token).decode("latin1")
    altered = base64.b64encode(("S999" + raw[raw.index(":") :]).encode("latin1")).decode()
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        list(next(container.query_items(query, partition_key="big", max_item_count=50).by_page(altered)))
    assert e.value.status_code == 400
    assert "Invalid Continuation Token" in e.value.message
