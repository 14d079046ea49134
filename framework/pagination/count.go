package pagination

import (
	"context"
	"math"
	"strconv"

	"github.com/go-drf/drf/framework/query"
)

// CountMode is how the page-number and limit/offset styles count the
// items of all pages (their "count").
type CountMode int

// Count modes.
const (
	// ExactCount counts every item on every request (SELECT COUNT(*)),
	// as DRF does.
	ExactCount CountMode = iota
	// EstimatedCount asks the query for an estimate (EstimateCount: a
	// queryset.Estimator's cached count, a planner's statistics) and shows it with
	// "count_estimated": true. The links do not trust it: each page
	// reads one item more to know whether another page follows, and
	// the last page, seen to end, shows the exact count ("count_estimated":
	// false), as does a source that counted exactly (filtered, or not
	// an Estimator).
	EstimatedCount
	// NoCount never counts: the body is {"next", "previous", "results"},
	// each page reading one item more to know whether another follows
	// (DRF #3307, #5846). ?page=last is then 404 "Invalid page.".
	NoCount
)

// pageCount is the count of a page under a CountMode.
type pageCount struct {
	n         int
	estimated bool
	// unknown marks NoCount: n is then only what the links need.
	unknown bool
}

// countItems counts src as mode says.
func countItems(ctx context.Context, q query.Query, mode CountMode) (pageCount, error) {
	switch mode {
	case NoCount:
		return pageCount{unknown: true}, nil
	case EstimatedCount:
		n, exact, err := q.EstimateCount(ctx)
		return pageCount{n: n, estimated: !exact}, err
	}
	n, err := q.Count(ctx)
	return pageCount{n: n}, err
}

// settle corrects the count by what a slice from start showed: n items,
// and more after them or not. Seen to end, the count is exact; with more
// to come it is at least start+n+1; past the end, at most start.
func (c *pageCount) settle(start, n int, more bool) {
	switch {
	case c.unknown:
		c.n = start + n
		if more {
			c.n++
		}
	case !more && (n > 0 || start == 0):
		c.n, c.estimated = start+n, false
	case more:
		c.n = max(c.n, start+n+1)
	default:
		c.n = min(c.n, start)
	}
}

// oneMore is the limit of a slice of n items and one more, which tells
// whether more follow; n = math.MaxInt gives all (-1).
func oneMore(n int) int {
	if n == math.MaxInt {
		return -1
	}
	return n + 1
}

// envelope is the body of a page of items data with this count and links.
func (c pageCount) envelope(mode CountMode, next, previous Link, data any) any {
	switch {
	case c.unknown:
		return cursorEnvelope{Next: next, Previous: previous, Results: data}
	case mode == EstimatedCount:
		return estimatedEnvelope{Count: c.n, CountEstimated: c.estimated, Next: next, Previous: previous, Results: data}
	}
	return pageEnvelope{Count: c.n, Next: next, Previous: previous, Results: data}
}

// estimatedEnvelope is the body of the page-number and limit/offset
// styles with EstimatedCount: {"count", "count_estimated", "next",
// "previous", "results"}.
type estimatedEnvelope struct {
	Count          int  `json:"count"`
	CountEstimated bool `json:"count_estimated"`
	Next           Link `json:"next"`
	Previous       Link `json:"previous"`
	Results        any  `json:"results"`
}

// AppendJSON appends e's JSON, as encoding/json would encode it, so that
// the JSON renderer needs no reflection (framework.JSONAppender).
func (e estimatedEnvelope) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(e.Count), 10)
	b = append(b, `,"count_estimated":`...)
	b = strconv.AppendBool(b, e.CountEstimated)
	return appendLinks(b, `,"next":`, e.Next, e.Previous, e.Results)
}
