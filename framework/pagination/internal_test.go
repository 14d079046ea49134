package pagination

import (
	"slices"
	"strings"
	"testing"
)

// TestDisplayedPages checks the page numbers of the numbered controls
// against DRF's _get_displayed_page_numbers (0 is a break).
func TestDisplayedPages(t *testing.T) {
	cases := []struct {
		current, final int
		want           []int
	}{
		{1, 1, []int{1}},
		{1, 5, []int{1, 2, 3, 4, 5}},
		{3, 5, []int{1, 2, 3, 4, 5}},
		{5, 5, []int{1, 2, 3, 4, 5}},
		{1, 6, []int{1, 2, 3, 0, 6}},
		{3, 6, []int{1, 2, 3, 4, 5, 6}},
		{4, 6, []int{1, 2, 3, 4, 5, 6}},
		{6, 6, []int{1, 0, 4, 5, 6}},
		{1, 16, []int{1, 2, 3, 0, 16}},
		{4, 16, []int{1, 2, 3, 4, 5, 0, 16}},
		{5, 16, []int{1, 0, 4, 5, 6, 0, 16}},
		{8, 16, []int{1, 0, 7, 8, 9, 0, 16}},
		{12, 16, []int{1, 0, 11, 12, 13, 0, 16}},
		{13, 16, []int{1, 0, 12, 13, 14, 15, 16}},
		{14, 16, []int{1, 0, 13, 14, 15, 16}},
		{16, 16, []int{1, 0, 14, 15, 16}},
		{5, 9, []int{1, 0, 4, 5, 6, 0, 9}},
		{1000, 1000000, []int{1, 0, 999, 1000, 1001, 0, 1000000}},
	}
	for _, c := range cases {
		if got := displayedPages(c.current, c.final); !slices.Equal(got, c.want) {
			t.Errorf("displayedPages(%d, %d) = %v, want %v", c.current, c.final, got, c.want)
		}
	}
}

// TestPyInt checks the reading of numbers against Python's int(), which
// DRF and Django use on page, page size, limit, offset and cursor values.
func TestPyInt(t *testing.T) {
	cases := []struct {
		in      string
		digits  string
		neg, ok bool
	}{
		{"12", "12", false, true},
		{" +5 ", "5", false, true},
		{"-5", "5", true, true},
		{"-0", "0", false, true},
		{"007", "7", false, true},
		{"0_0", "0", false, true},
		{"1_000", "1000", false, true},
		{"\u0663", "3", false, true},        // Arabic-Indic three
		{"\uff15", "5", false, true},        // fullwidth five
		{"\U0001d7d3", "5", false, true},    // mathematical bold five
		{"\u30005\u2028", "5", false, true}, // ideographic space, line separator
		{"\u00855\u00a0", "5", false, true},
		{"99999999999999999999999", "99999999999999999999999", false, true},
		{"", "", false, false},
		{"+", "", false, false},
		{"- 5", "", false, false},
		{"1 2", "", false, false},
		{"1__0", "", false, false},
		{"_1", "", false, false},
		{"1_", "", false, false},
		{"2.0", "", false, false},
		{"0x10", "", false, false},
		{"\x1c5", "", false, false},
		{"\u200b5", "", false, false},
		{"\u180e5", "", false, false},
		{strings.Repeat("9", 4300), strings.Repeat("9", 4300), false, true},
		{strings.Repeat("9", 4301), "", false, false},
		{strings.Repeat("0", 4301), "", false, false},
		{"1" + strings.Repeat("_1", 4299), strings.Repeat("1", 4300), false, true},
	}
	for _, c := range cases {
		digits, neg, ok := pyInt(c.in)
		if digits != c.digits || neg != c.neg || ok != c.ok {
			t.Errorf("pyInt(%.20q) = %.20q, %v, %v; want %.20q, %v, %v", c.in, digits, neg, ok, c.digits, c.neg, c.ok)
		}
	}
}

