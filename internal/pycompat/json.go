package pycompat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/internal/rawjson"
)

// JSONDumps is Python's json.dumps(v, separators=(",", ":")): compact
// JSON, every character beyond ASCII escaped as \uXXXX (a surrogate pair
// beyond the BMP), and <, > and & left as they are.
func JSONDumps(v any) ([]byte, error) {
	data, err := rawjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	// Outside strings JSON is ASCII, so every rune beyond it is in one.
	var out []byte
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if out != nil {
				out = append(out, c)
			}
			i++
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(data)+16), data[:i]...)
		}
		r, size := utf8.DecodeRune(data[i:])
		if r >= 0x10000 {
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	if out == nil {
		return data, nil
	}
	return out, nil
}

// Latin1 is Python's data.decode("latin-1"), in UTF-8: every byte is the
// character of that code point.
func Latin1(data []byte) []byte {
	for _, c := range data {
		if c >= utf8.RuneSelf {
			out := make([]byte, 0, 2*len(data))
			for _, c := range data {
				out = utf8.AppendRune(out, rune(c))
			}
			return out
		}
	}
	return data
}

// URLSafeB64Decode is Python's base64.urlsafe_b64decode(s): "-" and "_"
// read as "+" and "/", then as B64DecodeString.
func URLSafeB64Decode(s string) ([]byte, bool) {
	return B64DecodeString(strings.NewReplacer("-", "+", "_", "/").Replace(s))
}
