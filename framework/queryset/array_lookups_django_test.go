package queryset_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// labGadget is testdata/array_lookups_django.py's Gadget, over the table
// Django creates for it.
type labGadget struct {
	ID   int64    `db:"id"`
	Tags []string `db:"tags" model:"max_length=40"`
	Nums []int    `db:"nums"`
}

func (labGadget) Meta() models.Meta { return models.Meta{App: "lab", Name: "Gadget"} }

// arrayCases are the lookups compared with Django's: field, lookup, values.
var arrayCases = []struct {
	field  string
	lookup query.Lookup
	values []string
}{
	{"tags", query.Contains, []string{"a"}},
	{"tags", query.Contains, []string{"a", "b"}},
	{"tags", query.Contains, []string{}},
	{"tags", query.Contains, []string{"c,d"}},
	{"tags", query.Contains, []string{`say "hi"`}},
	{"tags", query.Contains, []string{`back\slash`}},
	{"tags", query.Contains, []string{"A"}},
	{"tags", query.ContainedBy, []string{"a", "b"}},
	{"tags", query.ContainedBy, []string{"a", "b", "x", "c,d"}},
	{"tags", query.ContainedBy, []string{}},
	{"tags", query.Overlap, []string{"a", "x"}},
	{"tags", query.Overlap, []string{}},
	{"tags", query.Overlap, []string{"z"}},
	{"tags", query.Exact, []string{}},
	{"tags", query.Exact, []string{"a", "b"}},
	{"tags", query.Exact, []string{"b", "a"}},
	{"tags", query.Len, []string{"0"}},
	{"tags", query.Len, []string{"1"}},
	{"tags", query.Len, []string{"2"}},
	{"nums", query.Contains, []string{"3"}},
	{"nums", query.Contains, []string{"1", "3"}},
	{"nums", query.ContainedBy, []string{"1", "2", "3"}},
	{"nums", query.Overlap, []string{"5", "9", "-1"}},
	{"nums", query.Exact, []string{"3", "3"}},
	{"nums", query.Exact, []string{}},
	{"nums", query.Len, []string{"3"}},
	{"nums", query.Len, []string{"0"}},
	{"nums", query.Len, []string{"1.9"}},
	{"nums", query.Contains, []string{"3.7"}},
}

// arrayLookupsPython runs testdata/array_lookups_django.py at a level
// (its PYTHONPATH, "" for Debian's Django 3.2) on the database at dbURL,
// which it creates lab_gadget in and fills, and returns the keys each of
// arrayCases selects.
func arrayLookupsPython(t *testing.T, level pyrun.Level, dbURL string) [][]int64 {
	t.Helper()
	cases := make([][]any, len(arrayCases))
	for i, c := range arrayCases {
		cases[i] = []any{c.field, string(c.lookup), c.values}
	}
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	out := pyrun.Exec(t, level, nil, "testdata/array_lookups_django.py", dbURL, string(js))
	var keys [][]int64
	if err := json.Unmarshal(out, &keys); err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(arrayCases) {
		t.Fatalf("array_lookups_django.py answered %d cases, want %d", len(keys), len(arrayCases))
	}
	return keys
}

// ArrayField's lookups (contains, contained_by, overlap, exact and len,
// an empty array's len 0) select the rows Django's ORM selects on the
// same PostgreSQL table, at both levels, through the store's reader and
// through database/sql.
func TestArrayLookupsAsDjango(t *testing.T) {
	pyrun.Levels(t, "psycopg2", func(t *testing.T, level pyrun.Level) {
		dbURL := testservers.Postgres(t)
		want := arrayLookupsPython(t, level, dbURL)
		for _, open := range []struct {
			name string
			o    store.Options
		}{{"reader", store.Options{}}, {"database/sql", store.Options{OpenDB: sql.OpenDB}}} {
			t.Run(open.name, func(t *testing.T) {
				db, err := store.OpenWith(dbURL, open.o)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = db.Close() })
				src := queryset.MustSQL[labGadget](db, queryset.SQLConfig{})
				for i, c := range arrayCases {
					items, err := src.Where(c.field, c.lookup, c.values...).OrderBy(query.Order{Field: "id"}).Slice(t.Context(), 0, -1)
					if err != nil {
						t.Errorf("%s__%s=%q: %v", c.field, c.lookup, c.values, err)
						continue
					}
					got := []int64{}
					for _, g := range items {
						got = append(got, g.ID)
					}
					if !slices.Equal(got, want[i]) {
						t.Errorf("%s__%s=%q: rows %v, Django %v", c.field, c.lookup, c.values, got, want[i])
					}
				}
			})
		}
	})
}

// A value that is not of the elements' kind is ErrInvalidValue; a lookup
// an ArrayField does not take, or django.contrib.postgres' lookup on
// another field, is refused at setup (CheckLookup), naming the field.
func TestArrayLookupErrors(t *testing.T) {
	db, err := store.Open(testservers.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec(`CREATE TABLE lab_gadget (id serial PRIMARY KEY, tags varchar(40)[] NOT NULL, nums integer[] NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	src := queryset.MustSQL[labGadget](db, queryset.SQLConfig{})
	for _, c := range []struct {
		lookup query.Lookup
		values []string
	}{{query.Contains, []string{"1", "x"}}, {query.Overlap, []string{"1/2"}}, {query.Len, []string{"two"}}, {query.Len, []string{"1", "2"}}} {
		if _, err := src.Where("nums", c.lookup, c.values...).Count(t.Context()); !errors.Is(err, query.ErrInvalidValue) {
			t.Errorf("nums__%s=%q: %v, want ErrInvalidValue", c.lookup, c.values, err)
		}
	}
	q := queryset.Into[labGadget](src, nil)
	for _, c := range []struct {
		field  string
		lookup query.Lookup
		want   string
	}{
		{"tags", query.IContains, `tags: Unsupported lookup 'icontains' for ArrayField`},
		{"nums", query.GT, `nums: Unsupported lookup 'gt' for ArrayField`},
		{"id", query.Overlap, `id: Unsupported lookup 'overlap' for the field "id" (not an ArrayField)`},
		{"id", query.Len, `id: Unsupported lookup 'len'`},
	} {
		err := queryset.CheckLookup(q, c.field, c.lookup)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckLookup(%s__%s) = %v, want %q", c.field, c.lookup, err, c.want)
		}
	}
	for _, c := range []struct {
		field  string
		lookup query.Lookup
	}{{"tags", query.Contains}, {"tags", query.IsNull}, {"nums", query.Len}, {"id", query.Contains}} {
		if err := queryset.CheckLookup(q, c.field, c.lookup); err != nil {
			t.Errorf("CheckLookup(%s__%s) = %v", c.field, c.lookup, err)
		}
	}
	// A Go slice compares no arrays: refused at setup, and by Where.
	mem := queryset.MustSlice([]labGadget{{ID: 1, Tags: []string{"a"}}})
	want := `queryset: lookup overlap of the ArrayField "tags" needs an SQL source on PostgreSQL`
	if err := queryset.CheckLookup(queryset.Into[labGadget](mem, nil), "tags", query.Overlap); err == nil || err.Error() != want {
		t.Errorf("CheckLookup on a SliceSource = %v, want %q", err, want)
	}
	if _, err := mem.Where("tags", query.Overlap, "a").Count(t.Context()); err == nil || err.Error() != want {
		t.Errorf("SliceSource's Where = %v, want %q", err, want)
	}
	if n, err := mem.Where("tags", query.IsNull, "false").Count(t.Context()); n != 1 || err != nil {
		t.Errorf("SliceSource's tags__isnull=false: %d, %v", n, err)
	}
}
