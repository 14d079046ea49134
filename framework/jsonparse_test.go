package framework_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// TestJSONParseErrorIsDRFs pins the 400 for a malformed JSON body to what
// DRF 3.14 and 3.18 answer (their JSONParser run on each body, Python
// 3.11): Python's json and codec messages, positions in characters.
func TestJSONParseErrorIsDRFs(t *testing.T) {
	v := apitest.View(framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		d, err := r.Data()
		if err != nil {
			return nil, err
		}
		return framework.OK(map[string]any{"data": d}), nil
	}}, framework.Settings{MaxBodyBytes: 1 << 20})
	limit := "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit"
	for _, c := range []struct{ ct, body, detail string }{
		{"application/json", `{"a": `, "Expecting value: line 1 column 7 (char 6)"},
		{"application/json", "[\"\xc3\xa9\", x]", "Expecting value: line 1 column 7 (char 6)"},
		{"application/json", `NaN`, "Out of range float values are not JSON compliant: 'NaN'"},
		{"application/json", `[1, -Infinity]`, "Out of range float values are not JSON compliant: '-Infinity'"},
		{"application/json", strings.Repeat("1", 4301), limit}, // Go's decoder takes it
		{"application/json", "\xe2\x82", "Expecting value: line 1 column 1 (char 0)"},
		{"application/json", "  ", "Expecting value: line 1 column 3 (char 2)"},
		{"application/json", "\xff", "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"},
		{"application/json", "{\n \"a\": 1\n \"b\": 2}", "Expecting ',' delimiter: line 3 column 2 (char 11)"},
		{"application/json", `[1] [2]`, "Extra data: line 1 column 5 (char 4)"},
		{"application/json", "\xef\xbb\xbf{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"},
		{"application/json; charset=latin-1", "[\"\xe9\", \"\\x\"]", "Invalid \\\\escape: line 1 column 8 (char 7)"},
	} {
		req := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		req.Header.Set("Content-Type", c.ct)
		w := httptest.NewRecorder()
		v.ServeHTTP(w, req)
		want := `{"detail":"JSON parse error - ` + c.detail + `"}`
		if w.Code != 400 || w.Body.String() != want {
			t.Errorf("%s %.40q: %d %s; DRF's 400 %s", c.ct, c.body, w.Code, w.Body.String(), want)
		}
	}
	for _, body := range []string{`"\ud800"`, strings.Repeat("1", 4300), strings.Repeat("1", 4301) + ".5"} {
		req := httptest.NewRequest("POST", "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		if v.ServeHTTP(w, req); w.Code != 200 {
			t.Errorf("%.40q: %d %s; DRF parses it", body, w.Code, w.Body.String())
		}
	}
}
