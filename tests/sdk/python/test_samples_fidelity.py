"""What the SDK's own samples (azure-cosmos 4.17.1, samples/) do that Orrery once got
wrong (issue 47): items addressed by their _self link, the indexing directive and
`automatic: false`, the root index path "/", patch set at the array's length, GROUP BY
order, and the substatus of errors. Expected values come from the samples and the
service's documentation."""

import pytest
from azure.cosmos import PartitionKey, exceptions
from azure.cosmos import documents

from conftest import unique_id


@pytest.fixture
def container(database):
    return database.create_container(id=unique_id("fid"), partition_key=PartitionKey(path="/pk"))


# --- 1. Items by their _self (rid) link: the SDK sends dbs/<rid>/colls/<rid>/docs/<rid>/
# whenever the item is passed as a dict (document_management.py does it for every verb).


def test_item_passed_as_a_dict_is_addressed_by_its_self_link(client, container):
    created = container.create_item({"id": "d1", "pk": "p", "n": 1})
    assert created["_self"].startswith("dbs/") and "/docs/" in created["_self"]

    read = container.read_item(created, partition_key="p")
    assert read == created
    assert client.wire.exchanges[-1]["status"] == 200
    assert "/docs/" + created["_rid"] in client.wire.exchanges[-1]["url"]

    replaced = container.replace_item(created, {"id": "d1", "pk": "p", "n": 2})
    assert replaced["n"] == 2 and replaced["_rid"] == created["_rid"]
    assert container.read_item("d1", partition_key="p")["n"] == 2

    patched = container.patch_item(replaced, partition_key="p", patch_operations=[{"op": "incr", "path": "/n", "value": 5}])
    assert patched["n"] == 7

    container.delete_item(patched, partition_key="p")
    assert client.wire.exchanges[-1]["status"] == 204
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item("d1", partition_key="p")
    # The rid of a deleted item names nothing, for every verb.
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item(created, partition_key="p")
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.replace_item(created, {"id": "d1", "pk": "p", "n": 3})
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.delete_item(created, partition_key="p")
    # An item created again under the same id has a new rid: the old link stays dead.
    again = container.create_item({"id": "d1", "pk": "p", "n": 9})
    assert again["_rid"] != created["_rid"]
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item(created, partition_key="p")
    assert container.read_item(again, partition_key="p")["n"] == 9


def test_self_links_of_items_of_one_id_in_two_partitions_are_told_apart(container):
    a = container.create_item({"id": "same", "pk": "a", "v": "A"})
    b = container.create_item({"id": "same", "pk": "b", "v": "B"})
    assert a["_rid"] != b["_rid"]
    assert container.read_item(a, partition_key="a")["v"] == "A"
    assert container.read_item(b, partition_key="b")["v"] == "B"


# --- 4. x-ms-indexing-directive and automatic: false (index_management.py's
# explicitly_exclude_from_index and use_manual_indexing).


def order_query(container, order):
    return list(
        container.query_items(
            {"query": "SELECT * FROM r WHERE r.orderId=@orderNo", "parameters": [{"name": "@orderNo", "value": order}]},
            enable_cross_partition_query=True,
        )
    )


def test_an_item_written_with_exclude_is_not_found_by_queries_but_by_id(database):
    container = database.create_container(id=unique_id("excl"), partition_key=PartitionKey(path="/id"))
    container.create_item(body={"id": "doc1", "orderId": "order1"})
    assert [d["id"] for d in order_query(container, "order1")] == ["doc1"]

    container.create_item(body={"id": "doc2", "orderId": "order2"}, indexing_directive=documents.IndexingDirective.Exclude)
    assert order_query(container, "order2") == []
    assert container.read_item(item="doc2", partition_key="doc2")["orderId"] == "order2"
    # Reached by its id, and by a query without a filter.
    by_id = list(container.query_items("SELECT * FROM r WHERE r.id = 'doc2'", enable_cross_partition_query=True))
    assert [d["id"] for d in by_id] == ["doc2"]
    everything = list(container.query_items("SELECT VALUE r.id FROM r", enable_cross_partition_query=True))
    assert sorted(everything) == ["doc1", "doc2"]

    # Replaced without a directive (create_item alone takes one in this SDK), it is indexed
    # as the policy's automatic says; recreated with Exclude, out again.
    container.replace_item("doc2", {"id": "doc2", "orderId": "order2"})
    assert [d["id"] for d in order_query(container, "order2")] == ["doc2"]
    container.delete_item("doc2", partition_key="doc2")
    container.create_item(body={"id": "doc2", "orderId": "order2"}, indexing_directive=documents.IndexingDirective.Exclude)
    assert order_query(container, "order2") == []
    container.create_item(body={"id": "doc3", "orderId": "order2"}, indexing_directive=documents.IndexingDirective.Include)
    assert [d["id"] for d in order_query(container, "order2")] == ["doc3"]


