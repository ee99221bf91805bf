package orrerygo

// Query pages that resume where the previous one ended (issue 16, point 1), through
// azcosmos v1.5.0: each page read by a new pager from the previous page's
// QueryItemsResponse.ContinuationToken (QueryOptions.ContinuationToken), within one
// logical partition (this SDK has no cross-partition pipeline, scenario_test.go).
// ORDER BY both ways, DISTINCT and GROUP BY, compared with what is computed here from
// the items written here; items written between pages (ORDER BY: no row twice, no
// unchanged row skipped, a row after the cursor read, one before it not); an altered
// token refused with a 400.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos"
)

const (
	pagingItems = 600
	pagingTeams = 90
)

type pagingItem struct {
	ID   string `json:"id"`
	PK   string `json:"pk"`
	N    int    `json:"n"`
	V    int    `json:"v"`
	Team string `json:"team"`
}

// n is a permutation of 0..pagingItems-1 (7919 is prime to 600); team repeats.
func pagingItemOf(i int) pagingItem {
	return pagingItem{ID: fmt.Sprintf("i%05d", i), PK: "big", N: (i * 7919) % pagingItems, V: i % 13, Team: fmt.Sprintf("t%03d", (i*37)%pagingTeams)}
}

type pagingEnv struct {
	*goEnv
	c  *azcosmos.ContainerClient
	pk azcosmos.PartitionKey
}

func newPagingEnv(t *testing.T, storage string) *pagingEnv {
	env := newGoEnv(t, storage, sharedServer(t, storage), nil)
	p := &pagingEnv{goEnv: env, c: env.container(t, "paging", []string{"/pk"}, 0), pk: azcosmos.NewPartitionKeyString("big")}
	bodies := make([][]byte, pagingItems)
	for i := range bodies {
		bodies[i], _ = json.Marshal(pagingItemOf(i))
	}
	env.createInBatches(t, p.c, p.pk, bodies)
	return p
}

// createInBatches creates the items of one partition key, 100 to a transactional batch.
func (e *goEnv) createInBatches(t *testing.T, c *azcosmos.ContainerClient, pk azcosmos.PartitionKey, bodies [][]byte) {
	t.Helper()
	for start := 0; start < len(bodies); start += 100 {
		b := c.NewTransactionalBatch(pk)
		for _, body := range bodies[start:min(start+100, len(bodies))] {
			b.CreateItem(body, nil)
		}
		e.must(t, "batch of creates", func() error {
			r, err := c.ExecuteTransactionalBatch(ctxFor(t, 30*time.Second), b, nil)
			if err == nil && !r.Success {
				err = fmt.Errorf("batch failed")
			}
			return err
		})
	}
}

// page reads one page from token (nil: the first) and returns its rows and next token.
func (p *pagingEnv) page(t *testing.T, query string, size int32, token *string) ([][]byte, *string) {
	t.Helper()
	var resp azcosmos.QueryItemsResponse
	p.must(t, "page of "+query, func() error {
		var err error
		pager := p.c.NewQueryItemsPager(query, p.pk, &azcosmos.QueryOptions{PageSizeHint: size, ContinuationToken: token})
		resp, err = pager.NextPage(ctxFor(t, 30*time.Second))
		return err
	})
	if int32(len(resp.Items)) > size {
		t.Fatalf("%s: a page of %d rows, more than %d", query, len(resp.Items), size)
	}
	return resp.Items, resp.ContinuationToken
}

// resumed reads every page, each through a new pager from the previous token; between
// pages it calls between(pageNumber).
func (p *pagingEnv) resumed(t *testing.T, query string, size int32, between func(int)) (rows [][]byte, pages int) {
	t.Helper()
	var token *string
	for pages = 1; pages <= 1000; pages++ {
		items, next := p.page(t, query, size, token)
		rows = append(rows, items...)
		if next == nil || *next == "" {
			return rows, pages
		}
		if between != nil {
			between(pages)
		}
		token = next
	}
	t.Fatalf("%s: more than 1000 pages", query)
	return nil, 0
}

func stringsOf(t *testing.T, rows [][]byte) []string {
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			t.Fatalf("row %s is not a string", r)
		}
		out = append(out, s)
	}
	return out
}

