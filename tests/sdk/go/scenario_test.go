package orrerygo

// The shared-scenario driver: runs tests/sdk/scenarios/scenarios.json through the Go
// SDK. Everything expected comes from that file; this file only translates each
// scenario into azcosmos calls.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

type containerSpec struct {
	PartitionKeyPaths []string `json:"partitionKeyPaths"`
	Throughput        *int32   `json:"throughput"`
	CompositeIndexes  [][]struct {
		Path  string `json:"path"`
		Order string `json:"order"`
	} `json:"compositeIndexes"`
	IncludedPaths []struct {
		Path string `json:"path"`
	} `json:"includedPaths"`
	SpatialIndexes []struct {
		Path  string   `json:"path"`
		Types []string `json:"types"`
	} `json:"spatialIndexes"`
	ComputedProperties []json.RawMessage `json:"computedProperties"`
}

// azcosmos v1.5.0's ContainerProperties (cosmos_container_properties.go) has no
// computedProperties field, so a container created through it has none: the scenarios
// that need them are skipped with this reason.
const noComputedProperties = "azcosmos v1.5.0 cannot create a container with computed properties: its ContainerProperties has no computedProperties field (cosmos_container_properties.go)"

type queryScenario struct {
	Name       string `json:"name"`
	Container  string `json:"container"`
	Query      string `json:"query"`
	Parameters []struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	} `json:"parameters"`
	PartitionKey []any    `json:"partitionKey"`
	Features     []string `json:"features"`
	PageSize     int32    `json:"pageSize"`
	Ordered      bool     `json:"ordered"`
	Expected     []any    `json:"expected"`
}

type errorScenario struct {
	Name         string         `json:"name"`
	Op           string         `json:"op"`
	Container    string         `json:"container"`
	Database     string         `json:"database"`
	ID           string         `json:"id"`
	PartitionKey []any          `json:"partitionKey"`
	Body         map[string]any `json:"body"`
	BodyPadBytes int            `json:"bodyPadBytes"`
	Query        string         `json:"query"`
	Patch        []struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	} `json:"patch"`
	Condition string `json:"condition"`
	IfMatch   string `json:"ifMatch"`
	Status    int    `json:"status"`
	Substatus *int   `json:"substatus"`
}

type chargeScenario struct {
	Name         string         `json:"name"`
	Op           string         `json:"op"`
	Container    string         `json:"container"`
	ID           string         `json:"id"`
	PartitionKey []any          `json:"partitionKey"`
	Body         map[string]any `json:"body"`
	Query        string         `json:"query"`
	Charge       float64        `json:"charge"`
	Tolerance    float64        `json:"tolerance"`
}

type scenarioFile struct {
	Version    int                          `json:"version"`
	Containers map[string]containerSpec     `json:"containers"`
	Items      map[string][]json.RawMessage `json:"items"`
	Queries    []queryScenario              `json:"queries"`
	Errors     []errorScenario              `json:"errors"`
	Charges    []chargeScenario             `json:"charges"`
}

func loadScenarios(t *testing.T) *scenarioFile {
	t.Helper()
	path := os.Getenv("ORRERY_SCENARIOS")
	if path == "" {
		path = filepath.Join("..", "scenarios", "scenarios.json")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the shared scenarios: %v", err)
	}
	var f scenarioFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
	if f.Version != 1 {
		t.Fatalf("%s: version %d, this driver knows version 1", path, f.Version)
	}
	return &f
}

// partitionKeyOf turns the file's array form into the SDK's partition key.
func partitionKeyOf(values []any) (azcosmos.PartitionKey, error) {
	pk := azcosmos.NewPartitionKey()
	for _, v := range values {
		switch x := v.(type) {
		case string:
			pk = pk.AppendString(x)
		case float64:
			pk = pk.AppendNumber(x)
		case bool:
			pk = pk.AppendBool(x)
		case nil:
			pk = pk.AppendNull()
		default:
			return pk, fmt.Errorf("partition key value %v of type %T", v, v)
		}
	}
	return pk, nil
}

