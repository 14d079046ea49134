package serializers_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of testdata/drf_nested.py's blog, as written: an author, a
// tag, a post by an author with tags, and a comment on a post by a user,
// maybe reviewed.
type (
	blogAuthor struct {
		ID       int64  `db:"id" json:"id"`
		Username string `db:"username" json:"username" model:"max_length=150"`
	}
	blogTag struct {
		ID   int64  `db:"id" json:"id"`
		Name string `db:"name" json:"name" model:"max_length=20"`
	}
	blogPost struct {
		ID       int64   `db:"id" json:"id"`
		Title    string  `db:"title" json:"title" model:"max_length=50"`
		AuthorID int64   `db:"author_id" json:"author" model:"foreign_key=blog_author,related_name=posts"`
		Tags     []int64 `json:"tags" model:"many_to_many=blog_tag,related_name=posts"`
	}
	blogComment struct {
		ID         int64  `db:"id" json:"id"`
		PostID     int64  `db:"post_id" json:"post" model:"foreign_key=blog_post,related_name=comments"`
		UserID     int64  `db:"user_id" json:"user" model:"foreign_key=blog_author,related_name=comments"`
		ReviewerID *int64 `db:"reviewer_id" json:"reviewer" model:"foreign_key=blog_author,on_delete=set_null,related_name=reviewed"`
		Body       string `db:"body" json:"body" model:"max_length=100"`
	}
)

func (blogAuthor) Meta() models.Meta { return models.Meta{App: "blog", Name: "Author"} }
func (blogTag) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Tag", Ordering: []string{"name"}}
}
func (blogPost) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Post", Ordering: []string{"id"}}
}
func (blogComment) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Comment", Ordering: []string{"id"}}
}

// The serializers of drf_nested.py, each a struct of the fields it shows.
type (
	// authorOut is AuthorSerializer, and the nested user of depth=1.
	authorOut struct {
		ID       int64  `db:"id" json:"id"`
		Username string `db:"username" json:"username" model:"max_length=150"`
	}
	// tagOut is TagSerializer.
	tagOut struct {
		ID   int64  `db:"id" json:"id"`
		Name string `db:"name" json:"name" model:"max_length=20"`
	}
	// commentOut is CommentSerializer: the user's username through a
	// foreign key, the reviewer nested (null when there is none).
	commentOut struct {
		ID         int64     `db:"id" json:"id"`
		Body       string    `db:"body" json:"body" model:"max_length=100"`
		UserID     int64     `db:"user_id" json:"-" model:"foreign_key=blog_author"`
		ReviewerID *int64    `db:"reviewer_id" json:"-" model:"foreign_key=blog_author,on_delete=set_null"`
		User       string    `json:"user" drf:"source=user.username"`
		Reviewer   authorOut `json:"reviewer"`
	}
	// postOut is PostSerializer: the author nested and by a dotted
	// source, the tags (many-to-many) and the comments (reverse foreign
	// key) nested, many=True.
	postOut struct {
		ID         int64        `db:"id" json:"id"`
		Title      string       `db:"title" json:"title" model:"max_length=50"`
		AuthorID   int64        `db:"author_id" json:"-" model:"foreign_key=blog_author"`
		Author     authorOut    `json:"author"`
		AuthorName string       `json:"author_name" drf:"source=author.username"`
		Tags       []tagOut     `json:"tags" model:"many_to_many=blog_tag,related_name=posts"`
		Comments   []commentOut `json:"comments" model:"reverse=blog_comment.post_id"`
	}
	// commentDepth is CommentDepth, a ModelSerializer of depth=1: the
	// user's row nested by its foreign key's name.
	commentDepth struct {
		ID     int64     `db:"id" json:"id"`
		Body   string    `db:"body" json:"body" model:"max_length=100"`
		UserID int64     `db:"user_id" json:"-" model:"foreign_key=blog_author"`
		User   authorOut `json:"user"`
	}
	// postBrief is PostBrief: its own nested author and dotted source.
	postBrief struct {
		ID       int64     `db:"id" json:"id"`
		Title    string    `db:"title" json:"title" model:"max_length=50"`
		AuthorID int64     `db:"author_id" json:"-" model:"foreign_key=blog_author"`
		Author   authorOut `json:"author"`
		Writer   string    `json:"writer" drf:"source=author.username"`
	}
	// commentDeep is CommentDeep: the post nested, with its author.
	commentDeep struct {
		ID     int64     `db:"id" json:"id"`
		Body   string    `db:"body" json:"body" model:"max_length=100"`
		PostID int64     `db:"post_id" json:"-" model:"foreign_key=blog_post"`
		Post   postBrief `json:"post"`
	}
)

