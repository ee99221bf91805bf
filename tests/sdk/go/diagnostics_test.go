package orrerygo

// Query diagnostics as azcosmos v1.5.0 sees them (issue 16, point 7): every query asks
// for query metrics (x-ms-documentdb-populatequerymetrics: true, always set by
// cosmos_query_request_options.go), which QueryItemsResponse.QueryMetrics carries, and
// QueryOptions.PopulateIndexMetrics fills
// IndexMetrics with x-ms-cosmos-index-utilization, which this SDK hands over as sent
// (base64 of JSON; cosmos_query_response.go). Expected counts come from the items
// written here; the metric names and header shapes from the service's documentation
// (wire-protocol.md, "Query metrics" and "Index metrics").

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

const diagItems = 60

// The service's query-metrics keys, in the order it writes them.
var queryMetricKeys = []string{
	"totalExecutionTimeInMs", "queryCompileTimeInMs", "queryLogicalPlanBuildTimeInMs",
	"queryPhysicalPlanBuildTimeInMs", "queryOptimizationTimeInMs", "indexLookupTimeInMs",
	"documentLoadTimeInMs", "VMExecutionTimeInMs", "systemFunctionExecuteTimeInMs",
	"userFunctionExecuteTimeInMs", "retrievedDocumentCount", "retrievedDocumentSize",
	"outputDocumentCount", "outputDocumentSize", "writeOutputTimeInMs", "indexUtilizationRatio",
}

type metricsText struct {
	keys   []string
	values map[string]float64
	text   string
}

func parseQueryMetrics(t *testing.T, text string) metricsText {
	t.Helper()
	m := metricsText{values: map[string]float64{}, text: text}
	for _, part := range strings.Split(text, ";") {
		key, value, _ := strings.Cut(part, "=")
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatalf("query metrics %q: %s is not a number", text, part)
		}
		m.keys = append(m.keys, key)
		m.values[key] = f
	}
	return m
}

type indexUse struct {
	IndexSpec  string   `json:"IndexSpec"`
	IndexSpecs []string `json:"IndexSpecs"`
}

