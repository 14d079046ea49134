package queryset_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/querysettest"
)

// A small press: books with an author that may be null and tags in
// Tag's Meta.Ordering.
type (
	pressAuthor struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	pressTag struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	pressBook struct {
		ID       int64   `db:"id"`
		Title    string  `db:"title" model:"max_length=20"`
		AuthorID *int64  `db:"author_id" model:"foreign_key=press_author,on_delete=set_null,related_name=books"`
		Tags     []int64 `json:"tags" model:"many_to_many=press_tag,related_name=books,blank"`
	}
)

func (pressAuthor) Meta() models.Meta { return models.Meta{App: "press", Name: "Author"} }
func (pressTag) Meta() models.Meta {
	return models.Meta{App: "press", Name: "Tag", Ordering: []string{"-name"}}
}
func (pressBook) Meta() models.Meta {
	return models.Meta{App: "press", Name: "Book", Ordering: []string{"-author__name", "id"}}
}

// pressTables creates the press's tables, as Django's sqlmigrate has
// them, and fills them: books 1 (bob; go, sql), 2 (no author), 3 (ann;
// web, go).
func pressTables(t *testing.T, db *sqlx.DB) {
	t.Helper()
	id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if store.DialectOf(db) == store.PostgreSQL {
		id = "bigserial NOT NULL PRIMARY KEY"
	}
	db.MustExec(`CREATE TABLE "press_author" ("id" ` + id + `, "name" varchar(20) NOT NULL)`)
	db.MustExec(`CREATE TABLE "press_tag" ("id" ` + id + `, "name" varchar(20) NOT NULL)`)
	db.MustExec(`CREATE TABLE "press_book" ("id" ` + id + `, "title" varchar(20) NOT NULL, ` +
		`"author_id" bigint NULL REFERENCES "press_author" ("id") DEFERRABLE INITIALLY DEFERRED)`)
	db.MustExec(`CREATE TABLE "press_book_tags" ("id" ` + id + `, ` +
		`"book_id" bigint NOT NULL REFERENCES "press_book" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
		`"tag_id" bigint NOT NULL REFERENCES "press_tag" ("id") DEFERRABLE INITIALLY DEFERRED, UNIQUE ("book_id", "tag_id"))`)
	db.MustExec(`INSERT INTO "press_author" ("name") VALUES ('ann'), ('bob')`)
	db.MustExec(`INSERT INTO "press_tag" ("name") VALUES ('go'), ('sql'), ('web')`)
	db.MustExec(`INSERT INTO "press_book" ("title", "author_id") VALUES ('one', 2), ('two', NULL), ('three', 1)`)
	db.MustExec(`INSERT INTO "press_book_tags" ("book_id", "tag_id") VALUES (1, 1), (1, 2), (3, 3), (3, 1)`)
}

// A list ordered across a foreign key (Meta.Ordering "-author__name",
// or OrderBy) is one query, its joins those of the ordering alone (a
// count has none); the many-to-many keys come in the related model's
// Meta.Ordering, in one more query.
func TestOrderingAcrossRelations(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		pressTables(t, db)
		if _, err := models.Of[pressAuthor](); err != nil {
			t.Fatal(err)
		}
		queryset.MustSQL[pressTag](db, queryset.SQLConfig{})
		books := queryset.MustSQL[pressBook](db, queryset.SQLConfig{})
		ids := func(src queryset.Source[pressBook]) []int64 {
			t.Helper()
			items, err := src.Slice(ctx, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			var out []int64
			for _, b := range items {
				out = append(out, b.ID)
			}
			return out
		}
		// NULL is last descending on SQLite, first on PostgreSQL.
		want := []int64{1, 3, 2}
		if store.DialectOf(db) == store.PostgreSQL {
			want = []int64{2, 1, 3}
		}
		queries()
		if got := ids(books); !slices.Equal(got, want) {
			t.Errorf("Meta.Ordering -author__name: %v, want %v", got, want)
		}
		if n := queries(); n != 2 {
			t.Errorf("a page in %d queries, want 2: the rows, the tags", n)
		}
		slices.Reverse(want)
		if got := ids(books.OrderBy(query.Order{Field: "author__name"}, query.Order{Field: "id", Desc: true})); !slices.Equal(got, want) {
			t.Errorf("author__name: %v, want %v", got, want)
		}
		// A foreign key by its Django name, its related model without an
		// ordering: by its column.
		want = []int64{2, 3, 1}
		if store.DialectOf(db) == store.PostgreSQL {
			want = []int64{3, 1, 2}
		}
		if got := ids(books.OrderBy(query.Order{Field: "author"})); !slices.Equal(got, want) {
			t.Errorf("author: %v, want %v", got, want)
		}
		if n, err := books.Count(ctx); err != nil || n != 3 {
			t.Errorf("count: %d %v", n, err)
		}
		items, err := books.OrderBy(query.Order{Field: "id"}).Slice(ctx, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		if got := [][]int64{items[0].Tags, items[1].Tags, items[2].Tags}; !slices.EqualFunc(got, [][]int64{{2, 1}, {}, {3, 1}}, slices.Equal) {
			t.Errorf("tags %v, want them in Tag's Meta.Ordering -name", got)
		}
		// isnull across the relation, each side.
		for _, c := range []struct {
			field, value string
			want         []int64
		}{
			{"author__name", "true", []int64{2}}, {"author__name", "false", []int64{1, 3}},
			{"tags", "true", []int64{2}}, {"tags__name", "false", []int64{1, 3}},
		} {
			if got := ids(books.OrderBy(query.Order{Field: "id"}).Where(c.field, query.IsNull, c.value)); !slices.Equal(got, c.want) {
				t.Errorf("%s__isnull=%s: %v, want %v", c.field, c.value, got, c.want)
			}
		}
	})
}

// Two models each ordered by the other, through a foreign key.
type (
	loopEgg struct {
		ID    int64 `db:"id"`
		HenID int64 `db:"hen_id" model:"foreign_key=press_hen"`
	}
	loopHen struct {
		ID    int64 `db:"id"`
		EggID int64 `db:"egg_id" model:"foreign_key=press_egg"`
	}
)

func (loopEgg) Meta() models.Meta {
	return models.Meta{App: "press", Name: "Egg", Ordering: []string{"hen"}}
}
func (loopHen) Meta() models.Meta {
	return models.Meta{App: "press", Name: "Hen", Ordering: []string{"egg"}}
}

// An ordering that names no path, or one across a relation to many
// rows, or that follows the related models' orderings round in a loop,
// is refused when the source is made, naming the model; a Go
// slice follows no relation, and says so at setup (CheckOrdering,
// CheckLookup) rather than on a request.
func TestOrderingAcrossRelationsSetupErrors(t *testing.T) {
	if _, err := models.Of[pressAuthor](); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct{ field, want string }{
		{"author__bogus", `queryset_test.pressBook: ordering: queryset: unknown field "author__bogus"`},
		{"bogus__name", `unknown field "bogus__name"`},
		{"tags__name", `ordering "tags__name" follows "tags", a relation to many rows`},
	} {
		_, err := queryset.NewSQL[pressBook](db, queryset.SQLConfig{Table: "press_book", Ordering: []query.Order{{Field: c.field}}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ordering %s: %v, want %q", c.field, err, c.want)
		}
	}
	if _, err := models.Of[loopHen](); err != nil {
		t.Fatal(err)
	}
	if _, err := queryset.NewSQL[loopEgg](db, queryset.SQLConfig{}); err == nil || !strings.Contains(err.Error(),
		`queryset_test.loopEgg: ordering: queryset: ordering "hen__egg__hen__egg__hen__egg__hen__egg__hen": infinite loop caused by ordering`) {
		t.Errorf("orderings in a loop: %v", err)
	}
	if _, err := queryset.NewSlice([]pressBook{}, query.Order{Field: "author__name"}); err == nil ||
		!strings.Contains(err.Error(), `ordering "author__name" across relations needs an SQL source`) {
		t.Errorf("a slice ordered across a relation: %v", err)
	}
	slice := queryset.Into[pressBook](queryset.MustSlice([]pressBook{}), nil)
	table := queryset.Into[pressBook](queryset.MustSQL[pressBook](db, queryset.SQLConfig{Table: "press_book", Ordering: []query.Order{{Field: "id"}}}), nil)
	for _, c := range []struct {
		q           query.Query
		order, look string
		lookup      query.Lookup
		want        string
	}{
		{table, "author__name", "author__name", query.Exact, ""},
		{table, "-title", "tags", query.IsNull, ""},
		{table, "title", "books", query.Exact, `unknown field "books"`},
		{slice, "author__name", "author__name", query.Exact, `"author__name" across relations needs an SQL source`},
		{slice, "title", "tags", query.IsNull, `lookup "tags" across relations needs an SQL source`},
		{slice, "title", "tags", query.In, ""},
	} {
		errs := []error{queryset.CheckOrdering(c.q, []query.Order{query.ParseOrder(c.order)}), queryset.CheckLookup(c.q, c.look, c.lookup)}
		var texts []string
		for _, err := range errs {
			if err != nil {
				texts = append(texts, err.Error())
			}
		}
		got := strings.Join(texts, "; ")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s / %s %s: %q, want %q", c.order, c.look, c.lookup, got, c.want)
		}
	}
}

// One item by a unique field (a detail view's object: the key, filtered,
// one item) is Django's get(): one row, unordered, so a Meta.Ordering
// across a relation adds neither its join nor a sort. A field that is
// not unique keeps the ordering, which picks the first of its rows.
func TestOneByUniqueFieldUnordered(t *testing.T) {
	querysettest.TracedDialects(t, func(t *testing.T, db *sqlx.DB, rec *tracetest.SpanRecorder) {
		pressTables(t, db)
		if _, err := models.Of[pressAuthor](); err != nil {
			t.Fatal(err)
		}
		queryset.MustSQL[pressTag](db, queryset.SQLConfig{})
		books := queryset.MustSQL[pressBook](db, queryset.SQLConfig{})
		// booksRead is the last statement that read the books (the tags'
		// query follows it).
		booksRead := func() string {
			t.Helper()
			spans := rec.Ended()
			for i := len(spans) - 1; i >= 0; i-- {
				for _, a := range spans[i].Attributes() {
					if q := a.Value.AsString(); a.Key == "db.query.text" && strings.Contains(q, `FROM "press_book"`) {
						return q
					}
				}
			}
			t.Fatal("no statement read the books")
			return ""
		}
		for _, c := range []struct {
			field, value string
			want         int64
			ordered      bool
		}{
			{"id", "3", 3, false},
			{"title", "two", 2, true},
		} {
			items, err := books.Filter(c.field, c.value).Slice(ctx, 0, 1)
			if err != nil || len(items) != 1 || items[0].ID != c.want {
				t.Fatalf("%s=%s: %v %v, want book %d", c.field, c.value, items, err, c.want)
			}
			q := booksRead()
			if ordered := strings.Contains(q, "ORDER BY") && strings.Contains(q, "press_author"); ordered != c.ordered {
				t.Errorf("%s=%s: ordered across the author %v, want %v:\n%s", c.field, c.value, ordered, c.ordered, q)
			}
		}
	})
}
