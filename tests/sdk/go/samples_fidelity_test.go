package orrerygo

// What Microsoft's samples and the service's documentation do that Orrery once got wrong
// (issue 47), as far as azcosmos v1.5.0 exposes it: legacy non-partitioned containers
// (the system key /_partitionKey), x-ms-indexing-directive and `automatic: false`, the
// root index path "/", patch set at an array's length, the order of GROUP BY groups, and
// the x-ms-substatus of errors. Expected values come from the samples and the
// documentation, or are computed here from what the test wrote.

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

// headerSpy is a per-retry policy that remembers, per request, the headers these tests
// are about (the SDK's choice, checked on the wire rather than assumed).
type headerSpy struct {
	mu   sync.Mutex
	seen []sentHeaders
}

type sentHeaders struct {
	method, path      string
	hasPartitionKey   bool
	partitionKey      string
	indexingDirective string
	throughputBucket  string // x-ms-cosmos-throughput-bucket ("" when absent)
	priorityLevel     string // x-ms-cosmos-priority-level ("" when absent)
}

func (s *headerSpy) Do(req *policy.Request) (*http.Response, error) {
	h := req.Raw().Header
	_, has := h[http.CanonicalHeaderKey("x-ms-documentdb-partitionkey")]
	s.mu.Lock()
	s.seen = append(s.seen, sentHeaders{method: req.Raw().Method, path: req.Raw().URL.Path, hasPartitionKey: has,
		partitionKey: h.Get("x-ms-documentdb-partitionkey"), indexingDirective: h.Get("x-ms-indexing-directive"),
		throughputBucket: h.Get("x-ms-cosmos-throughput-bucket"), priorityLevel: h.Get("x-ms-cosmos-priority-level")})
	s.mu.Unlock()
	return req.Next()
}

// last is the latest request sent.
func (s *headerSpy) last() sentHeaders {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return sentHeaders{}
	}
	return s.seen[len(s.seen)-1]
}

func withSpy(spy *headerSpy) func(*azcosmos.ClientOptions) {
	return func(o *azcosmos.ClientOptions) { o.PerRetryPolicies = append(o.PerRetryPolicies, spy) }
}

// rawResponse is what a hand-signed REST call got back.
type rawResponse struct {
	status int
	header http.Header
	body   []byte
}

func (r rawResponse) String() string {
	return fmt.Sprintf("status %d substatus %q body %s", r.status, r.header.Get("x-ms-substatus"), r.body)
}

// rawCosmos sends one REST call signed with the master key as the REST reference
// ("Access control on Azure Cosmos DB resources") describes: the signature is
// base64(HMAC-SHA256(key, lower(verb)\nresourceType\nresourceLink\nlower(x-ms-date)\n\n)).
func rawCosmos(t *testing.T, srv *server, method, resourceType, resourceLink, path, version string, body []byte) rawResponse {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(emulatorKey)
	if err != nil {
		t.Fatal(err)
	}
	date := time.Now().UTC().Format(http.TimeFormat) // RFC 1123, "GMT"
	text := strings.ToLower(method) + "\n" + resourceType + "\n" + resourceLink + "\n" + strings.ToLower(date) + "\n\n"
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(text))
	sig := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctxFor(t, 30*time.Second), method, srv.endpoint+path, rdr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", url.QueryEscape("type=master&ver=1.0&sig="+sig))
	req.Header.Set("x-ms-date", date)
	req.Header.Set("x-ms-version", version)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return rawResponse{status: resp.StatusCode, header: resp.Header, body: b}
}

// queryStrings runs a query (of `SELECT VALUE c.id ...` style) and returns its rows as strings.
func queryStrings(t *testing.T, env *goEnv, c *azcosmos.ContainerClient, query string, pk azcosmos.PartitionKey, params ...azcosmos.QueryParameter) []string {
	t.Helper()
	var out []string
	env.must(t, "query "+query, func() error {
		res, err := readPages(ctxFor(t, 30*time.Second), c, query, pk, azcosmos.QueryOptions{QueryParameters: params})
		if err != nil {
			return err
		}
		for _, r := range res.rows {
			out = append(out, fmt.Sprint(r))
		}
		return nil
	})
	return out
}

