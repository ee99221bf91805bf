"""A container that splits while the SDK reads, writes and pages a query (a server with
--partition-split-bytes 49152): no error surfaces, nothing is missed or doubled."""

import threading
import time

import pytest
from azure.cosmos import PartitionKey

from conftest import sync_client, unique_id
from orrery_server import OrreryServer

PAD = "x" * 300
FIRST, SECOND = 60, 600  # items of ~500 bytes: 30 KB (under 48 KB) first, then 300 KB more
WRITERS = 4
DEADLINE_S = 120


@pytest.fixture(scope="module")
def splitting_server():
    s = OrreryServer("--partition-split-bytes", str(48 * 1024)).start()
    yield s
    s.stop()


def item(batch, i):
    return {"id": f"{batch}{i}", "pk": f"k{i % 97}", "batch": batch, "n": i, "pad": PAD}


def write_all(container, items, errors):
    queue = list(items)
    lock = threading.Lock()

    def writer():
        while True:
            with lock:
                if not queue:
                    return
                it = queue.pop()
            try:
                container.create_item(it)
                container.read_item(it["id"], partition_key=it["pk"])
            except Exception as e:  # collected, asserted below
                errors.append(f"write/read {it['id']}: {e!r}"[:400])

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for t in threads:
        t.start()
    return threads


def test_split_while_reading_writing_and_paging(splitting_server):
    client = sync_client(splitting_server)
    db = client.create_database(unique_id("split"))
    try:
        container = db.create_container(id="c", partition_key=PartitionKey(path="/pk"), offer_throughput=400)
        assert len(list(container.read_feed_ranges())) == 1
        errors = []
        for t in write_all(container, [item("a", i) for i in range(FIRST)], errors):
            t.join(DEADLINE_S)
        assert not errors, errors[:5]
        assert len(list(container.read_feed_ranges())) == 1, "30 KB: not split yet"

        # a query paged before the splits, its continuation saved ...
        query = "SELECT c.id FROM c WHERE c.batch = 'a'"
        pager = container.query_items(query, enable_cross_partition_query=True, max_item_count=15).by_page()
        seen = [r["id"] for r in next(pager)] + [r["id"] for r in next(pager)]
        token = pager.continuation_token
        assert token and len(seen) <= 30

        # ... the container splits while 4 writers create and read, and a query loop pages
        writing = True
        query_errors, counts = [], []

        def query_loop():
            while writing:
                try:
                    rows = []
                    for page in container.query_items(
                        "SELECT c.id FROM c WHERE c.batch = 'a'", enable_cross_partition_query=True, max_item_count=40
                    ).by_page():
                        rows.extend(r["id"] for r in page)
                    counts.append(len(rows))
                    assert sorted(rows) == sorted(f"a{i}" for i in range(FIRST)), "a paged query mid-split"
                except Exception as e:
                    query_errors.append(repr(e)[:400])

        q = threading.Thread(target=query_loop)
        q.start()
        writers = write_all(container, [item("b", i) for i in range(SECOND)], errors)
        for t in writers:
            t.join(DEADLINE_S)
        deadline = time.monotonic() + 60
        while len(list(container.read_feed_ranges())) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        writing = False
        q.join(DEADLINE_S)
        assert not errors, errors[:5]
        assert not query_errors, query_errors[:5]
        assert counts, "the query loop ran"
        ranges = list(container.read_feed_ranges())
        assert len(ranges) >= 2, "330 KB in a container that splits beyond 48 KB"

        # ... and resumed from the saved token after them: each item exactly once
        for page in container.query_items(query, enable_cross_partition_query=True, max_item_count=15).by_page(token):
            seen.extend(r["id"] for r in page)
        assert sorted(seen) == sorted(f"a{i}" for i in range(FIRST)), "resumed across the split: missed or doubled"

        # every item reads back; a query by a client that knew the old ranges and one by a
        # new client see each item once
        everything = sorted([f"a{i}" for i in range(FIRST)] + [f"b{i}" for i in range(SECOND)])
        for c in (container, sync_client(splitting_server).get_database_client(db.id).get_container_client("c")):
            ids = [r for r in c.query_items("SELECT VALUE c.id FROM c", enable_cross_partition_query=True, max_item_count=100)]
            assert sorted(ids) == everything
            assert list(c.query_items("SELECT VALUE COUNT(1) FROM c", enable_cross_partition_query=True)) == [len(everything)]
            ordered = [r for r in c.query_items("SELECT VALUE c.n FROM c WHERE c.batch = 'b' ORDER BY c.n", enable_cross_partition_query=True)]
            assert ordered == list(range(SECOND))
        for it in (item("a", 7), item("b", 599)):
            assert container.read_item(it["id"], partition_key=it["pk"])["n"] == it["n"]

        # the change feed gives every item once across the splits, over the new feed ranges
        feed = []
        for feed_range in ranges:
            for page in container.query_items_change_feed(start_time="Beginning", feed_range=feed_range, max_item_count=100).by_page():
                feed.extend(r["id"] for r in page)
        assert sorted(feed) == everything
    finally:
        client.delete_database(db)
        client.close()
