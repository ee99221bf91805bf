# Go SDK suite: github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos, pinned by
# tests/sdk/go/go.mod + go.sum (the lock). `go mod download` installs exactly those
# versions into the default module cache (GOMODCACHE), which stays between runs; the
# suite then drives its own orrery servers, in memory and on disk.
GO_SDK_DIR := tests/sdk/go
GO_SDK_ENV := GOFLAGS=-mod=readonly

.PHONY: test-sdk-go go-sdk-deps
go-sdk-deps:
	cd $(GO_SDK_DIR) && $(GO_SDK_ENV) go mod download && $(GO_SDK_ENV) go mod verify

test-sdk-go: $(SDK_BUILD_DEP) go-sdk-deps
	cd $(GO_SDK_DIR) && ORRERY_BIN=$(abspath $(BUILD_DIR))/orrery ORRERY_SDK_STORAGE=both \
	  $(GO_SDK_ENV) timeout 900 go test -count=1 -timeout 12m -v .

SDK_TESTS += test-sdk-go
