package filters_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

type row struct {
	ID    int64  `db:"id"`
	Title string `db:"title"`
	Tag   string `db:"tag"`
}

var rows = queryset.MustSlice([]row{{1, "Go in Action", "go,book"}, {2, "Rust", "book"}, {3, "go_home", "x%y"}, {4, "GOPHER", "go"}})

func req(query string) *request.Request {
	return request.New(httptest.NewRequest("GET", "/?"+query, nil), request.Config{})
}

func list(t *testing.T, b framework.FilterBackend, query string) string {
	t.Helper()
	var got queryset.Rows[row]
	q, err := b.Filter(req(query), queryset.Into(rows, &got))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Fetch(context.Background(), 0, -1); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, it := range got.Items {
		ids = append(ids, it.ID)
	}
	return fmt.Sprint(ids)
}

func TestOrderingFilter(t *testing.T) {
	restricted := filters.OrderingFilter{Fields: []string{"title", "id"}, Default: []string{"-id"}}
	anyField := filters.OrderingFilter{Param: "sort"}
	for _, c := range []struct {
		f           filters.OrderingFilter
		query, want string
	}{
		{restricted, "", "[4 3 2 1]"},
		{restricted, "ordering=", "[4 3 2 1]"},
		{restricted, "ordering=tag", "[4 3 2 1]"},
		{restricted, "ordering=title", "[4 1 2 3]"},
		{restricted, "ordering=id&ordering=-title", "[3 2 1 4]"},
		{restricted, "ordering=tag,%20-id%20,title", "[4 3 2 1]"},
		{anyField, "sort=tag,-id", "[2 4 1 3]"},
		{anyField, "sort=nope", "[1 2 3 4]"},
		{anyField, "ordering=-id", "[1 2 3 4]"},
	} {
		if got := list(t, c.f, c.query); got != c.want {
			t.Errorf("%+v ?%s = %s, want %s", c.f, c.query, got, c.want)
		}
	}
	if got := fmt.Sprint(restricted.Ordering(req("ordering=-title,id"), queryset.Into(rows, nil))); got != "[-title id]" {
		t.Errorf("ordering = %s", got)
	}
}

func TestSearchFilter(t *testing.T) {
	f := filters.SearchFilter{Fields: []string{"title", "tag"}}
	for query, want := range map[string]string{
		"":                          "[1 2 3 4]",
		"search=go":                 "[1 3 4]",
		"search=GO+book":            "[1]",
		"search=go,book":            "[1]",
		"search=%25":                "[3]",
		"search=_":                  "[3]",
		"search=%00":                "[1 2 3 4]",
		"search=rust&search=gopher": "[4]",
	} {
		if got := list(t, f, query); got != want {
			t.Errorf("?%s = %s, want %s", query, got, want)
		}
	}
	if got := list(t, filters.SearchFilter{Param: "q"}, "q=go"); got != "[1 2 3 4]" {
		t.Errorf("no fields: %s", got)
	}
	if terms := (filters.SearchFilter{}).Terms(req("search=a,%20b%09c,,d%00e")); fmt.Sprint(terms) != "[a b c de]" {
		t.Errorf("terms = %q", terms)
	}
}

// TestSchemaParameters checks the query parameters schemas document.
func TestSchemaParameters(t *testing.T) {
	cases := []struct {
		b interface {
			SchemaParameters(*framework.View) []pagination.SchemaParameter
		}
		want string
	}{
		{filters.OrderingFilter{}, `[{"name":"ordering","required":false,"in":"query","description":"Which field to use when ordering the results.","schema":{"type":"string"}}]`},
		{filters.OrderingFilter{Param: "sort"}, `[{"name":"sort","required":false,"in":"query","description":"Which field to use when ordering the results.","schema":{"type":"string"}}]`},
		{filters.SearchFilter{Fields: []string{"title"}}, `[{"name":"search","required":false,"in":"query","description":"A search term.","schema":{"type":"string"}}]`},
		{filters.SearchFilter{}, `null`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.b.SchemaParameters(nil))
		if err != nil || string(got) != c.want {
			t.Errorf("%+v: %s %v\nwant %s", c.b, got, err, c.want)
		}
	}
}
