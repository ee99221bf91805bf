package orrerygo

// Go-only: vector search (VectorDistance, ORDER BY VectorDistance), full-text filters
// (FullTextContains / FullTextContainsAll / FullTextContainsAny) and full-text ranking
// (ORDER BY RANK FullTextScore) through azcosmos, on containers created with the SDK's
// VectorEmbeddingPolicy, FullTextPolicy and IndexingPolicy.VectorIndexes /
// FullTextIndexes.
//
// Every expectation is computed here from what the test wrote: the vector rankings by a
// brute force over the stored vectors (cosine similarity, highest first; Euclidean
// distance, lowest first), the filters from English grammar (a plural matches its
// singular, a phrase needs its words in a row), the full-text ranking by BM25 over the
// whole container (k1 = 1.2, b = 0.75).
//
// azcosmos v1.5.0 never asks for a query plan: NewQueryItemsPager sends the query as it is
// and the server runs it whole. The cross-partition ranking queries here (ORDER BY
// VectorDistance / RANK with TOP and no partition key) are shapes this SDK could not run
// against the hosted gateway (see scenario_test.go, crossPartitionUnsupported); they are
// run anyway because Orrery evaluates them itself, and what they check is that
// evaluation.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

// scoreTolerance is how far a score may be from the one computed here.
func scoreTolerance(expected float64) float64 {
	return 1e-9 * math.Max(1, math.Abs(expected))
}

// createSearchContainer creates a container with the given properties and its own
// manual throughput.
func (e *goEnv) createSearchContainer(t *testing.T, props azcosmos.ContainerProperties, throughput int32) *azcosmos.ContainerClient {
	t.Helper()
	tp := azcosmos.NewManualThroughputProperties(throughput)
	e.must(t, "create container "+props.ID, func() error {
		_, err := e.db.CreateContainer(ctxFor(t, 30*time.Second), props, &azcosmos.CreateContainerOptions{ThroughputProperties: &tp})
		return err
	})
	c, _ := e.db.NewContainer(props.ID)
	return c
}

// searchQuery pages a query to the end (following continuations, at most 100 pages) and
// returns its rows; a failure names the wire. With strictPages, a page larger than
// pageSize fails. A query ranked by a score with TOP comes whole in one page whatever
// x-ms-max-item-count says, as the service sends it (src/query/query.h,
// ranks_by_score): for those only the rows are checked, none may be lost.
func (e *goEnv) searchQuery(t *testing.T, c *azcosmos.ContainerClient, query string, pk azcosmos.PartitionKey, params []azcosmos.QueryParameter, pageSize int32, strictPages bool) []any {
	t.Helper()
	ctx := ctxFor(t, 60*time.Second)
	mark := e.rec.mark()
	pager := c.NewQueryItemsPager(query, pk, &azcosmos.QueryOptions{QueryParameters: params, PageSizeHint: pageSize})
	var rows []any
	for pages := 0; pager.More(); pages++ {
		if pages == 100 {
			t.Fatalf("%s [%s] query %q: more than 100 pages, the continuation never ends\n%s", sdkName, e.storage, query, e.rec.wire(mark))
		}
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatalf("%s [%s] query %q page %d: %s\n%s", sdkName, e.storage, query, pages+1, describeErr(err), e.rec.wire(mark))
		}
		if strictPages && pageSize > 0 && int32(len(page.Items)) > pageSize {
			t.Errorf("%s [%s] query %q: page %d holds %d rows, more than the page size %d", sdkName, e.storage, query, pages+1, len(page.Items), pageSize)
		}
		for _, it := range page.Items {
			var v any
			if err := json.Unmarshal(it, &v); err != nil {
				t.Fatalf("%s [%s] query %q: row %q: %v", sdkName, e.storage, query, it, err)
			}
			rows = append(rows, v)
		}
	}
	return rows
}

// ranked is a candidate with the score computed here.
type ranked struct {
	id    string
	score float64
}

// expectedRanking sorts candidates best first (ties by id, for the messages) and keeps k.
func expectedRanking(cands []ranked, higherFirst bool, k int) []ranked {
	s := append([]ranked(nil), cands...)
	sort.Slice(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			if higherFirst {
				return s[i].score > s[j].score
			}
			return s[i].score < s[j].score
		}
		return s[i].id < s[j].id
	})
	if len(s) > k {
		s = s[:k]
	}
	return s
}

