package generics_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// Memo is the item of the conditional views.
type Memo struct {
	ID    int64  `db:"id" json:"id" drf:"read_only"`
	Title string `db:"title" json:"title" drf:"max_length=100"`
}

var memoSerializer = serializers.MustNew[Memo]()

// memoDialects runs fn on a migrated SQLite file (several connections, as
// a server has) and a migrated PostgreSQL database, each with a memo table
// holding memo 1 "first".
func memoDialects(t *testing.T, fn func(t *testing.T, db *sqlx.DB)) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		if _, err := db.Exec(`CREATE TABLE "memo" ("id" integer NOT NULL PRIMARY KEY, "title" varchar(100) NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO "memo" ("id", "title") VALUES (1, 'first')`); err != nil {
			t.Fatal(err)
		}
		fn(t, db)
	}, migrations.Lease)
}

// memos serves /memos/ and /memos/{pk}/ over db with cond on the detail
// view, as one instance of a service.
func memos(t *testing.T, db *sqlx.DB, cond *generics.Conditional) *apitest.Client {
	src := queryset.MustSQL[Memo](db, queryset.SQLConfig{Table: "memo", Ordering: []query.Order{{Field: "id"}}})
	api := framework.NewAPI(db, framework.Settings{})
	api.Handle("/memos/", generics.ListCreateAPIView(generics.GenericAPIView[Memo]{Source: src, Serializer: memoSerializer, Conditional: cond}))
	api.Handle("/memos/{pk}/", generics.RetrieveUpdateDestroyAPIView(generics.GenericAPIView[Memo]{Source: src, Serializer: memoSerializer, Conditional: cond}))
	return apitest.New(t, api)
}

// TestConditionalRequests: the detail answers carry a strong ETag; a GET
// or HEAD naming it in If-None-Match is 304 with no body; a write whose
// If-Match is stale is 412 and changes nothing, one naming the current
// tag succeeds and answers the new tag; a missing item stays 404; the
// list has no tag.
func TestConditionalRequests(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		c := memos(t, db, &generics.Conditional{Locks: store.Leases{DB: db}})
		first := c.Get("/memos/1/")
		tag := first.Header.Get("ETag")
		if first.Status != 200 || !strings.HasPrefix(tag, `"`) || len(tag) < 20 {
			t.Fatalf("GET: %d %q %s", first.Status, tag, first.Body)
		}
		for _, inm := range []string{tag, `"other", ` + tag, "W/" + tag, "*"} {
			for _, method := range []string{"GET", "HEAD"} {
				if r := c.Do(method, "/memos/1/", "", "If-None-Match: "+inm); r.Status != 304 || r.Body != "" || r.Header.Get("ETag") != tag {
					t.Errorf("%s If-None-Match %s: %d %q %v", method, inm, r.Status, r.Body, r.Header)
				}
			}
		}
		if r := c.Get("/memos/1/", `If-None-Match: "stale"`); r.Status != 200 || r.Body != first.Body || r.Header.Get("ETag") != tag {
			t.Errorf("If-None-Match stale: %d %s", r.Status, r.Body)
		}
		if r := c.Get("/memos/"); r.Header.Get("ETag") != "" {
			t.Errorf("the list has an ETag: %v", r.Header)
		}

		// Writes: a stale or weak tag is 412 and leaves the item.
		for _, im := range []string{`"stale"`, "W/" + tag} {
			r := c.Do("PUT", "/memos/1/", `{"title":"lost"}`, "If-Match: "+im)
			if r.Status != http.StatusPreconditionFailed || r.JSON()["detail"] != generics.MsgPreconditionFailed {
				t.Errorf("PUT If-Match %s: %d %s", im, r.Status, r.Body)
			}
		}
		if r := c.Do("DELETE", "/memos/1/", "", `If-Match: "stale"`); r.Status != http.StatusPreconditionFailed {
			t.Errorf("DELETE stale: %d %s", r.Status, r.Body)
		}
		put := c.Do("PUT", "/memos/1/", `{"title":"second"}`, "If-Match: "+tag)
		newTag := put.Header.Get("ETag")
		if put.Status != 200 || put.Body != `{"id":1,"title":"second"}` || newTag == "" || newTag == tag {
			t.Fatalf("PUT current: %d %s %q", put.Status, put.Body, newTag)
		}
		if r := c.Get("/memos/1/", "If-None-Match: "+newTag); r.Status != 304 {
			t.Errorf("the PUT's tag is not the GET's: %d", r.Status)
		}
		if r := c.Do("PATCH", "/memos/1/", `{"title":"third"}`, "If-Match: "+tag); r.Status != http.StatusPreconditionFailed {
			t.Errorf("PATCH with the old tag: %d %s", r.Status, r.Body)
		}
		// No If-Match, none required: DRF's write.
		if r := c.Do("PATCH", "/memos/1/", `{"title":"third"}`); r.Status != 200 || r.Header.Get("ETag") == "" {
			t.Errorf("PATCH unconditional: %d %s", r.Status, r.Body)
		}
		if r := c.Do("DELETE", "/memos/9/", "", "If-Match: *"); r.Status != 404 {
			t.Errorf("DELETE missing: %d %s", r.Status, r.Body)
		}
		if r := c.Do("DELETE", "/memos/1/", "", "If-Match: *"); r.Status != 204 {
			t.Errorf("DELETE *: %d %s", r.Status, r.Body)
		}
		var n int
		if err := db.Get(&n, `SELECT count(*) FROM "memo"`); err != nil || n != 0 {
			t.Errorf("%d memos left (%v)", n, err)
		}
	})
}

