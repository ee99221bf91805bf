"""Driver of the shared SDK scenarios (tests/sdk/scenarios/scenarios.json) for azure-cosmos.

The scenario file holds what every SDK must see (rows, statuses, charges); this module only
turns each scenario into calls of the Python SDK's idiomatic API, once for the sync client
(azure.cosmos.CosmosClient) and once for the aio client (azure.cosmos.aio.CosmosClient).
It knows nothing of Orrery: every expected value comes from the scenario file.
"""

import json
import os
import re
import time
import weakref
from contextlib import contextmanager

from azure.cosmos import PartitionKey, exceptions
from azure.core import MatchConditions

SCENARIO_FILE = os.path.join(os.path.dirname(__file__), "..", "scenarios", "scenarios.json")
SDK_NAME = "azure-cosmos (Python)"


def load_scenarios():
    with open(SCENARIO_FILE, encoding="utf-8") as f:
        data = json.load(f)
    assert data["version"] == 1, f"unknown scenario file version {data['version']}"
    return data


# azure-cosmos refuses an id holding / \ # ? or a tab, CR or LF before sending anything
# (_base.py, _validate_resource and _VALID_COSMOS_RESOURCE): items with such ids cannot be
# created through it, and the scenarios that use them are skipped with that reason.
_SDK_REFUSED_ID = re.compile(r"[/\\#?\t\r\n]")


def sdk_refuses_id(item_id):
    return bool(item_id) and _SDK_REFUSED_ID.search(item_id) is not None


SCENARIOS = load_scenarios()


# --- the wire: every response the SDK got, for failure reports -------------------------------


class WireLog:
    """Keeps what went over the wire (a client's raw_response_hook) to name it in failures."""

    live = weakref.WeakSet()  # every log in use, so a failing test can show its wire

    def __init__(self, limit=400):
        self.exchanges = []
        self.limit = limit
        WireLog.live.add(self)

    def hook(self, pipeline_response):
        req, res = pipeline_response.http_request, pipeline_response.http_response
        h = res.headers
        entry = {
            "time": time.monotonic(),
            "method": req.method,
            "url": req.url,
            "status": res.status_code,
            "substatus": h.get("x-ms-substatus"),
            "activity": h.get("x-ms-activity-id"),
            "charge": h.get("x-ms-request-charge"),
            "session": h.get("x-ms-session-token"),
            "sent_session": req.headers.get("x-ms-session-token"),
            "retry_after": h.get("x-ms-retry-after-ms"),
            "request_headers": dict(req.headers),
            "headers": dict(h),
            "message": None,
        }
        if res.status_code >= 400:
            try:
                entry["message"] = res.text()[:500]
            except Exception:  # a body not loaded (streamed) is left out
                pass
        self.exchanges.append(entry)
        if len(self.exchanges) > self.limit:
            del self.exchanges[: len(self.exchanges) - self.limit]

    def mark(self):
        return len(self.exchanges)

    def since(self, mark):
        return self.exchanges[mark:] if mark <= len(self.exchanges) else list(self.exchanges)

    def describe(self, entries=None, last=6):
        entries = self.exchanges[-last:] if entries is None else entries[-last:]
        lines = []
        for e in entries:
            line = f"  {e['method']} {e['url']} -> {e['status']}"
            if e["substatus"] not in (None, "0"):
                line += f"/{e['substatus']}"
            line += f" activity={e['activity']} charge={e['charge']}"
            if e["message"]:
                line += f" message={e['message']}"
            lines.append(line)
        return "\n".join(lines) or "  (nothing went over the wire)"


def describe_error(e):
    if isinstance(e, exceptions.CosmosHttpResponseError):
        activity = e.headers.get("x-ms-activity-id") if e.headers else None
        return (
            f"{type(e).__name__} status={e.status_code} substatus={e.sub_status} activity={activity} "
            f"message={str(e.http_error_message)[:400]}"
        )
    return f"{type(e).__name__}: {e}"


def failure(flavor, scenario, wire, what, mark=0):
    return AssertionError(
        f"{SDK_NAME} [{flavor} client] scenario {scenario!r}: {what}\n"
        f"wire exchanges:\n{wire.describe(wire.since(mark))}"
    )


