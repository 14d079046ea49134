package pagination_test

import (
	"bufio"
	"encoding/json"
	"net/http/httptest"
	"os"
	"slices"
	"testing"

	"github.com/go-drf/drf/framework"
)

// recorded is one answer of the DRF reference (with its 100 seeded books),
// as testdata/reference.jsonl keeps it: the status, the Link header, and
// the envelope's count, links and result ids, or the error detail.
type recorded struct {
	Path     string  `json:"path"`
	Status   int     `json:"status"`
	Link     string  `json:"link"`
	Count    *int    `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Nested   bool    `json:"nested"`
	IDs      []int   `json:"ids"`
	Detail   string  `json:"detail"`
}

// TestReferenceAnswers replays the answers recorded from the DRF 3.14 reference
// on its pagination routes: full cursor chains in both directions (for
// -created, for rating with its duplicate values, and for the orderings
// of an ordering filter, valid and not), tampered cursors, and page-number
// and limit/offset parameters of every kind (repeated, blank, garbage,
// over the maximum, past the end, non-ASCII, unicode digits, escapes).
func TestReferenceAnswers(t *testing.T) {
	f, err := os.Open("testdata/reference.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Recorded from DRF 3.14.
	srv := httptest.NewServer(referenceMuxAt(booksSource(t, openBooks(t, 100)), framework.DRF314))
	defer srv.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var want recorded
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		n++
		got := get(t, srv, want.Path)
		if got.Status != want.Status || got.Link != want.Link {
			t.Errorf("%s: status %d, Link %q; reference %d, %q", want.Path, got.Status, got.Link, want.Status, want.Link)
			continue
		}
		var e envelope
		if want.IDs != nil && want.Count == nil && want.Next == nil && want.Previous == nil && !want.Nested {
			var items []struct{ ID int }
			if err := json.Unmarshal(got.Body, &items); err != nil {
				t.Errorf("%s: body %s is not a bare list: %v", want.Path, got.Body, err)
				continue
			}
			for _, it := range items {
				e.Results = append(e.Results, struct {
					ID int `json:"id"`
				}{it.ID})
			}
		} else {
			e = decode(t, got)
			if want.Nested {
				var nested struct {
					Links struct{ Next, Previous *string }
				}
				if err := json.Unmarshal(got.Body, &nested); err != nil {
					t.Fatal(err)
				}
				e.Next, e.Previous = nested.Links.Next, nested.Links.Previous
			}
		}
		if e.Detail != want.Detail || str(e.Next) != str(want.Next) || str(e.Previous) != str(want.Previous) ||
			(want.Count != nil) != (e.Count != nil) || want.Count != nil && *want.Count != *e.Count ||
			!slices.Equal(e.ids(), nonNil(want.IDs)) {
			t.Errorf("%s:\n got  next %s previous %s ids %v detail %q\n want next %s previous %s ids %v detail %q",
				want.Path, str(e.Next), str(e.Previous), e.ids(), e.Detail, str(want.Next), str(want.Previous), want.IDs, want.Detail)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 300 {
		t.Fatalf("only %d recorded answers", n)
	}
}

func nonNil(ids []int) []int {
	if ids == nil {
		return []int{}
	}
	return ids
}
