package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchOperationResult;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

/** Java only: item CRUD with etags, patch, transactional batch, bulk, session tokens. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ItemsTest extends ServerTest {
    private CosmosContainer c;

    @BeforeAll
    void start() {
        client.createDatabase("items");
        CosmosDatabase db = client.getDatabase("items");
        // 12,000 RU/s: two physical partitions, so bulk and cross-partition work spread.
        db.createContainer(Sdk.v2("c", "/pk"), ThroughputProperties.createManualThroughput(12000));
        c = db.getContainer("c");
    }

    private static ObjectNode doc(String id, String pk, int n) {
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", pk).put("n", n);
    }

    @Test
    void crudWithEtags() {
        PartitionKey pk = new PartitionKey("crud");
        CosmosItemResponse<ObjectNode> created = c.createItem(doc("i1", "crud", 1), pk, new CosmosItemRequestOptions());
        assertEquals(201, created.getStatusCode());
        String etag1 = created.getETag();
        assertNotNull(etag1);
        assertTrue(created.getRequestCharge() > 0);

        CosmosItemResponse<JsonNode> read = c.readItem("i1", pk, JsonNode.class);
        assertEquals(200, read.getStatusCode());
        assertEquals(1, read.getItem().get("n").asInt());
        assertEquals(etag1, read.getETag());
        assertEquals(etag1, read.getItem().get("_etag").asText());

        // Replace with the current etag: accepted, a new etag.
        CosmosItemResponse<ObjectNode> replaced = c.replaceItem(doc("i1", "crud", 2), "i1", pk,
            new CosmosItemRequestOptions().setIfMatchETag(etag1));
        assertEquals(200, replaced.getStatusCode());
        String etag2 = replaced.getETag();
        assertNotEquals(etag1, etag2);

        // Replace with the stale etag: 412, nothing changes.
        CosmosException stale = Sdk.assertCosmosError(412, () ->
            c.replaceItem(doc("i1", "crud", 3), "i1", pk, new CosmosItemRequestOptions().setIfMatchETag(etag1)));
        assertEquals(412, stale.getStatusCode());
        assertEquals(2, c.readItem("i1", pk, JsonNode.class).getItem().get("n").asInt());
        Sdk.assertCosmosError(412, () ->
            c.deleteItem("i1", pk, new CosmosItemRequestOptions().setIfMatchETag(etag1)));

        // Read with If-None-Match: the current etag gives 304, an old one the item.
        CosmosItemResponse<JsonNode> notModified = c.readItem("i1", pk,
            new CosmosItemRequestOptions().setIfNoneMatchETag(etag2), JsonNode.class);
        assertEquals(304, notModified.getStatusCode());
        CosmosItemResponse<JsonNode> modified = c.readItem("i1", pk,
            new CosmosItemRequestOptions().setIfNoneMatchETag(etag1), JsonNode.class);
        assertEquals(200, modified.getStatusCode());
        assertEquals(2, modified.getItem().get("n").asInt());

        // Upsert: creates (201), then replaces (200).
        assertEquals(201, c.upsertItem(doc("i2", "crud", 1), pk, new CosmosItemRequestOptions()).getStatusCode());
        assertEquals(200, c.upsertItem(doc("i2", "crud", 5), pk, new CosmosItemRequestOptions()).getStatusCode());
        assertEquals(5, c.readItem("i2", pk, JsonNode.class).getItem().get("n").asInt());

        // Delete with the current etag, then the item is gone.
        assertEquals(204, c.deleteItem("i1", pk, new CosmosItemRequestOptions().setIfMatchETag(etag2)).getStatusCode());
        Sdk.assertCosmosError(404, () -> c.readItem("i1", pk, JsonNode.class));
    }

    @Test
    void patchAndConditionalPatch() {
        PartitionKey pk = new PartitionKey("patch");
        ObjectNode d = doc("p1", "patch", 10);
        d.putArray("tags").add("a");
        d.putObject("nested").put("x", 1);
        d.put("old", true);
        c.createItem(d, pk, new CosmosItemRequestOptions());
        CosmosPatchOperations ops = CosmosPatchOperations.create()
            .set("/name", "patched")
            .add("/tags/-", "b")
            .replace("/nested/x", 2)
            .remove("/old")
            .increment("/n", 5);
        CosmosItemResponse<JsonNode> r = c.patchItem("p1", pk, ops, JsonNode.class);
        assertEquals(200, r.getStatusCode());
        JsonNode item = c.readItem("p1", pk, JsonNode.class).getItem();
        assertEquals("patched", item.get("name").asText());
        assertEquals("[\"a\",\"b\"]", item.get("tags").toString());
        assertEquals(2, item.get("nested").get("x").asInt());
        assertFalse(item.has("old"));
        assertEquals(15, item.get("n").asInt());

        // Conditional: applied when the predicate holds, 412 when it does not.
        CosmosPatchItemRequestOptions holds = new CosmosPatchItemRequestOptions();
        holds.setFilterPredicate("FROM c WHERE c.n = 15");
        c.patchItem("p1", pk, CosmosPatchOperations.create().set("/n", 16), holds, JsonNode.class);
        assertEquals(16, c.readItem("p1", pk, JsonNode.class).getItem().get("n").asInt());
        CosmosPatchItemRequestOptions fails = new CosmosPatchItemRequestOptions();
        fails.setFilterPredicate("FROM c WHERE c.n = 15");
        CosmosException e = Sdk.assertCosmosError(412, () ->
            c.patchItem("p1", pk, CosmosPatchOperations.create().set("/n", 99), fails, JsonNode.class));
        assertEquals(412, e.getStatusCode());
        assertEquals(16, c.readItem("p1", pk, JsonNode.class).getItem().get("n").asInt());
    }

    @Test
    void transactionalBatch() {
        PartitionKey pk = new PartitionKey("batch");
        c.createItem(doc("b0", "batch", 0), pk, new CosmosItemRequestOptions());
        c.createItem(doc("b-del", "batch", 0), pk, new CosmosItemRequestOptions());
        CosmosBatch batch = CosmosBatch.createCosmosBatch(pk);
        batch.createItemOperation(doc("b1", "batch", 1));
        batch.upsertItemOperation(doc("b2", "batch", 2));
        batch.replaceItemOperation("b0", doc("b0", "batch", 100));
        batch.readItemOperation("b0");
        batch.patchItemOperation("b1", CosmosPatchOperations.create().increment("/n", 10));
        batch.deleteItemOperation("b-del");
        CosmosBatchResponse response = c.executeCosmosBatch(batch);
        assertTrue(response.isSuccessStatusCode(), "batch status " + response.getStatusCode() + " " + response.getErrorMessage());
        List<Integer> statuses = response.getResults().stream().map(CosmosBatchOperationResult::getStatusCode).toList();
        assertEquals(List.of(201, 201, 200, 200, 200, 204), statuses);
        assertEquals(100, response.getResults().get(3).getItem(JsonNode.class).get("n").asInt());
        assertEquals(11, c.readItem("b1", pk, JsonNode.class).getItem().get("n").asInt());
        Sdk.assertCosmosError(404, () -> c.readItem("b-del", pk, JsonNode.class));

        // A failing operation rolls the whole batch back: 409 for it, 424 for the others.
        CosmosBatch failing = CosmosBatch.createCosmosBatch(pk);
        failing.createItemOperation(doc("b3", "batch", 3));
        failing.createItemOperation(doc("b1", "batch", 1));
        CosmosBatchResponse failed = c.executeCosmosBatch(failing);
        assertFalse(failed.isSuccessStatusCode());
        assertEquals(409, failed.getStatusCode());
        assertEquals(List.of(424, 409), failed.getResults().stream().map(CosmosBatchOperationResult::getStatusCode).toList());
        Sdk.assertCosmosError(404, () -> c.readItem("b3", pk, JsonNode.class));
    }

    @Test
    void bulk() {
        List<CosmosItemOperation> ops = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ops.add(CosmosBulkOperations.getCreateItemOperation(doc("bulk" + i, "bulk-" + (i % 12), i), new PartitionKey("bulk-" + (i % 12))));
        }
        Map<Integer, Integer> statuses = new HashMap<>();
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops)) {
            assertNotNull(r.getResponse(), () -> "bulk operation failed: " + (r.getException() == null ? "" : Sdk.wire(r.getException())));
            statuses.merge(r.getResponse().getStatusCode(), 1, Integer::sum);
        }
        assertEquals(Map.of(201, 60), statuses);
        // Mixed: upsert, replace, delete, read, and a create of an existing id.
        Map<CosmosItemOperation, Integer> expected = new java.util.IdentityHashMap<>();
        expected.put(CosmosBulkOperations.getUpsertItemOperation(doc("bulk0", "bulk-0", 1000), new PartitionKey("bulk-0")), 200);
        expected.put(CosmosBulkOperations.getReplaceItemOperation("bulk1", doc("bulk1", "bulk-1", 1001), new PartitionKey("bulk-1")), 200);
        expected.put(CosmosBulkOperations.getDeleteItemOperation("bulk2", new PartitionKey("bulk-2")), 204);
        expected.put(CosmosBulkOperations.getReadItemOperation("bulk3", new PartitionKey("bulk-3")), 200);
        expected.put(CosmosBulkOperations.getCreateItemOperation(doc("bulk4", "bulk-4", 0), new PartitionKey("bulk-4")), 409);
        int answered = 0;
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(new ArrayList<>(expected.keySet()))) {
            int status = r.getResponse() == null ? -1 : r.getResponse().getStatusCode();
            assertEquals(expected.get(r.getOperation()), status, () -> r.getOperation().getOperationType() + " "
                + (r.getException() == null ? "" : Sdk.wire(r.getException())));
            answered++;
        }
        assertEquals(5, answered);
        long count = c.queryItems("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'bulk')",
            new CosmosQueryRequestOptions(), Long.class).stream().findFirst().orElseThrow();
        assertEquals(59, count);
    }

    @Test
    void bulkThroughTheAsyncClient() {
        try (CosmosAsyncClient async = Sdk.asyncClient(server)) {
            CosmosAsyncContainer ac = async.getDatabase("items").getContainer("c");
            Flux<CosmosItemOperation> ops = Flux.range(0, 40).map(i ->
                CosmosBulkOperations.getUpsertItemOperation(doc("abulk" + i, "abulk-" + (i % 5), i), new PartitionKey("abulk-" + (i % 5))));
            List<Integer> statuses = ac.executeBulkOperations(ops)
                .map(r -> r.getResponse() == null ? -1 : r.getResponse().getStatusCode())
                .collectList().block(java.time.Duration.ofSeconds(60));
            assertNotNull(statuses);
            assertEquals(40, statuses.size());
            assertTrue(statuses.stream().allMatch(s -> s == 201), statuses.toString());
        }
    }

    @Test
    void readMany() {
        for (int i = 0; i < 4; i++) {
            c.createItem(doc("rm" + i, "rm-" + i, i), new PartitionKey("rm-" + i), new CosmosItemRequestOptions());
        }
        List<com.azure.cosmos.models.CosmosItemIdentity> ids = List.of(
            new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("rm-0"), "rm0"),
            new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("rm-2"), "rm2"),
            new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("rm-3"), "rm3"),
            // the right id under another key, and a missing id: not found, no error
            new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("rm-0"), "rm1"),
            new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("rm-9"), "nope"));
        com.azure.cosmos.models.FeedResponse<JsonNode> r = c.readMany(ids, JsonNode.class);
        List<String> found = r.getResults().stream().map(n -> n.get("id").asText()).sorted().toList();
        assertEquals(List.of("rm0", "rm2", "rm3"), found);
        assertTrue(r.getRequestCharge() > 0);
    }

    @Test
    void sessionTokensRoundTrip() {
        PartitionKey pk = new PartitionKey("session");
        CosmosItemResponse<ObjectNode> w = c.createItem(doc("s1", "session", 1), pk, new CosmosItemRequestOptions());
        String token = w.getSessionToken();
        assertNotNull(token, "a write under session consistency returns a session token");
        // "<pkrange id>:<version>#<lsn>..." (the service's format; the SDK parses it).
        assertTrue(token.matches("^\\d+:[-\\d]+#\\d+.*"), token);

        // Another client, handed the token, reads the write.
        try (CosmosClient other = Sdk.client(server)) {
            CosmosContainer oc = other.getDatabase("items").getContainer("c");
            CosmosItemResponse<JsonNode> r = oc.readItem("s1", pk,
                new CosmosItemRequestOptions().setSessionToken(token), JsonNode.class);
            assertEquals(1, r.getItem().get("n").asInt());
            assertNotNull(r.getSessionToken());
        }
        // The token advances with later writes to the same range.
        CosmosItemResponse<ObjectNode> w2 = c.upsertItem(doc("s1", "session", 2), pk, new CosmosItemRequestOptions());
        assertTrue(lsn(w2.getSessionToken()) > lsn(token), token + " then " + w2.getSessionToken());
        // The SDK sends the token it captured with the next read of the range (session
        // consistency): the read sees the latest write.
        assertEquals(2, c.readItem("s1", pk, JsonNode.class).getItem().get("n").asInt());
    }

    private static long lsn(String token) {
        String v = token.substring(token.indexOf(':') + 1);
        String[] parts = v.split("#");
        return Long.parseLong(parts[1]);
    }
}