@contextmanager
def reporting(flavor, scenario, wire):
    """Turns an assertion or an unexpected SDK error into a failure naming the SDK, the
    scenario and the wire exchanges of that scenario."""
    mark = wire.mark()
    try:
        yield
    except AssertionError as e:
        raise failure(flavor, scenario, wire, str(e), mark) from None
    except exceptions.CosmosHttpResponseError as e:
        raise failure(flavor, scenario, wire, "unexpected " + describe_error(e), mark) from None


# --- scenario data into SDK arguments ---------------------------------------------------------


def partition_key_of(container_name, values):
    """A scenario's partition key (always an array) as the SDK wants it: the value for a
    one-path container, the list for a hierarchical one."""
    paths = SCENARIOS["containers"][container_name]["partitionKeyPaths"]
    assert len(values) <= len(paths)
    return values[0] if len(paths) == 1 else list(values)


def partition_key_definition(paths):
    if len(paths) == 1:
        return PartitionKey(path=paths[0])
    return PartitionKey(path=list(paths), kind="MultiHash")


def indexing_policy(definition):
    policy = {
        "indexingMode": "consistent",
        "automatic": True,
        "includedPaths": [{"path": "/*"}],
        "excludedPaths": [{"path": '/"_etag"/?'}],
    }
    if definition.get("includedPaths"):
        policy["includedPaths"] = definition["includedPaths"]
    for kind in ("compositeIndexes", "spatialIndexes"):
        if definition.get(kind):
            policy[kind] = definition[kind]
    return policy


def container_options(definition):
    """create_container's keyword arguments for a scenario's container definition."""
    options = {
        "partition_key": partition_key_definition(definition["partitionKeyPaths"]),
        "indexing_policy": indexing_policy(definition),
    }
    if definition.get("throughput"):
        options["offer_throughput"] = definition["throughput"]
    if definition.get("computedProperties"):
        options["computed_properties"] = definition["computedProperties"]
    return options


def error_body(sc):
    body = dict(sc.get("body") or {})
    if sc.get("bodyPadBytes"):
        body["pad"] = "x" * sc["bodyPadBytes"]
    return body


EXCEPTION_BY_STATUS = {
    404: exceptions.CosmosResourceNotFoundError,
    409: exceptions.CosmosResourceExistsError,
    412: exceptions.CosmosAccessConditionFailedError,
}


def check_error(sc, error):
    """The exception an error scenario raised: its type and status (and substatus)."""
    assert error is not None, f"expected status {sc['status']}, but the call succeeded"
    assert isinstance(error, exceptions.CosmosHttpResponseError), f"not a Cosmos error: {describe_error(error)}"
    want = EXCEPTION_BY_STATUS.get(sc["status"], exceptions.CosmosHttpResponseError)
    assert isinstance(error, want), f"expected {want.__name__}, got {describe_error(error)}"
    assert error.status_code == sc["status"], f"expected status {sc['status']}, got {describe_error(error)}"
    if "substatus" in sc:
        got = error.sub_status or 0
        assert got == sc["substatus"], f"expected substatus {sc['substatus']}, got {describe_error(error)}"


def _numbers_as_numbers(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _numbers_as_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers_as_numbers(v) for v in value]
    return value


def normalize(row):
    """A row as canonical JSON, numbers compared as numbers (1 == 1.0)."""
    return json.dumps(_numbers_as_numbers(row), sort_keys=True)


def check_rows(sc, rows):
    expected = sc["expected"]
    if sc["ordered"]:
        assert [normalize(r) for r in rows] == [normalize(r) for r in expected], f"rows {rows!r}, expected in this order {expected!r}"
    else:
        got = sorted(normalize(r) for r in rows)
        want = sorted(normalize(r) for r in expected)
        assert got == want, f"rows {rows!r}, expected (any order) {expected!r}"


def check_pages(sc, pages):
    size = sc.get("pageSize")
    if size:
        sizes = [len(p) for p in pages]
        assert all(n <= size for n in sizes), f"pages of {sizes} items with max_item_count={size}"