def test_a_container_with_automatic_false_indexes_only_what_is_included(database):
    container = database.create_container(id=unique_id("manual"), indexing_policy={"automatic": False}, partition_key=PartitionKey(path="/id"))
    assert container.read()["indexingPolicy"]["automatic"] is False
    container.create_item(body={"id": "doc1", "orderId": "order1"})
    assert order_query(container, "order1") == []
    assert container.read_item(item="doc1", partition_key="doc1")["id"] == "doc1"
    container.create_item(body={"id": "doc2", "orderId": "order2"}, indexing_directive=documents.IndexingDirective.Include)
    assert [d["id"] for d in order_query(container, "order2")] == ["doc2"]
    # ORDER BY reads the index: only the included item.
    ordered = list(container.query_items("SELECT VALUE r.id FROM r ORDER BY r.orderId", enable_cross_partition_query=True))
    assert ordered == ["doc2"]


# --- 5. The root index path "/" (index_management.py's range_scan_on_hash_index).


def test_the_root_path_slash_is_accepted_as_the_whole_tree(database):
    policy = {"includedPaths": [{"path": "/"}], "excludedPaths": [{"path": "/length/*"}]}
    container = database.create_container(id=unique_id("root"), indexing_policy=policy, partition_key=PartitionKey(path="/id"))
    read_policy = container.read()["indexingPolicy"]
    assert [p["path"] for p in read_policy["includedPaths"]] == ["/"]
    assert "/length/*" in [p["path"] for p in read_policy["excludedPaths"]]
    for doc in ({"id": "dyn1", "length": 10, "width": 5, "height": 15}, {"id": "dyn2", "length": 7, "width": 15}, {"id": "dyn3", "length": 2}):
        container.create_item(body=doc)
    wide = list(container.query_items("SELECT VALUE r.id FROM r WHERE r.width > 10", enable_cross_partition_query=True))
    assert wide == ["dyn2"]
    long = list(container.query_items("SELECT VALUE r.id FROM r WHERE r.length > 5", enable_cross_partition_query=True, enable_scan_in_query=True))
    assert sorted(long) == ["dyn1", "dyn2"]


def test_a_policy_without_the_root_path_is_refused_with_the_services_message(database):
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        database.create_container(id=unique_id("noroot"), indexing_policy={"includedPaths": [{"path": "/name/?"}]}, partition_key=PartitionKey(path="/id"))
    assert e.value.status_code == 400
    assert 'The special mandatory indexing path \\"/\\" is not provided' in e.value.message or 'The special mandatory indexing path "/" is not provided' in e.value.message


# --- 6. Patch set at the array's length appends (Microsoft's patch samples).


def test_patch_set_at_the_length_of_an_array_appends(container):
    container.create_item({"id": "parent", "pk": "p", "children": [{"name": "c1"}]})
    patched = container.patch_item("parent", "p", [{"op": "set", "path": "/children/1", "value": {"name": "c4"}}])
    assert patched["children"] == [{"name": "c1"}, {"name": "c4"}]
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        container.patch_item("parent", "p", [{"op": "replace", "path": "/children/2", "value": {"name": "c5"}}])
    assert e.value.status_code == 400
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        container.patch_item("parent", "p", [{"op": "set", "path": "/children/3", "value": {"name": "c5"}}])
    assert e.value.status_code == 400
    assert container.read_item("parent", "p")["children"] == [{"name": "c1"}, {"name": "c4"}]


# --- 7. GROUP BY order (Microsoft's query samples group-by and group-by-multiple).

