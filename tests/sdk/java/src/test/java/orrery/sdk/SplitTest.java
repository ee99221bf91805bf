package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

/**
 * Java only: a container that splits (server with --partition-split-bytes 49152) while
 * the SDK writes, reads and pages a query: no error surfaces, nothing is missed or doubled.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SplitTest {
    private OrreryServer server;
    private CosmosClient early;

    @BeforeAll
    void start() {
        server = OrreryServer.start("--partition-split-bytes", "49152");
        early = Sdk.client(server);
        early.createDatabase("split");
        early.getDatabase("split").createContainer(Sdk.v2("c", "/pk"), ThroughputProperties.createManualThroughput(400));
    }

    @AfterAll
    void stop() {
        if (early != null) early.close();
        if (server != null) server.close();
    }

    private static ObjectNode doc(int i) {
        return ScenarioDriver.JSON.createObjectNode().put("id", "s" + i).put("pk", "p" + (i % 40)).put("n", i)
            .put("pad", "x".repeat(900));
    }

    @Test
    void splitWhileWritingReadingAndPaging() throws Exception {
        CosmosContainer c = early.getDatabase("split").getContainer("c");
        assertEquals(1, c.getFeedRanges().size(), "one physical partition before the split");
        // ~40 KB: below the split threshold.
        for (int i = 0; i < 40; i++) c.createItem(doc(i), new PartitionKey("p" + (i % 40)), new CosmosItemRequestOptions());
        // A change feed position and a query page taken before the split.
        String feedToken = null;
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(
                CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()), JsonNode.class).iterableByPage()) {
            feedToken = page.getContinuationToken();
        }
        assertNotNull(feedToken);
        CosmosQueryRequestOptions q = new CosmosQueryRequestOptions();
        Iterator<FeedResponse<JsonNode>> first = c.queryItems("SELECT c.id FROM c", q, JsonNode.class).iterableByPage(10).iterator();
        FeedResponse<JsonNode> firstPage = first.next();
        List<String> paged = new ArrayList<>();
        firstPage.getResults().forEach(n -> paged.add(n.get("id").asText()));
        String queryToken = firstPage.getContinuationToken();
        assertNotNull(queryToken);

        // 120 more items from 8 concurrent writers, reading each back: the split happens meanwhile.
        try (CosmosAsyncClient async = Sdk.asyncClient(server)) {
            CosmosAsyncContainer ac = async.getDatabase("split").getContainer("c");
            List<Integer> read = Flux.range(40, 120)
                .flatMap(i -> ac.createItem(doc(i), new PartitionKey("p" + (i % 40)), new CosmosItemRequestOptions())
                    .then(ac.readItem("s" + i, new PartitionKey("p" + (i % 40)), JsonNode.class))
                    .map(r -> r.getItem().get("n").asInt()), 8)
                .collectList().block(Duration.ofSeconds(120));
            assertNotNull(read);
            assertEquals(120, read.size());
        }
        // The split shows in the ranges a new client reads (bounded wait).
        int ranges = 1;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try (CosmosClient fresh = Sdk.client(server)) {
                ranges = fresh.getDatabase("split").getContainer("c").getFeedRanges().size();
            }
            if (ranges > 1) break;
            Thread.sleep(500);
        }
        final int seen = ranges;
        assertTrue(ranges > 1, () -> "the container should have split past 48 KB; ranges: " + seen + "\nserver output:\n" + server.tail());

        Set<String> all = new TreeSet<>();
        for (int i = 0; i < 160; i++) all.add("s" + i);

        // The query paged before the split resumes from its saved token: nothing doubled,
        // nothing that existed before it started missed.
        String token = queryToken;
        int pages = 0;
        while (token != null) {
            Iterator<FeedResponse<JsonNode>> it = c.queryItems("SELECT c.id FROM c", q, JsonNode.class).iterableByPage(token, 10).iterator();
            if (!it.hasNext()) break;
            FeedResponse<JsonNode> page = it.next();
            page.getResults().forEach(n -> paged.add(n.get("id").asText()));
            token = page.getContinuationToken();
            assertTrue(++pages < 100, "too many pages");
        }
        assertNoDuplicates(paged);
        assertTrue(all.containsAll(paged), "only written items: " + paged);
        for (int i = 0; i < 40; i++) assertTrue(paged.contains("s" + i), "s" + i + " missing from the query paged across the split");

        // Every item reads back through the client that cached the single range.
        for (int i = 0; i < 160; i += 7) {
            assertEquals(i, c.readItem("s" + i, new PartitionKey("p" + (i % 40)), JsonNode.class).getItem().get("n").asInt());
        }
        // A fresh paged query and a count see each item once.
        List<String> again = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems("SELECT c.id FROM c", q, JsonNode.class).iterableByPage(25)) {
            page.getResults().forEach(n -> again.add(n.get("id").asText()));
        }
        assertNoDuplicates(again);
        assertEquals(all, new TreeSet<>(again));
        assertEquals(160L, c.queryItems("SELECT VALUE COUNT(1) FROM c", q, Long.class).stream().findFirst().orElseThrow());

        // The change feed resumed from before the split gives the 120 later items once.
        List<String> changes = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(
                CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(feedToken), JsonNode.class).iterableByPage()) {
            page.getResults().forEach(n -> changes.add(n.get("id").asText()));
        }
        assertNoDuplicates(changes);
        Set<String> later = new TreeSet<>();
        for (int i = 40; i < 160; i++) later.add("s" + i);
        assertEquals(later, new TreeSet<>(changes));
    }

    private static void assertNoDuplicates(List<String> ids) {
        Map<String, Integer> counts = new HashMap<>();
        ids.forEach(id -> counts.merge(id, 1, Integer::sum));
        counts.values().removeIf(n -> n == 1);
        assertEquals(Map.of(), counts, "ids returned more than once");
    }
}