// containerProperties is the SDK's definition of a scenario container: kind Hash for
// one path, MultiHash for 2-3, both version 2.
func containerProperties(id string, spec containerSpec) azcosmos.ContainerProperties {
	def := azcosmos.PartitionKeyDefinition{Paths: spec.PartitionKeyPaths, Version: 2, Kind: azcosmos.PartitionKeyKindHash}
	if len(spec.PartitionKeyPaths) > 1 {
		def.Kind = azcosmos.PartitionKeyKindMultiHash
	}
	props := azcosmos.ContainerProperties{ID: id, PartitionKeyDefinition: def}
	if len(spec.CompositeIndexes) > 0 || len(spec.SpatialIndexes) > 0 || len(spec.IncludedPaths) > 0 {
		ip := &azcosmos.IndexingPolicy{
			Automatic:     true,
			IndexingMode:  azcosmos.IndexingModeConsistent,
			IncludedPaths: []azcosmos.IncludedPath{{Path: "/*"}},
		}
		if len(spec.IncludedPaths) > 0 {
			ip.IncludedPaths = nil
			for _, p := range spec.IncludedPaths {
				ip.IncludedPaths = append(ip.IncludedPaths, azcosmos.IncludedPath{Path: p.Path})
			}
		}
		for _, si := range spec.SpatialIndexes {
			index := azcosmos.SpatialIndex{Path: si.Path}
			for _, typ := range si.Types {
				index.SpatialTypes = append(index.SpatialTypes, azcosmos.SpatialType(typ))
			}
			ip.SpatialIndexes = append(ip.SpatialIndexes, index)
		}
		for _, ci := range spec.CompositeIndexes {
			var paths []azcosmos.CompositeIndex
			for _, p := range ci {
				order := azcosmos.CompositeIndexAscending
				if p.Order == "descending" {
					order = azcosmos.CompositeIndexDescending
				}
				paths = append(paths, azcosmos.CompositeIndex{Path: p.Path, Order: order})
			}
			ip.CompositeIndexes = append(ip.CompositeIndexes, paths)
		}
		props.IndexingPolicy = ip
	}
	return props
}

// Features the SDK can run across partitions. azcosmos v1.5.0 has no cross-partition
// query pipeline: NewQueryItemsPager (cosmos_container.go) sends the query once to the
// gateway with x-ms-documentdb-query-enablecrosspartition and no partition key, never
// asks for a query plan and never fans out per partition key range (the external query
// engine hook was removed for 1.5.0 GA, CHANGELOG.md "1.5.0 Breaking Changes"). Its doc
// comment: "the gateway can only perform simple projections and filtering on cross
// partition queries". So projections, filters, JOINs, subqueries within one document
// and parameters run cross-partition; ORDER BY, TOP, OFFSET/LIMIT, DISTINCT, GROUP BY
// and aggregates need the client-side pipeline this SDK does not have.
var crossPartitionUnsupported = map[string]bool{
	"orderBy": true, "multiOrderBy": true, "top": true, "offsetLimit": true,
	"distinct": true, "groupBy": true, "aggregate": true,
}

const sdkName = "azcosmos (go)"

// scenarioEnv is one storage mode's database with the scenario containers and items.
type scenarioEnv struct {
	storage    string
	client     *azcosmos.Client
	rec        *recorder
	db         *azcosmos.DatabaseClient
	containers map[string]*azcosmos.ContainerClient
	specs      map[string]containerSpec
}

func setupScenarios(t *testing.T, storage string, f *scenarioFile) *scenarioEnv {
	t.Helper()
	srv := sharedServer(t, storage)
	env := &scenarioEnv{storage: storage, rec: &recorder{}, containers: map[string]*azcosmos.ContainerClient{}, specs: f.Containers}
	c, err := srv.newClient(env.rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	env.client = c
	ctx := ctxFor(t, 120*time.Second)
	dbID := fmt.Sprintf("scenarios-%d", time.Now().UnixNano())
	mark := env.rec.mark()
	if _, err := c.CreateDatabase(ctx, azcosmos.DatabaseProperties{ID: dbID}, nil); err != nil {
		t.Fatalf("%s [%s] setup: create database: %s\n%s", sdkName, storage, describeErr(err), env.rec.wire(mark))
	}
	env.db, _ = c.NewDatabase(dbID)
	t.Cleanup(func() { _, _ = env.db.Delete(context.Background(), nil) })
	names := make([]string, 0, len(f.Containers))
	for n := range f.Containers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		spec := f.Containers[name]
		var opts *azcosmos.CreateContainerOptions
		if spec.Throughput != nil {
			tp := azcosmos.NewManualThroughputProperties(*spec.Throughput)
			opts = &azcosmos.CreateContainerOptions{ThroughputProperties: &tp}
		}
		mark := env.rec.mark()
		if _, err := env.db.CreateContainer(ctx, containerProperties(name, spec), opts); err != nil {
			t.Fatalf("%s [%s] setup: create container %s: %s\n%s", sdkName, storage, name, describeErr(err), env.rec.wire(mark))
		}
		cc, _ := env.db.NewContainer(name)
		env.containers[name] = cc
		for _, raw := range f.Items[name] {
			var doc map[string]any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			var vals []any
			for _, p := range spec.PartitionKeyPaths {
				vals = append(vals, doc[strings.TrimPrefix(p, "/")])
			}
			pk, err := partitionKeyOf(vals)
			if err != nil {
				t.Fatal(err)
			}
			mark := env.rec.mark()
			if _, err := cc.CreateItem(ctx, pk, raw, nil); err != nil {
				t.Fatalf("%s [%s] setup: create item %s in %s: %s\n%s", sdkName, storage, doc["id"], name, describeErr(err), env.rec.wire(mark))
			}
		}
	}
	return env
}

