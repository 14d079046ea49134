package bookshelf

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The sample's pagination styles (sample/pages.go).
const (
	PageSize       = 5  // page-number and cursor pages
	MaxPageSize    = 20 // the most ?page_size= gives
	DefaultLimit   = 5  // limit/offset
	MaxLimit       = 20
	cursorMaxSkips = 1000 // DRF's CursorPagination.offset_cutoff
)

// Messages of DRF's answers.
const (
	MsgInvalidPage   = "Invalid page."
	MsgInvalidCursor = "Invalid cursor"
	MsgNoBook        = "No Book matches the given query."
)

// ErrInvalidPage is a ?page= that names no page.
var ErrInvalidPage = errors.New(MsgInvalidPage)

// ErrInvalidCursor is a ?cursor= that does not decode.
var ErrInvalidCursor = errors.New(MsgInvalidCursor)

// List is the answer of the page-number and limit/offset lists.
type List struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []Book  `json:"results"`
}

// CursorList is the answer of the cursor list.
type CursorList struct {
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []Book  `json:"results"`
}

// Here is the request's absolute URL, from which DRF builds the links.
type Here struct {
	Host  string     // the Host header
	Path  string     // escaped
	Query url.Values // the request's query
}

// HereOf is u, requested with Host host.
func HereOf(host string, u *url.URL) Here {
	return Here{Host: host, Path: u.EscapedPath(), Query: u.Query()}
}

// With is the URL with key set to value, or removed when value is "", as
// DRF's replace_query_param and remove_query_param write it (keys sorted).
func (h Here) With(kv ...string) *string {
	q := make(url.Values, len(h.Query)+1)
	for k, v := range h.Query {
		q[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(q, kv[i])
		} else {
			q.Set(kv[i], kv[i+1])
		}
	}
	u := "http://" + h.Host + h.Path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return &u
}

// PageSizeOf is the page size that ?page_size=n asks for, as DRF's
// _positive_int(strict=True, cutoff=max_page_size) reads it: the default
// unless n is positive, at most MaxPageSize.
func PageSizeOf(n int) int {
	if n <= 0 {
		return PageSize
	}
	return min(n, MaxPageSize)
}

// LimitOf is the limit that ?limit=n asks for (strict, at most MaxLimit).
func LimitOf(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return min(n, MaxLimit)
}

// OffsetOf is the offset that ?offset=n asks for (not strict: 0 unless n
// is positive).
func OffsetOf(n int) int { return max(n, 0) }

// Pages is the number of pages of count items, as Django's Paginator
// counts them (one empty page when there is nothing).
func Pages(count, size int) int { return max(1, (count+size-1)/size) }

// PageNumber reads ?page= ("" for the first page, "last" for the last):
// ErrInvalidPage when it names none of the pages.
func PageNumber(raw string, pages int) (int, error) {
	if raw == "" {
		return 1, nil
	}
	if raw == "last" {
		return pages, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > pages {
		return 0, ErrInvalidPage
	}
	return n, nil
}

// PageLinks are the next and previous links of page number of pages.
func PageLinks(h Here, number, pages int) (next, previous *string) {
	if number < pages {
		next = h.With("page", strconv.Itoa(number+1))
	}
	if number == 2 {
		previous = h.With("page", "")
	} else if number > 2 {
		previous = h.With("page", strconv.Itoa(number-1))
	}
	return next, previous
}

// OffsetLinks are the next and previous links of a limit/offset page.
func OffsetLinks(h Here, limit, offset, count int) (next, previous *string) {
	l := strconv.Itoa(limit)
	if offset+limit < count {
		next = h.With("limit", l, "offset", strconv.Itoa(offset+limit))
	}
	if offset > 0 {
		previous = h.With("limit", l, "offset", "")
		if offset-limit > 0 {
			previous = h.With("limit", l, "offset", strconv.Itoa(offset-limit))
		}
	}
	return next, previous
}

// Cursor is DRF's cursor over the -created ordering.
type Cursor struct {
	Offset   int
	Reverse  bool
	Position string // the created time as Django prints it; "" for none
}

// At is the cursor's position as a time.
func (c Cursor) At() (time.Time, error) {
	return time.Parse("2006-01-02 15:04:05.999999-07:00", c.Position)
}

// DecodeCursor reads ?cursor=: base64 of "o=OFFSET&r=1&p=POSITION".
func DecodeCursor(raw string) (Cursor, error) {
	var c Cursor
	if raw == "" {
		return c, nil
	}
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return c, ErrInvalidCursor
	}
	tokens, err := url.ParseQuery(string(b))
	if err != nil {
		return c, ErrInvalidCursor
	}
	if o := tokens.Get("o"); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil {
			return c, ErrInvalidCursor
		}
		c.Offset = min(max(n, 0), cursorMaxSkips)
	}
	if r := tokens.Get("r"); r != "" {
		n, err := strconv.Atoi(r)
		if err != nil {
			return c, ErrInvalidCursor
		}
		c.Reverse = n != 0
	}
	if c.Position = tokens.Get("p"); c.Position != "" {
		if _, err := c.At(); err != nil {
			return c, ErrInvalidCursor
		}
	}
	return c, nil
}

