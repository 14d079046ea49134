package pagination

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"html/template"
	"sync"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/queryset"
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
// columns followed by the key serves at any depth. The source must be a
// queryset.KeysetSeeker (SQLSource and SliceSource are), and the ordering
// fields NOT NULL. Cursors are signed with Secret (HMAC-SHA256) and bound
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
	// PreviousNextTemplate, NoTemplate none.
	Template *template.Template
}

// Check validates the ordering against src at setup: the fields must be
// fields of src, src must be a queryset.KeysetSeeker, and no field may be
// nullable (when src, a FieldDescriber, says so).
func (p *KeysetPagination) Check(src queryset.Source) error {
	src, _ = unmark(src)
	if _, ok := src.(queryset.KeysetSeeker); !ok {
		return fmt.Errorf("pagination: keyset pagination needs a queryset.KeysetSeeker, not %T", src)
	}
	ordering := p.ordering(nil)
	describer, err := checkOrdering(src, ordering)
	if err != nil {
		return err
	}
	for _, o := range ordering {
		if describer == nil {
			break
		}
		if nullable, _ := describer.DescribeField(o.Field); nullable {
			return fmt.Errorf("pagination: keyset ordering field %q is nullable; items where it is null would never be reached", o.Field)
		}
	}
	return nil
}

// ordering returns the ordering of a page: base (a filter's choice) or
// the style's, with the key appended unless already there.
func (p *KeysetPagination) ordering(base []queryset.Order) []queryset.Order {
	o := base
	if len(o) == 0 {
		names := p.Ordering
		if names == nil {
			names = []string{"-created"}
		}
		o = make([]queryset.Order, 0, len(names)+1)
		for _, n := range names {
			o = append(o, queryset.ParseOrder(n))
		}
	}
	key := cmp.Or(p.Key, "id")
	for _, t := range o {
		if t.Field == key {
			return o
		}
	}
	desc := len(o) > 0 && o[len(o)-1].Desc
	return append(o[:len(o):len(o)], queryset.Order{Field: key, Desc: desc})
}

// Paginate returns the requested page of src; see Page.
func (p *KeysetPagination) Paginate(src queryset.Source, r *request.Request, v *framework.View) (framework.Page, error) {
	page, err := p.Page(src, r, v)
	if page == nil {
		return nil, err
	}
	return page, nil
}

// Page returns the page the cursor points at, in one query: the source in
// the cursor's direction, after the cursor's position, the page size plus
// one item (which tells whether more follow). It is nil when there is no
// page size, and 404 "Invalid cursor" for a cursor that is not one this
// style signed for this ordering.
func (p *KeysetPagination) Page(src queryset.Source, r *request.Request, v *framework.View) (*KeysetPage, error) {
	q := requestQuery(r, nil)
	size := choosePageSize(q, p.PageSizeQueryParam, p.MaxPageSize, p.PageSize, v)
	if size <= 0 {
		return nil, nil
	}
	src, filtered := unmark(src)
	var base []queryset.Order
	if filtered {
		base = src.Ordering()
	}
	ordering := p.ordering(base)
	seeker, ok := src.(queryset.KeysetSeeker)
	if !ok {
		return nil, fmt.Errorf("pagination: keyset pagination needs a queryset.KeysetSeeker, not %T", src)
	}
	page := &KeysetPage{style: p, ordering: ordering, param: cmp.Or(p.CursorQueryParam, "cursor"),
		links: newLinker(r, q), controls: newControls(p.Template, PreviousNextTemplate)}
	var cur keysetCursor
	if raw, ok := q.get(page.param); ok {
		if cur, ok = p.decode(raw, ordering); !ok {
			return nil, p.invalid()
		}
	}
	order := ordering
	if cur.reverse {
		order = make([]queryset.Order, len(ordering))
		for i, o := range ordering {
			order[i] = queryset.Order{Field: o.Field, Desc: !o.Desc}
		}
	}
	s := src
	if cur.positions != nil {
		s = seeker.SeekAfter(order, cur.positions)
	}
	s = s.OrderBy(order...)
	results, err := s.Slice(r.Context(), 0, oneMore(size))
	if err != nil {
		if cur.positions != nil && errors.Is(err, queryset.ErrInvalidValue) {
			return nil, p.invalid()
		}
		return nil, err
	}
	n := min(len(results), size)
	more := len(results) > n
	page.items = orEmpty(results[:n:n])
	if cur.reverse {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			page.items[i], page.items[j] = page.items[j], page.items[i]
		}
		page.hasPrevious, page.hasNext = more, cur.positions != nil
	} else {
		page.hasNext, page.hasPrevious = more, cur.positions != nil
	}
	if n > 0 {
		if page.first, err = positionsOf(src, page.items[0], ordering); err != nil {
			return nil, err
		}
		if page.last, err = positionsOf(src, page.items[n-1], ordering); err != nil {
			return nil, err
		}
	}
	page.SetDisplayControls(page.hasNext || page.hasPrevious)
	return page, nil
}

func positionsOf(src queryset.Source, item any, ordering []queryset.Order) ([]string, error) {
	pos := make([]string, len(ordering))
	for i, o := range ordering {
		var err error
		if pos[i], err = src.Position(item, o.Field); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

func (p *KeysetPagination) invalid() error {
	return exceptions.NotFound(cmp.Or(p.InvalidCursorMessage, "Invalid cursor"))
}

// SchemaParameters lists the cursor parameter, and the page size parameter
// when clients may choose it.
func (p *KeysetPagination) SchemaParameters(v *framework.View) []SchemaParameter {
	return cursorParameters(cmp.Or(p.CursorQueryParam, "cursor"), p.PageSizeQueryParam)
}

// ResponseSchema is the JSON Schema of an answer whose results the
// schema results describes: the CursorEnvelope.
func (p *KeysetPagination) ResponseSchema(results any) any {
	return cursorEnvelopeSchema(cmp.Or(p.CursorQueryParam, "cursor"), results)
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

var (
	processSecretOnce sync.Once
	processSecret     []byte
)

func (p *KeysetPagination) secret() []byte {
	if len(p.Secret) > 0 {
		return p.Secret
	}
	processSecretOnce.Do(func() {
		processSecret = make([]byte, 32)
		rand.Read(processSecret)
	})
	return processSecret
}

// mac signs payload for ordering.
func (p *KeysetPagination) mac(ordering []queryset.Order, payload []byte) []byte {
	h := hmac.New(sha256.New, p.secret())
	h.Write([]byte("drf.pagination.KeysetPagination\x00"))
	for _, o := range ordering {
		h.Write([]byte(o.String()))
		h.Write([]byte{0})
	}
	h.Write(payload)
	return h.Sum(nil)[:macLen]
}

func (p *KeysetPagination) encode(c keysetCursor, ordering []queryset.Order) string {
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
func (p *KeysetPagination) decode(raw string, ordering []queryset.Order) (keysetCursor, bool) {
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
	style    *KeysetPagination
	ordering []queryset.Order
	items    []any
	// first and last are the positions of the first and last items.
	first, last          []string
	hasNext, hasPrevious bool
	param                string
	links                linker
	controls
}

// Items returns the page's items.
func (p *KeysetPage) Items() []any { return p.items }

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
	return ok(CursorEnvelope{Next: p.NextLink(), Previous: p.PreviousLink(), Results: data}, p)
}

// HTMLControls renders the previous and next controls when the page
// displays them.
func (p *KeysetPage) HTMLControls() template.HTML {
	return p.render(func() ControlsData {
		return ControlsData{PreviousURL: string(p.PreviousLink()), NextURL: string(p.NextLink())}
	})
}
