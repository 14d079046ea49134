package generics_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// bulkBook is drf_bulk_create.py's Book.
type bulkBook struct {
	ID    int64  `db:"id" json:"id" drf:"read_only"`
	Title string `db:"title" json:"title" model:"max_length=20,unique"`
	Pages int64  `db:"pages" json:"pages"`
}

func (bulkBook) Meta() models.Meta {
	return models.Meta{App: "bulk", Name: "Book", Table: "bulk_book"}
}

// bulkTables are the table as Django's migrate creates it for Book (if
// it does not exist yet).
var bulkTables = map[store.Dialect]string{
	store.SQLite: `CREATE TABLE IF NOT EXISTS "bulk_book" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, ` +
		`"title" varchar(20) NOT NULL UNIQUE, "pages" integer NOT NULL)`,
	store.PostgreSQL: `CREATE TABLE IF NOT EXISTS "bulk_book" ("id" serial NOT NULL PRIMARY KEY, ` +
		`"title" varchar(20) NOT NULL UNIQUE, "pages" integer NOT NULL)`,
}

// bulkRequests are the POSTs of TestBulkCreateAsDRF, [path, JSON body].
var bulkRequests = [][2]string{
	{"/books/", `[{"title":"a","pages":1},{"title":"b","pages":"2"}]`},
	{"/books/", `[{"title":"c","pages":1},{"title":"","pages":"x"},{"pages":3}]`},
	{"/books/", `[]`},
	{"/some-books/", `[]`},
	{"/some-books/", `[{"title":"d","pages":1},{"title":"e","pages":1},{"title":"f","pages":1}]`},
	{"/books/", `[{"title":"a","pages":1}]`},
	{"/books/", `[{"title":"g","pages":1},null,"x",[]]`},
	{"/books/", `{"title":"h","pages":8}`},
	{"/books/", `"x"`},
	{"/some-books/", `[{"title":"i","pages":9}]`},
}

// bulkAPI serves drf_bulk_create.py's views over db's bulk_book table:
// /books/ with BulkCreate's defaults, /some-books/ with NotEmpty,
// MaxLength 2 and MinLength 1; perform, when set, is their PerformCreate.
func bulkAPI(t *testing.T, db *sqlx.DB, level framework.Compatibility, perform func(*request.Request, *bulkBook) error) *apitest.Client {
	t.Helper()
	if _, err := db.Exec(bulkTables[store.DialectOf(db)]); err != nil {
		t.Fatal(err)
	}
	api := framework.NewAPI(db, framework.Settings{Compatibility: level})
	g := generics.GenericAPIView[bulkBook]{
		Source:        queryset.MustSQL[bulkBook](db, queryset.SQLConfig{}),
		Serializer:    serializers.MustNew[bulkBook](),
		BulkCreate:    &serializers.ListOptions[bulkBook]{},
		PerformCreate: perform,
	}
	api.Handle("/books/", generics.ListCreateAPIView(g))
	g.BulkCreate = &serializers.ListOptions[bulkBook]{NotEmpty: true, MaxLength: 2, MinLength: 1}
	api.Handle("/some-books/", generics.ListCreateAPIView(g))
	return apitest.New(t, api)
}

// bulkRows are the rows of bulk_book, in key order.
func bulkRows(t *testing.T, db *sqlx.DB) []map[string]any {
	t.Helper()
	var rows []bulkBook
	if err := db.Select(&rows, `SELECT "id", "title", "pages" FROM "bulk_book" ORDER BY "id"`); err != nil {
		t.Fatal(err)
	}
	out := []map[string]any{}
	for _, r := range rows {
		out = append(out, map[string]any{"id": float64(r.ID), "title": r.Title, "pages": float64(r.Pages)})
	}
	return out
}

