package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Java only: query pages that resume where the previous one ended (issue 16, point 1).
 * Each page is read by a new iterable from the previous page's continuation token
 * ({@code iterableByPage(token, size)}), within one logical partition, through the SDK's
 * ORDER BY pipeline (which wraps the server's token in its own). Expected rows are computed
 * here from the items written here; writes between pages must not make a row appear twice or
 * an unchanged row go missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryPagingTest extends ServerTest {
    private static final int ITEMS = 600;
    private static final PartitionKey PK = new PartitionKey("big");

    private CosmosContainer c;

    /** n is a permutation of 0..ITEMS-1 (7919 is prime to 600). */
    private static int nOf(int i) {
        return (i * 7919) % ITEMS;
    }

    private static ObjectNode item(String id, int n) {
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", "big").put("n", n);
    }

    @BeforeAll
    void start() {
        c = newContainer("paging", Sdk.v2("c", "/pk"));
        Sdk.createInBatches(c, PK, IntStream.range(0, ITEMS).mapToObj(i -> item(String.format("i%05d", i), nOf(i))).collect(Collectors.toList()));
    }

    private FeedResponse<JsonNode> page(String query, String token, int size) {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(PK);
        Iterator<FeedResponse<JsonNode>> it = c.queryItems(query, options, JsonNode.class).iterableByPage(token, size).iterator();
        assertTrue(it.hasNext(), query);
        return it.next();
    }

    /** Every page, each from a new iterable resumed from the previous token; between(page) runs between pages. */
    private List<JsonNode> resumed(String query, int size, IntConsumer between) {
        List<JsonNode> rows = new ArrayList<>();
        String token = null;
        for (int pages = 1; pages <= 1000; pages++) {
            FeedResponse<JsonNode> page = page(query, token, size);
            assertTrue(page.getResults().size() <= size, "a page larger than " + size);
            rows.addAll(page.getResults());
            token = page.getContinuationToken();
            if (token == null) return rows;
            between.accept(pages);
        }
        throw new AssertionError(query + ": more than 1000 pages");
    }

    private static List<String> idsInOrder(boolean descending) {
        Comparator<Integer> byN = Comparator.comparingInt(QueryPagingTest::nOf);
        return IntStream.range(0, ITEMS).boxed().sorted(descending ? byN.reversed() : byN)
            .map(i -> String.format("i%05d", i)).collect(Collectors.toList());
    }

    @Test
    void orderByPagesResumeInOrder() {
        for (boolean descending : new boolean[] {false, true}) {
            String query = "SELECT c.id, c.n FROM c ORDER BY c.n" + (descending ? " DESC" : "");
            List<String> ids = resumed(query, 70, page -> {}).stream().map(r -> r.get("id").asText()).collect(Collectors.toList());
            assertEquals(idsInOrder(descending), ids, query);
        }
    }

    @Test
    void orderByWithWritesBetweenPages() {
        boolean[] written = {false};
        List<JsonNode> rows = resumed("SELECT c.id, c.n FROM c ORDER BY c.n", 100, page -> {
            if (written[0]) return;
            written[0] = true;
            // One item sorting before the cursor, one after the last; a replace of an item
            // not yet read that keeps its place.
            c.createItem(item("before", -1), PK, null);
            c.createItem(item("after", ITEMS + 5), PK, null);
            c.replaceItem(item("i00599", nOf(599)).put("v", 99), "i00599", PK, null);
        });
        try {
            Set<String> seen = new HashSet<>();
            int last = Integer.MIN_VALUE;
            for (JsonNode r : rows) {
                assertTrue(seen.add(r.get("id").asText()), r.get("id").asText() + " returned twice");
                assertTrue(r.get("n").asInt() >= last, "out of order at " + r);
                last = r.get("n").asInt();
            }
            for (String id : idsInOrder(false)) assertTrue(seen.contains(id), id + " skipped");
            assertFalse(seen.contains("before"), "an item written before the cursor was returned");
            assertTrue(seen.contains("after"), "an item written after the cursor was not returned");
        } finally {
            c.deleteItem("before", PK, null);
            c.deleteItem("after", PK, null);
        }
    }

    @Test
    void alteredServerTokenIsRefused() {
        // A query without ORDER BY: the SDK's token is {"token": <the server's>, "range": ...}
        // and the server's token goes back as it is. (Its ORDER BY pipeline sends none on
        // resume: it reads ahead and restarts from the last row's orderByItems with a filter,
        // so there is no server token of it to alter.)
        String query = "SELECT c.id FROM c WHERE c.n >= 0";
        String token = page(query, null, 50).getContinuationToken();
        assertNotNull(token);
        ObjectNode parsed = readObject(token);
        String server = parsed.path("token").asText();
        assertFalse(server.isEmpty(), "no server token inside " + token);
        String raw = new String(Base64.getDecoder().decode(server), StandardCharsets.ISO_8859_1);
        parsed.put("token", Base64.getEncoder().encodeToString(
            ("S999" + raw.substring(raw.indexOf(':'))).getBytes(StandardCharsets.ISO_8859_1)));
        String altered = parsed.toString();
        CosmosException e = assertThrows(CosmosException.class, () -> page(query, altered, 50));
        assertEquals(400, e.getStatusCode(), e.getMessage());
        assertTrue(e.getMessage().contains("Invalid Continuation Token"), e.getMessage());

        // The unaltered token resumes after the first page.
        assertEquals(50, page(query, token, 50).getResults().size());
    }

    private static ObjectNode readObject(String text) {
        try {
            return (ObjectNode) ScenarioDriver.JSON.readTree(text);
        } catch (java.io.IOException | ClassCastException e) {
            throw new AssertionError("not a JSON object: " + text, e);
        }
    }
}
