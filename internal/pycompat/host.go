package pycompat

import "strings"

// ValidHost reports whether a host matches Django's host_validation_re,
// ^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$, matched
// case-insensitively (Django lowercases the host first): a name or an
// IPv6 literal, then an optional port.
func ValidHost(h string) bool {
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
