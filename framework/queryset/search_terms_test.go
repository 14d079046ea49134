package queryset_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// TestSearchRepeatedTerms: a term given many times is one condition, as
// Django 3.2's query makes it (Q's Node.add keeps one of identical
// children), so 1000 copies select what one does on SQLite, PostgreSQL
// and in memory, where SQLite refused the 1000 conditions (expression
// tree too large); terms that differ only in case stay two.
func TestSearchRepeatedTerms(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 30)
		mem := queryset.MustSlice(f.All(t), query.Order{Field: "id"})
		fields := []string{"title", "author"}
		for name, src := range map[string]queryset.Source[qt.Book]{"sql": f.Books, "slice": mem} {
			for _, c := range []struct{ terms, once []string }{
				{slices.Repeat([]string{"book"}, 1000), []string{"book"}},
				{slices.Repeat([]string{"0", "Author 1", "0"}, 1000), []string{"0", "Author 1"}},
				{strings.Fields(strings.Repeat("1 AUTHOR author ", 500)), []string{"1", "AUTHOR", "author"}},
			} {
				want := ids(t, src.Search(fields, c.once), 0, -1)
				if len(want) == 0 {
					t.Fatalf("%s: %q selects nothing", name, c.once)
				}
				if got := ids(t, src.Search(fields, c.terms), 0, -1); !slices.Equal(got, want) {
					t.Errorf("%s: %d copies of %q: %v, want %v", name, len(c.terms)/len(c.once), c.once, got, want)
				}
				if n := count(t, src.Search(fields, c.terms)); n != len(want) {
					t.Errorf("%s: %d copies of %q: count %d, want %d", name, len(c.terms)/len(c.once), c.once, n, len(want))
				}
			}
		}
	})
}
