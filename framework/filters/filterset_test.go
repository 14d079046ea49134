package filters_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
)

type reading struct {
	ID    int64   `db:"id"`
	Value float64 `db:"value"`
	Note  *string `db:"note"`
}

var noted = "seen"

var readings = queryset.MustSlice([]reading{{1, 1.5, &noted}, {2, 2.5, nil}, {3, 10, &noted}}, query.Order{Field: "id"})

// TestFilterSet: each filter reads its parameter as django-filter's form
// field does, narrows the list, and refuses a bad value with Django's
// message, every bad parameter at once, in the filters' order.
func TestFilterSet(t *testing.T) {
	fs := filters.FilterSet{Filters: slices.Concat(
		filters.Lookups("value", filters.Number, query.Exact, query.GT, query.In, query.Range),
		[]filters.Filter{{Param: "noted", Field: "note", Lookup: query.IsNull, Value: filters.Boolean}},
	)}
	for q, want := range map[string]string{
		"":                        "[1 2 3]",
		"value=2.5":               "[2]",
		"value__gt=2":             "[2 3]",
		"value__in=1.5,,10":       "[1 3]",
		"value__range=2,10":       "[2 3]",
		"value__range=2,":         "[1 2 3]",
		"value__range=2":          `400 {"value__range":["Range query expects two values."]}`,
		"noted=true":              "[2]",
		"noted=False":             "[1 3]",
		"noted=maybe":             "[1 2 3]",
		"value=x&noted=1":         `400 {"value":["Enter a number."]}`,
		"value__in=1,x&value=NaN": `400 {"value":["Enter a number."],"value__in":["Enter a number."]}`,
	} {
		var got queryset.Rows[reading]
		q2, err := fs.Filter(req(q), queryset.Into(readings, &got))
		if err != nil {
			if s := fmt.Sprintf("%d %s", 400, body(t, err)); s != want {
				t.Errorf("?%s: %s, want %s", q, s, want)
			}
			continue
		}
		if _, err := q2.Fetch(t.Context(), 0, -1); err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, r := range got.Items {
			ids = append(ids, r.ID)
		}
		if fmt.Sprint(ids) != want {
			t.Errorf("?%s: %v, want %s", q, ids, want)
		}
	}
	params := fs.SchemaParameters(nil)
	if params[1].Name != "value__gt" || params[1].Description != "Value is greater than" || params[4].Description != "Noted is null" {
		t.Errorf("schema parameters %+v", params)
	}
}

// body is the JSON an API exception answers.
func body(t *testing.T, err error) string {
	t.Helper()
	var e *exceptions.APIException
	if !errors.As(err, &e) || e.Status != 400 {
		t.Fatalf("error %v, want a 400", err)
	}
	return e.Error()
}
