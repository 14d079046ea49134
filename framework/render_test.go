package framework_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// appender is data that appends itself, as pagination envelopes do.
type appender string

func (a appender) AppendJSON(b []byte) ([]byte, error) { return strconv.AppendQuote(b, string(a)), nil }

// TestJSONAppendRender: AppendRender appends Render's bytes after what dst
// holds, for every kind of data and with an indent, and leaves raw JSON
// data as it was.
func TestJSONAppendRender(t *testing.T) {
	raw := json.RawMessage(`{"a":[1,2]}`)
	for _, c := range []struct {
		data      any
		mediaType string
		want      string
	}{
		{raw, "application/json", `{"a":[1,2]}`},
		{raw, "application/json; indent=2", "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{json.RawMessage(nil), "application/json", `null`},
		{appender("x"), "application/json", `"x"`},
		{appender("x"), "application/json; indent=2", `"x"`},
		{map[string]any{"b": "<i>"}, "application/json", `{"b":"<i>"}`},
		{map[string]any{"b": 1}, "application/json; indent=1", "{\n \"b\": 1\n}"},
		{nil, "application/json", ``},
	} {
		rc := &framework.RenderContext{MediaType: c.mediaType}
		got, err := framework.JSONRenderer{}.AppendRender([]byte("prefix:"), c.data, rc)
		if err != nil || string(got) != "prefix:"+c.want {
			t.Errorf("AppendRender(%v, %q) = %q, %v; want %q", c.data, c.mediaType, got, err, "prefix:"+c.want)
		}
		alone, err := framework.JSONRenderer{}.Render(c.data, rc)
		if err != nil || string(alone) != c.want {
			t.Errorf("Render(%v, %q) = %q, %v; want %q", c.data, c.mediaType, alone, err, c.want)
		}
	}
	if string(raw) != `{"a":[1,2]}` {
		t.Errorf("the data was changed: %s", raw)
	}
	if _, err := (framework.JSONRenderer{}).AppendRender(nil, func() {}, nil); err == nil {
		t.Error("a func rendered without an error")
	}
}

// TestRenderBuffersAreNotShared: answers are rendered into buffers reused
// across requests; concurrent requests of bodies of many sizes each get
// their own body whole.
func TestRenderBuffersAreNotShared(t *testing.T) {
	view := apitest.View(framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		return framework.OK(map[string]any{"n": n, "pad": fmt.Sprintf("%0*d", n, n)}), nil
	}})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				n := (g*7919 + i*104729) % 100000
				w := httptest.NewRecorder()
				view.ServeHTTP(w, httptest.NewRequest("GET", "/?n="+strconv.Itoa(n), nil))
				want := fmt.Sprintf(`{"n":%d,"pad":"%0*d"}`, n, n, n)
				if w.Body.String() != want || w.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
					t.Errorf("n=%d: %d bytes, Content-Length %s", n, w.Body.Len(), w.Header().Get("Content-Length"))
					return
				}
			}
		})
	}
	wg.Wait()
}
