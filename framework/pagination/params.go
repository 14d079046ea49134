package pagination

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
)

// params is a request's query string as Django reads it
// (pycompat.AppendQuery).
type params []pycompat.QueryPair

// requestQuery appends the fields of r's query string, in the request's
// charset, to q, which may be a page's own buffer so that a short query
// string costs no allocation.
func requestQuery(r *request.Request, q params) params {
	return pycompat.AppendQuery(q, r.URL.RawQuery, pycompat.CodecOf(r.Charset()))
}

// size is the length of q's pairs, unescaped, with their separators.
func (q params) size() int {
	n := 0
	for _, p := range q {
		n += len(p.Key) + len(p.Value) + 2
	}
	return n
}

// get returns the last value of key, as a QueryDict does.
func (q params) get(key string) (string, bool) {
	for i := len(q) - 1; i >= 0; i-- {
		if q[i].Key == key {
			return q[i].Value, true
		}
	}
	return "", false
}

// first returns the first value of key, as Python's parse_qs(...)[key][0].
func (q params) first(key string) (string, bool) {
	for _, p := range q {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// appendEncoded appends q as DRF's links carry it: the keys sorted, each key's
// values in their order, quoted as a form; key is left out, and added with
// value when set is true. One stable sort by key, so the cost grows as
// n log n in the number of parameters.
func (q params) appendEncoded(b []byte, key string, set bool, value string) []byte {
	var buf [8]pycompat.QueryPair
	ps := buf[:0]
	for _, p := range q {
		if p.Key != key {
			ps = append(ps, p)
		}
	}
	if set {
		ps = append(ps, pycompat.QueryPair{Key: key, Value: value})
	}
	slices.SortStableFunc(ps, func(a, b pycompat.QueryPair) int { return strings.Compare(a.Key, b.Key) })
	for i, p := range ps {
		if i > 0 {
			b = append(b, '&')
		}
		b = append(append(append(b, url.QueryEscape(p.Key)...), '='), url.QueryEscape(p.Value)...)
	}
	return b
}

// positiveInt is DRF's reading of a size or offset parameter: Python's
// int(), negative rejected, zero rejected when strict, capped at cutoff
// when cutoff > 0.
func positiveInt(s string, strict bool, cutoff int) (int, bool) {
	n, ok := pycompat.Atoi(s)
	if !ok || n < 0 || n == 0 && strict {
		return 0, false
	}
	if cutoff > 0 {
		n = min(n, cutoff)
	}
	return n, true
}

// linker builds a page's links from the request's absolute URL, with
// DRF's replace_query_param and remove_query_param.
type linker struct {
	r *http.Request
	// path is the request's path, escaped.
	path  string
	query params
}

// newLinker returns the linker of r, whose query string read as Django
// reads it is q. DRF's links start from the request's full path, whose
// query Django escapes again from its bytes read as ISO-8859-1
// (iri_to_uri), and read it back in UTF-8 (parse_qs) whatever the
// charset: a query that is not ASCII, or a charset other than UTF-8,
// gives links another reading than q.
func newLinker(r *request.Request, q params) linker {
	if raw := r.URL.RawQuery; !pycompat.IsASCII(raw) || pycompat.CodecOf(r.Charset()) != pycompat.UTF8 {
		q = pycompat.AppendQuery(nil, string(pycompat.Latin1([]byte(raw))), pycompat.UTF8)
	}
	return linker{r: r.Request, path: pycompat.EscapeRequestPath(r.URL.Path), query: q}
}

// replace returns the request's URL with key set to value alone.
func (l linker) replace(key, value string) string { return l.build(key, true, value) }

// with returns a linker whose query has key set to value alone.
func (l linker) with(key, value string) linker {
	q := make(params, 0, len(l.query)+1)
	for _, p := range l.query {
		if p.Key != key {
			q = append(q, p)
		}
	}
	l.query = append(q, pycompat.QueryPair{Key: key, Value: value})
	return l
}

// remove returns the request's URL without key.
func (l linker) remove(key string) string { return l.build(key, false, "") }

// build writes the link in one piece: scheme://host, the path, and the
// query with key set to value or left out.
func (l linker) build(key string, set bool, value string) string {
	var buf [256]byte
	b := buf[:0]
	if n := 64 + len(l.path) + len(key) + len(value) + l.query.size(); n > len(buf) {
		b = make([]byte, 0, n)
	}
	b = append(reverse.AppendBaseURL(b, l.r), l.path...)
	n := len(b)
	b = l.query.appendEncoded(append(b, '?'), key, set, value)
	if len(b) == n+1 {
		b = b[:n]
	}
	return string(b)
}