func rankingString(r []ranked) string {
	parts := make([]string, len(r))
	for i, x := range r {
		parts[i] = fmt.Sprintf("%s=%.12g", x.id, x.score)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// checkRanking compares the ids the server returned, in order, with the expected
// ranking: position i must hold a distinct candidate whose computed score equals the i-th
// best score (within the tolerance), so any order within a group of equal scores, and
// any member of a group cut by TOP, is accepted.
func checkRanking(t *testing.T, what string, got []string, scores map[string]float64, want []ranked) bool {
	t.Helper()
	fail := func(why string) bool {
		t.Errorf("%s: %s\n  got  %v\n  want %s", what, why, got, rankingString(want))
		return false
	}
	if len(got) != len(want) {
		return fail(fmt.Sprintf("%d rows, want %d", len(got), len(want)))
	}
	seen := map[string]bool{}
	for i, id := range got {
		s, ok := scores[id]
		if !ok {
			return fail(fmt.Sprintf("row %d is %q, not a candidate", i, id))
		}
		if seen[id] {
			return fail(fmt.Sprintf("row %d repeats %q", i, id))
		}
		seen[id] = true
		if math.Abs(s-want[i].score) > scoreTolerance(want[i].score) {
			return fail(fmt.Sprintf("row %d is %q with score %.12g, want a score of %.12g (%s)", i, id, s, want[i].score, want[i].id))
		}
	}
	return true
}

// ---------------------------------------------------------------------------------------
// Vector search

const vectorDims = 8

type vectorItem struct {
	id string
	pk string
	n  int
	e  []float64
}

// vectorItems are 80 items over 5 partition key values with pseudo-random 3-decimal
// vectors in [-1, 1] (fixed seed).
func vectorItems() []vectorItem {
	r := rand.New(rand.NewSource(20240917))
	items := make([]vectorItem, 80)
	for i := range items {
		items[i] = vectorItem{id: fmt.Sprintf("v%02d", i), pk: fmt.Sprintf("p%d", i%5), n: i, e: randomVector(r)}
	}
	return items
}

func randomVector(r *rand.Rand) []float64 {
	v := make([]float64, vectorDims)
	for j := range v {
		v[j] = float64(r.Intn(2001)-1000) / 1000
	}
	return v
}

func cosineSimilarity(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}

func euclideanDistance(a, b []float64) float64 {
	var sum float64
	for i := range a {
		d := a[i] - b[i]
		sum += d * d
	}
	return math.Sqrt(sum)
}

func vectorContainerProperties(id string, fn azcosmos.VectorDistanceFunction) azcosmos.ContainerProperties {
	return azcosmos.ContainerProperties{
		ID:                     id,
		PartitionKeyDefinition: azcosmos.PartitionKeyDefinition{Paths: []string{"/pk"}, Kind: azcosmos.PartitionKeyKindHash, Version: 2},
		VectorEmbeddingPolicy: &azcosmos.VectorEmbeddingPolicy{VectorEmbeddings: []azcosmos.VectorEmbedding{{
			Path: "/e", DataType: azcosmos.VectorDataTypeFloat32, DistanceFunction: fn, Dimensions: vectorDims,
		}}},
		IndexingPolicy: &azcosmos.IndexingPolicy{
			Automatic:     true,
			IndexingMode:  azcosmos.IndexingModeConsistent,
			IncludedPaths: []azcosmos.IncludedPath{{Path: "/*"}},
			ExcludedPaths: []azcosmos.ExcludedPath{{Path: "/e/*"}},
			VectorIndexes: []azcosmos.VectorIndex{{Path: "/e", Type: azcosmos.VectorIndexTypeQuantizedFlat}},
		},
	}
}

func TestVectorSearch(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 120*time.Second)
		items := vectorItems()
		// Query vectors: two fresh pseudo-random ones and a stored one (v17, key p2), which
		// must come first with similarity 1 / distance 0.
		qr := rand.New(rand.NewSource(7))
		queries := map[string][]float64{"random1": randomVector(qr), "random2": randomVector(qr), "stored v17": items[17].e}
		queryNames := []string{"random1", "random2", "stored v17"}

		for _, fn := range []struct {
			name        string
			fn          azcosmos.VectorDistanceFunction
			score       func(a, b []float64) float64
			higherFirst bool
		}{
			{"cosine", azcosmos.VectorDistanceFunctionCosine, cosineSimilarity, true},
			{"euclidean", azcosmos.VectorDistanceFunctionEuclidean, euclideanDistance, false},
		} {
			t.Run(fn.name, func(t *testing.T) {
				c := env.createSearchContainer(t, vectorContainerProperties("vec-"+fn.name, fn.fn), 400)
				// The container reads back with its vector policy and index.
				env.must(t, "read container", func() error {
					r, err := c.Read(ctx, nil)
					if err != nil {
						return err
					}
					p := r.ContainerProperties
					if p.VectorEmbeddingPolicy == nil || len(p.VectorEmbeddingPolicy.VectorEmbeddings) != 1 {
						t.Errorf("container read back without its vector embedding policy: %+v", p.VectorEmbeddingPolicy)
					} else if ve := p.VectorEmbeddingPolicy.VectorEmbeddings[0]; ve.Path != "/e" || ve.DataType != azcosmos.VectorDataTypeFloat32 || ve.DistanceFunction != fn.fn || ve.Dimensions != vectorDims {
						t.Errorf("vector embedding read back as %+v", ve)
					}
					if p.IndexingPolicy == nil || len(p.IndexingPolicy.VectorIndexes) != 1 || p.IndexingPolicy.VectorIndexes[0].Path != "/e" || p.IndexingPolicy.VectorIndexes[0].Type != azcosmos.VectorIndexTypeQuantizedFlat {
						t.Errorf("indexing policy read back without the quantizedFlat vector index on /e: %+v", p.IndexingPolicy)
					}
					return nil
				})
				for _, it := range items {
					env.must(t, "create "+it.id, func() error {
						_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString(it.pk), doc("id", it.id, "pk", it.pk, "n", it.n, "e", it.e), nil)
						return err
					})
				}

				type shape struct {
					name     string
					query    string
					pk       string // "" = cross-partition
					k        int
					keep     func(vectorItem) bool
					pageSize int32 // x-ms-max-item-count; pages are checked against it without TOP
				}
				shapes := []shape{
					{"one partition key", "SELECT TOP 5 c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)", "p2", 5, nil, 0},
					{"cross-partition", "SELECT TOP 5 c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)", "", 5, nil, 0},
					{"cross-partition top 12, page size 5", "SELECT TOP 12 c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)", "", 12, nil, 5},
					{"one partition key without top in pages of 5", "SELECT c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)", "p2", 16, nil, 5},
					{"cross-partition without top in pages of 30", "SELECT c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)", "", 80, nil, 30},
					{"cross-partition with a filter", "SELECT TOP 5 c.id, VectorDistance(c.e, @v) AS s FROM c WHERE c.n >= 40 ORDER BY VectorDistance(c.e, @v)", "", 5, func(it vectorItem) bool { return it.n >= 40 }, 0},
				}
				for _, sh := range shapes {
					for _, qn := range queryNames {
						qv := queries[qn]
						t.Run(sh.name+"/"+qn, func(t *testing.T) {
							scores := map[string]float64{}
							var cands []ranked
							for _, it := range items {
								if (sh.pk != "" && it.pk != sh.pk) || (sh.keep != nil && !sh.keep(it)) {
									continue
								}
								s := fn.score(it.e, qv)
								scores[it.id] = s
								cands = append(cands, ranked{it.id, s})
							}
							want := expectedRanking(cands, fn.higherFirst, sh.k)
							pk := azcosmos.NewPartitionKey()
							if sh.pk != "" {
								pk = azcosmos.NewPartitionKeyString(sh.pk)
							}
							mark := env.rec.mark()
							rows := env.searchQuery(t, c, sh.query, pk, []azcosmos.QueryParameter{{Name: "@v", Value: qv}}, sh.pageSize, !strings.Contains(sh.query, "TOP"))
							what := fmt.Sprintf("%s [%s] %s, %s (key %q, @v %s %v)", sdkName, storage, fn.name, sh.query, sh.pk, qn, qv)
							var ids []string
							for i, row := range rows {
								m, ok := row.(map[string]any)
								id, _ := m["id"].(string)
								s, sok := m["s"].(float64)
								if !ok || id == "" || !sok {
									t.Fatalf("%s: row %d is %s, want {id, s: number}\n%s", what, i, canon(row), env.rec.wire(mark))
								}
								ids = append(ids, id)
								if exp, ok := scores[id]; ok && math.Abs(s-exp) > scoreTolerance(exp) {
									t.Errorf("%s: %s scored %.17g, computed %.17g (difference %.3g)", what, id, s, exp, s-exp)
								}
							}
							if !checkRanking(t, what, ids, scores, want) {
								t.Logf("%s", env.rec.wire(mark))
							}
							if qn == "stored v17" && (sh.pk == "" || sh.pk == "p2") && sh.keep == nil && len(ids) > 0 && ids[0] != "v17" {
								t.Errorf("%s: the stored vector's own item v17 is not first: %v", what, ids)
							}
						})
					}
				}
			})
		}
	})
}

