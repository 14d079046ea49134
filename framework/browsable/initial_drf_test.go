package browsable_test

import (
	htmlstd "html"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// initialItem is framework/serializers' testdata/drf_initial.py's S, with
// a read-only key.
type initialItem struct {
	ID           int64   `db:"id" json:"id" drf:"read_only"`
	InitialField int64   `json:"initial_field" drf:"initial=123"`
	BlankField   int64   `json:"blank_field"`
	Text         string  `json:"text" drf:"initial=hello"`
	Plain        string  `json:"plain"`
	Flag         bool    `json:"flag" drf:"initial=true"`
	Off          bool    `json:"off"`
	Ratio        float64 `json:"ratio" drf:"initial=1.5"`
	Pick         string  `json:"pick" drf:"initial=b"`
	Nothing      *int64  `json:"nothing" drf:"initial=None"`
}

var (
	rawContentRE = regexp.MustCompile(`(?s)id="post-raw-content"[^>]*>(.*?)</textarea>`)
	postFormRE   = regexp.MustCompile(`(?s)id="post-html-form".*?</form>`)
	formInputRE  = regexp.MustCompile(`<input type="(\w+)"[^>]* name="([^"]*)" value="([^"]*)"([^>]*)>`)
	formSelectRE = regexp.MustCompile(`(?s)<select[^>]* name="([^"]*)"[^>]*>.*?<option value="([^"]*)" selected`)
)

// TestInitialFormsAsDRF: DRF's TestInitial (an unbound serializer's data
// is each writable field's initial=, else its type's own), as the
// browsable page shows it: a new item's raw data and HTML form start from
// each field's initial, as DRF's BrowsableAPIRenderer's do for the same
// serializer (testdata/drf_initial.py at each level).
func TestInitialFormsAsDRF(t *testing.T) {
	api := framework.NewAPI(nil, settings)
	vs := &generics.ModelViewSet[initialItem]{}
	vs.Source = queryset.MustSlice([]initialItem{})
	vs.Serializer = serializers.MustNew[initialItem](serializers.Choices("pick",
		[]models.Choice{{Value: "a", Label: "A"}, {Value: "b", Label: "B"}}))
	keepAll(vs)
	var router routers.SimpleRouter
	router.Register("items", vs, "item")
	router.Mount(api)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	page := html(t, srv, "/items/", "X-User", "alice")
	m := rawContentRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no raw data form:\n%s", page)
	}
	content := htmlstd.UnescapeString(m[1])
	inputs := map[string]string{}
	form := postFormRE.FindString(page)
	for _, in := range formInputRE.FindAllStringSubmatch(form, -1) {
		switch {
		case in[1] != "checkbox":
			inputs[in[2]] = htmlstd.UnescapeString(in[3])
		case strings.Contains(in[4], " checked"):
			inputs[in[2]] = "checked"
		default:
			inputs[in[2]] = "unchecked"
		}
	}
	for _, s := range formSelectRE.FindAllStringSubmatch(form, -1) {
		inputs[s[1]] = s[2]
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf struct {
				Versions map[string]string `json:"versions"`
				Content  string            `json:"content"`
				Inputs   map[string]string `json:"inputs"`
			}
			drfsuite.RunDRF(t, compatibility, "../serializers/testdata/drf_initial.py", nil, &drf)
			if content != drf.Content {
				t.Errorf("TestInitial.test_initial: raw data\n%s\nDRF %s's\n%s", content, drf.Versions["rest_framework"], drf.Content)
			}
			if len(inputs) != len(drf.Inputs) {
				t.Errorf("inputs %v, DRF's %v", inputs, drf.Inputs)
			}
			for name, want := range drf.Inputs {
				if got := inputs[name]; got != want {
					t.Errorf("input %s: %q, DRF %s's %q", name, got, drf.Versions["rest_framework"], want)
				}
			}
		})
	}
}
