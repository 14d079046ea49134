package queryset_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/internal/testservers"
)

// A write of a reverse accessor's keys sets them, as Django's
// RelatedManager.set() of a foreign key that is not nullable: the listed
// notes move to the person, the others keep theirs; a key that names no
// note is a MissingRelatedError naming the field, and the write is rolled
// back; a nil slice leaves the notes alone.
func TestReverseAccessorWrite(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		people, notes := shelfApp(t, db)
		for _, author := range []int{1, 1, 2} {
			if err := notes.Insert(ctx, &note{Text: "n", AuthorID: author}); err != nil {
				t.Fatal(err)
			}
		}
		all, err := people.Slice(ctx, 0, -1)
		if err != nil || len(all) != 2 {
			t.Fatal(err, all)
		}
		ann, bob := all[0], all[1]
		bob.Notes = []int64{1}
		if err := people.Update(ctx, bob); err != nil || !slices.Equal(bob.Notes, []int64{1, 3}) {
			t.Errorf("bob's notes set to [1]: %v %v, want [1 3]", err, bob.Notes)
		}
		bob.Notes, bob.Name = []int64{2, 99}, "rob"
		var missing *queryset.MissingRelatedError
		if err := people.Update(ctx, bob); !errors.As(err, &missing) || missing.Column != "notes" || missing.Value != "99" {
			t.Errorf("note 99: %v", err)
		}
		ann.Notes = nil
		if err := people.Update(ctx, ann); err != nil || !slices.Equal(ann.Notes, []int64{2}) {
			t.Errorf("ann, after a write that failed and one that leaves her notes alone: %v %v, want [2]", err, ann.Notes)
		}
		cy := &person{Name: "cy", Notes: []int64{2, 3}}
		if err := people.Insert(ctx, cy); err != nil || !slices.Equal(cy.Notes, []int64{2, 3}) {
			t.Errorf("a created person's notes: %v %v", err, cy.Notes)
		}
		if got, err := people.Filter("name", "rob").Count(ctx); err != nil || got != 0 {
			t.Errorf("the refused write renamed bob: %d %v", got, err)
		}
	})
}
