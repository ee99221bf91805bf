package orrerygo

// Go-only: change feed, throughput and 429 retries, session tokens, splits.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

// wholeRange is the feed range of a whole container.
var wholeRange = azcosmos.FeedRange{MinInclusive: "", MaxExclusive: "FF"}

// drainChangeFeed reads pages until one is empty (bounded), returning the ids of the
// changes (in order) and the continuation to resume from.
func drainChangeFeed(t *testing.T, env *goEnv, c *azcosmos.ContainerClient, opts azcosmos.ChangeFeedOptions) ([]string, string) {
	t.Helper()
	ctx := ctxFor(t, 120*time.Second)
	var ids []string
	cont := ""
	for i := 0; i < 1000; i++ {
		o := opts
		if cont != "" {
			// The composite continuation holds no etag for ranges not read yet, so
			// StartFrom (If-Modified-Since) is passed on every call, as the first.
			o.Continuation = &cont
		}
		mark := env.rec.mark()
		r, err := c.ReadChangeFeed(ctx, &o)
		if err != nil {
			t.Fatalf("%s [%s] ReadChangeFeed page %d: %s\n%s", sdkName, env.storage, i+1, describeErr(err), env.rec.wire(mark))
		}
		if r.ContinuationToken == "" {
			t.Fatalf("%s [%s] ReadChangeFeed page %d: no continuation token", sdkName, env.storage, i+1)
		}
		cont = r.ContinuationToken
		if len(r.Items) != r.Count {
			t.Errorf("change feed page: %d items but _count %d", len(r.Items), r.Count)
		}
		if opts.MaxItemCount > 0 && len(r.Items) > int(opts.MaxItemCount) {
			t.Errorf("change feed page of %d items, more than MaxItemCount %d", len(r.Items), opts.MaxItemCount)
		}
		if len(r.Items) == 0 {
			return ids, cont
		}
		for _, it := range r.Items {
			var m map[string]any
			if err := json.Unmarshal(it, &m); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, fmt.Sprint(m["id"]))
		}
	}
	t.Fatalf("change feed did not end within 1000 pages")
	return nil, ""
}

func TestChangeFeed(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--initial-partitions", "3")
		env := newGoEnv(t, storage, srv, nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "feed", []string{"/pk"}, 400)
		var want []string
		for i := 0; i < 30; i++ {
			id := fmt.Sprintf("i%02d", i)
			want = append(want, id)
			env.must(t, "create "+id, func() error {
				_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString(fmt.Sprintf("k%d", i%7)), doc("id", id, "pk", fmt.Sprintf("k%d", i%7), "v", 0), nil)
				return err
			})
		}
		ranges, err := c.ReadFeedRanges(ctx, nil)
		if err != nil || len(ranges) != 3 {
			t.Fatalf("ReadFeedRanges: %d ranges, %s; want 3 (--initial-partitions 3)", len(ranges), describeErr(err))
		}
		// From the beginning, page by page: every item once.
		fr := wholeRange
		got, cont := drainChangeFeed(t, env, c, azcosmos.ChangeFeedOptions{FeedRange: &fr, MaxItemCount: 4})
		if !sameRows(toAny(got), toAny(want), false) {
			t.Errorf("change feed from the beginning: %v, want each of %v once", got, want)
		}
		// Per feed range: the union is every item once.
		var union []string
		for _, r := range ranges {
			r := r
			part, _ := drainChangeFeed(t, env, c, azcosmos.ChangeFeedOptions{FeedRange: &r})
			union = append(union, part...)
		}
		if !sameRows(toAny(union), toAny(want), false) {
			t.Errorf("change feed per feed range: %v, want each of %v once", union, want)
		}
		// "Now": a StartFrom of the present sees only later changes.
		time.Sleep(1100 * time.Millisecond) // If-Modified-Since has one-second resolution
		now := time.Now()
		time.Sleep(1100 * time.Millisecond)
		// Changes after the saved continuation: an update and two new items.
		env.must(t, "update i03", func() error {
			_, err := c.UpsertItem(ctx, azcosmos.NewPartitionKeyString("k3"), doc("id", "i03", "pk", "k3", "v", 1), nil)
			return err
		})
		for _, id := range []string{"n1", "n2"} {
			env.must(t, "create "+id, func() error {
				_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString(id), doc("id", id, "pk", id), nil)
				return err
			})
		}
		after, _ := drainChangeFeed(t, env, c, azcosmos.ChangeFeedOptions{Continuation: &cont})
		if !sameRows(toAny(after), []any{"i03", "n1", "n2"}, false) {
			t.Errorf("change feed from the saved continuation: %v, want i03, n1, n2", after)
		}
		fr2 := wholeRange
		fromNow, _ := drainChangeFeed(t, env, c, azcosmos.ChangeFeedOptions{FeedRange: &fr2, StartFrom: &now})
		if !sameRows(toAny(fromNow), []any{"i03", "n1", "n2"}, false) {
			t.Errorf("change feed StartFrom %v: %v, want i03, n1, n2", now, fromNow)
		}
		// One logical partition.
		pk := azcosmos.NewPartitionKeyString("k3")
		fr3 := wholeRange
		k3, _ := drainChangeFeed(t, env, c, azcosmos.ChangeFeedOptions{FeedRange: &fr3, PartitionKey: &pk})
		var wantK3 []any
		for i := 3; i < 30; i += 7 {
			wantK3 = append(wantK3, fmt.Sprintf("i%02d", i))
		}
		if !sameRows(toAny(k3), wantK3, false) {
			t.Errorf("change feed of partition key k3: %v, want %v", k3, wantK3)
		}
	})
}

