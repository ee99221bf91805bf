"""Databases and containers through the sync client: CRUD, single and hierarchical partition
keys, throughput read/replace."""

import pytest
from azure.cosmos import PartitionKey, ThroughputProperties, exceptions

from conftest import unique_id


def test_database_crud_with_throughput(client):
    db_id = unique_id("db")
    db = client.create_database(db_id, offer_throughput=400)
    try:
        props = db.read()
        assert props["id"] == db_id and props["_rid"] and props["_etag"]
        assert db_id in [d["id"] for d in client.list_databases()]
        found = list(client.query_databases(query="SELECT * FROM r WHERE r.id = @id", parameters=[{"name": "@id", "value": db_id}]))
        assert [d["id"] for d in found] == [db_id]
        assert db.get_throughput().offer_throughput == 400
        db.replace_throughput(1000)
        assert db.get_throughput().offer_throughput == 1000
        with pytest.raises(exceptions.CosmosResourceExistsError) as e:
            client.create_database(db_id)
        assert e.value.status_code == 409
        # create_database_if_not_exists returns the existing one
        assert client.create_database_if_not_exists(db_id).read()["_rid"] == props["_rid"]
    finally:
        client.delete_database(db_id)
    with pytest.raises(exceptions.CosmosResourceNotFoundError) as e:
        db.read()
    assert e.value.status_code == 404
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        client.delete_database(db_id)


def test_container_crud_single_key(database):
    c = database.create_container(
        id="orders", partition_key=PartitionKey(path="/customerId"), offer_throughput=400, default_ttl=3600
    )
    props = c.read()
    assert props["id"] == "orders"
    assert props["partitionKey"]["paths"] == ["/customerId"]
    assert props["partitionKey"]["kind"] == "Hash"
    assert props["partitionKey"].get("version") == 2  # the SDK's default for new containers
    assert props["defaultTtl"] == 3600
    assert props["indexingPolicy"]["indexingMode"] == "consistent"
    assert c.get_throughput().offer_throughput == 400
    c.replace_throughput(600)
    assert c.get_throughput().offer_throughput == 600

    replaced = database.replace_container(c, partition_key=PartitionKey(path="/customerId"), default_ttl=60)
    assert replaced.read()["defaultTtl"] == 60
    assert "orders" in [x["id"] for x in database.list_containers()]
    assert [x["id"] for x in database.query_containers(query="SELECT * FROM c WHERE c.id = 'orders'")] == ["orders"]
    with pytest.raises(exceptions.CosmosResourceExistsError):
        database.create_container(id="orders", partition_key=PartitionKey(path="/customerId"))
    same = database.create_container_if_not_exists(id="orders", partition_key=PartitionKey(path="/customerId"))
    assert same.read()["_rid"] == props["_rid"]
    database.delete_container("orders")
    with pytest.raises(exceptions.CosmosResourceNotFoundError) as e:
        c.read()
    assert e.value.status_code == 404


def test_container_partition_key_cannot_change(database):
    c = database.create_container(id="fixed", partition_key=PartitionKey(path="/a"))
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        database.replace_container(c, partition_key=PartitionKey(path="/b"))
    assert e.value.status_code == 400


def test_container_crud_hierarchical_key(database):
    pk = PartitionKey(path=["/tenant", "/user", "/session"], kind="MultiHash")
    c = database.create_container(id="hier", partition_key=pk, offer_throughput=400)
    props = c.read()
    assert props["partitionKey"]["paths"] == ["/tenant", "/user", "/session"]
    assert props["partitionKey"]["kind"] == "MultiHash"
    assert props["partitionKey"]["version"] == 2
    assert c.get_throughput().offer_throughput == 400

    items = [
        {"id": "1", "tenant": "t1", "user": "u1", "session": "s1", "n": 1},
        {"id": "2", "tenant": "t1", "user": "u1", "session": "s2", "n": 2},
        {"id": "3", "tenant": "t1", "user": "u2", "session": "s1", "n": 3},
        {"id": "4", "tenant": "t2", "user": "u1", "session": "s1", "n": 4},
        # the same id under another full key is another item
        {"id": "1", "tenant": "t2", "user": "u9", "session": "s9", "n": 5},
    ]
    for item in items:
        c.create_item(item)
    assert c.read_item("1", partition_key=["t1", "u1", "s1"])["n"] == 1
    assert c.read_item("1", partition_key=["t2", "u9", "s9"])["n"] == 5
    # prefix keys: one level, two levels
    by_tenant = sorted(r for r in c.query_items("SELECT VALUE c.n FROM c", partition_key=["t1"]))
    assert by_tenant == [1, 2, 3]
    by_user = sorted(r for r in c.query_items("SELECT VALUE c.n FROM c", partition_key=["t1", "u1"]))
    assert by_user == [1, 2]
    c.delete_item("2", partition_key=["t1", "u1", "s2"])
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        c.read_item("2", partition_key=["t1", "u1", "s2"])
    database.delete_container(c)


def test_hierarchical_key_of_more_than_three_paths_is_refused(database):
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        database.create_container(
            id="toodeep", partition_key=PartitionKey(path=["/a", "/b", "/c", "/d"], kind="MultiHash")
        )
    assert e.value.status_code == 400


def test_autoscale_throughput(database):
    c = database.create_container(
        id="auto", partition_key=PartitionKey(path="/pk"), offer_throughput=ThroughputProperties(auto_scale_max_throughput=4000)
    )
    t = c.get_throughput()
    assert t.auto_scale_max_throughput == 4000
    c.replace_throughput(ThroughputProperties(auto_scale_max_throughput=5000))
    assert c.get_throughput().auto_scale_max_throughput == 5000


def test_database_with_shared_throughput(client):
    db = client.create_database(unique_id("shared"), offer_throughput=400)
    try:
        db.create_container(id="a", partition_key=PartitionKey(path="/pk"))
        db.create_container(id="b", partition_key=PartitionKey(path="/pk"))
        assert db.get_throughput().offer_throughput == 400
        db.replace_throughput(800)
        assert db.get_throughput().offer_throughput == 800
    finally:
        client.delete_database(db)


@pytest.mark.xfail(
    raises=AttributeError,
    strict=False,
    reason="azure-cosmos 4.17.1 bug: the empty offer list becomes a 404/10004 that _retry_utility.py hands to the "
    "container-recreate policy, whose container link is None: ReadContainer(None) raises AttributeError",
)
def test_container_in_a_shared_throughput_database_has_no_offer_of_its_own(client):
    db = client.create_database(unique_id("shared"), offer_throughput=400)
    try:
        c = db.create_container(id="noth", partition_key=PartitionKey(path="/pk"))
        with pytest.raises(exceptions.CosmosResourceNotFoundError):
            c.get_throughput()
    finally:
        client.delete_database(db)


def test_container_without_throughput_in_a_plain_database_gets_the_default_400(database):
    # The service provisions 400 RU/s manual throughput for a dedicated container created
    # without any.
    c = database.create_container(id="default", partition_key=PartitionKey(path="/pk"))
    assert c.get_throughput().offer_throughput == 400