EMPLOYEES = [
    ("3548979698", "python", True),
    ("4228924547", "javascript", False),
    ("2941063066", "c-sharp", True),
    ("9318573296", "javascript", True),
    ("3601062997", None, True),
    ("7074932233", "python", False),
    ("3798545532", "javascript", True),
]


def test_group_by_orders_one_key_by_value_and_several_by_first_item(container):
    for id_, language, media in EMPLOYEES:
        capabilities = {"mediaTrained": media}
        if language is not None:
            capabilities["softwareDevelopment"] = language
        container.create_item({"id": id_, "pk": "e", "capabilities": capabilities, "team": "Cloud software engineering"})
    one = list(
        container.query_items(
            'SELECT e.capabilities.softwareDevelopment AS developmentLang FROM employees e WHERE e.team = "Cloud software engineering" GROUP BY e.capabilities.softwareDevelopment',
            partition_key="e",
        )
    )
    assert one == [{}, {"developmentLang": "c-sharp"}, {"developmentLang": "javascript"}, {"developmentLang": "python"}]
    two = list(
        container.query_items(
            "SELECT COUNT(1) AS employeesWithThisTraining, e.capabilities.softwareDevelopment AS developmentLang, "
            'e.capabilities.mediaTrained AS mediaReady FROM employees e WHERE e.team = "Cloud software engineering" '
            "GROUP BY e.capabilities.softwareDevelopment, e.capabilities.mediaTrained",
            partition_key="e",
        )
    )
    assert two == [
        {"employeesWithThisTraining": 1, "developmentLang": "python", "mediaReady": True},
        {"employeesWithThisTraining": 1, "developmentLang": "javascript", "mediaReady": False},
        {"employeesWithThisTraining": 1, "developmentLang": "c-sharp", "mediaReady": True},
        {"employeesWithThisTraining": 2, "developmentLang": "javascript", "mediaReady": True},
        {"employeesWithThisTraining": 1, "mediaReady": True},
        {"employeesWithThisTraining": 1, "developmentLang": "python", "mediaReady": False},
    ]


# --- 8. Substatus headers: 0 where the status says it all, 1003 when the owner is missing.


def test_errors_carry_their_substatus(client, database, container):
    with pytest.raises(exceptions.CosmosResourceNotFoundError) as e:
        container.read_item("missing", partition_key="p")
    assert e.value.sub_status == 0
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        container.create_item({"id": "", "pk": "p"})
    assert e.value.status_code == 400 and e.value.sub_status == 0
    with pytest.raises(exceptions.CosmosResourceExistsError) as e:
        container.create_item({"id": "dup", "pk": "p"})
        container.create_item({"id": "dup", "pk": "p"})
    assert e.value.sub_status == 0
    # A missing container read is 404/0 (the item operations under it answer 1003, but
    # this SDK reads the container first: the Go and JS suites check those).
    gone = database.get_container_client("never-created")
    with pytest.raises(exceptions.CosmosResourceNotFoundError) as e:
        gone.read()
    assert e.value.sub_status == 0


# --- 2. Partition-key delete (document_management.py's delete_all_items_by_partition_key):
# the items of the key are gone at once, the rest stay, and the id may be used again.


def ids_of(container, query="SELECT VALUE c.id FROM c", **kwargs):
    return sorted(container.query_items(query, enable_cross_partition_query=True, **kwargs))


def test_delete_all_items_by_partition_key(client, container):
    for i in range(3):
        container.create_item({"id": f"a{i}", "pk": "a", "n": i})
        container.create_item({"id": f"b{i}", "pk": "b", "n": i})
    assert container.delete_all_items_by_partition_key("a") is None
    exchange = client.wire.exchanges[-1]
    assert exchange["status"] == 200
    assert exchange["url"].endswith("/operations/partitionkeydelete")
    assert ids_of(container) == ["b0", "b1", "b2"]
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item("a1", partition_key="a")
    assert list(container.query_items("SELECT * FROM c", partition_key="a")) == []
    # The id is free at once, and the new item is not in the delete's scope.
    container.create_item({"id": "a1", "pk": "a", "n": 10})
    assert container.read_item("a1", partition_key="a")["n"] == 10
    # A key without items (None, an unused one) is accepted as the SDK's own tests expect.
    container.delete_all_items_by_partition_key("nobody")
    container.delete_all_items_by_partition_key(None)
    assert ids_of(container) == ["a1", "b0", "b1", "b2"]