func (authorOut) Meta() models.Meta { return models.Meta{App: "blog", Name: "Author"} }
func (tagOut) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Tag", Ordering: []string{"name"}}
}
func (commentOut) Meta() models.Meta { return models.Meta{App: "blog", Name: "Comment"} }
func (postOut) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Post", Ordering: []string{"id"}}
}
func (commentDepth) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Comment", Ordering: []string{"id"}}
}
func (postBrief) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }
func (commentDeep) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Comment", Ordering: []string{"id"}}
}

// drfNested is what testdata/drf_nested.py prints.
type drfNested struct {
	Posts          json.RawMessage            `json:"posts"`
	PostsInfo      map[string]json.RawMessage `json:"posts_info"`
	Depth          json.RawMessage            `json:"depth"`
	DepthInfo      map[string]json.RawMessage `json:"depth_info"`
	Deep           json.RawMessage            `json:"deep"`
	DeepInfo       map[string]json.RawMessage `json:"deep_info"`
	WritableNested string                     `json:"writable_nested"`
	WritableDotted string                     `json:"writable_dotted"`
}

// blogTables makes drf_nested.py's tables by the blog's migration and
// fills in its rows.
func blogTables(t *testing.T, db *sqlx.DB) {
	t.Helper()
	app := migrations.NewApp("blog", blogAuthor{}, blogTag{}, blogPost{}, blogComment{})
	app.Dir = t.TempDir()
	m, err := app.MakeMigration("", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	app.Add(*m)
	migs := app.Migrations()
	if _, err := migrations.Migrate(t.Context(), db, migs...); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	authors := queryset.MustSQL[blogAuthor](db, queryset.SQLConfig{})
	for _, u := range []string{"ann", "bob", "cy"} {
		if err := authors.Insert(ctx, &blogAuthor{Username: u}); err != nil {
			t.Fatal(err)
		}
	}
	tags := queryset.MustSQL[blogTag](db, queryset.SQLConfig{})
	for _, n := range []string{"web", "go", "sql"} {
		if err := tags.Insert(ctx, &blogTag{Name: n}); err != nil {
			t.Fatal(err)
		}
	}
	posts := queryset.MustSQL[blogPost](db, queryset.SQLConfig{})
	for _, p := range []blogPost{{Title: "one", AuthorID: 1, Tags: []int64{1, 2}}, {Title: "two", AuthorID: 2},
		{Title: "three", AuthorID: 1, Tags: []int64{3}}} {
		if err := posts.Insert(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	ann, bob := int64(1), int64(2)
	comments := queryset.MustSQL[blogComment](db, queryset.SQLConfig{})
	for _, c := range []blogComment{{PostID: 1, UserID: 2, ReviewerID: &ann, Body: "nice"}, {PostID: 1, UserID: 3, Body: "meh"},
		{PostID: 3, UserID: 1, ReviewerID: &bob, Body: "self"}} {
		if err := comments.Insert(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
}

// Nested serializers that follow relations answer as DRF 3.14's and
// DRF 3.18's (testdata/drf_nested.py), on SQLite and PostgreSQL: a
// dotted source through a foreign key inside a nested comment (the
// issue's user that rendered ""), a nested author, nested tags of a
// many-to-many field in the tag model's ordering, nested comments of a
// reverse foreign key with their own nested reviewer (null when none),
// ModelSerializer's depth=1 and a nested post's own nested author and
// dotted source; OPTIONS as SimpleMetadata's. A page costs one query per
// relation, however many rows it holds.
func TestNestedRelationsAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfNested
			drfsuite.RunDRF(t, compatibility, "testdata/drf_nested.py", nil, &drf)
			querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
				blogTables(t, db)
				api := framework.NewAPI(nil, framework.Settings{})
				api.Handle("/posts/", generics.ListAPIView(generics.GenericAPIView[postOut]{
					Source: queryset.MustSQL[postOut](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[postOut]()}))
				api.Handle("/depth/", generics.ListAPIView(generics.GenericAPIView[commentDepth]{
					Source: queryset.MustSQL[commentDepth](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[commentDepth]()}))
				api.Handle("/deep/", generics.ListAPIView(generics.GenericAPIView[commentDeep]{
					Source: queryset.MustSQL[commentDeep](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[commentDeep]()}))
				c := apitest.New(t, api)
				for _, kind := range []struct {
					path    string
					want    json.RawMessage
					queries int
				}{
					// The posts, their authors, their tags, their comments
					// (with the user and the reviewer joined in).
					{"/posts/", drf.Posts, 4},
					// The comments, their users.
					{"/depth/", drf.Depth, 2},
					// The comments, their posts (with the author joined in).
					{"/deep/", drf.Deep, 2},
				} {
					queries()
					r := c.Get(kind.path)
					if n := queries(); r.Status != 200 || !sameJSON(t, []byte(r.Body), kind.want) || n != kind.queries {
						t.Errorf("GET %s: %d %s in %d queries\nDRF: %s in %d", kind.path, r.Status, r.Body, n, kind.want, kind.queries)
					}
				}
				for _, info := range []struct {
					name string
					got  json.RawMessage
					want map[string]json.RawMessage
				}{
					{"PostSerializer", serializers.MustNew[postOut]().FieldInfo(), drf.PostsInfo},
					{"CommentDepth", serializers.MustNew[commentDepth]().FieldInfo(), drf.DepthInfo},
					{"CommentDeep", serializers.MustNew[commentDeep]().FieldInfo(), drf.DeepInfo},
				} {
					if want := withoutHelpText(t, info.want); !sameJSON(t, info.got, want) {
						t.Errorf("%s OPTIONS: %s\nDRF: %s", info.name, info.got, want)
					}
				}
				// Ten times the posts and comments: a page still costs the
				// count, the page and one query per relation.
				for range 10 {
					db.MustExec(db.Rebind(`INSERT INTO "blog_post" ("title", "author_id") VALUES (?, ?)`), "more", 2)
					db.MustExec(db.Rebind(`INSERT INTO "blog_post_tags" ("post_id", "tag_id") SELECT MAX("id"), 3 FROM "blog_post"`))
					db.MustExec(db.Rebind(`INSERT INTO "blog_comment" ("post_id", "user_id", "reviewer_id", "body") SELECT MAX("id"), 3, NULL, ? FROM "blog_post"`), "late")
				}
				paged := framework.NewAPI(nil, framework.Settings{Pagination: &pagination.PageNumberPagination{}, PageSize: 2})
				paged.Handle("/paged/", generics.ListAPIView(generics.GenericAPIView[postOut]{
					Source: queryset.MustSQL[postOut](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[postOut]()}))
				pc := apitest.New(t, paged)
				for _, path := range []string{"/paged/", "/paged/?page=5"} {
					queries()
					r := pc.Get(path)
					var page struct {
						Results []postOut `json:"results"`
					}
					r.Decode(&page)
					if n := queries(); r.Status != 200 || len(page.Results) != 2 || n != 5 {
						t.Errorf("GET %s: %d %s in %d queries, want 5 (the count, the page, three relations)", path, r.Status, r.Body, n)
					}
				}
			})
			// Writable nested and dotted-source fields are refused at setup
			// (a dotted source by a view without a Perform hook:
			// WritableNested), in the words of DRF's assertion when such a
			// create is saved.
			for _, w := range []struct {
				err  error
				want string
			}{
				{newErr[writableNested](), drf.WritableNested},
				{serializers.MustNew[writableDotted]().WritableNested("create"), drf.WritableDotted},
			} {
				want, _, _ := strings.Cut(w.want, "`__main__.")
				if w.err == nil || !strings.Contains(w.err.Error(), want) || !strings.Contains(w.err.Error(), "or set `read_only=True`") {
					t.Errorf("%s: setup error %v\nDRF: %s", level, w.err, w.want)
				}
			}
		})
	}
}

// writableNested and writableDotted are drf_nested.py's WritableNested
// and WritableDotted: a nested author and the author's username, asked
// to be written (required).
type (
	writableNested struct {
		ID       int64     `db:"id" json:"id"`
		Title    string    `db:"title" json:"title" model:"max_length=50"`
		AuthorID int64     `db:"author_id" json:"-" model:"foreign_key=blog_author"`
		Author   authorOut `json:"author" drf:"required"`
	}
	writableDotted struct {
		ID         int64  `db:"id" json:"id"`
		Title      string `db:"title" json:"title" model:"max_length=50"`
		AuthorID   int64  `db:"author_id" json:"-" model:"foreign_key=blog_author"`
		AuthorName string `json:"author_name" drf:"source=author.username,required"`
	}
)

func (writableNested) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }
func (writableDotted) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

func newErr[T any]() error {
	_, err := serializers.New[T]()
	return err
}

// A nested serializer's field that no query fills (no column, no dotted
// source through a foreign key, no nested row of one) is refused at
// setup, naming the serializer and the field, never rendered empty.
func TestNestedUnreadFieldRefused(t *testing.T) {
	_, err := serializers.New[postNotes]()
	if err == nil || !strings.Contains(err.Error(), "postNotes.Comments") || !strings.Contains(err.Error(), "commentNote.Note") {
		t.Errorf("a nested field read by nothing: %v", err)
	}
	if _, err := queryset.NewSQL[postNotes](nil, queryset.SQLConfig{}); err == nil || !strings.Contains(err.Error(), "commentNote.Note") ||
		!strings.HasPrefix(err.Error(), "queryset: postNotes.Comments: ") {
		t.Errorf("its source: %v", err)
	}
}

// postNotes nests comments whose note no column holds.
type (
	commentNote struct {
		ID     int64  `db:"id" json:"id"`
		UserID int64  `db:"user_id" json:"-" model:"foreign_key=blog_author"`
		Note   string `json:"note"`
	}
	postNotes struct {
		ID       int64         `db:"id" json:"id"`
		Comments []commentNote `json:"comments" model:"reverse=blog_comment.post_id"`
	}
)

func (postNotes) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

// slugPost is drf_nested.py's SlugSerializer: the tags by their names
// (SlugRelatedField(many=True, slug_field="name")).
type slugPost struct {
	ID       int64    `db:"id" json:"id"`
	Title    string   `db:"title" json:"title" model:"max_length=50"`
	AuthorID int64    `db:"author_id" json:"author" model:"foreign_key=blog_author"`
	Tags     []string `json:"tags" model:"many_to_many=blog_tag,related_name=posts,slug_field=name"`
}

func (slugPost) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Post", Ordering: []string{"id"}}
}

// A many-to-many field of slugs is DRF's SlugRelatedField(many=True)
// (testdata/drf_nested.py's slug steps), on SQLite and PostgreSQL:
// read in the tag model's ordering, written by name in JSON and forms,
// each error in DRF's words, and OPTIONS.
func TestSlugManyAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf struct {
				Steps [][]json.RawMessage        `json:"slug_steps"`
				Info  map[string]json.RawMessage `json:"slug_info"`
			}
			drfsuite.RunDRF(t, compatibility, "testdata/drf_nested.py", nil, &drf)
			if len(drf.Steps) == 0 {
				t.Fatal("no steps")
			}
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				blogTables(t, db)
				g := generics.GenericAPIView[slugPost]{Source: queryset.MustSQL[slugPost](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[slugPost]()}
				api := framework.NewAPI(nil, framework.Settings{})
				api.Handle("/posts/", generics.ListCreateAPIView(g))
				api.Handle("/posts/{pk}/", generics.RetrieveUpdateAPIView(g))
				c := apitest.New(t, api)
				for _, step := range drf.Steps {
					var method string
					var pk *int
					var form bool
					var want map[string]json.RawMessage
					for i, v := range map[int]any{0: &method, 1: &pk, 2: &form, 4: &want} {
						if err := json.Unmarshal(step[i], v); err != nil {
							t.Fatal(err)
						}
					}
					body, ctype := string(step[3]), "application/json"
					if form {
						if err := json.Unmarshal(step[3], &body); err != nil {
							t.Fatal(err)
						}
						ctype = "application/x-www-form-urlencoded"
					}
					path := "/posts/"
					if pk != nil {
						path = "/posts/" + strconv.Itoa(*pk) + "/"
					}
					r := c.Do(method, path, body, "Content-Type: "+ctype)
					status, answer := 400, want["errors"]
					if data, ok := want["data"]; ok {
						status, answer = 200, data
						if pk == nil {
							status = 201
						}
					}
					if r.Status != status || !sameJSON(t, []byte(r.Body), answer) {
						t.Errorf("%s %s %s: %d %s\nDRF: %d %s", method, path, body, r.Status, r.Body, status, answer)
					}
				}
				if got, want := serializers.MustNew[slugPost]().FieldInfo(), withoutHelpText(t, drf.Info); !sameJSON(t, got, want) {
					t.Errorf("OPTIONS: %s\nDRF: %s", got, want)
				}
			})
		})
	}
}

// slugLinks asks for a field of slugs and of links at once.
type slugLinks struct {
	ID   int64    `db:"id" json:"id"`
	Tags []string `json:"tags" model:"many_to_many=blog_tag,slug_field=name" drf:"view_name=tag-detail"`
}

func (slugLinks) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

// A many-to-many field of slugs cannot also be of links: refused at
// setup, naming the field.
func TestSlugManySetupErrors(t *testing.T) {
	if _, err := serializers.New[slugLinks](); err == nil || !strings.Contains(err.Error(), "slugLinks.Tags: slug_field and view_name") {
		t.Errorf("slug_field with view_name: %v", err)
	}
}
