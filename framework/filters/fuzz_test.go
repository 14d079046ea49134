package filters_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	qt "github.com/go-drf/drf/internal/querysettest"
)

// fuzzParams are the parameters FuzzHugeValues fills: the sample's lists,
// a range, its patterns, an exact text and the search.
var fuzzParams = []string{"rating__in", "author__in", "rating__range", "title__icontains", "title__iexact", "title", "search"}

// fuzzMaxQuery is the most a value may take: net/http's default bound on
// a request's line and headers (1 MiB), which runserver keeps.
const fuzzMaxQuery = 1 << 20

// FuzzHugeValues sends one of fuzzParams with a value made of unit
// repeated n times, up to 1 MiB, to the sample's filters and search over
// SQLite: the answer is 200 or 400 naming the parameter, never an error
// of the database, whatever the size (the seeds are the sizes that were
// 500s: 70,000 list items, a 60,000-character search, 1000 repeated or
// distinct terms). A search of unit's terms repeated n times answers as
// unit does once, refused or not.
func FuzzHugeValues(f *testing.F) {
	h := booksView(qt.Open(f, 20).Books, bookFilter, bookSearch)
	distinct := make([]string, 1000)
	for i := range distinct {
		distinct[i] = "t" + strconv.Itoa(i)
	}
	for _, seed := range []struct {
		param uint8
		unit  string
		n     uint32
	}{
		{0, "1,", 70000}, {0, "7,", 1000}, {1, "Author 1,", 5000}, {2, "1,", 70000},
		{3, "%", 26000}, {3, "%", 10000}, {4, "x", 60000}, {5, "x", 60000},
		{6, "x", 60000}, {6, "book", 1000}, {6, "BOOK,001", 1000}, {6, "\U0001D501", 10001}, {6, "a%_\\", 100000},
		{6, strings.Join(distinct, " "), 1},
	} {
		f.Add(seed.param, seed.unit, seed.n)
	}
	f.Fuzz(func(t *testing.T, param uint8, unit string, n uint32) {
		if unit == "" {
			return
		}
		name := fuzzParams[int(param)%len(fuzzParams)]
		n = min(n, uint32(fuzzMaxQuery/(len(unit)+1)))
		value := strings.Repeat(unit, int(n))
		got := h(name + "=" + url.QueryEscape(value))
		switch {
		case strings.HasPrefix(got, "200 ["):
		case strings.HasPrefix(got, `400 {"`+name+`":["`):
		default:
			t.Fatalf("%s=%.80q (%d bytes): %.300s", name, value, len(value), got)
		}
		if name == "search" && n > 0 {
			repeated := h("search=" + url.QueryEscape(strings.Repeat(unit+" ", int(n))))
			if once := h("search=" + url.QueryEscape(unit)); repeated != once {
				t.Fatalf("search=%.80q %d times: %.300s\nonce: %.300s", unit, n, repeated, once)
			}
		}
	})
}
