package pagination

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"html/template"
	"sync"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
)

// KeysetPagination pages a composite ordering with signed, opaque
// cursors: ?cursor=... It answers CursorPagination's envelope ({"next",
// "previous", "results"}) but positions each page by every ordering field
// plus the primary key, where DRF's cursor keeps the first field and an
// offset. So a non-unique field (a rating) neither repeats nor skips items
// in either direction (DRF #7887, #9594), and the walk stays exact while
// others insert and delete items: a page holds the items strictly after
// (or, going back, before) its cursor's item, whether or not that item
// still exists.
//
// Each page is one query, the keyset condition (a, b, id) > (x, y, z)
// written out for every SQL dialect, which an index on the ordering's
// columns followed by the key serves at any depth. The ordering fields
// must be NOT NULL. Cursors are signed with Secret (HMAC-SHA256) and bound
// to the ordering: a cursor that was altered, or made for another
// ordering, answers 404 "Invalid cursor".
type KeysetPagination struct {
	// PageSize is the number of items of a page; 0 gives PAGE_SIZE.
	PageSize int
	// CursorQueryParam names the cursor parameter; "" gives "cursor".
	CursorQueryParam string
	// Ordering is the ordering in DRF's notation, for example {"-rating",
	// "title"}; nil gives {"-created"}. A source marked by FilterOrdered
	// pages in its own ordering instead. Key is appended as the
	// tie-break, in the direction of the ordering's last term.
	Ordering []string
	// Key is the unique field that breaks ties; "" gives "id".
	Key string
	// PageSizeQueryParam names the parameter by which clients choose the
	// page size; "" lets them not.
	PageSizeQueryParam string
	// MaxPageSize caps the page size clients choose; 0 leaves it uncapped.
	MaxPageSize int
	// Secret signs the cursors. Instances serving the same clients need
	// the same secret; nil gives a random secret per process, so cursors
	// then end with the process.
	Secret []byte
	// InvalidCursorMessage is the detail of the 404 for a cursor that
	// cannot be read; "" gives "Invalid cursor".
	InvalidCursorMessage string
	// Template renders the browsable controls; nil gives
	// PreviousNextTemplate (DRF 3.14's at framework.DRF314),
	// NoTemplate none.
	Template *template.Template

	// ordering is Ordering parsed, with the key (Setup); nil before.
	ordering []query.Order
}

// defaultKey is the tie-break field of KeysetPagination.
const defaultKey = "id"

// Setup returns the style with PAGE_SIZE and the defaults filled in; nil
// when there is no page size and clients may not choose one. An empty
// ordering, or one that names no plain field, is an error.
func (p *KeysetPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
	return setup(p.Resolve(s))
}

// Resolve is Setup for code that embeds the style: it returns the style
// itself, resolved, or nil.
func (p *KeysetPagination) Resolve(s *framework.Settings) (*KeysetPagination, error) {
	c := *p
	c.Key = cmp.Or(c.Key, defaultKey)
	c.Template = levelTemplate(c.Template, s, previousNextTemplate314)
	if len(c.Secret) == 0 {
		c.Secret = processSecret()
	}
	base, err := cursorSetup(s, &c.PageSize, &c.CursorQueryParam, &c.InvalidCursorMessage, &c.Ordering, c.PageSizeQueryParam, c.MaxPageSize)
	if err != nil {
		return nil, err
	}
	c.ordering = c.withKey(base)
	if !paged(c.PageSize, c.PageSizeQueryParam) {
		return nil, nil
	}
	return &c, nil
}

// Check checks that the ordering's fields and the key are fields of q,
// the source of the view the style pages.
func (p *KeysetPagination) Check(q query.Query) error {
	c, err := p.Resolve(&framework.Settings{PageSize: 1})
	if err != nil {
		return err
	}
	return checkFields(q, c.ordering)
}

