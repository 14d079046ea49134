// Package rawjson writes JSON as DRF's JSON renderer does: encoding/json's
// encoding without HTML escaping (<, > and & as they are) and without the
// encoder's trailing newline. Every encoder of the module writes through
// it.
package rawjson

import (
	"bytes"
	"encoding/json"
)

// Append appends v's JSON to b. nil is null; a json.RawMessage (a
// serializer's output) is appended as it is, null when empty.
func Append(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case json.RawMessage:
		if len(v) == 0 {
			return append(b, "null"...), nil
		}
		return append(b, v...), nil
	}
	return encode(b, v, "")
}

// Marshal returns v's JSON.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// MarshalIndent returns v's JSON indented by indent per level.
func MarshalIndent(v any, indent string) ([]byte, error) { return encode(nil, v, indent) }

// AppendString appends s as a JSON string.
func AppendString(b []byte, s string) []byte {
	b, _ = encode(b, s, "") // a string always encodes
	return b
}

func encode(b []byte, v any, indent string) ([]byte, error) {
	n := len(b)
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return b[:n], err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
