package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.ThroughputResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Java only: throughput read/replace, and the SDK's 429 retries (server with --enforce-throughput). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThroughputTest extends ServerTest {
    private CosmosDatabase db;

    @Override
    protected String[] serverArgs() {
        return new String[] {"--enforce-throughput"};
    }

    @BeforeAll
    void start() {
        client.createDatabase("tp");
        db = client.getDatabase("tp");
    }

    private static ObjectNode doc(String id, String pk) {
        // ~1 KB: a create costs several RU.
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", pk).put("pad", "x".repeat(1000));
    }

    @Test
    void readAndReplaceThroughput() {
        db.createContainer("rr", "/pk", ThroughputProperties.createManualThroughput(400));
        CosmosContainer c = db.getContainer("rr");
        ThroughputResponse read = c.readThroughput();
        assertEquals(400, read.getProperties().getManualThroughput());
        assertTrue(read.getMinThroughput() <= 400, "min throughput " + read.getMinThroughput());
        ThroughputResponse replaced = c.replaceThroughput(ThroughputProperties.createManualThroughput(1000));
        assertEquals(1000, replaced.getProperties().getManualThroughput());
        assertEquals(1000, c.readThroughput().getProperties().getManualThroughput());
        // Autoscale on a container of its own.
        db.createContainer("auto", "/pk", ThroughputProperties.createAutoscaledThroughput(4000));
        assertEquals(4000, db.getContainer("auto").readThroughput().getProperties().getAutoscaleMaxThroughput());
    }

    /** A burst of ~1,000 RU at a 400 RU/s container: 429s happen, and the SDK retries them all. */
    @Test
    void theSdkRetries429sUntilTheBurstIsServed() {
        db.createContainer("hot", "/pk", ThroughputProperties.createManualThroughput(400));
        // Orrery's budget is a token bucket that refills continuously, so its retry-after
        // is a few ms and, among 16 concurrent writers, one create was once refused 61
        // times within 0.8 s: the attempts are not the bound here, the wait time is.
        ThrottlingRetryOptions retry = new ThrottlingRetryOptions()
            .setMaxRetryAttemptsOnThrottledRequests(10000)
            .setMaxRetryWaitTime(Duration.ofSeconds(60));
        try (CosmosAsyncClient async = Sdk.builder(server).throttlingRetryOptions(retry).buildAsyncClient()) {
            CosmosAsyncContainer c = async.getDatabase("tp").getContainer("hot");
            AtomicInteger retried = new AtomicInteger();
            AtomicInteger retries = new AtomicInteger();
            // A burst of 150 creates (~1,000 RU) is well over 400 RU/s; on a slow machine a
            // burst may spread out, so up to 4 bursts, until one needed a retry.
            int created = 0;
            for (int round = 0; round < 4 && retried.get() == 0; round++) {
                final int base = round * 150;
                List<CosmosItemResponse<ObjectNode>> responses = Flux.range(base, 150)
                    .flatMap(i -> c.createItem(doc("h" + i, "p" + (i % 3)), new PartitionKey("p" + (i % 3)), new CosmosItemRequestOptions()), 16)
                    .doOnNext(r -> {
                        int n = r.getDiagnostics().getDiagnosticsContext().getRetryCount();
                        if (n > 0) {
                            retried.incrementAndGet();
                            retries.addAndGet(n);
                        }
                    })
                    .collectList()
                    .block(Duration.ofSeconds(120));
                assertNotNull(responses);
                assertEquals(150, responses.size());
                assertTrue(responses.stream().allMatch(r -> r.getStatusCode() == 201));
                created += 150;
            }
            assertTrue(retried.get() > 0, "bursts of ~1,000 RU at 400 RU/s: some creates must have been retried after a 429");
            System.out.println("[429 retries] " + retried.get() + " creates needed " + retries.get() + " retries");
            // Every item is there once.
            long count = async.getDatabase("tp").getContainer("hot")
                .queryItems("SELECT VALUE COUNT(1) FROM c", Long.class).collectList().block(Duration.ofSeconds(60)).get(0);
            assertEquals(created, count);
        }
    }

    /** Without retries, the 429 reaches the caller: RequestRateTooLargeException, 3200, a retry-after. */
    @Test
    void withoutRetriesThe429ReachesTheCaller() {
        db.createContainer("hot2", "/pk", ThroughputProperties.createManualThroughput(400));
        ThrottlingRetryOptions none = new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0);
        try (CosmosAsyncClient async = Sdk.builder(server).throttlingRetryOptions(none).buildAsyncClient()) {
            CosmosAsyncContainer c = async.getDatabase("tp").getContainer("hot2");
            List<Throwable> errors = new java.util.ArrayList<>();
            for (int round = 0; round < 4 && errors.isEmpty(); round++) {
                final int base = round * 150;
                List<Throwable> failed = Flux.range(base, 150)
                    .flatMap(i -> c.createItem(doc("n" + i, "p"), new PartitionKey("p"), new CosmosItemRequestOptions())
                        .map(r -> (Throwable) new IllegalStateException("ok"))
                        .onErrorResume(e -> Mono.just(e)), 16)
                    .filter(e -> !(e instanceof IllegalStateException))
                    .collectList()
                    .block(Duration.ofSeconds(120));
                assertNotNull(failed);
                errors.addAll(failed);
            }
            assertTrue(!errors.isEmpty(), "bursts of ~1,000 RU at 400 RU/s: some creates must be throttled");
            for (Throwable t : errors) {
                assertTrue(t instanceof CosmosException, "expected only 429s, got " + Sdk.wire(t));
                CosmosException e = (CosmosException) t;
                assertEquals(429, e.getStatusCode());
                assertEquals(3200, e.getSubStatusCode(), Sdk.wire(e));
                assertTrue(e.getRetryAfterDuration().toMillis() > 0, "retry-after: " + e.getRetryAfterDuration());
            }
        }
    }
}
