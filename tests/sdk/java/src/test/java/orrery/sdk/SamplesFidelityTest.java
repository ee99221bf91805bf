package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerRequestOptions;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingDirective;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Method;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Java only: behaviours of the service that Microsoft's samples and the SDK's own tests
 * rely on — partition-key delete, legacy non-partitioned containers (system key), the
 * indexing directive and {@code automatic: false}, the root index path "/", patch at and
 * beyond an array's length, GROUP BY order, substatus codes, container replace through
 * the container's {@code _self} link.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SamplesFidelityTest extends ServerTest {
    private static final String DB = "fidelity";
    private CosmosDatabase db;

    @BeforeAll
    void start() {
        client.createDatabase(DB);
        db = client.getDatabase(DB);
    }

    private CosmosContainer container(CosmosContainerProperties properties) {
        db.createContainer(properties);
        return db.getContainer(properties.getId());
    }

    private static ObjectNode doc(String id, String pk) {
        return ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", pk);
    }

    private static Set<String> ids(CosmosContainer c, String query, CosmosQueryRequestOptions options) {
        return c.queryItems(query, options, JsonNode.class).stream().map(n -> n.get("id").asText())
            .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> ids(CosmosContainer c, SqlQuerySpec query, CosmosQueryRequestOptions options) {
        return c.queryItems(query, options, JsonNode.class).stream().map(n -> n.get("id").asText())
            .collect(Collectors.toCollection(TreeSet::new));
    }

    private static CosmosQueryRequestOptions in(PartitionKey pk) {
        return new CosmosQueryRequestOptions().setPartitionKey(pk);
    }

    // --- 1. Partition-key delete (how-to-delete-by-partition-key: "the effects are available
    // immediately ... you can write a new document with the same ID and partition key").

    @Test
    void deleteAllItemsByPartitionKey() throws InterruptedException {
        CosmosContainer c = container(Sdk.v2("pkdel", "/pk"));
        for (int i = 0; i < 4; i++) {
            c.createItem(doc("p" + i, "p"), new PartitionKey("p"), new CosmosItemRequestOptions());
            c.createItem(doc("q" + i, "q"), new PartitionKey("q"), new CosmosItemRequestOptions());
        }
        c.createItem(doc("r0", "r"), new PartitionKey("r"), new CosmosItemRequestOptions());

        CosmosItemResponse<Object> deleted =
            c.deleteAllItemsByPartitionKey(new PartitionKey("p"), new CosmosItemRequestOptions());
        assertEquals(200, deleted.getStatusCode());

        // At once: gone for point reads and for queries, scoped and cross-partition.
        for (int i = 0; i < 4; i++) {
            String id = "p" + i;
            Sdk.assertCosmosError(404, () -> c.readItem(id, new PartitionKey("p"), JsonNode.class));
        }
        assertEquals(Set.of(), ids(c, "SELECT * FROM c", in(new PartitionKey("p"))));
        Set<String> others = Set.of("q0", "q1", "q2", "q3", "r0");
        assertEquals(others, ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions()));
        assertEquals(Set.of(), ids(c, "SELECT * FROM c WHERE c.pk = 'p'", new CosmosQueryRequestOptions()));
        assertEquals("q2", c.readItem("q2", new PartitionKey("q"), JsonNode.class).getItem().get("id").asText());

        // The id is free at once (no 409), and the new item is outside the delete's scope.
        ObjectNode again = doc("p1", "p").put("n", 10);
        assertEquals(201, c.createItem(again, new PartitionKey("p"), new CosmosItemRequestOptions()).getStatusCode());
        assertEquals(10, c.readItem("p1", new PartitionKey("p"), JsonNode.class).getItem().get("n").asInt());

        // The purge runs in the background and deletes the marked items through the ordinary
        // delete: the container's document count (x-ms-resource-usage documentsCount, which
        // the SDK asks for with setQuotaInfoEnabled) drops to what is left. Meanwhile, and
        // after, nothing reappears.
        int expectedCount = others.size() + 1;
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int count = -1;
        while (System.nanoTime() < deadline) {
            assertEquals(Set.of("p1"), ids(c, "SELECT * FROM c", in(new PartitionKey("p"))));
            count = documentsCount(c);
            if (count == expectedCount) break;
            Thread.sleep(200);
        }
        assertEquals(expectedCount, count, "documentsCount after the purge");
        Set<String> all = new TreeSet<>(others);
        all.add("p1");
        assertEquals(all, ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions()));
        Sdk.assertCosmosError(404, () -> c.readItem("p0", new PartitionKey("p"), JsonNode.class));
        assertEquals(10, c.readItem("p1", new PartitionKey("p"), JsonNode.class).getItem().get("n").asInt());
    }

    private static int documentsCount(CosmosContainer c) {
        CosmosContainerResponse r = c.read(new CosmosContainerRequestOptions().setQuotaInfoEnabled(true));
        String usage = r.getResponseHeaders().get("x-ms-resource-usage");
        assertNotNull(usage, "x-ms-resource-usage with quota info");
        for (String part : usage.split(";")) {
            if (part.startsWith("documentsCount=")) return Integer.parseInt(part.substring("documentsCount=".length()));
        }
        throw new AssertionError("no documentsCount in " + usage);
    }

    @Test
    void deleteAllItemsByPartitionKeyNeedsTheFullHierarchicalKey() {
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setPaths(List.of("/t", "/u"));
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        CosmosContainer c = container(new CosmosContainerProperties("pkdel-h", def));
        PartitionKey xy = new PartitionKeyBuilder().add("x").add("y").build();
        PartitionKey xz = new PartitionKeyBuilder().add("x").add("z").build();
        c.createItem(ScenarioDriver.JSON.createObjectNode().put("id", "1").put("t", "x").put("u", "y"), xy,
            new CosmosItemRequestOptions());
        c.createItem(ScenarioDriver.JSON.createObjectNode().put("id", "2").put("t", "x").put("u", "z"), xz,
            new CosmosItemRequestOptions());

        // A prefix (the first level only) is refused: nothing is deleted.
        PartitionKey prefix = new PartitionKeyBuilder().add("x").build();
        Sdk.assertCosmosError(400, () -> c.deleteAllItemsByPartitionKey(prefix, new CosmosItemRequestOptions()));
        assertEquals(Set.of("1", "2"), ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions()));

        // The full key deletes that logical partition only.
        assertEquals(200, c.deleteAllItemsByPartitionKey(xy, new CosmosItemRequestOptions()).getStatusCode());
        assertEquals(Set.of("2"), ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions()));
        Sdk.assertCosmosError(404, () -> c.readItem("1", xy, JsonNode.class));
    }

    // --- 2. Legacy non-partitioned containers, created as the SDK's own
    // CosmosPartitionKeyTests.createContainerWithoutPk does: a REST POST with the API version
    // 2018-09-17 and no partition key. The service gives them the system key
    // {paths: ["/_partitionKey"], kind: Hash, systemKey: true}.

    @Test
    void legacyNonPartitionedContainer() throws Exception {
        HttpResponse<String> created = Rest.send(server, "POST", "dbs/" + DB + "/colls", "colls", "dbs/" + DB,
            Map.of("x-ms-version", "2018-09-17"), "{\"id\":\"legacy\"}");
        assertEquals(201, created.statusCode(), created.body());
        assertTrue(created.body().contains("\"id\":\"legacy\""), created.body());

        CosmosContainer c = db.getContainer("legacy");
        CosmosContainerProperties props = c.read().getProperties();
        PartitionKeyDefinition def = props.getPartitionKeyDefinition();
        assertEquals(List.of("/_partitionKey"), def.getPaths());
        assertEquals(PartitionKind.HASH, def.getKind());
        // PartitionKeyDefinition.isSystemKey() is package-private in 4.81; it reads the
        // definition's "systemKey" and decides what PartitionKey.NONE means
        // (getNonePartitionKeyValue: Empty, [], for a system key; Undefined, [{}], otherwise).
        Method isSystemKey = PartitionKeyDefinition.class.getDeclaredMethod("isSystemKey");
        isSystemKey.setAccessible(true);
        assertEquals(Boolean.TRUE, isSystemKey.invoke(def));

        // Without _partitionKey: the SDK extracts no value and sends NONE's value, [].
        ObjectNode old = ScenarioDriver.JSON.createObjectNode().put("id", "old").put("n", 1);
        assertEquals(201, c.createItem(old).getStatusCode());
        ObjectNode explicit = ScenarioDriver.JSON.createObjectNode().put("id", "explicit").put("n", 1);
        assertEquals(201, c.createItem(explicit, PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode());
        ObjectNode keyed = ScenarioDriver.JSON.createObjectNode().put("id", "keyed").put("_partitionKey", "k").put("n", 2);
        assertEquals(201, c.createItem(keyed, new PartitionKey("k"), new CosmosItemRequestOptions()).getStatusCode());

        assertEquals(1, c.readItem("old", PartitionKey.NONE, JsonNode.class).getItem().get("n").asInt());
        assertEquals(1, c.readItem("explicit", PartitionKey.NONE, JsonNode.class).getItem().get("n").asInt());
        assertEquals(2, c.readItem("keyed", new PartitionKey("k"), JsonNode.class).getItem().get("n").asInt());
        Sdk.assertCosmosError(404, () -> c.readItem("keyed", PartitionKey.NONE, JsonNode.class));
        Sdk.assertCosmosError(404, () -> c.readItem("old", new PartitionKey("k"), JsonNode.class));

        // Replace, upsert (new and existing), delete with NONE.
        old.put("n", 3);
        assertEquals(200, c.replaceItem(old, "old", PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode());
        assertEquals(3, c.readItem("old", PartitionKey.NONE, JsonNode.class).getItem().get("n").asInt());
        ObjectNode upserted = ScenarioDriver.JSON.createObjectNode().put("id", "upserted").put("n", 5);
        assertEquals(201, c.upsertItem(upserted, PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode());
        upserted.put("n", 6);
        assertEquals(200, c.upsertItem(upserted, PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode());
        assertEquals(6, c.readItem("upserted", PartitionKey.NONE, JsonNode.class).getItem().get("n").asInt());
        assertEquals(204, c.deleteItem("explicit", PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode());
        Sdk.assertCosmosError(404, () -> c.readItem("explicit", PartitionKey.NONE, JsonNode.class));

        // A query with PartitionKey.NONE is not scoped by Java 4.81: DocumentQueryExecution-
        // ContextFactory.isScopedToSinglePartition is false for NONE, so the query ranges are
        // the plan's (the whole key space), and ParallelDocumentQueryExecutionContextBase and
        // QueryPlanRetriever send no x-ms-documentdb-partitionkey for NONE. It fans out and
        // returns every item, the keyed one too (CosmosPartitionKeyTests.nonPartitioned-
        // CollectionOperations expects all its items, none of which has a key).
        assertEquals(Set.of("old", "upserted", "keyed"), ids(c, "SELECT * FROM c", in(PartitionKey.NONE)));
        // A real key scopes the query to that logical partition.
        assertEquals(Set.of("keyed"), ids(c, "SELECT * FROM c", in(new PartitionKey("k"))));
        assertEquals(Set.of("old", "upserted", "keyed"), ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions()));
    }

    // --- 3. x-ms-indexing-directive and automatic: false (the IndexManagement samples:
    // an item created with IndexingDirective.Exclude is not found by a query on orderId, but
    // is read by id; under automatic: false only items written with Include are indexed).

    private static SqlQuerySpec byOrder(String orderId) {
        return new SqlQuerySpec("SELECT * FROM r WHERE r.orderId = @o", new SqlParameter("@o", orderId));
    }

    @Test
    void indexingDirectiveExcludeKeepsAnItemOutOfQueries() {
        CosmosContainer c = container(Sdk.v2("directive", "/pk"));
        c.createItem(doc("doc1", "p").put("orderId", "order1"), new PartitionKey("p"), new CosmosItemRequestOptions());
        c.createItem(doc("doc2", "p").put("orderId", "order2"), new PartitionKey("p"),
            new CosmosItemRequestOptions().setIndexingDirective(IndexingDirective.EXCLUDE));
        assertEquals(Set.of("doc1"), ids(c, byOrder("order1"), new CosmosQueryRequestOptions()));
        // "Shoud NOT find it, because we excluded it from the index": across partitions and in its own.
        assertEquals(Set.of(), ids(c, byOrder("order2"), new CosmosQueryRequestOptions()));
        assertEquals(Set.of(), ids(c, byOrder("order2"), in(new PartitionKey("p"))));
        // "BUT, the document is there and doing a ReadItem by Id will prove it".
        assertEquals("order2", c.readItem("doc2", new PartitionKey("p"), JsonNode.class).getItem().get("orderId").asText());
        // Written again without the directive, it is indexed as the policy says (automatic).
        c.replaceItem(doc("doc2", "p").put("orderId", "order2"), "doc2", new PartitionKey("p"), new CosmosItemRequestOptions());
        assertEquals(Set.of("doc2"), ids(c, byOrder("order2"), new CosmosQueryRequestOptions()));
    }

    @Test
    void automaticFalseIndexesOnlyItemsWrittenWithInclude() {
        CosmosContainerProperties props = Sdk.v2("manual", "/pk");
        props.setIndexingPolicy(new IndexingPolicy().setAutomatic(false));
        CosmosContainer c = container(props);
        assertEquals(Boolean.FALSE, c.read().getProperties().getIndexingPolicy().isAutomatic());
        c.createItem(doc("plain", "p").put("orderId", "o1"), new PartitionKey("p"), new CosmosItemRequestOptions());
        c.createItem(doc("included", "p").put("orderId", "o1"), new PartitionKey("p"),
            new CosmosItemRequestOptions().setIndexingDirective(IndexingDirective.INCLUDE));
        assertEquals(Set.of("included"), ids(c, byOrder("o1"), new CosmosQueryRequestOptions()));
        assertEquals(Set.of("included"), ids(c, byOrder("o1"), in(new PartitionKey("p"))));
        assertEquals("o1", c.readItem("plain", new PartitionKey("p"), JsonNode.class).getItem().get("orderId").asText());
    }

    /**
     * Items kept out of the index are still found "through their self-links or through the
     * queries by using the ID of the item" (the service's indexing-policy docs, as Orrery's
     * src/query/access_path.h quotes them): a query whose only filter is on the id finds
     * both the Exclude item and, under automatic: false, the item written without Include.
     */
    @Test
    void queriesFilteringOnlyByIdFindItemsKeptOutOfTheIndex() {
        CosmosContainer c = container(Sdk.v2("by-id", "/pk"));
        c.createItem(doc("indexed", "p"), new PartitionKey("p"), new CosmosItemRequestOptions());
        c.createItem(doc("excluded", "p"), new PartitionKey("p"),
            new CosmosItemRequestOptions().setIndexingDirective(IndexingDirective.EXCLUDE));
        CosmosContainerProperties props = Sdk.v2("by-id-manual", "/pk");
        props.setIndexingPolicy(new IndexingPolicy().setAutomatic(false));
        CosmosContainer m = container(props);
        m.createItem(doc("plain", "p"), new PartitionKey("p"), new CosmosItemRequestOptions());

        assertEquals(Set.of("excluded"), ids(c, "SELECT * FROM r WHERE r.id = 'excluded'", new CosmosQueryRequestOptions()));
        assertEquals(Set.of("excluded"), ids(c, "SELECT * FROM r WHERE r.id = 'excluded'", in(new PartitionKey("p"))));
        assertEquals(Set.of("indexed", "excluded"),
            ids(c, "SELECT * FROM r WHERE r.id IN ('indexed', 'excluded')", new CosmosQueryRequestOptions()));
        assertEquals(Set.of("plain"), ids(m, "SELECT * FROM r WHERE r.id = 'plain'", new CosmosQueryRequestOptions()));
    }

    // --- 4. The root path "/" as an included path (the whole tree), with an excluded subtree.

    @Test
    void rootPathSlashIsTheWholeTree() {
        CosmosContainerProperties props = Sdk.v2("root", "/pk");
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/")));
        policy.setExcludedPaths(List.of(new ExcludedPath("/length/*")));
        props.setIndexingPolicy(policy);
        CosmosContainerResponse created = db.createContainer(props);
        assertEquals(201, created.getStatusCode());
        CosmosContainer c = db.getContainer("root");
        IndexingPolicy read = c.read().getProperties().getIndexingPolicy();
        assertEquals(List.of("/"), read.getIncludedPaths().stream().map(IncludedPath::getPath).toList());
        List<String> excluded = read.getExcludedPaths().stream().map(ExcludedPath::getPath).toList();
        assertTrue(excluded.contains("/length/*"), excluded.toString());

        c.createItem(doc("a", "p").put("name", "alpha").put("length", 3), new PartitionKey("p"), new CosmosItemRequestOptions());
        c.createItem(doc("b", "p").put("name", "beta").put("length", 4), new PartitionKey("p"), new CosmosItemRequestOptions());
        assertEquals(Set.of("b"), ids(c, "SELECT * FROM c WHERE c.name = 'beta'", new CosmosQueryRequestOptions()));
        assertEquals(List.of("a", "b"), c.queryItems("SELECT * FROM c ORDER BY c.name", new CosmosQueryRequestOptions(),
            JsonNode.class).stream().map(n -> n.get("id").asText()).toList());
        assertEquals(Set.of("a"), ids(c, "SELECT * FROM c WHERE STARTSWITH(c.name, 'al')", in(new PartitionKey("p"))));
    }

    // --- 5. Patch at an array's length and beyond (SamplePatchQuickstart, Azure-Samples/
    // azure-cosmos-java-sql-api-samples): set at index == length appends; replace there is
    // a BadRequest; add beyond the length is a BadRequest. A failed patch changes nothing.

    @Test
    void patchAtAndBeyondTheArrayLength() {
        CosmosContainer c = container(Sdk.v2("patch", "/pk"));
        PartitionKey pk = new PartitionKey("p");
        ObjectNode parent = doc("parent", "p");
        parent.putArray("children").addObject().put("firstName", "Selena");
        c.createItem(parent, pk, new CosmosItemRequestOptions());

        ObjectNode mariah = ScenarioDriver.JSON.createObjectNode().put("firstName", "Mariah");
        CosmosItemResponse<JsonNode> set = c.patchItem("parent", pk,
            CosmosPatchOperations.create().set("/children/1", mariah), JsonNode.class);
        assertEquals(200, set.getStatusCode());
        JsonNode children = c.readItem("parent", pk, JsonNode.class).getItem().get("children");
        assertEquals(2, children.size(), children.toString());
        assertEquals("Selena", children.get(0).get("firstName").asText());
        assertEquals("Mariah", children.get(1).get("firstName").asText());

        ObjectNode one = doc("one", "p");
        one.putArray("children").addObject().put("firstName", "Selena");
        c.createItem(one, pk, new CosmosItemRequestOptions());
        CosmosItemResponse<JsonNode> before = c.readItem("one", pk, JsonNode.class);
        ObjectNode john = ScenarioDriver.JSON.createObjectNode().put("firstName", "John");
        CosmosException replace = Sdk.assertCosmosError(400, () -> c.patchItem("one", pk,
            CosmosPatchOperations.create().replace("/children/1", john), JsonNode.class));
        assertEquals(400, replace.getStatusCode());
        CosmosException add = Sdk.assertCosmosError(400, () -> c.patchItem("one", pk,
            CosmosPatchOperations.create().add("/children/5", john), JsonNode.class));
        assertEquals(400, add.getStatusCode());
        CosmosItemResponse<JsonNode> after = c.readItem("one", pk, JsonNode.class);
        assertEquals(before.getItem(), after.getItem());
        assertEquals(before.getETag(), after.getETag());
        assertEquals(1, after.getItem().get("children").size());
    }

    // --- 6. GROUP BY order: Microsoft's query samples (Azure-Samples/cosmos-db-nosql-query-
    // samples, scripts/group-by-aggregate/seed.json) in one logical partition, and the
    // results the GROUP BY reference page shows.

    private static final Object[][] EMPLOYEES = {
        {"3548979698", "python", true},
        {"4228924547", "javascript", false},
        {"2941063066", "c-sharp", true},
        {"9318573296", "javascript", true},
        {"3601062997", null, true},
        {"7074932233", "python", false},
        {"3798545532", "javascript", true},
    };

    private static final String GROUP_BY_TWO =
        "SELECT COUNT(1) AS employeesWithThisTraining, e.capabilities.softwareDevelopment AS developmentLang, "
            + "e.capabilities.mediaTrained AS mediaReady FROM employees e WHERE e.team = \"Cloud software engineering\" "
            + "GROUP BY e.capabilities.softwareDevelopment, e.capabilities.mediaTrained";
    private static final String GROUP_BY_ONE =
        "SELECT e.capabilities.softwareDevelopment AS developmentLang FROM employees e "
            + "WHERE e.team = \"Cloud software engineering\" GROUP BY e.capabilities.softwareDevelopment";

    private static String row(JsonNode n) {
        return (n.has("employeesWithThisTraining") ? n.get("employeesWithThisTraining").asInt() : "-") + ","
            + (n.has("developmentLang") ? n.get("developmentLang").asText() : "<absent>") + ","
            + (n.has("mediaReady") ? n.get("mediaReady").asBoolean() : "-");
    }

    private static final String TEAM = "Cloud software engineering";
    private static final List<String> TWO_KEYS_IN_ORDER = List.of("1,python,true", "1,javascript,false",
        "1,c-sharp,true", "2,javascript,true", "1,<absent>,true", "1,python,false");
    private static final List<String> ONE_KEY_IN_ORDER = List.of("-,<absent>,-", "-,c-sharp,-", "-,javascript,-", "-,python,-");

    /**
     * Through the SDK, the groups and their counts. Not their order: azure-cosmos runs every
     * GROUP BY through its own pipeline (PipelinedDocumentQueryExecutionContext →
     * GroupByDocumentQueryExecutionContext, whatever the partition key option), which
     * re-groups the service's rows in GroupingTable, a HashMap keyed by the DistinctHash of
     * the group values, and drains it in the map's order. So the order is checked where the
     * service decides it: the same query over REST, scoped to the partition key.
     */
    @Test
    void groupByOrder() throws Exception {
        CosmosContainer c = container(Sdk.v2("employees", "/team"));
        PartitionKey team = new PartitionKey(TEAM);
        for (Object[] e : EMPLOYEES) {
            ObjectNode item = ScenarioDriver.JSON.createObjectNode().put("id", (String) e[0]);
            ObjectNode capabilities = item.putObject("capabilities");
            if (e[1] != null) capabilities.put("softwareDevelopment", (String) e[1]);
            capabilities.put("mediaTrained", (Boolean) e[2]);
            item.put("team", TEAM);
            c.createItem(item, team, new CosmosItemRequestOptions());
        }
        List<String> two = c.queryItems(GROUP_BY_TWO, in(team), JsonNode.class).stream().map(SamplesFidelityTest::row).toList();
        assertEquals(TWO_KEYS_IN_ORDER.stream().sorted().toList(), two.stream().sorted().toList());
        List<String> one = c.queryItems(GROUP_BY_ONE, in(team), JsonNode.class).stream().map(SamplesFidelityTest::row).toList();
        assertEquals(ONE_KEY_IN_ORDER.stream().sorted().toList(), one.stream().sorted().toList());

        // The service's order: one key by value ({} first), several in the order their first
        // item was written.
        assertEquals(TWO_KEYS_IN_ORDER, restQuery("employees", GROUP_BY_TWO, TEAM));
        assertEquals(ONE_KEY_IN_ORDER, restQuery("employees", GROUP_BY_ONE, TEAM));
    }

    /** A query sent as the REST API documents it, scoped to one partition key value. */
    private List<String> restQuery(String container, String query, String partitionKey) throws Exception {
        String link = "dbs/" + DB + "/colls/" + container;
        ObjectNode body = ScenarioDriver.JSON.createObjectNode().put("query", query);
        body.putArray("parameters");
        HttpResponse<String> r = Rest.send(server, "POST", link + "/docs", "docs", link, Map.of(
            "x-ms-version", "2020-07-15",
            "x-ms-documentdb-isquery", "True",
            "Content-Type", "application/query+json",
            "x-ms-documentdb-partitionkey", ScenarioDriver.JSON.createArrayNode().add(partitionKey).toString()),
            body.toString());
        assertEquals(200, r.statusCode(), r.body());
        List<String> rows = new ArrayList<>();
        for (JsonNode n : ScenarioDriver.JSON.readTree(r.body()).get("Documents")) rows.add(row(n));
        return rows;
    }

    // --- 7. Substatus: 0 where the status says it all; 1003 for an item operation whose
    // container does not exist.

    @Test
    void substatusCodes() throws Exception {
        CosmosContainer c = container(Sdk.v2("substatus", "/pk"));
        CosmosException missing = Sdk.assertCosmosError(404, () -> c.readItem("missing", new PartitionKey("p"), JsonNode.class));
        assertEquals(0, missing.getSubStatusCode(), () -> Sdk.wire(missing));
        c.createItem(doc("dup", "p"), new PartitionKey("p"), new CosmosItemRequestOptions());
        CosmosException conflict = Sdk.assertCosmosError(409, () ->
            c.createItem(doc("dup", "p"), new PartitionKey("p"), new CosmosItemRequestOptions()));
        assertEquals(0, conflict.getSubStatusCode(), () -> Sdk.wire(conflict));

        // Reading the missing container itself: 404 with no substatus.
        CosmosContainer gone = db.getContainer("never-created");
        CosmosException readGone = Sdk.assertCosmosError(404, gone::read);
        assertEquals(0, readGone.getSubStatusCode(), () -> Sdk.wire(readGone));
        // An item read under it: the SDK resolves the container first (RxDocumentClientImpl.
        // addPartitionKeyInformation needs its partition key definition, through
        // RxCollectionCache.resolveCollectionAsync), so the request that fails is the
        // container read, 404/0 — and RxCollectionCache.transformThrowableIfRequired (and
        // resolveByNameAsync) turn a 404 with substatus 0 on a non-collection operation into
        // 1003 OWNER_RESOURCE_NOT_EXISTS, the substatus the service itself sends for an item
        // operation under a missing container.
        CosmosException item = Sdk.assertCosmosError(404, () -> gone.readItem("x", new PartitionKey("p"), JsonNode.class));
        assertEquals(1003, item.getSubStatusCode(), () -> Sdk.wire(item));
        // What the service itself answers for the item read, which the SDK never sends.
        String link = "dbs/" + DB + "/colls/never-created/docs/x";
        HttpResponse<String> raw = Rest.send(server, "GET", link, "docs", link,
            Map.of("x-ms-version", "2020-07-15", "x-ms-documentdb-partitionkey", "[\"p\"]"), null);
        assertEquals(404, raw.statusCode(), raw.body());
        assertEquals("1003", raw.headers().firstValue("x-ms-substatus").orElse(null), raw.body());
    }

    // --- 8. Container replace: the SDK PUTs to the container's _self link, dbs/<rid>/colls/<rid>/
    // (RxDocumentClientImpl.replaceCollectionInternal: Utils.joinPath(collection.getSelfLink(), null)).

    @Test
    void containerReplaceThroughItsSelfLink() throws Exception {
        CosmosContainer c = container(Sdk.v2("replace", "/pk"));
        CosmosContainerProperties props = c.read().getProperties();
        // The link the SDK will PUT to (CosmosContainerProperties.getSelfLink is not public):
        // the container's _self, made of resource ids.
        HttpResponse<String> raw = Rest.send(server, "GET", "dbs/" + DB + "/colls/replace", "colls",
            "dbs/" + DB + "/colls/replace", Map.of("x-ms-version", "2020-07-15"), null);
        assertEquals(200, raw.statusCode(), raw.body());
        String self = ScenarioDriver.JSON.readTree(raw.body()).get("_self").asText();
        assertTrue(self.matches("dbs/[^/]+/colls/" + java.util.regex.Pattern.quote(props.getResourceId()) + "/"), self);
        assertFalse(self.contains("/replace/"), self);
        IndexingPolicy policy = props.getIndexingPolicy();
        List<ExcludedPath> excluded = new ArrayList<>(policy.getExcludedPaths());
        excluded.add(new ExcludedPath("/secret/*"));
        policy.setExcludedPaths(excluded);
        props.setIndexingPolicy(policy);
        props.setDefaultTimeToLiveInSeconds(600);
        CosmosContainerResponse replaced = c.replace(props);
        assertEquals(200, replaced.getStatusCode());
        CosmosContainerProperties read = c.read().getProperties();
        List<String> paths = read.getIndexingPolicy().getExcludedPaths().stream().map(ExcludedPath::getPath).toList();
        assertTrue(paths.contains("/secret/*"), paths.toString());
        assertEquals(600, read.getDefaultTimeToLiveInSeconds());
        assertEquals(props.getResourceId(), read.getResourceId());
    }
}
