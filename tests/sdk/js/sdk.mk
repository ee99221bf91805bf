# The JavaScript SDK suites (tests/sdk/js/README.md): the shared scenarios through
# @azure/cosmos 4.10.1 and 3.17.3 (the npm alias @azure/cosmos-v3, pinned in
# package-lock.json and installed by npm-deps), and the 3.x suite; in memory, then on
# disk, against $(BUILD_DIR)/orrery ($(CURDIR)/$(BUILD_DIR) when relative). Bounded: each storage's run by timeout(1) in run.sh, the whole target here.
.PHONY: test-sdk-js
test-sdk-js: $(SDK_BUILD_DEP) npm-deps
	ORRERY_BIN=$(abspath $(BUILD_DIR))/orrery timeout --kill-after=10 600 sh tests/sdk/js/run.sh

SDK_TESTS += test-sdk-js
