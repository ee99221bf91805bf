# The Python SDK suite (azure-cosmos, sync and aio clients): tests/sdk/python/README.md.
# install.sh installs the pinned, hashed requirements.lock into tests/sdk/python/.venv when
# the venv does not hold exactly that lock; run.sh runs the suite in memory and on disk.
.PHONY: test-sdk-python sdk-python-deps
sdk-python-deps:
	sh tests/sdk/python/install.sh

test-sdk-python: $(SDK_BUILD_DEP) sdk-python-deps
	ORRERY_BIN=$(abspath $(BUILD_DIR))/orrery timeout -k 10 720 sh tests/sdk/python/run.sh

SDK_TESTS += test-sdk-python
