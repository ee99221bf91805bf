"""Items through the sync client: CRUD with etags, patch (incl. conditional), transactional
batch, bulk."""

import pytest
from azure.core import MatchConditions
from azure.cosmos import PartitionKey, exceptions

import azure.cosmos


@pytest.fixture
def container(database):
    return database.create_container(id="items", partition_key=PartitionKey(path="/pk"), offer_throughput=400)


def last_status(client):
    return client.wire.exchanges[-1]["status"]


def test_create_read_replace_upsert_delete(client, container):
    created = container.create_item({"id": "i1", "pk": "p", "n": 1})
    assert created["id"] == "i1" and created["n"] == 1
    for prop in ("_rid", "_self", "_etag", "_ts", "_attachments"):
        assert prop in created, prop
    assert last_status(client) == 201
    read = container.read_item("i1", partition_key="p")
    assert read == created

    replaced = container.replace_item("i1", {"id": "i1", "pk": "p", "n": 2})
    assert replaced["n"] == 2 and replaced["_etag"] != created["_etag"]
    assert container.read_item("i1", partition_key="p")["n"] == 2

    up_new = container.upsert_item({"id": "i2", "pk": "p", "n": 10})
    assert last_status(client) == 201 and up_new["n"] == 10
    up_old = container.upsert_item({"id": "i2", "pk": "p", "n": 11})
    assert last_status(client) == 200 and up_old["n"] == 11

    # the same id under another partition key is another item
    container.create_item({"id": "i1", "pk": "q", "n": 100})
    assert container.read_item("i1", partition_key="p")["n"] == 2
    assert container.read_item("i1", partition_key="q")["n"] == 100

    assert sorted(i["id"] + i["pk"] for i in container.read_all_items()) == ["i1p", "i1q", "i2p"]

    container.delete_item("i1", partition_key="p")
    assert last_status(client) == 204
    with pytest.raises(exceptions.CosmosResourceNotFoundError) as e:
        container.read_item("i1", partition_key="p")
    assert e.value.status_code == 404
    assert container.read_item("i1", partition_key="q")["n"] == 100


def test_read_many(container):
    for i in range(6):
        container.create_item({"id": f"m{i}", "pk": f"p{i % 3}", "n": i})
    got = container.read_items([("m1", "p1"), ("m4", "p1"), ("m2", "p2"), ("missing", "p0"), ("m0", "p2")])
    assert sorted(i["id"] for i in got) == ["m1", "m2", "m4"]


def test_create_existing_is_409(container):
    container.create_item({"id": "dup", "pk": "p"})
    with pytest.raises(exceptions.CosmosResourceExistsError) as e:
        container.create_item({"id": "dup", "pk": "p"})
    assert e.value.status_code == 409


