# Java SDK suite (com.azure:azure-cosmos, pinned by tests/sdk/java/pom.xml and deps.lock):
# `make test-sdk-java` installs Maven if missing, resolves the pinned dependencies into
# ~/.m2 (kept between runs) when pom.xml changed, then runs the suite against
# $(BUILD_DIR)/orrery in memory and on disk (tests/sdk/java/run.sh).

JAVA_SDK_DIR := tests/sdk/java
JAVA_SDK_STAMP := $(JAVA_SDK_DIR)/target/.deps-installed

$(JAVA_SDK_STAMP): $(JAVA_SDK_DIR)/pom.xml $(JAVA_SDK_DIR)/deps.lock
	@command -v mvn >/dev/null 2>&1 || { apt-get update && apt-get install -y --no-install-recommends maven; }
	cd $(JAVA_SDK_DIR) && timeout 900 mvn -B -q --no-transfer-progress dependency:resolve test-compile dependency:list -DoutputFile=target/deps.txt
	mkdir -p $(dir $@) && touch $@

.PHONY: test-sdk-java
test-sdk-java: $(SDK_BUILD_DEP) $(JAVA_SDK_STAMP)
	ORRERY_BIN=$(abspath $(BUILD_DIR))/orrery timeout 900 bash $(JAVA_SDK_DIR)/run.sh

SDK_TESTS += test-sdk-java
