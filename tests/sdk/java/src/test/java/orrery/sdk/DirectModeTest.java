package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Java only: a client left in its default (direct) mode gets, quickly, an exception that
 * says orrery serves gateway mode only and to call .gatewayMode() on CosmosClientBuilder.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DirectModeTest {
    static final Duration BOUND = Duration.ofSeconds(20);

    private OrreryServer server;

    @BeforeAll
    void start() {
        server = OrreryServer.start();
        try (CosmosClient gateway = Sdk.client(server)) {
            gateway.createDatabase("direct");
            gateway.getDatabase("direct").createContainer("c", "/pk");
            gateway.getDatabase("direct").getContainer("c").createItem(
                ScenarioDriver.JSON.createObjectNode().put("id", "x").put("pk", "p"));
        }
    }

    @AfterAll
    void stop() {
        if (server != null) server.close();
    }

    private static void assertAdvice(Throwable t, long millis) {
        assertInstanceOf(CosmosException.class, t, () -> "expected a CosmosException, got " + t);
        CosmosException e = (CosmosException) t;
        String message = e.getMessage();
        System.out.println("[direct mode] after " + millis + " ms: " + e.getClass().getSimpleName()
            + " status=" + e.getStatusCode() + " substatus=" + e.getSubStatusCode()
            + "\n[direct mode] getShortMessage(): " + e.getShortMessage());
        assertEquals(400, e.getStatusCode(), Sdk.wire(e));
        assertTrue(message.contains("gateway mode only"), message);
        assertTrue(message.contains(".gatewayMode() on CosmosClientBuilder"), message);
        assertTrue(millis < BOUND.toMillis(), "took " + millis + " ms");
    }

    @Test
    void aDirectModeClientIsToldToUseGatewayMode() {
        // No .gatewayMode(): the builder's default is direct mode.
        CosmosClientBuilder builder = new CosmosClientBuilder().endpoint(server.endpoint()).key(Sdk.KEY);
        long start = System.nanoTime();
        try (CosmosAsyncClient direct = builder.buildAsyncClient()) {
            CosmosAsyncContainer c = direct.getDatabase("direct").getContainer("c");
            try {
                c.readItem("x", new PartitionKey("p"), JsonNode.class).block(BOUND.plusSeconds(10));
                fail("a direct-mode read succeeded against orrery");
            } catch (RuntimeException e) {
                assertAdvice(e, (System.nanoTime() - start) / 1_000_000);
            }
            long writeStart = System.nanoTime();
            try {
                c.createItem(ScenarioDriver.JSON.createObjectNode().put("id", "y").put("pk", "p"),
                    new PartitionKey("p"), new CosmosItemRequestOptions()).block(BOUND.plusSeconds(10));
                fail("a direct-mode write succeeded against orrery");
            } catch (RuntimeException e) {
                assertAdvice(e, (System.nanoTime() - writeStart) / 1_000_000);
            }
            long queryStart = System.nanoTime();
            try {
                c.queryItems("SELECT * FROM c", JsonNode.class).byPage().blockLast(BOUND.plusSeconds(10));
                fail("a direct-mode query succeeded against orrery");
            } catch (RuntimeException e) {
                assertAdvice(e, (System.nanoTime() - queryStart) / 1_000_000);
            }
        }
    }
}
