// The Go SDK suite: github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos (pinned in
// go.mod/go.sum) against freshly started orrery processes, in memory and on disk.
//
// Layout: main_test.go (servers, storage modes, summary), wire_test.go (what went over
// the wire, for failure messages), scenario_test.go (the shared scenarios of
// tests/sdk/scenarios/scenarios.json), sdk_test.go (what only this suite checks).
package orrerygo

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

const emulatorKey = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="

// storages are the modes every test runs in: ORRERY_SDK_STORAGE=memory|disk|both (default both).
func storages() []string {
	switch os.Getenv("ORRERY_SDK_STORAGE") {
	case "memory":
		return []string{"memory"}
	case "disk":
		return []string{"disk"}
	default:
		return []string{"memory", "disk"}
	}
}

// server is one orrery process.
type server struct {
	cmd      *exec.Cmd
	endpoint string
	dataDir  string
	done     chan struct{}
	mu       sync.Mutex
	output   []string // last lines of its stdout/stderr
}

var listenRe = regexp.MustCompile(`listening on (https?)://([^\s/]+):(\d+)/`)

// startServer starts `orrery serve --port 0 --no-tls` in the given storage mode with
// extra flags and waits (bounded) for its "listening on" line.
func startServer(storage string, extra ...string) (*server, error) {
	bin := os.Getenv("ORRERY_BIN")
	if bin == "" {
		return nil, fmt.Errorf("ORRERY_BIN is not set (path of the orrery binary)")
	}
	args := []string{"serve", "--port", "0", "--no-tls", "--log-level", "warn"}
	s := &server{done: make(chan struct{})}
	if storage == "memory" {
		args = append(args, "--in-memory")
	} else {
		dir, err := os.MkdirTemp("", "orrery-go-sdk-")
		if err != nil {
			return nil, err
		}
		s.dataDir = dir
		args = append(args, "--data-dir", dir)
	}
	args = append(args, extra...)
	s.cmd = exec.Command(bin, args...)
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		s.cleanup()
		return nil, err
	}
	found := make(chan string, 1)
	drain := func(r io.Reader) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.output = append(s.output, line)
			if len(s.output) > 50 {
				s.output = s.output[len(s.output)-50:]
			}
			s.mu.Unlock()
			if m := listenRe.FindStringSubmatch(line); m != nil {
				select {
				case found <- fmt.Sprintf("%s://%s:%s/", m[1], m[2], m[3]):
				default:
				}
			}
		}
	}
	go drain(stdout)
	go drain(stderr)
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	select {
	case ep := <-found:
		s.endpoint = ep
		return s, nil
	case <-s.done:
		s.cleanup()
		return nil, fmt.Errorf("orrery %v exited before listening: %s", args, s.tail())
	case <-time.After(20 * time.Second):
		s.stop()
		return nil, fmt.Errorf("orrery %v did not print its listening line within 20 s: %s", args, s.tail())
	}
}

func (s *server) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.output, "\n")
}

func (s *server) cleanup() {
	if s.dataDir != "" {
		_ = os.RemoveAll(s.dataDir)
	}
}

// stop ends the process (SIGTERM, then SIGKILL after 10 s) and removes its data directory.
func (s *server) stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	}
	s.cleanup()
}

// newClient makes an SDK client for the server; rec (may be nil) records every attempt.
func (s *server) newClient(rec *recorder, tweak func(*azcosmos.ClientOptions)) (*azcosmos.Client, error) {
	cred, err := azcosmos.NewKeyCredential(emulatorKey)
	if err != nil {
		return nil, err
	}
	opts := &azcosmos.ClientOptions{}
	if rec != nil {
		opts.PerRetryPolicies = []policy.Policy{rec}
	}
	if tweak != nil {
		tweak(opts)
	}
	return azcosmos.NewClientWithKey(s.endpoint, cred, opts)
}

// Plain servers (no extra flags) are shared by the tests of one storage mode.
var (
	sharedMu      sync.Mutex
	sharedServers = map[string]*server{}
)

func sharedServer(t *testing.T, storage string) *server {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if s, ok := sharedServers[storage]; ok {
		return s
	}
	s, err := startServer(storage)
	if err != nil {
		t.Fatalf("starting a %s server: %v", storage, err)
	}
	sharedServers[storage] = s
	return s
}

// ownServer starts a server with flags for one test and stops it when the test ends.
func ownServer(t *testing.T, storage string, flags ...string) *server {
	t.Helper()
	s, err := startServer(storage, flags...)
	if err != nil {
		t.Fatalf("starting a %s server %v: %v", storage, flags, err)
	}
	t.Cleanup(s.stop)
	return s
}

// forEachStorage runs body as a subtest per storage mode.
func forEachStorage(t *testing.T, body func(t *testing.T, storage string)) {
	for _, st := range storages() {
		t.Run(st, func(t *testing.T) { body(t, st) })
	}
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Outcomes per storage mode, for the closing summary.
type outcome struct{ passed, failed, skipped int }

var (
	outcomesMu sync.Mutex
	outcomes   = map[string]*outcome{}
)

// track counts t (a scenario or Go-only check) in the summary of its storage mode.
func track(t *testing.T, storage string) {
	t.Cleanup(func() {
		outcomesMu.Lock()
		defer outcomesMu.Unlock()
		o := outcomes[storage]
		if o == nil {
			o = &outcome{}
			outcomes[storage] = o
		}
		switch {
		case t.Failed():
			o.failed++
		case t.Skipped():
			o.skipped++
		default:
			o.passed++
		}
	})
}

func TestMain(m *testing.M) {
	start := time.Now()
	code := m.Run()
	sharedMu.Lock()
	for _, s := range sharedServers {
		s.stop()
	}
	sharedMu.Unlock()
	keys := make([]string, 0, len(outcomes))
	for k := range outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o := outcomes[k]
		fmt.Printf("azcosmos (go) %s: %d passed, %d failed, %d skipped\n", k, o.passed, o.failed, o.skipped)
	}
	fmt.Printf("azcosmos (go) suite wall time: %.1f s\n", time.Since(start).Seconds())
	os.Exit(code)
}