def query_args(sc):
    kwargs = {"query": sc["query"]}
    if sc.get("parameters"):
        kwargs["parameters"] = sc["parameters"]
    if sc.get("partitionKey") is not None:
        kwargs["partition_key"] = partition_key_of(sc["container"], sc["partitionKey"])
    if sc.get("pageSize"):
        kwargs["max_item_count"] = sc["pageSize"]
    return kwargs


# --- the sync client --------------------------------------------------------------------------


class SyncDriver:
    flavor = "sync"

    def __init__(self, client, database_id, wire):
        self.client = client
        self.database_id = database_id
        self.wire = wire
        self.database = client.get_database_client(database_id)

    def setup(self):
        self.database = self.client.create_database(self.database_id)
        for name, definition in SCENARIOS["containers"].items():
            self.database.create_container(id=name, **container_options(definition))
        for name, items in SCENARIOS["items"].items():
            container = self.database.get_container_client(name)
            for item in items:
                if not sdk_refuses_id(item["id"]):
                    container.create_item(dict(item))

    def teardown(self):
        try:
            self.client.delete_database(self.database_id)
        except exceptions.CosmosResourceNotFoundError:
            pass

    def container(self, name):
        return self.database.get_container_client(name)

    def _query(self, sc, continuation=None):
        kwargs = query_args(sc)
        if "partition_key" not in kwargs:
            kwargs["enable_cross_partition_query"] = True
        return self.container(sc["container"]).query_items(**kwargs).by_page(continuation)

    def query_pages(self, sc):
        """Every page of the query, read with by_page()."""
        return [list(page) for page in self._query(sc)]

    def query_first_page_and_token(self, sc):
        pager = self._query(sc)
        first = list(next(pager))
        return first, pager.continuation_token

    def query_resume(self, sc, token):
        """The pages of the query resumed from a saved continuation token, by a fresh iterator."""
        return [list(page) for page in self._query(sc, token)]

    def run_error(self, sc):
        try:
            self._error_op(sc)
        except exceptions.CosmosHttpResponseError as e:
            return e
        return None

    def _error_op(self, sc):
        op = sc["op"]
        database = self.client.get_database_client(sc["database"]) if sc.get("database") else self.database
        if op == "readDatabase":
            self.client.get_database_client(sc["id"]).read()
            return
        if op == "createDatabase":
            self.client.create_database(sc["id"])
            return
        if op == "readContainer":
            database.get_container_client(sc["id"]).read()
            return
        if op == "createContainer":
            database.create_container(id=sc["id"], **container_options(sc["body"]))
            return
        container = database.get_container_client(sc["container"])
        pk = partition_key_of(sc["container"], sc["partitionKey"]) if "partitionKey" in sc else None
        etag = {"etag": sc["ifMatch"], "match_condition": MatchConditions.IfNotModified} if sc.get("ifMatch") else {}
        if op == "read":
            container.read_item(sc["id"], partition_key=pk)
        elif op == "create":
            container.create_item(error_body(sc))
        elif op == "upsert":
            container.upsert_item(error_body(sc), **etag)
        elif op == "replace":
            container.replace_item(sc["id"], error_body(sc), **etag)
        elif op == "delete":
            container.delete_item(sc["id"], partition_key=pk, **etag)
        elif op == "patch":
            extra = {"filter_predicate": sc["condition"]} if sc.get("condition") else {}
            container.patch_item(sc["id"], partition_key=pk, patch_operations=sc["patch"], **extra, **etag)
        elif op == "query":
            kwargs = {"query": sc["query"]}
            if pk is not None:
                kwargs["partition_key"] = pk
            else:
                kwargs["enable_cross_partition_query"] = True
            list(container.query_items(**kwargs))
        else:
            raise AssertionError(f"unknown error op {op!r}")

    def run_charge(self, sc):
        container = self.container(sc["container"])
        op = sc["op"]
        if op == "read":
            container.read_item(sc["id"], partition_key=partition_key_of(sc["container"], sc["partitionKey"]))
        elif op == "create":
            container.create_item(dict(sc["body"]))
        elif op == "query":
            kwargs = {"query": sc["query"]}
            if sc.get("partitionKey") is not None:
                kwargs["partition_key"] = partition_key_of(sc["container"], sc["partitionKey"])
            else:
                kwargs["enable_cross_partition_query"] = True
            list(next(container.query_items(**kwargs).by_page()))
        else:
            raise AssertionError(f"unknown charge op {op!r}")
        return float(container.client_connection.last_response_headers["x-ms-request-charge"])


