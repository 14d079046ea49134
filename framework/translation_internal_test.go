package framework

import (
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Without LocaleMiddleware, an error's detail is rendered as it is, at
// no cost: no allocation.
func TestTranslateDetailOffAllocatesNothing(t *testing.T) {
	r := request.New(httptest.NewRequest("GET", "/", nil), request.Config{})
	var errs exceptions.ValidationErrors
	errs.Add("title", "This field is required.")
	for _, detail := range []any{"Not found.", errs} {
		if n := testing.AllocsPerRun(100, func() { _ = translateDetail(r, detail) }); n != 0 {
			t.Errorf("%T: %v allocations", detail, n)
		}
	}
}

// upper is a Translator that shouts.
type upper struct{}

func (upper) Translate(msg string) string { return "!" + msg }

// With a translator, each message of the detail is translated, at any
// depth, and the error's own detail is left as it was.
func TestTranslateDetail(t *testing.T) {
	var errs exceptions.ValidationErrors
	errs.Add("title", "This field is required.")
	errs.AddItem("tags", "1", "A valid integer is required.")
	got := TranslateDetail(upper{}, errs).(exceptions.ValidationErrors)
	b, _ := got.MarshalJSON()
	if want := `{"title":["!This field is required."],"tags":{"1":["!A valid integer is required."]}}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	if errs[0].Messages[0] != "This field is required." {
		t.Errorf("the error's own detail changed: %v", errs)
	}
	if got := TranslateDetail(upper{}, map[string]any{"detail": "Not found.", "n": 1}); got.(map[string]any)["detail"] != "!Not found." || got.(map[string]any)["n"] != 1 {
		t.Errorf("map: %v", got)
	}
	if got := TranslateDetail(upper{}, []string{"a"}); got.([]string)[0] != "!a" {
		t.Errorf("list: %v", got)
	}
}
