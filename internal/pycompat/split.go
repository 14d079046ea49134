package pycompat

import "strings"

// SplitBytes is Python's bytes.split() without arguments: the words of s
// between runs of ASCII whitespace (space, \t, \n, \r, \v, \f), none
// empty. Other bytes, non-ASCII ones and \x1c-\x1f among them, are part of
// the words, as they are to bytes.split (str.split would split on them).
func SplitBytes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
		return false
	})
}
