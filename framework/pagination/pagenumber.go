package pagination

import (
	"cmp"
	"html/template"
	"math"
	"slices"
	"strconv"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// PageNumberPagination pages by number: ?page=4, optionally
// ?page=4&page_size=100. Its zero value pages by PAGE_SIZE.
type PageNumberPagination struct {
	// PageSize is the number of items of a page; 0 gives PAGE_SIZE.
	PageSize int
	// PageQueryParam names the page parameter; "" gives "page".
	PageQueryParam string
	// PageSizeQueryParam names the parameter by which clients choose the
	// page size; "" lets them not.
	PageSizeQueryParam string
	// MaxPageSize caps the page size clients choose; 0 leaves it uncapped.
	MaxPageSize int
	// LastPageStrings are the page values that select the last page; nil
	// gives {"last"}, an empty non-nil slice none.
	LastPageStrings []string
	// InvalidPageMessage is the detail of the 404 for a page that does not
	// exist; "" gives "Invalid page.".
	InvalidPageMessage string
	// Count is how the items are counted; the zero value counts exactly,
	// as DRF does.
	Count CountMode
	// Template renders the browsable controls; nil gives
	// NumbersTemplate, NoTemplate none.
	Template *template.Template
}

// Paginate returns the requested page of src; see Page.
func (p *PageNumberPagination) Paginate(src queryset.Source, r *request.Request, v *framework.View) (framework.Page, error) {
	page, err := p.Page(src, r, v)
	if page == nil {
		return nil, err
	}
	return page, nil
}

// Page returns the requested page of src (two queries: count and slice),
// nil when there is no page size, or 404 for a page number that is not an
// integer, below 1 or past the last page. With another Count than
// ExactCount, a page past the last is the one found empty.
func (p *PageNumberPagination) Page(src queryset.Source, r *request.Request, v *framework.View) (*NumberPage, error) {
	page := new(NumberPage)
	q := requestQuery(r, page.params[:0])
	size := choosePageSize(q, p.PageSizeQueryParam, p.MaxPageSize, p.PageSize, v)
	if size <= 0 {
		return nil, nil
	}
	ctx := r.Context()
	c, err := countItems(ctx, src, p.Count)
	if err != nil {
		return nil, err
	}
	numPages := pagesOf(c.n, size)
	// Built only when a page is refused: an error costs two allocations.
	invalid := func() error { return exceptions.NotFound(cmp.Or(p.InvalidPageMessage, "Invalid page.")) }
	number := 1
	param := cmp.Or(p.PageQueryParam, "page")
	if raw, ok := q.get(param); ok {
		last := p.LastPageStrings
		if last == nil {
			last = []string{"last"}
		}
		if slices.Contains(last, raw) {
			if c.unknown {
				return nil, invalid()
			}
			number = numPages
		} else if number, ok = pycompat.Atoi(raw); !ok || number < 1 || (p.Count == ExactCount && number > numPages) {
			return nil, invalid()
		}
	}
	if p.Count != ExactCount && number-1 > math.MaxInt/size-1 {
		return nil, invalid() // no such page: its offset overflows
	}
	bottom := (number - 1) * size
	var items []any
	if p.Count == ExactCount {
		if top := min(c.n, bottom+size); top > bottom {
			if items, err = src.Slice(ctx, bottom, top-bottom); err != nil {
				return nil, err
			}
		}
	} else {
		// One item more tells whether a page follows.
		if items, err = src.Slice(ctx, bottom, oneMore(size)); err != nil {
			return nil, err
		}
		more := len(items) > size
		items = items[:min(len(items), size)]
		if len(items) == 0 && number > 1 {
			return nil, invalid()
		}
		c.settle(bottom, len(items), more)
		numPages = pagesOf(c.n, size)
	}
	page.items, page.count, page.mode, page.number, page.numPages = orEmpty(items), c, p.Count, number, numPages
	page.param, page.links, page.controls = param, newLinker(r, q), newControls(p.Template, NumbersTemplate)
	page.SetDisplayControls(numPages > 1)
	return page, nil
}

// pagesOf is the number of pages of count items, at least 1.
func pagesOf(count, size int) int {
	if count <= size {
		return 1
	}
	return (count-1)/size + 1
}

// SchemaParameters lists the page parameter, and the page size parameter
// when clients may choose it.
func (p *PageNumberPagination) SchemaParameters(v *framework.View) []SchemaParameter {
	params := []SchemaParameter{queryParam(cmp.Or(p.PageQueryParam, "page"), PageDescription, "integer")}
	if p.PageSizeQueryParam != "" {
		params = append(params, queryParam(p.PageSizeQueryParam, PageSizeDescription, "integer"))
	}
	return params
}

// ResponseSchema is the JSON Schema of an answer whose results the
// schema results describes: the Envelope (get_paginated_response_schema).
func (p *PageNumberPagination) ResponseSchema(results any) any {
	return countedSchema(p.Count, cmp.Or(p.PageQueryParam, "page"), "4", "2", results)
}

// NumberPage is one page of PageNumberPagination.
type NumberPage struct {
	items            []any
	count            pageCount
	mode             CountMode
	number, numPages int
	param            string
	links            linker
	controls
	// params backs the parsed query string when it is short.
	params [4]pycompat.QueryPair
}

// Items returns the page's items.
func (p *NumberPage) Items() []any { return p.items }

// Count returns the number of items of all pages: an estimate when
// CountEstimated says so; with NoCount, the items up to this page's end,
// plus one when another page follows.
func (p *NumberPage) Count() int { return p.count.n }

// CountEstimated reports whether Count is an estimate.
func (p *NumberPage) CountEstimated() bool { return p.count.estimated }

// Number returns the page's number, from 1.
func (p *NumberPage) Number() int { return p.number }

// NumPages returns the number of pages, at least 1.
func (p *NumberPage) NumPages() int { return p.numPages }

// NextLink returns the link to the next page: the request's URL with the
// page parameter replaced; "" on the last page.
func (p *NumberPage) NextLink() Link {
	if p.number >= p.numPages {
		return ""
	}
	return Link(p.pageURL(p.number + 1))
}

// PreviousLink returns the link to the previous page, without the page
// parameter when that is page 1; "" on the first page.
func (p *NumberPage) PreviousLink() Link {
	if p.number <= 1 {
		return ""
	}
	return Link(p.pageURL(p.number - 1))
}

func (p *NumberPage) pageURL(n int) string {
	if n == 1 {
		return p.links.remove(p.param)
	}
	return p.links.replace(p.param, strconv.Itoa(n))
}

// Response answers {"count", "next", "previous", "results"} with data, the
// serialised items.
func (p *NumberPage) Response(data any) *framework.Response {
	return ok(p.count.envelope(p.mode, p.NextLink(), p.PreviousLink(), data), p)
}

// HTMLControls renders the numbered controls when the page displays them.
func (p *NumberPage) HTMLControls() template.HTML {
	return p.render(func() ControlsData {
		return ControlsData{
			PreviousURL: string(p.PreviousLink()),
			NextURL:     string(p.NextLink()),
			PageLinks:   pageLinks(displayedPages(p.number, p.numPages), p.number, p.pageURL),
		}
	})
}
