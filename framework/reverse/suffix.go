package reverse

import "strings"

// FormatSuffixParam is the URL parameter of a format suffix ("/books/1.json"
// gives "json"), DRF's FORMAT_SUFFIX_KWARG: content negotiation reads it
// before the format query parameter, and reversing a name with it among
// the params finds the route's suffixed twin.
const FormatSuffixParam = "format"

// FormatSuffixPatterns returns the twins of pattern that DRF's
// format_suffix_patterns adds: pattern without its trailing slash, then
// ".{format}", without and with a trailing slash ("/books/{pk}/" gives
// "/books/{pk}.{format:[a-z0-9]+}" and the same with "/"). allowed
// restricts the formats ("json", "api"); none allows any [a-z0-9]+.
func FormatSuffixPatterns(pattern string, allowed ...string) (bare, slashed string) {
	rex := "[a-z0-9]+"
	if len(allowed) > 0 {
		rex = "(?:" + strings.Join(allowed, "|") + ")"
	}
	base := strings.TrimSuffix(pattern, "/")
	if base == "" {
		base = "/"
	}
	bare = base + ".{" + FormatSuffixParam + ":" + rex + "}"
	return bare, bare + "/"
}
