package models

import (
	"reflect"
	"testing"
)

// constrainedPost declares Meta.Constraints as its Meta function returns
// them (badConstraints, set by the test).
type constrainedPost struct {
	ID     int64  `db:"id"`
	Title  string `db:"title" model:"max_length=50"`
	Status string `db:"status" model:"max_length=10"`
	Count  int    `db:"count"`
}

var badConstraints []Constraint

func (constrainedPost) Meta() Meta {
	return Meta{App: "blog", Name: "Post", Constraints: badConstraints}
}

// TestConstraintsRefused: Meta.Constraints that Django refuses, or that
// name no field or an unknown lookup, fail at Describe with a message
// naming the model's type and the constraint; good ones are described
// (describe, uncached, sees each case's Meta).
func TestConstraintsRefused(t *testing.T) {
	for _, c := range []struct {
		constraints []Constraint
		want        string
	}{
		{[]Constraint{{Fields: []string{"title"}}}, "models: constrainedPost: Meta.Constraints: a constraint needs a Name"},
		{[]Constraint{{Name: "a", Fields: []string{"title"}}, {Name: "a", Check: Q{"count__gte": "0"}}},
			`models: constrainedPost: Meta.Constraints names "a" twice`},
		{[]Constraint{{Name: "a"}}, `models: constrainedPost: Meta.Constraints["a"]: a UniqueConstraint has Fields (and a Condition), a CheckConstraint a Check`},
		{[]Constraint{{Name: "a", Check: Q{"count__gte": "0"}, Condition: Q{"status": "x"}}},
			`models: constrainedPost: Meta.Constraints["a"]: a UniqueConstraint has Fields (and a Condition), a CheckConstraint a Check`},
		{[]Constraint{{Name: "a", Fields: []string{"title", "slug"}}}, `models: constrainedPost: Meta.Constraints["a"] names "slug", which is no field`},
		{[]Constraint{{Name: "a", Check: Q{"hits__gte": "0"}}}, `models: constrainedPost: Meta.Constraints["a"] names "hits", which is no field`},
		{[]Constraint{{Name: "a", Check: Q{"count__range": "0"}}},
			`models: constrainedPost: Meta.Constraints["a"]: unknown lookup "range" (exact, gt, gte, lt, lte, isnull)`},
		{[]Constraint{{Name: "a", Fields: []string{"title"}, Condition: Q{"status": "live"}}, {Name: "b", Check: Q{"count__gte": "0", "count__lt": "9"}}}, ""},
	} {
		badConstraints = c.constraints
		_, err := describe(reflect.TypeOf(constrainedPost{}))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.constraints, got, c.want)
		}
	}
}

// TestConstraintsByName: a constraint naming a foreign key by its
// column names it by its Django name once described, in its fields and
// its condition, as migrations and serializers read it.
func TestConstraintsByName(t *testing.T) {
	badConstraints = []Constraint{{Name: "a", Fields: []string{"title", "owner_id"}, Condition: Q{"owner_id__isnull": "false", "status__exact": "x"}}}
	d, err := describe(reflect.TypeOf(ownedPost{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []Constraint{{Name: "a", Fields: []string{"title", "owner"}, Condition: Q{"owner__isnull": "false", "status": "x"}}}
	if !reflect.DeepEqual(d.Meta.Constraints, want) {
		t.Errorf("Meta.Constraints = %+v, want %+v", d.Meta.Constraints, want)
	}
}

// ownedPost is constrainedPost with a foreign key.
type ownedPost struct {
	ID      int64  `db:"id"`
	Title   string `db:"title" model:"max_length=50"`
	Status  string `db:"status" model:"max_length=10"`
	OwnerID int64  `db:"owner_id" model:"foreign_key=auth_user"`
}

func (ownedPost) Meta() Meta { return Meta{App: "blog", Name: "Owned", Constraints: badConstraints} }

// TestQLookups: a Q's lookups come in Django's order (by key), a key
// without a lookup is exact.
func TestQLookups(t *testing.T) {
	got := Q{"status": "live", "count__lt": "9", "count__gte": "0"}.Lookups()
	want := []Lookup{{"count", "gte", "0"}, {"count", "lt", "9"}, {"status", "exact", "live"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lookups() = %+v, want %+v", got, want)
	}
}
