package reverse

import (
	"strings"

	"github.com/go-drf/drf/framework/request"
)

// FormatSuffixParam is the URL parameter of a format suffix ("/books/1.json"
// gives "json"), DRF's FORMAT_SUFFIX_KWARG: content negotiation reads it
// before the format query parameter, and reversing a name with it among
// the params finds the route's suffixed twin; request.Request.FormatSuffix
// reads it.
const FormatSuffixParam = "format"

// Link is Reverse for a link in an answer: a request that came with a
// format suffix ("/books.json") links to the suffixed twin of the route
// ("/books/1.json"), as DRF's hyperlinked fields and API root reverse with
// format=view.format_kwarg. The route's twins are mounted by
// framework.FormatSuffixes and a DefaultRouter; a route without them
// links unsuffixed, as Path ignores the parameter (where DRF's reverse
// fails). params is not changed.
func Link(name string, params map[string]string, r *request.Request) (string, error) {
	if r != nil && r.Request != nil {
		if f := r.FormatSuffix(); f != "" {
			params = cloneMap(params)
			params[FormatSuffixParam] = f
		}
	}
	return Reverse(name, params, r)
}

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
