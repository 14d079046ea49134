package pagination_test

import (
	"context"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
)

// fixedCount is an estimate strategy that answers n whatever the table
// holds, as a stale statistic may.
type fixedCount int

func (n fixedCount) CountRows(context.Context, *sqlx.DB) (int, error) { return int(n), nil }

// estimatedBooks is the 25 books with an estimator that answers estimate.
func estimatedBooks(t *testing.T, estimate int) queryset.Source[book] {
	t.Helper()
	src, err := queryset.NewSQL[book](openBooks(t, 25), queryset.SQLConfig{Table: "books",
		Ordering: []query.Order{{Field: "id"}}, Estimator: fixedCount(estimate)})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestEstimatedCount: the estimate is shown and flagged; the links come
// from reading one item more, the last page shows the exact count, and a
// filtered source counts exactly.
func TestEstimatedCount(t *testing.T) {
	cases := []struct {
		estimate int
		style    string
		path     string
		status   int
		body     string
	}{
		{1000, "number", "/", 200, `{"count":1000,"count_estimated":true,"next":"http://testserver/?page=2","previous":null,"results":[1,2,3,4,5,6,7,8,9,10]}`},
		{1000, "number", "/?page=3", 200, `{"count":25,"count_estimated":false,"next":null,"previous":"http://testserver/?page=2","results":[21,22,23,24,25]}`},
		{1000, "number", "/?page=4", 404, `{"detail":"Invalid page."}`},
		{1000, "number", "/?page=last", 404, `{"detail":"Invalid page."}`},
		{5, "number", "/", 200, `{"count":11,"count_estimated":true,"next":"http://testserver/?page=2","previous":null,"results":[1,2,3,4,5,6,7,8,9,10]}`},
		{5, "number", "/?page=2", 200, `{"count":21,"count_estimated":true,"next":"http://testserver/?page=3","previous":"http://testserver/","results":[11,12,13,14,15,16,17,18,19,20]}`},
		{30, "number", "/?page=last", 200, `{"count":25,"count_estimated":false,"next":null,"previous":"http://testserver/?page=2","results":[21,22,23,24,25]}`},
		{30, "number", "/?page=9223372036854775807", 404, `{"detail":"Invalid page."}`},
		{1000, "limit", "/?limit=10", 200, `{"count":1000,"count_estimated":true,"next":"http://testserver/?limit=10&offset=10","previous":null,"results":[1,2,3,4,5,6,7,8,9,10]}`},
		{1000, "limit", "/?limit=10&offset=20", 200, `{"count":25,"count_estimated":false,"next":null,"previous":"http://testserver/?limit=10&offset=10","results":[21,22,23,24,25]}`},
		{1000, "limit", "/?limit=10&offset=30", 200, `{"count":30,"count_estimated":true,"next":null,"previous":"http://testserver/?limit=10&offset=20","results":[]}`},
		{1000, "limit", "/?limit=10&offset=99999999999999999999", 200, `{"count":1000,"count_estimated":true,"next":null,"previous":"http://testserver/?limit=10&offset=99999999999999999989","results":[]}`},
	}
	for _, c := range cases {
		src := estimatedBooks(t, c.estimate)
		var srv *httptest.Server
		if c.style == "number" {
			srv = httptest.NewServer(styleView(src, &pagination.PageNumberPagination{PageSize: 10, Count: pagination.EstimatedCount}))
		} else {
			srv = httptest.NewServer(styleView(src, &pagination.LimitOffsetPagination{Count: pagination.EstimatedCount}))
		}
		a := get(t, srv, c.path)
		if got := idsOnly(t, a.Body); a.Status != c.status || got != c.body {
			t.Errorf("estimate %d, %s %s: %d %s\nwant %d %s", c.estimate, c.style, c.path, a.Status, got, c.status, c.body)
		}
		srv.Close()
	}
	// A filtered source counts exactly, and says so.
	src := estimatedBooks(t, 1000).Filter("rating", "3")
	srv := httptest.NewServer(styleView(src, &pagination.PageNumberPagination{PageSize: 2, Count: pagination.EstimatedCount}))
	defer srv.Close()
	e := decode(t, get(t, srv, "/"))
	if e.Count == nil || *e.Count != 5 || string(get(t, srv, "/").Body[:36]) != `{"count":5,"count_estimated":false,"` {
		t.Errorf("filtered: %s", get(t, srv, "/").Body)
	}
}

// TestNoCount: no "count" member, links from one item more, ?page=last
// refused.
func TestNoCount(t *testing.T) {
	src := booksSource(t, openBooks(t, 25))
	number := httptest.NewServer(styleView(src, &pagination.PageNumberPagination{PageSize: 10, Count: pagination.NoCount}))
	defer number.Close()
	limit := httptest.NewServer(styleView(src, &pagination.LimitOffsetPagination{DefaultLimit: 10, Count: pagination.NoCount}))
	defer limit.Close()
	cases := []struct {
		srv    *httptest.Server
		path   string
		status int
		body   string
	}{
		{number, "/", 200, `{"next":"http://testserver/?page=2","previous":null,"results":[1,2,3,4,5,6,7,8,9,10]}`},
		{number, "/?page=3", 200, `{"next":null,"previous":"http://testserver/?page=2","results":[21,22,23,24,25]}`},
		{number, "/?page=4", 404, `{"detail":"Invalid page."}`},
		{number, "/?page=last", 404, `{"detail":"Invalid page."}`},
		{limit, "/?offset=15", 200, `{"next":null,"previous":"http://testserver/?limit=10&offset=5","results":[16,17,18,19,20,21,22,23,24,25]}`},
		{limit, "/?offset=14", 200, `{"next":"http://testserver/?limit=10&offset=24","previous":"http://testserver/?limit=10&offset=4","results":[15,16,17,18,19,20,21,22,23,24]}`},
		{limit, "/?offset=40", 200, `{"next":null,"previous":"http://testserver/?limit=10&offset=30","results":[]}`},
	}
	for _, c := range cases {
		a := get(t, c.srv, c.path)
		if got := idsOnly(t, a.Body); a.Status != c.status || got != c.body {
			t.Errorf("%s: %d %s\nwant %d %s", c.path, a.Status, got, c.status, c.body)
		}
	}
}

// resultObject is one book of a body: no nested objects.
var resultObject = regexp.MustCompile(`\{"id":(\d+),[^{}]*\}`)

// idsOnly is a body with each book replaced by its id, the envelope's
// members kept in their order.
func idsOnly(t *testing.T, body []byte) string {
	t.Helper()
	return resultObject.ReplaceAllString(string(body), "$1")
}