// TestScenarios runs every shared scenario in each storage mode.
func TestScenarios(t *testing.T) {
	f := loadScenarios(t)
	forEachStorage(t, func(t *testing.T, storage string) {
		env := setupScenarios(t, storage, f)
		t.Run("queries", func(t *testing.T) {
			for _, q := range f.Queries {
				t.Run(q.Name, func(t *testing.T) {
					track(t, storage)
					env.runQueryScenario(t, q)
				})
			}
		})
		t.Run("charges", func(t *testing.T) {
			for _, c := range f.Charges {
				t.Run(c.Name, func(t *testing.T) {
					track(t, storage)
					env.runChargeScenario(t, c)
				})
			}
		})
		t.Run("errors", func(t *testing.T) {
			for _, e := range f.Errors {
				t.Run(e.Name, func(t *testing.T) {
					track(t, storage)
					env.runErrorScenario(t, e)
				})
			}
		})
	})
}

// normalize re-decodes a JSON value so numbers are float64 whatever their spelling.
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func canon(v any) string {
	b, _ := json.Marshal(normalize(v))
	return string(b)
}

// sameRows compares rows in order or as a multiset.
func sameRows(got, want []any, ordered bool) bool {
	if len(got) != len(want) {
		return false
	}
	if ordered {
		for i := range got {
			if !reflect.DeepEqual(normalize(got[i]), normalize(want[i])) {
				return false
			}
		}
		return true
	}
	a := make([]string, len(got))
	b := make([]string, len(want))
	for i := range got {
		a[i] = canon(got[i])
		b[i] = canon(want[i])
	}
	sort.Strings(a)
	sort.Strings(b)
	return reflect.DeepEqual(a, b)
}

func rowsString(rows []any) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = canon(r)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// pageResult is what paging a query gave.
type pageResult struct {
	rows       []any
	pages      int
	firstToken *string // the continuation after the first page
	firstRows  int     // rows in the first page
}

// readPages pages a query to the end (at most 500 pages) through NewQueryItemsPager.
func readPages(ctx context.Context, cc *azcosmos.ContainerClient, query string, pk azcosmos.PartitionKey, opts azcosmos.QueryOptions) (pageResult, error) {
	var res pageResult
	pager := cc.NewQueryItemsPager(query, pk, &opts)
	for pager.More() {
		if res.pages >= 500 {
			return res, fmt.Errorf("more than 500 pages: the continuation never ends")
		}
		page, err := pager.NextPage(ctx)
		if err != nil {
			return res, err
		}
		res.pages++
		if opts.PageSizeHint > 0 && int32(len(page.Items)) > opts.PageSizeHint {
			return res, fmt.Errorf("page %d holds %d rows, more than the page size %d", res.pages, len(page.Items), opts.PageSizeHint)
		}
		for _, it := range page.Items {
			var v any
			if err := json.Unmarshal(it, &v); err != nil {
				return res, fmt.Errorf("row %q: %v", it, err)
			}
			res.rows = append(res.rows, v)
		}
		if res.pages == 1 {
			res.firstToken = page.ContinuationToken
			res.firstRows = len(res.rows)
		}
	}
	return res, nil
}

