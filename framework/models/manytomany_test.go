package models_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/models"
)

type m2mPost struct {
	ID     int64    `db:"id" json:"id"`
	Title  string   `db:"title" json:"title" model:"max_length=50"`
	Tags   []int64  `json:"tags" model:"many_to_many=blog_tag,related_name=posts,blank"`
	Links  []int64  `json:"links" model:"many_to_many=blog_post"`
	Labels []string `json:"labels" model:"many_to_many=blog_label.slug,through=blog_labelling,null"`
}

func (m2mPost) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

func TestManyToMany(t *testing.T) {
	d, err := models.Of[m2mPost]()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Fields) != 2 || len(d.ManyToMany) != 3 {
		t.Fatalf("%d columns and %d many-to-many fields, want 2 and 3", len(d.Fields), len(d.ManyToMany))
	}
	tags, links, labels := d.ManyToMany[0], d.ManyToMany[1], d.ManyToMany[2]
	if tags.Name != "tags" || tags.Table != "blog_tag" || tags.Column != "id" || tags.RelatedName != "posts" || !tags.Blank ||
		tags.Through != "blog_post_tags" || !tags.AutoCreated || tags.From != "post_id" || tags.To != "tag_id" {
		t.Errorf("tags: %+v", tags)
	}
	th := tags.ThroughModel
	if th == nil || th.Meta.Name != "Post_tags" || th.Meta.Table != "blog_post_tags" || th.PrimaryKey.Kind != models.BigAutoField ||
		!slices.Equal(th.Columns(), []string{"id", "post_id", "tag_id"}) || !slices.Equal(th.Meta.UniqueTogether[0], []string{"post", "tag"}) {
		t.Errorf("the through model: %+v", th)
	}
	if f := th.Field("tag"); f.Related.Table != "blog_tag" || f.Related.OnDelete != models.Cascade || !f.DBIndex {
		t.Errorf("the through model's tag: %+v", f)
	}
	// The same model at both ends: Django's from_ and to_ columns.
	if links.From != "from_post_id" || links.To != "to_post_id" || links.Blank {
		t.Errorf("links: %+v", links)
	}
	// A declared through model: not created with the field; null ignored.
	if labels.AutoCreated || labels.ThroughModel != nil || labels.Through != "blog_labelling" || labels.Column != "slug" {
		t.Errorf("labels: %+v", labels)
	}
	// Deleting a post or a tag deletes their through rows.
	for _, table := range []string{"blog_post", "blog_tag"} {
		if !slices.ContainsFunc(models.Described().ReferencesTo(table), func(r models.Referrer) bool { return r.Model == th }) {
			t.Errorf("no through row references %s", table)
		}
	}
}

type m2mLong struct {
	ID                                                       int     `db:"id"`
	AVeryLongManyToManyFieldNameThatDjangoWillHaveToTruncate []int64 `json:"a_very_long_many_to_many_field_name_that_django_will_truncate" model:"many_to_many=blog_tag"`
}

func (m2mLong) Meta() models.Meta { return models.Meta{App: "blog", Name: "Long"} }

func TestManyToManyLongName(t *testing.T) {
	d, err := models.Of[m2mLong]()
	if err != nil {
		t.Fatal(err)
	}
	// truncate_name('blog_long_a_very_long_many_to_many_field_name_that_django_will_truncate', 63)
	if got := d.ManyToMany[0].Through; got != "blog_long_a_very_long_many_to_many_field_name_that_django_w093c" {
		t.Errorf("through table %q", got)
	}
	if d.ManyToMany[0].ThroughModel.PrimaryKey.Kind != models.AutoField {
		t.Error("an int key's through table has an AutoField id")
	}
}

type m2mNotSlice struct {
	ID   int   `db:"id"`
	Tags int64 `json:"tags" model:"many_to_many=blog_tag"`
}

type m2mColumn struct {
	ID   int     `db:"id"`
	Tags []int64 `db:"tags" json:"tags" model:"many_to_many=blog_tag"`
}

type m2mOption struct {
	ID   int     `db:"id"`
	Tags []int64 `json:"tags" model:"many_to_many=blog_tag,on_delete=cascade"`
}

