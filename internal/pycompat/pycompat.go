// Package pycompat reads input exactly as the Python and Django functions
// DRF relies on do, so that the framework accepts and refuses what DRF
// does: Python's int(), base64.b64decode() and repr(), its codecs
// (bytes.decode() in the charset a request declares), Django's reading of
// query strings and form bodies (QueryDict) and of the Content-Type
// (cgi.parse_header), and the method sets DRF and Django treat as safe.
// Each behaviour lives here once.
package pycompat

import (
	"fmt"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxIntDigits is Python's limit on the digits int() converts.
const MaxIntDigits = 4300

// intDigits reads s as Python's int(s) does: surrounding whitespace, a
// sign, decimal digits of any script, single underscores between digits.
// It returns the ASCII digits without leading zeros and the sign; ok is
// false where Python raises ValueError.
func intDigits(s string) (digits string, neg, ok bool) {
	s = strings.TrimFunc(s, unicode.IsSpace)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var b []byte
	count := 0
	underscore := false
	for i, r := range s {
		if r == '_' {
			if i == 0 || underscore {
				return "", false, false
			}
			underscore = true
			continue
		}
		d, isDigit := digitValue(r)
		if !isDigit {
			return "", false, false
		}
		underscore = false
		count++
		if d != 0 || len(b) > 0 {
			b = append(b, byte('0'+d))
		}
	}
	if count == 0 || underscore || count > MaxIntDigits {
		return "", false, false
	}
	if len(b) == 0 {
		return "0", false, true
	}
	return string(b), neg, true
}

// digitValue is the value of a decimal digit of any script (Unicode Nd,
// whose digits come in runs of ten starting at zero).
func digitValue(r rune) (int, bool) {
	if '0' <= r && r <= '9' {
		return int(r - '0'), true
	}
	if r < utf8.RuneSelf || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	for _, rg := range unicode.Nd.R16 {
		if lo, hi := rune(rg.Lo), rune(rg.Hi); lo <= r && r <= hi {
			return int(r-lo) % 10, true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if lo, hi := rune(rg.Lo), rune(rg.Hi); lo <= r && r <= hi {
			return int(r-lo) % 10, true
		}
	}
	return 0, false
}

// Int reads s as Python's int(s): ok is false where Python raises
// ValueError.
func Int(s string) (n *big.Int, ok bool) {
	digits, neg, ok := intDigits(s)
	if !ok {
		return nil, false
	}
	n, _ = new(big.Int).SetString(digits, 10)
	if neg {
		n.Neg(n)
	}
	return n, true
}

// Atoi reads s as Python's int(s) and saturates the result to an int.
func Atoi(s string) (int, bool) {
	// Up to 18 ASCII digits, what query strings carry, cannot overflow
	// and are read as they are.
	if len(s) > 0 && len(s) <= 18 && strings.Trim(s, "0123456789") == "" {
		n := 0
		for i := range len(s) {
			n = n*10 + int(s[i]-'0')
		}
		return n, true
	}
	digits, neg, ok := intDigits(s)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		n = math.MaxInt
	}
	if neg {
		n = -n
	}
	return n, true
}

// B64Decode decodes b as Python's base64.b64decode(b) does on bytes,
// without validation: bytes outside the alphabet are skipped, decoding
// stops at the padding that completes a quantum, and only a quantum left
// incomplete is an error (ok false).
func B64Decode(b string) (out []byte, ok bool) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	out = make([]byte, 0, len(b)*3/4)
	quad, pads := 0, 0
	var left byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '=' {
			if quad >= 2 {
				pads++
				if quad+pads >= 4 {
					return out, true
				}
			}
			continue
		}
		v := strings.IndexByte(alphabet, c)
		if v < 0 {
			continue
		}
		pads = 0
		d := byte(v)
		switch quad {
		case 0:
			left = d
		case 1:
			out = append(out, left<<2|d>>4)
			left = d & 0x0f
		case 2:
			out = append(out, left<<4|d>>2)
			left = d & 0x03
		case 3:
			out = append(out, left<<6|d)
		}
		quad = (quad + 1) % 4
	}
	if quad != 0 {
		return nil, false
	}
	return out, true
}

// B64DecodeString is base64.b64decode(s) of a str: as B64Decode, except
// that a string with a character outside ASCII is an error.
func B64DecodeString(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return nil, false
		}
	}
	return B64Decode(s)
}

// IsSafeMethod reports whether method is one of DRF's SAFE_METHODS: GET,
// HEAD, OPTIONS (the read-only permissions' test).
func IsSafeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// IsCSRFSafeMethod reports whether Django's CsrfViewMiddleware lets
// method through unchecked: DRF's safe methods and TRACE.
func IsCSRFSafeMethod(method string) bool {
	return IsSafeMethod(method) || method == http.MethodTrace
}

// Repr is Python's repr() of a str, as Django's messages quote values
// with %r: in single quotes, or double quotes when s holds a single quote
// and no double quote; backslashes, the quote, and characters that are
// not printable escaped.
func Repr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b := []byte{quote}
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case !unicode.IsPrint(r):
			switch {
			case r < 0x100:
				b = append(b, fmt.Sprintf(`\x%02x`, r)...)
			case r < 0x10000:
				b = append(b, fmt.Sprintf(`\u%04x`, r)...)
			default:
				b = append(b, fmt.Sprintf(`\U%08x`, r)...)
			}
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(append(b, quote))
}