func TestThroughputReadReplace(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "tp", []string{"/pk"}, 400)
		env.must(t, "read throughput", func() error {
			r, err := c.ReadThroughput(ctx, nil)
			if err == nil {
				if v, ok := r.ThroughputProperties.ManualThroughput(); !ok || v != 400 {
					t.Errorf("throughput %d (manual %v), want 400", v, ok)
				}
			}
			return err
		})
		env.must(t, "replace throughput", func() error {
			r, err := c.ReplaceThroughput(ctx, azcosmos.NewManualThroughputProperties(1000), nil)
			if err == nil {
				if v, _ := r.ThroughputProperties.ManualThroughput(); v != 1000 {
					t.Errorf("replaced throughput %d, want 1000", v)
				}
			}
			return err
		})
		env.must(t, "read replaced throughput", func() error {
			r, err := c.ReadThroughput(ctx, nil)
			if err == nil {
				if v, _ := r.ThroughputProperties.ManualThroughput(); v != 1000 {
					t.Errorf("throughput after replace %d, want 1000", v)
				}
			}
			return err
		})
		// Autoscale on a new container.
		as := azcosmos.NewAutoscaleThroughputProperties(4000)
		env.must(t, "create autoscale container", func() error {
			_, err := env.db.CreateContainer(ctx, containerProperties("auto", containerSpec{PartitionKeyPaths: []string{"/pk"}}), &azcosmos.CreateContainerOptions{ThroughputProperties: &as})
			return err
		})
		auto, _ := env.db.NewContainer("auto")
		env.must(t, "read autoscale throughput", func() error {
			r, err := auto.ReadThroughput(ctx, nil)
			if err == nil {
				if v, ok := r.ThroughputProperties.AutoscaleMaxThroughput(); !ok || v != 4000 {
					t.Errorf("autoscale max %d (%v), want 4000", v, ok)
				}
			}
			return err
		})
		// Below the minimum: 400 is the least manual throughput of a container.
		env.expectStatus(t, "replace throughput below the minimum", 400, "", func() error {
			_, err := c.ReplaceThroughput(ctx, azcosmos.NewManualThroughputProperties(100), nil)
			return err
		})
	})
}