def test_etags_if_match(container):
    v1 = container.create_item({"id": "e", "pk": "p", "n": 1})
    v2 = container.replace_item("e", {"id": "e", "pk": "p", "n": 2}, etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
    assert v2["n"] == 2
    # a stale etag: 412, nothing changes
    with pytest.raises(exceptions.CosmosAccessConditionFailedError) as e:
        container.replace_item("e", {"id": "e", "pk": "p", "n": 3}, etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
    assert e.value.status_code == 412
    with pytest.raises(exceptions.CosmosAccessConditionFailedError):
        container.upsert_item({"id": "e", "pk": "p", "n": 3}, etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
    with pytest.raises(exceptions.CosmosAccessConditionFailedError):
        container.delete_item("e", partition_key="p", etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
    with pytest.raises(exceptions.CosmosAccessConditionFailedError):
        container.patch_item("e", partition_key="p", patch_operations=[{"op": "set", "path": "/n", "value": 9}],
                             etag=v1["_etag"], match_condition=MatchConditions.IfNotModified)
    current = container.read_item("e", partition_key="p")
    assert current["n"] == 2 and current["_etag"] == v2["_etag"]
    container.delete_item("e", partition_key="p", etag=v2["_etag"], match_condition=MatchConditions.IfNotModified)
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item("e", partition_key="p")


def test_etags_if_none_match_read_is_304(client, container):
    v1 = container.create_item({"id": "nm", "pk": "p", "n": 1})
    # If-None-Match with the current etag: 304 Not Modified, no body
    result = container.read_item("nm", partition_key="p", etag=v1["_etag"], match_condition=MatchConditions.IfModified)
    assert last_status(client) == 304
    assert not result.get("id"), f"a 304 carries no item: {result!r}"
    assert client.wire.exchanges[-1]["request_headers"].get("If-None-Match") == v1["_etag"]
    # after a change, the same etag gets the new version
    container.replace_item("nm", {"id": "nm", "pk": "p", "n": 2})
    result = container.read_item("nm", partition_key="p", etag=v1["_etag"], match_condition=MatchConditions.IfModified)
    assert last_status(client) == 200 and result["n"] == 2


def test_patch_operations(container):
    container.create_item({"id": "pa", "pk": "p", "n": 1, "tags": ["a"], "old": "x", "nested": {"k": 1}})
    patched = container.patch_item(
        "pa",
        partition_key="p",
        patch_operations=[
            {"op": "set", "path": "/name", "value": "new"},
            {"op": "add", "path": "/tags/-", "value": "b"},
            {"op": "replace", "path": "/nested/k", "value": 2},
            {"op": "remove", "path": "/old"},
            {"op": "incr", "path": "/n", "value": 5},
            {"op": "move", "from": "/name", "path": "/title"},
        ],
    )
    assert patched["n"] == 6
    assert patched["tags"] == ["a", "b"]
    assert patched["nested"] == {"k": 2}
    assert "old" not in patched and "name" not in patched
    assert patched["title"] == "new"
    assert container.read_item("pa", partition_key="p")["_etag"] == patched["_etag"]


def test_conditional_patch(container):
    container.create_item({"id": "cp", "pk": "p", "n": 1})
    ok = container.patch_item("cp", partition_key="p", patch_operations=[{"op": "incr", "path": "/n", "value": 1}],
                              filter_predicate="FROM c WHERE c.n = 1")
    assert ok["n"] == 2
    with pytest.raises(exceptions.CosmosAccessConditionFailedError) as e:
        container.patch_item("cp", partition_key="p", patch_operations=[{"op": "incr", "path": "/n", "value": 1}],
                             filter_predicate="FROM c WHERE c.n = 1")
    assert e.value.status_code == 412
    assert container.read_item("cp", partition_key="p")["n"] == 2


def test_patch_of_the_partition_key_is_refused(container):
    container.create_item({"id": "pk", "pk": "p"})
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        container.patch_item("pk", partition_key="p", patch_operations=[{"op": "set", "path": "/pk", "value": "q"}])
    assert e.value.status_code == 400


def test_transactional_batch(container):
    container.create_item({"id": "r", "pk": "b", "n": 1})
    container.create_item({"id": "d", "pk": "b"})
    results = container.execute_item_batch(
        [
            ("create", ({"id": "c", "pk": "b", "n": 1},)),
            ("upsert", ({"id": "u", "pk": "b", "n": 2},)),
            ("read", ("r",)),
            ("replace", ("r", {"id": "r", "pk": "b", "n": 5})),
            ("patch", ("c", [{"op": "incr", "path": "/n", "value": 10}])),
            ("delete", ("d",)),
        ],
        partition_key="b",
    )
    assert [r["statusCode"] for r in results] == [201, 201, 200, 200, 200, 204]
    assert results[2]["resourceBody"]["n"] == 1
    assert container.read_item("c", partition_key="b")["n"] == 11
    assert container.read_item("r", partition_key="b")["n"] == 5
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item("d", partition_key="b")


def test_transactional_batch_is_atomic(container):
    container.create_item({"id": "x", "pk": "b", "n": 1})
    with pytest.raises(exceptions.CosmosBatchOperationError) as e:
        container.execute_item_batch(
            [
                ("create", ({"id": "new1", "pk": "b"},)),
                ("replace", ("x", {"id": "x", "pk": "b", "n": 2})),
                ("create", ({"id": "x", "pk": "b"},)),  # exists: 409
                ("create", ({"id": "new2", "pk": "b"},)),
            ],
            partition_key="b",
        )
    assert e.value.error_index == 2
    statuses = [r["statusCode"] for r in e.value.operation_responses]
    assert statuses[2] == 409, statuses
    assert all(s == 424 for i, s in enumerate(statuses) if i != 2), statuses
    # nothing applied
    assert container.read_item("x", partition_key="b")["n"] == 1
    for missing in ("new1", "new2"):
        with pytest.raises(exceptions.CosmosResourceNotFoundError):
            container.read_item(missing, partition_key="b")


def test_transactional_batch_with_an_etag_condition(container):
    v1 = container.create_item({"id": "et", "pk": "b", "n": 1})
    container.replace_item("et", {"id": "et", "pk": "b", "n": 2})
    with pytest.raises(exceptions.CosmosBatchOperationError) as e:
        container.execute_item_batch(
            [("replace", ("et", {"id": "et", "pk": "b", "n": 3}), {"if_match_etag": v1["_etag"]})],
            partition_key="b",
        )
    assert e.value.operation_responses[0]["statusCode"] == 412


def test_transactional_batch_with_another_partitions_item_is_refused(container):
    with pytest.raises(exceptions.CosmosBatchOperationError) as e:
        container.execute_item_batch([("create", ({"id": "w", "pk": "other"},))], partition_key="b")
    assert e.value.status_code == 400
    assert e.value.error_index == 0
    # the service's "wrong partition key value" (aka.ms/CosmosDB/sql/errors/wrong-pk-value): 400/1001
    assert e.value.operation_responses[0]["statusCode"] == 400
    assert e.value.operation_responses[0]["subStatusCode"] == 1001
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.read_item("w", partition_key="other")


def test_partition_key_with_more_components_than_the_container(container):
    container.create_item({"id": "k", "pk": "a"})
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        container.read_item("k", partition_key=["a", "b"])
    assert e.value.status_code == 400
    assert not isinstance(e.value, (exceptions.CosmosResourceNotFoundError, exceptions.CosmosResourceExistsError))


def test_bulk():
    if not hasattr(azure.cosmos.ContainerProxy, "execute_item_bulk"):
        pytest.skip(f"azure-cosmos {azure.cosmos.__version__} has no bulk API (no ContainerProxy.execute_item_bulk)")
    raise AssertionError("azure-cosmos now has a bulk API: write its test")
