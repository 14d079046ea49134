package pagination

import (
	"html/template"
	"slices"
	"strconv"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
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
// integer, below 1 or past the last page.
func (p *PageNumberPagination) Page(src queryset.Source, r *request.Request, v *framework.View) (*NumberPage, error) {
	q := parseQuery(r.URL.RawQuery)
	size := choosePageSize(q, p.PageSizeQueryParam, p.MaxPageSize, p.PageSize, v)
	if size <= 0 {
		return nil, nil
	}
	ctx := r.Context()
	count, err := src.Count(ctx)
	if err != nil {
		return nil, err
	}
	numPages := 1
	if count > size {
		numPages = (count-1)/size + 1
	}
	number := 1
	param := firstSet(p.PageQueryParam, "page")
	if raw, ok := q.get(param); ok {
		last := p.LastPageStrings
		if last == nil {
			last = []string{"last"}
		}
		if slices.Contains(last, raw) {
			number = numPages
		} else if number, ok = atoi(raw); !ok || number < 1 || number > numPages {
			return nil, exceptions.NotFound(firstSet(p.InvalidPageMessage, "Invalid page."))
		}
	}
	bottom := (number - 1) * size
	top := count
	if size < count-bottom {
		top = bottom + size
	}
	var items []any
	if top > bottom {
		if items, err = src.Slice(ctx, bottom, top-bottom); err != nil {
			return nil, err
		}
	}
	page := &NumberPage{items: orEmpty(items), count: count, number: number, numPages: numPages,
		param: param, links: newLinker(r, q), controls: newControls(p.Template, NumbersTemplate)}
	page.SetDisplayControls(numPages > 1)
	return page, nil
}

// SchemaParameters lists the page parameter, and the page size parameter
// when clients may choose it.
func (p *PageNumberPagination) SchemaParameters(v *framework.View) []SchemaParameter {
	params := []SchemaParameter{queryParam(firstSet(p.PageQueryParam, "page"), PageDescription, "integer")}
	if p.PageSizeQueryParam != "" {
		params = append(params, queryParam(p.PageSizeQueryParam, PageSizeDescription, "integer"))
	}
	return params
}

// NumberPage is one page of PageNumberPagination.
type NumberPage struct {
	items            []any
	count            int
	number, numPages int
	param            string
	links            linker
	controls
}

// Items returns the page's items.
func (p *NumberPage) Items() []any { return p.items }

// Count returns the number of items of all pages.
func (p *NumberPage) Count() int { return p.count }

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
	return ok(Envelope{Count: p.count, Next: p.NextLink(), Previous: p.PreviousLink(), Results: data}, p)
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
