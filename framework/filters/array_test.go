package filters_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// gizmo has ArrayFields: ArrayField(CharField(max_length=40)) and
// ArrayField(IntegerField()).
type gizmo struct {
	ID   int64    `db:"id"`
	Tags []string `db:"tags" model:"max_length=40"`
	Nums []int    `db:"nums"`
}

func (gizmo) Meta() models.Meta { return models.Meta{App: "lab", Name: "Gizmo"} }

// A FilterSet's lookups on ArrayFields read their value as django-filter's
// BaseCSVFilter does (the filter_overrides of an ArrayField): the
// comma-separated elements, each stripped, an empty CharField item kept;
// len reads a number. A lookup on a field of the wrong kind is refused
// when the view is checked, naming the filterset, the parameter and the
// field.
func TestFilterSetArrayLookups(t *testing.T) {
	db, err := store.Open(testservers.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec(`CREATE TABLE lab_gizmo (id serial PRIMARY KEY, tags varchar(40)[] NOT NULL, nums integer[] NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	src := queryset.MustSQL[gizmo](db, queryset.SQLConfig{Ordering: []query.Order{{Field: "id"}}})
	for _, g := range []gizmo{{Tags: []string{"a", "b"}, Nums: []int{1, 2, 3}}, {Tags: []string{}, Nums: []int{}},
		{Tags: []string{"b", ""}, Nums: []int{2}}} {
		if err := src.Insert(t.Context(), &g); err != nil {
			t.Fatal(err)
		}
	}
	fs := filters.MustFilterSet[gizmo]("GizmoFilter", filters.FilterSet{Filters: append(filters.Lookups("tags", filters.Text,
		query.Exact, query.Contains, query.ContainedBy, query.Overlap, query.Len),
		filters.Lookups("nums", filters.Number, query.Contains, query.Overlap, query.Len)...)})
	if err := fs.Check(queryset.Into[gizmo](src, nil)); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range fs.SchemaParameters(nil) {
		labels = append(labels, p.Description)
	}
	if got := strings.Join(labels, "|"); got != "Tags|Tags contains|Tags is contained by|Tags overlaps|Tags len|Nums contains|Nums overlaps|Nums len" {
		t.Errorf("labels %s, django-filter's VERBOSE_LOOKUPS", got)
	}
	for query, want := range map[string]string{
		"tags__contains=a,b":         "[1]",
		"tags__contains=b":           "[1,3]",
		"tags__contains=b,":          "[3]",
		"tags__contains=%20b%20":     "[1,3]",
		"tags__contained_by=a,b":     "[1,2]",
		"tags__overlap=x,a":          "[1]",
		"tags=b,a":                   "[]",
		"tags=a,b":                   "[1]",
		"tags__len=0":                "[2]",
		"tags__len=2":                "[1,3]",
		"tags__contains=":            "[1,2,3]",
		"nums__contains=3,1":         "[1]",
		"nums__overlap=2":            "[1,3]",
		"nums__len=1":                "[3]",
		"nums__contains=x":           `{"nums__contains":["Enter a number."]}`,
		"nums__len=two":              `{"nums__len":["Enter a number."]}`,
		"tags__overlap=" + many(3e3): `{"tags__overlap":["List contains 3000 items, it should contain no more than 1000."]}`,
	} {
		var rows queryset.Rows[gizmo]
		q, err := fs.Filter(req(query), queryset.Into(src, &rows))
		got := ""
		if err != nil {
			got = err.Error()
		} else if _, err := q.Fetch(t.Context(), 0, -1); err != nil {
			got = err.Error()
		} else {
			ids := []int64{}
			for _, g := range rows.Items {
				ids = append(ids, g.ID)
			}
			b, _ := json.Marshal(ids)
			got = string(b)
		}
		if got != want {
			t.Errorf("?%s: %s, want %s", query, got, want)
		}
	}
	for _, f := range []filters.Filter{{Field: "id", Lookup: query.Overlap}, {Field: "tags", Lookup: query.IContains}} {
		fs := filters.MustFilterSet[gizmo]("GizmoFilter", filters.FilterSet{Filters: []filters.Filter{f}})
		err := fs.Check(queryset.Into[gizmo](src, nil))
		if err == nil || !strings.Contains(err.Error(), "GizmoFilter: "+f.Field+"__"+string(f.Lookup)+": queryset: "+f.Field+": Unsupported lookup") {
			t.Errorf("%s__%s: Check = %v", f.Field, f.Lookup, err)
		}
	}
}

// many is n comma-separated items.
func many(n float64) string { return strings.Repeat("a,", int(n)-1) + "a" }
