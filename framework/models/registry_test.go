package models_test

import (
	"testing"

	"github.com/go-drf/drf/framework/models"
)

// A Registry holds the models added to it alone: a model's foreign keys
// and those of its automatic through tables, once however often it is
// added, and nothing of a model described but not added.
func TestRegistry(t *testing.T) {
	post, err := models.Of[m2mPost]()
	if err != nil {
		t.Fatal(err)
	}
	var r models.Registry
	if got := r.ReferencesTo("blog_tag"); len(got) != 0 {
		t.Errorf("an empty registry's references: %v", got)
	}
	r.Add(post)
	r.Add(post)
	if got := r.OfTable("blog_post"); len(got) != 1 || got[0] != post {
		t.Errorf("the models of blog_post: %v", got)
	}
	th := post.ManyToMany[0].ThroughModel
	if got := r.ReferencesTo("blog_tag"); len(got) != 1 || got[0].Model != th || got[0].Field != th.Field("tag") {
		t.Errorf("the references to blog_tag: %v", got)
	}
	// post_id of tags' through table, from_post_id and to_post_id of
	// links'.
	if got := r.ReferencesTo("blog_post"); len(got) != 3 {
		t.Errorf("%d references to blog_post, want the through tables' 3: %v", len(got), got)
	}
	if got := r.OfTable("blog_tag"); len(got) != 0 {
		t.Errorf("a model not added: %v", got)
	}
}
