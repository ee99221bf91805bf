"""The aio client (azure.cosmos.aio.CosmosClient over aiohttp): CRUD basics, etags, patch,
batch, change feed, throughput, session tokens, errors by type. Each test runs its own
event loop (asyncio.run)."""

import asyncio

import pytest
from azure.core import MatchConditions
from azure.cosmos import PartitionKey, exceptions

from conftest import aio_client, unique_id


def run(server, body):
    async def main():
        async with aio_client(server) as client:
            db = await client.create_database(unique_id("aio"))
            try:
                await body(client, db)
            finally:
                await client.delete_database(db.id)

    asyncio.run(main())


def test_database_and_container_crud(server):
    async def body(client, db):
        assert (await db.read())["id"] == db.id
        assert db.id in [d["id"] async for d in client.list_databases()]
        c = await db.create_container(id="c", partition_key=PartitionKey(path="/pk"), offer_throughput=400)
        props = await c.read()
        assert props["partitionKey"]["paths"] == ["/pk"]
        assert (await c.get_throughput()).offer_throughput == 400
        await c.replace_throughput(700)
        assert (await c.get_throughput()).offer_throughput == 700
        with pytest.raises(exceptions.CosmosResourceExistsError):
            await db.create_container(id="c", partition_key=PartitionKey(path="/pk"))
        h = await db.create_container(
            id="h", partition_key=PartitionKey(path=["/t", "/u"], kind="MultiHash"), offer_throughput=400
        )
        hp = await h.read()
        assert hp["partitionKey"]["kind"] == "MultiHash" and hp["partitionKey"]["paths"] == ["/t", "/u"]
        await h.create_item({"id": "1", "t": "a", "u": "x"})
        await h.create_item({"id": "2", "t": "a", "u": "y"})
        await h.create_item({"id": "3", "t": "b", "u": "x"})
        assert (await h.read_item("2", partition_key=["a", "y"]))["u"] == "y"
        prefix = sorted([r async for r in h.query_items("SELECT VALUE c.id FROM c", partition_key=["a"])])
        assert prefix == ["1", "2"]
        assert sorted([x["id"] async for x in db.list_containers()]) == ["c", "h"]
        await db.delete_container("c")
        with pytest.raises(exceptions.CosmosResourceNotFoundError) as e:
            await c.read()
        assert e.value.status_code == 404

    run(server, body)


def test_items_with_etags(server):
    async def body(client, db):
        c = await db.create_container(id="c", partition_key=PartitionKey(path="/pk"))
        v1 = await c.create_item({"id": "i", "pk": "p", "n": 1})
        assert (await c.read_item("i", partition_key="p"))["n"] == 1
        v2 = await c.replace_item("i", {"id": "i", "pk": "p", "n": 2}, etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
        with pytest.raises(exceptions.CosmosAccessConditionFailedError) as e:
            await c.replace_item("i", {"id": "i", "pk": "p", "n": 3}, etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
        assert e.value.status_code == 412
        await c.read_item("i", partition_key="p", etag=v2["_etag"], match_condition=MatchConditions.IfModified)
        assert client.wire.exchanges[-1]["status"] == 304
        up = await c.upsert_item({"id": "i", "pk": "p", "n": 4})
        assert up["n"] == 4
        with pytest.raises(exceptions.CosmosResourceExistsError):
            await c.create_item({"id": "i", "pk": "p"})
        with pytest.raises(exceptions.CosmosResourceNotFoundError):
            await c.read_item("nope", partition_key="p")
        await c.delete_item("i", partition_key="p")
        with pytest.raises(exceptions.CosmosResourceNotFoundError):
            await c.delete_item("i", partition_key="p")
        with pytest.raises(exceptions.CosmosHttpResponseError) as e:
            await c.create_item({"id": "big", "pk": "p", "pad": "x" * 2_200_000})
        assert e.value.status_code == 413

    run(server, body)


def test_patch_and_batch(server):
    async def body(client, db):
        c = await db.create_container(id="c", partition_key=PartitionKey(path="/pk"))
        await c.create_item({"id": "p", "pk": "b", "n": 1})
        patched = await c.patch_item("p", partition_key="b", patch_operations=[{"op": "incr", "path": "/n", "value": 2}, {"op": "add", "path": "/x", "value": True}])
        assert patched["n"] == 3 and patched["x"] is True
        with pytest.raises(exceptions.CosmosAccessConditionFailedError):
            await c.patch_item("p", partition_key="b", patch_operations=[{"op": "set", "path": "/n", "value": 0}], filter_predicate="FROM c WHERE c.n = 1")
        results = await c.execute_item_batch(
            [("create", ({"id": "q", "pk": "b"},)), ("read", ("p",)), ("delete", ("p",))], partition_key="b"
        )
        assert [r["statusCode"] for r in results] == [201, 200, 204]
        with pytest.raises(exceptions.CosmosBatchOperationError) as e:
            await c.execute_item_batch([("create", ({"id": "r", "pk": "b"},)), ("create", ({"id": "q", "pk": "b"},))], partition_key="b")
        assert e.value.error_index == 1
        with pytest.raises(exceptions.CosmosResourceNotFoundError):
            await c.read_item("r", partition_key="b")

    run(server, body)


def test_query_pages_and_continuation(server):
    async def body(client, db):
        c = await db.create_container(id="c", partition_key=PartitionKey(path="/pk"))
        for i in range(9):
            await c.create_item({"id": f"i{i}", "pk": "same", "n": i})
        pager = c.query_items("SELECT VALUE c.n FROM c ORDER BY c.n", partition_key="same", max_item_count=4).by_page()
        first = [r async for r in await pager.__anext__()]
        assert first == [0, 1, 2, 3]
        token = pager.continuation_token
        assert token
        rest = []
        async for page in c.query_items("SELECT VALUE c.n FROM c ORDER BY c.n", partition_key="same", max_item_count=4).by_page(token):
            got = [r async for r in page]
            assert len(got) <= 4
            rest.extend(got)
        assert rest == [4, 5, 6, 7, 8]

    run(server, body)


def test_change_feed_and_session(server):
    async def body(client, db):
        c = await db.create_container(id="c", partition_key=PartitionKey(path="/pk"))
        for i in range(4):
            await c.create_item({"id": f"i{i}", "pk": f"p{i % 2}"})
        token = client.wire.exchanges[-1]["session"]
        assert token
        await c.read_item("i3", partition_key="p1")
        assert client.wire.exchanges[-1]["sent_session"]
        items = [r async for r in c.query_items_change_feed(start_time="Beginning")]
        assert sorted(r["id"] for r in items) == ["i0", "i1", "i2", "i3"]
        cont = c.client_connection.last_response_headers["etag"]
        await c.create_item({"id": "later", "pk": "p0"})
        later = [r async for r in c.query_items_change_feed(continuation=cont)]
        assert [r["id"] for r in later] == ["later"]

    run(server, body)
