"""Fixtures of the Python SDK suite: a fresh orrery per storage mode (ORRERY_SDK_STORAGE),
clients of the sync and aio SDK whose every response is kept for failure reports."""

import asyncio
import time
import uuid

import pytest
from azure.cosmos import CosmosClient
from azure.cosmos.aio import CosmosClient as AioCosmosClient

from orrery_server import KEY, OrreryServer, storage_mode
from scenario_driver import AioDriver, SyncDriver, WireLog


def pytest_report_header(config):
    import azure.cosmos

    return f"azure-cosmos {azure.cosmos.__version__}, storage: {storage_mode()}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test shows, besides the assertion, the SDK's last wire exchanges during
    it (status, substatus, activity id, message) from every client it used."""
    start = time.monotonic() - (call.stop - call.start) - 0.001
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call":
        lines = []
        for wire in list(WireLog.live):
            during = [e for e in wire.exchanges if e["time"] >= start]
            if during:
                lines.append(wire.describe(during, last=8))
        report.sections.append(
            ("azure-cosmos (Python) wire exchanges of this test", "\n".join(lines) or "(none)")
        )


_OUTCOMES = {}


def pytest_runtest_logreport(report):
    """Counts the shared scenarios' outcomes (test_shared_scenarios.py) for the summary."""
    if "test_shared_scenarios.py" not in report.nodeid:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        if hasattr(report, "wasxfail"):
            kind = "xfailed" if report.skipped else "xpassed"
        else:
            kind = report.outcome
        _OUTCOMES[kind] = _OUTCOMES.get(kind, 0) + 1


def pytest_terminal_summary(terminalreporter):
    if _OUTCOMES:
        parts = ", ".join(f"{n} {k}" for k, n in sorted(_OUTCOMES.items()))
        terminalreporter.write_line(f"shared scenarios (azure-cosmos, sync + aio, storage {storage_mode()}): {parts}")


def unique_id(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def create_in_batches(container, items, key="pk"):
    """Creates items (one-path partition key `key`) through transactional batches of up
    to 100 items of one partition key each, in the order given within each key."""
    by_key = {}
    for item in items:
        by_key.setdefault(item[key], []).append(item)
    for value, mine in by_key.items():
        for start in range(0, len(mine), 100):
            container.execute_item_batch([("create", (d,)) for d in mine[start : start + 100]], partition_key=value)


@pytest.fixture(scope="session")
def server():
    s = OrreryServer().start()
    yield s
    s.stop()


def sync_client(server, wire=None, **kwargs):
    wire = wire or WireLog()
    client = CosmosClient(server.endpoint, KEY, raw_response_hook=wire.hook, **kwargs)
    client.wire = wire
    return client


def aio_client(server, wire=None, **kwargs):
    """An aio CosmosClient; use it as `async with aio_client(...) as client`."""
    wire = wire or WireLog()
    client = AioCosmosClient(server.endpoint, KEY, raw_response_hook=wire.hook, **kwargs)
    client.wire = wire
    return client


@pytest.fixture(scope="session")
def client(server):
    c = sync_client(server)
    yield c
    c.close()


@pytest.fixture
def database(client):
    db = client.create_database(unique_id("py"))
    yield db
    client.delete_database(db.id)


@pytest.fixture(scope="session")
def sync_driver(server):
    wire = WireLog()
    c = sync_client(server, wire)
    driver = SyncDriver(c, unique_id("scen-sync"), wire)
    driver.setup()
    yield driver
    driver.teardown()
    c.close()


@pytest.fixture(scope="session")
def aio_database_id(server):
    """The aio client's own database with the scenario containers and items, set up by
    the aio client itself."""
    database_id = unique_id("scen-aio")

    async def setup():
        async with aio_client(server) as c:
            await AioDriver(c, database_id, c.wire).setup()

    asyncio.run(setup())
    yield database_id

    async def teardown():
        async with aio_client(server) as c:
            await AioDriver(c, database_id, c.wire).teardown()

    asyncio.run(teardown())


@pytest.fixture
def run_aio(server, aio_database_id):
    """Runs `body(driver)` with an AioDriver over a fresh aio client, in its own event loop."""

    def run(body):
        async def main():
            async with aio_client(server) as c:
                return await body(AioDriver(c, aio_database_id, c.wire))

        return asyncio.run(main())

    return run
