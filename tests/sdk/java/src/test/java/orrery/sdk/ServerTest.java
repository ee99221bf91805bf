package orrery.sdk;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class's own Orrery server and gateway client: started before the class's own
 * {@code @BeforeAll} (JUnit runs a superclass's first), closed after its tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServerTest {
    protected OrreryServer server;
    protected CosmosClient client;

    /** Extra {@code orrery serve} flags for this class's server. */
    protected String[] serverArgs() {
        return new String[0];
    }

    @BeforeAll
    void startServer() {
        server = OrreryServer.start(serverArgs());
        client = Sdk.client(server);
    }

    /** Creates database {@code database} and in it a container of {@code properties}. */
    protected CosmosContainer newContainer(String database, CosmosContainerProperties properties) {
        client.createDatabase(database);
        CosmosDatabase db = client.getDatabase(database);
        db.createContainer(properties);
        return db.getContainer(properties.getId());
    }

    @AfterAll
    void stopServer() {
        if (client != null) client.close();
        if (server != null) server.close();
    }
}
