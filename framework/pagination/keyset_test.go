package pagination_test

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/testservers"
)

var keysetSecret = []byte("keyset test secret")

// path returns the path and query of a link, "" for none.
func path(link *string) string {
	if link == nil {
		return ""
	}
	return strings.TrimPrefix(*link, "http://testserver")
}

// TestKeysetWalksTies walks the reference's 25 books by rating (five
// books per rating) both ways: every book once, in (rating, id) order,
// where DRF's cursor repeats and skips books going back (DRF #7887).
func TestKeysetWalksTies(t *testing.T) {
	src := booksSource(t, openBooks(t, 25))
	for _, ordering := range [][]string{{"rating"}, {"-rating"}, {"-rating", "title"}} {
		style := &pagination.KeysetPagination{PageSize: 4, Ordering: ordering, Secret: keysetSecret}
		if err := style.Check(queryset.Into(src, nil)); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(styleView(src, style))
		var want []int
		for i := 1; i <= 25; i++ {
			want = append(want, i)
		}
		slices.SortStableFunc(want, func(a, b int) int {
			ra, rb := seedBook(a).Rating, seedBook(b).Rating
			if ordering[0] == "-rating" {
				ra, rb = rb, ra
			}
			if c := cmp.Compare(ra, rb); c != 0 {
				return c
			}
			if len(ordering) > 1 {
				return cmp.Compare(seedBook(a).Title, seedBook(b).Title)
			}
			// The key breaks ties in the direction of the last term.
			if ordering[0] == "-rating" {
				return cmp.Compare(b, a)
			}
			return cmp.Compare(a, b)
		})
		var forward []string
		var last envelope
		for p := "/"; p != ""; {
			last = decode(t, get(t, srv, p))
			forward = append(forward, p)
			p = path(last.Next)
		}
		seen := follow(t, srv, "/", "next", func() {})
		if !slices.Equal(seen, want) {
			t.Errorf("%v forward: %v, want %v", ordering, seen, want)
		}
		back := follow(t, srv, forward[len(forward)-1], "previous", func() {})
		if !slices.Equal(back, want) {
			t.Errorf("%v backward: %v, want %v", ordering, back, want)
		}
		// Next then previous comes back to the same page.
		first := decode(t, get(t, srv, "/"))
		second := decode(t, get(t, srv, path(first.Next)))
		again := decode(t, get(t, srv, path(second.Previous)))
		if !slices.Equal(again.ids(), first.ids()) || again.Previous != nil || path(again.Next) != path(first.Next) {
			t.Errorf("%v: back to the first page: %v prev %s next %s", ordering, again.ids(), str(again.Previous), str(again.Next))
		}
		srv.Close()
	}
}

// TestKeysetRejectsTampering: a cursor that was altered, signed with
// another secret, made for another ordering or not base64 answers DRF's
// 404 "Invalid cursor".
func TestKeysetRejectsTampering(t *testing.T) {
	src := booksSource(t, openBooks(t, 25))
	style := &pagination.KeysetPagination{PageSize: 4, Ordering: []string{"-rating"}, Secret: keysetSecret}
	srv := httptest.NewServer(styleView(src, style))
	defer srv.Close()
	next := path(decode(t, get(t, srv, "/")).Next)
	_, cursor, _ := strings.Cut(next, "cursor=")
	if a := get(t, srv, next); a.Status != 200 {
		t.Fatalf("untouched cursor: %d %s", a.Status, a.Body)
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for i := range raw {
		flipped := slices.Clone(raw)
		flipped[i] ^= 1
		bad = append(bad, base64.RawURLEncoding.EncodeToString(flipped))
	}
	other := func(s *pagination.KeysetPagination) string {
		srv := httptest.NewServer(styleView(src, s))
		defer srv.Close()
		_, c, _ := strings.Cut(path(decode(t, get(t, srv, "/")).Next), "cursor=")
		return c
	}
	bad = append(bad,
		other(&pagination.KeysetPagination{PageSize: 4, Ordering: []string{"-rating"}, Secret: []byte("another")}),
		other(&pagination.KeysetPagination{PageSize: 4, Ordering: []string{"rating"}, Secret: keysetSecret}),
		cursor[:len(cursor)-2], cursor+"AA", "", "!!!", "cD0z", base64.StdEncoding.EncodeToString([]byte("o=1&p=3")),
		strings.Repeat("A", 5000))
	for _, c := range bad {
		a := get(t, srv, "/?cursor="+c)
		if e := decode(t, a); a.Status != 404 || e.Detail != "Invalid cursor" {
			t.Errorf("cursor %q: %d %s", c, a.Status, a.Body)
		}
	}
}

func TestKeysetCheck(t *testing.T) {
	src := booksSource(t, openBooks(t, 1))
	for _, c := range []struct {
		style *pagination.KeysetPagination
		ok    bool
	}{
		{&pagination.KeysetPagination{}, true},
		{&pagination.KeysetPagination{Ordering: []string{"-rating", "title"}}, true},
		{&pagination.KeysetPagination{Ordering: []string{"nope"}}, false},
		{&pagination.KeysetPagination{Ordering: []string{"owner__name"}}, false},
		{&pagination.KeysetPagination{Key: "nope"}, false},
	} {
		if err := c.style.Check(queryset.Into(src, nil)); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.style, err)
		}
	}
}