// TestRetriesOn429: a container over its RU/s answers 429 (substatus 3200) with
// x-ms-retry-after-ms; the SDK's retry policy waits and the call succeeds.
func TestRetriesOn429(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--enforce-throughput")
		env := newGoEnv(t, storage, srv, func(o *azcosmos.ClientOptions) {
			o.Retry = policy.RetryOptions{MaxRetries: 8, RetryDelay: 100 * time.Millisecond, MaxRetryDelay: 5 * time.Second}
		})
		ctx := ctxFor(t, 120*time.Second)
		c := env.container(t, "hot", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("hot")
		// One ~1.5 MB create (hundreds of RU) is admitted on a full bucket and leaves the
		// partition in debt for about a second at 400 RU/s.
		var bigCharge float32
		env.must(t, "big create", func() error {
			r, err := c.CreateItem(ctx, pk, doc("id", "big", "pk", "hot", "pad", strings.Repeat("x", 1500*1024)), nil)
			bigCharge = r.RequestCharge
			return err
		})
		if bigCharge < 400 {
			t.Fatalf("a 1.5 MB create cost %v RU, want more than the 400 RU/s budget", bigCharge)
		}
		mark := env.rec.mark()
		start := time.Now()
		for i := 0; i < 5; i++ {
			id := fmt.Sprintf("s%d", i)
			env.must(t, "create after the big one "+id, func() error {
				_, err := c.CreateItem(ctx, pk, doc("id", id, "pk", "hot"), nil)
				return err
			})
		}
		elapsed := time.Since(start)
		var throttled []exchange
		for _, e := range env.rec.since(mark) {
			if e.status == 429 {
				throttled = append(throttled, e)
			}
		}
		if len(throttled) == 0 {
			t.Fatalf("no 429 reached the SDK after a %v RU create on a 400 RU/s container (took %v)\n%s", bigCharge, elapsed, env.rec.wire(mark))
		}
		for _, e := range throttled {
			if e.substatus != "3200" {
				t.Errorf("429 with substatus %q, want 3200: %s", e.substatus, e)
			}
			if ms, err := strconv.ParseFloat(e.retryAfterMs, 64); err != nil || ms <= 0 {
				t.Errorf("429 without a positive x-ms-retry-after-ms: %s (retry-after %q)", e, e.retryAfterMs)
			}
		}
		t.Logf("%d 429s retried by the SDK; 5 creates took %v", len(throttled), elapsed)
		// Every create is there.
		for i := 0; i < 5; i++ {
			id := fmt.Sprintf("s%d", i)
			env.must(t, "read "+id, func() error { _, err := c.ReadItem(ctx, pk, id, nil); return err })
		}
	})
}

func TestSessionTokens(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "sess", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("p")
		var token string
		env.must(t, "create", func() error {
			r, err := c.CreateItem(ctx, pk, doc("id", "a", "pk", "p"), nil)
			if err == nil {
				if r.SessionToken == nil || *r.SessionToken == "" {
					t.Fatalf("create returned no session token")
				}
				token = *r.SessionToken
			}
			return err
		})
		// The service's form is "<pkrange id>:<version>#<lsn>..." (e.g. "0:-1#12").
		if parts := strings.SplitN(token, ":", 2); len(parts) != 2 || parts[0] == "" || !strings.Contains(parts[1], "#") {
			t.Errorf("session token %q is not <pkrange>:<version>#<lsn>", token)
		}
		mark := env.rec.mark()
		env.must(t, "read with the session token", func() error {
			r, err := c.ReadItem(ctx, pk, "a", &azcosmos.ItemOptions{SessionToken: &token})
			if err == nil && (r.SessionToken == nil || *r.SessionToken == "") {
				t.Errorf("read returned no session token")
			}
			return err
		})
		sent := false
		for _, e := range env.rec.since(mark) {
			sent = sent || e.sessionSent == token
		}
		if !sent {
			t.Errorf("the SDK did not send x-ms-session-token %q\n%s", token, env.rec.wire(mark))
		}
		var token2 string
		env.must(t, "replace", func() error {
			r, err := c.ReplaceItem(ctx, pk, "a", doc("id", "a", "pk", "p", "v", 2), &azcosmos.ItemOptions{SessionToken: &token})
			if err == nil && r.SessionToken != nil {
				token2 = *r.SessionToken
			}
			return err
		})
		if token2 == "" || token2 == token {
			t.Errorf("session token after a second write %q, want a new one (first %q)", token2, token)
		}
		lsn := func(tok string) int64 {
			i := strings.LastIndex(tok, "#")
			n, _ := strconv.ParseInt(tok[i+1:], 10, 64)
			return n
		}
		if lsn(token2) <= lsn(token) {
			t.Errorf("session LSN did not advance: %q then %q", token, token2)
		}
		mark = env.rec.mark()
		env.must(t, "query with the session token", func() error {
			res, err := readPages(ctx, c, "SELECT VALUE c.v FROM c", pk, azcosmos.QueryOptions{SessionToken: &token2})
			if err == nil && rowsString(res.rows) != "[2]" {
				t.Errorf("query at session %q: %s, want [2]", token2, rowsString(res.rows))
			}
			return err
		})
		sent = false
		for _, e := range env.rec.since(mark) {
			sent = sent || e.sessionSent == token2
		}
		if !sent {
			t.Errorf("the query did not send x-ms-session-token %q", token2)
		}
		// A batch returns a session token too.
		b := c.NewTransactionalBatch(pk)
		b.UpsertItem(doc("id", "b", "pk", "p"), nil)
		env.must(t, "batch", func() error {
			r, err := c.ExecuteTransactionalBatch(ctx, b, &azcosmos.TransactionalBatchOptions{SessionToken: token2})
			if err == nil && (r.SessionToken == "" || lsn(r.SessionToken) <= lsn(token2)) {
				t.Errorf("batch session token %q after %q", r.SessionToken, token2)
			}
			return err
		})
	})
}

