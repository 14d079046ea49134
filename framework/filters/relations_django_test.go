package filters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of testdata/relations_django.py's library, over the tables
// Django creates for it.
type (
	libCountry struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	libAuthor struct {
		ID        int64   `db:"id"`
		Name      string  `db:"name" model:"max_length=50"`
		Nick      *string `db:"nick" model:"max_length=50"`
		CountryID *int64  `db:"country_id" model:"foreign_key=lib_country,on_delete=set_null,related_name=authors"`
	}
	libTag struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	libBook struct {
		ID       int64   `db:"id"`
		Title    string  `db:"title" model:"max_length=50"`
		AuthorID *int64  `db:"author_id" model:"foreign_key=lib_author,on_delete=set_null,related_name=books"`
		EditorID int64   `db:"editor_id" model:"foreign_key=lib_author,related_name=edited"`
		Tags     []int64 `json:"tags" model:"many_to_many=lib_tag,related_name=books,blank"`
	}
	libReview struct {
		ID     int64  `db:"id"`
		BookID int64  `db:"book_id" model:"foreign_key=lib_book"`
		Stars  *int64 `db:"stars"`
	}
	libShelf struct {
		ID    int64   `db:"id"`
		Name  string  `db:"name" model:"max_length=20"`
		Books []int64 `json:"books" model:"many_to_many=lib_book,related_query_name=shelved,blank"`
	}
)

func (libCountry) Meta() models.Meta {
	return models.Meta{App: "lib", Name: "Country", Ordering: []string{"-name"}}
}
func (libAuthor) Meta() models.Meta { return models.Meta{App: "lib", Name: "Author"} }
func (libTag) Meta() models.Meta {
	return models.Meta{App: "lib", Name: "Tag", Ordering: []string{"-name"}}
}
func (libBook) Meta() models.Meta {
	return models.Meta{App: "lib", Name: "Book", Ordering: []string{"author__name", "id"}}
}
func (libReview) Meta() models.Meta { return models.Meta{App: "lib", Name: "Review"} }
func (libShelf) Meta() models.Meta  { return models.Meta{App: "lib", Name: "Shelf"} }

// djangoAnswers are what testdata/relations_django.py prints.
type djangoAnswers struct {
	MetaOrdering []int64            `json:"meta_ordering"`
	Orderings    map[string][]int64 `json:"orderings"`
	BookTags     map[string][]int64 `json:"book_tags"`
	Sets         map[string]struct {
		Labels  map[string]string          `json:"labels"`
		Answers map[string]json.RawMessage `json:"answers"`
	} `json:"-"`
}

// relationsPython runs testdata/relations_django.py at a level (its
// PYTHONPATH, "" for Debian's Django 3.2) on the database at dbURL, which
// it creates the library's tables in and fills, and returns its answers.
func relationsPython(t *testing.T, level pyrun.Level, dbURL string) djangoAnswers {
	t.Helper()
	out := pyrun.Exec(t, level, nil, "testdata/relations_django.py", dbURL)
	var a djangoAnswers
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(out, &all); err != nil {
		t.Fatal(err)
	}
	a.Sets = map[string]struct {
		Labels  map[string]string          `json:"labels"`
		Answers map[string]json.RawMessage `json:"answers"`
	}{}
	for _, name := range []string{"books", "authors", "tags"} {
		s := a.Sets[name]
		if err := json.Unmarshal(all[name], &s); err != nil {
			t.Fatal(err)
		}
		if len(s.Answers) == 0 {
			t.Fatalf("%s: no answers", name)
		}
		a.Sets[name] = s
	}
	return a
}

// Orderings across foreign keys (Meta.Ordering "author__name", and DRF's
// OrderingFilter with ordering_fields naming paths), isnull lookups
// across relations (forward, many-to-many and reverse sides, one
// relation after another) and a many-to-many field's keys answer as
// real Django, DRF and django-filter do over the same tables, on SQLite
// and PostgreSQL, at both levels: Django runs testdata/relations_django.py
// on the database, then the framework reads it. NULLs come where each
// database puts them (first ascending on SQLite, last on PostgreSQL).
func TestRelationsAsDjango(t *testing.T) {
	pyrun.Levels(t, "django_filters, rest_framework, psycopg2", func(t *testing.T, level pyrun.Level) {
		for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
			t.Run(d.String(), func(t *testing.T) {
				dbURL := "sqlite:///" + filepath.Join(t.TempDir(), "db.sqlite3")
				if d == store.PostgreSQL {
					dbURL = testservers.Postgres(t)
				}
				want := relationsPython(t, level, dbURL)
				db, err := store.Open(dbURL)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = db.Close() })
				checkRelationsAsDjango(t, db, want)
			})
		}
	})
}