// queryRows runs a query and returns its rows decoded.
func queryRows(t *testing.T, env *goEnv, c *azcosmos.ContainerClient, query string, pk azcosmos.PartitionKey, params ...azcosmos.QueryParameter) []any {
	t.Helper()
	var out []any
	env.must(t, "query "+query, func() error {
		res, err := readPages(ctxFor(t, 30*time.Second), c, query, pk, azcosmos.QueryOptions{QueryParameters: params})
		out = res.rows
		return err
	})
	return out
}

func idsOfRows(rows []any) []string {
	var ids []string
	for _, r := range rows {
		if m, ok := r.(map[string]any); ok {
			ids = append(ids, fmt.Sprint(m["id"]))
		} else {
			ids = append(ids, "<not an object: "+canon(r)+">")
		}
	}
	return ids
}

// 1. Legacy non-partitioned containers. A container created by a client of an API version
// before 2018-12-31 without a partition key (as the Java SDK's CosmosPartitionKeyTests
// does, x-ms-version 2018-09-17) gets the system key /_partitionKey; newer clients address
// its items without a key value by "no key" — the Go SDK's NewPartitionKey(), which it
// sends as no x-ms-documentdb-partitionkey header at all (cosmos_headers_policy.go adds
// the header only when the key has values).
func TestFidelityLegacyNonPartitionedContainer(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := sharedServer(t, storage)
		spy := &headerSpy{}
		env := newGoEnv(t, storage, srv, withSpy(spy))
		ctx := ctxFor(t, 60*time.Second)
		dbID := env.db.ID()
		// noKeySent checks that the last request went without a partition key header.
		noKeySent := func(what string) {
			t.Helper()
			if l := spy.last(); l.hasPartitionKey {
				t.Errorf("%s with NewPartitionKey(): the SDK sent x-ms-documentdb-partitionkey %q (%s %s), this test expects none", what, l.partitionKey, l.method, l.path)
			}
		}
		created := rawCosmos(t, srv, http.MethodPost, "colls", "dbs/"+dbID, "dbs/"+url.PathEscape(dbID)+"/colls", "2018-09-17", []byte(`{"id":"legacy"}`))
		if created.status != 201 {
			t.Fatalf("POST dbs/%s/colls {\"id\":\"legacy\"} with x-ms-version 2018-09-17: %s, want 201", dbID, created)
		}
		c, _ := env.db.NewContainer("legacy")

		env.must(t, "read the legacy container", func() error {
			r, err := c.Read(ctx, nil)
			if err == nil {
				if p := r.ContainerProperties.PartitionKeyDefinition.Paths; len(p) != 1 || p[0] != "/_partitionKey" {
					t.Errorf("legacy container partition key paths %v, want [/_partitionKey]", p)
				}
			}
			return err
		})

		none := azcosmos.NewPartitionKey()
		env.must(t, "create an item without _partitionKey (no key header)", func() error {
			r, err := c.CreateItem(ctx, none, doc("id", "old", "n", 1), nil)
			if err == nil && r.RawResponse.StatusCode != 201 {
				t.Errorf("create: status %d, want 201", r.RawResponse.StatusCode)
			}
			return err
		})
		noKeySent("create")
		env.must(t, "create an item with _partitionKey k", func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString("k"), doc("id", "keyed", "_partitionKey", "k", "n", 2), nil)
			return err
		})
		env.must(t, "read the item without _partitionKey", func() error {
			r, err := c.ReadItem(ctx, none, "old", nil)
			if err == nil && decode(t, r.Value)["n"] != 1.0 {
				t.Errorf("read old: %s, want n=1", r.Value)
			}
			return err
		})
		noKeySent("read")
		env.must(t, "read the item with _partitionKey k", func() error {
			r, err := c.ReadItem(ctx, azcosmos.NewPartitionKeyString("k"), "keyed", nil)
			if err == nil && decode(t, r.Value)["n"] != 2.0 {
				t.Errorf("read keyed: %s, want n=2", r.Value)
			}
			return err
		})
		if l := spy.last(); l.partitionKey != `["k"]` {
			t.Errorf("read with NewPartitionKeyString(\"k\") sent x-ms-documentdb-partitionkey %q, want [\"k\"]", l.partitionKey)
		}
		env.must(t, "replace the item without _partitionKey", func() error {
			_, err := c.ReplaceItem(ctx, none, "old", doc("id", "old", "n", 3), nil)
			return err
		})
		noKeySent("replace")
		var ops azcosmos.PatchOperations
		ops.AppendIncrement("/n", 1)
		env.must(t, "patch the item without _partitionKey", func() error {
			r, err := c.PatchItem(ctx, none, "old", ops, &azcosmos.ItemOptions{EnableContentResponseOnWrite: true})
			if err == nil && decode(t, r.Value)["n"] != 4.0 {
				t.Errorf("patched old: %s, want n=4 (3 replaced, +1)", r.Value)
			}
			return err
		})
		noKeySent("patch")
		if got := queryStrings(t, env, c, "SELECT VALUE c.id FROM c", azcosmos.NewPartitionKeyString("k")); strings.Join(got, ",") != "keyed" {
			t.Errorf("query with partition key k: %v, want [keyed]", got)
		}
		if got := queryStrings(t, env, c, "SELECT VALUE c.id FROM c", none); !sameRows(toAny(got), []any{"old", "keyed"}, false) {
			t.Errorf("query of the whole container: %v, want old and keyed", got)
		}

		// The SDK's ContainerProperties has no systemKey (partition_key_definition.go), so a
		// replace sends the definition without it; the container stays a system-key one.
		env.must(t, "replace the legacy container through the SDK", func() error {
			r, err := c.Read(ctx, nil)
			if err != nil {
				return err
			}
			props := *r.ContainerProperties
			ttl := int32(3600)
			props.DefaultTimeToLive = &ttl
			rr, err := c.Replace(ctx, props, nil)
			if err == nil && (rr.ContainerProperties.DefaultTimeToLive == nil || *rr.ContainerProperties.DefaultTimeToLive != 3600) {
				t.Errorf("replaced legacy container default TTL %v, want 3600", rr.ContainerProperties.DefaultTimeToLive)
			}
			return err
		})
		got := rawCosmos(t, srv, http.MethodGet, "colls", "dbs/"+dbID+"/colls/legacy", "dbs/"+url.PathEscape(dbID)+"/colls/legacy", "2020-11-05", nil)
		if got.status != 200 {
			t.Fatalf("GET the legacy container after the replace: %s", got)
		}
		var coll struct {
			PartitionKey struct {
				Paths     []string `json:"paths"`
				SystemKey *bool    `json:"systemKey"`
			} `json:"partitionKey"`
			DefaultTTL *int `json:"defaultTtl"`
		}
		if err := json.Unmarshal(got.body, &coll); err != nil {
			t.Fatalf("GET the legacy container: %v: %s", err, got.body)
		}
		if coll.PartitionKey.SystemKey == nil || !*coll.PartitionKey.SystemKey || strings.Join(coll.PartitionKey.Paths, ",") != "/_partitionKey" {
			t.Errorf("legacy container after an SDK replace: partitionKey %s, want paths [/_partitionKey] and systemKey true", got.body)
		}
		if coll.DefaultTTL == nil || *coll.DefaultTTL != 3600 {
			t.Errorf("legacy container after an SDK replace: defaultTtl %v, want 3600", coll.DefaultTTL)
		}
		env.must(t, "read the item without _partitionKey after the container replace", func() error {
			_, err := c.ReadItem(ctx, none, "old", nil)
			return err
		})

		env.must(t, "delete the item without _partitionKey", func() error {
			r, err := c.DeleteItem(ctx, none, "old", nil)
			if err == nil && r.RawResponse.StatusCode != 204 {
				t.Errorf("delete: status %d, want 204", r.RawResponse.StatusCode)
			}
			return err
		})
		noKeySent("delete")
		env.expectStatus(t, "read the deleted item without _partitionKey", 404, "0", func() error {
			_, err := c.ReadItem(ctx, none, "old", nil)
			return err
		})
		env.must(t, "read the item with _partitionKey k after the delete", func() error {
			_, err := c.ReadItem(ctx, azcosmos.NewPartitionKeyString("k"), "keyed", nil)
			return err
		})
	})
}

