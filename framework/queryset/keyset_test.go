package queryset

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/query"
)

// TestSeekAfterAgrees: the SQL and slice sources select the same items
// after a composite position, each term in its direction; a null where a
// term decides is never after.
func TestSeekAfterAgrees(t *testing.T) {
	db := openItems(t)
	sqlSrc := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	all, err := sqlSrc.Slice(context.Background(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var rows []item
	for _, it := range all {
		rows = append(rows, *it)
	}
	mem := MustSlice(rows)
	// items: (id, score, owner) = (1,3,ann) (2,NULL,bo) (3,1,ann) (4,NULL,bo) (5,3,ann)
	cases := []struct {
		ordering  []query.Order
		positions []string
		want      []int64
	}{
		{[]query.Order{{Field: "score"}, {Field: "id"}}, []string{"3", "1"}, []int64{5}},
		{[]query.Order{{Field: "score"}, {Field: "id"}}, []string{"1", "3"}, []int64{1, 5}},
		{[]query.Order{{Field: "score", Desc: true}, {Field: "id"}}, []string{"3", "1"}, []int64{5, 3}},
		{[]query.Order{{Field: "score", Desc: true}, {Field: "id", Desc: true}}, []string{"3", "5"}, []int64{1, 3}},
		{[]query.Order{{Field: "owner"}, {Field: "score", Desc: true}, {Field: "id"}}, []string{"ann", "3", "5"}, []int64{3, 2, 4}},
		{[]query.Order{{Field: "id", Desc: true}}, []string{"3"}, []int64{2, 1}},
	}
	for _, c := range cases {
		for name, src := range map[string]Source[item]{"sql": sqlSrc, "slice": mem} {
			s := src.OrderBy(c.ordering...).SeekAfter(c.ordering, c.positions)
			if got := itemIDs(t, s); !slices.Equal(got, c.want) {
				t.Errorf("%s: after %v in %v: %v, want %v", name, c.positions, c.ordering, got, c.want)
			}
			n, err := s.Count(context.Background())
			if err != nil || n != len(c.want) {
				t.Errorf("%s: count %d %v, want %d", name, n, err, len(c.want))
			}
		}
	}
	for name, src := range map[string]Source[item]{"sql": sqlSrc, "slice": mem} {
		ks := src
		if _, err := ks.SeekAfter([]query.Order{{Field: "id"}}, []string{"x"}).Slice(context.Background(), 0, -1); !errors.Is(err, query.ErrInvalidValue) {
			t.Errorf("%s: position of another type: %v", name, err)
		}
		if _, err := ks.SeekAfter([]query.Order{{Field: "score"}, {Field: "id"}}, []string{"1"}).Slice(context.Background(), 0, -1); err == nil {
			t.Errorf("%s: one position for two fields was accepted", name)
		}
		var unknown *UnknownFieldError
		if _, err := ks.SeekAfter([]query.Order{{Field: "nope"}}, []string{"1"}).Slice(context.Background(), 0, -1); !errors.As(err, &unknown) {
			t.Errorf("%s: unknown field: %v", name, err)
		}
	}
}

// TestSeekAfterUsesTheIndex: a keyset page is a range search of the index
// on the ordering's columns (created, then the rowid that SQLite keeps in
// every index), in either direction, without sorting, also through a join.
func TestSeekAfterUsesTheIndex(t *testing.T) {
	db := openItems(t)
	src := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	for _, desc := range []bool{false, true} {
		ordering := []query.Order{{Field: "created", Desc: desc}, {Field: "id", Desc: desc}}
		page := src.OrderBy(ordering...).SeekAfter(ordering, []string{"b", "1"}).(*SQLSource[item])
		q := page.sql('r') + " LIMIT 5"
		text := queryPlan(t, db, q, page.args(nil)...)
		if !strings.Contains(text, "SEARCH i USING INDEX items_created (created") || strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("plan of %s\n= %s", q, text)
		}
		want := []int64{3, 4, 5}
		if desc {
			want = []int64{2}
		}
		if got := itemIDs(t, page); !slices.Equal(got, want) {
			t.Errorf("desc %v: %v, want %v", desc, got, want)
		}
	}
}
