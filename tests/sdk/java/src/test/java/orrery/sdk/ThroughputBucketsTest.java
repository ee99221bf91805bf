package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.ThroughputControlGroupConfig;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PriorityLevel;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Java only: throughput buckets and priority-based execution on a server with
 * --enforce-throughput (issue 47). A request in a bucket over its share of its partition's
 * RU/s gets 429 with substatus 3212 (throughput-buckets FAQ) while requests of no bucket go
 * on; with the partition over budget, low-priority requests are throttled before
 * high-priority ones (priority-based-execution.md).
 *
 * <p>azure-cosmos 4.81.0 sends both headers only through server-side throughput control
 * groups: {@code ThroughputControlGroupConfigBuilder.throughputBucket(n)} and/or
 * {@code .priorityLevel(...)} (ServerThroughputControlGroup needs at least one, may have
 * both), enabled with {@code container.enableServerThroughputControlGroup} and chosen per
 * request by {@code CosmosItemRequestOptions.setThroughputControlGroupName} or, with none
 * named, by the container's default group (ServerThroughputContainerController).
 * ServerThroughputGroupController then sets {@code x-ms-cosmos-throughput-bucket} and
 * {@code x-ms-cosmos-priority-level} (RxDocumentServiceRequest.setThroughputBucket /
 * setPriorityLevel) on Document and StoredProcedure requests. Buckets themselves are
 * configured with Orrery's admin call (the service configures them in its control plane;
 * no data-plane SDK can).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThroughputBucketsTest extends ServerTest {
    private static final String DB = "buckets";
    private static final String PAD = "x".repeat(900);
    private CosmosDatabase db;
    /** A client whose 429s reach the caller (no throttling retries). */
    private CosmosClient noRetries;

    @Override
    protected String[] serverArgs() {
        return new String[] {"--enforce-throughput"};
    }

    @BeforeAll
    void start() {
        client.createDatabase(DB);
        db = client.getDatabase(DB);
        noRetries = Sdk.builder(server)
            .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
            .buildClient();
    }

    @AfterAll
    void closeClients() {
        if (noRetries != null) noRetries.close();
    }

    /** A V2 container of 400 RU/s: one physical partition. */
    private void newContainer(String id) {
        db.createContainer(Sdk.v2(id, "/pk"), ThroughputProperties.createManualThroughput(400));
    }

    /** ~1 KB: a create costs several RU. */
    private static ObjectNode doc(String id) {
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", "p").put("pad", PAD);
    }

    private static CosmosItemRequestOptions inGroup(String group) {
        CosmosItemRequestOptions options = new CosmosItemRequestOptions();
        options.setThroughputControlGroupName(group);
        return options;
    }

    private static ThroughputControlGroupConfig bucketGroup(String name, int bucket) {
        return new ThroughputControlGroupConfigBuilder().groupName(name).throughputBucket(bucket).build();
    }

    private static ThroughputControlGroupConfig priorityGroup(String name, PriorityLevel level) {
        return new ThroughputControlGroupConfigBuilder().groupName(name).priorityLevel(level).build();
    }

    private HttpResponse<String> configure(String container, String body) throws Exception {
        return Rest.containerThroughput(server, DB, container, body);
    }

    @Test
    void aBucketIsThrottledAtItsShareWhileOthersGoOn() throws Exception {
        newContainer("bucketed");
        HttpResponse<String> configured = configure("bucketed", "{\"throughputBuckets\":[{\"id\":1,\"maxThroughputPercentage\":10}]}");
        assertEquals(200, configured.statusCode(), configured.body());
        assertEquals(ScenarioDriver.JSON.readTree("[{\"id\":1,\"maxThroughputPercentage\":10}]"),
            ScenarioDriver.JSON.readTree(configured.body()).get("throughputBuckets"), configured.body());

        CosmosContainer c = noRetries.getDatabase(DB).getContainer("bucketed");
        c.enableServerThroughputControlGroup(bucketGroup("bucket1", 1));
        c.enableServerThroughputControlGroup(bucketGroup("bucket3", 3));
        PartitionKey pk = new PartitionKey("p");

        // Bucket 1 may spend 40 of the partition's 400 RU/s: a handful of ~1 KB creates.
        int admitted = 0;
        CosmosException throttled = null;
        for (int i = 0; i < 40 && throttled == null; i++) {
            try {
                c.createItem(doc("b" + i), pk, inGroup("bucket1"));
                admitted++;
            } catch (CosmosException e) {
                throttled = e;
            }
        }
        assertNotNull(throttled, "bucket 1 (10% of 400 RU/s) was never throttled in 40 creates of ~1 KB");
        final CosmosException e = throttled;
        assertEquals(429, e.getStatusCode(), () -> Sdk.wire(e));
        assertEquals(3212, e.getSubStatusCode(), () -> "the bucket's 429: " + Sdk.wire(e));
        assertTrue(e.getRetryAfterDuration().toMillis() > 0, "retry-after: " + e.getRetryAfterDuration());
        assertTrue(admitted >= 3 && admitted <= 12, "bucket 1 (40 RU/s) admitted " + admitted + " creates of ~5-7 RU");
        System.out.println("[buckets] bucket 1 admitted " + admitted + " creates, then " + Sdk.wire(e));

        // The partition's budget is far from spent: requests of no group (no bucket), and of a
        // bucket not configured (ids 1 to 5 are all valid), draw on it.
        for (int i = 0; i < 5; i++) {
            assertEquals(201, c.createItem(doc("free" + i), pk, new CosmosItemRequestOptions()).getStatusCode());
        }
        assertEquals(201, c.createItem(doc("in-bucket-3"), pk, inGroup("bucket3")).getStatusCode());

        // Removed, bucket 1 draws on the whole budget again (once it has refilled).
        HttpResponse<String> removed = configure("bucketed", "{\"throughputBuckets\":[]}");
        assertEquals(200, removed.statusCode(), removed.body());
        Thread.sleep(1200);
        for (int i = 0; i < 10; i++) {
            assertEquals(201, c.createItem(doc("again" + i), pk, inGroup("bucket1")).getStatusCode());
        }
    }

    /** The builder accepts any bucket >= 0; the service knows 1 to 5 and refuses the rest before running anything. */
    @Test
    void bucketsOutsideOneToFiveAre400() {
        newContainer("invalid");
        CosmosContainer c = noRetries.getDatabase(DB).getContainer("invalid");
        c.enableServerThroughputControlGroup(bucketGroup("bucket0", 0));
        c.enableServerThroughputControlGroup(bucketGroup("bucket6", 6));
        PartitionKey pk = new PartitionKey("p");
        for (String group : List.of("bucket0", "bucket6")) {
            CosmosException e = Sdk.assertCosmosError(400, () -> c.createItem(doc(group), pk, inGroup(group)));
            assertTrue(e.getShortMessage().contains("x-ms-cosmos-throughput-bucket"), () -> Sdk.wire(e));
            Sdk.assertCosmosError(404, () -> client.getDatabase(DB).getContainer("invalid").readItem(group, pk, JsonNode.class));
        }
    }

    /**
     * Over budget, Low is throttled first: for 1.5 s, a High create and a Low create in turn
     * as fast as one caller can, in one partition of a 400 RU/s container, no retries.
     * A Low request is admitted only while the budget holds more than half a second's RU,
     * a High one down to zero.
     */
    @Test
    void lowPriorityIsThrottledBeforeHigh() throws Exception {
        newContainer("prio");
        CosmosContainer c = noRetries.getDatabase(DB).getContainer("prio");
        c.enableServerThroughputControlGroup(priorityGroup("high", PriorityLevel.HIGH));
        c.enableServerThroughputControlGroup(priorityGroup("low", PriorityLevel.LOW));
        PartitionKey pk = new PartitionKey("p");
        Map<String, int[]> outcome = new LinkedHashMap<>();  // group -> {ok, throttled}
        outcome.put("high", new int[2]);
        outcome.put("low", new int[2]);
        long deadline = System.nanoTime() + 1_500_000_000L;
        for (int i = 0; System.nanoTime() < deadline; i++) {
            for (String group : outcome.keySet()) {
                try {
                    c.createItem(doc(group + i), pk, inGroup(group));
                    outcome.get(group)[0]++;
                } catch (CosmosException e) {
                    if (e.getStatusCode() != 429) throw new AssertionError("create in group " + group + ": " + Sdk.wire(e), e);
                    assertEquals(3200, e.getSubStatusCode(), () -> Sdk.wire(e));
                    outcome.get(group)[1]++;
                }
            }
        }
        int[] high = outcome.get("high");
        int[] low = outcome.get("low");
        String detail = "High " + high[0] + " ok / " + high[1] + " throttled, Low " + low[0] + " ok / " + low[1] + " throttled";
        System.out.println("[priority] " + detail);
        assertTrue(high[1] + low[1] > 0, "the partition was never over budget: " + detail);
        assertTrue(low[1] > high[1], "low priority throttled first: " + detail);
        assertTrue(high[0] > low[0], "high priority got more done: " + detail);

        // A priority the service does not know is refused (the SDK can send only High and Low).
        String link = "dbs/" + DB + "/colls/prio";
        HttpResponse<String> medium = Rest.send(server, "POST", link + "/docs", "docs", link, Map.of(
            "x-ms-version", "2020-07-15", "x-ms-documentdb-partitionkey", "[\"p\"]",
            "x-ms-cosmos-priority-level", "Medium"), "{\"id\":\"medium\",\"pk\":\"p\"}");
        assertEquals(400, medium.statusCode(), medium.body());
        // The default client retries its 429s while the budget refills.
        Sdk.assertCosmosError(404, () -> client.getDatabase(DB).getContainer("prio").readItem("medium", pk, JsonNode.class));
    }

    /**
     * On the wire: each group's headers, and none without a group (or with a group name not
     * enabled, when the container has no default group); a default group for requests that
     * name none.
     */
    @Test
    void theSdkSendsTheGroupsHeaders() {
        newContainer("wire");
        newContainer("wire-default");
        PartitionKey pk = new PartitionKey("p");
        List<String> cases = List.of("none", "unknown", "b2", "low", "both");
        for (String id : cases) client.getDatabase(DB).getContainer("wire").createItem(doc(id), pk, new CosmosItemRequestOptions());
        client.getDatabase(DB).getContainer("wire-default").createItem(doc("default"), pk, new CosmosItemRequestOptions());

        try (WireTap tap = WireTap.start(server);
             CosmosClient tapped = Sdk.builder(server).endpoint(tap.endpoint()).buildClient()) {
            CosmosContainer c = tapped.getDatabase(DB).getContainer("wire");
            c.enableServerThroughputControlGroup(bucketGroup("b2", 2));
            c.enableServerThroughputControlGroup(priorityGroup("low", PriorityLevel.LOW));
            c.enableServerThroughputControlGroup(new ThroughputControlGroupConfigBuilder()
                .groupName("both").throughputBucket(4).priorityLevel(PriorityLevel.HIGH).build());
            CosmosContainer d = tapped.getDatabase(DB).getContainer("wire-default");
            d.enableServerThroughputControlGroup(new ThroughputControlGroupConfigBuilder()
                .groupName("dflt").throughputBucket(5).defaultControlGroup(true).build());

            // Replaces: a write whose path names the item, so each case is found on the wire.
            c.replaceItem(doc("none"), "none", pk, new CosmosItemRequestOptions());
            c.replaceItem(doc("unknown"), "unknown", pk, inGroup("not-enabled"));
            c.replaceItem(doc("b2"), "b2", pk, inGroup("b2"));
            c.replaceItem(doc("low"), "low", pk, inGroup("low"));
            c.replaceItem(doc("both"), "both", pk, inGroup("both"));
            d.replaceItem(doc("default"), "default", pk, new CosmosItemRequestOptions());

            List<WireTap.Request> sent = tap.requests();
            Map<String, WireTap.Request> byItem = new LinkedHashMap<>();
            for (WireTap.Request r : sent) {
                if (r.method().equals("PUT") && r.path().contains("/docs/")) byItem.put(r.path().substring(r.path().lastIndexOf('/') + 1), r);
            }
            List<String> seen = new ArrayList<>(byItem.keySet());
            assertEquals(6, byItem.size(), "item replaces seen on the wire: " + seen + " of " + sent.size() + " requests");
            String[][] expected = {
                // item, x-ms-cosmos-throughput-bucket, x-ms-cosmos-priority-level (null: absent)
                {"none", null, null},
                {"unknown", null, null},
                {"b2", "2", null},
                {"low", null, "Low"},
                {"both", "4", "High"},
                {"default", "5", null},
            };
            for (String[] x : expected) {
                WireTap.Request r = byItem.get(x[0]);
                assertNotNull(r, x[0] + " not on the wire: " + seen);
                assertEquals(x[1], r.header("x-ms-cosmos-throughput-bucket"), () -> "bucket header of " + r);
                assertEquals(x[2], r.header("x-ms-cosmos-priority-level"), () -> "priority header of " + r);
            }
        }
    }
}
