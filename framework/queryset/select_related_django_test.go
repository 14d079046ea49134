package queryset_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// djangoSelectRelated is what testdata/select_related_django.py prints.
type djangoSelectRelated struct {
	Cases   []json.RawMessage `json:"cases"`
	Queries []int             `json:"queries"`
	Errors  []*string         `json:"errors"`
}

// SelectRelated reads the rows Django's select_related reads from the
// same tables (Django's own, which it creates and fills), at both levels,
// on SQLite and on PostgreSQL (through the store's reader): each case in
// one query, as Django reads it, and its invalid names in Django's
// words.
func TestSelectRelatedAsDjango(t *testing.T) {
	srDescribe(t)
	pyrun.Levels(t, "psycopg2", func(t *testing.T, level pyrun.Level) {
		for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
			t.Run(d.String(), func(t *testing.T) {
				dsn := filepath.Join(t.TempDir(), "db.sqlite3")
				if d == store.PostgreSQL {
					dsn = testservers.Postgres(t)
				}
				want := selectRelatedPython(t, level, dsn)
				db, err := store.Open(dsn)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = db.Close() })
				books := queryset.MustSQL[srBook](db, queryset.SQLConfig{}).SelectRelated("author", "editor")
				cases := []struct {
					src          queryset.Source[srBook]
					offset, size int
				}{
					{books.OrderBy(query.Order{Field: "id"}), 0, -1},
					{books.Where("editor", query.IsNull, "true"), 0, -1},
					{books.Where("editor__name", query.Exact, "ann"), 0, -1},
					{books.Match(queryset.Or(queryset.Lookup("author__city__name", query.Exact, "Lyon"),
						queryset.Lookup("editor__city", query.IsNull, "true"))), 0, -1},
					{books.Where("editor", query.IsNull, "false").OrderBy(query.Order{Field: "editor__name", Desc: true}, query.Order{Field: "id"}), 1, 2},
				}
				if len(want.Cases) != len(cases) {
					t.Fatalf("select_related_django.py answered %d cases, want %d", len(want.Cases), len(cases))
				}
				for i, c := range cases {
					items, err := c.src.Slice(ctx, c.offset, c.size)
					if err != nil {
						t.Fatalf("case %d: %v", i, err)
					}
					got, err := json.Marshal(srDjangoRows(items))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want.Cases[i]) {
						t.Errorf("case %d: %s, Django %s", i, got, want.Cases[i])
					}
					if want.Queries[i] != 1 {
						t.Errorf("case %d: Django read it in %d queries, TestSelectRelated counts 1 of ours", i, want.Queries[i])
					}
				}
				for i, names := range [][]string{{"x"}, {"title"}, {"editor_id"}} {
					_, err := books.SelectRelated(names...).Slice(ctx, 0, -1)
					if want.Errors[i] == nil || err == nil || err.Error() != "queryset: "+*want.Errors[i] {
						t.Errorf("SelectRelated(%q): %v, Django %v", names, err, want.Errors[i])
					}
				}
			})
		}
	})
}

// selectRelatedPython runs testdata/select_related_django.py at a level
// (its PYTHONPATH, "" for Debian's Django 3.2) on the database dsn, which
// it creates the library's tables in and fills.
func selectRelatedPython(t *testing.T, level pyrun.Level, dsn string) djangoSelectRelated {
	t.Helper()
	out := pyrun.Exec(t, level, nil, "testdata/select_related_django.py", dsn)
	var got djangoSelectRelated
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// srDjangoRows are books as select_related_django.py prints them.
func srDjangoRows(books []*srBook) [][]any {
	city := func(c *srCity) any {
		if c == nil {
			return nil
		}
		return []any{c.ID, c.Name}
	}
	person := func(a *srAuthorOut) any {
		if a == nil {
			return nil
		}
		return []any{a.ID, a.Name, city(a.City)}
	}
	rows := [][]any{}
	for _, b := range books {
		rows = append(rows, []any{b.ID, b.Title, person(&b.Author), person(b.Editor)})
	}
	return rows
}
