package generics_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// shelfNote is a model with a unique title.
type shelfNote struct {
	ID    int64  `db:"id" json:"id" drf:"read_only"`
	Title string `db:"title" json:"title" drf:"required,unique,max_length=50"`
	Body  string `db:"body" json:"body"`
}

// TestUniqueFields: a field marked unique answers a taken value with
// DRF's UniqueValidator message, 400, on create and on update (where the
// item's own value is no duplicate); and when requests race past the
// check, the database's UNIQUE constraint is answered the same way: never
// a 500, one creation, on SQLite and on PostgreSQL.
func TestUniqueFields(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "shelf_note" ("id" ` + key + `, "title" varchar(50) NOT NULL UNIQUE, "body" text NOT NULL)`)
		src := queryset.MustSQL[shelfNote](db, queryset.SQLConfig{Table: "shelf_note", Columns: []string{"title", "body"}, Ordering: []query.Order{{Field: "id"}}})
		g := generics.GenericAPIView[shelfNote]{Source: src, Serializer: serializers.MustNew[shelfNote]()}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/notes/", generics.ListCreateAPIView(g))
		api.Handle("/notes/{pk}/", generics.RetrieveUpdateAPIView(g))
		c := apitest.New(t, api)
		for _, step := range []struct{ method, path, body, want string }{
			{"POST", "/notes/", `{"title":"a","body":"1"}`, `201 {"id":1,"title":"a","body":"1"}`},
			{"POST", "/notes/", `{"title":"b"}`, `201 {"id":2,"title":"b","body":""}`},
			{"POST", "/notes/", `{"title":"a"}`, `400 {"title":["shelf note with this title already exists."]}`},
			{"POST", "/notes/", `{"title":"a","body":true}`, `400 {"title":["shelf note with this title already exists."],"body":["Not a valid string."]}`},
			{"PUT", "/notes/1/", `{"title":"a","body":"2"}`, `200 {"id":1,"title":"a","body":"2"}`},
			{"PATCH", "/notes/1/", `{"title":"b"}`, `400 {"title":["shelf note with this title already exists."]}`},
			{"PATCH", "/notes/2/", `{"title":"c"}`, `200 {"id":2,"title":"c","body":""}`},
		} {
			r := c.Do(step.method, step.path, step.body)
			if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
				t.Errorf("%s %s %s: %s, want %s", step.method, step.path, step.body, got, step.want)
			}
		}
		// The constraint itself, past the check: its column is read back.
		err := src.Insert(t.Context(), &shelfNote{Title: "a"})
		if cols := store.UniqueViolationColumns(err); len(cols) != 1 || cols[0] != "title" {
			t.Errorf("duplicate insert: %v, columns %q", err, cols)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		answers := map[string]int{}
		for range 12 {
			wg.Go(func() {
				r := c.Do("POST", "/notes/", `{"title":"race"}`)
				mu.Lock()
				defer mu.Unlock()
				answers[fmt.Sprint(r.Status)]++
				if r.Status != 201 && r.Body != `{"title":["shelf note with this title already exists."]}` {
					t.Errorf("racing POST: %d %s", r.Status, r.Body)
				}
			})
		}
		wg.Wait()
		if answers["201"] != 1 || answers["400"] != 11 {
			t.Errorf("racing POSTs: %v, want one 201 and eleven 400", answers)
		}
	})
}
