package pagination

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"math/big"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// Defaults of the limit/offset style, DRF's class attributes.
const (
	defaultLimitQueryParam  = "limit"
	defaultOffsetQueryParam = "offset"
)

// LimitOffsetPagination pages by position: ?limit=100&offset=400. Its zero
// value has PAGE_SIZE as the default limit.
type LimitOffsetPagination struct {
	// DefaultLimit is the limit when the client gives none (or a bad one);
	// 0 gives PAGE_SIZE.
	DefaultLimit int
	// LimitQueryParam names the limit parameter; "" gives
	// "limit".
	LimitQueryParam string
	// OffsetQueryParam names the offset parameter; "" gives
	// "offset".
	OffsetQueryParam string
	// MaxLimit caps the limit clients choose; 0 leaves it uncapped.
	MaxLimit int
	// Count is how the items are counted; the zero value counts exactly,
	// as DRF does.
	Count CountMode
	// Template renders the browsable controls; nil gives
	// NumbersTemplate (DRF 3.14's at framework.DRF314),
	// NoTemplate none.
	Template *template.Template

	// ready marks a style whose defaults are filled in (Setup).
	ready bool
	// legacySchema: ResponseSchema is DRF 3.14's. Setup sets it at DRF314.
	legacySchema bool
}

// Setup returns the style with PAGE_SIZE and the defaults filled in.
func (p *LimitOffsetPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
	return setup(p.Resolve(s))
}

// Resolve is Setup for code that embeds the style: it returns the style
// itself, resolved, or nil.
func (p *LimitOffsetPagination) Resolve(s *framework.Settings) (*LimitOffsetPagination, error) {
	c := *p
	c.DefaultLimit = cmp.Or(c.DefaultLimit, s.PageSize)
	c.LimitQueryParam = cmp.Or(c.LimitQueryParam, defaultLimitQueryParam)
	c.OffsetQueryParam = cmp.Or(c.OffsetQueryParam, defaultOffsetQueryParam)
	c.Template = levelTemplate(c.Template, s, numbersTemplate314)
	c.legacySchema = s.Compatibility == framework.DRF314
	c.ready = true
	if c.DefaultLimit < 0 || c.MaxLimit < 0 {
		return nil, fmt.Errorf("limits cannot be negative (default limit %d, max limit %d)", c.DefaultLimit, c.MaxLimit)
	}
	return &c, nil
}

// Paginate returns the requested page of q; see Page.
func (p *LimitOffsetPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	return asPage(p.Page(r, q))
}

// Page returns limit items of q from offset (a count and, unless the
// offset is past the end, a fetch), or nil when there is no limit. A
// limit that is not a positive integer gives the default one; an offset
// that is not a non-negative integer gives 0. Numbers are read exactly,
// however long, so that the links carry them as DRF's do.
func (p *LimitOffsetPagination) Page(r *request.Request, q query.Query) (*LimitOffsetPage, error) {
	if !p.ready {
		var err error
		if p, err = p.Resolve(&framework.Settings{}); err != nil {
			return nil, err
		}
	}
	params := requestQuery(r, nil)
	var limit *big.Int
	if raw, ok := params.get(p.LimitQueryParam); ok {
		if n, ok := pycompat.Int(raw); ok && n.Sign() > 0 {
			limit = n
			if p.MaxLimit > 0 && n.Cmp(big.NewInt(int64(p.MaxLimit))) > 0 {
				limit = big.NewInt(int64(p.MaxLimit))
			}
		}
	}
	if limit == nil {
		if p.DefaultLimit <= 0 {
			return nil, nil
		}
		limit = big.NewInt(int64(p.DefaultLimit))
	}
	offset := new(big.Int)
	if raw, ok := params.get(p.OffsetQueryParam); ok {
		if n, ok := pycompat.Int(raw); ok && n.Sign() >= 0 {
			offset = n
		}
	}
	ctx := r.Context()
	c, err := countItems(ctx, q, p.Count)
	if err != nil {
		return nil, err
	}
	n := math.MaxInt
	if limit.IsInt64() {
		n = int(limit.Int64())
	}
	var rows query.Rows
	switch {
	case p.Count == ExactCount:
		start, lim := 0, 0
		if c.n > 0 && offset.Cmp(big.NewInt(int64(c.n))) <= 0 {
			start, lim = int(offset.Int64()), n
		}
		rows, err = q.Fetch(ctx, start, lim)
	case offset.IsInt64() && offset.Int64() <= math.MaxInt-int64(min(n, math.MaxInt-1))-1:
		// One item more tells whether more follow.
		start := int(offset.Int64())
		if rows, err = q.Fetch(ctx, start, oneMore(n)); err != nil {
			return nil, err
		}
		more := rows.Len() > n
		rows.Keep(min(rows.Len(), n))
		c.settle(start, rows.Len(), more)
	default:
		rows, err = q.Fetch(ctx, 0, 0)
	}
	if err != nil {
		return nil, err
	}
	bigCount := big.NewInt(int64(c.n))
	page := &LimitOffsetPage{len: rows.Len(), count: c, mode: p.Count, bigCount: bigCount, limit: limit, offset: offset,
		limitParam: p.LimitQueryParam, offsetParam: p.OffsetQueryParam, links: newLinker(r, params),
		controls: newControls(r, p.Template, NumbersTemplate)}
	page.SetDisplayControls(bigCount.Cmp(limit) > 0)
	return page, nil
}

