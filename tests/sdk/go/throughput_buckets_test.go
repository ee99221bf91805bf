package orrerygo

// Throughput buckets and priority-based execution (issue 47), on servers with
// --enforce-throughput: a request in a bucket over its share of its partition's RU/s gets
// 429 with substatus 3212 (throughput-buckets FAQ) while requests of no bucket go on; with
// the partition over budget, low-priority requests are throttled before high-priority
// ones (priority-based-execution.md). azcosmos v1.5.0 sends both headers from
// ItemOptions.ThroughputBucket / PriorityLevel, or from the ClientOptions defaults
// (cosmos_headers_policy.go). The buckets themselves are configured with Orrery's admin
// call, as the service configures them in its control plane (no data-plane SDK can).
//
// The SDK's 429 retries are azcore's retry policy (429 is among its default status codes,
// runtime/policy_retry.go); azcosmos's own clientRetryPolicy does not retry 429
// (shouldRetryStatus). policy.RetryOptions{MaxRetries: -1} therefore lets every 429 reach
// the caller, which the recorder confirms: one attempt per call.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

// noRetries makes a client whose 429s reach the caller, with the header spy.
func noRetries(spy *headerSpy) func(*azcosmos.ClientOptions) {
	return func(o *azcosmos.ClientOptions) {
		o.Retry = policy.RetryOptions{MaxRetries: -1}
		o.PerRetryPolicies = append(o.PerRetryPolicies, spy)
	}
}

// configureBuckets sends Orrery's admin call PUT /_orrery/dbs/{db}/colls/{coll}/throughput,
// signed with resource type _orrery and the path as its link.
func configureBuckets(t *testing.T, srv *server, db, coll, body string) rawResponse {
	t.Helper()
	link := "_orrery/dbs/" + db + "/colls/" + coll + "/throughput"
	return rawCosmos(t, srv, http.MethodPut, "_orrery", link, link, "2020-07-15", []byte(body))
}

// padded is a ~1 KB item: a create costs several RU.
func padded(id string) []byte {
	return doc("id", id, "pk", "p", "pad", strings.Repeat("x", 900))
}

func bucket(n int32) *int32 { return &n }

