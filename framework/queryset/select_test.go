package queryset_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/querysettest"
)

// A library: books by an author, maybe edited by another, who may live
// in a city (testdata/select_related_django.py's models).
type (
	srCity struct {
		ID   int64  `db:"id" json:"id"`
		Name string `db:"name" json:"name" model:"max_length=20"`
	}
	srAuthor struct {
		ID     int64  `db:"id" json:"id"`
		Name   string `db:"name" json:"name" model:"max_length=20"`
		CityID *int64 `db:"city_id" json:"city" model:"foreign_key=sr_city,on_delete=set_null"`
	}
	// srAuthorOut is an author with its city nested (a pointer, nil
	// when the author has none) and the city's name by a dotted source.
	srAuthorOut struct {
		ID       int64   `db:"id" json:"id"`
		Name     string  `db:"name" json:"name" model:"max_length=20"`
		CityID   *int64  `db:"city_id" json:"-" model:"foreign_key=sr_city,on_delete=set_null"`
		City     *srCity `json:"city"`
		CityName *string `json:"city_name" drf:"source=city.name"`
	}
	// srBook is a book with its author nested, its editor nested by a
	// pointer (nil when it has none) and its author's name by a dotted
	// source (which makes its source a SELECT with a join).
	srBook struct {
		ID       int64        `db:"id" json:"id"`
		Title    string       `db:"title" json:"title" model:"max_length=20"`
		AuthorID int64        `db:"author_id" json:"-" model:"foreign_key=sr_author,related_name=books"`
		EditorID *int64       `db:"editor_id" json:"-" model:"foreign_key=sr_author,on_delete=set_null,related_name=edited"`
		Author   srAuthorOut  `json:"author"`
		Editor   *srAuthorOut `json:"editor"`
		Writer   string       `json:"writer" drf:"source=author.name"`
	}
	// srBookHidden holds its author where JSON does not show it, read
	// only when joined, and its editor's name alone, without the
	// editor's key.
	srBookHidden struct {
		ID       int64         `db:"id"`
		Title    string        `db:"title" model:"max_length=20"`
		AuthorID int64         `db:"author_id" model:"foreign_key=sr_author"`
		EditorID *int64        `db:"editor_id" model:"foreign_key=sr_author,on_delete=set_null"`
		Author   *srAuthor     `db:"-" json:"-" drf:"source=author"`
		Editor   *srAuthorName `db:"-" json:"-" drf:"source=editor"`
	}
	srAuthorName struct {
		Name string `db:"name" json:"name" model:"max_length=20"`
	}
)

func (srCity) Meta() models.Meta       { return models.Meta{App: "sr", Name: "City"} }
func (srAuthor) Meta() models.Meta     { return models.Meta{App: "sr", Name: "Author"} }
func (srAuthorOut) Meta() models.Meta  { return models.Meta{App: "sr", Name: "Author"} }
func (srAuthorName) Meta() models.Meta { return models.Meta{App: "sr", Name: "Author"} }
func (srBook) Meta() models.Meta {
	return models.Meta{App: "sr", Name: "Book", Ordering: []string{"id"}}
}
func (srBookHidden) Meta() models.Meta {
	return models.Meta{App: "sr", Name: "Book", Ordering: []string{"id"}}
}

// srTables creates the library, as Django's migrations of its models
// would, and fills it: books one (by ann of Lyon, edited by bob, who has
// no city), two (by bob, not edited), three (by cat of Porto, edited by
// ann) and four (by ann, edited by cat), then extra books by cat, not
// edited.
func srTables(t *testing.T, db *sqlx.DB, extra int) {
	t.Helper()
	id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if store.DialectOf(db) == store.PostgreSQL {
		id = "bigserial NOT NULL PRIMARY KEY"
	}
	stmts := []string{
		`CREATE TABLE "sr_city" ("id" ` + id + `, "name" varchar(20) NOT NULL)`,
		`CREATE TABLE "sr_author" ("id" ` + id + `, "name" varchar(20) NOT NULL, "city_id" bigint NULL REFERENCES "sr_city" ("id"))`,
		`CREATE TABLE "sr_book" ("id" ` + id + `, "title" varchar(20) NOT NULL, "author_id" bigint NOT NULL REFERENCES "sr_author" ("id"), ` +
			`"editor_id" bigint NULL REFERENCES "sr_author" ("id"))`,
	}
	stmts = append(stmts, srRows(extra)...)
	for _, stmt := range stmts {
		db.MustExec(stmt)
	}
}

// srRows are the INSERTs of srTables' rows.
func srRows(extra int) []string {
	books := []string{"('one', 1, 2)", "('two', 2, NULL)", "('three', 3, 1)", "('four', 1, 3)"}
	for i := range extra {
		books = append(books, "('extra "+strconv.Itoa(i)+"', 3, NULL)")
	}
	return []string{
		`INSERT INTO "sr_city" ("name") VALUES ('Lyon'), ('Porto')`,
		`INSERT INTO "sr_author" ("name", "city_id") VALUES ('ann', 1), ('bob', NULL), ('cat', 2)`,
		`INSERT INTO "sr_book" ("title", "author_id", "editor_id") VALUES ` + strings.Join(books, ", "),
	}
}