# --- the aio client ---------------------------------------------------------------------------


class AioDriver:
    flavor = "aio"

    def __init__(self, client, database_id, wire):
        self.client = client
        self.database_id = database_id
        self.wire = wire
        self.database = client.get_database_client(database_id)

    async def setup(self):
        self.database = await self.client.create_database(self.database_id)
        for name, definition in SCENARIOS["containers"].items():
            await self.database.create_container(id=name, **container_options(definition))
        for name, items in SCENARIOS["items"].items():
            container = self.database.get_container_client(name)
            for item in items:
                if not sdk_refuses_id(item["id"]):
                    await container.create_item(dict(item))

    async def teardown(self):
        try:
            await self.client.delete_database(self.database_id)
        except exceptions.CosmosResourceNotFoundError:
            pass

    def container(self, name):
        return self.database.get_container_client(name)

    def _query(self, sc, continuation=None):
        # The aio client has no enable_cross_partition_query: without a partition key a
        # query is cross-partition.
        return self.container(sc["container"]).query_items(**query_args(sc)).by_page(continuation)

    async def query_pages(self, sc):
        return [[row async for row in page] async for page in self._query(sc)]

    async def query_first_page_and_token(self, sc):
        pager = self._query(sc)
        page = await pager.__anext__()
        first = [row async for row in page]
        return first, pager.continuation_token

    async def query_resume(self, sc, token):
        return [[row async for row in page] async for page in self._query(sc, token)]

    async def run_error(self, sc):
        try:
            await self._error_op(sc)
        except exceptions.CosmosHttpResponseError as e:
            return e
        return None

    async def _error_op(self, sc):
        op = sc["op"]
        database = self.client.get_database_client(sc["database"]) if sc.get("database") else self.database
        if op == "readDatabase":
            await self.client.get_database_client(sc["id"]).read()
            return
        if op == "createDatabase":
            await self.client.create_database(sc["id"])
            return
        if op == "readContainer":
            await database.get_container_client(sc["id"]).read()
            return
        if op == "createContainer":
            await database.create_container(id=sc["id"], **container_options(sc["body"]))
            return
        container = database.get_container_client(sc["container"])
        pk = partition_key_of(sc["container"], sc["partitionKey"]) if "partitionKey" in sc else None
        etag = {"etag": sc["ifMatch"], "match_condition": MatchConditions.IfNotModified} if sc.get("ifMatch") else {}
        if op == "read":
            await container.read_item(sc["id"], partition_key=pk)
        elif op == "create":
            await container.create_item(error_body(sc))
        elif op == "upsert":
            await container.upsert_item(error_body(sc), **etag)
        elif op == "replace":
            await container.replace_item(sc["id"], error_body(sc), **etag)
        elif op == "delete":
            await container.delete_item(sc["id"], partition_key=pk, **etag)
        elif op == "patch":
            extra = {"filter_predicate": sc["condition"]} if sc.get("condition") else {}
            await container.patch_item(sc["id"], partition_key=pk, patch_operations=sc["patch"], **extra, **etag)
        elif op == "query":
            kwargs = {"query": sc["query"]}
            if pk is not None:
                kwargs["partition_key"] = pk
            [row async for row in container.query_items(**kwargs)]
        else:
            raise AssertionError(f"unknown error op {op!r}")

    async def run_charge(self, sc):
        container = self.container(sc["container"])
        op = sc["op"]
        if op == "read":
            await container.read_item(sc["id"], partition_key=partition_key_of(sc["container"], sc["partitionKey"]))
        elif op == "create":
            await container.create_item(dict(sc["body"]))
        elif op == "query":
            kwargs = {"query": sc["query"]}
            if sc.get("partitionKey") is not None:
                kwargs["partition_key"] = partition_key_of(sc["container"], sc["partitionKey"])
            pager = container.query_items(**kwargs).by_page()
            page = await pager.__anext__()
            [row async for row in page]
        else:
            raise AssertionError(f"unknown charge op {op!r}")
        return float(container.client_connection.last_response_headers["x-ms-request-charge"])
