package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosVectorDataType;
import com.azure.cosmos.models.CosmosVectorDistanceFunction;
import com.azure.cosmos.models.CosmosVectorEmbedding;
import com.azure.cosmos.models.CosmosVectorEmbeddingPolicy;
import com.azure.cosmos.models.CosmosVectorIndexSpec;
import com.azure.cosmos.models.CosmosVectorIndexType;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Java only: vector search. Containers with a vector embedding policy and a flat vector
 * index (the SDK's CosmosVectorEmbeddingPolicy / CosmosVectorIndexSpec), 12,000 RU/s so two
 * physical partitions; {@code SELECT TOP 10 c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY
 * VectorDistance(c.e, @v)} through the SDK's non-streaming ORDER BY pipeline, cross-partition,
 * with a filter and within one logical partition. The expected rows are computed here by brute
 * force over the items the test wrote, never taken from the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VectorSearchTest extends ServerTest {
    private static final int DIMENSIONS = 12;
    private static final int ITEMS = 150;
    private static final int PARTITION_KEYS = 9;
    private static final int TOP = 10;

    private CosmosDatabase db;

    /** One written item: id, partition key, n, vector. */
    private record Doc(String id, String pk, int n, double[] e) {}

    /** One result row: id and score. */
    private record Row(String id, double score) {}

    @BeforeAll
    void start() {
        client.createDatabase("vec");
        db = client.getDatabase("vec");
    }

    private static String name(CosmosVectorDistanceFunction f) {
        return f.toString(); // "cosine", "dotproduct", "euclidean"
    }

    /** The container properties: key /pk (V2), embedding on embeddingPath, flat index on indexPath. */
    private static CosmosContainerProperties vectorContainer(String id, CosmosVectorDistanceFunction f,
                                                             String embeddingPath, String indexPath) {
        CosmosContainerProperties props = Sdk.v2(id, "/pk");
        CosmosVectorEmbedding embedding = new CosmosVectorEmbedding()
            .setPath(embeddingPath)
            .setDataType(CosmosVectorDataType.FLOAT32)
            .setEmbeddingDimensions(DIMENSIONS)
            .setDistanceFunction(f);
        CosmosVectorEmbeddingPolicy policy = new CosmosVectorEmbeddingPolicy();
        policy.setCosmosVectorEmbeddings(List.of(embedding));
        props.setVectorEmbeddingPolicy(policy);
        IndexingPolicy indexing = new IndexingPolicy();
        indexing.setVectorIndexes(List.of(new CosmosVectorIndexSpec()
            .setPath(indexPath)
            .setType(CosmosVectorIndexType.FLAT.toString())));
        props.setIndexingPolicy(indexing);
        return props;
    }

    /** A deterministic vector: values in [-1, 1) rounded to 3 decimals. */
    private static double[] vector(Random r) {
        double[] v = new double[DIMENSIONS];
        for (int i = 0; i < DIMENSIONS; i++) {
            v[i] = Math.round((r.nextDouble() * 2 - 1) * 1000) / 1000.0;
        }
        return v;
    }

    private static double score(CosmosVectorDistanceFunction f, double[] a, double[] b) {
        double dot = 0, na = 0, nb = 0, sq = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
            sq += (a[i] - b[i]) * (a[i] - b[i]);
        }
        switch (f) {
            case COSINE: return dot / (Math.sqrt(na) * Math.sqrt(nb));
            case DOT_PRODUCT: return dot;
            case EUCLIDEAN: return Math.sqrt(sq);
            default: throw new IllegalArgumentException(f.toString());
        }
    }

    /** Most similar first: cosine and dot product highest score first, euclidean smallest first. */
    private static Comparator<Row> bestFirst(CosmosVectorDistanceFunction f) {
        Comparator<Row> byScore = Comparator.comparingDouble(Row::score);
        return f == CosmosVectorDistanceFunction.EUCLIDEAN ? byScore : byScore.reversed();
    }

    /** All matching items ranked best first (ties by id, only to make the list deterministic). */
    private static List<Row> bruteForce(CosmosVectorDistanceFunction f, List<Doc> docs, double[] q, Predicate<Doc> filter) {
        return docs.stream().filter(filter)
            .map(d -> new Row(d.id(), score(f, d.e(), q)))
            .sorted(bestFirst(f).thenComparing(Row::id))
            .collect(Collectors.toList());
    }

    private static boolean close(double expected, double actual) {
        return Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected));
    }

    private static List<Row> query(CosmosContainer c, String sql, double[] q, CosmosQueryRequestOptions options,
                                   Integer pageSize) {
        SqlQuerySpec spec = new SqlQuerySpec(sql, List.of(new SqlParameter("@v", q)));
        List<Row> rows = new ArrayList<>();
        Iterable<FeedResponse<JsonNode>> pages = pageSize == null
            ? c.queryItems(spec, options, JsonNode.class).iterableByPage()
            : c.queryItems(spec, options, JsonNode.class).iterableByPage(pageSize);
        for (FeedResponse<JsonNode> page : pages) {
            for (JsonNode n : page.getResults()) {
                assertTrue(n.hasNonNull("id") && n.path("s").isNumber(), () -> "row without id or numeric s: " + n);
                rows.add(new Row(n.get("id").asText(), n.get("s").asDouble()));
            }
        }
        return rows;
    }

    /**
     * The returned rows must be the brute-force top k: the same ids in the same order with
     * the same scores. When scores tie within the top k (or at its edge) the order among the
     * tied rows is free, so then the rows are compared as sets of "score:id" strings (with
     * the expected score of each returned id checked within tolerance).
     */
    private static void assertTopK(String what, List<Row> all, List<Row> actual) {
        List<Row> expected = all.subList(0, Math.min(TOP, all.size()));
        String report = what + "\nexpected: " + expected + "\nactual:   " + actual;
        assertEquals(expected.size(), actual.size(), () -> "row count; " + report);
        Map<String, Double> byId = new HashMap<>();
        all.forEach(r -> byId.put(r.id(), r.score()));
        boolean ties = false;
        List<Row> window = all.subList(0, Math.min(TOP + 1, all.size()));
        for (int i = 1; i < window.size(); i++) {
            if (window.get(i).score() == window.get(i - 1).score()) ties = true;
        }
        if (!ties) {
            for (int i = 0; i < expected.size(); i++) {
                Row e = expected.get(i), a = actual.get(i);
                assertEquals(e.id(), a.id(), "id at rank " + i + "; " + report);
                assertTrue(close(e.score(), a.score()),
                    "score at rank " + i + ": expected " + e.score() + ", got " + a.score() + "; " + report);
            }
            return;
        }
        // Ties: each returned id's score is its true score, the scores are the expected
        // ones rank by rank, and the "score:id" sets agree (scores as the expected values).
        TreeSet<String> got = new TreeSet<>();
        for (int i = 0; i < actual.size(); i++) {
            Row a = actual.get(i);
            Double truth = byId.get(a.id());
            assertNotNull(truth, "unknown or filtered-out id " + a.id() + "; " + report);
            assertTrue(close(truth, a.score()), "score of " + a.id() + ": expected " + truth + ", got " + a.score() + "; " + report);
            assertTrue(close(expected.get(i).score(), a.score()), "score at rank " + i + "; " + report);
            got.add(truth + ":" + a.id());
        }
        TreeSet<String> want = expected.stream().map(r -> r.score() + ":" + r.id()).collect(Collectors.toCollection(TreeSet::new));
        double edge = expected.get(expected.size() - 1).score();
        // At the edge of the top k any of the tied rows may be chosen: compare those by score only.
        want.removeIf(s -> Double.parseDouble(s.substring(0, s.indexOf(':'))) == edge);
        got.removeIf(s -> Double.parseDouble(s.substring(0, s.indexOf(':'))) == edge);
        assertEquals(want, got, () -> "score:id sets; " + report);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(CosmosVectorDistanceFunction.class)
    void topKMatchesBruteForce(CosmosVectorDistanceFunction f) {
        String id = "vec-" + name(f);
        CosmosContainerProperties created = db.createContainer(vectorContainer(id, f, "/e", "/e"),
            ThroughputProperties.createManualThroughput(12000)).getProperties();
        CosmosContainer c = db.getContainer(id);

        // The policy as the server keeps it.
        CosmosContainerProperties read = c.read().getProperties();
        for (CosmosContainerProperties p : List.of(created, read)) {
            assertNotNull(p.getVectorEmbeddingPolicy(), "vectorEmbeddingPolicy missing");
            List<CosmosVectorEmbedding> embeddings = p.getVectorEmbeddingPolicy().getVectorEmbeddings();
            assertEquals(1, embeddings.size());
            assertEquals("/e", embeddings.get(0).getPath());
            assertEquals(CosmosVectorDataType.FLOAT32, embeddings.get(0).getDataType());
            assertEquals(f, embeddings.get(0).getDistanceFunction());
            assertEquals(DIMENSIONS, embeddings.get(0).getEmbeddingDimensions());
            List<CosmosVectorIndexSpec> indexes = p.getIndexingPolicy().getVectorIndexes();
            assertEquals(1, indexes.size());
            assertEquals("/e", indexes.get(0).getPath());
            assertEquals("flat", indexes.get(0).getType());
        }
        // 12,000 RU/s: two physical partitions, so the cross-partition queries merge.
        assertTrue(c.getFeedRanges().size() >= 2, "feed ranges: " + c.getFeedRanges());

        // Items: fixed seed per distance function, spread over 9 partition key values.
        Random r = new Random(20240611L + f.ordinal());
        List<Doc> docs = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            Doc d = new Doc("d" + i, "p" + (i % PARTITION_KEYS), i, vector(r));
            ArrayNode e = ScenarioDriver.JSON.createArrayNode();
            for (double x : d.e()) e.add(x);
            ObjectNode json = ScenarioDriver.JSON.createObjectNode().put("id", d.id()).put("pk", d.pk()).put("n", d.n());
            json.set("e", e);
            assertEquals(201, c.createItem(json, new PartitionKey(d.pk()), new CosmosItemRequestOptions()).getStatusCode());
            docs.add(d);
        }
        double[] q = vector(r);

        String top = "SELECT TOP " + TOP + " c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)";
        String filtered = "SELECT TOP " + TOP + " c.id, VectorDistance(c.e, @v) AS s FROM c WHERE c.n % 3 = 0"
            + " ORDER BY VectorDistance(c.e, @v)";

        // Cross-partition, as one page and in pages of 3.
        List<Row> all = bruteForce(f, docs, q, d -> true);
        assertTopK(name(f) + " cross-partition: " + top,
            all, query(c, top, q, new CosmosQueryRequestOptions(), null));
        assertTopK(name(f) + " cross-partition, pages of 3: " + top,
            all, query(c, top, q, new CosmosQueryRequestOptions(), 3));

        // With a filter.
        assertTopK(name(f) + " cross-partition with filter: " + filtered,
            bruteForce(f, docs, q, d -> d.n() % 3 == 0), query(c, filtered, q, new CosmosQueryRequestOptions(), null));

        // One logical partition.
        CosmosQueryRequestOptions p3 = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p3"));
        assertTopK(name(f) + " partition p3: " + top,
            bruteForce(f, docs, q, d -> d.pk().equals("p3")), query(c, top, q, p3, null));
        CosmosQueryRequestOptions p4 = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p4"));
        assertTopK(name(f) + " partition p4 with filter: " + filtered,
            bruteForce(f, docs, q, d -> d.pk().equals("p4") && d.n() % 3 == 0), query(c, filtered, q, p4, null));

        c.delete();
    }

    @Test
    void indexPathOutsideTheEmbeddingPolicyIsRejected() {
        CosmosContainerProperties props = vectorContainer("vec-bad", CosmosVectorDistanceFunction.COSINE, "/e", "/other");
        CosmosException e = Sdk.assertCosmosError(400, () ->
            db.createContainer(props, ThroughputProperties.createManualThroughput(12000)));
        String message = e.getMessage();
        assertTrue(message != null && message.contains(
                "The Vector Indexing Policy's path::/other not matching in Embedding's path."),
            () -> Sdk.wire(e));
        Sdk.assertCosmosError(404, () -> db.getContainer("vec-bad").read());
        if (db.readAllContainers().stream().anyMatch(p -> p.getId().equals("vec-bad"))) {
            fail("vec-bad is listed although its creation was refused");
        }
    }
}
