// The shared scenarios (tests/sdk/scenarios/scenarios.json) through both majors of the
// JavaScript SDK: @azure/cosmos 4.10.1 and 3.17.3, each against a server whose
// containers have one physical partition and one with four (so cross-partition queries
// fan out over several ranges and page across them).

import { SDKS } from "./lib.mjs";
import { scenarioSuite } from "./scenario_driver.mjs";

for (const sdk of [SDKS.v4, SDKS.v3]) {
  scenarioSuite(sdk);
  scenarioSuite(sdk, { partitions: 4 });
}
