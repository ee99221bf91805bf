"""Fixtures of the Python SDK suite: a fresh orrery per storage mode (ORRERY_SDK_STORAGE),
clients of the sync and aio SDK whose every response is kept for failure reports."""

import asyncio
import uuid

import pytest
from azure.cosmos import CosmosClient
from azure.cosmos.aio import CosmosClient as AioCosmosClient

from orrery_server import KEY, OrreryServer, storage_mode
from scenario_driver import AioDriver, SyncDriver, WireLog


def pytest_report_header(config):
    import azure.cosmos

    return f"azure-cosmos {azure.cosmos.__version__}, storage: {storage_mode()}"


def unique_id(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


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
