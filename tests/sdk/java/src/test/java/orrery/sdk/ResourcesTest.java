package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosDatabaseProperties;
import com.azure.cosmos.models.CosmosDatabaseResponse;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.ThroughputResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Java only: databases and containers, single and hierarchical keys, with throughput. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourcesTest extends ServerTest {

    @BeforeAll
    void start() {
    }

    @Test
    void databaseCreateReadListDelete() {
        CosmosDatabaseResponse created = client.createDatabase("res-db");
        assertEquals(201, created.getStatusCode());
        assertEquals("res-db", created.getProperties().getId());
        assertEquals(200, client.createDatabaseIfNotExists("res-db").getStatusCode());
        Sdk.assertCosmosError(409, () -> client.createDatabase("res-db"));
        CosmosDatabaseResponse read = client.getDatabase("res-db").read();
        assertEquals(200, read.getStatusCode());
        assertNotNull(read.getProperties().getResourceId());
        assertNotNull(read.getProperties().getETag());
        Set<String> ids = client.readAllDatabases().stream().map(CosmosDatabaseProperties::getId).collect(Collectors.toSet());
        assertTrue(ids.contains("res-db"), ids.toString());
        Set<String> queried = client.queryDatabases("SELECT * FROM d WHERE d.id = 'res-db'", new CosmosQueryRequestOptions())
            .stream().map(CosmosDatabaseProperties::getId).collect(Collectors.toSet());
        assertEquals(Set.of("res-db"), queried);
        assertEquals(204, client.getDatabase("res-db").delete().getStatusCode());
        CosmosException gone = Sdk.assertCosmosError(404, () -> client.getDatabase("res-db").read());
        assertEquals(404, gone.getStatusCode());
    }

    @Test
    void databaseWithSharedThroughput() {
        client.createDatabase("res-shared", ThroughputProperties.createManualThroughput(400));
        CosmosDatabase db = client.getDatabase("res-shared");
        ThroughputResponse t = db.readThroughput();
        assertEquals(400, t.getProperties().getManualThroughput());
        db.replaceThroughput(ThroughputProperties.createManualThroughput(600));
        assertEquals(600, db.readThroughput().getProperties().getManualThroughput());
        // A container in it shares the database's throughput.
        db.createContainer("shared-c", "/pk");
        CosmosContainer c = db.getContainer("shared-c");
        c.createItem(item("s1", "p"), new PartitionKey("p"), new CosmosItemRequestOptions());
        assertEquals("s1", c.readItem("s1", new PartitionKey("p"), JsonNode.class).getItem().get("id").asText());
        db.delete();
    }

    @Test
    void containerWithASingleKeyAndThroughput() {
        client.createDatabaseIfNotExists("res-c");
        CosmosDatabase db = client.getDatabase("res-c");
        PartitionKeyDefinition v2 = new PartitionKeyDefinition();
        v2.setPaths(List.of("/pk"));
        v2.setVersion(PartitionKeyDefinitionVersion.V2);
        CosmosContainerProperties props = new CosmosContainerProperties("single", v2);
        CosmosContainerResponse created = db.createContainer(props, ThroughputProperties.createManualThroughput(500));
        assertEquals(201, created.getStatusCode());
        PartitionKeyDefinition def = created.getProperties().getPartitionKeyDefinition();
        assertEquals(List.of("/pk"), def.getPaths());
        assertEquals(PartitionKind.HASH, def.getKind());
        assertEquals(PartitionKeyDefinitionVersion.V2, def.getVersion());
        CosmosContainer c = db.getContainer("single");
        assertEquals(500, c.readThroughput().getProperties().getManualThroughput());

        // Replace: a default TTL is kept.
        CosmosContainerProperties read = c.read().getProperties();
        read.setDefaultTimeToLiveInSeconds(3600);
        assertEquals(3600, c.replace(read).getProperties().getDefaultTimeToLiveInSeconds());
        assertEquals(3600, c.read().getProperties().getDefaultTimeToLiveInSeconds());

        Set<String> ids = db.readAllContainers().stream().map(CosmosContainerProperties::getId).collect(Collectors.toSet());
        assertTrue(ids.contains("single"), ids.toString());
        Sdk.assertCosmosError(409, () -> db.createContainer("single", "/pk"));
        assertEquals(200, db.createContainerIfNotExists("single", "/pk").getStatusCode());
        assertEquals(204, c.delete().getStatusCode());
        Sdk.assertCosmosError(404, c::read);
    }

    @Test
    void containerWithAHierarchicalKey() {
        client.createDatabaseIfNotExists("res-h");
        CosmosDatabase db = client.getDatabase("res-h");
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setPaths(List.of("/tenant", "/user", "/session"));
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        CosmosContainerResponse created = db.createContainer(new CosmosContainerProperties("hier", def),
            ThroughputProperties.createManualThroughput(400));
        assertEquals(PartitionKind.MULTI_HASH, created.getProperties().getPartitionKeyDefinition().getKind());
        assertEquals(List.of("/tenant", "/user", "/session"), created.getProperties().getPartitionKeyDefinition().getPaths());
        CosmosContainer c = db.getContainer("hier");
        List<String> all = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            for (int u = 0; u < 3; u++) {
                for (int s = 0; s < 2; s++) {
                    String id = "i" + t + u + s;
                    ObjectNode doc = ScenarioDriver.JSON.createObjectNode().put("id", id)
                        .put("tenant", "t" + t).put("user", "u" + u).put("session", "s" + s);
                    PartitionKey pk = new PartitionKeyBuilder().add("t" + t).add("u" + u).add("s" + s).build();
                    assertEquals(201, c.createItem(doc, pk, new CosmosItemRequestOptions()).getStatusCode());
                    all.add(id);
                }
            }
        }
        PartitionKey full = new PartitionKeyBuilder().add("t1").add("u2").add("s0").build();
        assertEquals("t1", c.readItem("i120", full, JsonNode.class).getItem().get("tenant").asText());
        // The same id under another full key is another item; a wrong key finds nothing.
        Sdk.assertCosmosError(404, () -> c.readItem("i120",
            new PartitionKeyBuilder().add("t1").add("u2").add("s1").build(), JsonNode.class));
        // Queries scoped to a key prefix: the first level, then two levels.
        CosmosQueryRequestOptions tenant = new CosmosQueryRequestOptions()
            .setPartitionKey(new PartitionKeyBuilder().add("t2").build());
        assertEquals(expectedIds(all, "i2"), ids(c, "SELECT c.id FROM c", tenant));
        CosmosQueryRequestOptions user = new CosmosQueryRequestOptions()
            .setPartitionKey(new PartitionKeyBuilder().add("t0").add("u1").build());
        assertEquals(expectedIds(all, "i01"), ids(c, "SELECT c.id FROM c", user));
        assertEquals(new TreeSet<>(all), ids(c, "SELECT c.id FROM c", new CosmosQueryRequestOptions()));
        c.delete();
    }

    private static Set<String> expectedIds(List<String> all, String prefix) {
        return all.stream().filter(id -> id.startsWith(prefix)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> ids(CosmosContainer c, String query, CosmosQueryRequestOptions options) {
        return c.queryItems(query, options, JsonNode.class).stream().map(n -> n.get("id").asText())
            .collect(Collectors.toCollection(TreeSet::new));
    }

    static ObjectNode item(String id, String pk) {
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", pk);
    }
}
