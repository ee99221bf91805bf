"""The shared scenarios (tests/sdk/scenarios/scenarios.json), each through the sync and the
aio client. Expected values come from the scenario file only."""

import pytest

from scenario_driver import SCENARIOS, check_error, check_pages, check_rows, reporting, sdk_refuses_id

# Known Orrery gaps: these scenarios stay and are expected to fail. None at present.
KNOWN_SERVER_GAPS = {}

# Cross-partition queries whose features need the SDK's client-side pipeline
# (azure/cosmos/_execution_context/multi_execution_aggregator.py): it keeps no
# continuation of its own, so a saved token cannot resume them.
PIPELINE_FEATURES = {"orderBy", "multiOrderBy", "top", "offsetLimit", "distinct", "groupBy", "aggregate"}

# azure-cosmos 4.17.1 leaves GroupBy out of x-ms-cosmos-supported-query-features
# (_cosmos_client_connection.py, _GetQueryPlanThroughGateway): it cannot run GROUP BY
# across partitions.
UNSUPPORTED = {
    "groupBy": "azure-cosmos 4.17.1 has no cross-partition GROUP BY (GroupBy is not among the query "
    "features it declares in x-ms-cosmos-supported-query-features)",
}


def marks_of(sc, resume=False):
    marks = []
    if sc["name"] in KNOWN_SERVER_GAPS:
        marks.append(pytest.mark.xfail(reason=KNOWN_SERVER_GAPS[sc["name"]], strict=True))
    if sc.get("partitionKey") is None:
        for feature, reason in UNSUPPORTED.items():
            if feature in sc["features"]:
                marks.append(pytest.mark.skip(reason=reason))
        if resume and PIPELINE_FEATURES & set(sc["features"]):
            marks.append(
                pytest.mark.skip(
                    reason="azure-cosmos's cross-partition query pipeline (ORDER BY/TOP/OFFSET/DISTINCT/aggregates) "
                    "has no continuation token to resume from"
                )
            )
    return marks


QUERIES = [pytest.param(sc, id=sc["name"], marks=marks_of(sc)) for sc in SCENARIOS["queries"]]
PAGED = [
    pytest.param(sc, id=sc["name"], marks=marks_of(sc, resume=True)) for sc in SCENARIOS["queries"] if sc.get("pageSize")
]


REFUSED_ID = pytest.mark.skip(
    reason="azure-cosmos refuses ids with / \\ # ? before sending (_base._validate_resource): "
    "the item cannot be created or addressed through it"
)


def error_marks(sc):
    """create/upsert/replace take the partition key from the body in azure-cosmos
    (_cosmos_client_connection.py, _AddPartitionKey: no partition_key argument), so a key
    unlike the body's cannot be sent through its API."""
    if sdk_refuses_id(sc.get("id")):
        return [REFUSED_ID]
    if sc["op"] in ("create", "upsert", "replace") and "partitionKey" in sc:
        paths = SCENARIOS["containers"][sc["container"]]["partitionKeyPaths"]
        from_body = [sc["body"].get(p.lstrip("/")) for p in paths]
        if from_body != sc["partitionKey"]:
            return [
                pytest.mark.skip(
                    reason="azure-cosmos's create/upsert/replace_item take the partition key from the body "
                    "(_AddPartitionKey): a partition key unlike the body's cannot be expressed"
                )
            ]
    return []


ERRORS = [pytest.param(sc, id=sc["name"], marks=error_marks(sc)) for sc in SCENARIOS["errors"]]
CHARGES = [
    pytest.param(sc, id=sc["name"], marks=[REFUSED_ID] if sdk_refuses_id(sc.get("id")) else [])
    for sc in SCENARIOS["charges"]
]


def check_resume(sc, first, token, rest_pages):
    assert token, f"no continuation token after the first page of {len(first)} rows"
    check_pages(sc, rest_pages)
    rows = first + [row for page in rest_pages for row in page]
    check_rows(sc, rows)


# --- sync client ------------------------------------------------------------------------------


@pytest.mark.parametrize("sc", QUERIES)
def test_query_sync(sync_driver, sc):
    with reporting("sync", sc["name"], sync_driver.wire):
        pages = sync_driver.query_pages(sc)
        check_pages(sc, pages)
        check_rows(sc, [row for page in pages for row in page])


@pytest.mark.parametrize("sc", PAGED)
def test_query_resumed_sync(sync_driver, sc):
    with reporting("sync", sc["name"] + " (resumed)", sync_driver.wire):
        first, token = sync_driver.query_first_page_and_token(sc)
        check_resume(sc, first, token, sync_driver.query_resume(sc, token))


@pytest.mark.parametrize("sc", ERRORS)
def test_error_sync(sync_driver, sc):
    with reporting("sync", sc["name"], sync_driver.wire):
        check_error(sc, sync_driver.run_error(sc))


@pytest.mark.parametrize("sc", CHARGES)
def test_charge_sync(sync_driver, sc):
    with reporting("sync", sc["name"], sync_driver.wire):
        charge = sync_driver.run_charge(sc)
        assert abs(charge - sc["charge"]) <= sc["tolerance"], f"charge {charge}, expected {sc['charge']} ± {sc['tolerance']}"


# --- aio client -------------------------------------------------------------------------------


@pytest.mark.parametrize("sc", QUERIES)
def test_query_aio(run_aio, sc):
    async def body(driver):
        with reporting("aio", sc["name"], driver.wire):
            pages = await driver.query_pages(sc)
            check_pages(sc, pages)
            check_rows(sc, [row for page in pages for row in page])

    run_aio(body)


@pytest.mark.parametrize("sc", PAGED)
def test_query_resumed_aio(run_aio, sc):
    async def body(driver):
        with reporting("aio", sc["name"] + " (resumed)", driver.wire):
            first, token = await driver.query_first_page_and_token(sc)
            check_resume(sc, first, token, await driver.query_resume(sc, token))

    run_aio(body)


@pytest.mark.parametrize("sc", ERRORS)
def test_error_aio(run_aio, sc):
    async def body(driver):
        with reporting("aio", sc["name"], driver.wire):
            check_error(sc, await driver.run_error(sc))

    run_aio(body)


@pytest.mark.parametrize("sc", CHARGES)
def test_charge_aio(run_aio, sc):
    async def body(driver):
        with reporting("aio", sc["name"], driver.wire):
            charge = await driver.run_charge(sc)
            assert abs(charge - sc["charge"]) <= sc["tolerance"], f"charge {charge}, expected {sc['charge']} ± {sc['tolerance']}"

    run_aio(body)
