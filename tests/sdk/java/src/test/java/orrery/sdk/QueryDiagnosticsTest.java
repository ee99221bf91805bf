package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.implementation.CompositeIndexUtilizationEntity;
import com.azure.cosmos.implementation.IndexUtilizationInfo;
import com.azure.cosmos.implementation.QueryMetrics;
import com.azure.cosmos.implementation.SingleIndexUtilizationEntity;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Java only: query diagnostics as azure-cosmos parses them (issue 16, point 7). With
 * {@code setQueryMetricsEnabled(true)} the SDK turns the x-ms-documentdb-query-metrics
 * header into its QueryMetrics (QueryMetrics.createFromDelimitedStringAndClientSideMetrics);
 * with {@code setIndexMetricsEnabled(true)} as well, it decodes x-ms-cosmos-index-utilization
 * (base64 of JSON) into the QueryMetrics' IndexUtilizationInfo. Expected counts come from the
 * items written here; the index shapes from the service's documentation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryDiagnosticsTest extends ServerTest {
    private static final int ITEMS = 60;
    private static final PartitionKey PK = new PartitionKey("m");

    private CosmosContainer c;

    @BeforeAll
    void start() {
        CosmosContainerProperties props = Sdk.v2("diag", "/pk");
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/*")));
        policy.setExcludedPaths(List.of(new ExcludedPath("/secret/?"), new ExcludedPath("/\"_etag\"/?")));
        props.setIndexingPolicy(policy);
        c = newContainer("diagnostics", props);
        for (int i = 0; i < ITEMS; i++) {
            c.createItem(ScenarioDriver.JSON.createObjectNode()
                .put("id", String.format("d%03d", i)).put("pk", "m").put("n", i)
                .put("s", "s" + (i % 6)).put("secret", i % 5), PK, null);
        }
    }

    /** The one page of a single-partition query. */
    private FeedResponse<JsonNode> page(String query, boolean indexMetrics) {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(PK);
        options.setQueryMetricsEnabled(true);
        options.setIndexMetricsEnabled(indexMetrics);
        List<FeedResponse<JsonNode>> pages = new ArrayList<>();
        c.queryItems(query, options, JsonNode.class).iterableByPage(1000).forEach(pages::add);
        assertEquals(1, pages.size(), query);
        return pages.get(0);
    }

    private static QueryMetrics metricsOf(FeedResponse<JsonNode> page) {
        Map<String, QueryMetrics> map = ModelBridgeInternal.queryMetricsMap(page);
        assertNotNull(map, "no query metrics");
        assertEquals(1, map.size(), "one partition's metrics: " + map.keySet());
        return map.values().iterator().next();
    }

    @Test
    void queryMetricsCountWhatTheQueryRead() {
        FeedResponse<JsonNode> seek = page("SELECT * FROM c WHERE c.n >= 50", false);
        assertEquals(10, seek.getResults().size());
        QueryMetrics m = metricsOf(seek);
        // Served by the range index on /n: only the matches are loaded.
        assertEquals(10, m.getRetrievedDocumentCount(), m.toString());
        assertEquals(10, m.getOutputDocumentCount(), m.toString());
        assertTrue(m.getRetrievedDocumentSize() > 0, m.toString());
        assertEquals(1.0, m.getIndexHitRatio(), 1e-9, m.toString());

        // /secret/? is excluded: every item of the partition is read.
        FeedResponse<JsonNode> scan = page("SELECT * FROM c WHERE c.secret = 3", false);
        assertEquals(ITEMS / 5, scan.getResults().size());
        QueryMetrics s = metricsOf(scan);
        assertEquals(ITEMS, s.getRetrievedDocumentCount(), s.toString());
        assertEquals(ITEMS / 5, s.getOutputDocumentCount(), s.toString());
    }

    @Test
    void queryMetricsTimingsAreMeasured() {
        FeedResponse<JsonNode> heavy = page(
            "SELECT VALUE c.id FROM c WHERE RegexMatch(REPLICATE(c.s, 400), \"s[0-9]s[0-9]$\")", false);
        assertEquals(ITEMS, heavy.getResults().size());
        QueryMetrics m = metricsOf(heavy);
        Duration functions = m.getRuntimeExecutionTimes().getSystemFunctionExecutionTime();
        Duration total = m.getTotalQueryExecutionTime();
        assertTrue(functions.compareTo(Duration.ZERO) > 0, m.toString());
        assertTrue(functions.compareTo(total) <= 0, m.toString());
    }

    @Test
    void indexMetricsDecodedByTheSdk() {
        IndexUtilizationInfo seek = metricsOf(page("SELECT * FROM c WHERE c.n = 3", true)).getIndexUtilizationInfo();
        assertNotNull(seek, "no index utilization");
        assertEquals(List.of("/n/?"), specs(seek.getUtilizedSingleIndexes()));
        assertTrue(seek.getUtilizedCompositeIndexes().isEmpty());

        // Equality and range filters with no composite index: (s, n) is the potential one.
        IndexUtilizationInfo both = metricsOf(page("SELECT * FROM c WHERE c.s = \"s1\" AND c.n > 3", true))
            .getIndexUtilizationInfo();
        assertEquals(List.of("/n/?", "/s/?"), specs(both.getUtilizedSingleIndexes()));
        List<CompositeIndexUtilizationEntity> potential = both.getPotentialCompositeIndexes();
        assertEquals(1, potential.size());
        assertEquals(List.of("/s ASC", "/n ASC"), potential.get(0).getIndexDocumentExpressions());
        assertFalse(potential.get(0).getIndexImpactScore().isEmpty());
    }

    private static List<String> specs(List<SingleIndexUtilizationEntity> entries) {
        return entries.stream().map(SingleIndexUtilizationEntity::getIndexDocumentExpression).sorted().collect(Collectors.toList());
    }
}
