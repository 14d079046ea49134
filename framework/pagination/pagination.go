// Package pagination splits the answers of list endpoints into pages, as
// DRF's pagination classes do: PageNumberPagination (?page=4),
// LimitOffsetPagination (?limit=100&offset=400) and CursorPagination
// (?cursor=<opaque>). Each is a framework.Paginator: set one globally
// (Settings.Pagination with Settings.PageSize) or on a view
// (View.Pagination); framework.NoPagination turns pagination off.
//
// Generic list views paginate by themselves. A plain view calls the
// pagination API itself:
//
//	var rows queryset.Rows[Book]
//	page, err := v.Paginator().Paginate(r, queryset.Into(books, &rows))
//	if err != nil {
//		return nil, err
//	}
//	if page == nil { // no page size: not paginated
//		...
//	}
//	return page.Response(serialize(rows.Items)), nil
//
// Paginate fetches the page's items into the rows the query was made
// with, and returns a nil Page and no error when the style has no page
// size for the request, as DRF answers the whole list then. Each style's
// Setup, which registration calls once per view, folds PAGE_SIZE in and
// fills in the defaults (the Default* constants), so that no request
// reads the settings; a configuration that cannot work (a MaxPageSize
// without a PageSizeQueryParam, an empty cursor ordering) refuses the
// view.
//
// The built-in styles answer DRF's envelopes, link for link: absolute
// URLs from the request (scheme and host as reverse.BaseURL gives them,
// forwarded headers only when trusted), the query parameters sorted by
// name with the page's parameter replaced or removed, other parameters
// kept as sent. Bad values answer 404 "Invalid page." or "Invalid cursor".
//
// # Custom styles
//
// A custom style embeds a built-in one and wraps its page to answer
// differently; the page's accessors (Count, NextLink, PreviousLink)
// give what the answer needs, and defines Setup to keep its own type.
// LinkHeaderPagination (links in a Link header, the bare page in the
// body) and NestedLinksPagination (next and previous under "links") are
// built this way:
//
//	type LinkHeaderPagination struct{ PageNumberPagination }
//
//	func (p *LinkHeaderPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
//		c, err := p.PageNumberPagination.Resolve(s)
//		if c == nil {
//			return nil, err
//		}
//		return &LinkHeaderPagination{*c}, nil
//	}
//
//	func (p *LinkHeaderPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
//		page, err := p.Page(r, q)
//		if page == nil {
//			return nil, err
//		}
//		return &linkHeaderPage{page}, nil
//	}
//
//	type linkHeaderPage struct{ *NumberPage }
//
//	func (p *linkHeaderPage) Response(data any) *framework.Response {
//		resp := &framework.Response{Status: http.StatusOK, Data: data, Page: p}
//		... set resp.Header's Link from p.NextLink() and p.PreviousLink()
//		return resp
//	}
//
// # Browsable controls
//
// Pages implement Controls: HTMLControls renders the style's template
// (NumbersTemplate for page numbers and limit/offset, PreviousNextTemplate
// for cursors) with the page's HTMLContext (get_html_context: the links,
// and the numbered pages with breaks) when the page displays controls,
// which the built-in styles do when there is more than one page. A
// style's Template field replaces the template; NoTemplate disables the
// controls. A custom page calls SetDisplayControls to show them.
//
// # Cursor pagination
//
// CursorPagination pages a fixed ordering (Ordering, "-created" by
// default) with DRF's cursors: base64 of a form holding the position (the
// first ordering field's value of the page's boundary item, as Django
// prints it), an offset from it when several items share that value, and
// the direction. Each page is one keyset query: Seek past the position,
// then Slice(offset, page size + 1); its cost does not grow with depth when
// the ordering field is indexed. A view's ordering filter takes over the
// ordering through FilterOrdered.
//
// # Keyset pagination
//
// KeysetPagination (opt-in, not in DRF) answers the cursor envelope but
// positions each page by every ordering field and the primary key, with
// signed cursors: a non-unique ordering field neither repeats nor skips
// items in either direction, under concurrent inserts and deletes.
package pagination

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/internal/rawjson"
)

// Link is a pagination link: a URL, or none (""), which JSON renders as
// null.
type Link string

// MarshalJSON renders the URL, or null when there is none.
func (l Link) MarshalJSON() ([]byte, error) { return l.appendJSON(nil) }

