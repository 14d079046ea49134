package pycompat

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// QueryPair is one field of a query string or form body, decoded.
type QueryPair struct{ Key, Value string }

// AppendQuery appends the fields of raw, a query string or form body, to
// q as Django's QueryDict(raw, encoding=c) reads them: raw decoded with c
// (as ISO-8859-1 when it is not text in c), then urllib.parse.parse_qsl
// with keep_blank_values: fields split on "&" only (";" is text, as in
// Python 3.10 and later), empty fields skipped, a field without "=" a
// blank value, an empty name kept; in names and values "+" is a space and
// %XX a byte, a "%" not followed by two hex digits stays as it is, and the
// bytes of each run of ASCII are decoded with c, each malformed sequence
// becoming U+FFFD. With UTF-8 and nothing to unescape, names and values
// are substrings of raw, so that parsing allocates only to grow q.
func AppendQuery(q []QueryPair, raw string, c *Codec) []QueryPair {
	q, _ = AppendQueryFields(q, raw, c, -1)
	return q
}

// AppendQueryFields is AppendQuery with Django's
// DATA_UPLOAD_MAX_NUMBER_FIELDS: a text of more than maxFields fields,
// decoded and counted as TooManyFields counts them, is refused (ok false)
// unparsed; a negative maxFields is no limit.
func AppendQueryFields(q []QueryPair, raw string, c *Codec, maxFields int) (_ []QueryPair, ok bool) {
	s := decodeQuery(raw, c)
	if TooManyFields(s, maxFields) {
		return q, false
	}
	for s != "" {
		var field string
		field, s, _ = strings.Cut(s, "&")
		if field == "" {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		q = append(q, QueryPair{unquote(k, c, true), unquote(v, c, true)})
	}
	return q, true
}

// TooManyFields reports whether a query string or form body has more than
// maxFields fields as parse_qsl's max_num_fields counts them: one more
// than its "&", blank fields included. A negative maxFields is no limit.
func TooManyFields(text string, maxFields int) bool {
	return maxFields >= 0 && text != "" && strings.Count(text, "&") >= maxFields
}

// ParseQuery is AppendQuery into url.Values: each name's values in order,
// QueryDict's lists.
func ParseQuery(raw string, c *Codec) url.Values {
	var buf [8]QueryPair
	v := url.Values{}
	for _, p := range AppendQuery(buf[:0], raw, c) {
		v[p.Key] = append(v[p.Key], p.Value)
	}
	return v
}

// decodeQuery is QueryDict's reading of the bytes of a query string or
// form body as text: decoded with c, or as ISO-8859-1 when that fails.
func decodeQuery(raw string, c *Codec) string {
	if c.kind == kindUTF8 && utf8.ValidString(raw) {
		return raw
	}
	if s, err := c.Decode([]byte(raw)); err == nil {
		return s
	}
	return string(Latin1([]byte(raw)))
}

// unquote is urllib.parse.unquote(s, encoding=c), unquote_plus when
// plus is set ("+" a space first): each run of ASCII unescaped to bytes
// and decoded with c, errors replaced; a text without "%" is left as it
// is.
func unquote(s string, c *Codec, plus bool) string {
	if !strings.Contains(s, "%") {
		if plus {
			return strings.ReplaceAll(s, "+", " ")
		}
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] >= utf8.RuneSelf {
			_, n := utf8.DecodeRuneInString(s[i:])
			b = append(b, s[i:i+n]...)
			i += n
			continue
		}
		start := len(b)
		for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
			switch ch := s[i]; {
			case ch == '+' && plus:
				b = append(b, ' ')
			case ch == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
				b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
				i += 2
			default:
				b = append(b, ch)
			}
		}
		if run := b[start:]; c.kind != kindUTF8 || !utf8.Valid(run) {
			b = c.AppendDecodeReplace(b[:start], append([]byte(nil), run...))
		}
	}
	return string(b)
}

func isHex(c byte) bool {
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

// QueryGet is QueryDict.get: the last value of name in q, "" when q has
// none (a repeated parameter uses its last value).
func QueryGet(q url.Values, name string) string {
	if vs := q[name]; len(vs) > 0 {
		return vs[len(vs)-1]
	}
	return ""
}
