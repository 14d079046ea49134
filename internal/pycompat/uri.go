package pycompat

import (
	"strings"
	"unicode/utf8"
)

// byteSet is the bytes urllib.parse.quote leaves as they are: letters,
// digits and "_.-~" always, and its safe argument.
type byteSet [utf8.RuneSelf]bool

func quoteSafe(safe string) *byteSet {
	var s byteSet
	for c := byte('0'); c <= '9'; c++ {
		s[c] = true
	}
	for c := byte('a'); c <= 'z'; c++ {
		s[c], s[c-'a'+'A'] = true, true
	}
	for _, c := range []byte("_.-~" + safe) {
		s[c] = true
	}
	return &s
}

var (
	// uriPathSafe is escape_uri_path's safe argument.
	uriPathSafe = quoteSafe("/:@&+$,-_.!~*'()")
	// iriSafe is iri_to_uri's, which repercent_broken_unicode shares.
	iriSafe = quoteSafe("/#%[]=:;$&()+,!?*@'~")
)

// quote is urllib.parse.quote(s, safe) of s's UTF-8 bytes: every byte
// but the ASCII ones of safe becomes %XX. It returns s itself when nothing
// needs escaping.
func quote(s string, safe *byteSet) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && safe[s[i]] {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*(len(s)-i))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && safe[c] {
			b.WriteByte(c)
		} else {
			percent(&b, c)
		}
	}
	return b.String()
}

// percent writes c as %XX, in upper-case hex as Python does.
func percent(b *strings.Builder, c byte) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}

// EscapeURIPath is Django's escape_uri_path: the path of a URL with every
// byte escaped but letters, digits and "/:@&+$,-_.!~*'()" (";", "=" and
// "?" are escaped, as are "%" and anything not ASCII, as UTF-8 bytes). It
// is how Django writes request.path back into a URL (get_full_path, the
// APPEND_SLASH redirect). Give it a path as Django holds it, a decoded
// path through RepercentBrokenUnicode first.
func EscapeURIPath(path string) string { return quote(path, uriPathSafe) }

// EscapeRequestPath is a decoded request path written back into a URL as
// Django writes request.path (escape_uri_path of the path its WSGI handler
// made with RepercentBrokenUnicode): get_full_path, build_absolute_uri,
// the APPEND_SLASH redirect.
func EscapeRequestPath(path string) string { return EscapeURIPath(RepercentBrokenUnicode(path)) }

// IRIToURI is Django's iri_to_uri: what is not ASCII, and the ASCII
// characters outside RFC 3986's reserved and unreserved sets (space,
// `"<>\^{|}` and the backquote, control characters), are escaped; "%" is
// kept, so that what is already escaped stays as it is. Django's
// get_full_path passes the query string through it.
func IRIToURI(iri string) string { return quote(iri, iriSafe) }

// RepercentBrokenUnicode is the path Django's WSGI handler makes of a
// percent-decoded request path (repercent_broken_unicode): the bytes that
// are not part of valid UTF-8 become the text %XX, so that the path is
// text. It returns path itself when it is valid UTF-8.
func RepercentBrokenUnicode(path string) string {
	if utf8.ValidString(path) {
		return path
	}
	var b strings.Builder
	b.Grow(len(path) + 8)
	for i := 0; i < len(path); {
		r, n := utf8.DecodeRuneInString(path[i:])
		if r == utf8.RuneError && n == 1 {
			percent(&b, path[i])
		} else {
			b.WriteString(path[i : i+n])
		}
		i += n
	}
	return b.String()
}

// filepathSafe is filepath_to_uri's safe argument.
var filepathSafe = quoteSafe("/~!*()'")

// FilepathToURI is Django's filepath_to_uri: a storage name written into a
// URL, "\" made "/" and every byte escaped but letters, digits and
// "/~!*()'_.-" (how FileSystemStorage.url quotes a name).
func FilepathToURI(path string) string {
	return quote(strings.ReplaceAll(path, `\`, "/"), filepathSafe)
}

// slashSafe is urllib.parse.quote's default safe argument.
var slashSafe = quoteSafe("/")

// Quote is Python's urllib.parse.quote(s): every UTF-8 byte escaped but
// letters, digits and "/_.-~".
func Quote(s string) string { return quote(s, slashSafe) }