// SchemaParameters lists the limit and offset parameters.
func (p *LimitOffsetPagination) SchemaParameters(v *framework.View) []SchemaParameter {
	return []SchemaParameter{
		queryParam(cmp.Or(p.LimitQueryParam, defaultLimitQueryParam), limitDescription, "integer"),
		queryParam(cmp.Or(p.OffsetQueryParam, defaultOffsetQueryParam), offsetDescription, "integer"),
	}
}

// ResponseSchema is the JSON Schema of an answer whose results the
// schema results describes: the page envelope (get_paginated_response_schema).
func (p *LimitOffsetPagination) ResponseSchema(results any) any {
	offset, limit := cmp.Or(p.OffsetQueryParam, defaultOffsetQueryParam), cmp.Or(p.LimitQueryParam, defaultLimitQueryParam)
	return countedSchema(p.Count, offset+"=400&"+limit+"=100", offset+"=200&"+limit+"=100", results, p.legacySchema)
}

// LimitOffsetPage is one page of LimitOffsetPagination.
type LimitOffsetPage struct {
	len                     int
	count                   pageCount
	mode                    CountMode
	bigCount, limit, offset *big.Int
	limitParam, offsetParam string
	links                   linker
	controls
}

// Len returns the number of items on the page.
func (p *LimitOffsetPage) Len() int { return p.len }

// Count returns the number of items of the whole source: an estimate
// when CountEstimated says so; with NoCount, the items up to this page's
// end, plus one when more follow.
func (p *LimitOffsetPage) Count() int { return p.count.n }

// CountEstimated reports whether Count is an estimate.
func (p *LimitOffsetPage) CountEstimated() bool { return p.count.estimated }

// Limit returns the limit in force (the requested one, capped, or the
// default one).
func (p *LimitOffsetPage) Limit() *big.Int { return new(big.Int).Set(p.limit) }

// Offset returns the offset in force.
func (p *LimitOffsetPage) Offset() *big.Int { return new(big.Int).Set(p.offset) }

// NextLink returns the link to the following items; "" when the page
// reaches the end.
func (p *LimitOffsetPage) NextLink() Link {
	next := new(big.Int).Add(p.offset, p.limit)
	if next.Cmp(p.bigCount) >= 0 {
		return ""
	}
	return Link(p.withLimit().replace(p.offsetParam, next.String()))
}

// PreviousLink returns the link to the preceding items, without the
// offset when they start at 0; "" at offset 0.
func (p *LimitOffsetPage) PreviousLink() Link {
	if p.offset.Sign() <= 0 {
		return ""
	}
	prev := new(big.Int).Sub(p.offset, p.limit)
	if prev.Sign() <= 0 {
		return Link(p.withLimit().remove(p.offsetParam))
	}
	return Link(p.withLimit().replace(p.offsetParam, prev.String()))
}

// withLimit is the request's URL with the limit parameter set.
func (p *LimitOffsetPage) withLimit() linker {
	return p.links.with(p.limitParam, p.limit.String())
}

// Response answers {"count", "next", "previous", "results"} with data, the
// serialised items.
func (p *LimitOffsetPage) Response(data any) *framework.Response {
	return ok(p.count.envelope(p.mode, p.NextLink(), p.PreviousLink(), data), p)
}

// HTMLControls renders the numbered controls when the page displays them.
func (p *LimitOffsetPage) HTMLControls() template.HTML { return p.render(p.HTMLContext) }

// HTMLContext is what the controls template is executed with
// (get_html_context): the links, and pages of limit items around the
// current offset, numbered from the first.
func (p *LimitOffsetPage) HTMLContext() ControlsData {
	before := ceilDiv(p.offset, p.limit)
	current := new(big.Int).Add(before, big.NewInt(1))
	final := new(big.Int).Add(ceilDiv(new(big.Int).Sub(p.bigCount, p.offset), p.limit), before)
	if final.Sign() < 1 {
		final.SetInt64(1)
	}
	if current.Cmp(final) > 0 {
		current.Set(final)
	}
	cur, fin := int(current.Int64()), int(final.Int64())
	link := func(n int) string {
		if n == 1 {
			return p.links.remove(p.offsetParam)
		}
		off := new(big.Int).Mul(big.NewInt(int64(n-cur)), p.limit)
		return p.links.replace(p.offsetParam, off.Add(off, p.offset).String())
	}
	return ControlsData{
		PreviousURL: string(p.PreviousLink()),
		NextURL:     string(p.NextLink()),
		PageLinks:   pageLinks(displayedPages(cur, fin), cur, link),
	}
}

// ceilDiv is a/b rounded up, for b > 0 (floor division plus one when
// there is a remainder, as DRF computes it).
func ceilDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int).DivMod(a, b, new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}
