package rawjson

import (
	"encoding/json"
	"testing"
)

func TestAppend(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{json.RawMessage(nil), "null"},
		{json.RawMessage(`{"a":1}`), `{"a":1}`},
		{"<a & b>", `"<a & b>"`},
		{map[string]any{"k": []int{1, 2}}, `{"k":[1,2]}`},
	} {
		got, err := Append([]byte("x"), c.v)
		if err != nil || string(got) != "x"+c.want {
			t.Errorf("Append(%v) = %s, %v; want x%s", c.v, got, err, c.want)
		}
	}
	if got, err := Append([]byte("x"), func() {}); err == nil || string(got) != "x" {
		t.Errorf("a func encoded: %q %v", got, err)
	}
	if got := string(AppendString(nil, "é\"<")); got != `"é\"<"` {
		t.Errorf("AppendString = %s", got)
	}
	if got, _ := MarshalIndent(map[string]int{"a": 1}, "  "); string(got) != "{\n  \"a\": 1\n}" {
		t.Errorf("MarshalIndent = %q", got)
	}
}