// orderQuery is index_management.py's query: SELECT * FROM r WHERE r.orderId=@orderNo,
// across partitions (the containers below are keyed by /id).
func orderQuery(t *testing.T, env *goEnv, c *azcosmos.ContainerClient, order string) []string {
	t.Helper()
	return idsOfRows(queryRows(t, env, c, "SELECT * FROM r WHERE r.orderId = @o", azcosmos.NewPartitionKey(), azcosmos.QueryParameter{Name: "@o", Value: order}))
}

// 2a. x-ms-indexing-directive Exclude (index_management.py's explicitly_exclude_from_index):
// the item is not found by a query on its properties, but by a point read and by id.
func TestFidelityIndexingDirectiveExclude(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		spy := &headerSpy{}
		env := newGoEnv(t, storage, sharedServer(t, storage), withSpy(spy))
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "excl", []string{"/id"}, 400)
		env.must(t, "create doc1 (no directive)", func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString("doc1"), doc("id", "doc1", "orderId", "order1"), nil)
			return err
		})
		if got := orderQuery(t, env, c, "order1"); strings.Join(got, ",") != "doc1" {
			t.Errorf("orderId query for an indexed item: %v, want [doc1]", got)
		}
		env.must(t, "create doc2 with IndexingDirectiveExclude", func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString("doc2"), doc("id", "doc2", "orderId", "order2"),
				&azcosmos.ItemOptions{IndexingDirective: azcosmos.IndexingDirectiveExclude.ToPtr()})
			return err
		})
		if l := spy.last(); l.indexingDirective != "Exclude" {
			t.Errorf("create with IndexingDirectiveExclude sent x-ms-indexing-directive %q, want Exclude", l.indexingDirective)
		}
		if got := orderQuery(t, env, c, "order2"); len(got) != 0 {
			t.Errorf("orderId query for an item created with x-ms-indexing-directive Exclude: %v, want none", got)
		}
		env.must(t, "read doc2", func() error {
			r, err := c.ReadItem(ctx, azcosmos.NewPartitionKeyString("doc2"), "doc2", nil)
			if err == nil && decode(t, r.Value)["orderId"] != "order2" {
				t.Errorf("read doc2: %s", r.Value)
			}
			return err
		})
		if got := idsOfRows(queryRows(t, env, c, "SELECT * FROM r WHERE r.id = 'doc2'", azcosmos.NewPartitionKey())); strings.Join(got, ",") != "doc2" {
			t.Errorf("id query for the excluded item: %v, want [doc2]", got)
		}
		// Include on a create is the opposite: indexed.
		env.must(t, "create doc3 with IndexingDirectiveInclude", func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString("doc3"), doc("id", "doc3", "orderId", "order3"),
				&azcosmos.ItemOptions{IndexingDirective: azcosmos.IndexingDirectiveInclude.ToPtr()})
			return err
		})
		if got := orderQuery(t, env, c, "order3"); strings.Join(got, ",") != "doc3" {
			t.Errorf("orderId query for an item created with Include: %v, want [doc3]", got)
		}
	})
}