// TestBulkCreateAsDRF: a view with BulkCreate answers drf_bulk_create.py's
// POSTs as DRF's ListCreateAPIView whose get_serializer passes
// many=isinstance(request.data, list), at both levels and on SQLite and
// PostgreSQL: a list is created, 201 with the items as saved; its items'
// errors, the refusals of the list as a whole and a unique value already
// stored are 400 and leave the table as it was; an object is created as
// ever; the rows are DRF's.
func TestBulkCreateAsDRF(t *testing.T) {
	in := make([][2]any, len(bulkRequests))
	for i, r := range bulkRequests {
		in[i] = [2]any{r[0], r[1]}
	}
	for _, level := range []struct {
		name   string
		compat framework.Compatibility
	}{{"drf314", framework.DRF314}, {"drf318", framework.DRF318}} {
		t.Run(level.name, func(t *testing.T) {
			var drf struct {
				Answers []struct {
					Status int             `json:"status"`
					Body   json.RawMessage `json:"body"`
				} `json:"answers"`
				Rows []map[string]any `json:"rows"`
			}
			drfsuite.RunDRF(t, level.compat, filepath.Join("testdata", "drf_bulk_create.py"), in, &drf)
			if len(drf.Answers) != len(bulkRequests) {
				t.Fatalf("%d answers for %d requests", len(drf.Answers), len(bulkRequests))
			}
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				c := bulkAPI(t, db, level.compat, nil)
				for i, r := range bulkRequests {
					resp := c.Post(r[0], r[1], "Content-Type: application/json")
					if resp.Status != drf.Answers[i].Status || !sameJSON(t, resp.Body, string(drf.Answers[i].Body)) {
						t.Errorf("POST %s %s: %d %s\nDRF %d %s", r[0], r[1], resp.Status, resp.Body, drf.Answers[i].Status, drf.Answers[i].Body)
					}
					if loc := resp.Header.Get("Location"); loc != "" {
						t.Errorf("POST %s %s: Location %s, DRF none", r[0], r[1], loc)
					}
				}
				if got := bulkRows(t, db); !reflect.DeepEqual(got, drf.Rows) {
					t.Errorf("rows %v\nDRF  %v", got, drf.Rows)
				}
			})
		})
	}
}

// TestBulkCreateIsAllOrNone: the items of a list are created in one
// transaction, where DRF's ListSerializer.create saves them one by one
// (all or none only under ATOMIC_REQUESTS): a title given twice in one
// list passes validation (neither is stored yet) and the database refuses
// the second, which is that item's unique 400 (DRF: an IntegrityError,
// 500) with none of the list stored; a PerformCreate that refuses the
// third item after two were inserted leaves none stored either, its 400
// given at the item's index.
func TestBulkCreateIsAllOrNone(t *testing.T) {
	for _, level := range []struct {
		name              string
		compat            framework.Compatibility
		duplicate, hooked string
	}{
		{"drf314", framework.DRF314, `[{},{"title":["book with this title already exists."]}]`, `[{},{},{"pages":["too many"]}]`},
		{"drf318", framework.DRF318, `{"1":{"title":["book with this title already exists."]}}`, `{"2":{"pages":["too many"]}}`},
	} {
		t.Run(level.name, func(t *testing.T) {
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				bulkAllOrNone(t, db, level.compat, level.duplicate, level.hooked)
			})
		})
	}
}

// bulkAllOrNone is TestBulkCreateIsAllOrNone on db at level.
func bulkAllOrNone(t *testing.T, db *sqlx.DB, level framework.Compatibility, duplicate, hooked string) {
	t.Helper()
	books := queryset.MustSQL[bulkBook](db, queryset.SQLConfig{})
	c := bulkAPI(t, db, level, func(r *request.Request, b *bulkBook) error {
		if b.Pages > 2 {
			var errs exceptions.ValidationErrors
			errs.Add("pages", "too many")
			return exceptions.ValidationError(errs)
		}
		return books.Insert(r.Context(), b)
	})
	// With PerformCreate's default (InsertObject) and with a hook.
	for _, view := range []*apitest.Client{bulkAPI(t, db, level, nil), c} {
		resp := view.Post("/books/", `[{"title":"x","pages":1},{"title":"x","pages":2}]`, "Content-Type: application/json")
		if resp.Status != 400 || !sameJSON(t, resp.Body, duplicate) {
			t.Errorf("duplicate: %d %s, want 400 %s", resp.Status, resp.Body, duplicate)
		}
	}
	resp := c.Post("/books/", `[{"title":"y","pages":1},{"title":"z","pages":2},{"title":"w","pages":3}]`, "Content-Type: application/json")
	if resp.Status != 400 || !sameJSON(t, resp.Body, hooked) {
		t.Errorf("hook: %d %s, want 400 %s", resp.Status, resp.Body, hooked)
	}
	if rows := bulkRows(t, db); len(rows) != 0 {
		t.Errorf("rows %v, want none", rows)
	}
	// The same items, valid, are all created, with the keys the database
	// gave them.
	resp = c.Post("/books/", `[{"title":"y","pages":1},{"title":"z","pages":2}]`, "Content-Type: application/json")
	rows := bulkRows(t, db)
	if len(rows) != 2 || rows[0]["title"] != "y" || rows[1]["title"] != "z" {
		t.Fatalf("rows %v, want y and z", rows)
	}
	if js, _ := json.Marshal(rows); resp.Status != 201 || !sameJSON(t, resp.Body, string(js)) {
		t.Errorf("valid: %d %s, want 201 %s", resp.Status, resp.Body, js)
	}
}

