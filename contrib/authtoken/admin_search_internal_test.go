package authtoken

import (
	"slices"
	"testing"
)

// The terms of a search, as Django 5.2's admin takes them from ?q=
// (smart_split, then unescape_string_literal of a term quoted whole).
func TestSearchTerms(t *testing.T) {
	for q, want := range map[string][]string{
		"":                                   nil,
		"   ":                                nil,
		"ali cia":                            {"ali", "cia"},
		`"ali"`:                              {"ali"},
		`'ali'`:                              {"ali"},
		`"ali`:                               {`"ali`},
		`"`:                                  {""},
		`a"b c"d e`:                          {`a"b c"d`, "e"},
		`"a \"b\"" c`:                        {`a "b"`, "c"},
		`'o\'neil'`:                          {"o'neil"},
		"x\u00a0y\u2003z\u3000w\x1cv\u0085u": {"x", "y", "z", "w", "v", "u"},
		`"back\\slash"`:                      {`back\slash`},
		"it's":                               {"it's"},
	} {
		if got := searchTerms(q); !slices.Equal(got, want) {
			t.Errorf("searchTerms(%q) = %q, want %q", q, got, want)
		}
	}
}
