package orrery.sdk;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosDiagnostics;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ConsistencyLevel;

/** How every test builds its client, and how a failure names the wire exchange. */
public final class Sdk {
    /** The emulator's well-known key, which orrery accepts by default. */
    public static final String KEY =
        "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    public static final String NAME = "java (com.azure:azure-cosmos " + version() + ")";

    private Sdk() {}

    private static String version() {
        Package p = CosmosClient.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v == null ? "4.x" : v;
    }

    /** Gateway mode (orrery serves no direct mode), session consistency. */
    public static CosmosClientBuilder builder(OrreryServer server) {
        return new CosmosClientBuilder()
            .endpoint(server.endpoint())
            .key(KEY)
            .gatewayMode()
            .consistencyLevel(ConsistencyLevel.SESSION)
            .contentResponseOnWriteEnabled(true);
    }

    public static CosmosClient client(OrreryServer server) {
        return builder(server).buildClient();
    }

    public static CosmosAsyncClient asyncClient(OrreryServer server) {
        return builder(server).buildAsyncClient();
    }

    /**
     * A container keyed on one path, hashed V2 (what the SDK sends with
     * PartitionKeyDefinitionVersion.V2; the path-only constructor sends no version, V1).
     */
    public static com.azure.cosmos.models.CosmosContainerProperties v2(String id, String path) {
        com.azure.cosmos.models.PartitionKeyDefinition def = new com.azure.cosmos.models.PartitionKeyDefinition();
        def.setPaths(java.util.List.of(path));
        def.setVersion(com.azure.cosmos.models.PartitionKeyDefinitionVersion.V2);
        return new com.azure.cosmos.models.CosmosContainerProperties(id, def);
    }

    /** Creates the items of one partition key, 100 to a transactional batch. */
    public static void createInBatches(com.azure.cosmos.CosmosContainer c, com.azure.cosmos.models.PartitionKey pk,
                                       java.util.List<? extends Object> items) {
        for (int start = 0; start < items.size(); start += 100) {
            com.azure.cosmos.models.CosmosBatch batch = com.azure.cosmos.models.CosmosBatch.createCosmosBatch(pk);
            for (Object item : items.subList(start, Math.min(start + 100, items.size()))) batch.createItemOperation(item);
            com.azure.cosmos.models.CosmosBatchResponse response = c.executeCosmosBatch(batch);
            if (!response.isSuccessStatusCode()) {
                throw new AssertionError("batch of creates failed: " + response.getStatusCode() + " " + response.getErrorMessage());
            }
        }
    }

    /** "status=404 substatus=0 activityId=... message=...": what went over the wire. */
    public static String wire(Throwable t) {
        if (t instanceof CosmosException e) {
            String message = e.getShortMessage();
            return "status=" + e.getStatusCode() + " substatus=" + e.getSubStatusCode()
                + " activityId=" + e.getActivityId() + " class=" + e.getClass().getSimpleName()
                + " message=" + (message == null ? "" : message.replaceAll("\\s+", " "));
        }
        return t.toString();
    }

    /**
     * The operation must fail with a CosmosException of this HTTP status. In gateway mode
     * the SDK raises CosmosException itself for every service error (RxGatewayStoreModel.
     * validateOrThrow builds it through BridgeInternal.createCosmosException); the
     * subclasses (NotFoundException, ConflictException, ...) come from its direct-mode
     * transport and client-side checks. So the type checked is CosmosException, and the
     * status and substatus tell the errors apart.
     */
    public static CosmosException assertCosmosError(int status, org.junit.jupiter.api.function.Executable op) {
        CosmosException e = org.junit.jupiter.api.Assertions.assertThrows(CosmosException.class, op);
        org.junit.jupiter.api.Assertions.assertEquals(status, e.getStatusCode(), () -> wire(e));
        return e;
    }

    /** Diagnostics, cut to a size a failure message can carry. */
    public static String diagnostics(CosmosDiagnostics d) {
        if (d == null) return "";
        String s = d.toString();
        return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
    }
}