// ---------------------------------------------------------------------------------------
// Full-text filters

func fullTextContainerProperties(id string) azcosmos.ContainerProperties {
	return azcosmos.ContainerProperties{
		ID:                     id,
		PartitionKeyDefinition: azcosmos.PartitionKeyDefinition{Paths: []string{"/pk"}, Kind: azcosmos.PartitionKeyKindHash, Version: 2},
		FullTextPolicy: &azcosmos.FullTextPolicy{
			DefaultLanguage: "en-US",
			FullTextPaths:   []azcosmos.FullTextPath{{Path: "/text", Language: "en-US"}},
		},
		IndexingPolicy: &azcosmos.IndexingPolicy{
			Automatic:       true,
			IndexingMode:    azcosmos.IndexingModeConsistent,
			IncludedPaths:   []azcosmos.IncludedPath{{Path: "/*"}},
			FullTextIndexes: []azcosmos.FullTextIndex{{Path: "/text"}},
		},
	}
}

// checkFullTextPolicy reads the container back and checks its full-text policy and index.
func (e *goEnv) checkFullTextPolicy(t *testing.T, c *azcosmos.ContainerClient) {
	t.Helper()
	e.must(t, "read container", func() error {
		r, err := c.Read(ctxFor(t, 30*time.Second), nil)
		if err != nil {
			return err
		}
		p := r.ContainerProperties
		if p.FullTextPolicy == nil || p.FullTextPolicy.DefaultLanguage != "en-US" || len(p.FullTextPolicy.FullTextPaths) != 1 ||
			p.FullTextPolicy.FullTextPaths[0] != (azcosmos.FullTextPath{Path: "/text", Language: "en-US"}) {
			t.Errorf("full-text policy read back as %+v", p.FullTextPolicy)
		}
		if p.IndexingPolicy == nil || len(p.IndexingPolicy.FullTextIndexes) != 1 || p.IndexingPolicy.FullTextIndexes[0].Path != "/text" {
			t.Errorf("indexing policy read back without the full-text index on /text: %+v", p.IndexingPolicy)
		}
		return nil
	})
}

