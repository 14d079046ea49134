package pycompat

import (
	"strconv"
	"strings"
	"unicode"
)

// Strip is Python's str.strip(): the characters str.isspace() calls
// whitespace removed from both ends.
func Strip(s string) string { return strings.TrimFunc(s, isSpace) }

// isSpace reports whether Python's str.isspace() holds for r: Unicode's
// white space and the information separators U+001C to U+001F.
func isSpace(r rune) bool { return unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f }

// Decimal reads s as Python's Decimal(s) does, for a finite number:
// surrounding whitespace, underscores anywhere, digits of any script, a
// sign, a fraction, an exponent. It returns the number as ASCII digits
// with an exponent ("25e-1" for "2.5"), which big.Rat and strconv read;
// ok is false where Python raises InvalidOperation and for the infinities
// and NaNs, which Django's DecimalField refuses ("Enter a number.").
func Decimal(s string) (number string, ok bool) {
	s = strings.ReplaceAll(Strip(s), "_", "")
	var b strings.Builder
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		if s[i] == '-' {
			b.WriteByte('-')
		}
		i++
	}
	rest := []rune(s[i:])
	j, digits, fraction := 0, 0, 0
	seenPoint := false
	for ; j < len(rest); j++ {
		r := rest[j]
		if r == '.' && !seenPoint {
			seenPoint = true
			continue
		}
		d, isDigit := digitValue(r)
		if !isDigit {
			break
		}
		b.WriteByte(byte('0' + d))
		digits++
		if seenPoint {
			fraction++
		}
	}
	if digits == 0 {
		return "", false
	}
	exp := 0
	if j < len(rest) {
		if rest[j] != 'e' && rest[j] != 'E' {
			return "", false
		}
		e := string(rest[j+1:])
		var sign string
		if e != "" && (e[0] == '+' || e[0] == '-') {
			sign, e = e[:1], e[1:]
		}
		var eb strings.Builder
		for _, r := range e {
			d, isDigit := digitValue(r)
			if !isDigit {
				return "", false
			}
			eb.WriteByte(byte('0' + d))
		}
		n, err := strconv.Atoi(sign + eb.String())
		if eb.Len() == 0 || err != nil {
			return "", false
		}
		exp = n
	}
	return b.String() + "e" + strconv.Itoa(exp-fraction), true
}
