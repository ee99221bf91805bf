package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.ChangeFeedProcessorBuilder;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.ChangeFeedProcessorOptions;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Java only: the change feed pull model and the change feed processor with a lease container. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangeFeedTest extends ServerTest {
    private CosmosDatabase db;

    @BeforeAll
    void start() {
        client.createDatabase("cf");
        db = client.getDatabase("cf");
    }

    private static JsonNode doc(String id, String pk, int n) {
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", pk).put("n", n);
    }

    /**
     * Reads the feed page by page until the SDK ends it (every range answered "no more
     * changes"); returns the continuation token of the last page, to resume from later.
     */
    private static String drain(CosmosContainer c, CosmosChangeFeedRequestOptions options, List<String> ids) {
        String token = null;
        int pages = 0;
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(options, JsonNode.class).iterableByPage()) {
            token = page.getContinuationToken();
            page.getResults().forEach(n -> ids.add(n.get("id").asText()));
            if (++pages > 200) throw new AssertionError("change feed did not end within 200 pages");
        }
        return token;
    }

    @Test
    void pullModelFromBeginningNowAndASavedContinuation() {
        // Two physical partitions (12,000 RU/s) so the feed spans ranges.
        db.createContainer(Sdk.v2("pull", "/pk"), ThroughputProperties.createManualThroughput(12000));
        CosmosContainer c = db.getContainer("pull");
        List<String> first = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            c.createItem(doc("a" + i, "p" + (i % 7), i), new PartitionKey("p" + (i % 7)), new CosmosItemRequestOptions());
            first.add("a" + i);
        }
        // "Now", taken before the second batch of writes.
        CosmosChangeFeedRequestOptions now = CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange());
        List<String> nothing = new ArrayList<>();
        String nowToken = drain(c, now, nothing);
        assertEquals(List.of(), nothing, "from now: no earlier changes");
        assertNotNull(nowToken);

        // From the beginning: each item once.
        List<String> all = new ArrayList<>();
        String beginningToken = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange())
            .setMaxItemCount(4), all);
        assertEquals(sorted(first), sorted(all));
        assertNotNull(beginningToken);

        List<String> second = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            c.createItem(doc("b" + i, "p" + (i % 7), i), new PartitionKey("p" + (i % 7)), new CosmosItemRequestOptions());
            second.add("b" + i);
        }
        // An update of an earlier item shows once more, as its latest version.
        c.upsertItem(doc("a0", "p0", 1000), new PartitionKey("p0"), new CosmosItemRequestOptions());
        List<String> expected = new ArrayList<>(second);
        expected.add("a0");

        // From the token saved after "now", and from the one saved after the beginning read.
        List<String> fromNow = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(nowToken), fromNow);
        assertEquals(sorted(expected), sorted(fromNow));
        List<String> resumed = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(beginningToken), resumed);
        assertEquals(sorted(expected), sorted(resumed));

        // One logical partition.
        List<String> p3 = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forLogicalPartition(new PartitionKey("p3"))), p3);
        assertEquals(List.of("a10", "a17", "a3", "b3"), sorted(p3));
    }

    @Test
    void changeFeedProcessorReceivesEveryItemOnce() throws Exception {
        db.createContainer(Sdk.v2("feed", "/pk"), ThroughputProperties.createManualThroughput(12000));
        db.createContainer("leases", "/id");
        try (CosmosAsyncClient async = Sdk.asyncClient(server)) {
            CosmosAsyncContainer feed = async.getDatabase("cf").getContainer("feed");
            CosmosAsyncContainer leases = async.getDatabase("cf").getContainer("leases");
            Map<String, Integer> seen = Collections.synchronizedMap(new HashMap<>());
            ChangeFeedProcessorOptions options = new ChangeFeedProcessorOptions()
                .setFeedPollDelay(Duration.ofMillis(200))
                .setLeaseAcquireInterval(Duration.ofSeconds(1))
                .setLeaseRenewInterval(Duration.ofSeconds(2))
                .setLeaseExpirationInterval(Duration.ofSeconds(10))
                .setStartFromBeginning(true);
            ChangeFeedProcessor processor = new ChangeFeedProcessorBuilder()
                .hostName("java-host-1")
                .feedContainer(feed)
                .leaseContainer(leases)
                .options(options)
                .handleChanges((List<JsonNode> docs) -> docs.forEach(d -> seen.merge(d.get("id").asText(), 1, Integer::sum)))
                .buildChangeFeedProcessor();
            CosmosContainer sync = db.getContainer("feed");
            // Some items before the start (read from the beginning), some while it runs.
            for (int i = 0; i < 15; i++) {
                sync.createItem(doc("f" + i, "q" + (i % 5), i), new PartitionKey("q" + (i % 5)), new CosmosItemRequestOptions());
            }
            processor.start().block(Duration.ofSeconds(30));
            try {
                for (int i = 15; i < 40; i++) {
                    sync.createItem(doc("f" + i, "q" + (i % 5), i), new PartitionKey("q" + (i % 5)), new CosmosItemRequestOptions());
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (seen.size() < 40 && System.nanoTime() < deadline) Thread.sleep(200);
                Thread.sleep(1500); // anything delivered twice shows up here
            } finally {
                processor.stop().block(Duration.ofSeconds(30));
            }
            Map<String, Integer> expected = new TreeMap<>();
            for (int i = 0; i < 40; i++) expected.put("f" + i, 1);
            assertEquals(expected, new TreeMap<>(seen), "every item exactly once");
            // The processor kept its leases in the lease container.
            long leaseDocs = db.getContainer("leases").queryItems("SELECT VALUE COUNT(1) FROM c",
                new com.azure.cosmos.models.CosmosQueryRequestOptions(), Long.class).stream().findFirst().orElse(0L);
            assertTrue(leaseDocs >= 1, "lease documents: " + leaseDocs);
        }
    }

    private static List<String> sorted(List<String> l) {
        List<String> s = new ArrayList<>(l);
        Collections.sort(s);
        return s;
    }
}
