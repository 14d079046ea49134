package pagination

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/pycompat"
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
		l := linker{r: httptest.NewRequest(http.MethodGet, "http://h/p/", nil), path: "/p/", query: pycompat.AppendQuery(nil, c.raw, pycompat.UTF8)}
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
	for in, want := range map[string]string{
		"/a b/é/%/?#;=[]/:@&+$,-_.!~*'()/": "/a%20b/%C3%A9/%25/%3F%23%3B%3D%5B%5D/:@&+$,-_.!~*'()/",
		"/books/1/":                        "/books/1/",
		"/books/ 1":                        "/books/%201",
		"":                                 "",
	} {
		if got := pycompat.EscapeRequestPath(in); got != want {
			t.Errorf("EscapeRequestPath(%q) = %q, want %q", in, got, want)
		}
	}
}
