package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Java only: pages cut by the server's time budget (issue 16, point 5). A server with
 * {@code --query-page-time-ms 1} and a slow, selective filter ends most pages by time, many
 * of them empty; the SDK (its ORDER BY and GROUP BY pipelines across partitions included)
 * must read on until the token runs out. Expected rows are computed here from the items
 * written here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryTimeBudgetTest extends ServerTest {
    private static final int ITEMS = 1200;
    private static final int KEYS = 4;
    private static final int TEAMS = 37;
    /** Tens of microseconds an item; keeps 5 teams of 37. */
    private static final String SLOW = "RegexMatch(REPLICATE(c.team, 1000), \"t0[0-4]$\")";

    private CosmosContainer c;

    private static int nOf(int i) {
        return (i * 7919) % ITEMS;
    }

    private static String teamOf(int i) {
        return String.format("t%02d", (i * 13) % TEAMS);
    }

    private static boolean kept(int i) {
        return teamOf(i).matches("t0[0-4]");
    }

    @Override
    protected String[] serverArgs() {
        return new String[] {"--query-page-time-ms", "1", "--initial-partitions", "3"};
    }

    @BeforeAll
    void start() {
        c = newContainer("budget", Sdk.v2("c", "/pk"));
        for (int k = 0; k < KEYS; k++) {
            final int key = k;
            Sdk.createInBatches(c, new PartitionKey("p" + k), IntStream.range(0, ITEMS).filter(i -> i % KEYS == key)
                .mapToObj(i -> ScenarioDriver.JSON.createObjectNode()
                    .put("id", String.format("i%05d", i)).put("pk", "p" + key).put("n", nOf(i)).put("team", teamOf(i)))
                .collect(Collectors.toList()));
        }
    }

    private List<JsonNode> all(String query, PartitionKey pk, int[] pages) {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        if (pk != null) options.setPartitionKey(pk);
        List<JsonNode> rows = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(query, options, JsonNode.class).iterableByPage(100)) {
            rows.addAll(page.getResults());
            pages[0]++;
            assertTrue(pages[0] < 5000, query + ": more than 5000 pages");
        }
        return rows;
    }

    private static List<String> idsByN(java.util.function.IntPredicate which) {
        return IntStream.range(0, ITEMS).filter(which).boxed().sorted(Comparator.comparingInt(QueryTimeBudgetTest::nOf))
            .map(i -> String.format("i%05d", i)).collect(Collectors.toList());
    }

    @Test
    void orderByInOnePartitionKey() {
        int[] pages = {0};
        List<String> got = all("SELECT VALUE c.id FROM c WHERE " + SLOW + " ORDER BY c.n", new PartitionKey("p1"), pages)
            .stream().map(JsonNode::asText).collect(Collectors.toList());
        List<String> want = idsByN(i -> i % KEYS == 1 && kept(i));
        assertEquals(want, got);
    }

    @Test
    void orderByAcrossPartitions() {
        int[] pages = {0};
        List<String> got = all("SELECT VALUE c.id FROM c WHERE " + SLOW + " ORDER BY c.n", null, pages)
            .stream().map(JsonNode::asText).collect(Collectors.toList());
        assertEquals(idsByN(QueryTimeBudgetTest::kept), got);
    }

    @Test
    void groupByAcrossPartitions() {
        int[] pages = {0};
        List<JsonNode> rows = all("SELECT c.team AS team, COUNT(1) AS cnt FROM c WHERE " + SLOW + " GROUP BY c.team", null, pages);
        Map<String, Integer> want = new TreeMap<>();
        for (int i = 0; i < ITEMS; i++) if (kept(i)) want.merge(teamOf(i), 1, Integer::sum);
        Map<String, Integer> got = new TreeMap<>();
        for (JsonNode r : rows) assertEquals(null, got.put(r.get("team").asText(), r.get("cnt").asInt()), "group twice: " + r);
        assertEquals(want, got);
    }

    @Test
    void plainFilterAcrossPartitionsIsCutByTime() {
        int[] pages = {0};
        List<String> got = all("SELECT VALUE c.id FROM c WHERE " + SLOW, null, pages)
            .stream().map(JsonNode::asText).sorted().collect(Collectors.toList());
        List<String> want = IntStream.range(0, ITEMS).filter(QueryTimeBudgetTest::kept)
            .mapToObj(i -> String.format("i%05d", i)).sorted().collect(Collectors.toList());
        assertEquals(want, got);
        assertTrue(pages[0] > 1 + want.size() / 100, pages[0] + " pages for " + want.size() + " rows: none ended by time");
    }
}
