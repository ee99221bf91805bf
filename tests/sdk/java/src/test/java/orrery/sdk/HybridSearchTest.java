package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosFullTextIndex;
import com.azure.cosmos.models.CosmosFullTextPath;
import com.azure.cosmos.models.CosmosFullTextPolicy;
import com.azure.cosmos.models.CosmosFullTextScoreScope;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosVectorDataType;
import com.azure.cosmos.models.CosmosVectorDistanceFunction;
import com.azure.cosmos.models.CosmosVectorEmbedding;
import com.azure.cosmos.models.CosmosVectorEmbeddingPolicy;
import com.azure.cosmos.models.CosmosVectorIndexSpec;
import com.azure.cosmos.models.CosmosVectorIndexType;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java only: full-text ranking and hybrid search. One container with a full-text policy and
 * full-text index on /text (the SDK's CosmosFullTextPolicy / CosmosFullTextIndex) and a
 * 2-dimensional cosine embedding on /e, 12,000 RU/s so two physical partitions. The SDK
 * fetches the query plan, gets {@code hybridSearchQueryInfo} for {@code ORDER BY RANK}, runs the
 * global statistics query over every range, substitutes the statistics into the component
 * queries and fuses their rows client-side. The expected rankings are computed here, never
 * taken from the server: BM25 (Lucene's defaults) over the items the test wrote, cosine
 * similarity, and the fusion the pinned SDK applies to the rows it fetches (see
 * {@link #rrfRankings} and {@link #sdkFusion}). Which physical partition holds each item is
 * read through the SDK's feed ranges, because the SDK fetches the TOP rows of each range.
 *
 * <p>The texts use only words that are their own Snowball English stems and not stop words,
 * so the words of a text are exactly its terms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HybridSearchTest extends ServerTest {
    private static final String[] WORDS = {"swim", "run", "dog", "cat", "fish", "bird", "tree", "rock"};
    private static final int ITEMS = 60;
    private static final int PARTITION_KEYS = 7;
    private static final double RRF_K = 60;

    private CosmosDatabase db;
    private CosmosContainer container;
    private final List<Doc> docs = new ArrayList<>();
    /** Item id to the index of the feed range (physical partition) that holds it. */
    private final Map<String, Integer> rangeOf = new HashMap<>();
    private int ranges;

    /** One written item: id, partition key, _rid as the server assigned it, words, vector. */
    private record Doc(String id, String pk, String rid, List<String> words, double[] e) {}

    /** An expected row: id, _rid, and the key it is ranked by (higher first). */
    private record Ranked(String id, String rid, double key) {}

    @BeforeAll
    void start() {
        client.createDatabase("hybrid");
        db = client.getDatabase("hybrid");
        db.createContainer(hybridContainer("docs"), ThroughputProperties.createManualThroughput(12000));
        container = db.getContainer("docs");

        // Items: fixed seed, 2..9 words each, spread over 7 partition key values.
        Random r = new Random(20250317L);
        for (int i = 0; i < ITEMS; i++) {
            int n = 2 + r.nextInt(8);
            List<String> words = new ArrayList<>();
            for (int w = 0; w < n; w++) words.add(WORDS[r.nextInt(WORDS.length)]);
            double[] e;
            do {
                e = new double[] {round3(r.nextDouble() * 2 - 1), round3(r.nextDouble() * 2 - 1)};
            } while (e[0] == 0 && e[1] == 0);
            String id = "d" + i, pk = "p" + (i % PARTITION_KEYS);
            ObjectNode json = ScenarioDriver.JSON.createObjectNode().put("id", id).put("pk", pk)
                .put("text", String.join(" ", words));
            json.putArray("e").add(e[0]).add(e[1]);
            CosmosItemResponse<JsonNode> created =
                container.createItem((JsonNode) json, new PartitionKey(pk), new CosmosItemRequestOptions());
            assertEquals(201, created.getStatusCode());
            JsonNode body = created.getItem();
            assertTrue(body != null && body.path("_rid").isTextual(), () -> "created item without _rid: " + body);
            docs.add(new Doc(id, pk, body.get("_rid").asText(), words, e));
        }

        // Which feed range holds each item (a plain query per feed range).
        List<FeedRange> feedRanges = container.getFeedRanges();
        ranges = feedRanges.size();
        for (int i = 0; i < ranges; i++) {
            CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setFeedRange(feedRanges.get(i));
            for (JsonNode row : container.queryItems("SELECT c.id FROM c", options, JsonNode.class)) {
                Integer before = rangeOf.put(row.get("id").asText(), i);
                assertTrue(before == null, () -> row + " is in two feed ranges");
            }
        }
        assertEquals(ITEMS, rangeOf.size(), () -> "items found through the feed ranges: " + rangeOf);
    }

    private static double round3(double x) {
        return Math.round(x * 1000) / 1000.0;
    }

    /** Key /pk (V2), full-text policy and index on /text, cosine embedding and flat index on /e. */
    private static CosmosContainerProperties hybridContainer(String id) {
        CosmosContainerProperties props = Sdk.v2(id, "/pk");
        props.setFullTextPolicy(new CosmosFullTextPolicy()
            .setDefaultLanguage("en-US")
            .setPaths(List.of(new CosmosFullTextPath().setPath("/text").setLanguage("en-US"))));
        CosmosVectorEmbeddingPolicy vectors = new CosmosVectorEmbeddingPolicy();
        vectors.setCosmosVectorEmbeddings(List.of(new CosmosVectorEmbedding()
            .setPath("/e")
            .setDataType(CosmosVectorDataType.FLOAT32)
            .setEmbeddingDimensions(2)
            .setDistanceFunction(CosmosVectorDistanceFunction.COSINE)));
        props.setVectorEmbeddingPolicy(vectors);
        IndexingPolicy indexing = new IndexingPolicy();
        indexing.setCosmosFullTextIndexes(List.of(new CosmosFullTextIndex().setPath("/text")));
        indexing.setVectorIndexes(List.of(new CosmosVectorIndexSpec()
            .setPath("/e")
            .setType(CosmosVectorIndexType.FLAT.toString())));
        props.setIndexingPolicy(indexing);
        return props;
    }

    // ---- Expected scores ------------------------------------------------------------------

    /** The statistics BM25 uses: documents, words, and per term the documents holding it. */
    private record Statistics(double documents, double words, Map<String, Long> hits) {}

    /** The statistics of these documents, as {@code copies} statistics rows summed. */
    private static Statistics statistics(List<Doc> population, int copies, List<String> terms) {
        Map<String, Long> hits = new HashMap<>();
        for (String t : terms) hits.put(t, copies * population.stream().filter(x -> x.words().contains(t)).count());
        return new Statistics(copies * population.size(),
            copies * population.stream().mapToInt(x -> x.words().size()).sum(), hits);
    }

    /** The statistics of the whole container. */
    private Statistics containerStatistics(List<String> terms) {
        return statistics(docs, 1, terms);
    }

    /**
     * BM25 with Lucene's defaults (k1 = 1.2, b = 0.75): N documents, avgdl = words / N,
     * df = documents holding the term, idf = ln(1 + (N - df + 0.5) / (df + 0.5)).
     */
    private static double bm25(Doc d, List<String> terms, Statistics s) {
        double n = s.documents();
        double avgdl = s.words() / n;
        double score = 0;
        for (String t : terms) {
            long df = s.hits().get(t);
            long tf = d.words().stream().filter(t::equals).count();
            if (tf == 0) continue;
            double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
            score += idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * d.words().size() / avgdl));
        }
        return score;
    }

    private static double cosine(double[] a, double[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / (Math.sqrt(na) * Math.sqrt(nb));
    }

    /**
     * A score as a ranking key: 12 significant digits, so that the server's and this test's
     * floating-point evaluation of the same formula tie and order alike.
     */
    private static double key(double x) {
        return x == 0 ? 0 : new BigDecimal(x).round(new MathContext(12)).doubleValue();
    }

    /** The rows the SDK's coalescing starts from: sorted by _rid (String order). */
    private static List<Doc> byRid(List<Doc> rows) {
        List<Doc> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(Doc::rid));
        return sorted;
    }

    /**
     * A FullTextScore-only ranking: the documents that score above 0, highest first. (The
     * SDK fetches the first TOP rows of each range, which hold the overall first TOP, and
     * fuses the one component: its order, ties in _rid order.)
     */
    private List<Ranked> fullTextRanking(List<String> terms, Predicate<Doc> scope, Statistics statistics) {
        return byRid(docs).stream().filter(scope)
            .map(d -> new Ranked(d.id(), d.rid(), key(bm25(d, terms, statistics))))
            .filter(r -> r.key() > 0)
            .sorted(Comparator.comparingDouble(Ranked::key).reversed())
            .collect(Collectors.toList());
    }

    /**
     * RRF as the pinned SDK computes it from the rows it has. Java 4.81.0
     * (HybridSearchDocumentQueryExecutionContext): the coalesced rows are sorted by _rid;
     * each component's scores are stable-sorted, descending here (FullTextScore, and
     * VectorDistance with cosine); the ranks start at 1 and are meant to advance only where
     * the score changes, but the check is {@code Double != Double} (reference comparison of
     * boxed values), so every row takes the next rank: tied scores get consecutive ranks in
     * _rid order. rrf = sum of weight / (60 + rank); the rows are then stable-sorted by rrf,
     * descending.
     */
    private static List<Ranked> sdkFusion(List<Doc> rowsByRid, List<double[]> componentScores, double[] weights) {
        int n = rowsByRid.size();
        double[] rrf = new double[n];
        for (int c = 0; c < weights.length; c++) {
            final int component = c;
            List<Integer> order = IntStream.range(0, n).boxed().collect(Collectors.toList());
            order.sort(Comparator.comparingDouble((Integer i) -> componentScores.get(i)[component]).reversed());
            int rank = 0;
            for (int i : order) {
                rank++;
                rrf[i] += weights[c] / (RRF_K + rank);
            }
        }
        List<Ranked> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(new Ranked(rowsByRid.get(i).id(), rowsByRid.get(i).rid(), rrf[i]));
        out.sort(Comparator.comparingDouble(Ranked::key).reversed());
        return out;
    }

    /**
     * RRF(FullTextScore(c.text, terms), VectorDistance(c.e, q)) with these weights, TOP take,
     * as the Java SDK computes it: every range answers each component query with its first
     * {@code componentTop} rows (the plan's component TOP, 120 for TOP 10) in one page, and
     * the rows fused are the union over ranges and components of those rows. Where equal
     * scores straddle such a cut, the server may return any of the tied rows: then each
     * choice gives one possible ranking, and this returns them all.
     */
    private List<List<Ranked>> rrfRankings(List<String> terms, double[] q, double[] weights, int take) {
        // The plan's component TOP: twice what is shown, at least 120 (the service's 120 for TOP 10).
        final int componentTop = Math.max(120, 2 * take);
        Map<String, double[]> scores = new HashMap<>();
        Statistics statistics = containerStatistics(terms);
        for (Doc d : docs) scores.put(d.id(), new double[] {key(bm25(d, terms, statistics)), key(cosine(d.e(), q))});
        // Per range and component: the ids surely fetched, and the possible sets of tied ids.
        Set<String> sure = new HashSet<>();
        List<List<Set<String>>> choices = new ArrayList<>();
        for (int r = 0; r < ranges; r++) {
            for (int c = 0; c < weights.length; c++) {
                final int range = r, component = c;
                List<Doc> inRange = docs.stream().filter(d -> rangeOf.get(d.id()) == range)
                    .sorted(Comparator.comparingDouble((Doc d) -> scores.get(d.id())[component]).reversed())
                    .collect(Collectors.toList());
                if (inRange.size() <= componentTop) {
                    inRange.forEach(d -> sure.add(d.id()));
                    continue;
                }
                double edge = scores.get(inRange.get(componentTop - 1).id())[c];
                List<String> above = new ArrayList<>(), tied = new ArrayList<>();
                for (Doc d : inRange) {
                    double s = scores.get(d.id())[c];
                    if (s > edge) above.add(d.id());
                    else if (s == edge) tied.add(d.id());
                }
                sure.addAll(above);
                if (tied.size() > componentTop - above.size()) choices.add(subsets(tied, componentTop - above.size()));
                else sure.addAll(tied);
            }
        }
        List<Set<String>> fetchedSets = new ArrayList<>(List.of(sure));
        for (List<Set<String>> options : choices) {
            List<Set<String>> next = new ArrayList<>();
            for (Set<String> base : fetchedSets) {
                for (Set<String> option : options) {
                    Set<String> s = new HashSet<>(base);
                    s.addAll(option);
                    next.add(s);
                }
            }
            fetchedSets = next;
            assertTrue(fetchedSets.size() <= 10000, "test data: too many ties across the TOP cuts");
        }
        List<List<Ranked>> rankings = new ArrayList<>();
        for (Set<String> fetched : new HashSet<>(fetchedSets)) {
            List<Doc> rows = byRid(docs.stream().filter(d -> fetched.contains(d.id())).collect(Collectors.toList()));
            rankings.add(sdkFusion(rows, rows.stream().map(d -> scores.get(d.id())).collect(Collectors.toList()), weights));
        }
        return rankings;
    }

    /** Every subset of {@code k} of the ids. */
    private static List<Set<String>> subsets(List<String> ids, int k) {
        List<Set<String>> out = new ArrayList<>();
        if (k == 0) {
            out.add(new HashSet<>());
            return out;
        }
        for (int i = 0; i + k <= ids.size(); i++) {
            for (Set<String> rest : subsets(ids.subList(i + 1, ids.size()), k - 1)) {
                rest.add(ids.get(i));
                out.add(rest);
            }
        }
        return out;
    }

    // ---- Running and comparing ------------------------------------------------------------

    private List<String> queryIds(String sql, CosmosQueryRequestOptions options, Integer pageSize) {
        List<String> ids = new ArrayList<>();
        Iterable<FeedResponse<JsonNode>> pages = pageSize == null
            ? container.queryItems(sql, options, JsonNode.class).iterableByPage()
            : container.queryItems(sql, options, JsonNode.class).iterableByPage(pageSize);
        for (FeedResponse<JsonNode> page : pages) {
            for (JsonNode row : page.getResults()) {
                assertTrue(row.path("id").isTextual() && row.size() == 1, () -> "row is not {\"id\": ...}: " + row);
                ids.add(row.get("id").asText());
            }
        }
        return ids;
    }

    private static boolean close(double expected, double actual) {
        return Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected));
    }

    /**
     * Whether the returned ids are the first {@code top} of {@code expected} up to ties: rank
     * by rank, the expected key of the returned id equals the expected key at that rank, and
     * no id comes twice. So within a group of equal keys the ids may come in any order, every
     * group before the last is returned whole, and the last (cut by TOP) may be any subset of
     * its tied rows. Null when they are, else what differs.
     */
    private static String mismatch(List<Ranked> expected, int top, List<String> actual) {
        List<Ranked> want = expected.subList(0, Math.min(top, expected.size()));
        String report = "\nexpected: " + want.stream().map(r -> r.id() + "=" + r.key()).collect(Collectors.toList())
            + "\nactual:   " + actual;
        if (want.size() != actual.size()) return "row count " + actual.size() + ", expected " + want.size() + report;
        Map<String, Double> keys = new HashMap<>();
        expected.forEach(r -> keys.put(r.id(), r.key()));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < actual.size(); i++) {
            String id = actual.get(i);
            if (!seen.add(id)) return "id " + id + " returned twice" + report;
            Double k = keys.get(id);
            if (k == null) return "id " + id + " is not among the expected rows" + report;
            if (!close(want.get(i).key(), k)) {
                return "rank " + i + ": " + id + " has key " + k + ", expected " + want.get(i).key() + report;
            }
        }
        return null;
    }

    private static void assertRanking(String what, List<Ranked> expected, int top, List<String> actual) {
        String m = mismatch(expected, top, actual);
        if (m != null) fail(what + ": " + m);
    }

    /** The returned ids must match one of the possible rankings (see {@link #rrfRankings}). */
    private static void assertOneOf(String what, List<List<Ranked>> possible, int top, List<String> actual) {
        String first = null;
        for (List<Ranked> expected : possible) {
            String m = mismatch(expected, top, actual);
            if (m == null) return;
            if (first == null) first = m;
        }
        fail(what + ": matches none of " + possible.size() + " possible rankings; the first: " + first);
    }

    // ---- Tests ----------------------------------------------------------------------------

    @Test
    void policiesAsStored() {
        CosmosContainerProperties p = container.read().getProperties();
        assertNotNull(p.getFullTextPolicy(), "fullTextPolicy missing");
        assertEquals("en-US", p.getFullTextPolicy().getDefaultLanguage());
        List<CosmosFullTextPath> paths = p.getFullTextPolicy().getPaths();
        assertEquals(1, paths.size());
        assertEquals("/text", paths.get(0).getPath());
        assertEquals("en-US", paths.get(0).getLanguage());
        List<CosmosFullTextIndex> indexes = p.getIndexingPolicy().getCosmosFullTextIndexes();
        assertEquals(1, indexes.size());
        assertEquals("/text", indexes.get(0).getPath());
        assertNotNull(p.getVectorEmbeddingPolicy(), "vectorEmbeddingPolicy missing");
        assertEquals("/e", p.getVectorEmbeddingPolicy().getVectorEmbeddings().get(0).getPath());
        // 12,000 RU/s: two physical partitions, so statistics and components span ranges.
        assertTrue(container.getFeedRanges().size() >= 2, "feed ranges: " + container.getFeedRanges());
    }

    /**
     * FullTextScore ranking across the container, TOP 8, for two term sets; and TOP 100 of a
     * single term, which must return exactly the documents holding it.
     */
    @Test
    void fullTextScoreRanksByBm25() {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        for (List<String> terms : List.of(List.of("dog", "tree"), List.of("cat", "bird", "rock"))) {
            String args = terms.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "));
            String sql = "SELECT TOP 8 c.id FROM c ORDER BY RANK FullTextScore(c.text, " + args + ")";
            assertRanking(sql, fullTextRanking(terms, d -> true, containerStatistics(terms)), 8, queryIds(sql, options, null));
        }

        // Only documents that score above 0: with TOP beyond the matches, exactly those
        // holding the term, in pages of 4.
        String fish = "SELECT TOP 100 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'fish')";
        List<Ranked> matching = fullTextRanking(List.of("fish"), d -> true, containerStatistics(List.of("fish")));
        assertTrue(matching.size() > 8 && matching.size() < ITEMS, "fish in " + matching.size() + " documents");
        assertRanking(fish, matching, 100, queryIds(fish, options, 4));
    }

    /**
     * FullTextScore within one logical partition (the partition key in the request options):
     * its documents only, ranked with statistics of that partition key's documents, which is
     * what the pinned SDK asks for. With the LOCAL full-text score scope it runs the statistics
     * query on the key's range only: one row of the key's statistics. With the default GLOBAL
     * scope it runs it on every feed range, but a request of a query with a partition key
     * targets that key (DocumentQueryExecutionContextBase.createDocumentServiceRequestWithFeedRange
     * replaces the feed range by the key's), so it gets the key's statistics once per range,
     * and sums them.
     */
    @Test
    void fullTextScoreWithinOneLogicalPartition() {
        List<String> terms = List.of("dog", "tree");
        String sql = "SELECT TOP 8 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'dog', 'tree')";
        List<Doc> p3 = docs.stream().filter(d -> d.pk().equals("p3")).collect(Collectors.toList());
        assertTrue(p3.size() > 8, "p3 holds " + p3.size() + " documents");

        CosmosQueryRequestOptions local = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p3"))
            .setFullTextScoreScope(CosmosFullTextScoreScope.LOCAL);
        assertRanking("partition p3, LOCAL scope: " + sql,
            fullTextRanking(terms, d -> d.pk().equals("p3"), statistics(p3, 1, terms)), 8, queryIds(sql, local, null));

        CosmosQueryRequestOptions global = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p3"));
        assertRanking("partition p3, GLOBAL scope: " + sql,
            fullTextRanking(terms, d -> d.pk().equals("p3"), statistics(p3, ranges, terms)), 8, queryIds(sql, global, null));
    }

    /**
     * RRF of FullTextScore and VectorDistance, TOP 10: without weights, with [3, 1], and with
     * fractional weights [1.5, 0.5] (the same ranking as [3, 1]); one page and pages of 3.
     *
     * <p>The SDK reads the plan's componentWeights with JsonSerializable.getList(..., Double.class),
     * which casts each parsed JSON number: a weight written as an integer ({@code 1} rather than
     * {@code 1.0}) fails with "ClassCastException: Cannot cast java.lang.Integer to
     * java.lang.Double" before any component query runs. The unweighted and the [3, 1] cases
     * (and every FullTextScore-only query, whose one weight is 1) depend on that.
     */
    @ParameterizedTest(name = "weights \"{0}\"")
    @ValueSource(strings = {"", "[3, 1]", "[1.5, 0.5]"})
    void rrfFusesFullTextAndVectorRanks(String weights) {
        String sql = "SELECT TOP 10 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'swim', 'fish'), "
            + "VectorDistance(c.e, [0.6, 0.8])" + (weights.isEmpty() ? "" : ", " + weights) + ")";
        double[] w = weights.isEmpty() ? new double[] {1, 1}
            : Arrays.stream(weights.replaceAll("[\\[\\] ]", "").split(",")).mapToDouble(Double::parseDouble).toArray();
        List<List<Ranked>> possible = rrfRankings(List.of("swim", "fish"), new double[] {0.6, 0.8}, w, 10);
        assertOneOf(sql, possible, 10, queryIds(sql, new CosmosQueryRequestOptions(), null));
        assertOneOf("pages of 3: " + sql, possible, 10, queryIds(sql, new CosmosQueryRequestOptions(), 3));
    }

    @Test
    void sortOrderInOrderByRankIsRejected() {
        String sql = "SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'dog', 'tree') DESC";
        CosmosException e = Sdk.assertCosmosError(400, () -> queryIds(sql, new CosmosQueryRequestOptions(), null));
        String message = e.getMessage();
        assertTrue(message != null && message.contains(
                "Specifying a sort order (ASC or DESC) in the ORDER BY RANK clause is not allowed"),
            () -> Sdk.wire(e));
    }
}