// 2b. A container with automatic: false (index_management.py's use_manual_indexing): items
// written without a directive are not indexed; with Include they are.
func TestFidelityManualIndexing(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		props := azcosmos.ContainerProperties{
			ID:                     "manual",
			PartitionKeyDefinition: azcosmos.PartitionKeyDefinition{Paths: []string{"/id"}, Kind: azcosmos.PartitionKeyKindHash, Version: 2},
			IndexingPolicy: &azcosmos.IndexingPolicy{
				Automatic:     false,
				IndexingMode:  azcosmos.IndexingModeConsistent,
				IncludedPaths: []azcosmos.IncludedPath{{Path: "/*"}},
			},
		}
		env.must(t, "create a container with automatic false", func() error {
			_, err := env.db.CreateContainer(ctx, props, nil)
			return err
		})
		c, _ := env.db.NewContainer("manual")
		env.must(t, "read the container", func() error {
			r, err := c.Read(ctx, nil)
			if err == nil && (r.ContainerProperties.IndexingPolicy == nil || r.ContainerProperties.IndexingPolicy.Automatic) {
				t.Errorf("indexing policy read back %+v, want automatic false", r.ContainerProperties.IndexingPolicy)
			}
			return err
		})
		env.must(t, "create doc1 (no directive)", func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString("doc1"), doc("id", "doc1", "orderId", "order1"), nil)
			return err
		})
		if got := orderQuery(t, env, c, "order1"); len(got) != 0 {
			t.Errorf("orderId query for an item written without a directive under automatic false: %v, want none", got)
		}
		env.must(t, "read doc1", func() error {
			_, err := c.ReadItem(ctx, azcosmos.NewPartitionKeyString("doc1"), "doc1", nil)
			return err
		})
		env.must(t, "create doc2 with IndexingDirectiveInclude", func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString("doc2"), doc("id", "doc2", "orderId", "order2"),
				&azcosmos.ItemOptions{IndexingDirective: azcosmos.IndexingDirectiveInclude.ToPtr()})
			return err
		})
		if got := orderQuery(t, env, c, "order2"); strings.Join(got, ",") != "doc2" {
			t.Errorf("orderId query for an item written with Include under automatic false: %v, want [doc2]", got)
		}
	})
}