// srDescribe describes the related models, as their sources would.
func srDescribe(t *testing.T) {
	t.Helper()
	for _, d := range []func() (*models.Description, error){models.Of[srCity], models.Of[srAuthor], models.Of[srAuthorOut]} {
		if _, err := d(); err != nil {
			t.Fatal(err)
		}
	}
}

// SelectRelated reads the nested rows of the named foreign keys in the
// items' query, one query where the prefetch reads one more per
// relation, into the rows the prefetch reads: an INNER JOIN for a NOT
// NULL key, a LEFT OUTER JOIN for a nullable one that leaves a pointer
// nil, the nested row's own nested rows and dotted sources joined in
// too. It composes with filters, lookups across relations, Q, orderings
// across relations, slices, Count and a paginator's query, and on a
// deep page with the late row lookup.
func TestSelectRelated(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		srTables(t, db, 110)
		srDescribe(t)
		books := queryset.MustSQL[srBook](db, queryset.SQLConfig{})
		queries()
		prefetched, err := books.Slice(ctx, 0, 4)
		if n := queries(); err != nil || n != 3 {
			t.Fatalf("the prefetch read a page in %d queries (%v), want 3", n, err)
		}
		joined, err := books.SelectRelated("author", "editor").Slice(ctx, 0, 4)
		if n := queries(); err != nil || n != 1 {
			t.Errorf("SelectRelated read a page in %d queries (%v), want 1", n, err)
		}
		if !reflect.DeepEqual(joined, prefetched) {
			t.Errorf("SelectRelated read %s, the prefetch %s", srShow(joined), srShow(prefetched))
		}
		want := "1 one ann(Lyon/Lyon) bob(-/-); 2 two bob(-/-) -; 3 three cat(Porto/Porto) ann(Lyon/Lyon); 4 four ann(Lyon/Lyon) cat(Porto/Porto)"
		if got := srShow(joined); got != want {
			t.Errorf("SelectRelated read %s, want %s", got, want)
		}
		// One key joined, the other read after the rows.
		one, err := books.SelectRelated("editor").Slice(ctx, 0, 4)
		if n := queries(); err != nil || n != 2 || !reflect.DeepEqual(one, prefetched) {
			t.Errorf("SelectRelated(editor): %d queries (%v), want 2; %s", n, err, srShow(one))
		}

		// Composed with everything a view narrows a source by.
		sel := books.SelectRelated("author", "editor")
		for _, c := range []struct {
			name string
			src  queryset.Source[srBook]
			from int
			want string
		}{
			{"filter", sel.Filter("title", "three"), 0, "3 three cat(Porto/Porto) ann(Lyon/Lyon)"},
			{"lookup across", sel.Where("editor__name", query.Exact, "ann"), 0, "3 three cat(Porto/Porto) ann(Lyon/Lyon)"},
			{"isnull", sel.Where("editor", query.IsNull, "true").Where("title", query.In, "two", "extra 0"), 0, "2 two bob(-/-) -; 5 extra 0 cat(Porto/Porto) -"},
			{"Q", sel.Match(queryset.Or(queryset.Lookup("author__city__name", query.Exact, "Lyon"),
				queryset.Lookup("editor__city", query.IsNull, "true"))).Where("id", query.LT, "5"), 0,
				"1 one ann(Lyon/Lyon) bob(-/-); 2 two bob(-/-) -; 4 four ann(Lyon/Lyon) cat(Porto/Porto)"},
			{"order across", sel.Where("editor", query.IsNull, "false").OrderBy(query.Order{Field: "editor__name", Desc: true}, query.Order{Field: "id"}), 1,
				"1 one ann(Lyon/Lyon) bob(-/-); 3 three cat(Porto/Porto) ann(Lyon/Lyon)"},
			{"deep page", sel.OrderBy(query.Order{Field: "id"}), 100, "101 extra 96 cat(Porto/Porto) -; 102 extra 97 cat(Porto/Porto) -; 103 extra 98 cat(Porto/Porto) -"},
		} {
			queries()
			items, err := c.src.Slice(ctx, c.from, 3)
			if n := queries(); err != nil || n != 1 {
				t.Errorf("%s: %d queries (%v), want 1", c.name, n, err)
			}
			if got := srShow(items); got != c.want {
				t.Errorf("%s: %s, want %s", c.name, got, c.want)
			}
			n, err := c.src.Count(ctx)
			// The late row lookup's count is the table's, without joins.
			if m := len(strings.Split(c.want, "; ")); err != nil || c.from == 0 && n != m {
				t.Errorf("%s: Count = %d (%v), want %d", c.name, n, err, m)
			}
		}
		if n, err := sel.Count(ctx); err != nil || n != 114 {
			t.Errorf("Count = %d (%v), want 114", n, err)
		}

		// A paginator's query over it, narrowed and fetched.
		var rows queryset.Rows[srBook]
		q := queryset.Into[srBook](sel, &rows).Filter("author_id", "1").OrderBy(query.Order{Field: "id", Desc: true})
		queries()
		if _, err := q.Fetch(ctx, 0, 10); err != nil || srShow(rows.Items) != "4 four ann(Lyon/Lyon) cat(Porto/Porto); 1 one ann(Lyon/Lyon) bob(-/-)" {
			t.Errorf("a paginator's page: %v %s", err, srShow(rows.Items))
		}
		if n := queries(); n != 1 {
			t.Errorf("a paginator's page in %d queries, want 1", n)
		}
	})
}