func checkRelationsAsDjango(t *testing.T, db *sqlx.DB, want djangoAnswers) {
	ctx := t.Context()
	// The library's models are installed on db, as Django's lib app is:
	// the reverse relations of reviews and shelves are followed there.
	for _, describe := range []func() (*models.Description, error){
		models.Of[libCountry], models.Of[libAuthor], models.Of[libTag], models.Of[libReview], models.Of[libShelf],
	} {
		d, err := describe()
		if err != nil {
			t.Fatal(err)
		}
		queryset.Installed(db).Add(d)
	}
	books := queryset.MustSQL[libBook](db, queryset.SQLConfig{})
	all, err := books.Slice(ctx, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(items []*libBook) []int64 {
		out := make([]int64, len(items))
		for i, b := range items {
			out[i] = b.ID
		}
		return out
	}
	if got := ids(all); !slices.Equal(got, want.MetaOrdering) {
		t.Errorf("Meta.Ordering author__name, id: %v, Django %v", got, want.MetaOrdering)
	}
	for _, b := range all {
		if w := want.BookTags[strconv.FormatInt(b.ID, 10)]; !slices.Equal(b.Tags, w) {
			t.Errorf("book %d: tags %v, DRF %v (Tag's Meta.Ordering -name)", b.ID, b.Tags, w)
		}
	}
	ordering := filters.OrderingFilter{
		Fields: []string{"title", "id", "author__name", "editor__name", "author__country__name", "author__nick", "author",
			"author__country", "editor__country"},
		Default: []string{"-editor__name", "id"},
	}
	if len(want.Orderings) == 0 {
		t.Fatal("no orderings")
	}
	for q, w := range want.Orderings {
		var rows queryset.Rows[libBook]
		src, err := ordering.Filter(req(url.Values{"ordering": {q}}.Encode()), queryset.Into[libBook](books, &rows))
		if err == nil {
			_, err = src.Fetch(ctx, 0, -1)
		}
		if err != nil {
			t.Fatalf("?ordering=%s: %v", q, err)
		}
		if got := ids(rows.Items); !slices.Equal(got, w) {
			t.Errorf("?ordering=%s: %v, DRF %v", q, got, w)
		}
	}
	sets := map[string]func(query string) map[string]any{
		"books":   filterAsDjango[libBook](t, db, "BookFilter", want.Sets["books"].Labels),
		"authors": filterAsDjango[libAuthor](t, db, "AuthorFilter", want.Sets["authors"].Labels),
		"tags":    filterAsDjango[libTag](t, db, "TagFilter", want.Sets["tags"].Labels),
	}
	for name, filter := range sets {
		for q, answer := range want.Sets[name].Answers {
			got := filter(q)
			var a any
			_ = json.Unmarshal(answer, &a)
			wantText, _ := json.Marshal(a)
			gotText, _ := json.Marshal(got)
			if !bytes.Equal(gotText, wantText) {
				t.Errorf("%s ?%s: %s\ndjango-filter: %s", name, q, gotText, wantText)
			}
		}
	}
}

// filterAsDjango returns a function that filters T's rows (in key order)
// by a FilterSet of the isnull filters django-filter labels, and answers
// as relations_django.py prints django-filter's answer; the FilterSet's
// labels are django-filter's.
func filterAsDjango[T any](t *testing.T, db *sqlx.DB, name string, labels map[string]string) func(string) map[string]any {
	t.Helper()
	var fs []filters.Filter
	for param := range labels {
		fs = append(fs, filters.Filter{Field: strings.TrimSuffix(param, "__isnull"), Lookup: query.IsNull})
	}
	set, err := filters.NewFilterSet[T](name, filters.FilterSet{Filters: fs})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.SchemaParameters(nil) {
		if w := labels[p.Name]; p.Description != w {
			t.Errorf("%s %s: label %q, django-filter %q", name, p.Name, p.Description, w)
		}
	}
	src := queryset.MustSQL[T](db, queryset.SQLConfig{Ordering: []query.Order{{Field: "id"}}})
	return func(rawQuery string) map[string]any {
		var rows queryset.Rows[T]
		q, err := set.Filter(req(rawQuery), queryset.Into(src, &rows))
		if err == nil {
			_, err = q.Fetch(t.Context(), 0, -1)
		}
		if api, ok := errors.AsType[*exceptions.APIException](err); ok {
			return map[string]any{"errors": api.Detail}
		} else if err != nil {
			t.Fatalf("%s ?%s: %v", name, rawQuery, err)
		}
		ids := []int64{}
		for _, item := range rows.Items {
			p, err := src.Position(item, "id")
			if err != nil {
				t.Fatal(err)
			}
			var id int64
			if err := json.Unmarshal([]byte(p), &id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return map[string]any{"ids": ids}
	}
}