// encode writes the cursor as DRF does.
func (c Cursor) encode() string {
	var parts []string
	if c.Offset != 0 {
		parts = append(parts, "o="+strconv.Itoa(c.Offset))
	}
	if c.Reverse {
		parts = append(parts, "r=1")
	}
	if c.Position != "" {
		parts = append(parts, "p="+url.QueryEscape(c.Position))
	}
	return base64.StdEncoding.EncodeToString([]byte(strings.Join(parts, "&")))
}

// position is a book's place in the ordering as Django prints it: str() of
// its created time.
func position(b Book) string {
	t := b.Created.UTC()
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.000000-07:00")
	}
	return t.Format("2006-01-02 15:04:05-07:00")
}

// CursorPage is DRF's CursorPagination.paginate_queryset and its links:
// results are the size+1 books read from the cursor c (Store.BooksByCreated).
func CursorPage(h Here, c Cursor, size int, results []Book) CursorList {
	page := results[:min(len(results), size)]
	following := ""
	if len(results) > size {
		following = position(results[size])
	}
	var hasNext, hasPrevious bool
	var nextPos, prevPos string
	if c.Reverse {
		for i, j := 0, len(page)-1; i < j; i, j = i+1, j-1 {
			page[i], page[j] = page[j], page[i]
		}
		hasNext, hasPrevious = c.Position != "" || c.Offset > 0, following != ""
		nextPos, prevPos = c.Position, following
	} else {
		hasNext, hasPrevious = following != "", c.Position != "" || c.Offset > 0
		nextPos, prevPos = following, c.Position
	}
	list := CursorList{Results: page}
	if hasNext {
		compare := nextPos
		if len(page) > 0 && c.Reverse && c.Offset > 0 {
			compare = position(page[len(page)-1])
		}
		next, unique := Cursor{}, false
		for i := len(page) - 1; i >= 0; i-- {
			if next.Position = position(page[i]); next.Position != compare {
				unique = true
				break
			}
			compare = next.Position
			next.Offset++
		}
		if len(page) > 0 && !unique {
			switch {
			case !hasPrevious:
				next = Cursor{Offset: size}
			case c.Reverse:
				next = Cursor{Position: prevPos}
			default:
				next = Cursor{Offset: c.Offset + size, Position: prevPos}
			}
		}
		if len(page) == 0 {
			next.Position = nextPos
		}
		list.Next = h.With("cursor", next.encode())
	}
	if hasPrevious {
		compare := prevPos
		if len(page) > 0 && !c.Reverse && c.Offset > 0 {
			compare = position(page[0])
		}
		prev, unique := Cursor{Reverse: true}, false
		for _, b := range page {
			if prev.Position = position(b); prev.Position != compare {
				unique = true
				break
			}
			compare = prev.Position
			prev.Offset++
		}
		if len(page) > 0 && !unique {
			switch {
			case !hasNext:
				prev = Cursor{Reverse: true, Offset: size}
			case c.Reverse:
				prev = Cursor{Reverse: true, Offset: c.Offset + size, Position: nextPos}
			default:
				prev = Cursor{Reverse: true, Position: nextPos}
			}
		}
		if len(page) == 0 {
			prev.Position = prevPos
		}
		list.Previous = h.With("cursor", prev.encode())
	}
	return list
}
