"""Server-side scripts through azure-cosmos's container.scripts (issue 48): stored
procedures created, listed, executed (the SDK executes a stored procedure given as a
dict through its _self link), their transaction rolled back by a throw; a pre-trigger
that stamps the item it is named for; a user-defined function in a query. Expected
values come from Microsoft's samples and the tests' own data."""

import pytest
from azure.cosmos import PartitionKey, exceptions

from conftest import unique_id

BULK_IMPORT = """function bulkImport(docs) {
  var collection = getContext().getCollection();
  var count = 0;
  if (!docs) throw new Error("The array is undefined or null.");
  if (docs.length == 0) { getContext().getResponse().setBody(0); return; }
  tryCreate(docs[count], callback);
  function tryCreate(doc, callback) {
    if (!collection.createDocument(collection.getSelfLink(), doc, callback)) getContext().getResponse().setBody(count);
  }
  function callback(err, doc, options) {
    if (err) throw err;
    count++;
    if (count >= docs.length) getContext().getResponse().setBody(count);
    else tryCreate(docs[count], callback);
  }
}"""


@pytest.fixture
def container(database):
    return database.create_container(id=unique_id("scripts"), partition_key=PartitionKey(path="/pk"))


def ids(container, pk):
    return sorted(container.query_items("SELECT VALUE c.id FROM c", partition_key=pk))


def test_stored_procedure_lifecycle_and_execution(container):
    sproc = container.scripts.create_stored_procedure({"id": "hello", "body": "function () { getContext().getResponse().setBody('Hello, World'); }"})
    assert sproc["id"] == "hello" and sproc["_self"].endswith("/")
    assert [s["id"] for s in container.scripts.list_stored_procedures()] == ["hello"]
    assert container.scripts.execute_stored_procedure("hello", partition_key="p") == "Hello, World"
    # Given the dict, the SDK executes it by its _self (rid) link.
    assert container.scripts.execute_stored_procedure(sproc, partition_key="p") == "Hello, World"
    container.scripts.delete_stored_procedure("hello")
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        container.scripts.get_stored_procedure("hello")


def test_bulk_import_is_one_transaction(container):
    container.scripts.create_stored_procedure({"id": "bulkImport", "body": BULK_IMPORT})
    docs = [{"id": f"d{i}", "pk": "bulk", "n": i} for i in range(25)]
    assert container.scripts.execute_stored_procedure("bulkImport", partition_key="bulk", params=[docs]) == 25
    assert len(ids(container, "bulk")) == 25
    # A duplicate in the middle: the error is rethrown and nothing of this run is kept.
    again = [{"id": "new1", "pk": "bulk"}, {"id": "d3", "pk": "bulk"}, {"id": "new2", "pk": "bulk"}]
    with pytest.raises(exceptions.CosmosHttpResponseError) as failed:
        container.scripts.execute_stored_procedure("bulkImport", partition_key="bulk", params=[again])
    assert failed.value.status_code == 400
    assert failed.value.sub_status == 409
    assert len(ids(container, "bulk")) == 25


def test_pre_trigger_stamps_the_item_it_is_named_for(container):
    container.scripts.create_trigger({
        "id": "stamp",
        "serverScript": "function () { var r = getContext().getRequest(); var i = r.getBody(); if (!('timestamp' in i)) i.timestamp = 42; r.setBody(i); }",
        "triggerType": "Pre",
        "triggerOperation": "All",
    })
    stamped = container.create_item({"id": "a", "pk": "t"}, pre_trigger_include="stamp")
    assert stamped["timestamp"] == 42
    plain = container.create_item({"id": "b", "pk": "t"})
    assert "timestamp" not in plain


def test_user_defined_function_in_a_query(container):
    container.scripts.create_user_defined_function({"id": "double", "body": "function (x) { return x * 2; }"})
    for i in range(3):
        container.create_item({"id": f"u{i}", "pk": "u", "n": i})
    values = sorted(container.query_items("SELECT VALUE udf.double(c.n) FROM c", partition_key="u"))
    assert values == [0, 2, 4]