// keysetRow is a row of the property test: few distinct values, so many
// ties.
type keysetRow struct {
	id, rating int
	title      string
	created    time.Time
}

// keysetOrderings are the orderings the property test draws from.
var keysetOrderings = [][]string{{"-rating"}, {"rating", "-title"}, {"title"}, {"-created", "rating"}, {"rating", "created", "title"}, {"-id"}}

// compareRows compares two rows in ordering followed by the id tie-break
// in the direction of the last term, as KeysetPagination orders.
func compareRows(ordering []string, a, b keysetRow) int {
	desc := false
	for _, term := range ordering {
		o := query.ParseOrder(term)
		desc = o.Desc
		var c int
		switch o.Field {
		case "rating":
			c = cmp.Compare(a.rating, b.rating)
		case "title":
			c = cmp.Compare(a.title, b.title)
		case "created":
			c = a.created.Compare(b.created)
		case "id":
			c = cmp.Compare(a.id, b.id)
		}
		if o.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	if desc {
		return cmp.Compare(b.id, a.id)
	}
	return cmp.Compare(a.id, b.id)
}

// envInt reads a positive integer from the environment, or def.
func envInt(t *testing.T, name string, def uint64) uint64 {
	if s := os.Getenv(name); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", name, s, err)
		}
		return n
	}
	return def
}

// TestKeysetPropertyNoRowRepeatedOrSkipped is the property test of keyset
// pagination: random rows with many ties in a random ordering, random
// inserts and deletes between the pages, a walk forward to the end and
// then back to the start. Each walk must list rows strictly in the
// ordering (so none twice), each row existing when its page was read, and
// every row that existed when the walk began and was not deleted during
// it. It runs on SQLite and PostgreSQL (SQLSource) and in memory
// (SliceSource).
//
// DRF_KEYSET_SEED and DRF_KEYSET_ITERATIONS reproduce or extend a run;
// the seed and iterations are logged (go test -v).
func TestKeysetPropertyNoRowRepeatedOrSkipped(t *testing.T) {
	seed := envInt(t, "DRF_KEYSET_SEED", uint64(time.Now().UnixNano()))
	iterations := int(envInt(t, "DRF_KEYSET_ITERATIONS", 150))
	t.Logf("keyset property test: seed %d, %d iterations per source (DRF_KEYSET_SEED=%d reproduces)", seed, iterations, seed)
	for _, kind := range []string{"sql", "slice", "postgresql"} {
		t.Run(kind, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0x6b657973))
			db := openBooks(t, 0)
			if kind == "postgresql" {
				db = openBooksAt(t, testservers.Postgres(t), 0)
			}
			var pages, inserts, deletes, rows int
			for it := range iterations {
				w := newKeysetWorld(t, kind, db, rng)
				rows += len(w.rows)
				w.walk(it)
				pages, inserts, deletes = pages+w.pages, inserts+w.inserts, deletes+w.deletes
			}
			t.Logf("%s: seed %d, %d iterations, %d initial rows, %d pages read, %d inserts and %d deletes between pages",
				kind, seed, iterations, rows, pages, inserts, deletes)
		})
	}
}

// keysetWorld is one iteration: the rows (the truth), their copy in the
// source, and the server paging them.
type keysetWorld struct {
	t        *testing.T
	kind     string
	db       *sqlx.DB
	rng      *rand.Rand
	ordering []string
	size     int
	nextID   int

	mu   sync.Mutex
	rows map[int]keysetRow

	srv                     *httptest.Server
	pages, inserts, deletes int
}

var keysetTitles = []string{"A", "B", "C"}

func newKeysetWorld(t *testing.T, kind string, db *sqlx.DB, rng *rand.Rand) *keysetWorld {
	w := &keysetWorld{t: t, kind: kind, db: db, rng: rng, rows: map[int]keysetRow{},
		ordering: keysetOrderings[rng.IntN(len(keysetOrderings))], size: 1 + rng.IntN(6)}
	if _, err := db.Exec(`DELETE FROM books`); err != nil {
		t.Fatal(err)
	}
	for range rng.IntN(60) {
		w.insert()
	}
	style := &pagination.KeysetPagination{PageSize: w.size, Ordering: w.ordering, Secret: keysetSecret}
	w.srv = httptest.NewServer(apitest.View(framework.View{Pagination: style,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return list(w.source(), nil)(v, r)
		}}))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *keysetWorld) insert() {
	w.nextID++
	r := keysetRow{id: w.nextID, rating: 1 + w.rng.IntN(3), title: keysetTitles[w.rng.IntN(len(keysetTitles))],
		created: epoch.Add(time.Duration(w.rng.IntN(3)) * time.Hour)}
	w.mu.Lock()
	w.rows[r.id] = r
	w.mu.Unlock()
	insertBook(w.t, w.db, book{ID: int64(r.id), Title: r.title, Author: "a", Rating: int64(r.rating), Created: r.created, Owner: "o"})
}