// withKey returns ordering with the key appended unless already there,
// in the direction of the ordering's last term.
func (p *KeysetPagination) withKey(ordering []query.Order) []query.Order {
	for _, t := range ordering {
		if t.Field == p.Key {
			return ordering
		}
	}
	desc := len(ordering) > 0 && ordering[len(ordering)-1].Desc
	return append(ordering[:len(ordering):len(ordering)], query.Order{Field: p.Key, Desc: desc})
}

// Paginate returns the requested page of q; see Page.
func (p *KeysetPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	return asPage(p.Page(r, q))
}

// Page returns the page the cursor points at, in one query: the source in
// the cursor's direction, after the cursor's position, the page size plus
// one item (which tells whether more follow). It is nil when there is no
// page size, and 404 "Invalid cursor" for a cursor that is not one this
// style signed for this ordering.
func (p *KeysetPagination) Page(r *request.Request, q query.Query) (*KeysetPage, error) {
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
	ordering := p.ordering
	if base := q.Ordering(); filtered && len(base) > 0 {
		ordering = p.withKey(base)
	}
	page := &KeysetPage{style: p, ordering: ordering, param: p.CursorQueryParam,
		links: newLinker(r, params), controls: newControls(r, p.Template, PreviousNextTemplate)}
	var cur keysetCursor
	if raw, ok := params.get(page.param); ok {
		if cur, ok = p.decode(raw, ordering); !ok {
			return nil, p.invalid()
		}
	}
	order := ordering
	if cur.reverse {
		order = query.Reversed(ordering)
	}
	s := q
	if cur.positions != nil {
		s = s.SeekAfter(order, cur.positions)
	}
	rows, err := s.OrderBy(order...).Fetch(r.Context(), 0, oneMore(size))
	if err != nil {
		if cur.positions != nil && errors.Is(err, query.ErrInvalidValue) {
			return nil, p.invalid()
		}
		return nil, err
	}
	n := min(rows.Len(), size)
	more := rows.Len() > n
	rows.Keep(n)
	page.len = n
	if cur.reverse {
		rows.Reverse()
		page.hasPrevious, page.hasNext = more, cur.positions != nil
	} else {
		page.hasNext, page.hasPrevious = more, cur.positions != nil
	}
	if n > 0 {
		if page.first, err = positionsOf(rows, 0, ordering); err != nil {
			return nil, err
		}
		if page.last, err = positionsOf(rows, n-1, ordering); err != nil {
			return nil, err
		}
	}
	page.SetDisplayControls(page.hasNext || page.hasPrevious)
	return page, nil
}

