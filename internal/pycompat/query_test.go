package pycompat

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAppendQueryIsDjangos holds AppendQuery to Django's QueryDict over
// the golden query strings, in UTF-8 and in other charsets.
func TestAppendQueryIsDjangos(t *testing.T) {
	g := readGolden(t)
	for _, q := range g.Queries {
		raw := unhexString(t, q.Hex)
		got := AppendQuery(nil, raw, CodecOf(q.Encoding))
		want := make([]QueryPair, len(q.Pairs))
		for i, p := range q.Pairs {
			want[i] = QueryPair{p[0], p[1]}
		}
		// QueryDict groups each name's values; the order of names is the
		// first occurrence's.
		if !slices.Equal(grouped(got), want) {
			t.Errorf("%s %+q: %+q, want %+q", q.Encoding, raw, got, want)
		}
	}
}

// grouped orders pairs as QueryDict.lists() lists them.
func grouped(pairs []QueryPair) []QueryPair {
	var out []QueryPair
	done := map[string]bool{}
	for _, p := range pairs {
		if done[p.Key] {
			continue
		}
		done[p.Key] = true
		for _, q := range pairs {
			if q.Key == p.Key {
				out = append(out, q)
			}
		}
	}
	return out
}

// TestParseQuery pins what the framework's users see of the query string
// (the answers of DRF's reference in the comments).
func TestParseQuery(t *testing.T) {
	for _, c := range []struct {
		raw, charset string
		want         url.Values
	}{
		// ?format=%zz is DRF's 404 (unknown format): the value is "%zz".
		{"format=%zz", "", url.Values{"format": {"%zz"}}},
		// ?version=v2%zz is 404 "Invalid version in query parameter.".
		{"version=v2%zz", "", url.Values{"version": {"v2%zz"}}},
		{"a=1;b=2&c", "", url.Values{"a": {"1;b=2"}, "c": {""}}},
		{"a+b=c+d%2B&=e&&a+b=", "", url.Values{"a b": {"c d+", ""}, "": {"e"}}},
		{"x=%FF%E2%82&y=%E2%82%AC", "", url.Values{"x": {"\uFFFD\uFFFD"}, "y": {"€"}}},
		{"x=caf\xe9", "", url.Values{"x": {"café"}}},
		{"x=%E9", "latin-1", url.Values{"x": {"é"}}},
		// With charset=utf-16 DRF reads ?page=2 as one name of garbage:
		// page 1 of /pages/page-number/.
		{"page=2", "utf-16", url.Values{"慰敧㈽": {""}}},
	} {
		if got := ParseQuery(c.raw, CodecOf(c.charset)); !equalValues(got, c.want) {
			t.Errorf("%q (%s): %q, want %q", c.raw, c.charset, got, c.want)
		}
	}
}

func equalValues(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestAppendQueryAllocations: a UTF-8 query string with nothing to
// unescape costs nothing beyond the pairs' slice.
func TestAppendQueryAllocations(t *testing.T) {
	buf := make([]QueryPair, 0, 4)
	if n := testing.AllocsPerRun(100, func() { buf = AppendQuery(buf[:0], "page=3&page_size=5&ordering=-id", UTF8) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzParseQuery holds AppendQuery to Go's url.ParseQuery where the two
// agree on the syntax (no ";", no broken escape, UTF-8 throughout), and
// to what QueryDict guarantees everywhere: text in UTF-8, and a string
// without "%" or "+" split as it is.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"a=1&b=2", "format=%zz", "a=1;b=2", "a+b=%2B", "=x&&y", "x=%E2%82", "x=caf\xe9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		pairs := AppendQuery(nil, raw, UTF8)
		for _, p := range pairs {
			if !utf8.ValidString(p.Key) || !utf8.ValidString(p.Value) {
				t.Fatalf("%+q: %+q is not UTF-8", raw, p)
			}
		}
		if !strings.ContainsAny(raw, "%+") && utf8.ValidString(raw) {
			var want []QueryPair
			for field := range strings.SplitSeq(raw, "&") {
				if field != "" {
					k, v, _ := strings.Cut(field, "=")
					want = append(want, QueryPair{k, v})
				}
			}
			if !slices.Equal(pairs, want) {
				t.Fatalf("%+q: %+q, want %+q", raw, pairs, want)
			}
		}
		goValues, err := url.ParseQuery(raw)
		if err != nil || !utf8.ValidString(raw) {
			return
		}
		for _, vs := range goValues {
			for _, v := range vs {
				if !utf8.ValidString(v) {
					return
				}
			}
		}
		for k := range goValues {
			if !utf8.ValidString(k) {
				return
			}
		}
		if got := ParseQuery(raw, UTF8); !equalValues(got, goValues) {
			t.Fatalf("%+q: %q, Go's url.ParseQuery %q", raw, got, goValues)
		}
	})
}

// TestAppendQueryFields: the fields are counted in the decoded text, one
// more than its "&", as parse_qsl's max_num_fields counts them.
func TestAppendQueryFields(t *testing.T) {
	for _, c := range []struct {
		raw     string
		charset string
		max     int
		ok      bool
	}{
		{"a=1&b=2", "", 2, true},
		{"a=1&b=2&", "", 2, false},
		{"&&", "", 2, false},
		{"", "", 0, true},
		{"a=1&b=2&", "", -1, true},
		// In UTF-16 "a&b&" is two characters, no "&".
		{"a&b&", "utf-16", 0, false},
		{"a&b&", "utf-16", 1, true},
	} {
		if _, ok := AppendQueryFields(nil, c.raw, CodecOf(c.charset), c.max); ok != c.ok {
			t.Errorf("%q (%s) max %d: ok %v", c.raw, c.charset, c.max, ok)
		}
	}
}