// appendJSON appends the URL as a JSON string, or null; a URL of plain
// ASCII (as links are, their query being escaped) needs no encoder.
func (l Link) appendJSON(b []byte) ([]byte, error) {
	if l == "" {
		return append(b, "null"...), nil
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return rawjson.Append(b, string(l))
		}
	}
	b = append(b, '"')
	b = append(b, l...)
	return append(b, '"'), nil
}

// pageEnvelope is the body of the page-number and limit/offset styles:
// {"count", "next", "previous", "results"}.
type pageEnvelope struct {
	Count    int  `json:"count"`
	Next     Link `json:"next"`
	Previous Link `json:"previous"`
	Results  any  `json:"results"`
}

// cursorEnvelope is the body of the cursor style: {"next", "previous",
// "results"}.
type cursorEnvelope struct {
	Next     Link `json:"next"`
	Previous Link `json:"previous"`
	Results  any  `json:"results"`
}

// AppendJSON appends e's JSON, as encoding/json would encode it, so that
// the JSON renderer needs no reflection (framework.JSONAppender).
func (e pageEnvelope) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(e.Count), 10)
	return appendLinks(b, `,"next":`, e.Next, e.Previous, e.Results)
}

// AppendJSON appends e's JSON, as encoding/json would encode it, so that
// the JSON renderer needs no reflection (framework.JSONAppender).
func (e cursorEnvelope) AppendJSON(b []byte) ([]byte, error) {
	return appendLinks(b, `{"next":`, e.Next, e.Previous, e.Results)
}