// maxInserts bounds the inserts of an iteration: rows inserted at the
// walk's far end faster than pages are read would make it endless.
const maxInserts = 40

// mutate inserts and deletes up to three rows each; it returns the ids
// deleted.
func (w *keysetWorld) mutate() []int {
	var gone []int
	for range min(w.rng.IntN(4), maxInserts-w.inserts) {
		w.insert()
		w.inserts++
	}
	ids := w.ids()
	for range min(w.rng.IntN(3), len(ids)) {
		id := ids[w.rng.IntN(len(ids))]
		if _, ok := w.rows[id]; !ok {
			continue
		}
		w.mu.Lock()
		delete(w.rows, id)
		w.mu.Unlock()
		if _, err := w.db.Exec(w.db.Rebind(`DELETE FROM books WHERE id = ?`), id); err != nil {
			w.t.Fatal(err)
		}
		gone = append(gone, id)
		w.deletes++
	}
	return gone
}

func (w *keysetWorld) ids() []int {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]int, 0, len(w.rows))
	for id := range w.rows {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// source is the rows as the iteration's kind of source.
func (w *keysetWorld) source() queryset.Source[book] {
	if w.kind != "slice" {
		return booksSource(w.t, w.db)
	}
	var books []book
	for _, id := range w.ids() {
		r := w.rows[id]
		books = append(books, book{ID: int64(r.id), Title: r.title, Author: "a", Rating: int64(r.rating), Created: r.created, Owner: "o"})
	}
	return queryset.MustSlice(books, query.Order{Field: "id"})
}

// walk pages forward from the first page to the end, then backward from
// there to the start, mutating between pages, and checks both walks.
func (w *keysetWorld) walk(it int) {
	t := w.t
	describe := func(dir string) string {
		return fmt.Sprintf("iteration %d (%s, ordering %v, page size %d), %s walk", it, w.kind, w.ordering, w.size, dir)
	}
	// read fetches a page, checks that its rows exist now, and returns it.
	read := func(p string, dir string) envelope {
		a := get(t, w.srv, p)
		e := decode(t, a)
		if a.Status != 200 {
			t.Fatalf("%s: %s: %d %s", describe(dir), p, a.Status, a.Body)
		}
		w.pages++
		for _, id := range e.ids() {
			if _, ok := w.rows[id]; !ok {
				t.Fatalf("%s: row %d listed after its deletion", describe(dir), id)
			}
		}
		return e
	}
	// check verifies one walk: seen in order (reversed for backward),
	// and every stable row seen.
	check := func(dir string, seen []int, stable map[int]bool, all map[int]keysetRow) {
		for i := 1; i < len(seen); i++ {
			if compareRows(w.ordering, all[seen[i-1]], all[seen[i]]) >= 0 {
				t.Fatalf("%s: rows %d and %d out of order or repeated: %v", describe(dir), seen[i-1], seen[i], seen)
			}
		}
		for id := range stable {
			if !slices.Contains(seen, id) {
				t.Fatalf("%s: row %d skipped: %v", describe(dir), id, seen)
			}
		}
	}
	// all remembers every row ever present, to compare deleted ones.
	all := map[int]keysetRow{}
	remember := func() {
		for id, r := range w.rows {
			all[id] = r
		}
	}
	stableNow := func() map[int]bool {
		s := map[int]bool{}
		for id := range w.rows {
			s[id] = true
		}
		return s
	}

	remember()
	stable := stableNow()
	var seen []int
	var atLast map[int]bool // the rows present when the last page was read
	p, e := "/", envelope{}
	for n := 0; p != ""; n++ {
		if n > 10000 {
			t.Fatalf("%s: the chain does not end", describe("forward"))
		}
		e = read(p, "forward")
		atLast = stableNow()
		seen = append(seen, e.ids()...)
		p = path(e.Next)
		for _, id := range w.mutate() {
			delete(stable, id)
			delete(atLast, id)
		}
		remember()
	}
	check("forward", seen, stable, all)

	// Back from the last page: its rows, then the previous pages'. The
	// stable rows are those present when the last page was read, less
	// those deleted since.
	stable = atLast
	back := slices.Clone(e.ids())
	slices.Reverse(back)
	for n, p := 0, path(e.Previous); p != ""; n++ {
		if n > 10000 {
			t.Fatalf("%s: the chain does not end", describe("backward"))
		}
		e = read(p, "backward")
		ids := slices.Clone(e.ids())
		slices.Reverse(ids)
		back = append(back, ids...)
		p = path(e.Previous)
		for _, id := range w.mutate() {
			delete(stable, id)
		}
		remember()
	}
	slices.Reverse(back)
	check("backward", back, stable, all)
}

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }
