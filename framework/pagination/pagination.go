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
//	page, err := v.Paginator().Paginate(src, r, v)
//	if err != nil {
//		return nil, err
//	}
//	if page == nil { // no page size: not paginated
//		...
//	}
//	return page.Response(serialize(page.Items())), nil
//
// Paginate returns a nil Page and no error when the style has no page size
// (neither its own nor PAGE_SIZE), as DRF answers the whole list then.
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
// differently; the page's accessors (Items, Count, NextLink, PreviousLink)
// give what the answer needs. LinkHeaderPagination (links in a Link
// header, the bare page in the body) and NestedLinksPagination (next and
// previous under "links") are built this way:
//
//	type LinkHeaderPagination struct{ PageNumberPagination }
//
//	func (p *LinkHeaderPagination) Paginate(src queryset.Source, r *request.Request, v *framework.View) (framework.Page, error) {
//		page, err := p.Page(src, r, v)
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
// for cursors) when the page displays controls, which the built-in styles
// do when there is more than one page. A style's Template field replaces
// the template; NoTemplate disables the controls. A custom page calls
// SetDisplayControls to show them.
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
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/queryset"
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
			return appendEncoded(b, string(l))
		}
	}
	b = append(b, '"')
	b = append(b, l...)
	return append(b, '"'), nil
}

// appendEncoded appends v as encoding/json encodes it without HTML
// escaping, as the JSON renderer does; a json.RawMessage is appended as it
// is (a serializer's output).
func appendEncoded(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case json.RawMessage:
		if len(v) == 0 {
			return append(b, "null"...), nil
		}
		return append(b, v...), nil
	}
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Envelope is the body of the page-number and limit/offset styles:
// {"count", "next", "previous", "results"}.
type Envelope struct {
	Count    int  `json:"count"`
	Next     Link `json:"next"`
	Previous Link `json:"previous"`
	Results  any  `json:"results"`
}

// CursorEnvelope is the body of the cursor style: {"next", "previous",
// "results"}.
type CursorEnvelope struct {
	Next     Link `json:"next"`
	Previous Link `json:"previous"`
	Results  any  `json:"results"`
}

// AppendJSON appends e's JSON, as encoding/json would encode it, so that
// the JSON renderer needs no reflection (framework.JSONAppender).
func (e Envelope) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(e.Count), 10)
	return appendLinks(b, `,"next":`, e.Next, e.Previous, e.Results)
}

// AppendJSON appends e's JSON, as encoding/json would encode it, so that
// the JSON renderer needs no reflection (framework.JSONAppender).
func (e CursorEnvelope) AppendJSON(b []byte) ([]byte, error) {
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
	if b, err = appendEncoded(b, results); err != nil {
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
	PageDescription     = "A page number within the paginated result set."
	PageSizeDescription = "Number of results to return per page."
	LimitDescription    = "Number of results to return per page."
	OffsetDescription   = "The initial index from which to return the results."
	CursorDescription   = "The pagination cursor value."
)

// linkSchema is the JSON Schema of a next or previous link: a URL or null,
// with an example whose query is param=value.
func linkSchema(param, value string) map[string]any {
	return map[string]any{"type": []string{"string", "null"}, "format": "uri",
		"example": "http://api.example.org/accounts/?" + param + "=" + value}
}

// envelopeSchema is the JSON Schema of an object with the given members,
// all required (DRF's get_paginated_response_schema).
func envelopeSchema(properties map[string]any) map[string]any {
	required := make([]string, 0, len(properties))
	for name := range properties {
		required = append(required, name)
	}
	slices.Sort(required)
	return map[string]any{"type": "object", "required": required, "properties": properties}
}

// countSchema is the JSON Schema of an envelope's count.
var countSchema = map[string]any{"type": "integer", "example": 123}

// countedSchema is the JSON Schema of the envelope of a CountMode (an
// Envelope, an EstimatedEnvelope, or no count) whose example links set
// param to next and previous.
func countedSchema(mode CountMode, param, next, previous string, results any) map[string]any {
	members := map[string]any{
		"next":     linkSchema(param, next),
		"previous": linkSchema(param, previous),
		"results":  results,
	}
	switch mode {
	case ExactCount:
		members["count"] = countSchema
	case EstimatedCount:
		members["count"] = countSchema
		members["count_estimated"] = map[string]any{"type": "boolean"}
	}
	return envelopeSchema(members)
}

func queryParam(name, description, typ string) SchemaParameter {
	return SchemaParameter{Name: name, Location: "query", Description: description, Type: typ}
}

// filterOrdered is a source whose ordering an ordering filter chose.
type filterOrdered struct{ queryset.Source }

// FilterOrdered marks src as ordered by the view's ordering filter (after
// the filter backends ran): CursorPagination then pages in src's ordering
// instead of its own, as DRF defers to an ordering filter on the view.
// Other styles ignore the mark.
func FilterOrdered(src queryset.Source) queryset.Source {
	if f, ok := src.(filterOrdered); ok {
		return f
	}
	return filterOrdered{src}
}

// unmark returns the source under a FilterOrdered mark.
func unmark(src queryset.Source) (queryset.Source, bool) {
	if f, ok := src.(filterOrdered); ok {
		return f.Source, true
	}
	return src, false
}

// checkOrdering checks that ordering is non-empty and names fields of src
// (when src lists them); it returns src as a FieldDescriber, or nil.
func checkOrdering(src queryset.Source, ordering []queryset.Order) (FieldDescriber, error) {
	if len(ordering) == 0 {
		return nil, errNoOrdering
	}
	lister, lists := src.(queryset.FieldLister)
	for _, o := range ordering {
		if o.Field == "" || strings.Contains(o.Field, "__") {
			return nil, fmt.Errorf("pagination: cursor ordering %q: orderings must be fields of the source, such as \"-created\" or \"id\"", o)
		}
		if lists && !slices.Contains(lister.Fields(), o.Field) {
			return nil, fmt.Errorf("pagination: cursor ordering %q: the source has no field %q", o, o.Field)
		}
	}
	describer, _ := src.(FieldDescriber)
	return describer, nil
}

// choosePageSize is the page size of a request: the client's choice
// through param when the style names one (capped at maxSize), else own,
// else PAGE_SIZE.
func choosePageSize(q query, param string, maxSize, own int, v *framework.View) int {
	if param != "" {
		if raw, ok := q.get(param); ok {
			if n, ok := positiveInt(raw, true, maxSize); ok {
				return n
			}
		}
	}
	if own != 0 {
		return own
	}
	return globalPageSize(v)
}

// globalPageSize is PAGE_SIZE of v's settings, 0 without a view.
func globalPageSize(v *framework.View) int {
	if v == nil {
		return 0
	}
	return v.PageSize()
}

// orEmpty returns items, or an empty list for none, so that results
// render as [] rather than null.
func orEmpty(items []any) []any {
	if items == nil {
		return []any{}
	}
	return items
}