func (env *scenarioEnv) runQueryScenario(t *testing.T, q queryScenario) {
	cc := env.containers[q.Container]
	if cc == nil {
		t.Fatalf("scenario names unknown container %q", q.Container)
	}
	for _, f := range q.Features {
		if f == "computedProperties" {
			t.Skip(noComputedProperties)
		}
	}
	// ORRERY_GO_GATEWAY_ALL=1 runs them anyway: Orrery evaluates every cross-partition
	// query itself (wire-protocol.md §9.2), where the hosted gateway answers 400/1004.
	if q.PartitionKey == nil && os.Getenv("ORRERY_GO_GATEWAY_ALL") != "1" {
		for _, f := range q.Features {
			if crossPartitionUnsupported[f] {
				t.Skipf("%s cannot run %q cross-partition: azcosmos v1.5.0 has no cross-partition query pipeline (NewQueryItemsPager sends the query once to the gateway, which serves only projections and filters across partitions; the service answers 400/1004)", sdkName, f)
			}
		}
	}
	pk := azcosmos.NewPartitionKey()
	if q.PartitionKey != nil {
		var err error
		if pk, err = partitionKeyOf(q.PartitionKey); err != nil {
			t.Fatal(err)
		}
	}
	opts := azcosmos.QueryOptions{PageSizeHint: q.PageSize}
	for _, p := range q.Parameters {
		opts.QueryParameters = append(opts.QueryParameters, azcosmos.QueryParameter{Name: p.Name, Value: p.Value})
	}
	ctx := ctxFor(t, 60*time.Second)
	mark := env.rec.mark()
	where := func() string {
		return fmt.Sprintf("%s [%s] scenario %q (%s)", sdkName, env.storage, q.Name, q.Query)
	}
	res, err := readPages(ctx, cc, q.Query, pk, opts)
	if err != nil {
		t.Fatalf("%s: %s\n%s", where(), describeErr(err), env.rec.wire(mark))
	}
	var problems []string
	if !sameRows(res.rows, q.Expected, q.Ordered) {
		problems = append(problems, fmt.Sprintf("rows %s, want %s (ordered=%v) over %d pages", rowsString(res.rows), rowsString(q.Expected), q.Ordered, res.pages))
	}
	if q.PageSize > 0 && len(q.Expected) > int(q.PageSize) && res.pages < (len(q.Expected)+int(q.PageSize)-1)/int(q.PageSize) {
		problems = append(problems, fmt.Sprintf("%d rows in %d pages of at most %d", len(res.rows), res.pages, q.PageSize))
	}
	// Resume from the continuation token saved after the first page, in a new pager.
	if res.firstToken != nil && len(problems) == 0 {
		resumeOpts := opts
		tok := *res.firstToken
		resumeOpts.ContinuationToken = &tok
		mark = env.rec.mark()
		rest, err := readPages(ctx, cc, q.Query, pk, resumeOpts)
		if err != nil {
			t.Fatalf("%s: resuming from the token after page 1: %s\n%s", where(), describeErr(err), env.rec.wire(mark))
		}
		joined := append(append([]any{}, res.rows[:res.firstRows]...), rest.rows...)
		if !sameRows(joined, q.Expected, q.Ordered) {
			problems = append(problems, fmt.Sprintf("page 1 then resumed from its token: rows %s, want %s", rowsString(joined), rowsString(q.Expected)))
		}
	} else if q.PageSize > 0 && len(q.Expected) > int(q.PageSize) && len(problems) == 0 {
		problems = append(problems, "no continuation token after the first page")
	}
	if len(problems) == 0 {
		return
	}
	t.Errorf("%s: %s\n%s", where(), strings.Join(problems, "; "), env.rec.wire(mark))
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (env *scenarioEnv) runChargeScenario(t *testing.T, c chargeScenario) {
	cc := env.containers[c.Container]
	ctx := ctxFor(t, 30*time.Second)
	mark := env.rec.mark()
	var charge float32
	var err error
	switch c.Op {
	case "read":
		pk, perr := partitionKeyOf(c.PartitionKey)
		if perr != nil {
			t.Fatal(perr)
		}
		var r azcosmos.ItemResponse
		r, err = cc.ReadItem(ctx, pk, c.ID, nil)
		charge = r.RequestCharge
	case "create":
		pk, perr := partitionKeyOf(c.PartitionKey)
		if perr != nil {
			t.Fatal(perr)
		}
		body, _ := json.Marshal(c.Body)
		var r azcosmos.ItemResponse
		r, err = cc.CreateItem(ctx, pk, body, nil)
		charge = r.RequestCharge
	case "query":
		pk := azcosmos.NewPartitionKey()
		if c.PartitionKey != nil {
			pk, _ = partitionKeyOf(c.PartitionKey)
		}
		pager := cc.NewQueryItemsPager(c.Query, pk, nil)
		for pager.More() && err == nil {
			var p azcosmos.QueryItemsResponse
			p, err = pager.NextPage(ctx)
			charge += p.RequestCharge
		}
	default:
		t.Fatalf("unknown charge op %q", c.Op)
	}
	if err != nil {
		t.Fatalf("%s [%s] scenario %q: %s\n%s", sdkName, env.storage, c.Name, describeErr(err), env.rec.wire(mark))
	}
	if math.Abs(float64(charge)-c.Charge) > c.Tolerance+1e-6 {
		t.Errorf("%s [%s] scenario %q: RequestCharge %v, want %v ± %v\n%s", sdkName, env.storage, c.Name, charge, c.Charge, c.Tolerance, env.rec.wire(mark))
	}
}

func (env *scenarioEnv) runErrorScenario(t *testing.T, e errorScenario) {
	ctx := ctxFor(t, 60*time.Second)
	db := env.db
	if e.Database != "" {
		db, _ = env.client.NewDatabase(e.Database)
	}
	cc := env.containers[e.Container]
	if e.Container != "" && e.Database != "" {
		cc, _ = db.NewContainer(e.Container)
	}
	var pk azcosmos.PartitionKey
	if e.PartitionKey != nil {
		var err error
		if pk, err = partitionKeyOf(e.PartitionKey); err != nil {
			t.Fatal(err)
		}
	}
	body := func() []byte {
		m := map[string]any{}
		for k, v := range e.Body {
			m[k] = v
		}
		if e.BodyPadBytes > 0 {
			m["pad"] = strings.Repeat("x", e.BodyPadBytes)
		}
		b, _ := json.Marshal(m)
		return b
	}
	var itemOpts *azcosmos.ItemOptions
	if e.IfMatch != "" {
		etag := azcore.ETag(e.IfMatch)
		itemOpts = &azcosmos.ItemOptions{IfMatchEtag: &etag}
	}
	mark := env.rec.mark()
	var err error
	switch e.Op {
	case "read":
		_, err = cc.ReadItem(ctx, pk, e.ID, itemOpts)
	case "create":
		_, err = cc.CreateItem(ctx, pk, body(), itemOpts)
	case "upsert":
		_, err = cc.UpsertItem(ctx, pk, body(), itemOpts)
	case "replace":
		_, err = cc.ReplaceItem(ctx, pk, e.ID, body(), itemOpts)
	case "delete":
		_, err = cc.DeleteItem(ctx, pk, e.ID, itemOpts)
	case "query":
		qpk := azcosmos.NewPartitionKey()
		if e.PartitionKey != nil {
			qpk = pk
		}
		pager := cc.NewQueryItemsPager(e.Query, qpk, nil)
		for pager.More() && err == nil {
			_, err = pager.NextPage(ctx)
		}
	case "patch":
		var ops azcosmos.PatchOperations
		for _, p := range e.Patch {
			switch p.Op {
			case "set":
				ops.AppendSet(p.Path, p.Value)
			case "add":
				ops.AppendAdd(p.Path, p.Value)
			case "replace":
				ops.AppendReplace(p.Path, p.Value)
			case "remove":
				ops.AppendRemove(p.Path)
			case "incr":
				ops.AppendIncrement(p.Path, int64(p.Value.(float64)))
			default:
				t.Fatalf("unknown patch op %q", p.Op)
			}
		}
		if e.Condition != "" {
			ops.SetCondition(e.Condition)
		}
		_, err = cc.PatchItem(ctx, pk, e.ID, ops, itemOpts)
	case "readContainer":
		c, _ := db.NewContainer(e.ID)
		_, err = c.Read(ctx, nil)
	case "createContainer":
		var spec containerSpec
		b, _ := json.Marshal(e.Body)
		_ = json.Unmarshal(b, &spec)
		if len(spec.ComputedProperties) > 0 {
			t.Skip(noComputedProperties)
		}
		_, err = db.CreateContainer(ctx, containerProperties(e.ID, spec), nil)
	case "readDatabase":
		d, _ := env.client.NewDatabase(e.ID)
		_, err = d.Read(ctx, nil)
	case "createDatabase":
		_, err = env.client.CreateDatabase(ctx, azcosmos.DatabaseProperties{ID: e.ID}, nil)
	default:
		t.Fatalf("unknown error op %q", e.Op)
	}
	where := fmt.Sprintf("%s [%s] scenario %q (%s)", sdkName, env.storage, e.Name, e.Op)
	if err == nil {
		t.Fatalf("%s: succeeded, want an error with status %d\n%s", where, e.Status, env.rec.wire(mark))
	}
	re, ok := responseError(err)
	if !ok {
		t.Fatalf("%s: %s, want *azcore.ResponseError with status %d\n%s", where, describeErr(err), e.Status, env.rec.wire(mark))
	}
	if re.StatusCode != e.Status {
		t.Errorf("%s: %s, want status %d\n%s", where, describeErr(err), e.Status, env.rec.wire(mark))
	}
	if e.Substatus != nil {
		got := substatusOf(re)
		want := fmt.Sprint(*e.Substatus)
		if got != want && !(*e.Substatus == 0 && got == "") {
			t.Errorf("%s: substatus %q, want %s (%s)\n%s", where, got, want, describeErr(err), env.rec.wire(mark))
		}
	}
}
