package pagination

import (
	"cmp"
	"html/template"
	"math"
	"slices"
	"strconv"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// Defaults of the page-number style, DRF's class attributes.
const (
	defaultPageQueryParam = "page"
	defaultInvalidPage    = "Invalid page."
)

// defaultLastPageStrings are the page values that select the last page
// (last_page_strings).
var defaultLastPageStrings = []string{"last"}

// PageNumberPagination pages by number: ?page=4, optionally
// ?page=4&page_size=100. Its zero value pages by PAGE_SIZE.
type PageNumberPagination struct {
	// PageSize is the number of items of a page; 0 gives PAGE_SIZE.
	PageSize int
	// PageQueryParam names the page parameter; "" gives
	// "page".
	PageQueryParam string
	// PageSizeQueryParam names the parameter by which clients choose the
	// page size; "" lets them not.
	PageSizeQueryParam string
	// MaxPageSize caps the page size clients choose; 0 leaves it
	// uncapped. It needs a PageSizeQueryParam.
	MaxPageSize int
	// LastPageStrings are the page values that select the last page; nil
	// gives {"last"}, an empty non-nil slice none.
	LastPageStrings []string
	// InvalidPageMessage is the detail of the 404 for a page that does not
	// exist; "" gives
	// "Invalid page."
	InvalidPageMessage string
	// Count is how the items are counted; the zero value counts exactly,
	// as DRF does.
	Count CountMode
	// Template renders the browsable controls; nil gives
	// NumbersTemplate (DRF 3.14's at framework.DRF314),
	// NoTemplate none.
	Template *template.Template

	// ready marks a style whose defaults are filled in (Setup).
	ready bool
	// emptyInvalid: an empty page number is 404, as DRF 3.14 answers;
	// DRF 3.15 reads it as page 1 (#8578). Setup sets it at DRF314.
	emptyInvalid bool
	// legacySchema: ResponseSchema is DRF 3.14's. Setup sets it at DRF314.
	legacySchema bool
}

// Setup returns the style with PAGE_SIZE and the defaults filled in; nil
// when there is no page size and clients may not choose one.
func (p *PageNumberPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
	return setup(p.Resolve(s))
}

// Resolve is Setup for code that embeds the style: it returns the style
// itself, resolved, or nil.
func (p *PageNumberPagination) Resolve(s *framework.Settings) (*PageNumberPagination, error) {
	c := *p
	c.PageSize = cmp.Or(c.PageSize, s.PageSize)
	c.PageQueryParam = cmp.Or(c.PageQueryParam, defaultPageQueryParam)
	c.InvalidPageMessage = cmp.Or(c.InvalidPageMessage, defaultInvalidPage)
	c.emptyInvalid = s.Compatibility == framework.DRF314
	c.legacySchema = s.Compatibility == framework.DRF314
	c.Template = levelTemplate(c.Template, s, numbersTemplate314)
	if c.LastPageStrings == nil {
		c.LastPageStrings = defaultLastPageStrings
	}
	c.ready = true
	if err := checkSizes(c.PageSize, c.PageSizeQueryParam, c.MaxPageSize); err != nil {
		return nil, err
	}
	if !paged(c.PageSize, c.PageSizeQueryParam) {
		return nil, nil
	}
	return &c, nil
}

// Paginate returns the requested page of q; see Page.
func (p *PageNumberPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	return asPage(p.Page(r, q))
}

// Page returns the requested page of q (two queries: count and fetch),
// nil when there is no page size, or 404 for a page number that is not an
// integer, below 1 or past the last page; an empty one is page 1 (DRF
// 3.15, #8578), 404 at DRF 3.14 level. With another Count than
// ExactCount, a page past the last is the one found empty.
func (p *PageNumberPagination) Page(r *request.Request, q query.Query) (*NumberPage, error) {
	if !p.ready {
		var err error
		if p, err = p.Resolve(&framework.Settings{}); p == nil {
			return nil, err
		}
	}
	page := new(NumberPage)
	params := requestQuery(r, page.params[:0])
	size := choosePageSize(params, p.PageSizeQueryParam, p.MaxPageSize, p.PageSize)
	if size <= 0 {
		return nil, nil
	}
	ctx := r.Context()
	c, err := countItems(ctx, q, p.Count)
	if err != nil {
		return nil, err
	}
	numPages := pagesOf(c.n, size)
	// Built only when a page is refused: an error costs two allocations.
	invalid := func() error { return exceptions.NotFound(p.InvalidPageMessage) }
	number := 1
	if raw, ok := params.get(p.PageQueryParam); ok && (raw != "" || p.emptyInvalid) {
		if slices.Contains(p.LastPageStrings, raw) {
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
	if p.Count == ExactCount {
		rows, err := q.Fetch(ctx, bottom, max(0, min(c.n, bottom+size)-bottom))
		if err != nil {
			return nil, err
		}
		page.len = rows.Len()
	} else {
		// One item more tells whether a page follows.
		rows, err := q.Fetch(ctx, bottom, oneMore(size))
		if err != nil {
			return nil, err
		}
		more := rows.Len() > size
		rows.Keep(min(rows.Len(), size))
		if rows.Len() == 0 && number > 1 {
			return nil, invalid()
		}
		c.settle(bottom, rows.Len(), more)
		numPages = pagesOf(c.n, size)
		page.len = rows.Len()
	}
	page.count, page.mode, page.number, page.numPages = c, p.Count, number, numPages
	page.param, page.links, page.controls = p.PageQueryParam, newLinker(r, params), newControls(r, p.Template, NumbersTemplate)
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
	params := []SchemaParameter{queryParam(cmp.Or(p.PageQueryParam, defaultPageQueryParam), pageDescription, "integer")}
	if p.PageSizeQueryParam != "" {
		params = append(params, queryParam(p.PageSizeQueryParam, pageSizeDescription, "integer"))
	}
	return params
}

// ResponseSchema is the JSON Schema of an answer whose results the
// schema results describes: the page envelope (get_paginated_response_schema).
func (p *PageNumberPagination) ResponseSchema(results any) any {
	param := cmp.Or(p.PageQueryParam, defaultPageQueryParam)
	return countedSchema(p.Count, param+"=4", param+"=2", results, p.legacySchema)
}

// NumberPage is one page of PageNumberPagination.
type NumberPage struct {
	len              int
	count            pageCount
	mode             CountMode
	number, numPages int
	param            string
	links            linker
	controls
	// params backs the parsed query string when it is short.
	params [4]pycompat.QueryPair
}

// Len returns the number of items on the page.
func (p *NumberPage) Len() int { return p.len }

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
func (p *NumberPage) HTMLControls() template.HTML { return p.render(p.HTMLContext) }

// HTMLContext is what the controls template is executed with
// (get_html_context): the links, and the displayed pages around this one.
func (p *NumberPage) HTMLContext() ControlsData {
	return ControlsData{
		PreviousURL: string(p.PreviousLink()),
		NextURL:     string(p.NextLink()),
		PageLinks:   pageLinks(displayedPages(p.number, p.numPages), p.number, p.pageURL),
	}
}
