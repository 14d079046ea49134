package pagination

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
)

// param is one name=value pair of a query string, decoded.
type param struct{ key, value string }

// query is a request's query string as Django reads it: pairs split on
// "&" only, "+" as a space, bad escapes kept as text, invalid UTF-8
// replaced, blank values kept.
type query []param

// parseQuery appends the pairs of raw to q, which may be a page's own
// buffer so that a short query string costs no allocation.
func parseQuery(raw string, q query) query {
	for raw != "" {
		var field string
		field, raw, _ = strings.Cut(raw, "&")
		if field == "" {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		q = append(q, param{unquotePlus(k), unquotePlus(v)})
	}
	return q
}

// size is the length of q's pairs, unescaped, with their separators.
func (q query) size() int {
	n := 0
	for _, p := range q {
		n += len(p.key) + len(p.value) + 2
	}
	return n
}

// get returns the last value of key, as a QueryDict does.
func (q query) get(key string) (string, bool) {
	for i := len(q) - 1; i >= 0; i-- {
		if q[i].key == key {
			return q[i].value, true
		}
	}
	return "", false
}

// first returns the first value of key, as Python's parse_qs(...)[key][0].
func (q query) first(key string) (string, bool) {
	for _, p := range q {
		if p.key == key {
			return p.value, true
		}
	}
	return "", false
}

// appendEncoded appends q as DRF's links carry it: the keys sorted, each key's
// values in their order, quoted as a form; key is left out, and added with
// value when set is true. One stable sort by key, so the cost grows as
// n log n in the number of parameters.
func (q query) appendEncoded(b []byte, key string, set bool, value string) []byte {
	var buf [8]param
	ps := buf[:0]
	for _, p := range q {
		if p.key != key {
			ps = append(ps, p)
		}
	}
	if set {
		ps = append(ps, param{key, value})
	}
	slices.SortStableFunc(ps, func(a, b param) int { return strings.Compare(a.key, b.key) })
	for i, p := range ps {
		if i > 0 {
			b = append(b, '&')
		}
		b = append(append(append(b, url.QueryEscape(p.key)...), '='), url.QueryEscape(p.value)...)
	}
	return b
}

// unquotePlus decodes one side of a form pair: "+" is a space, %XX a
// byte, a "%" not followed by two hex digits stays as it is; bytes that
// are not UTF-8 become U+FFFD.
func unquotePlus(s string) string {
	if !strings.ContainsAny(s, "+%") && utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]):
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return decodeUTF8(b)
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// decodeUTF8 decodes b, replacing each maximal ill-formed subsequence by
// one U+FFFD, as Python's decoder does with errors="replace".
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			s.Write(b[i : i+n])
			i += n
			continue
		}
		s.WriteRune(utf8.RuneError)
		i += illFormedLen(b[i:])
	}
	return s.String()
}

// illFormedLen is the length of the maximal subpart of an ill-formed
// sequence at the start of b: a lead byte and the continuation bytes
// that could still have completed it.
func illFormedLen(b []byte) int {
	c := b[0]
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	}
	n := 1
	for n <= need && n < len(b) {
		if n == 1 && (b[1] < lo || b[1] > hi) || n > 1 && (b[n] < 0x80 || b[n] > 0xBF) {
			break
		}
		n++
	}
	return n
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

// pathSafe are the bytes Django leaves unescaped in a URL's path.
const pathSafe = "/:@&+$,-_.!~*'()"

// escapePath escapes a decoded path as Django's escape_uri_path does.
func escapePath(p string) string {
	const hexdigits = "0123456789ABCDEF"
	i := 0
	for i < len(p) && pathSafeByte(p[i]) {
		i++
	}
	if i == len(p) {
		return p
	}
	b := make([]byte, i, len(p)+16)
	copy(b, p)
	for ; i < len(p); i++ {
		if c := p[i]; pathSafeByte(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hexdigits[c>>4], hexdigits[c&15])
		}
	}
	return string(b)
}

func pathSafeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(pathSafe, c) >= 0
}

// linker builds a page's links from the request's absolute URL, with
// DRF's replace_query_param and remove_query_param.
type linker struct {
	r *http.Request
	// path is the request's path, escaped.
	path  string
	query query
}

// newLinker returns the linker of r, whose query string is q.
func newLinker(r *request.Request, q query) linker {
	return linker{r: r.Request, path: escapePath(r.URL.Path), query: q}
}

// replace returns the request's URL with key set to value alone.
func (l linker) replace(key, value string) string { return l.build(key, true, value) }

// with returns a linker whose query has key set to value alone.
func (l linker) with(key, value string) linker {
	q := make(query, 0, len(l.query)+1)
	for _, p := range l.query {
		if p.key != key {
			q = append(q, p)
		}
	}
	l.query = append(q, param{key, value})
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