func TestFullTextContains(t *testing.T) {
	sentences := []textDoc{
		{"t1", "a", "I ride my bicycle to work every day."},
		{"t2", "a", "Two bicycles stood next to the red car."},
		{"t3", "b", "The red bicycle was stolen last night."},
		{"t4", "b", "A blue car passed a red truck."},
		{"t5", "c", "Cars and trucks filled the parking lot."},
		{"t6", "c", "She painted the fence green."},
		{"t7", "a", "My bike is red."},
		{"t8", "b", "He bought a red car and a blue bicycle."},
	}
	// Expected ids from the sentences above: a plural matches its singular (and a plural
	// term its singular), case does not matter, a phrase needs its words in a row.
	cases := []struct {
		where string
		pk    string // "" = cross-partition
		want  []string
	}{
		{"FullTextContains(c.text, 'bicycle')", "", []string{"t1", "t2", "t3", "t8"}},
		{"FullTextContains(c.text, 'bicycles')", "", []string{"t1", "t2", "t3", "t8"}},
		{"FullTextContains(c.text, 'car')", "", []string{"t2", "t4", "t5", "t8"}},
		{"FullTextContains(c.text, 'Truck')", "", []string{"t4", "t5"}},
		{"FullTextContains(c.text, 'red bicycle')", "", []string{"t3"}},
		{"FullTextContains(c.text, 'red car')", "", []string{"t2", "t8"}},
		{"FullTextContains(c.text, 'bike')", "", []string{"t7"}},
		{"FullTextContains(c.text, 'airplane')", "", []string{}},
		{"FullTextContainsAll(c.text, 'red', 'car')", "", []string{"t2", "t4", "t8"}},
		{"FullTextContainsAll(c.text, 'red', 'bicycle', 'blue')", "", []string{"t8"}},
		{"FullTextContainsAll(c.text, 'blue', 'truck')", "", []string{"t4"}},
		{"FullTextContainsAny(c.text, 'truck', 'fence')", "", []string{"t4", "t5", "t6"}},
		{"FullTextContainsAny(c.text, 'bicycle', 'bike')", "", []string{"t1", "t2", "t3", "t7", "t8"}},
		{"NOT FullTextContains(c.text, 'bicycle')", "", []string{"t4", "t5", "t6", "t7"}},
		{"FullTextContains(c.text, 'bicycle') AND FullTextContains(c.text, 'car')", "", []string{"t2", "t8"}},
		{"FullTextContains(c.text, 'red')", "b", []string{"t3", "t4", "t8"}},
		{"FullTextContainsAny(c.text, 'bicycle', 'bike')", "a", []string{"t1", "t2", "t7"}},
		{"FullTextContainsAll(c.text, 'red', 'car')", "c", []string{}},
	}
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.fullTextContainerWith(t, ctx, "ft", sentences)
		for _, tc := range cases {
			name := tc.where
			if tc.pk != "" {
				name += " key " + tc.pk
			}
			t.Run(name, func(t *testing.T) {
				pk := azcosmos.NewPartitionKey()
				if tc.pk != "" {
					pk = azcosmos.NewPartitionKeyString(tc.pk)
				}
				query := "SELECT VALUE c.id FROM c WHERE " + tc.where
				mark := env.rec.mark()
				// In pages of 2: a filter holds across continuations.
				rows := env.searchQuery(t, c, query, pk, nil, 2, true)
				if !sameRows(rows, toAny(tc.want), false) {
					t.Errorf("%s [%s] %s (key %q): %s, want %v\n%s", sdkName, storage, query, tc.pk, rowsString(rows), tc.want, env.rec.wire(mark))
				}
			})
		}
	})
}