func TestQueryDiagnostics(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		props := azcosmos.ContainerProperties{
			ID:                     "diag",
			PartitionKeyDefinition: azcosmos.PartitionKeyDefinition{Paths: []string{"/pk"}, Version: 2, Kind: azcosmos.PartitionKeyKindHash},
			IndexingPolicy: &azcosmos.IndexingPolicy{
				Automatic:     true,
				IndexingMode:  azcosmos.IndexingModeConsistent,
				IncludedPaths: []azcosmos.IncludedPath{{Path: "/*"}},
				ExcludedPaths: []azcosmos.ExcludedPath{{Path: "/secret/?"}, {Path: `/"_etag"/?`}},
			},
		}
		env.must(t, "create container", func() error {
			_, err := env.db.CreateContainer(ctxFor(t, 30*time.Second), props, nil)
			return err
		})
		c, _ := env.db.NewContainer("diag")
		pk := azcosmos.NewPartitionKeyString("m")
		for i := 0; i < diagItems; i++ {
			body := doc("id", fmt.Sprintf("d%03d", i), "pk", "m", "n", i, "s", fmt.Sprintf("s%d", i%6), "secret", i%5)
			env.must(t, "create item", func() error {
				_, err := c.CreateItem(ctxFor(t, 10*time.Second), pk, body, nil)
				return err
			})
		}
		// One page of a single-partition query: its rows and response.
		query := func(q string, opts azcosmos.QueryOptions) ([]map[string]any, azcosmos.QueryItemsResponse) {
			t.Helper()
			opts.PageSizeHint = 1000
			var page azcosmos.QueryItemsResponse
			env.must(t, "query "+q, func() error {
				var err error
				page, err = c.NewQueryItemsPager(q, pk, &opts).NextPage(ctxFor(t, 30*time.Second))
				return err
			})
			var rows []map[string]any
			for _, raw := range page.Items {
				var row map[string]any
				_ = json.Unmarshal(raw, &row)
				rows = append(rows, row)
			}
			return rows, page
		}

		t.Run("query metrics count what the query read", func(t *testing.T) {
			rows, page := query("SELECT * FROM c WHERE c.n >= 50", azcosmos.QueryOptions{})
			if len(rows) != 10 {
				t.Fatalf("rows: %d, want 10", len(rows))
			}
			if page.QueryMetrics == nil {
				t.Fatalf("no QueryMetrics in the response")
			}
			m := parseQueryMetrics(t, *page.QueryMetrics)
			if !reflect.DeepEqual(m.keys, queryMetricKeys) {
				t.Errorf("keys %v, want %v", m.keys, queryMetricKeys)
			}
			// Served by the range index on /n: only the matches are loaded.
			if m.values["retrievedDocumentCount"] != 10 || m.values["outputDocumentCount"] != 10 || m.values["indexUtilizationRatio"] != 1 {
				t.Errorf("index seek: %s", m.text)
			}
			_, page = query("SELECT * FROM c WHERE c.secret = 3", azcosmos.QueryOptions{})
			m = parseQueryMetrics(t, *page.QueryMetrics)
			// /secret/? is excluded: every item of the partition is read.
			if m.values["retrievedDocumentCount"] != diagItems || m.values["outputDocumentCount"] != diagItems/5 {
				t.Errorf("scan: %s", m.text)
			}
		})

		t.Run("query metrics timings are measured", func(t *testing.T) {
			_, page := query(`SELECT VALUE c.id FROM c WHERE RegexMatch(REPLICATE(c.s, 400), "s[0-9]s[0-9]$")`,
				azcosmos.QueryOptions{})
			if len(page.Items) != diagItems {
				t.Fatalf("rows: %d, want %d", len(page.Items), diagItems)
			}
			m := parseQueryMetrics(t, *page.QueryMetrics)
			if !(m.values["systemFunctionExecuteTimeInMs"] > 0) || m.values["systemFunctionExecuteTimeInMs"] > m.values["totalExecutionTimeInMs"] {
				t.Errorf("function time not within a measured total: %s", m.text)
			}
		})

		t.Run("no index metrics unless asked", func(t *testing.T) {
			_, page := query("SELECT * FROM c WHERE c.n = 3", azcosmos.QueryOptions{})
			if page.IndexMetrics != nil {
				t.Errorf("unasked index metrics: %v", *page.IndexMetrics)
			}
		})

		t.Run("index metrics", func(t *testing.T) {
			decodeUse := func(page azcosmos.QueryItemsResponse) map[string][]indexUse {
				t.Helper()
				if page.IndexMetrics == nil {
					t.Fatalf("no IndexMetrics in the response")
				}
				raw, err := base64.StdEncoding.DecodeString(*page.IndexMetrics)
				if err != nil {
					t.Fatalf("IndexMetrics %q is not base64: %s", *page.IndexMetrics, err)
				}
				var keys []string
				var use map[string][]indexUse
				if err := json.Unmarshal(raw, &use); err != nil {
					t.Fatalf("IndexMetrics %s is not the documented JSON: %s", raw, err)
				}
				for k := range use {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				want := []string{"PotentialCompositeIndexes", "PotentialSingleIndexes", "UtilizedCompositeIndexes", "UtilizedSingleIndexes"}
				if !reflect.DeepEqual(keys, want) {
					t.Errorf("IndexMetrics keys %v, want %v", keys, want)
				}
				return use
			}
			specs := func(list []indexUse) []string {
				out := []string{}
				for _, e := range list {
					out = append(out, e.IndexSpec)
				}
				sort.Strings(out)
				return out
			}
			_, page := query("SELECT * FROM c WHERE c.n = 3", azcosmos.QueryOptions{PopulateIndexMetrics: true})
			use := decodeUse(page)
			if got := specs(use["UtilizedSingleIndexes"]); !reflect.DeepEqual(got, []string{"/n/?"}) {
				t.Errorf("utilized single indexes %v, want [/n/?]", got)
			}
			// Equality and range filters with no composite index: (s, n) is the potential one.
			_, page = query(`SELECT * FROM c WHERE c.s = "s1" AND c.n > 3`, azcosmos.QueryOptions{PopulateIndexMetrics: true})
			use = decodeUse(page)
			if got := specs(use["UtilizedSingleIndexes"]); !reflect.DeepEqual(got, []string{"/n/?", "/s/?"}) {
				t.Errorf("utilized single indexes %v, want [/n/? /s/?]", got)
			}
			if got := use["PotentialCompositeIndexes"]; len(got) != 1 || !reflect.DeepEqual(got[0].IndexSpecs, []string{"/s ASC", "/n ASC"}) {
				t.Errorf("potential composite indexes %+v, want one of [/s ASC /n ASC]", got)
			}
		})
	})
}
