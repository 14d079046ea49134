package queryset_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/internal/testservers"
)

// TestWhereForeignKeyByName: a lookup names a foreign key by its Django
// name ("author" for author_id) as Django's filter(author=1) does, on
// SQLite, on PostgreSQL and in memory, where it was `queryset: unknown
// field "author"`; the column's own name still works, and a name the
// model lacks is still an unknown field.
func TestWhereForeignKeyByName(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		_, notes := shelfApp(t, db)
		bob := 2
		for _, n := range []*note{{Text: "one", AuthorID: 1}, {Text: "two", AuthorID: 2, EditorID: &bob}, {Text: "three", AuthorID: 1}} {
			if err := notes.Insert(ctx, n); err != nil {
				t.Fatal(err)
			}
		}
		all, err := notes.OrderBy(query.Order{Field: "id"}).Slice(ctx, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		mem := queryset.MustSlice(func() []note {
			out := make([]note, len(all))
			for i, n := range all {
				out[i] = *n
			}
			return out
		}(), query.Order{Field: "id"})
		for name, src := range map[string]queryset.Source[note]{"sql": notes.OrderBy(query.Order{Field: "id"}), "slice": mem} {
			for _, c := range []struct {
				field  string
				lookup query.Lookup
				values []string
				want   []int64
			}{
				{"author", query.Exact, []string{"1"}, []int64{1, 3}},
				{"author_id", query.Exact, []string{"1"}, []int64{1, 3}},
				{"author", query.In, []string{"2", "9"}, []int64{2}},
				{"author", query.GT, []string{"1"}, []int64{2}},
				{"editor", query.IsNull, []string{"true"}, []int64{1, 3}},
				{"editor", query.Exact, []string{"2"}, []int64{2}},
			} {
				items, err := src.Where(c.field, c.lookup, c.values...).Slice(ctx, 0, -1)
				got := []int64{}
				for _, n := range items {
					got = append(got, int64(n.ID))
				}
				if err != nil || !slices.Equal(got, c.want) {
					t.Errorf("%s: %s__%s=%v: %v %v, want %v", name, c.field, c.lookup, c.values, got, err, c.want)
				}
			}
			var unknown *queryset.UnknownFieldError
			if _, err := src.Where("writer", query.Exact, "1").Count(ctx); !errors.As(err, &unknown) || unknown.Field != "writer" {
				t.Errorf("%s: a field the model lacks: %v", name, err)
			}
		}
	})
}

// TestLookupField: a Django name resolves, at setup, to the name a
// source filters by: a foreign key's to its column with the model field,
// a column to itself, a joined field by its lookup path; a name the model
// lacks is an UnknownFieldError; a struct that declares no model knows
// its columns alone.
func TestLookupField(t *testing.T) {
	for _, c := range []struct{ name, column, django string }{
		{"author", "author_id", "author"},
		{"author_id", "author_id", "author"},
		{"editor", "editor_id", "editor"},
		{"text", "text", "text"},
		{"author__name", "author__name", ""},
		{"author__name__2", "author__name__2", ""},
	} {
		column, mf, err := queryset.LookupField[note](c.name)
		django := ""
		if mf != nil {
			django = mf.Name
		}
		if err != nil || column != c.column || django != c.django {
			t.Errorf("%s: %q, model field %q, %v; want %q, %q", c.name, column, django, err, c.column, c.django)
		}
	}
	if _, mf, _ := queryset.LookupField[note]("author"); mf == nil || mf.Related == nil || mf.Related.Table != "shelf_person" || mf.Related.Column != "id" {
		t.Errorf("author's relation: %+v", mf)
	}
	var unknown *queryset.UnknownFieldError
	for _, name := range []string{"writer", "author__title", "Author", ""} {
		if _, _, err := queryset.LookupField[note](name); !errors.As(err, &unknown) || unknown.Field != name {
			t.Errorf("%q: %v, want an UnknownFieldError", name, err)
		}
	}
	type plain struct {
		ID    int64  `db:"id"`
		Title string `db:"title"`
	}
	if column, mf, err := queryset.LookupField[plain]("title"); column != "title" || mf == nil || err != nil {
		t.Errorf("a plain struct's column: %q %v %v", column, mf, err)
	}
	if _, _, err := queryset.LookupField[plain]("owner"); !errors.As(err, &unknown) {
		t.Errorf("a plain struct's unknown field: %v", err)
	}
}

// TestFinderOf: a query made by Into over an SQL source, narrowed or
// not, gives the source's RelatedFinder; a slice's gives none.
func TestFinderOf(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		_, notes := shelfApp(t, db)
		var rows queryset.Rows[note]
		q := queryset.Into[note](notes, &rows)
		for name, q := range map[string]query.Query{"into": q, "narrowed": q.Where("author", query.Exact, "1").OrderBy(query.Order{Field: "id"})} {
			finder, ok := queryset.FinderOf(q)
			if !ok {
				t.Fatalf("%s: no finder", name)
			}
			if key, found, err := finder.FindRelated(ctx, "shelf_person", "name", "bob", false, "id"); key != "2" || !found || err != nil {
				t.Errorf("%s: FindRelated: %q %v %v", name, key, found, err)
			}
		}
		if _, ok := queryset.FinderOf(queryset.Into(queryset.MustSlice([]note{}), nil)); ok {
			t.Error("a slice source has a finder")
		}
	})
}
