package orrery.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureResponse;
import com.azure.cosmos.models.CosmosTriggerProperties;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.TriggerOperation;
import com.azure.cosmos.models.TriggerType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import orrery.sdk.scenarios.ScenarioDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Server-side scripts through {@code CosmosScripts} (issue 48): the stored-procedure
 * samples of Azure-Samples' Java SQL API samples (create, execute with a partition key and
 * parameters, script logging), the transaction of a stored procedure, a pre-trigger named
 * on a create, and a user-defined function in a query. Expected values come from the
 * samples and the tests' own data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScriptsTest extends ServerTest {
    private CosmosContainer container;

    @BeforeAll
    void create() {
        container = newContainer("scripts", new CosmosContainerProperties("c", "/pk"));
    }

    private static CosmosStoredProcedureRequestOptions in(String pk) {
        CosmosStoredProcedureRequestOptions options = new CosmosStoredProcedureRequestOptions();
        options.setPartitionKey(new PartitionKey(pk));
        return options;
    }

    private List<String> ids(String pk) {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey(pk));
        return container.queryItems("SELECT VALUE c.id FROM c", options, String.class).stream().sorted()
            .collect(Collectors.toList());
    }

    @Test
    void theSamplesStoredProcedureRunsWithItsParametersAndLog() {
        // The Java samples' "createStoredProcedure" body, which logs and returns a greeting.
        String body = "function " + "spHelloWorld(prefix) {\n"
            + "  var context = getContext();\n"
            + "  var response = context.getResponse();\n"
            + "  console.log(\"prefix is %s\", prefix);\n"
            + "  response.setBody(prefix + \": Hello, World\");\n"
            + "}";
        CosmosStoredProcedureResponse created =
            container.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("spHelloWorld", body));
        assertEquals(201, created.getStatusCode());
        assertEquals(body, created.getProperties().getBody());
        List<String> listed = new ArrayList<>();
        container.getScripts().readAllStoredProcedures().forEach(p -> listed.add(p.getId()));
        assertTrue(listed.contains("spHelloWorld"), listed.toString());

        CosmosStoredProcedureRequestOptions options = in("p1");
        options.setScriptLoggingEnabled(true);
        List<Object> params = new ArrayList<>();
        params.add("Sample");
        CosmosStoredProcedureResponse executed =
            container.getScripts().getStoredProcedure("spHelloWorld").execute(params, options);
        assertEquals(200, executed.getStatusCode());
        assertEquals("\"Sample: Hello, World\"", executed.getResponseAsString());
        assertTrue(executed.getRequestCharge() > 0);
        assertEquals("prefix is Sample", executed.getScriptLog());
    }

    @Test
    void aThrowRollsBackEveryWriteOfTheProcedure() {
        String body = "function (pk, fail) {\n"
            + "  var c = getContext().getCollection();\n"
            + "  c.createDocument(c.getSelfLink(), { id: 'one', pk: pk }, function (err) {\n"
            + "    if (err) throw err;\n"
            + "    c.createDocument(c.getSelfLink(), { id: 'two', pk: pk }, function (err2) {\n"
            + "      if (err2) throw err2;\n"
            + "      if (fail) throw new Error('rolled back');\n"
            + "      getContext().getResponse().setBody(2);\n"
            + "    });\n"
            + "  });\n"
            + "}";
        container.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("twoWrites", body));
        List<Object> failing = new ArrayList<>();
        failing.add("tx");
        failing.add(true);
        CosmosException e = assertThrows(CosmosException.class,
            () -> container.getScripts().getStoredProcedure("twoWrites").execute(failing, in("tx")));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("rolled back"), e.getMessage());
        assertEquals(List.of(), ids("tx"));

        List<Object> succeeding = new ArrayList<>();
        succeeding.add("tx");
        succeeding.add(false);
        CosmosStoredProcedureResponse ok = container.getScripts().getStoredProcedure("twoWrites").execute(succeeding, in("tx"));
        assertEquals("2", ok.getResponseAsString());
        assertEquals(List.of("one", "two"), ids("tx"));
    }

    @Test
    void aPreTriggerStampsTheItemItIsNamedFor() {
        CosmosTriggerProperties trigger = new CosmosTriggerProperties("stamp",
            "function () { var r = getContext().getRequest(); var i = r.getBody();"
                + " if (!('timestamp' in i)) i.timestamp = 1234; r.setBody(i); }");
        trigger.setTriggerType(TriggerType.PRE);
        trigger.setTriggerOperation(TriggerOperation.CREATE);
        container.getScripts().createTrigger(trigger);

        CosmosItemRequestOptions options = new CosmosItemRequestOptions();
        options.setPreTriggerInclude(List.of("stamp"));
        ObjectNode item = ScenarioDriver.JSON.createObjectNode().put("id", "stamped").put("pk", "trig");
        JsonNode created = container.createItem(item, new PartitionKey("trig"), options).getItem();
        assertEquals(1234, created.get("timestamp").asInt());
        JsonNode plain = container.createItem(
            ScenarioDriver.JSON.createObjectNode().put("id", "plain").put("pk", "trig"),
            new PartitionKey("trig"), new CosmosItemRequestOptions()).getItem();
        assertFalse(plain.has("timestamp"), "a trigger never runs unless the request names it");
    }

    @Test
    void aUserDefinedFunctionRunsInAQuery() {
        container.getScripts().createUserDefinedFunction(
            new CosmosUserDefinedFunctionProperties("tax", "function tax(income) { return income < 1000 ? income * 0.1 : income * 0.2; }"));
        for (int i = 0; i < 3; i++) {
            container.createItem(ScenarioDriver.JSON.createObjectNode().put("id", "u" + i).put("pk", "udf").put("income", 500 * (i + 1)));
        }
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("udf"));
        List<Double> taxes = new ArrayList<>();
        container.queryItems("SELECT VALUE udf.tax(c.income) FROM c", options, JsonNode.class)
            .forEach(n -> taxes.add(n.asDouble()));
        taxes.sort(Double::compare);
        // 500 * 0.1, 1000 * 0.2, 1500 * 0.2
        assertEquals(List.of(50.0, 200.0, 300.0), taxes);
    }
}
