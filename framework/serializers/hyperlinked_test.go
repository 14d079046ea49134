package serializers_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
)

type hyperPost struct {
	ID       int64   `db:"id" json:"id"`
	AuthorID int64   `db:"author_id" json:"author" model:"foreign_key=auth_user"`
	Tags     []int64 `json:"tags" model:"many_to_many=blog_tag,blank"`
	EditorID *int64  `db:"editor_id" json:"editor" model:"foreign_key=auth_user,on_delete=set_null" drf:"view_name=editor-detail"`
}

func (hyperPost) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

type notAModel struct {
	ID int64 `json:"id"`
}

// Hyperlinked is HyperlinkedModelSerializer: a url field, and relations
// as links (examples/quickstart holds their routes to DRF's answers).
// Without a model it is refused.
func TestHyperlinked(t *testing.T) {
	s, err := serializers.New[hyperPost](serializers.Hyperlinked())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range s.Description().Fields {
		got[f.Name] = f.Type
		if f.Link {
			got[f.Name] += " link"
		}
	}
	for name, want := range map[string]string{"url": "field link", "author": "field link", "tags": "field link", "editor": "field link"} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q (all: %v)", name, got[name], want, got)
		}
	}
	if _, err := serializers.New[notAModel](serializers.Hyperlinked()); err == nil || !strings.Contains(err.Error(), "Hyperlinked needs a model") {
		t.Errorf("no model: %v", err)
	}
}