// TestLenientBase64 checks cursor decoding against Python's b64decode.
func TestLenientBase64(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"cD0z", "p=3", true},
		{"", "", true},
		{" ", "", true},
		{"====", "", true},
		{"!!!!", "", true},
		{"cD0=", "p=", true},
		{"cD0=x", "p=", true},
		{"cD0==", "p=", true},
		{"cD0=cD0=", "p=", true},
		{"c D\n0z", "p=3", true},
		{"cD0", "", false},
		{"a", "", false},
		{"ab", "", false},
		{"abc", "", false},
		{"cD0z\u00e9", "", false},
		{"YQ", "", false},
		{"YQ=", "", false},
		{"YQ==", "a", true},
		{"YQ=!=", "a", true},
		{"YQ=Y=", "a\x06", true},
	}
	for _, c := range cases {
		got, err := lenientBase64(c.in)
		if (err == nil) != c.ok || string(got) != c.want {
			t.Errorf("lenientBase64(%q) = %q, %v; want %q, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestParseQuery checks the reading of query strings against Django's
// QueryDict and the re-encoding of links against DRF's replace_query_param.
func TestParseQuery(t *testing.T) {
	cases := []struct {
		raw, page, replaced, removed string
	}{
		{"", "", "page=3", ""},
		{"page=2&page=5", "5", "page=3", ""},
		{"z=1&a=2&page=9", "9", "a=2&page=3&z=1", "a=2&z=1"},
		{"b=x%20y&a=%E2%82%AC&c=1%2B1", "", "a=%E2%82%AC&b=x+y&c=1%2B1&page=3", "a=%E2%82%AC&b=x+y&c=1%2B1"},
		{"a=1&a=2", "", "a=1&a=2&page=3", "a=1&a=2"},
		{"q&page=", "", "page=3&q=", "q="},
		{"a=%FF", "", "a=%EF%BF%BD&page=3", "a=%EF%BF%BD"},
		{"a=%E2%82", "", "a=%EF%BF%BD&page=3", "a=%EF%BF%BD"},
		{"a=%F0%80", "", "a=%EF%BF%BD%EF%BF%BD&page=3", "a=%EF%BF%BD%EF%BF%BD"},
		{"a=%ED%A0%80", "", "a=%EF%BF%BD%EF%BF%BD%EF%BF%BD&page=3", "a=%EF%BF%BD%EF%BF%BD%EF%BF%BD"},
		{"a+b=c+d", "", "a+b=c+d&page=3", "a+b=c+d"},
		{"a=1;page=3", "", "a=1%3Bpage%3D3&page=3", "a=1%3Bpage%3D3"},
		{"x=%zz&page=%zz", "%zz", "page=3&x=%25zz", "x=%25zz"},
		{"&&page=2&&", "2", "page=3", ""},
		{"=x", "", "=x&page=3", "=x"},
		{"x=~!*'()", "", "page=3&x=~%21%2A%27%28%29", "x=~%21%2A%27%28%29"},
		{"%E2%82%AC=1&page=1&Z=2", "1", "Z=2&page=3&%E2%82%AC=1", "Z=2&%E2%82%AC=1"},
	}
	for _, c := range cases {
		l := linker{base: "http://h/p/", query: parseQuery(c.raw)}
		page, _ := l.query.get("page")
		replaced := strings.TrimPrefix(strings.TrimPrefix(l.replace("page", "3"), "http://h/p/"), "?")
		removed := strings.TrimPrefix(strings.TrimPrefix(l.remove("page"), "http://h/p/"), "?")
		if page != c.page || replaced != c.replaced || removed != c.removed {
			t.Errorf("%q: page %q, replaced %q, removed %q; want %q, %q, %q", c.raw, page, replaced, removed, c.page, c.replaced, c.removed)
		}
	}
}

// TestEscapePath checks the path of links against Django's escape_uri_path.
func TestEscapePath(t *testing.T) {
	in := "/a b/é/%/?#;=[]/:@&+$,-_.!~*'()/"
	want := "/a%20b/%C3%A9/%25/%3F%23%3B%3D%5B%5D/:@&+$,-_.!~*'()/"
	if got := escapePath(in); got != want {
		t.Errorf("escapePath(%q) = %q, want %q", in, got, want)
	}
}