func positionsOf(rows query.Rows, i int, ordering []query.Order) ([]string, error) {
	pos := make([]string, len(ordering))
	for j, o := range ordering {
		var err error
		if pos[j], err = rows.Position(i, o.Field); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

func (p *KeysetPagination) invalid() error {
	return exceptions.NotFound(p.InvalidCursorMessage)
}

// SchemaParameters lists the cursor parameter, and the page size parameter
// when clients may choose it.
func (p *KeysetPagination) SchemaParameters(v *framework.View) []SchemaParameter {
	return cursorParameters(cmp.Or(p.CursorQueryParam, defaultCursorQueryParam), p.PageSizeQueryParam)
}

// ResponseSchema is the JSON Schema of an answer whose results the
// schema results describes: the cursor envelope.
func (p *KeysetPagination) ResponseSchema(results any) any {
	return cursorEnvelopeSchema(cmp.Or(p.CursorQueryParam, defaultCursorQueryParam), "cD00ODY%3D", results, false)
}

// keysetCursor is a decoded cursor: the direction, and the position (one
// value per ordering field) after which the page starts; no position
// means from the start, or from the end when reverse.
type keysetCursor struct {
	reverse   bool
	positions []string
}

// Cursor wire format, before base64url: a version byte, a flags byte
// (reverse, has a position), each position value as a uvarint length and
// its bytes, then the first macLen bytes of the HMAC-SHA256 of the
// ordering and all of the above.
const (
	cursorVersion  = 1
	flagReverse    = 1
	flagPositioned = 2
	macLen         = 16
	// maxCursorLen bounds the cursors read: positions are a few short
	// values, never kilobytes.
	maxCursorLen = 4096
)

// processSecret is the secret of styles given none, random per process.
var processSecret = sync.OnceValue(func() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
})

// mac signs payload for ordering.
func (p *KeysetPagination) mac(ordering []query.Order, payload []byte) []byte {
	h := hmac.New(sha256.New, p.Secret)
	h.Write([]byte("drf.pagination.KeysetPagination\x00"))
	for _, o := range ordering {
		h.Write([]byte(o.String()))
		h.Write([]byte{0})
	}
	h.Write(payload)
	return h.Sum(nil)[:macLen]
}

func (p *KeysetPagination) encode(c keysetCursor, ordering []query.Order) string {
	b := []byte{cursorVersion, 0}
	if c.reverse {
		b[1] |= flagReverse
	}
	if c.positions != nil {
		b[1] |= flagPositioned
		for _, v := range c.positions {
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		}
	}
	return base64.RawURLEncoding.EncodeToString(append(b, p.mac(ordering, b)...))
}

// decode verifies and reads a cursor of ordering.
func (p *KeysetPagination) decode(raw string, ordering []query.Order) (keysetCursor, bool) {
	if len(raw) > maxCursorLen {
		return keysetCursor{}, false
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(b) < 2+macLen {
		return keysetCursor{}, false
	}
	payload, sum := b[:len(b)-macLen], b[len(b)-macLen:]
	if !hmac.Equal(sum, p.mac(ordering, payload)) || payload[0] != cursorVersion || payload[1]&^(flagReverse|flagPositioned) != 0 {
		return keysetCursor{}, false
	}
	c := keysetCursor{reverse: payload[1]&flagReverse != 0}
	rest := payload[2:]
	if payload[1]&flagPositioned != 0 {
		c.positions = make([]string, len(ordering))
		for i := range c.positions {
			n, w := binary.Uvarint(rest)
			if w <= 0 || n > uint64(len(rest)-w) {
				return keysetCursor{}, false
			}
			c.positions[i], rest = string(rest[w:w+int(n)]), rest[w+int(n):]
		}
	}
	return c, len(rest) == 0
}

// KeysetPage is one page of KeysetPagination.
type KeysetPage struct {
	len      int
	style    *KeysetPagination
	ordering []query.Order
	// first and last are the positions of the first and last items.
	first, last          []string
	hasNext, hasPrevious bool
	param                string
	links                linker
	controls
}

// Len returns the number of items on the page.
func (p *KeysetPage) Len() int { return p.len }

// NextLink returns the link to the items after the page's last one; ""
// on the last page. The next page of an empty page going backward (its
// items were deleted) is the first page.
func (p *KeysetPage) NextLink() Link {
	switch {
	case !p.hasNext:
		return ""
	case p.last == nil:
		return Link(p.links.remove(p.param))
	}
	return Link(p.links.replace(p.param, p.style.encode(keysetCursor{positions: p.last}, p.ordering)))
}

// PreviousLink returns the link to the items before the page's first one;
// "" on the first page. The previous page of an empty page going forward
// (its items were deleted) is the last page.
func (p *KeysetPage) PreviousLink() Link {
	if !p.hasPrevious {
		return ""
	}
	return Link(p.links.replace(p.param, p.style.encode(keysetCursor{reverse: true, positions: p.first}, p.ordering)))
}

// Response answers {"next", "previous", "results"} with data, the
// serialised items.
func (p *KeysetPage) Response(data any) *framework.Response {
	return ok(cursorEnvelope{Next: p.NextLink(), Previous: p.PreviousLink(), Results: data}, p)
}

// HTMLControls renders the previous and next controls when the page
// displays them.
func (p *KeysetPage) HTMLControls() template.HTML { return p.render(p.HTMLContext) }

// HTMLContext is what the controls template is executed with
// (get_html_context): the links.
func (p *KeysetPage) HTMLContext() ControlsData {
	return ControlsData{PreviousURL: string(p.PreviousLink()), NextURL: string(p.NextLink())}
}
