package authtoken

import (
	"regexp"
	"strings"
	"sync"
)

// pySpace is the whitespace of Python's \s in a str pattern (str.isspace).
const pySpace = `\pZ\t\n\v\f\r\x1c-\x1f\x85`

// searchTerm matches one term of a search, as Django's smart_split: a run
// of text and quoted strings (with backslash escapes) without whitespace
// outside the quotes, or else any run without whitespace; compiled at
// the first search.
var searchTerm = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:[^` + pySpace + `'"]*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')[^` + pySpace + `'"]*)+)|[^` + pySpace + `]+`)
})

// searchTerms splits q into the terms Django's admin searches for
// (ModelAdmin.get_search_results): smart_split's, a term quoted whole
// unquoted as unescape_string_literal does (`"a \"b\""` is `a "b"`).
func searchTerms(q string) []string {
	terms := searchTerm().FindAllString(q, -1)
	for i, t := range terms {
		if quote := t[0]; (quote == '"' || quote == '\'') && t[len(t)-1] == quote {
			inner := ""
			if len(t) > 1 {
				inner = t[1 : len(t)-1]
			}
			inner = strings.ReplaceAll(inner, `\`+string(quote), string(quote))
			terms[i] = strings.ReplaceAll(inner, `\\`, `\`)
		}
	}
	return terms
}