func TestThroughputBucket(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--enforce-throughput")
		spy := &headerSpy{}
		env := newGoEnv(t, storage, srv, noRetries(spy))
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "bucketed", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("p")

		configured := configureBuckets(t, srv, env.db.ID(), "bucketed", `{"throughputBuckets":[{"id":1,"maxThroughputPercentage":10}]}`)
		var report struct {
			ThroughputBuckets []map[string]any `json:"throughputBuckets"`
		}
		if configured.status != 200 || json.Unmarshal(configured.body, &report) != nil {
			t.Fatalf("configure bucket 1 at 10%%: %s, want 200 with a JSON report", configured)
		}
		if got := canon(report.ThroughputBuckets); got != canon([]any{map[string]any{"id": 1, "maxThroughputPercentage": 10}}) {
			t.Errorf("report's throughputBuckets %s, want [{id 1, maxThroughputPercentage 10}]", got)
		}

		// Bucket 1 may spend 40 of the partition's 400 RU/s: a handful of ~1 KB creates.
		mark := env.rec.mark()
		admitted := 0
		var throttled error
		for i := 0; i < 40 && throttled == nil; i++ {
			_, err := c.CreateItem(ctx, pk, padded(fmt.Sprintf("b%d", i)), &azcosmos.ItemOptions{ThroughputBucket: bucket(1)})
			if l := spy.last(); l.throughputBucket != "1" {
				t.Fatalf("create with ThroughputBucket 1 sent x-ms-cosmos-throughput-bucket %q (%s %s), want 1", l.throughputBucket, l.method, l.path)
			}
			if err == nil {
				admitted++
			} else {
				throttled = err
			}
		}
		if throttled == nil {
			t.Fatalf("bucket 1 (10%% of 400 RU/s) was never throttled in 40 creates of ~1 KB\n%s", env.rec.wire(mark))
		}
		re, ok := responseError(throttled)
		if !ok || re.StatusCode != 429 || substatusOf(re) != "3212" {
			t.Fatalf("the bucket's refusal: %s, want 429 with x-ms-substatus 3212\n%s", describeErr(throttled), env.rec.wire(mark))
		}
		if admitted < 3 || admitted > 12 {
			t.Errorf("bucket 1 (40 RU/s) admitted %d creates of ~5-7 RU, want 3 to 12", admitted)
		}
		if n := len(env.rec.since(mark)); n != admitted+1 {
			t.Errorf("%d attempts on the wire for %d calls: the SDK retried with MaxRetries -1\n%s", n, admitted+1, env.rec.wire(mark))
		}
		t.Logf("bucket 1 admitted %d creates, then %d with substatus %s", admitted, re.StatusCode, substatusOf(re))

		// The partition's budget is far from spent: no bucket, and a bucket not configured
		// (ids 1 to 5 are all valid), draw on it.
		for i := 0; i < 5; i++ {
			env.must(t, fmt.Sprintf("create free%d without a bucket", i), func() error {
				_, err := c.CreateItem(ctx, pk, padded(fmt.Sprintf("free%d", i)), nil)
				return err
			})
			if l := spy.last(); l.throughputBucket != "" {
				t.Errorf("create without a bucket sent x-ms-cosmos-throughput-bucket %q", l.throughputBucket)
			}
		}
		env.must(t, "create in bucket 3 (not configured)", func() error {
			_, err := c.CreateItem(ctx, pk, padded("in-bucket-3"), &azcosmos.ItemOptions{ThroughputBucket: bucket(3)})
			return err
		})

		// Ids outside 1..5 are refused before anything runs. The SDK sends whatever is set,
		// 0 included (ThroughputBucket is a pointer).
		for _, b := range []int32{0, 6} {
			id := fmt.Sprintf("bad%d", b)
			env.expectStatus(t, fmt.Sprintf("create with ThroughputBucket %d", b), 400, "", func() error {
				_, err := c.CreateItem(ctx, pk, padded(id), &azcosmos.ItemOptions{ThroughputBucket: bucket(b)})
				return err
			})
			if l := spy.last(); l.throughputBucket != fmt.Sprint(b) {
				t.Errorf("create with ThroughputBucket %d sent x-ms-cosmos-throughput-bucket %q", b, l.throughputBucket)
			}
			env.expectStatus(t, "read "+id, 404, "", func() error {
				_, err := c.ReadItem(ctx, pk, id, nil)
				return err
			})
		}

		// Removed, bucket 1 draws on the whole budget again (once it has refilled).
		if removed := configureBuckets(t, srv, env.db.ID(), "bucketed", `{"throughputBuckets":[]}`); removed.status != 200 {
			t.Fatalf("remove the buckets: %s, want 200", removed)
		}
		time.Sleep(1200 * time.Millisecond)
		for i := 0; i < 10; i++ {
			env.must(t, fmt.Sprintf("create again%d in bucket 1 after the buckets were removed", i), func() error {
				_, err := c.CreateItem(ctx, pk, padded(fmt.Sprintf("again%d", i)), &azcosmos.ItemOptions{ThroughputBucket: bucket(1)})
				return err
			})
		}
	})
}

// TestThroughputBucketAndPriorityDefaults: ClientOptions.ThroughputBucket / PriorityLevel
// go with every item request; ItemOptions' override them (checked on the wire).
func TestThroughputBucketAndPriorityDefaults(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--enforce-throughput")
		spy := &headerSpy{}
		low := azcosmos.PriorityLevelLow
		env := newGoEnv(t, storage, srv, func(o *azcosmos.ClientOptions) {
			noRetries(spy)(o)
			o.ThroughputBucket = bucket(3)
			o.PriorityLevel = &low
		})
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "defaults", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("p")
		env.must(t, "create with the client's defaults", func() error {
			_, err := c.CreateItem(ctx, pk, padded("d1"), nil)
			return err
		})
		if l := spy.last(); l.throughputBucket != "3" || l.priorityLevel != "Low" {
			t.Errorf("create with client defaults bucket 3 and Low sent bucket %q priority %q (%s %s)", l.throughputBucket, l.priorityLevel, l.method, l.path)
		}
		high := azcosmos.PriorityLevelHigh
		env.must(t, "create with ItemOptions bucket 2 and High", func() error {
			_, err := c.CreateItem(ctx, pk, padded("d2"), &azcosmos.ItemOptions{ThroughputBucket: bucket(2), PriorityLevel: &high})
			return err
		})
		if l := spy.last(); l.throughputBucket != "2" || l.priorityLevel != "High" {
			t.Errorf("create with ItemOptions bucket 2 and High sent bucket %q priority %q", l.throughputBucket, l.priorityLevel)
		}
		env.must(t, "read with empty ItemOptions", func() error {
			_, err := c.ReadItem(ctx, pk, "d2", &azcosmos.ItemOptions{})
			return err
		})
		if l := spy.last(); l.throughputBucket != "3" || l.priorityLevel != "Low" {
			t.Errorf("read with empty ItemOptions sent bucket %q priority %q, want the client's 3 and Low", l.throughputBucket, l.priorityLevel)
		}
	})
}

