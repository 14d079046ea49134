package pycompat

import "strings"

// ParseHeader is Python's cgi.parse_header(line), Django's reading of a
// request's Content-Type (HttpRequest.content_type and content_params):
// the text before the first ";" outside quotes, and the parameters after
// it, names lowercased; values are unquoted when quoted ("\\" and "\""
// inside unescaped); a parameter without "=" is left out and a repeated
// one keeps its last value. Everything is stripped of Python's
// whitespace, the line's bytes read as ISO-8859-1, as WSGI gives Django
// its headers.
func ParseHeader(line string) (key string, params map[string]string) {
	key = eachParam(line, func(name, value string) {
		if params == nil {
			params = map[string]string{}
		}
		params[lowerASCII(name)] = value
	})
	return key, params
}

// HeaderParam is ParseHeader(line)'s parameter name (lowercase), without
// the map: the value and whether line has it.
func HeaderParam(line, name string) (value string, ok bool) {
	eachParam(line, func(n, v string) {
		if equalLowerASCII(n, name) {
			value, ok = v, true
		}
	})
	return value, ok
}

// eachParam returns the key of a header line and calls f with each of its
// parameters, as cgi.parse_header reads them (the name as sent).
func eachParam(line string, f func(name, value string)) (key string) {
	s := line
	for i := 0; ; i++ {
		var part string
		part, s = nextParam(s)
		part = pyStrip(part)
		if i == 0 {
			key = part
		} else if name, value, ok := strings.Cut(part, "="); ok {
			value = pyStrip(value)
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = strings.ReplaceAll(strings.ReplaceAll(value[1:len(value)-1], `\\`, `\`), `\"`, `"`)
			}
			f(pyStrip(name), value)
		}
		if s == "" {
			return key
		}
		s = s[1:] // the ";"
	}
}

// nextParam cuts s at its first ";" not inside quotes, as cgi's
// _parseparam: a quote preceded by a backslash does not count.
func nextParam(s string) (part, rest string) {
	end := strings.IndexByte(s, ';')
	for end > 0 && (strings.Count(s[:end], `"`)-strings.Count(s[:end], `\"`))%2 == 1 {
		next := strings.IndexByte(s[end+1:], ';')
		if next < 0 {
			end = -1
			break
		}
		end += 1 + next
	}
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

// pyStrip is Python's str.strip() of text read as ISO-8859-1: the
// characters str.isspace() calls whitespace removed from both ends.
func pyStrip(s string) string {
	for s != "" && isPySpace(s[0]) {
		s = s[1:]
	}
	for s != "" && isPySpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// lowerASCII lowercases the ASCII letters of s, the only ones whose case
// can make a name one of the ASCII names looked up.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// equalLowerASCII reports whether lowerASCII(s) is lower.
func equalLowerASCII(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func isPySpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r' || '\x1c' <= c && c <= '\x1f' || c == 0x85 || c == 0xA0
}
