package pagination_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/serializers"
)

// forgetful embeds a built-in style without defining its own Setup, so
// the Setup it inherits would register the built-in style in its place.
type forgetful struct {
	pagination.PageNumberPagination
}

// TestSetupRefusesWhatCannotWork: a style whose configuration cannot work
// refuses the view when it is registered, naming the view, where each
// request would have answered 500 or silently ignored the setting.
func TestSetupRefusesWhatCannotWork(t *testing.T) {
	src := booksSource(t, openBooks(t, 1))
	for _, c := range []struct {
		name  string
		style framework.Paginator
		want  string
	}{
		{"max page size without a page size parameter", &pagination.PageNumberPagination{MaxPageSize: 20}, "needs a page size query parameter"},
		{"negative page size", &pagination.CursorPagination{PageSize: -1}, "cannot be negative"},
		{"cursor without ordering", &pagination.CursorPagination{Ordering: []string{}}, "needs an ordering"},
		{"cursor by a relation", &pagination.CursorPagination{Ordering: []string{"owner__username"}}, "orderings must be fields"},
		{"cursor by a field the source lacks", &pagination.CursorPagination{Ordering: []string{"-published"}}, `has no field "published"`},
		{"keyset key the source lacks", &pagination.KeysetPagination{Key: "uuid"}, `has no field "uuid"`},
		{"embedded style without its own Setup", &forgetful{}, "must define its own Setup"},
	} {
		t.Run(c.name, func(t *testing.T) {
			api := framework.NewAPI(nil, framework.Settings{PageSize: 10})
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, `the view at "/books/"`) || !strings.Contains(msg, c.want) {
					t.Errorf("Handle panicked with %q, want the view and %q", msg, c.want)
				}
			}()
			api.Handle("/books/", generics.ListAPIView(generics.GenericAPIView[book]{
				View:       framework.View{Pagination: c.style},
				Source:     src,
				Serializer: serializers.MustNew[book](),
			}))
		})
	}
}

// TestSetupFoldsPageSize: PAGE_SIZE is folded into the style once, at
// registration; without a page size and with no way for clients to choose
// one, the view is not paginated.
func TestSetupFoldsPageSize(t *testing.T) {
	style := &pagination.PageNumberPagination{PageSizeQueryParam: "size"}
	p, err := style.Setup(&framework.Settings{PageSize: 7})
	if err != nil || p.(*pagination.PageNumberPagination).PageSize != 7 || p.(*pagination.PageNumberPagination).PageQueryParam != "page" {
		t.Errorf("Setup = %+v, %v", p, err)
	}
	if style.PageSize != 0 || style.PageQueryParam != "" {
		t.Errorf("Setup changed the configured style: %+v", style)
	}
	if p, err := (&pagination.CursorPagination{}).Setup(&framework.Settings{}); p != nil || err != nil {
		t.Errorf("no page size: %v, %v; want no pagination", p, err)
	}
}

// TestPagesTellTheirLength: every built-in page is a framework.PageLen,
// which the access log and telemetry read.
func TestPagesTellTheirLength(t *testing.T) {
	src := booksSource(t, openBooks(t, 7))
	for _, style := range []framework.Paginator{
		&pagination.PageNumberPagination{PageSize: 5},
		&pagination.PageNumberPagination{PageSize: 5, Count: pagination.NoCount},
		&pagination.LimitOffsetPagination{DefaultLimit: 5},
		&pagination.CursorPagination{PageSize: 5, Ordering: []string{"id"}},
		&pagination.KeysetPagination{PageSize: 5, Ordering: []string{"id"}},
	} {
		page := paginate(t, style, src, "/b/")
		if n, ok := page.(framework.PageLen); !ok || n.Len() != 5 {
			t.Errorf("%T: page %T is no PageLen of 5", style, page)
		}
	}
}
