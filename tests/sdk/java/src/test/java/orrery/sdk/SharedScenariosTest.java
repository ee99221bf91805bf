package orrery.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.TestAbortedException;
import org.junit.jupiter.api.TestInstance;

/**
 * The shared scenarios (tests/sdk/scenarios/scenarios.json) through ScenarioDriver: one
 * dynamic test per scenario, named "java/<storage>: <kind>: <scenario name>".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedScenariosTest extends ServerTest {
    private ScenarioDriver driver;

    @BeforeAll
    void start() {
        driver = new ScenarioDriver(ScenarioDriver.load(), client, "shared-scenarios");
        driver.setUp();
    }

    @TestFactory
    List<DynamicTest> scenarios() {
        JsonNode file = ScenarioDriver.load();
        List<DynamicTest> tests = new ArrayList<>();
        add(tests, file, "queries", "query", s -> driver.runQuery(s));
        add(tests, file, "errors", "error", s -> driver.runError(s));
        add(tests, file, "charges", "charge", s -> driver.runCharge(s));
        return tests;
    }

    private void add(List<DynamicTest> tests, JsonNode file, String section, String kind, Function<JsonNode, String> run) {
        for (JsonNode s : file.path(section)) {
            String name = s.get("name").asText();
            String label = "java/" + OrreryServer.storage() + ": " + kind + ": " + name;
            tests.add(DynamicTest.dynamicTest(label, () -> {
                try {
                    run.apply(s);
                } catch (TestAbortedException e) {
                    throw e;
                } catch (AssertionError | RuntimeException e) {
                    String report = "[" + Sdk.NAME + "] scenario '" + name + "' (" + OrreryServer.storage() + "): " + e.getMessage();
                    throw new AssertionError(report, e);
                }
            }));
        }
    }
}