// ---------------------------------------------------------------------------------------
// Full-text ranking

// textDoc is one document of the full-text tests.
type textDoc struct{ id, pk, text string }

// fullTextContainerWith creates a container with the full-text policy of
// fullTextContainerProperties(name), checks that the policy reads back, and writes docs.
func (env *goEnv) fullTextContainerWith(t *testing.T, ctx context.Context, name string, docs []textDoc) *azcosmos.ContainerClient {
	t.Helper()
	c := env.createSearchContainer(t, fullTextContainerProperties(name), 400)
	env.checkFullTextPolicy(t, c)
	for _, d := range docs {
		env.must(t, "create "+d.id, func() error {
			_, err := c.CreateItem(ctx, azcosmos.NewPartitionKeyString(d.pk), doc("id", d.id, "pk", d.pk, "text", d.text), nil)
			return err
		})
	}
	return c
}

// bm25Docs are made only of words that are their own stems and no stop words, so the
// words BM25 counts are the whitespace-separated ones.
var bm25Docs = []textDoc{
	{"r01", "k0", "dog dog dog"},
	{"r02", "k0", "dog cat fish bird rock swim run tree"},
	{"r03", "k0", "tree tree dog"},
	{"r04", "k0", "cat fish"},
	{"r05", "k0", "swim run swim run"},
	{"r06", "k1", "dog"},
	{"r07", "k1", "tree rock tree rock tree rock"},
	{"r08", "k1", "cat cat cat cat bird"},
	{"r09", "k1", "dog tree fish fish fish fish"},
	{"r10", "k1", "fish fish bird rock"},
	{"r11", "k2", "run dog run dog run tree"},
	{"r12", "k2", "bird bird"},
	{"r13", "k2", "rock"},
	{"r14", "k2", "dog tree dog tree dog tree dog tree dog tree"},
	{"r15", "k2", "swim fish cat"},
	{"r16", "k2", "cat swim"},
}

// bm25Scores scores every document of docs for the terms with statistics over docs:
// N documents, avgdl = words / N, df = documents holding the term,
// idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
// score = sum over terms of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)).
func bm25Scores(docs map[string][]string, terms []string) map[string]float64 {
	const k1, b = 1.2, 0.75
	n := float64(len(docs))
	total := 0
	for _, words := range docs {
		total += len(words)
	}
	avgdl := float64(total) / n
	df := map[string]float64{}
	for _, words := range docs {
		has := map[string]bool{}
		for _, w := range words {
			has[w] = true
		}
		for _, term := range terms {
			if has[term] {
				df[term]++
			}
		}
	}
	scores := map[string]float64{}
	for id, words := range docs {
		dl := float64(len(words))
		score := 0.0
		for _, term := range terms {
			tf := 0.0
			for _, w := range words {
				if w == term {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-df[term]+0.5)/(df[term]+0.5))
			score += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*dl/avgdl))
		}
		scores[id] = score
	}
	return scores
}