// A nested row JSON does not show is read only when SelectRelated names
// it, as Django reads a relation when asked for it; SelectRelated() with
// no names joins those of the NOT NULL keys. NoPrefetch leaves what is
// joined alone. A nested row without a field of the related key is read
// too, nil for a null key.
func TestSelectRelatedHidden(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		srTables(t, db, 0)
		srDescribe(t)
		books := queryset.MustSQL[srBookHidden](db, queryset.SQLConfig{})
		queries()
		bare, err := books.Slice(ctx, 0, -1)
		if n := queries(); err != nil || n != 1 || len(bare) != 4 || bare[0].Author != nil || bare[0].Editor != nil {
			t.Errorf("a page without SelectRelated: %d queries (%v), want 1; %+v", n, err, bare[0])
		}
		one := int64(1)
		want := srAuthor{ID: 1, Name: "ann", CityID: &one}
		for _, src := range []*queryset.SQLSource[srBookHidden]{books.SelectRelated("author"), books.SelectRelated(), books.NoPrefetch().SelectRelated("author")} {
			items, err := src.Slice(ctx, 0, 1)
			if n := queries(); err != nil || n != 1 || len(items) != 1 || items[0].Author == nil || !reflect.DeepEqual(*items[0].Author, want) || items[0].Editor != nil {
				t.Errorf("%d queries (%v), want 1; %+v", n, err, items)
			}
		}
		items, err := books.SelectRelated("editor").Slice(ctx, 0, 3)
		if n := queries(); err != nil || n != 1 || len(items) != 3 {
			t.Fatalf("SelectRelated(editor): %d queries (%v), want 1; %+v", n, err, items)
		}
		if items[0].Editor == nil || items[0].Editor.Name != "bob" || items[1].Editor != nil || items[2].Editor == nil || items[2].Editor.Name != "ann" {
			t.Errorf("SelectRelated(editor) read %+v, %+v, %+v; want bob, nil, ann", items[0].Editor, items[1].Editor, items[2].Editor)
		}
		// A write reads its row back without joins, as Django's create()
		// ignores select_related.
		b := &srBookHidden{Title: "five", AuthorID: 2}
		if err := books.SelectRelated("author").Insert(ctx, b); err != nil || b.ID != 5 || b.Author != nil {
			t.Errorf("Insert through SelectRelated: %v %+v", err, b)
		}
	})
}

// A name that is not a nested row of a foreign key is an error when the
// source is evaluated, in Django's words.
func TestSelectRelatedErrors(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, _ func() int) {
		srTables(t, db, 0)
		srDescribe(t)
		books := queryset.MustSQL[srBook](db, queryset.SQLConfig{})
		for _, c := range []struct {
			names []string
			want  string
		}{
			{[]string{"x"}, "queryset: Invalid field name(s) given in select_related: 'x'. Choices are: author, editor"},
			{[]string{"author", "x", "editor_id"}, "queryset: Invalid field name(s) given in select_related: 'x', 'editor_id'. Choices are: author, editor"},
			{[]string{"title"}, "queryset: Non-relational field given in select_related: 'title'. Choices are: author, editor"},
		} {
			src := books.SelectRelated(c.names...).Filter("id", "1")
			if _, err := src.Slice(ctx, 0, 1); err == nil || err.Error() != c.want {
				t.Errorf("SelectRelated(%q).Slice: %v, want %s", c.names, err, c.want)
			}
			if _, err := src.Count(ctx); err == nil || err.Error() != c.want {
				t.Errorf("SelectRelated(%q).Count: %v, want %s", c.names, err, c.want)
			}
		}
		// A model without nested rows has no choices.
		cities := queryset.MustSQL[srCity](db, queryset.SQLConfig{})
		want := "queryset: Invalid field name(s) given in select_related: 'country'. Choices are: (none)"
		if _, err := cities.SelectRelated("country").Slice(ctx, 0, 1); err == nil || err.Error() != want {
			t.Errorf("SelectRelated of a model without relations: %v, want %s", err, want)
		}
	})
}

// srShow shows books as "id title author(city/city name) editor", "-"
// for what is nil.
func srShow(books []*srBook) string {
	author := func(a *srAuthorOut) string {
		if a == nil {
			return "-"
		}
		city, name := "-", "-"
		if a.City != nil {
			city = a.City.Name
		}
		if a.CityName != nil {
			name = *a.CityName
		}
		return a.Name + "(" + city + "/" + name + ")"
	}
	var out []string
	for _, b := range books {
		out = append(out, strconv.FormatInt(b.ID, 10)+" "+b.Title+" "+author(&b.Author)+" "+author(b.Editor))
	}
	return strings.Join(out, "; ")
}