type m2mNoName struct {
	ID   int     `db:"id"`
	Tags []int64 `json:"-" model:"many_to_many=blog_tag"`
}

func TestManyToManyRefused(t *testing.T) {
	for name, err := range map[string]error{
		"m2mNotSlice.Tags: a many-to-many field is a slice":      second(models.Of[m2mNotSlice]()),
		"m2mOption.Tags: unknown option \"on_delete=cascade\"":   second(models.Of[m2mOption]()),
		"m2mNoName.Tags: a many-to-many field needs a json name": second(models.Of[m2mNoName]()),
	} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("got %v, want %q", err, name)
		}
	}
	if _, err := models.Of[m2mColumn](); err == nil || !strings.Contains(err.Error(), "m2mColumn.Tags: a many-to-many field has no column") {
		t.Errorf("a many-to-many field with a db column: %v", err)
	}
}

func second[A any](_ A, err error) error { return err }

// The other ends of m2mPost's relations: the reverse side of its tags
// (blog_post_tags, auto_created), of its links, and a reverse one-to-one
// and a reverse foreign key of slugs.
type m2mTag struct {
	ID       int64    `db:"id" json:"id"`
	Posts    []int64  `json:"posts" model:"many_to_many=blog_post,through=blog_post_tags,auto_created"`
	Profile  *int64   `json:"profile" model:"reverse=blog_profile.tag_id"`
	Comments []string `json:"comments" model:"reverse=blog_comment.tag_id,slug_field=title"`
}

func (m2mTag) Meta() models.Meta { return models.Meta{App: "blog", Name: "Tag"} }

type m2mLinked struct {
	ID       int64   `db:"id" json:"id"`
	LinkedBy []int64 `json:"linked_by" model:"many_to_many=blog_post,through=blog_post_links,auto_created"`
}

func (m2mLinked) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Post", Table: "blog_post"}
}

// The reverse side of a many-to-many of an automatic through table goes
// through that table from the other end (Django's ManyToManyRel), created
// by the other side's migrations; a pointer reverse accessor is a reverse
// one-to-one; slug_field reads the referencing rows' column.
func TestManyToManyReverseSide(t *testing.T) {
	d, err := models.Of[m2mTag]()
	if err != nil {
		t.Fatal(err)
	}
	posts := d.ManyToMany[0]
	if !posts.Reverse || posts.AutoCreated || posts.ThroughModel != nil || posts.Through != "blog_post_tags" ||
		posts.From != "tag_id" || posts.To != "post_id" || posts.Table != "blog_post" {
		t.Errorf("posts: %+v", posts)
	}
	if p := d.Reverses[0]; !p.One || p.SlugField != "" || p.Table != "blog_profile" {
		t.Errorf("profile: %+v", p)
	}
	if c := d.Reverses[1]; c.One || c.SlugField != "title" {
		t.Errorf("comments: %+v", c)
	}
	self, err := models.Of[m2mLinked]()
	if err != nil {
		t.Fatal(err)
	}
	if m := self.ManyToMany[0]; m.From != "to_post_id" || m.To != "from_post_id" {
		t.Errorf("the reverse side of a field to the model itself: %+v", m)
	}
}

type m2mReverseNoThrough struct {
	ID    int64   `db:"id"`
	Posts []int64 `json:"posts" model:"many_to_many=blog_post,auto_created"`
}

type reverseOneSlug struct {
	ID      int64   `db:"id"`
	Profile *string `json:"profile" model:"reverse=blog_profile.tag_id,slug_field=name"`
}

type reverseNotKeys struct {
	ID      int64 `db:"id"`
	Profile int64 `json:"profile" model:"reverse=blog_profile.tag_id"`
}

func TestReverseSideRefused(t *testing.T) {
	for name, err := range map[string]error{
		"m2mReverseNoThrough.Posts: auto_created needs through=TABLE":                 second(models.Of[m2mReverseNoThrough]()),
		"reverseOneSlug.Profile: slug_field needs a slice":                            second(models.Of[reverseOneSlug]()),
		"reverseNotKeys.Profile: a reverse accessor is a slice of keys, or a pointer": second(models.Of[reverseNotKeys]()),
	} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("got %v, want %q", err, name)
		}
	}
}
