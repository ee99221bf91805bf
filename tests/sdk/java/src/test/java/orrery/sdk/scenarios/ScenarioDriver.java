package orrery.sdk.scenarios;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.implementation.BadRequestException;
import com.azure.cosmos.implementation.ConflictException;
import com.azure.cosmos.implementation.NotFoundException;
import com.azure.cosmos.implementation.PreconditionFailedException;
import com.azure.cosmos.implementation.RequestEntityTooLargeException;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.ComputedProperty;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.SpatialSpec;
import com.azure.cosmos.models.SpatialType;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.util.CosmosPagedIterable;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs the shared scenarios (tests/sdk/scenarios/scenarios.json) through the Java SDK's
 * idiomatic API: the SDK-independent half of the suite. Every method returns normally when
 * the scenario holds and throws {@link AssertionError} naming what went over the wire when
 * it does not. Expected values come from the scenario file only.
 */
public final class ScenarioDriver {
    public static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode file;
    private final CosmosClient client;
    private final String databaseId;
    private CosmosDatabase database;

    public ScenarioDriver(JsonNode file, CosmosClient client, String databaseId) {
        this.file = file;
        this.client = client;
        this.databaseId = databaseId;
    }

    /** scenarios.json, from the system property orrery.scenarios or the repository layout. */
    public static JsonNode load() {
        Path path = Path.of(System.getProperty("orrery.scenarios", "../scenarios/scenarios.json"));
        try {
            return JSON.readTree(Files.readString(path));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the shared scenarios at " + path.toAbsolutePath(), e);
        }
    }

    public JsonNode file() {
        return file;
    }

    // ---- setup ----------------------------------------------------------------------