// TestBulkCreateNeedsATransaction: a view with BulkCreate over a source
// that cannot write in one transaction is refused at setup, naming it.
func TestBulkCreateNeedsATransaction(t *testing.T) {
	src, err := queryset.NewSlice([]bulkBook{})
	if err != nil {
		t.Fatal(err)
	}
	g := generics.GenericAPIView[bulkBook]{Source: src, Serializer: serializers.MustNew[bulkBook](),
		BulkCreate:    &serializers.ListOptions[bulkBook]{},
		PerformCreate: func(*request.Request, *bulkBook) error { return nil }}
	err = g.CheckActions(framework.ActionCreate)
	if err == nil || !strings.Contains(err.Error(), "BulkCreate") || !strings.Contains(err.Error(), "book") {
		t.Errorf("CheckActions: %v, want BulkCreate's setup error naming the view", err)
	}
}

// sameJSON reports whether got and want are the same JSON value.
func sameJSON(t *testing.T, got, want string) bool {
	t.Helper()
	var g, w any
	if json.Unmarshal([]byte(got), &g) != nil {
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

// TestBulkUpdateByHand: the multiple update of docs/serializers.md, a
// hand-written PATCH of a list: ValidateListUpdate gives each item the
// stored book its "id" names, validated partially into a copy of it, and
// the saves run in one of the source's transactions. A valid list updates
// each book; an invalid item is its 400 at its index, a missing book the
// 404, and neither writes anything.
func TestBulkUpdateByHand(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		c := bulkAPI(t, db, framework.DRF318, nil)
		books := queryset.MustSQL[bulkBook](db, queryset.SQLConfig{})
		bookSerializer := serializers.MustNew[bulkBook]()
		bulkUpdate := func(v *framework.View, r *request.Request) (*framework.Response, error) {
			data, err := serializers.RequestData(r)
			if err != nil {
				return nil, err
			}
			ctx := &serializers.Context{Request: r}
			items, err := bookSerializer.ValidateListUpdate(data, serializers.ListOptions[bulkBook]{}, true,
				func(item map[string]any) (*bulkBook, error) {
					return generics.GetObjectOr404(v, r, books, "id", fmt.Sprint(item["id"]))
				}, ctx)
			if err != nil {
				return nil, err
			}
			err = books.Atomic(r.Context(), func(c context.Context) error {
				for i := range items {
					if err := books.Update(c, &items[i]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			ptrs := make([]*bulkBook, len(items))
			for i := range items {
				ptrs[i] = &items[i]
			}
			out, err := bookSerializer.Many(ptrs, ctx)
			if err != nil {
				return nil, err
			}
			return framework.OK(out), nil
		}
		api := framework.NewAPI(db, framework.Settings{})
		api.Handle("/books/", framework.View{Patch: bulkUpdate})
		u := apitest.New(t, api)
		js := "Content-Type: application/json"
		if resp := c.Post("/books/", `[{"title":"a","pages":1},{"title":"b","pages":2}]`, js); resp.Status != 201 {
			t.Fatalf("create: %d %s", resp.Status, resp.Body)
		}
		for _, step := range []struct{ body, status, want string }{
			{`[{"id":2,"pages":20},{"id":1,"title":"aa"}]`, "200",
				`[{"id":2,"title":"b","pages":20},{"id":1,"title":"aa","pages":1}]`},
			{`[{"id":1,"pages":3},{"id":2,"pages":"x"}]`, "400", `{"1":{"pages":["A valid integer is required."]}}`},
			{`[{"id":1,"pages":3},{"id":9,"pages":4}]`, "404", `{"detail":"No Book matches the given query."}`},
		} {
			resp := u.Do("PATCH", "/books/", step.body, js)
			if fmt.Sprint(resp.Status) != step.status || !sameJSON(t, resp.Body, step.want) {
				t.Errorf("PATCH %s: %d %s, want %s %s", step.body, resp.Status, resp.Body, step.status, step.want)
			}
		}
		want := []map[string]any{{"id": 1.0, "title": "aa", "pages": 1.0}, {"id": 2.0, "title": "b", "pages": 20.0}}
		if rows := bulkRows(t, db); !reflect.DeepEqual(rows, want) {
			t.Errorf("rows %v, want %v", rows, want)
		}
	})
}