// appendLinks appends the "next", "previous" and "results" members after
// lead and closes the object.
func appendLinks(b []byte, lead string, next, previous Link, results any) ([]byte, error) {
	b = append(b, lead...)
	b, err := next.appendJSON(b)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"previous":`...)
	if b, err = previous.appendJSON(b); err != nil {
		return nil, err
	}
	b = append(b, `,"results":`...)
	if b, err = rawjson.Append(b, results); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// ok is a 200 answer of page p.
func ok(data any, p framework.Page) *framework.Response {
	return &framework.Response{Status: http.StatusOK, Data: data, Page: p}
}

// SchemaParameter is a query parameter of a paginated list, for OpenAPI.
// It marshals as an OpenAPI parameter object.
type SchemaParameter struct {
	Name        string
	Required    bool
	Location    string
	Description string
	// Type is the JSON schema type of the value: "integer" or "string".
	Type string
}

// MarshalJSON renders p as {"name", "required", "in", "description",
// "schema": {"type"}}.
func (p SchemaParameter) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name        string `json:"name"`
		Required    bool   `json:"required"`
		In          string `json:"in"`
		Description string `json:"description"`
		Schema      struct {
			Type string `json:"type"`
		} `json:"schema"`
	}{p.Name, p.Required, p.Location, p.Description, struct {
		Type string `json:"type"`
	}{p.Type}})
}

// Descriptions of the query parameters, as DRF words them.
const (
	pageDescription     = "A page number within the paginated result set."
	pageSizeDescription = "Number of results to return per page."
	limitDescription    = "Number of results to return per page."
	offsetDescription   = "The initial index from which to return the results."
	cursorDescription   = "The pagination cursor value."
)

// linkSchema is the JSON Schema of a next or previous link: a URL or null
// (OpenAPI 3.1's ["string", "null"] for DRF's nullable), with an example
// whose query string is query.
func linkSchema(query string) map[string]any {
	return map[string]any{"type": []string{"string", "null"}, "format": "uri", "example": "http://api.example.org/accounts/?" + query}
}

// envelopeSchema is the JSON Schema of an object with the given members,
// of which required are required; none leaves out "required", as DRF
// 3.14 writes its envelopes.
func envelopeSchema(properties map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": properties}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// countSchema is the JSON Schema of an envelope's count.
var countSchema = map[string]any{"type": "integer", "example": 123}

// countedSchema is the JSON Schema of the envelope of a CountMode (an
// pageEnvelope, an estimatedEnvelope, or no count) whose example links have
// the query strings next and previous (DRF's get_paginated_response_schema):
// the count and the results are required, the links are not (DRF 3.15),
// at DRF 3.14 level nothing is.
func countedSchema(mode CountMode, next, previous string, results any, legacy bool) map[string]any {
	members := map[string]any{
		"next":     linkSchema(next),
		"previous": linkSchema(previous),
		"results":  results,
	}
	required := []string{"results"}
	switch mode {
	case ExactCount:
		members["count"] = countSchema
		required = []string{"count", "results"}
	case EstimatedCount:
		members["count"] = countSchema
		members["count_estimated"] = map[string]any{"type": "boolean"}
		required = []string{"count", "count_estimated", "results"}
	}
	if legacy {
		required = nil
	}
	return envelopeSchema(members, required...)
}

func queryParam(name, description, typ string) SchemaParameter {
	return SchemaParameter{Name: name, Location: "query", Description: description, Type: typ}
}

// filterOrdered is a query whose ordering an ordering filter chose.
type filterOrdered struct{ query.Query }

// FilterOrdered marks q as ordered by the view's ordering filter (after
// the filter backends ran): CursorPagination then pages in q's ordering
// instead of its own, as DRF defers to an ordering filter on the view.
// Other styles ignore the mark.
func FilterOrdered(q query.Query) query.Query {
	if f, ok := q.(filterOrdered); ok {
		return f
	}
	return filterOrdered{q}
}

// unmark returns the query under a FilterOrdered mark.
func unmark(q query.Query) (query.Query, bool) {
	if f, ok := q.(filterOrdered); ok {
		return f.Query, true
	}
	return q, false
}

// Checker is implemented by styles that check, when a generic view is
// registered, that they can page its source (the cursor styles: their
// ordering's fields); the view is refused with the error.
type Checker interface {
	Check(q query.Query) error
}

// parseOrdering reads an ordering in DRF's notation; it must be
// non-empty, and name plain fields.
func parseOrdering(names []string) ([]query.Order, error) {
	if len(names) == 0 {
		return nil, errNoOrdering
	}
	ordering := make([]query.Order, len(names))
	for i, n := range names {
		o := query.ParseOrder(n)
		if o.Field == "" || strings.Contains(o.Field, "__") {
			return nil, fmt.Errorf("cursor ordering %q: orderings must be fields of the source, such as \"-created\" or \"id\"", n)
		}
		ordering[i] = o
	}
	return ordering, nil
}

// checkFields checks that ordering names fields of q.
func checkFields(q query.Query, ordering []query.Order) error {
	fields := q.Fields()
	for _, o := range ordering {
		if !slices.Contains(fields, o.Field) {
			return fmt.Errorf("pagination: cursor ordering %q: the source has no field %q", o, o.Field)
		}
	}
	return nil
}

// setup returns a style Resolve returned as a framework.Paginator: nil
// (no pagination) for none.
func setup[P interface {
	*S
	framework.Paginator
}, S any](c P, err error) (framework.Paginator, error) {
	if c == nil {
		return nil, err
	}
	return c, nil
}

// asPage returns a page a style's Page returned as a framework.Page: nil
// (the whole list) for none.
func asPage[P interface {
	*S
	framework.Page
}, S any](page P, err error) (framework.Page, error) {
	if page == nil {
		return nil, err
	}
	return page, nil
}

// cursorSetup fills in what both cursor styles default: the page size
// (PAGE_SIZE), the cursor parameter, the 404's message and the ordering,
// which it returns parsed.
func cursorSetup(s *framework.Settings, size *int, param, invalid *string, names *[]string, sizeParam string, maxSize int) ([]query.Order, error) {
	*size = cmp.Or(*size, s.PageSize)
	*param = cmp.Or(*param, defaultCursorQueryParam)
	*invalid = cmp.Or(*invalid, defaultInvalidCursor)
	if *names == nil {
		*names = defaultCursorOrdering
	}
	ordering, err := parseOrdering(*names)
	if err != nil {
		return nil, err
	}
	return ordering, checkSizes(*size, sizeParam, maxSize)
}

// paged reports whether a style pages: it has a page size, or clients
// may choose one.
func paged(size int, sizeParam string) bool { return size > 0 || sizeParam != "" }

// checkSizes refuses a page size below zero, and a cap on the page size
// clients choose when they may not choose one.
func checkSizes(pageSize int, sizeParam string, maxSize int) error {
	if pageSize < 0 || maxSize < 0 {
		return fmt.Errorf("page sizes cannot be negative (page size %d, max page size %d)", pageSize, maxSize)
	}
	if maxSize > 0 && sizeParam == "" {
		return fmt.Errorf("a max page size (%d) needs a page size query parameter: clients cannot choose a page size without one", maxSize)
	}
	return nil
}

// choosePageSize is the page size of a request: the client's choice
// through param when the style names one (capped at maxSize), else own
// (PAGE_SIZE folded in).
func choosePageSize(q params, param string, maxSize, own int) int {
	if param != "" {
		if raw, ok := q.get(param); ok {
			if n, ok := positiveInt(raw, true, maxSize); ok {
				return n
			}
		}
	}
	return own
}
