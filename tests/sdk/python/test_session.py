"""Session consistency: the client's session container keeps the x-ms-session-token of each
write and sends it on the reads that follow; a token handed to another client makes its
reads carry it."""

from azure.cosmos import PartitionKey

from conftest import sync_client


def lsn_of(token):
    # "<pkrange id>:<version>#<global LSN>[#<region>=<LSN>...]"
    _, rest = token.split(":", 1)
    return int(rest.split("#")[1])


def test_session_tokens_round_trip(server, database):
    c = database.create_container(id="sess", partition_key=PartitionKey(path="/pk"), offer_throughput=400)
    client = sync_client(server)
    try:
        container = client.get_database_client(database.id).get_container_client("sess")
        container.create_item({"id": "s1", "pk": "a", "n": 1})
        token1 = client.wire.exchanges[-1]["session"]
        assert token1, "a write under Session consistency answers with x-ms-session-token"
        assert container.client_connection.last_response_headers["x-ms-session-token"] == token1

        container.replace_item("s1", {"id": "s1", "pk": "a", "n": 2})
        token2 = client.wire.exchanges[-1]["session"]
        assert lsn_of(token2) > lsn_of(token1), (token1, token2)

        # the next read sends the latest token of its partition
        assert container.read_item("s1", partition_key="a")["n"] == 2
        read = client.wire.exchanges[-1]
        assert read["method"] == "GET"
        assert read["sent_session"] and token2 in read["sent_session"].split(","), (read["sent_session"], token2)
        assert read["session"], "a read answers with the session token too"

        # a query sends it as well
        list(container.query_items("SELECT * FROM c", partition_key="a"))
        assert token2.split(":")[1] in (client.wire.exchanges[-1]["sent_session"] or "")

        # another client given the token explicitly reads its own write
        other = sync_client(server)
        try:
            oc = other.get_database_client(database.id).get_container_client("sess")
            item = oc.read_item("s1", partition_key="a", session_token=token2)
            assert item["n"] == 2
            assert other.wire.exchanges[-1]["sent_session"] == token2
        finally:
            other.close()
    finally:
        client.close()
    assert c.read()["id"] == "sess"