// 3. The root path "/" (index_management.py's range_scan_on_hash_index): included "/" with
// "/length/*" excluded is accepted, read back as written, and queries on other paths work.
func TestFidelityRootIndexPath(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		props := azcosmos.ContainerProperties{
			ID:                     "root",
			PartitionKeyDefinition: azcosmos.PartitionKeyDefinition{Paths: []string{"/id"}, Kind: azcosmos.PartitionKeyKindHash, Version: 2},
			IndexingPolicy: &azcosmos.IndexingPolicy{
				Automatic:     true,
				IndexingMode:  azcosmos.IndexingModeConsistent,
				IncludedPaths: []azcosmos.IncludedPath{{Path: "/"}},
				ExcludedPaths: []azcosmos.ExcludedPath{{Path: "/length/*"}},
			},
		}
		env.must(t, "create a container including / and excluding /length/*", func() error {
			_, err := env.db.CreateContainer(ctx, props, nil)
			return err
		})
		c, _ := env.db.NewContainer("root")
		env.must(t, "read the container", func() error {
			r, err := c.Read(ctx, nil)
			if err != nil {
				return err
			}
			ip := r.ContainerProperties.IndexingPolicy
			if ip == nil {
				t.Fatalf("no indexing policy read back")
			}
			var inc, exc []string
			for _, p := range ip.IncludedPaths {
				inc = append(inc, p.Path)
			}
			for _, p := range ip.ExcludedPaths {
				exc = append(exc, p.Path)
			}
			if strings.Join(inc, ",") != "/" {
				t.Errorf("included paths read back %v, want [/]", inc)
			}
			if !contains(exc, "/length/*") {
				t.Errorf("excluded paths read back %v, want /length/* among them", exc)
			}
			return nil
		})
		for _, d := range []map[string]any{
			{"id": "dyn1", "length": 10, "width": 5, "height": 15},
			{"id": "dyn2", "length": 7, "width": 15},
			{"id": "dyn3", "length": 2},
		} {
			b, _ := json.Marshal(d)
			env.must(t, "create "+d["id"].(string), func() error {
				_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString(d["id"].(string)), b, nil)
				return err
			})
		}
		if got := queryStrings(t, env, c, "SELECT VALUE r.id FROM r WHERE r.width > 10", azcosmos.NewPartitionKey()); strings.Join(got, ",") != "dyn2" {
			t.Errorf("query on /width under an index of /: %v, want [dyn2]", got)
		}
	})
}

