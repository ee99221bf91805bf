"""The change feed's pull model through the sync client: from the beginning, from now, and
from a saved continuation; whole container and one logical partition."""

import pytest
from azure.cosmos import PartitionKey


@pytest.fixture
def container(database):
    return database.create_container(id="feed", partition_key=PartitionKey(path="/pk"), offer_throughput=400)


def drain(container, **kwargs):
    """Reads the feed page by page to its end; returns the items and the continuation to
    resume from (the SDK's etag header of the last response)."""
    items = []
    for page in container.query_items_change_feed(max_item_count=3, **kwargs).by_page():
        items.extend(page)
    return items, container.client_connection.last_response_headers["etag"]


def test_from_beginning_then_from_a_saved_continuation(container):
    for i in range(7):
        container.create_item({"id": f"i{i}", "pk": f"p{i % 3}", "n": i})
    items, token = drain(container, start_time="Beginning")
    assert sorted(i["id"] for i in items) == [f"i{i}" for i in range(7)]
    # within a logical partition, in the order of the writes
    for pk in ("p0", "p1", "p2"):
        ns = [i["n"] for i in items if i["pk"] == pk]
        assert ns == sorted(ns)

    # nothing new yet
    again, token2 = drain(container, continuation=token)
    assert again == []

    container.create_item({"id": "new", "pk": "p1", "n": 100})
    container.upsert_item({"id": "i0", "pk": "p0", "n": 0, "changed": True})
    container.replace_item("i4", {"id": "i4", "pk": "p1", "n": 4, "changed": 1})
    container.replace_item("i4", {"id": "i4", "pk": "p1", "n": 4, "changed": 2})
    changes, _ = drain(container, continuation=token2)
    by_id = {i["id"]: i for i in changes}
    # latest version only, each changed item once
    assert sorted(i["id"] for i in changes) == ["i0", "i4", "new"]
    assert by_id["i4"]["changed"] == 2
    assert by_id["i0"]["changed"] is True

    # the first saved token still gives everything after it
    changes_from_first, _ = drain(container, continuation=token)
    assert sorted(i["id"] for i in changes_from_first) == ["i0", "i4", "new"]


def test_from_now(container):
    container.create_item({"id": "before", "pk": "a"})
    items, token = drain(container, start_time="Now")
    assert items == []
    container.create_item({"id": "after1", "pk": "a"})
    container.create_item({"id": "after2", "pk": "b"})
    items, _ = drain(container, continuation=token)
    assert sorted(i["id"] for i in items) == ["after1", "after2"]


def test_one_logical_partition(container):
    for i in range(6):
        container.create_item({"id": f"i{i}", "pk": "x" if i % 2 else "y", "n": i})
    items, token = drain(container, start_time="Beginning", partition_key="x")
    assert [i["id"] for i in items] == ["i1", "i3", "i5"]
    container.create_item({"id": "late-y", "pk": "y"})
    container.create_item({"id": "late-x", "pk": "x"})
    items, _ = drain(container, continuation=token)
    assert [i["id"] for i in items] == ["late-x"]


def test_feed_ranges_cover_the_container(container):
    for i in range(10):
        container.create_item({"id": f"i{i}", "pk": f"p{i}"})
    ranges = list(container.read_feed_ranges())
    assert ranges
    seen = []
    for feed_range in ranges:
        items, _ = drain(container, start_time="Beginning", feed_range=feed_range)
        seen.extend(i["id"] for i in items)
    assert sorted(seen) == sorted(f"i{i}" for i in range(10))


def test_hierarchical_key_prefix(database):
    c = database.create_container(
        id="hfeed", partition_key=PartitionKey(path=["/tenant", "/user"], kind="MultiHash"), offer_throughput=400
    )
    rows = [("t1", "u1"), ("t1", "u2"), ("t2", "u1"), ("t1", "u1"), ("t3", "u3")]
    for i, (t, u) in enumerate(rows):
        c.create_item({"id": f"i{i}", "tenant": t, "user": u})
    tenant, token = drain(c, start_time="Beginning", partition_key=["t1"])
    assert sorted(i["id"] for i in tenant) == ["i0", "i1", "i3"]
    full, _ = drain(c, start_time="Beginning", partition_key=["t1", "u1"])
    assert [i["id"] for i in full] == ["i0", "i3"]
    c.create_item({"id": "late", "tenant": "t1", "user": "u9"})
    c.create_item({"id": "other", "tenant": "t2", "user": "u9"})
    later, _ = drain(c, continuation=token)
    assert [i["id"] for i in later] == ["late"]