// TestConditionalRequired: RequireIfMatch answers 428 to writes without
// If-Match, and reads as before; a view without Conditional answers as
// DRF (no ETag, If-None-Match and If-Match ignored).
func TestConditionalRequired(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		c := memos(t, db, &generics.Conditional{RequireIfMatch: true})
		for _, m := range []string{"PUT", "PATCH", "DELETE"} {
			if r := c.Do(m, "/memos/1/", `{"title":"x"}`); r.Status != http.StatusPreconditionRequired || r.JSON()["detail"] != generics.MsgPreconditionRequired {
				t.Errorf("%s without If-Match: %d %s", m, r.Status, r.Body)
			}
		}
		tag := c.Get("/memos/1/").Header.Get("ETag")
		if r := c.Do("PATCH", "/memos/1/", `{"title":"x"}`, "If-Match: "+tag); r.Status != 200 {
			t.Errorf("PATCH with If-Match: %d %s", r.Status, r.Body)
		}

		drf := memos(t, db, nil)
		r := drf.Get("/memos/1/", "If-None-Match: *")
		if r.Status != 200 || r.Header.Get("ETag") != "" {
			t.Errorf("DRF's GET: %d %v", r.Status, r.Header)
		}
		if r := drf.Do("PUT", "/memos/1/", `{"title":"y"}`, `If-Match: "stale"`); r.Status != 200 {
			t.Errorf("DRF's PUT: %d %s", r.Status, r.Body)
		}
	})
}

// TestConditionalWritesAreAtomic: many PUTs sent at once with the same
// If-Match through two instances of the service (store.Leases): exactly
// one succeeds, the others are 412, and the item is the winner's.
func TestConditionalWritesAreAtomic(t *testing.T) {
	memoDialects(t, func(t *testing.T, db *sqlx.DB) {
		a := memos(t, db, &generics.Conditional{Locks: store.Leases{DB: db}})
		b := memos(t, db, &generics.Conditional{Locks: store.Leases{DB: db}})
		tag := a.Get("/memos/1/").Header.Get("ETag")
		const writers = 12
		statuses := make([]int, writers)
		var wg sync.WaitGroup
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := a
				if i%2 == 1 {
					c = b
				}
				statuses[i] = c.Do("PUT", "/memos/1/", fmt.Sprintf(`{"title":"writer %d"}`, i), "If-Match: "+tag).Status
			}()
		}
		wg.Wait()
		winner := -1
		for i, s := range statuses {
			switch {
			case s == 200 && winner == -1:
				winner = i
			case s != http.StatusPreconditionFailed:
				t.Errorf("writer %d: %d", i, s)
			}
		}
		var title string
		if err := db.Get(&title, `SELECT "title" FROM "memo" WHERE "id" = 1`); err != nil || winner < 0 || title != fmt.Sprintf("writer %d", winner) {
			t.Errorf("stored %q (%v), winner %d; statuses %v", title, err, winner, statuses)
		}
	})
}