// 4. Patch (Microsoft's Java SamplePatchQuickstart): set at an index equal to the array's
// length appends; replace needs an existing element; add beyond the length is refused; a
// refused patch leaves the item as it was.
func TestFidelityPatchArrayIndex(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "patcharr", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("p")
		one := []any{map[string]any{"name": "c1"}}
		for _, id := range []string{"parent", "single"} {
			env.must(t, "create "+id, func() error {
				_, err := c.CreateItem(ctx, pk, doc("id", id, "pk", "p", "children", one), nil)
				return err
			})
		}
		var set azcosmos.PatchOperations
		set.AppendSet("/children/1", map[string]any{"name": "c4"})
		env.must(t, "patch set /children/1 on a one-element array", func() error {
			r, err := c.PatchItem(ctx, pk, "parent", set, &azcosmos.ItemOptions{EnableContentResponseOnWrite: true})
			if err == nil {
				want := []any{map[string]any{"name": "c1"}, map[string]any{"name": "c4"}}
				if got := decode(t, r.Value)["children"]; canon(got) != canon(want) {
					t.Errorf("children after set at the array's length: %s, want %s", canon(got), canon(want))
				}
			}
			return err
		})

		var before map[string]any
		env.must(t, "read single", func() error {
			r, err := c.ReadItem(ctx, pk, "single", nil)
			if err == nil {
				before = decode(t, r.Value)
			}
			return err
		})
		var replace azcosmos.PatchOperations
		replace.AppendReplace("/children/1", map[string]any{"name": "c5"})
		env.expectStatus(t, "patch replace /children/1 on a one-element array", 400, "", func() error {
			_, err := c.PatchItem(ctx, pk, "single", replace, nil)
			return err
		})
		var add azcosmos.PatchOperations
		add.AppendAdd("/children/2", map[string]any{"name": "c5"})
		env.expectStatus(t, "patch add /children/2 on a one-element array", 400, "", func() error {
			_, err := c.PatchItem(ctx, pk, "single", add, nil)
			return err
		})
		env.must(t, "read single after the refused patches", func() error {
			r, err := c.ReadItem(ctx, pk, "single", nil)
			if err == nil {
				after := decode(t, r.Value)
				if canon(after["children"]) != canon(one) || after["_etag"] != before["_etag"] {
					t.Errorf("after refused patches: children %s etag %v, want %s and etag %v unchanged", canon(after["children"]), after["_etag"], canon(one), before["_etag"])
				}
			}
			return err
		})
	})
}

// 5. GROUP BY order: the employees of Microsoft's query samples
// (Azure-Samples/cosmos-db-nosql-query-samples, scripts/group-by-aggregate/seed.json), all
// of one partition key value, created in the seed's order.
func TestFidelityGroupByOrder(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		const team = "Cloud software engineering"
		c := env.container(t, "employees", []string{"/team"}, 400)
		pk := azcosmos.NewPartitionKeyString(team)
		employees := []struct {
			id, lang string // "" = no softwareDevelopment
			media    bool
		}{
			{"3548979698", "python", true},
			{"4228924547", "javascript", false},
			{"2941063066", "c-sharp", true},
			{"9318573296", "javascript", true},
			{"3601062997", "", true},
			{"7074932233", "python", false},
			{"3798545532", "javascript", true},
		}
		for _, e := range employees {
			caps := map[string]any{"mediaTrained": e.media}
			if e.lang != "" {
				caps["softwareDevelopment"] = e.lang
			}
			env.must(t, "create "+e.id, func() error {
				_, err := c.CreateItem(ctx, pk, doc("id", e.id, "capabilities", caps, "team", team), nil)
				return err
			})
		}
		two := queryRows(t, env, c, `SELECT COUNT(1) AS employeesWithThisTraining, e.capabilities.softwareDevelopment AS developmentLang, e.capabilities.mediaTrained AS mediaReady FROM employees e WHERE e.team = "Cloud software engineering" GROUP BY e.capabilities.softwareDevelopment, e.capabilities.mediaTrained`, pk)
		wantTwo := []any{
			map[string]any{"employeesWithThisTraining": 1, "developmentLang": "python", "mediaReady": true},
			map[string]any{"employeesWithThisTraining": 1, "developmentLang": "javascript", "mediaReady": false},
			map[string]any{"employeesWithThisTraining": 1, "developmentLang": "c-sharp", "mediaReady": true},
			map[string]any{"employeesWithThisTraining": 2, "developmentLang": "javascript", "mediaReady": true},
			map[string]any{"employeesWithThisTraining": 1, "mediaReady": true},
			map[string]any{"employeesWithThisTraining": 1, "developmentLang": "python", "mediaReady": false},
		}
		if !sameRows(two, wantTwo, true) {
			t.Errorf("GROUP BY two keys:\n got  %s\n want %s", rowsString(two), rowsString(wantTwo))
		}
		one := queryRows(t, env, c, `SELECT e.capabilities.softwareDevelopment AS developmentLang FROM employees e WHERE e.team = "Cloud software engineering" GROUP BY e.capabilities.softwareDevelopment`, pk)
		wantOne := []any{
			map[string]any{},
			map[string]any{"developmentLang": "c-sharp"},
			map[string]any{"developmentLang": "javascript"},
			map[string]any{"developmentLang": "python"},
		}
		if !sameRows(one, wantOne, true) {
			t.Errorf("GROUP BY one key:\n got  %s\n want %s", rowsString(one), rowsString(wantOne))
		}
	})
}

