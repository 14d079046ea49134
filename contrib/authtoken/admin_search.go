package authtoken

import (
	"regexp"
	"strings"
	"sync"

	"github.com/go-drf/drf/framework/store"
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

// likeEscaper escapes the wildcards of a LIKE pattern with backslashes, as
// Django's prep_for_like_query.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// searchWhere is the condition that column (of u, auth_user) holds every
// term, ignoring case, as Django's icontains lookup in the dialect d (on
// SQLite, LIKE, which ignores the case of ASCII letters only), and its
// arguments; "" when there are no terms.
func searchWhere(d store.Dialect, column string, terms []string) (string, []any) {
	var conds []string
	args := make([]any, 0, len(terms))
	for _, t := range terms {
		if d == store.PostgreSQL {
			conds = append(conds, `UPPER(u."`+column+`"::text) LIKE UPPER(?)`)
		} else {
			conds = append(conds, `u."`+column+`" LIKE ? ESCAPE '\'`)
		}
		args = append(args, "%"+likeEscaper.Replace(t)+"%")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}
