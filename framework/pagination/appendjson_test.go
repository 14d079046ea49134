package pagination

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/go-drf/drf/framework"
)

// encoded is v as the JSON renderer encodes data that does not append
// itself: encoding/json without HTML escaping.
func encoded(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// TestEnvelopesAppendWhatEncodingJSONWrites: the envelopes append
// themselves byte for byte as encoding/json encodes them, whatever the
// links hold and whatever the results are.
func TestEnvelopesAppendWhatEncodingJSONWrites(t *testing.T) {
	links := []Link{"", "http://h/p/?page=2&page_size=5", `http://h/"q"\<&>/é?x=` + "\u2028\t\x7f\xff"}
	results := []any{json.RawMessage(`[{"id":1,"t":"<&>"}]`), json.RawMessage(nil), nil, []any{}, []int{1, 2},
		map[string]string{"a": "<b>"}}
	for _, next := range links {
		for _, prev := range links {
			for _, res := range results {
				for _, env := range []any{
					pageEnvelope{Count: 42, Next: next, Previous: prev, Results: res},
					cursorEnvelope{Next: next, Previous: prev, Results: res},
				} {
					got, err := env.(framework.JSONAppender).AppendJSON([]byte("x"))
					if err != nil {
						t.Fatal(err)
					}
					want := encoded(t, env)
					if string(got) != "x"+want {
						t.Errorf("%#v:\n got %s\nwant x%s", env, got, want)
					}
				}
			}
		}
	}
}