// 6. x-ms-substatus of errors (read from *azcore.ResponseError's RawResponse): 0 where the
// status says it all; 1003 (OwnerResourceNotFound) for an item operation under a
// container or database that does not exist, 0 for reading that container itself.
func TestFidelitySubstatus(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.container(t, "sub", []string{"/pk"}, 400)
		pk := azcosmos.NewPartitionKeyString("p")
		env.expectStatus(t, "read a missing item", 404, "0", func() error {
			_, err := c.ReadItem(ctx, pk, "missing", nil)
			return err
		})
		env.must(t, "create dup", func() error {
			_, err := c.CreateItem(ctx, pk, doc("id", "dup", "pk", "p"), nil)
			return err
		})
		env.expectStatus(t, "create dup again", 409, "0", func() error {
			_, err := c.CreateItem(ctx, pk, doc("id", "dup", "pk", "p"), nil)
			return err
		})
		env.expectStatus(t, "create an item with an empty id", 400, "0", func() error {
			_, err := c.CreateItem(ctx, pk, doc("id", "", "pk", "p"), nil)
			return err
		})
		gone, _ := env.db.NewContainer("never-created")
		env.expectStatus(t, "read an item in a missing container", 404, "1003", func() error {
			_, err := gone.ReadItem(ctx, pk, "x", nil)
			return err
		})
		env.expectStatus(t, "read the missing container", 404, "0", func() error {
			_, err := gone.Read(ctx, nil)
			return err
		})
		goneDB, _ := env.client.NewContainer(env.db.ID()+"-never-created", "c")
		env.expectStatus(t, "read an item in a missing database", 404, "1003", func() error {
			_, err := goneDB.ReadItem(ctx, pk, "x", nil)
			return err
		})
	})
}

// 7. What azcosmos v1.5.0 has no API for.
func TestFidelityPartitionKeyDelete(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		track(t, storage)
		t.Skip("azcosmos v1.5.0 has no partition-key delete: ContainerClient (cosmos_container.go) has no DeleteAllItemsByPartitionKey and nothing posts to .../operations/partitionkeydelete (only the x-ms-cosmos-is-partition-key-delete-pending header name is declared, cosmos_http_constants.go); the Python suite checks it")
	})
}

func TestFidelityItemsBySelfLink(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		track(t, storage)
		t.Skip("azcosmos v1.5.0 cannot address an item by its _self link: every item call builds the name-based link dbs/{id}/colls/{id}/docs/{id} from ContainerClient's link (cosmos_container.go, cosmos_paths.go createLink), and rid-based signing (isRidBased) is used only for offers (cosmos_offers.go); the Python suite checks it")
	})
}