// TestSplit: a container splits (--partition-split-bytes 49152) while writers, point
// readers and a paged cross-partition query work on; no error surfaces, and afterwards
// every item reads back, paged queries (including one resumed from a token saved
// before the splits) give every item once, and the change feed gives every item once.
func TestSplit(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--partition-split-bytes", "49152")
		env := newGoEnv(t, storage, srv, nil)
		ctx := ctxFor(t, 180*time.Second)
		c := env.container(t, "split", []string{"/tenant", "/device"}, 400)
		pkOf := func(i int) (string, string, azcosmos.PartitionKey) {
			tenant := fmt.Sprintf("t%d", i%5)
			if i%2 == 0 {
				tenant = "whale"
			}
			device := fmt.Sprintf("d%d", i%40)
			return tenant, device, azcosmos.NewPartitionKey().AppendString(tenant).AppendString(device)
		}
		pad := strings.Repeat("x", 300)
		create := func(i int) error {
			tenant, device, pk := pkOf(i)
			_, err := c.CreateItem(ctx, pk, doc("id", fmt.Sprintf("w%04d", i), "tenant", tenant, "device", device, "n", i, "pad", pad), nil)
			return err
		}
		// 60 items before: a paged query starts over them and saves its token.
		const before, total = 60, 900
		for i := 0; i < before; i++ {
			env.must(t, "seed", func() error { return create(i) })
		}
		ranges0, err := c.ReadFeedRanges(ctx, nil)
		if err != nil {
			t.Fatal(describeErr(err))
		}
		pager := c.NewQueryItemsPager("SELECT VALUE c.id FROM c", azcosmos.NewPartitionKey(), &azcosmos.QueryOptions{PageSizeHint: 10})
		first, err := pager.NextPage(ctx)
		if err != nil || first.ContinuationToken == nil {
			t.Fatalf("first page before the splits: %s (token %v)", describeErr(err), first.ContinuationToken)
		}
		savedToken := *first.ContinuationToken
		var firstIDs []string
		for _, it := range first.Items {
			var s string
			_ = json.Unmarshal(it, &s)
			firstIDs = append(firstIDs, s)
		}

		// Writers (4), a point reader and a query loop while the container splits.
		var next atomic.Int64
		next.Store(before)
		var mu sync.Mutex
		var errs []string
		fail := func(what string, err error) {
			mu.Lock()
			defer mu.Unlock()
			if len(errs) < 10 {
				errs = append(errs, what+": "+describeErr(err))
			}
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1) - 1)
					if i >= total {
						return
					}
					if err := create(i); err != nil {
						fail(fmt.Sprintf("create w%04d", i), err)
					}
				}
			}()
		}
		var loops sync.WaitGroup
		loops.Add(2)
		go func() { // point reads of items written before the splits
			defer loops.Done()
			for i := 0; ; i = (i + 1) % before {
				select {
				case <-stop:
					return
				default:
				}
				_, _, pk := pkOf(i)
				if _, err := c.ReadItem(ctx, pk, fmt.Sprintf("w%04d", i), nil); err != nil {
					fail(fmt.Sprintf("read w%04d", i), err)
				}
			}
		}()
		go func() { // a paged cross-partition query loop: each pass sees every seeded item once
			defer loops.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := readPages(ctx, c, "SELECT VALUE c.id FROM c WHERE c.n < @b", azcosmos.NewPartitionKey(), azcosmos.QueryOptions{PageSizeHint: 25, QueryParameters: []azcosmos.QueryParameter{{Name: "@b", Value: before}}})
				if err != nil {
					fail("query loop", err)
					continue
				}
				if len(res.rows) != before || len(uniq(res.rows)) != before {
					fail("query loop", fmt.Errorf("%d rows (%d distinct), want %d", len(res.rows), len(uniq(res.rows)), before))
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		wg.Wait()
		// Let the splitter catch up (it splits in the background) while reads and the
		// query loop go on: wait until the count of physical partitions is stable.
		parts0 := physicalPartitions(t, srv, env.db.ID(), "split")
		partitions := 0
		for i := 0; i < 120; i++ {
			now := physicalPartitions(t, srv, env.db.ID(), "split")
			if now == partitions && now >= 4 {
				break
			}
			partitions = now
			time.Sleep(500 * time.Millisecond)
		}
		close(stop)
		loops.Wait()
		if len(errs) > 0 {
			t.Fatalf("%s [%s] errors while splitting:\n  %s", sdkName, storage, strings.Join(errs, "\n  "))
		}
		if partitions < 4 {
			t.Fatalf("the container did not split: %d physical partitions after %d items of ~400 B over a 48 KB split size (ranges seen by the SDK before: %d)", partitions, total, len(ranges0))
		}
		t.Logf("physical partitions: %d right after the writes, %d when stable", parts0, partitions)

		var wantAll []any
		for i := 0; i < total; i++ {
			wantAll = append(wantAll, fmt.Sprintf("w%04d", i))
		}
		// Every item reads back.
		for i := 0; i < total; i++ {
			_, _, pk := pkOf(i)
			id := fmt.Sprintf("w%04d", i)
			if _, err := c.ReadItem(ctx, pk, id, nil); err != nil {
				t.Fatalf("read %s after the splits: %s", id, describeErr(err))
			}
		}
		// Resume the query from the token saved before the splits: the first page plus the
		// rest hold each item once; items written during the query may or may not appear,
		// the 60 seeded ones must.
		resumed, err := readPages(ctx, c, "SELECT VALUE c.id FROM c", azcosmos.NewPartitionKey(), azcosmos.QueryOptions{PageSizeHint: 10, ContinuationToken: &savedToken})
		if err != nil {
			t.Fatalf("resuming the query from a token saved before the splits: %s", describeErr(err))
		}
		all := append(toAny(firstIDs), resumed.rows...)
		if u := uniq(all); len(u) != len(all) {
			t.Errorf("resumed query across splits: %d rows, %d distinct (doubled rows)", len(all), len(u))
		}
		seen := map[string]bool{}
		for _, r := range all {
			seen[fmt.Sprint(r)] = true
		}
		for i := 0; i < before; i++ {
			if !seen[fmt.Sprintf("w%04d", i)] {
				t.Errorf("resumed query across splits missed w%04d", i)
			}
		}
		// A fresh paged query from the early client and from a new client: every item once.
		late, err := srv.newClient(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		lateC, _ := late.NewContainer(env.db.ID(), "split")
		for name, cc := range map[string]*azcosmos.ContainerClient{"early client": c, "new client": lateC} {
			res, err := readPages(ctx, cc, "SELECT VALUE c.id FROM c", azcosmos.NewPartitionKey(), azcosmos.QueryOptions{PageSizeHint: 100})
			if err != nil {
				t.Fatalf("%s query after the splits: %s", name, describeErr(err))
			}
			if !sameRows(res.rows, wantAll, false) {
				t.Errorf("%s query after the splits: %d rows (%d distinct), want each of %d once", name, len(res.rows), len(uniq(res.rows)), total)
			}
		}
		// The change feed over the whole container: every item once.
		fr := wholeRange
		ids, _ := drainChangeFeed(t, env, c, azcosmos.ChangeFeedOptions{FeedRange: &fr, MaxItemCount: 100})
		if !sameRows(toAny(ids), wantAll, false) {
			sort.Strings(ids)
			t.Errorf("change feed after the splits: %d changes (%d distinct), want each of %d once", len(ids), len(uniq(toAny(ids))), total)
		}
	})
}

func uniq(rows []any) map[string]bool {
	m := map[string]bool{}
	for _, r := range rows {
		m[canon(r)] = true
	}
	return m
}

// physicalPartitions asks the running server (`orrery stats --json`, its admin call) how
// many physical partitions a container has now. The SDK's own ReadFeedRanges answers
// from its routing-map cache, which learns of splits only when a request meets a 410.
func physicalPartitions(t *testing.T, srv *server, db, container string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, os.Getenv("ORRERY_BIN"), "stats", "--endpoint", strings.TrimSuffix(srv.endpoint, "/"), "-d", db, "-c", container, "--json").Output()
	if err != nil {
		t.Fatalf("orrery stats: %v", err)
	}
	var stats struct {
		PhysicalPartitions []json.RawMessage `json:"physicalPartitions"`
	}
	if err := json.Unmarshal(out, &stats); err != nil {
		t.Fatalf("orrery stats --json: %v: %s", err, out)
	}
	return len(stats.PhysicalPartitions)
}
