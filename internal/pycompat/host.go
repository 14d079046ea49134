package pycompat

import (
	"strings"
	"unicode/utf8"
)

// ValidHost reports whether a host, lowercased as Django lowercases it
// (Lower), matches Django's host_validation_re,
// ^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$: a name or an IPv6
// literal, then an optional port. An ASCII letter is valid in either case;
// of the others, only those whose lowercase is an ASCII letter (the Kelvin
// sign is "k") are.
func ValidHost(h string) bool {
	for i := 0; i < len(h); i++ {
		if h[i] >= utf8.RuneSelf {
			return validHost(Lower(h))
		}
	}
	return validHost(h)
}

// Lower is Python's str.lower(): Unicode's lowercase of each character,
// "İ" (U+0130) being "i̇" (an i and a combining dot above), as in
// SpecialCasing, where Go's unicode.ToLower gives "i".
func Lower(s string) string { return strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307")) }

// validHost is ValidHost of a lowercased host.
func validHost(h string) bool {
	hex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }
	i := 0
	if h != "" && h[0] == '[' {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return false
		}
		i = 1
		for i < end && hex(h[i]) {
			i++
		}
		if i == end || h[i] != ':' || i+1 == end {
			return false
		}
		for i++; i < end; i++ {
			if c := h[i]; !hex(c) && c != '.' && c != ':' {
				return false
			}
		}
		i = end + 1
	} else {
		for i < len(h) && (h[i]|0x20 >= 'a' && h[i]|0x20 <= 'z' || h[i] >= '0' && h[i] <= '9' || h[i] == '.' || h[i] == '-') {
			i++
		}
		if i == 0 {
			return false
		}
	}
	if i == len(h) {
		return true
	}
	if h[i] != ':' || i+1 == len(h) {
		return false
	}
	for i++; i < len(h); i++ {
		if h[i] < '0' || h[i] > '9' {
			return false
		}
	}
	return true
}