func TestQueryPagesResume(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		p := newPagingEnv(t, storage)
		items := make([]pagingItem, pagingItems)
		for i := range items {
			items[i] = pagingItemOf(i)
		}

		for _, dir := range []string{"ASC", "DESC"} {
			t.Run("ORDER BY "+dir, func(t *testing.T) {
				rows, pages := p.resumed(t, "SELECT VALUE c.id FROM c ORDER BY c.n "+dir, 70, nil)
				want := append([]pagingItem(nil), items...)
				sort.Slice(want, func(i, j int) bool {
					if dir == "DESC" {
						return want[i].N > want[j].N
					}
					return want[i].N < want[j].N
				})
				var ids []string
				for _, d := range want {
					ids = append(ids, d.ID)
				}
				if got := stringsOf(t, rows); !reflect.DeepEqual(got, ids) {
					t.Errorf("rows differ from the items in %s order (%d rows, want %d)", dir, len(got), len(ids))
				}
				if pages < pagingItems/70 {
					t.Errorf("%d pages of 70 for %d rows", pages, pagingItems)
				}
			})
		}

		t.Run("DISTINCT", func(t *testing.T) {
			rows, _ := p.resumed(t, "SELECT DISTINCT VALUE c.team FROM c", 20, nil)
			got := stringsOf(t, rows)
			seen := map[string]bool{}
			for _, team := range got {
				if seen[team] {
					t.Fatalf("team %s returned twice", team)
				}
				seen[team] = true
			}
			want := map[string]bool{}
			for _, d := range items {
				want[d.Team] = true
			}
			if !reflect.DeepEqual(seen, want) {
				t.Errorf("%d distinct teams, want %d", len(seen), len(want))
			}
		})

		t.Run("GROUP BY", func(t *testing.T) {
			type group struct {
				Team string `json:"team"`
				Cnt  int    `json:"cnt"`
				S    int    `json:"s"`
			}
			rows, pages := p.resumed(t, "SELECT c.team AS team, COUNT(1) AS cnt, SUM(c.v) AS s FROM c GROUP BY c.team", 25, nil)
			got := map[string]group{}
			for _, r := range rows {
				var g group
				_ = json.Unmarshal(r, &g)
				if _, twice := got[g.Team]; twice {
					t.Fatalf("group %s returned twice", g.Team)
				}
				got[g.Team] = g
			}
			want := map[string]group{}
			for _, d := range items {
				g := want[d.Team]
				g.Team, g.Cnt, g.S = d.Team, g.Cnt+1, g.S+d.V
				want[d.Team] = g
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("groups differ: %d groups, want %d", len(got), len(want))
			}
			if pages < pagingTeams/25 {
				t.Errorf("%d pages of 25 for %d groups", pages, pagingTeams)
			}
		})

		t.Run("ORDER BY with writes between pages", func(t *testing.T) {
			// After the first page of the ascending order: one item that sorts before the
			// cursor, one after the last, and a replace of an item not yet read that keeps
			// its place.
			added := false
			rows, _ := p.resumed(t, "SELECT c.id, c.n FROM c ORDER BY c.n", 100, func(page int) {
				if added {
					return
				}
				added = true
				for _, d := range []pagingItem{
					{ID: "before", PK: "big", N: -1, Team: "t000"},
					{ID: "after", PK: "big", N: pagingItems + 5, Team: "t000"},
				} {
					body, _ := json.Marshal(d)
					p.must(t, "create "+d.ID, func() error {
						_, err := p.c.CreateItem(ctxFor(t, 10*time.Second), p.pk, body, nil)
						return err
					})
				}
				keep := items[len(items)-1]
				keep.V = 99
				body, _ := json.Marshal(keep)
				p.must(t, "replace "+keep.ID, func() error {
					_, err := p.c.ReplaceItem(ctxFor(t, 10*time.Second), p.pk, keep.ID, body, nil)
					return err
				})
			})
			defer func() {
				for _, id := range []string{"before", "after"} {
					_, _ = p.c.DeleteItem(ctxFor(t, 10*time.Second), p.pk, id, nil)
				}
			}()
			type row struct {
				ID string `json:"id"`
				N  int    `json:"n"`
			}
			var got []row
			seen := map[string]bool{}
			for _, r := range rows {
				var x row
				_ = json.Unmarshal(r, &x)
				if seen[x.ID] {
					t.Fatalf("%s returned twice", x.ID)
				}
				seen[x.ID] = true
				got = append(got, x)
			}
			for i := 1; i < len(got); i++ {
				if got[i].N < got[i-1].N {
					t.Fatalf("out of order at %d: %v then %v", i, got[i-1], got[i])
				}
			}
			for _, d := range items {
				if !seen[d.ID] {
					t.Errorf("%s (n=%d) skipped", d.ID, d.N)
				}
			}
			if seen["before"] {
				t.Errorf("an item written before the cursor was returned")
			}
			if !seen["after"] {
				t.Errorf("an item written after the cursor was not returned")
			}
		})

		t.Run("altered token", func(t *testing.T) {
			query := "SELECT VALUE c.id FROM c ORDER BY c.n"
			_, token := p.page(t, query, 50, nil)
			if token == nil {
				t.Fatalf("no continuation after the first page")
			}
			raw, err := base64.StdEncoding.DecodeString(*token)
			colon := strings.IndexByte(string(raw), ':')
			if err != nil || colon < 0 {
				t.Fatalf("token %q is not Orrery's base64 text", *token)
			}
			altered := base64.StdEncoding.EncodeToString(append([]byte("S999"), raw[colon:]...))
			mark := p.rec.mark()
			_, err = p.c.NewQueryItemsPager(query, p.pk, &azcosmos.QueryOptions{PageSizeHint: 50, ContinuationToken: &altered}).NextPage(ctxFor(t, 30*time.Second))
			re, ok := responseError(err)
			if !ok || re.StatusCode != 400 {
				t.Fatalf("altered token: %s, want 400\n%s", describeErr(err), p.rec.wire(mark))
			}
			if !strings.Contains(err.Error(), "Invalid Continuation Token") {
				t.Errorf("altered token: %s, want a message naming the invalid continuation token", err)
			}
		})
	})
}

