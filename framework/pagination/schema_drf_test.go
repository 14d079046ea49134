package pagination_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/internal/drfsuite"
)

// TestSchemaIsDRFs holds each style's OpenAPI description, set up at each
// level, to real DRF's (testdata/drf_schema.py): the query parameters of
// a list, and the answer's schema around the list's, whose nullable links
// OpenAPI 3.1 writes as ["string", "null"].
func TestSchemaIsDRFs(t *testing.T) {
	styles := map[string]framework.PaginatorSetup{
		"page-number":         &pagination.PageNumberPagination{PageSize: 5},
		"page-number-params":  &pagination.PageNumberPagination{PageSize: 5, PageQueryParam: "p", PageSizeQueryParam: "size"},
		"limit-offset":        &pagination.LimitOffsetPagination{DefaultLimit: 5},
		"limit-offset-params": &pagination.LimitOffsetPagination{DefaultLimit: 5, LimitQueryParam: "l", OffsetQueryParam: "o"},
		"cursor":              &pagination.CursorPagination{PageSize: 5, Ordering: []string{"id"}},
		"cursor-params":       &pagination.CursorPagination{PageSize: 5, Ordering: []string{"id"}, CursorQueryParam: "c", PageSizeQueryParam: "page_size"},
	}
	type described interface {
		SchemaParameters(*framework.View) []pagination.SchemaParameter
		ResponseSchema(results any) any
	}
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		var drf struct {
			Items map[string]struct{ Parameters, Response any }
		}
		drfsuite.RunDRF(t, level, filepath.Join("testdata", "drf_schema.py"), nil, &drf)
		if len(drf.Items) != len(styles) {
			t.Fatalf("%v: drf_schema.py described %d styles, the test %d", level, len(drf.Items), len(styles))
		}
		for name, style := range styles {
			p, err := style.Setup(&framework.Settings{Compatibility: level})
			if err != nil {
				t.Fatal(err)
			}
			d := p.(described)
			want := drf.Items[name]
			for what, pair := range map[string][2]any{
				"parameters": {d.SchemaParameters(&framework.View{}), want.Parameters},
				"response":   {d.ResponseSchema(map[string]any{"type": "array"}), openAPI31(want.Response)},
			} {
				var got any
				if err := json.Unmarshal([]byte(mustJSON(t, pair[0])), &got); err != nil {
					t.Fatal(err)
				}
				if g, w := mustJSON(t, got), mustJSON(t, pair[1]); g != w {
					t.Errorf("%v, %s: %s\n got %s\nDRF %s", level, name, what, g, w)
				}
			}
		}
	}
}

// mustJSON is v's JSON; a decoded value's object keys come sorted.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