func positive(scores map[string]float64, keep func(id string) bool) []ranked {
	var out []ranked
	for id, s := range scores {
		if s > 0 && keep(id) {
			out = append(out, ranked{id, s})
		}
	}
	return out
}

func sameOrder(a, b []ranked) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].id != b[i].id {
			return false
		}
	}
	return true
}

func TestFullTextScore(t *testing.T) {
	all := map[string][]string{}
	pkOf := map[string]string{}
	for _, d := range bm25Docs {
		all[d.id] = strings.Fields(d.text)
		pkOf[d.id] = d.pk
	}
	cases := []struct {
		terms []string // as written in the query
		stems []string // the words they match
		pk    string   // "" = cross-partition
		k     int
		// localDiffers: statistics of the partition alone would rank differently, so the
		// case proves the whole container's statistics are used.
		localDiffers bool
	}{
		{[]string{"dog", "tree"}, []string{"dog", "tree"}, "", 5, false},
		{[]string{"dog", "tree"}, []string{"dog", "tree"}, "", 10, false},
		{[]string{"fish"}, []string{"fish"}, "", 10, false},
		{[]string{"cat", "swim", "bird"}, []string{"cat", "swim", "bird"}, "", 10, false},
		{[]string{"dogs", "trees"}, []string{"dog", "tree"}, "", 5, false},
		{[]string{"dog", "tree"}, []string{"dog", "tree"}, "k1", 5, true},
		{[]string{"fish", "dog"}, []string{"fish", "dog"}, "k1", 5, true},
		{[]string{"rock", "run"}, []string{"rock", "run"}, "k2", 5, true},
	}
	forEachStorage(t, func(t *testing.T, storage string) {
		env := newGoEnv(t, storage, sharedServer(t, storage), nil)
		ctx := ctxFor(t, 60*time.Second)
		c := env.fullTextContainerWith(t, ctx, "rank", bm25Docs)
		for _, tc := range cases {
			quoted := make([]string, len(tc.terms))
			for i, term := range tc.terms {
				quoted[i] = "'" + term + "'"
			}
			query := fmt.Sprintf("SELECT TOP %d c.id FROM c ORDER BY RANK FullTextScore(c.text, %s)", tc.k, strings.Join(quoted, ", "))
			name := query
			if tc.pk != "" {
				name += " key " + tc.pk
			}
			t.Run(name, func(t *testing.T) {
				inKey := func(id string) bool { return tc.pk == "" || pkOf[id] == tc.pk }
				scores := bm25Scores(all, tc.stems)
				want := expectedRanking(positive(scores, inKey), true, tc.k)
				if tc.localDiffers {
					local := map[string][]string{}
					for id, words := range all {
						if inKey(id) {
							local[id] = words
						}
					}
					alt := expectedRanking(positive(bm25Scores(local, tc.stems), inKey), true, tc.k)
					if sameOrder(alt, want) {
						t.Fatalf("fixture: statistics of key %s alone rank %s, as the whole container's %s; the case cannot tell them apart", tc.pk, rankingString(alt), rankingString(want))
					}
				}
				pk := azcosmos.NewPartitionKey()
				if tc.pk != "" {
					pk = azcosmos.NewPartitionKeyString(tc.pk)
				}
				mark := env.rec.mark()
				rows := env.searchQuery(t, c, query, pk, nil, 0, false)
				var ids []string
				for i, row := range rows {
					m, _ := row.(map[string]any)
					id, _ := m["id"].(string)
					if id == "" {
						t.Fatalf("%s [%s] %s: row %d is %s, want {id}", sdkName, storage, query, i, canon(row))
					}
					ids = append(ids, id)
				}
				candidates := map[string]float64{}
				for id, s := range scores {
					if s > 0 && inKey(id) {
						candidates[id] = s
					}
				}
				if !checkRanking(t, fmt.Sprintf("%s [%s] %s (key %q)", sdkName, storage, query, tc.pk), ids, candidates, want) {
					t.Logf("%s", env.rec.wire(mark))
				}
			})
		}
	})
}