def test_delete_all_items_by_partition_key_needs_the_full_hierarchical_key(database):
    container = database.create_container(
        id=unique_id("hpk"), partition_key=PartitionKey(path=["/t", "/u"], kind="MultiHash")
    )
    container.create_item({"id": "1", "t": "x", "u": "y"})
    container.create_item({"id": "2", "t": "x", "u": "z"})
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        container.delete_all_items_by_partition_key(["x"])
    assert e.value.status_code == 400
    assert ids_of(container) == ["1", "2"]
    container.delete_all_items_by_partition_key(["x", "y"])
    assert ids_of(container) == ["2"]


def test_delete_all_items_by_partition_key_aio(server):
    import asyncio

    from conftest import aio_client

    async def main():
        async with aio_client(server) as client:
            database = await client.create_database(unique_id("pkdel"))
            try:
                container = await database.create_container(id="c", partition_key=PartitionKey(path="/pk"))
                for pk in ("a", "a", "b"):
                    await container.create_item({"id": unique_id("i"), "pk": pk})
                await container.delete_all_items_by_partition_key("a")
                return [d["pk"] async for d in container.query_items("SELECT * FROM c")]
            finally:
                await client.delete_database(database.id)

    assert asyncio.run(main()) == ["b"]


# --- 3. Legacy non-partitioned containers: created by a client of an API version before
# 2018-12-31 (as the Java SDK's own CosmosPartitionKeyTests does, x-ms-version 2018-09-17),
# seen by this SDK with the system key; NonePartitionKeyValue addresses the items
# without `_partitionKey`.


def create_legacy_container(server, database_id, container_id):
    import base64
    import hashlib
    import hmac
    import urllib.parse
    from email.utils import formatdate

    import requests

    from orrery_server import KEY

    date = formatdate(usegmt=True)
    text = f"post\ncolls\ndbs/{database_id}\n{date.lower()}\n\n"
    signature = base64.b64encode(hmac.new(base64.b64decode(KEY), text.encode(), hashlib.sha256).digest()).decode()
    response = requests.post(
        f"{server.endpoint}dbs/{database_id}/colls",
        json={"id": container_id},
        headers={
            "authorization": urllib.parse.quote(f"type=master&ver=1.0&sig={signature}", safe=""),
            "x-ms-date": date,
            "x-ms-version": "2018-09-17",
        },
        timeout=10,
    )
    assert response.status_code == 201, response.text
    assert "partitionKey" not in response.json()


def test_legacy_container_without_a_partition_key(server, database):
    from azure.cosmos.partition_key import NonePartitionKeyValue

    create_legacy_container(server, database.id, "legacy")
    container = database.get_container_client("legacy")
    definition = container.read()["partitionKey"]
    assert definition["paths"] == ["/_partitionKey"] and definition["systemKey"] is True
    assert container.is_system_key is True

    container.create_item({"id": "old", "n": 1})  # the SDK sends [] for it
    container.create_item({"id": "keyed", "_partitionKey": "k", "n": 2})
    assert container.read_item("old", partition_key=NonePartitionKeyValue)["n"] == 1
    assert container.read_item("keyed", partition_key="k")["n"] == 2
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item("keyed", partition_key=NonePartitionKeyValue)
    container.replace_item("old", {"id": "old", "n": 3})
    assert container.read_item("old", partition_key=NonePartitionKeyValue)["n"] == 3
    patched = container.patch_item("old", NonePartitionKeyValue, [{"op": "incr", "path": "/n", "value": 1}])
    assert patched["n"] == 4
    assert ids_of(container, partition_key=NonePartitionKeyValue) == ["old"]
    assert ids_of(container, partition_key="k") == ["keyed"]
    assert ids_of(container) == ["keyed", "old"]
    container.delete_all_items_by_partition_key(NonePartitionKeyValue)
    assert ids_of(container) == ["keyed"]
    container.delete_item("keyed", partition_key="k")
    assert ids_of(container) == []
