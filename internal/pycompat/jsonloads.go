package pycompat

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// HasLoneSurrogate reports whether JSON text has a \uXXXX escape of a
// surrogate (U+D800 to U+DFFF) that is not the high half of a pair
// followed by its low half: only then do JSONLoads and Go's decoder read
// the text differently.
func HasLoneSurrogate(text []byte) bool {
	for i := 0; ; {
		k := bytes.IndexByte(text[i:], '\\')
		if k < 0 {
			return false
		}
		i += k
		r, pair, n := surrogateEscape(text[i:])
		if r >= 0 && !pair {
			return true
		}
		i += n
	}
}

// surrogateEscape reads the escape at the start of b (b[0] is '\\'): r is
// the surrogate it escapes, or -1 for any other escape; pair reports a
// high surrogate followed by the escape of a low one, which Python and Go
// join into one character; n is the length of what was read.
func surrogateEscape(b []byte) (r rune, pair bool, n int) {
	if len(b) < 6 || b[1] != 'u' || !allHex(b[2:6]) {
		return -1, false, min(2, len(b))
	}
	r = hexValue(b[2:6])
	if r < 0xd800 || r > 0xdfff {
		return -1, false, 6
	}
	if r <= 0xdbff && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' && allHex(b[8:12]) {
		if lo := hexValue(b[8:12]); 0xdc00 <= lo && lo <= 0xdfff {
			return (r-0xd800)<<10 | (lo - 0xdc00) + 0x10000, true, 12
		}
	}
	return r, false, 6
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// JSONLoads is Python's json.loads(text) as DRF's JSONParser calls it, for
// a UTF-8 text (the body decoded) Go's encoding/json decodes: the values Go's decoder gives with
// UseNumber (map[string]any, []any, json.Number, string, bool and nil),
// except that a string keeps a lone surrogate escape ("\ud800") as
// Python's str keeps it, as the three bytes of its code point in WTF-8,
// where Go's decoder writes U+FFFD. A text Python refuses is its
// JSONLoadsError.
func JSONLoads(text []byte) (any, error) {
	if err := JSONLoadsError(text); err != nil {
		return nil, err
	}
	l := jsonLoader{jsonScanner{s: text}}
	v, _, err := l.load(l.skip(0))
	return v, err
}

// jsonLoader builds the values of a text jsonScanner has found valid.
type jsonLoader struct{ jsonScanner }

// load is the value at i and where it ends.
func (l *jsonLoader) load(i int) (any, int, error) {
	s := l.s
	switch s[i] {
	case '"':
		end, err := l.str(i + 1)
		return unquoteWTF8(s[i+1 : end-1]), end, err
	case '{':
		m := map[string]any{}
		if i = l.skip(i + 1); s[i] == '}' {
			return m, i + 1, nil
		}
		for {
			end, err := l.str(i + 1)
			if err != nil {
				return nil, 0, err
			}
			key := unquoteWTF8(s[i+1 : end-1])
			i = l.skip(end) // at the ':'
			v, end, err := l.load(l.skip(i + 1))
			if err != nil {
				return nil, 0, err
			}
			m[key] = v
			if i = l.skip(end); s[i] == '}' {
				return m, i + 1, nil
			}
			i = l.skip(i + 1) // past the ','
		}
	case '[':
		a := []any{}
		if i = l.skip(i + 1); s[i] == ']' {
			return a, i + 1, nil
		}
		for {
			v, end, err := l.load(i)
			if err != nil {
				return nil, 0, err
			}
			a = append(a, v)
			if i = l.skip(end); s[i] == ']' {
				return a, i + 1, nil
			}
			i = l.skip(i + 1) // past the ','
		}
	case 'n':
		return nil, i + 4, nil
	case 't':
		return true, i + 4, nil
	case 'f':
		return false, i + 5, nil
	}
	end, err := l.number(i)
	return json.Number(s[i:end]), end, err
}

// jsonEscapes are the characters after a backslash other than "u", and
// jsonUnescaped what each stands for.
const jsonEscapes, jsonUnescaped = `"\/bfnrt`, "\"\\/\b\f\n\r\t"

// unquoteWTF8 is the text of a JSON string's content (between its quotes,
// valid): escapes read as Python reads them, a lone surrogate written as
// its three WTF-8 bytes.
func unquoteWTF8(b []byte) string {
	k := bytes.IndexByte(b, '\\')
	if k < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for k >= 0 {
		out = append(out, b[:k]...)
		b = b[k:]
		if b[1] != 'u' {
			out = append(out, jsonUnescaped[strings.IndexByte(jsonEscapes, b[1])])
			b = b[2:]
		} else {
			r, pair, n := surrogateEscape(b)
			switch {
			case r < 0:
				out = utf8.AppendRune(out, hexValue(b[2:6]))
			case pair:
				out = utf8.AppendRune(out, r)
			default:
				out = append(out, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
			}
			b = b[n:]
		}
		k = bytes.IndexByte(b, '\\')
	}
	return string(append(out, b...))
}
