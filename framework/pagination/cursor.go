package pagination

import (
	"cmp"
	"encoding/base64"
	"errors"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// defaultOffsetCutoff caps the offset a cursor may carry, against clients
// that would make the database skip many rows.
const defaultOffsetCutoff = 1000

// CursorPagination pages a fixed ordering with opaque cursors: ?cursor=...
// Clients only move forward or backward; no item is seen twice while
// paging, even as others insert items. Its zero value pages by PAGE_SIZE
// in "-created" order.
//
// The ordering's first field should be unchanging, unique or nearly
// unique, not null, not a float, and indexed. A field that breaks these
// rules still works, with reduced benefits.
type CursorPagination struct {
	// PageSize is the number of items of a page; 0 gives PAGE_SIZE.
	PageSize int
	// CursorQueryParam names the cursor parameter; "" gives "cursor".
	CursorQueryParam string
	// Ordering is the ordering in DRF's notation ("-created", or several
	// fields, the first deciding the cursor position); nil gives
	// {"-created"}. A source marked by FilterOrdered pages in its own
	// ordering instead.
	Ordering []string
	// PageSizeQueryParam names the parameter by which clients choose the
	// page size; "" lets them not.
	PageSizeQueryParam string
	// MaxPageSize caps the page size clients choose; 0 leaves it uncapped.
	MaxPageSize int
	// OffsetCutoff caps the offset of cursors; 0 gives 1000.
	OffsetCutoff int
	// InvalidCursorMessage is the detail of the 404 for a cursor that
	// cannot be read; "" gives "Invalid cursor".
	InvalidCursorMessage string
	// Template renders the browsable controls; nil gives
	// PreviousNextTemplate (DRF 3.14's at framework.DRF314),
	// NoTemplate none.
	Template *template.Template

	// ordering is Ordering parsed (Setup); nil before.
	ordering []query.Order
	// legacySchema: ResponseSchema is DRF 3.14's. Setup sets it at DRF314.
	legacySchema bool
}

// Defaults of the cursor styles, DRF's class attributes.
const (
	defaultCursorQueryParam = "cursor"
	defaultInvalidCursor    = "Invalid cursor"
)

// defaultCursorOrdering is the ordering of the cursor styles when they
// are given none.
var defaultCursorOrdering = []string{"-created"}

// Setup returns the style with PAGE_SIZE and the defaults filled in, its
// ordering parsed; nil when there is no page size and clients may not
// choose one. An empty ordering, or one that names no plain field, is an
// error.
func (p *CursorPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
	return setup(p.Resolve(s))
}

// Resolve is Setup for code that embeds the style: it returns the style
// itself, resolved, or nil.
func (p *CursorPagination) Resolve(s *framework.Settings) (*CursorPagination, error) {
	c := *p
	c.OffsetCutoff = cmp.Or(c.OffsetCutoff, defaultOffsetCutoff)
	c.Template = levelTemplate(c.Template, s, previousNextTemplate314)
	c.legacySchema = s.Compatibility == framework.DRF314
	var err error
	if c.ordering, err = cursorSetup(s, &c.PageSize, &c.CursorQueryParam, &c.InvalidCursorMessage, &c.Ordering, c.PageSizeQueryParam, c.MaxPageSize); err != nil {
		return nil, err
	}
	if !paged(c.PageSize, c.PageSizeQueryParam) {
		return nil, nil
	}
	return &c, nil
}

// Check checks that the ordering's fields are fields of q, the source of
// the view the style pages.
func (p *CursorPagination) Check(q query.Query) error {
	names := p.Ordering
	if names == nil {
		names = defaultCursorOrdering
	}
	ordering, err := parseOrdering(names)
	if err != nil {
		return err
	}
	return checkFields(q, ordering)
}

// Paginate returns the requested page of q; see Page.
func (p *CursorPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	return asPage(p.Page(r, q))
}

// errNoOrdering is the error of a cursor style with an empty Ordering.
var errNoOrdering = errors.New("pagination: cursor pagination needs an ordering")

// errInvalidCursor marks cursors that cannot be read.
var errInvalidCursor = errors.New("invalid cursor")

// Page returns the page the cursor points at, in one query: the source
// ordered (reversed for a backward cursor), sought past the cursor's
// position, sliced at the cursor's offset for the page size plus one item
// (which tells whether more follow). It is nil when there is no page size,
// and 404 "Invalid cursor" for a cursor that cannot be decoded or whose
// position is not a value of the ordering field.
func (p *CursorPagination) Page(r *request.Request, q query.Query) (*CursorPage, error) {
	if p.ordering == nil {
		var err error
		if p, err = p.Resolve(&framework.Settings{}); p == nil {
			return nil, err
		}
	}
	params := requestQuery(r, nil)
	size := choosePageSize(params, p.PageSizeQueryParam, p.MaxPageSize, p.PageSize)
	if size <= 0 {
		return nil, nil
	}
	q, filtered := unmark(q)
	var ordering []query.Order
	if filtered {
		ordering = q.Ordering()
	}
	if len(ordering) == 0 {
		ordering = p.ordering
	}
	page := &CursorPage{size: size, field: ordering[0].Field, param: p.CursorQueryParam, links: newLinker(r, params),
		controls: newControls(r, p.Template, PreviousNextTemplate)}
	if raw, ok := params.get(p.CursorQueryParam); ok {
		c, err := p.decode(raw)
		if err != nil {
			return nil, p.invalid()
		}
		page.cursor = &c
	}
	var cur cursor
	if page.cursor != nil {
		cur = *page.cursor
	}
	order := ordering
	if cur.reverse {
		order = query.Reversed(ordering)
	}
	s := q.OrderBy(order...)
	if cur.position.ok {
		op := query.Greater
		if cur.reverse != ordering[0].Desc {
			op = query.Less
		}
		s = s.Seek(page.field, op, cur.position.v)
	}
	rows, err := s.Fetch(r.Context(), cur.offset, oneMore(size))
	if err != nil {
		if cur.position.ok && errors.Is(err, query.ErrInvalidValue) {
			// A position that is not a value of the field: a tampered
			// cursor (DRF fails with 500 here).
			return nil, p.invalid()
		}
		return nil, err
	}
	positions := make([]string, rows.Len())
	for i := range positions {
		if positions[i], err = rows.Position(i, page.field); err != nil {
			return nil, err
		}
	}
	n := min(rows.Len(), size)
	rows.Keep(n)
	page.positions = positions[:n:n]
	var following pos
	if len(positions) > n {
		following = pos{positions[n], true}
	}
	if cur.reverse {
		rows.Reverse()
		slices.Reverse(page.positions)
		page.hasNext = cur.position.ok || cur.offset > 0
		page.hasPrevious = following.ok
		page.nextPos, page.previousPos = cur.position, following
	} else {
		page.hasNext = following.ok
		page.hasPrevious = cur.position.ok || cur.offset > 0
		page.nextPos, page.previousPos = following, cur.position
	}
	page.SetDisplayControls(page.hasNext || page.hasPrevious)
	return page, nil
}

func (p *CursorPagination) invalid() error {
	return exceptions.NotFound(p.InvalidCursorMessage)
}

// decode reads a cursor: lenient base64 (as Python's b64decode) of an
// ASCII form with o (offset, capped at the cutoff), r (reverse when a
// non-zero integer) and p (position), each optional, the first of each
// counting.
func (p *CursorPagination) decode(raw string) (cursor, error) {
	b, ok := pycompat.B64DecodeString(raw)
	if !ok {
		return cursor{}, errInvalidCursor
	}
	for _, c := range b {
		if c >= 0x80 {
			return cursor{}, errInvalidCursor
		}
	}
	tokens := params(pycompat.AppendQuery(nil, string(b), pycompat.UTF8))
	var c cursor
	if o, ok := tokens.first("o"); ok {
		cutoff := p.OffsetCutoff
		if c.offset, ok = positiveInt(o, false, cutoff); !ok {
			return cursor{}, errInvalidCursor
		}
	}
	if r, ok := tokens.first("r"); ok {
		n, ok := pycompat.Atoi(r)
		if !ok {
			return cursor{}, errInvalidCursor
		}
		c.reverse = n != 0
	}
	c.position.v, c.position.ok = tokens.first("p")
	return c, nil
}

// SchemaParameters lists the cursor parameter, and the page size parameter
// when clients may choose it.
func (p *CursorPagination) SchemaParameters(v *framework.View) []SchemaParameter {
	return cursorParameters(cmp.Or(p.CursorQueryParam, defaultCursorQueryParam), p.PageSizeQueryParam)
}

// cursorParameters are the query parameters of the cursor styles: the
// cursor, and the page size when sizeParam names one.
func cursorParameters(cursorParam, sizeParam string) []SchemaParameter {
	params := []SchemaParameter{queryParam(cursorParam, cursorDescription, "string")}
	if sizeParam != "" {
		params = append(params, queryParam(sizeParam, pageSizeDescription, "integer"))
	}
	return params
}

// ResponseSchema is the JSON Schema of an answer whose results the
// schema results describes: the cursor envelope (get_paginated_response_schema).
func (p *CursorPagination) ResponseSchema(results any) any {
	// DRF's example of a next link, its stray quote included.
	return cursorEnvelopeSchema(cmp.Or(p.CursorQueryParam, defaultCursorQueryParam), `cD00ODY%3D"`, results, p.legacySchema)
}

// cursorEnvelopeSchema is the JSON Schema of a cursorEnvelope, the results
// alone required, with example links whose cursors are next and DRF's
// previous one; at DRF 3.14 level the links are plain nullable strings
// and nothing is required.
func cursorEnvelopeSchema(param, next string, results any, legacy bool) map[string]any {
	if legacy {
		return envelopeSchema(map[string]any{
			"next":     map[string]any{"type": []string{"string", "null"}},
			"previous": map[string]any{"type": []string{"string", "null"}},
			"results":  results,
		})
	}
	return envelopeSchema(map[string]any{
		"next":     linkSchema(param + "=" + next),
		"previous": linkSchema(param + "=cj0xJnA9NDg3"),
		"results":  results,
	}, "results")
}

// cursor is a decoded cursor.
type cursor struct {
	offset   int
	reverse  bool
	position pos
}

// pos is a position, or none.
type pos struct {
	v  string
	ok bool
}

// CursorPage is one page of CursorPagination.
type CursorPage struct {
	// positions are the items' positions, in the items' order.
	positions []string
	size      int
	field     string
	param     string
	links     linker
	// cursor is the request's cursor, nil when it had none.
	cursor               *cursor
	hasNext, hasPrevious bool
	nextPos, previousPos pos
	controls
}

// Len returns the number of items on the page.
func (p *CursorPage) Len() int { return len(p.positions) }

// NextLink returns the link to the next page; "" on the last one.
func (p *CursorPage) NextLink() Link {
	if !p.hasNext {
		return ""
	}
	cur := p.requestCursor()
	compare := p.nextPos
	if len(p.positions) > 0 && p.cursor != nil && cur.reverse && cur.offset != 0 {
		compare = pos{p.positions[len(p.positions)-1], true}
	}
	// The new position is the last one that differs from the item after
	// it; the items sharing the boundary's value are the offset.
	offset, position, unique := 0, pos{}, false
	for i := len(p.positions) - 1; i >= 0; i-- {
		position = pos{p.positions[i], true}
		if position != compare {
			unique = true
			break
		}
		compare = position
		offset++
	}
	if len(p.positions) > 0 && !unique {
		switch {
		case !p.hasPrevious:
			offset, position = p.size, pos{}
		case cur.reverse:
			offset, position = 0, p.previousPos
		default:
			offset, position = cur.offset+p.size, p.previousPos
		}
	}
	if len(p.positions) == 0 {
		position = p.nextPos
	}
	return p.encode(cursor{offset: offset, position: position})
}

// PreviousLink returns the link to the previous page; "" on the first one.
func (p *CursorPage) PreviousLink() Link {
	if !p.hasPrevious {
		return ""
	}
	cur := p.requestCursor()
	compare := p.previousPos
	if len(p.positions) > 0 && p.cursor != nil && !cur.reverse && cur.offset != 0 {
		compare = pos{p.positions[0], true}
	}
	offset, position, unique := 0, pos{}, false
	for _, v := range p.positions {
		position = pos{v, true}
		if position != compare {
			unique = true
			break
		}
		compare = position
		offset++
	}
	if len(p.positions) > 0 && !unique {
		switch {
		case !p.hasNext:
			offset, position = p.size, pos{}
		case cur.reverse:
			offset, position = cur.offset+p.size, p.nextPos
		default:
			offset, position = 0, p.nextPos
		}
	}
	if len(p.positions) == 0 {
		position = p.previousPos
	}
	return p.encode(cursor{offset: offset, reverse: true, position: position})
}

func (p *CursorPage) requestCursor() cursor {
	if p.cursor == nil {
		return cursor{}
	}
	return *p.cursor
}

// encode returns the request's URL with the cursor c.
func (p *CursorPage) encode(c cursor) Link {
	var b strings.Builder
	if c.offset != 0 {
		b.WriteString("o=" + strconv.Itoa(c.offset))
	}
	if c.reverse {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString("r=1")
	}
	if c.position.ok {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString("p=" + url.QueryEscape(c.position.v))
	}
	return Link(p.links.replace(p.param, base64.StdEncoding.EncodeToString([]byte(b.String()))))
}

// Response answers {"next", "previous", "results"} with data, the
// serialised items.
func (p *CursorPage) Response(data any) *framework.Response {
	return ok(cursorEnvelope{Next: p.NextLink(), Previous: p.PreviousLink(), Results: data}, p)
}

// HTMLControls renders the previous and next controls when the page
// displays them.
func (p *CursorPage) HTMLControls() template.HTML { return p.render(p.HTMLContext) }

// HTMLContext is what the controls template is executed with
// (get_html_context): the links.
func (p *CursorPage) HTMLContext() ControlsData {
	return ControlsData{PreviousURL: string(p.PreviousLink()), NextURL: string(p.NextLink())}
}