    /** Creates the suite's database, the file's containers and items, in file order. */
    public void setUp() {
        client.createDatabase(databaseId);
        database = client.getDatabase(databaseId);
        for (Iterator<Map.Entry<String, JsonNode>> it = file.get("containers").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> c = it.next();
            CosmosContainerProperties props = containerProperties(c.getKey(), c.getValue());
            if (c.getValue().has("throughput")) {
                database.createContainer(props, ThroughputProperties.createManualThroughput(c.getValue().get("throughput").asInt()));
            } else {
                database.createContainer(props);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = file.get("items").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            CosmosContainer container = database.getContainer(e.getKey());
            JsonNode paths = file.get("containers").get(e.getKey()).get("partitionKeyPaths");
            for (JsonNode item : e.getValue()) {
                ArrayNodeKey key = ArrayNodeKey.of(item, paths);
                container.createItem(item, partitionKey(key.values), new CosmosItemRequestOptions());
            }
        }
    }

    /** One path: Hash V2; two or three: MultiHash V2 (hierarchical keys). */
    /** The SDK's definition of a scenario container (or of a createContainer error's body). */
    public static CosmosContainerProperties containerProperties(String id, JsonNode def) {
        CosmosContainerProperties props = new CosmosContainerProperties(id, keyDefinition(def.get("partitionKeyPaths")));
        if (def.has("compositeIndexes") || def.has("spatialIndexes") || def.has("includedPaths")) {
            IndexingPolicy policy = new IndexingPolicy();
            if (def.has("includedPaths")) {
                List<IncludedPath> included = new ArrayList<>();
                for (JsonNode p : def.get("includedPaths")) included.add(new IncludedPath(p.get("path").asText()));
                policy.setIncludedPaths(included);
            }
            if (def.has("compositeIndexes")) {
                List<List<CompositePath>> composites = new ArrayList<>();
                for (JsonNode index : def.get("compositeIndexes")) {
                    List<CompositePath> paths = new ArrayList<>();
                    for (JsonNode p : index) {
                        CompositePath cp = new CompositePath().setPath(p.get("path").asText());
                        cp.setOrder("descending".equals(p.path("order").asText()) ? CompositePathSortOrder.DESCENDING : CompositePathSortOrder.ASCENDING);
                        paths.add(cp);
                    }
                    composites.add(paths);
                }
                policy.setCompositeIndexes(composites);
            }
            if (def.has("spatialIndexes")) {
                List<SpatialSpec> specs = new ArrayList<>();
                for (JsonNode index : def.get("spatialIndexes")) {
                    List<SpatialType> types = new ArrayList<>();
                    for (JsonNode t : index.get("types")) types.add(spatialType(t.asText()));
                    specs.add(new SpatialSpec().setPath(index.get("path").asText()).setSpatialTypes(types));
                }
                policy.setSpatialIndexes(specs);
            }
            props.setIndexingPolicy(policy);
        }
        if (def.has("computedProperties")) {
            List<ComputedProperty> computed = new ArrayList<>();
            for (JsonNode cp : def.get("computedProperties")) computed.add(new ComputedProperty(cp.get("name").asText(), cp.get("query").asText()));
            props.setComputedProperties(computed);
        }
        return props;
    }

    /** A GeoJSON type name as the SDK's enum; a name outside it cannot be sent, so the scenario is skipped. */
    private static SpatialType spatialType(String name) {
        for (SpatialType t : SpatialType.values()) {
            if (t.toString().equals(name)) return t;
        }
        Assumptions.abort("azure-cosmos's SpatialType is an enum of the four GeoJSON types the service indexes: it cannot send '" + name + "'");
        return null;
    }

    public static PartitionKeyDefinition keyDefinition(JsonNode paths) {
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        List<String> list = new ArrayList<>();
        paths.forEach(p -> list.add(p.asText()));
        def.setPaths(list);
        def.setKind(list.size() == 1 ? PartitionKind.HASH : PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        return def;
    }

    /** A scenario's partition key (always an array, one value per path) as the SDK's. */
    public static PartitionKey partitionKey(JsonNode values) {
        if (values.size() == 1) return single(values.get(0));
        PartitionKeyBuilder b = new PartitionKeyBuilder();
        for (JsonNode v : values) {
            if (v.isTextual()) b.add(v.asText());
            else if (v.isNumber()) b.add(v.asDouble());
            else if (v.isBoolean()) b.add(v.asBoolean());
            else if (v.isNull()) b.addNullValue();
            else throw new IllegalArgumentException("partition key value " + v);
        }
        return b.build();
    }

    private static PartitionKey single(JsonNode v) {
        if (v.isTextual()) return new PartitionKey(v.asText());
        if (v.isNumber()) return new PartitionKey(v.asDouble());
        if (v.isBoolean()) return new PartitionKey(v.asBoolean());
        if (v.isNull()) return PartitionKey.NONE;
        throw new IllegalArgumentException("partition key value " + v);
    }

    /** The values an item has at its container's key paths. */
    private record ArrayNodeKey(JsonNode values) {
        static ArrayNodeKey of(JsonNode item, JsonNode paths) {
            var arr = JSON.createArrayNode();
            for (JsonNode p : paths) arr.add(item.at(p.asText()));
            return new ArrayNodeKey(arr);
        }
    }

    // ---- queries --------------------------------------------------------------------

    /**
     * Runs one query scenario. With a pageSize it reads the first page, keeps its
     * continuation token, and resumes a new query from that saved token page by page
     * ({@code iterableByPage(continuationToken, pageSize)}); every page must hold at most
     * pageSize rows. Returns a one-line summary (pages and charge).
     */
    public String runQuery(JsonNode s) {
        CosmosContainer container = database.getContainer(s.get("container").asText());
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        if (s.has("partitionKey")) options.setPartitionKey(partitionKey(s.get("partitionKey")));
        SqlQuerySpec spec = querySpec(s);
        List<JsonNode> rows = new ArrayList<>();
        int pages = 0;
        double charge = 0;
        try {
            if (s.has("pageSize")) {
                int pageSize = s.get("pageSize").asInt();
                String token = null;
                Iterator<FeedResponse<JsonNode>> first =
                    container.queryItems(spec, options, JsonNode.class).iterableByPage(pageSize).iterator();
                if (first.hasNext()) {
                    FeedResponse<JsonNode> page = first.next();
                    pages++;
                    charge += page.getRequestCharge();
                    checkPage(s, page, pageSize);
                    rows.addAll(page.getResults());
                    token = page.getContinuationToken();
                }
                // Resume from the saved token with a query of its own, as a caller would.
                while (token != null) {
                    CosmosPagedIterable<JsonNode> resumed = container.queryItems(spec, options, JsonNode.class);
                    Iterator<FeedResponse<JsonNode>> it = resumed.iterableByPage(token, pageSize).iterator();
                    if (!it.hasNext()) break;
                    FeedResponse<JsonNode> page = it.next();
                    pages++;
                    charge += page.getRequestCharge();
                    checkPage(s, page, pageSize);
                    rows.addAll(page.getResults());
                    String next = page.getContinuationToken();
                    if (next != null && next.equals(token) && page.getResults().isEmpty()) {
                        throw new AssertionError("continuation token did not advance: " + token);
                    }
                    token = next;
                    if (pages > 200) throw new AssertionError("more than 200 pages for " + s.get("expected").size() + " rows");
                }
            } else {
                for (FeedResponse<JsonNode> page : container.queryItems(spec, options, JsonNode.class).iterableByPage()) {
                    pages++;
                    charge += page.getRequestCharge();
                    rows.addAll(page.getResults());
                }
            }
        } catch (CosmosException e) {
            throw new AssertionError("query failed: " + orrery.sdk.Sdk.wire(e), e);
        }
        List<JsonNode> expected = new ArrayList<>();
        s.get("expected").forEach(expected::add);
        boolean ordered = s.path("ordered").asBoolean(false);
        if (!(ordered ? Json.sameInOrder(expected, rows) : Json.sameMultiset(expected, rows))) {
            throw new AssertionError("rows differ" + (ordered ? " (in order)" : " (as a multiset)")
                + "\n  expected: " + expected + "\n  actual:   " + rows);
        }
        if (charge <= 0) throw new AssertionError("query reported no request charge (" + charge + ")");
        return pages + " page(s), " + charge + " RU";
    }

    private static void checkPage(JsonNode s, FeedResponse<JsonNode> page, int pageSize) {
        if (page.getResults().size() > pageSize) {
            throw new AssertionError("page of " + page.getResults().size() + " rows, more than the page size "
                + pageSize + " (activityId " + page.getActivityId() + ")");
        }
    }

    private static SqlQuerySpec querySpec(JsonNode s) {
        List<SqlParameter> params = new ArrayList<>();
        for (JsonNode p : s.path("parameters")) {
            params.add(new SqlParameter(p.get("name").asText(), JSON.convertValue(p.get("value"), Object.class)));
        }
        return new SqlQuerySpec(s.get("query").asText(), params);
    }

    // ---- errors ---------------------------------------------------------------------

    /** Runs one error scenario: the SDK must throw the CosmosException subtype of its status. */
    public String runError(JsonNode s) {
        CosmosException e;
        try {
            performError(s);
            throw new AssertionError("no exception; expected status " + s.get("status").asInt());
        } catch (CosmosException thrown) {
            e = thrown;
        }
        int status = s.get("status").asInt();
        if (e.getStatusCode() != status) {
            throw new AssertionError("expected status " + status + ", got " + orrery.sdk.Sdk.wire(e), e);
        }
        if (s.has("substatus") && e.getSubStatusCode() != s.get("substatus").asInt()) {
            throw new AssertionError("expected substatus " + s.get("substatus").asInt() + ", got " + orrery.sdk.Sdk.wire(e), e);
        }
        // In gateway mode the SDK raises CosmosException itself for service errors
        // (RxGatewayStoreModel.validateOrThrow); its subclasses come from direct mode and
        // client-side checks. Either is the SDK's type for this status; nothing else is.
        Class<?> subtype = switch (status) {
            case 400 -> BadRequestException.class;
            case 404 -> NotFoundException.class;
            case 409 -> ConflictException.class;
            case 412 -> PreconditionFailedException.class;
            case 413 -> RequestEntityTooLargeException.class;
            default -> CosmosException.class;
        };
        if (e.getClass() != CosmosException.class && !subtype.isInstance(e)) {
            throw new AssertionError("expected a CosmosException or " + subtype.getSimpleName() + ", got " + orrery.sdk.Sdk.wire(e), e);
        }
        if (e.getActivityId() == null || e.getActivityId().isEmpty()) {
            throw new AssertionError("the exception carries no activity id: " + orrery.sdk.Sdk.wire(e));
        }
        return orrery.sdk.Sdk.wire(e);
    }

    private void performError(JsonNode s) {
        CosmosDatabase db = s.has("database") ? client.getDatabase(s.get("database").asText()) : database;
        String op = s.get("op").asText();
        switch (op) {
            case "readDatabase" -> client.getDatabase(s.get("id").asText()).read();
            case "createDatabase" -> client.createDatabase(s.get("id").asText());
            case "readContainer" -> db.getContainer(s.get("id").asText()).read();
            case "createContainer" -> db.createContainer(containerProperties(s.get("id").asText(), s.get("body")));
            default -> performItemError(db.getContainer(s.get("container").asText()), s, op);
        }
    }

    private void performItemError(CosmosContainer c, JsonNode s, String op) {
        PartitionKey pk = s.has("partitionKey") ? partitionKey(s.get("partitionKey")) : null;
        CosmosItemRequestOptions options = new CosmosItemRequestOptions();
        if (s.has("ifMatch")) options.setIfMatchETag(s.get("ifMatch").asText());
        String id = s.path("id").asText(null);
        switch (op) {
            case "read" -> c.readItem(id, pk, options, JsonNode.class);
            case "create" -> c.createItem(body(s), pk, options);
            case "upsert" -> c.upsertItem(body(s), pk, options);
            case "replace" -> c.replaceItem(body(s), id, pk, options);
            case "delete" -> c.deleteItem(id, pk, options);
            case "query" -> {
                CosmosQueryRequestOptions q = new CosmosQueryRequestOptions();
                if (pk != null) q.setPartitionKey(pk);
                for (FeedResponse<JsonNode> ignored : c.queryItems(s.get("query").asText(), q, JsonNode.class).iterableByPage()) {
                    // drain
                }
            }
            case "patch" -> {
                CosmosPatchOperations ops = patchOperations(s.get("patch"));
                CosmosPatchItemRequestOptions popts = new CosmosPatchItemRequestOptions();
                if (s.has("condition")) popts.setFilterPredicate(s.get("condition").asText());
                if (s.has("ifMatch")) popts.setIfMatchETag(s.get("ifMatch").asText());
                c.patchItem(id, pk, ops, popts, JsonNode.class);
            }
            default -> throw new IllegalArgumentException("unknown op " + op);
        }
    }

    private static JsonNode body(JsonNode s) {
        ObjectNode body = s.get("body").deepCopy();
        if (s.has("bodyPadBytes")) body.put("pad", "x".repeat(s.get("bodyPadBytes").asInt()));
        return body;
    }

    /** The scenario file's patch operations as the SDK's CosmosPatchOperations. */
    public static CosmosPatchOperations patchOperations(JsonNode list) {
        CosmosPatchOperations ops = CosmosPatchOperations.create();
        for (JsonNode o : list) {
            String path = o.get("path").asText();
            Object value = o.has("value") ? JSON.convertValue(o.get("value"), Object.class) : null;
            switch (o.get("op").asText()) {
                case "set" -> ops.set(path, value);
                case "add" -> ops.add(path, value);
                case "replace" -> ops.replace(path, value);
                case "remove" -> ops.remove(path);
                case "incr" -> {
                    JsonNode v = o.get("value");
                    if (v.isIntegralNumber()) ops.increment(path, v.asLong());
                    else ops.increment(path, v.asDouble());
                }
                default -> throw new IllegalArgumentException("patch op " + o);
            }
        }
        return ops;
    }

    // ---- charges --------------------------------------------------------------------

    /** Runs one charge scenario: the SDK's getRequestCharge() within the tolerance. */
    public String runCharge(JsonNode s) {
        CosmosContainer c = database.getContainer(s.get("container").asText());
        double charge;
        try {
            switch (s.get("op").asText()) {
                case "read" -> {
                    CosmosItemResponse<JsonNode> r = c.readItem(s.get("id").asText(), partitionKey(s.get("partitionKey")), JsonNode.class);
                    charge = r.getRequestCharge();
                }
                case "create" -> charge = c.createItem(s.get("body"), partitionKey(s.get("partitionKey")), new CosmosItemRequestOptions()).getRequestCharge();
                case "query" -> {
                    charge = 0;
                    CosmosQueryRequestOptions q = new CosmosQueryRequestOptions();
                    if (s.has("partitionKey")) q.setPartitionKey(partitionKey(s.get("partitionKey")));
                    for (FeedResponse<JsonNode> page : c.queryItems(s.get("query").asText(), q, JsonNode.class).iterableByPage()) {
                        charge += page.getRequestCharge();
                    }
                }
                default -> throw new IllegalArgumentException("charge op " + s.get("op"));
            }
        } catch (CosmosException e) {
            throw new AssertionError("operation failed: " + orrery.sdk.Sdk.wire(e), e);
        }
        double expected = s.get("charge").asDouble();
        double tolerance = s.path("tolerance").asDouble(0);
        if (Math.abs(charge - expected) > tolerance + 1e-9) {
            throw new AssertionError("charge " + charge + " RU, expected " + expected + " ± " + tolerance);
        }
        return charge + " RU";
    }
}