// TestPriorityLowThrottledBeforeHigh: for 1.5 s, a High create and a Low create in turn as
// fast as one caller can, in one partition of a 400 RU/s container, no retries. A Low
// request is admitted only while the budget holds more than half a second's RU, a High
// one down to zero.
func TestPriorityLowThrottledBeforeHigh(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--enforce-throughput")
		spy := &headerSpy{}
		env := newGoEnv(t, storage, srv, noRetries(spy))
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "prio", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("p")
		type counts struct{ ok, throttled int }
		outcome := map[azcosmos.PriorityLevel]*counts{azcosmos.PriorityLevelHigh: {}, azcosmos.PriorityLevelLow: {}}
		mark := env.rec.mark()
		calls := 0
		deadline := time.Now().Add(1500 * time.Millisecond)
		for i := 0; time.Now().Before(deadline); i++ {
			for _, level := range []azcosmos.PriorityLevel{azcosmos.PriorityLevelHigh, azcosmos.PriorityLevelLow} {
				_, err := c.CreateItem(ctx, pk, padded(fmt.Sprintf("%s%d", level, i)), &azcosmos.ItemOptions{PriorityLevel: &level})
				calls++
				if l := spy.last(); l.priorityLevel != string(level) {
					t.Fatalf("create with PriorityLevel %s sent x-ms-cosmos-priority-level %q", level, l.priorityLevel)
				}
				if err == nil {
					outcome[level].ok++
					continue
				}
				re, ok := responseError(err)
				if !ok || re.StatusCode != 429 {
					t.Fatalf("create with priority %s: %s, want 201 or 429\n%s", level, describeErr(err), env.rec.wire(mark))
				}
				if sub := substatusOf(re); sub != "3200" {
					t.Errorf("429 of a %s request with substatus %q, want 3200", level, sub)
				}
				outcome[level].throttled++
			}
		}
		high, low := outcome[azcosmos.PriorityLevelHigh], outcome[azcosmos.PriorityLevelLow]
		detail := fmt.Sprintf("High %d ok / %d throttled, Low %d ok / %d throttled", high.ok, high.throttled, low.ok, low.throttled)
		t.Log(detail)
		if n := len(env.rec.since(mark)); n != calls {
			t.Errorf("%d attempts on the wire for %d calls: the SDK retried with MaxRetries -1", n, calls)
		}
		if high.throttled+low.throttled == 0 {
			t.Errorf("the partition was never over budget: %s", detail)
		}
		if low.throttled <= high.throttled {
			t.Errorf("low priority must be throttled first: %s", detail)
		}
		if high.ok <= low.ok {
			t.Errorf("high priority must get more done: %s", detail)
		}

		// A priority the service does not know is refused. PriorityLevel is a string type,
		// so the SDK sends whatever it is given.
		medium := azcosmos.PriorityLevel("Medium")
		env.expectStatus(t, "create with PriorityLevel Medium", 400, "", func() error {
			_, err := c.CreateItem(ctx, pk, padded("medium"), &azcosmos.ItemOptions{PriorityLevel: &medium})
			return err
		})
		if l := spy.last(); l.priorityLevel != "Medium" {
			t.Errorf("create with PriorityLevel Medium sent x-ms-cosmos-priority-level %q", l.priorityLevel)
		}
		time.Sleep(1500 * time.Millisecond) // the budget refilled
		env.expectStatus(t, "read medium", 404, "", func() error {
			_, err := c.ReadItem(ctx, pk, "medium", nil)
			return err
		})
	})
}