// A server whose pages end after 1 ms (--query-page-time-ms 1) and a slow, selective
// filter: most pages end by time, many of them empty. The pager must read on until the
// token runs out; every row comes, once, in order (issue 16, point 5).
func TestPagesCutByTime(t *testing.T) {
	forEachStorage(t, func(t *testing.T, storage string) {
		srv := ownServer(t, storage, "--query-page-time-ms", "1", "--initial-partitions", "3")
		env := newGoEnv(t, storage, srv, nil)
		c := env.container(t, "budget", []string{"/pk"}, 0)
		const items, keys, teams = 1200, 4, 37
		type doc struct {
			ID   string `json:"id"`
			PK   string `json:"pk"`
			N    int    `json:"n"`
			Team string `json:"team"`
		}
		var docs []doc
		for i := 0; i < items; i++ {
			docs = append(docs, doc{ID: fmt.Sprintf("i%05d", i), PK: fmt.Sprintf("p%d", i%keys), N: (i * 7919) % items, Team: fmt.Sprintf("t%02d", (i*13)%teams)})
		}
		for k := 0; k < keys; k++ {
			var bodies [][]byte
			for _, d := range docs {
				if d.PK == fmt.Sprintf("p%d", k) {
					body, _ := json.Marshal(d)
					bodies = append(bodies, body)
				}
			}
			env.createInBatches(t, c, azcosmos.NewPartitionKeyString(fmt.Sprintf("p%d", k)), bodies)
		}
		// A per-item cost of tens of microseconds, keeping 5 teams of 37.
		const slow = `RegexMatch(REPLICATE(c.team, 1000), "t0[0-4]$")`
		kept := func(d doc) bool { return strings.HasPrefix(d.Team, "t0") && d.Team[2] <= '4' }
		read := func(query string, pk azcosmos.PartitionKey) (rows [][]byte, pages int) {
			t.Helper()
			pager := c.NewQueryItemsPager(query, pk, &azcosmos.QueryOptions{PageSizeHint: 100})
			for ; pager.More(); pages++ {
				if pages == 5000 {
					t.Fatalf("%s: more than 5000 pages", query)
				}
				var page azcosmos.QueryItemsResponse
				env.must(t, "page of "+query, func() error {
					var err error
					page, err = pager.NextPage(ctxFor(t, 30*time.Second))
					return err
				})
				rows = append(rows, page.Items...)
			}
			return rows, pages
		}

		t.Run("one partition key, ORDER BY", func(t *testing.T) {
			rows, pages := read("SELECT VALUE c.id FROM c WHERE "+slow+" ORDER BY c.n", azcosmos.NewPartitionKeyString("p1"))
			var want []doc
			for _, d := range docs {
				if d.PK == "p1" && kept(d) {
					want = append(want, d)
				}
			}
			sort.Slice(want, func(i, j int) bool { return want[i].N < want[j].N })
			var ids []string
			for _, d := range want {
				ids = append(ids, d.ID)
			}
			if got := stringsOf(t, rows); !reflect.DeepEqual(got, ids) {
				t.Errorf("rows %v, want %v", got, ids)
			}
			if pages <= 1+len(ids)/100 {
				t.Errorf("%d pages for %d rows: no page ended by time", pages, len(ids))
			}
		})

		t.Run("across partitions, a filter", func(t *testing.T) {
			rows, pages := read("SELECT VALUE c.id FROM c WHERE "+slow, azcosmos.NewPartitionKey())
			var ids []string
			for _, d := range docs {
				if kept(d) {
					ids = append(ids, d.ID)
				}
			}
			got := stringsOf(t, rows)
			sort.Strings(got)
			if !reflect.DeepEqual(got, ids) {
				t.Errorf("%d rows, want %d (each once)", len(got), len(ids))
			}
			if pages <= 1+len(ids)/100 {
				t.Errorf("%d pages for %d rows: no page ended by time", pages, len(ids))
			}
		})
	})
}
